"""Shared checks for study mode's off-turn sandbox lays (`Game.sandbox_lay`).

Each title lays a tile for any company as its own track step would (the first
lay of its turn: reach from its stations, colours of the phase, upgrade paths,
terrain and river costs, loans where the title takes them), whoever is to act
now: ``desk18xx.titles.g1867.sandbox`` and ``desk18xx.titles.g1822ca.sandbox``.
The game it is given changes: pass a copy (`desk18xx.engine.sandbox.try_tile_lay`
does).
"""

from __future__ import annotations

from desk18xx.engine.actions import LayTile
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game
from desk18xx.engine.round import Round


def check_running(game: Game, lay: LayTile) -> Round:
    """The round to lay in, once `lay.entity` is a running company of a running game.

    Raises:
        IllegalAction: not started, closed, or the game is over.
    """
    corp = game.corps.get(lay.entity)
    if corp is None or corp.closed or not corp.floated:
        raise IllegalAction(f"{lay.entity} is not a running company")
    if game.finished or game.round is None:
        raise IllegalAction("the game is over")
    return game.round


def lay_anyway(game: Game, lay: LayTile) -> None:
    """`Game.sandbox_lay` (kept for callers of the earlier function)."""
    game.sandbox_lay(lay)


__all__ = ["check_running", "lay_anyway"]
