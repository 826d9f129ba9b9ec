"""The bank table's train counts (desk18xx.ui.models.tables.bank_rows)."""

from __future__ import annotations

from desk18xx.engine.game import GameSetup
from desk18xx.titles.g1822ca.game import G1822CA
from desk18xx.ui.models.tables import bank_rows


def _rows(compat: bool) -> dict[str, str]:
    ids = tuple((str(100 + i), f"P{i}") for i in range(4))
    options = ("compat_18xxgames",) if compat else ()
    game = G1822CA(GameSetup("1822CA-ERS", ids, 337421161, options))
    return {r.cells[0]: r.cells[1] for r in bank_rows(game)}


def test_an_unlimited_train_supply_is_shown_as_unlimited() -> None:
    # rulebook mode: unlimited 7/E-trains (RB §9); 18xx.games stocks 20
    assert _rows(False)["Train 7"] == "unlimited × $750"
    assert _rows(True)["Train 7"] == "20 × $750"
    assert _rows(False)["Train 3"] == "6 × $200, rusts on 6"
