"""The map-board adapter against the engine's generic route checks (routes.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "map"))

from maphelpers import board, manifest, white_block  # noqa: E402

from desk18xx.engine.actions import Route as RecordedRoute  # noqa: E402
from desk18xx.engine.map.board import Board  # noqa: E402
from desk18xx.engine.map.routes import (  # noqa: E402
    RouteRules,
    RouteSpec,
    Train,
    check_routes,
    parse_routes,
)
from desk18xx.engine.optimizer.adapters import map_problem  # noqa: E402
from desk18xx.engine.optimizer.games import to_routes  # noqa: E402
from desk18xx.engine.optimizer.model import TrainSpec  # noqa: E402
from desk18xx.engine.optimizer.scoring import TitleScoring  # noqa: E402
from desk18xx.engine.optimizer.search import solve  # noqa: E402
from desk18xx.engine.tiledef import Color  # noqa: E402

YELLOW = (Color.YELLOW,)


def col_board() -> Board:
    """Column C: C3 city(A) - C5 town - C7 city(B, full) - C9 - C11 off-board.

    Column F: F3 gray city(A) with a two-lane track to F5 off-board.
    """
    hexes = white_block("ABCDEFG", range(1, 14))
    hexes["C3"] = ("white", "city=revenue:0")
    hexes["C5"] = ("white", "town=revenue:0")
    hexes["C7"] = ("white", "city=revenue:0")
    hexes["C11"] = ("red", "offboard=revenue:yellow_30|green_40;path=a:3,b:_0")
    hexes["F3"] = ("gray", "city=revenue:10,slots:2;path=a:0,b:_0,lanes:2")
    hexes["F5"] = ("gray", "offboard=revenue:20;path=a:3,b:_0,lanes:2")
    b = board(hexes, manifest({"57": 6, "4": 2, "9": None}))
    for h, tid in (("C3", "57-0"), ("C5", "4-0"), ("C7", "57-1"), ("C9", "9-0")):
        b.lay_tile(h, tid, 0)
    b.place_token("C3", 0, "A")
    b.place_token("C7", 0, "B")
    b.place_token("F3", 0, "A")
    return b


def engine_price(b: Board, routes: tuple[RecordedRoute, ...], trains: dict[str, Train]) -> int:
    specs = [RouteSpec(r.train, tuple(tuple(c) for c in r.connections), tuple(r.nodes or ()))
             for r in routes]
    rules = RouteRules()
    parsed = parse_routes(b, "A", specs, trains, YELLOW, rules)
    return sum(check_routes(b, "A", parsed, YELLOW, rules))


def test_two_lanes_carry_two_trains_and_full_cities_end_routes() -> None:
    b = col_board()
    specs = [TrainSpec(f"2-{i}", "2", 2) for i in range(3)] + [TrainSpec("4-0", "4", 4)]
    trains = {t.id: Train(t.id, t.name, t.distance) for t in specs}
    problem = map_problem(b, "A", specs, YELLOW)
    result = solve(problem, TitleScoring())
    # two trains on the two-lane F3-F5 track (30 each); the 4-train runs C3-C5-C7 and
    # must stop at C7, full of B's tokens (20 + 10 + 20), not reaching the off-board
    assert result.revenue == 110
    routes = to_routes(problem, result)
    assert engine_price(b, routes, trains) == 110
    by_train = {r.train: r for r in routes}
    assert by_train["4-0"].hexes == ("C3", "C5", "C7")
    assert sum(1 for r in routes if r.hexes in (("F3", "F5"), ("F5", "F3"))) == 2
