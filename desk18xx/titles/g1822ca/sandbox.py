"""1822CA tile lays for study mode's off-turn sandbox (`Game.sandbox_lay`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from desk18xx.engine.actions import LayTile
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.offers import Offer
from desk18xx.titles.sandbox import check_running

if TYPE_CHECKING:
    from desk18xx.titles.g1822ca.game import G1822CA


def lay_anyway(game: G1822CA, lay: LayTile) -> None:
    """Apply `lay` for `lay.entity` as the operating company's lay would (RB 5.7:
    reach, colour, upgrade path, the minors' yellow/green limit and the cost).

    Raises:
        IllegalAction: the rules refuse the lay, or the company cannot lay track.
    """
    check_running(game, lay)
    game.lay_tile(lay.entity, lay.hex, lay.tile, lay.rotation)


def lay_offers(game: G1822CA, corp: str, hex_id: str | None = None) -> tuple[Offer, ...]:
    """What :func:`lay_anyway` accepts for ``corp``: a lay of any kind by the
    company's own reach, colours and cash (RB 5.7; on ``hex_id`` only, when given);
    read-only."""
    from desk18xx.titles.g1822ca.offers import sandbox_lays

    try:
        check_running(game, LayTile(entity=corp, entity_type="corporation"))
    except IllegalAction:
        return ()
    return tuple(sandbox_lays(game, corp, hex_id))
