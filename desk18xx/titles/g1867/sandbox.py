"""1867 tile lays for study mode's off-turn sandbox (`Game.sandbox_lay`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from desk18xx.engine.actions import LayTile
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.offers import Offer
from desk18xx.titles.sandbox import check_running

if TYPE_CHECKING:
    from desk18xx.titles.g1867.game import G1867


def lay_anyway(game: G1867, lay: LayTile) -> None:
    """Apply `lay` for `lay.entity` as the first lay of its track step (card "OR Lay
    track": checked, paid, laid).

    Raises:
        IllegalAction: the rules refuse the lay, or the company cannot lay track.
    """
    from desk18xx.titles.g1867.steps.track import Track

    round_ = check_running(game, lay)
    step = Track(round_)
    step.setup(game)
    step.process(game, lay)


def lay_offers(game: G1867, corp: str, hex_id: str | None = None) -> tuple[Offer, ...]:
    """What :func:`lay_anyway` accepts for ``corp``: the offers of the first lay of
    a track step of its own (on ``hex_id`` only, when given); read-only."""
    from desk18xx.titles.g1867.offers import lay_offer
    from desk18xx.titles.g1867.steps.track import Track

    try:
        round_ = check_running(game, LayTile(entity=corp, entity_type="corporation"))
    except IllegalAction:
        return ()
    step = Track(round_)
    step.setup(game)
    edges = step.connected_edges(game, corp)
    if hex_id is not None:
        return (lay_offer(game, step, corp, hex_id, edges),)
    out = [lay_offer(game, step, corp, h, edges) for h in sorted(edges)
           if step.hex_problem(game, h) is None]
    return tuple(o for o in out if o.tiles)
