"""1867's part of the declared position (`desk18xx.engine.digest.position`).

Each name below is part of the documented position (``docs/save-format.md``,
"The position"); changing what it covers needs a new position version.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from desk18xx.engine.digest import plain

if TYPE_CHECKING:
    from desk18xx.titles.g1867.game import G1867

_GAME_FIELDS = (
    # (position name, what it is)
    ("loans_left", "loans the bank can still give"),
    ("loans_cancelled", "loans taken out of the game"),
    ("interest", "interest owed per company this round"),
    ("interest_paid", "interest paid per company this round"),
    ("bank_broken", "the bank has broken"),
    ("operating_rounds", "operating rounds in this set"),
    ("final_turn", "the last stock-round turn, once the end is triggered"),
    ("final_operating_rounds", "operating rounds left at the end"),
    ("game_end_trigger", "what triggered the end"),
    ("cert_limit", "the certificate limit now"),
    ("minors_can_start", "minors may be started"),
    ("show_majors", "majors are on offer"),
    ("available", "companies on offer"),
    ("export_count", "trains exported"),
    ("green_tokens_removed", "the green phase's tokens are gone"),
    ("national_reservations", "the CN's reserved cities"),
    ("pending_tokens", "tokens that must be placed before play goes on"),
    ("trainless_major", "trainless majors waiting to choose"),
    ("trainless_nationalization", "a trainless major is being nationalised"),
)

_STEP_FIELDS = {
    # step concept -> the standing decision it holds
    "PrivateAuction": ("auctioning", "bids", "order", "active", "declined", "dutch"),
    "BuySellParShares": ("auctioning", "bids", "order", "active", "bought", "sold_now",
                         "players_sold"),
    "MergeStep": ("merging", "merge_major", "converting", "consent"),
    "MajorTrainless": ("held",),
    "PostMergerShares": ("broken",),
    "Track": ("laid", "upgraded", "laid_hexes"),
    "RouteStep": ("ran",),
}


def position_extra(game: G1867) -> dict[str, Any]:
    """1867's declared state beyond the generic position."""
    out: dict[str, Any] = {name: plain(getattr(game, name, None)) for name, _ in _GAME_FIELDS}
    r = game.round
    if r is not None:
        steps: dict[str, Any] = {}
        for step in r.steps:
            fields = _STEP_FIELDS.get(type(step).__name__)
            if fields:
                steps[type(step).__name__] = {f: plain(getattr(step, f, None)) for f in fields}
        out["round_state"] = steps
        out["merger"] = {f: plain(getattr(r, f, None)) for f in
                         ("converted", "merge_type", "dealing_players", "removing_tokens")}
    return out
