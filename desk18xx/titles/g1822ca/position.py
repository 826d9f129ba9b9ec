"""1822CA's part of the declared position (`desk18xx.engine.digest.position`).

Each name below is part of the documented position (``docs/save-format.md``,
"The position"); changing what it covers needs a new position version.  The
bid boxes are in the generic position (`Game.bid_boxes`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from desk18xx.engine.digest import plain

if TYPE_CHECKING:
    from desk18xx.titles.g1822ca.game import G1822CA

_GAME_FIELDS = (
    ("operating_rounds", "operating rounds in this set"),
    ("or_turn", "which operating round of the set"),
    ("bank_broke", "the bank has broken"),
    ("end_trigger", "what triggered the end"),
    ("end_prices", "companies at the end of the market"),
    ("cert_limit", "the certificate limit now"),
    ("debt", "players' debt to the bank"),
    ("exchange_tokens", "exchange tokens per major"),
    ("destinated", "majors that reached their destination"),
    ("destination_at", "where each destination token goes"),
    ("float_percent", "percent needed to float"),
    ("full_capitalisation", "majors fully capitalised"),
    ("bought_types", "train types bought (phase triggers)"),
    ("company_order", "order of the companies"),
    ("stacks", "the company stacks still to deal"),
    ("unlimited", "holdings over the limit allowed"),
    ("tax_haven_bought", "the tax haven has bought a share this round"),
    ("sawmill_hex", "hex of the sawmill bonus"),
    ("sawmill_owner", "owner of the sawmill bonus"),
    ("sawmill_bonus", "value of the sawmill bonus"),
    ("train_with_pullman", "the train the Pullman is attached to"),
    ("train_with_grain", "the train the grain train is attached to"),
    ("double_cash_choice", "the pending double-cash choice"),
    ("grant_lays_placed", "grant lays used"),
    ("nothing_sold_in_sr", "nothing was sold in this stock round"),
)

_STEP_FIELDS = {
    "MinorAcquisition": ("state", "minor", "shares"),
    "AssignSawmill": ("state", "owner"),
    "BuyTrainStep": ("corporations_sold",),
}

_ROUND_FIELDS = ("acquired", "acquiring_major", "big_city_used", "consent", "consented",
                 "extra_choice", "grant_lays", "grant_used", "laid_hexes", "num_laid_track",
                 "pending_tokens", "refused", "tokened", "upgraded", "players_sold")


def position_extra(game: G1822CA) -> dict[str, Any]:
    """1822CA's declared state beyond the generic position."""
    out: dict[str, Any] = {name: plain(getattr(game, name, None)) for name, _ in _GAME_FIELDS}
    r = game.round
    if r is not None:
        steps: dict[str, Any] = {}
        for step in r.steps:
            fields = _STEP_FIELDS.get(type(step).__name__)
            if fields:
                steps[type(step).__name__] = {f: plain(getattr(step, f, None)) for f in fields}
        out["round_state"] = steps
        out["turn_state"] = {f: plain(getattr(r, f, None)) for f in _ROUND_FIELDS}
    return out
