"""Tile lays for study mode's off-turn sandbox, by each title's own track rules.

`lay_anyway` lays a tile for any company as its own track step would (the
first lay of its turn: reach from its stations, colours of the phase, upgrade
paths, terrain and river costs, loans where the title takes them), whoever is
to act now. It changes the game it is given: pass a copy
(`desk18xx.engine.sandbox.try_tile_lay` does).
"""

from __future__ import annotations

from desk18xx.engine.actions import LayTile
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game


def lay_anyway(game: Game, lay: LayTile) -> None:
    """Apply `lay` for `lay.entity` as the first lay of that company's track step.

    Raises:
        IllegalAction: the title's rules refuse the lay (or the company cannot lay
            track at all: not started, closed, not on the map).
    """
    corp = game.corps.get(lay.entity)
    if corp is None or corp.closed or not corp.floated:
        raise IllegalAction(f"{lay.entity} is not a running company")
    if game.finished or game.round is None:
        raise IllegalAction("the game is over")
    from desk18xx.titles.g1822ca.game import G1822CA
    from desk18xx.titles.g1867.game import G1867

    if isinstance(game, G1867):
        from desk18xx.titles.g1867.steps.track import Track

        step = Track(game.round)
        step.setup(game)
        step.process(game, lay)  # card "OR Lay track": checked, paid, laid
        return
    if isinstance(game, G1822CA):
        # RB 5.7: the operating company's lay; lay_tile checks reach, colour,
        # upgrade path, the minors' yellow/green limit and the cost
        game.lay_tile(lay.entity, lay.hex, lay.tile, lay.rotation)
        return
    raise IllegalAction(f"no sandbox tile lays for {game.title_id}")


__all__ = ["lay_anyway"]
