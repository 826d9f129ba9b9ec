"""A declared route's revenue is the engine's price, never the action's (RB 5.9)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from desk18xx.commands.replay import import_setup
from desk18xx.engine.actions import action_from_dict
from desk18xx.engine.digest import state_digest
from desk18xx.engine.errors import IllegalAction
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title

FIXTURE = (Path(__file__).resolve().parents[3].parent / "shared" / "fixtures" / "18xx.games"
           / "1822CA" / "1.json")


def _before_first_run() -> tuple[object, dict[str, object]]:
    imported = load_export(FIXTURE)
    game = find_title(imported.title).new_game(import_setup(imported))
    for raw in imported.actions:
        if raw["type"] == "run_routes":
            return game, dict(raw)
        game.process(action_from_dict(raw))
    raise AssertionError("no run_routes in the fixture")


def _with_revenue(raw: dict[str, object], revenue: int) -> dict[str, object]:
    routes = [dict(r) for r in raw["routes"]]  # type: ignore[attr-defined]
    routes[0]["revenue"] = revenue
    return {**raw, "routes": routes}


def test_an_import_runs_at_the_engines_price() -> None:
    game, raw = _before_first_run()
    honest = game.copy()  # type: ignore[attr-defined]
    honest.process(action_from_dict(raw))
    game.process(action_from_dict(_with_revenue(raw, 500)))  # type: ignore[attr-defined]
    assert state_digest(game) == state_digest(honest)  # type: ignore[arg-type]
    assert game.route_problems and "not $500" in game.route_problems[-1]  # type: ignore


def test_our_games_refuse_a_wrong_revenue() -> None:
    game, raw = _before_first_run()
    game.config = dataclasses.replace(game.config, strict_routes=True)  # type: ignore
    declared = raw["routes"][0]["revenue"]  # type: ignore[index]
    with pytest.raises(IllegalAction, match=rf"earns \${declared} on that route, not \$501"):
        game.process(action_from_dict(_with_revenue(raw, 501)))  # type: ignore[attr-defined]
    without = _with_revenue(raw, 0)
    del without["routes"][0]["revenue"]  # type: ignore[index, attr-defined]
    honest = game.copy()  # type: ignore[attr-defined]
    honest.process(action_from_dict(raw))
    game.process(action_from_dict(without))  # type: ignore[attr-defined]
    assert state_digest(game) == state_digest(honest)  # type: ignore[arg-type]


def test_rulebook_games_are_strict() -> None:
    from desk18xx.titles.g1822ca.rules import config_for

    assert config_for("1822CA", compat_18xxgames=False).strict_routes
    assert not config_for("1822CA", compat_18xxgames=True).strict_routes
