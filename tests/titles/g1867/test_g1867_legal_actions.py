"""The legal-actions query tells a user interface who acts and with which choices."""

from __future__ import annotations

from g1867_helpers import replay_prefix

from desk18xx.titles.g1867.steps.operating import Track


def test_track_step_lists_hexes_and_tiles_with_rotations() -> None:
    game = replay_prefix("21268.json", 503)
    la = game.legal_actions()
    assert la.entity == "CPR" and "lay_tile" in la.types and la.step == "Track"
    assert la.details["extra_cost"] == 20 and "H10" in la.details["hexes"]
    step = game.round.active_step(game)  # type: ignore[union-attr]
    assert isinstance(step, Track)
    tiles = dict(step.legal_tiles(game, "CPR", "H10"))
    assert tiles.get("204-1") and 4 in tiles["204-1"]  # what the recorded game laid


def test_dividend_and_train_choices() -> None:
    game = replay_prefix("21268.json", 505)
    la = game.legal_actions()
    assert la.types == ("buy_company", "dividend") and la.details["revenue"] == 400
    game = replay_prefix("21268.json", 507)
    la = game.legal_actions()
    assert "buy_train" in la.types and la.details["bank"][0]["name"] == "6"


def test_stock_round_choices() -> None:
    game = replay_prefix("21268.json", 426)
    la = game.legal_actions()
    assert la.round == "stock" and "buy_shares" in la.types
    assert la.details["buyable"] and la.details["cert_limit"] == 16
