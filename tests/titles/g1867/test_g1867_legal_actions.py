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


def test_early_stopping_token_check_agrees_with_the_full_walk() -> None:
    """``TokenStep.can_token`` stops walking at the first open city; at every token
    step of a recorded game it must say what the full list of reachable cities says,
    for the step as a whole and for each open city on the board."""
    from pathlib import Path

    from desk18xx.commands.replay import import_setup
    from desk18xx.engine.actions import action_from_dict
    from desk18xx.io.import_18xxgames import load_export
    from desk18xx.titles.g1867.game import G1867
    from desk18xx.titles.g1867.steps.track import TokenStep

    root = Path(__file__).resolve().parents[3].parent / "shared" / "fixtures" / "18xx.games"
    imported = load_export(root / "1867" / "21268.json")
    game = G1867(import_setup(imported))
    checked = reached = 0
    for raw in imported.actions:
        step = game.round.active_step(game) if game.round is not None else None
        entity = game.legal_actions().entity
        if isinstance(step, TokenStep) and entity is not None and game.is_major(entity):
            board = game.board
            assert board is not None
            listed = set(step.tokenable(game, entity))
            assert step.can_token(game, entity) == bool(listed)
            for h, node in step.open_cities(game, entity):
                city = board.hex(h).geo.city_nodes.index(node)
                assert step.can_token(game, entity, h, city) == ((h, city) in listed)
                reached += (h, city) in listed
            checked += 1
        game.process(action_from_dict(raw))
    assert checked > 20 and reached > 10
