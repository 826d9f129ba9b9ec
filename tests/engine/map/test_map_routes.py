"""Route parsing, validation and revenue on hand-built boards."""

from __future__ import annotations

import time
from collections.abc import Sequence

import pytest
from maphelpers import board, manifest, white_block

from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.map.board import Board
from desk18xx.engine.map.graph import PathRef
from desk18xx.engine.map.routes import (
    DistancePart,
    Route,
    RouteContext,
    RouteRules,
    RouteSpec,
    Stop,
    Train,
    check_routes,
    fill_optional_stops,
    parse_route,
    parse_routes,
)
from desk18xx.engine.tiledef import Color

YELLOW = (Color.YELLOW,)
GREEN = (Color.YELLOW, Color.GREEN)
RULES = RouteRules()


def t(n: int, i: int = 0) -> Train:
    return Train(f"{n}-{i}", str(n), n)


def col_board() -> Board:
    """Column C: C3 city(A) - C5 town - C7 city(B, full) - C9 - C11 off-board.

    Column D: D3 Detroit - D5 city(A) - D7 Detroit (same group).
    Column F: F3 gray city(A) with a two-lane track to F5 off-board.
    """
    hexes = white_block("ABCDEFG", range(1, 14))
    hexes["C3"] = ("white", "city=revenue:0")
    hexes["C5"] = ("white", "town=revenue:0")
    hexes["C7"] = ("white", "city=revenue:0")
    hexes["C11"] = ("red", "offboard=revenue:yellow_30|green_40;path=a:3,b:_0")
    hexes["D3"] = ("red", "offboard=revenue:30,groups:Detroit;path=a:0,b:_0")
    hexes["D5"] = ("white", "city=revenue:0")
    hexes["D7"] = ("red", "offboard=revenue:30,groups:Detroit;path=a:3,b:_0")
    hexes["F3"] = ("gray", "city=revenue:10,slots:2;path=a:0,b:_0,lanes:2")
    hexes["F5"] = ("gray", "offboard=revenue:20;path=a:3,b:_0,lanes:2")
    hexes["E9"] = ("gray", "city=revenue:0,visit_cost:99;path=a:0,b:_0;path=a:3,b:_0")
    hexes["E7"] = ("white", "city=revenue:0")
    b = board(hexes, manifest({"57": 6, "4": 2, "9": None}))
    for h, tid in (
        ("C3", "57-0"), ("C5", "4-0"), ("C7", "57-1"), ("C9", "9-0"),
        ("D5", "57-2"), ("E7", "57-3"), ("E11", "9-1"),
    ):
        b.lay_tile(h, tid, 0)
    b.place_token("C3", 0, "A")
    b.place_token("C7", 0, "B")
    b.place_token("D5", 0, "A")
    b.place_token("F3", 0, "A")
    b.place_token("E7", 0, "A")
    return b


def run(
    b: Board, corp: str, routes: Sequence[tuple[Train, list[list[str]]]],
    colors: tuple[Color, ...] = YELLOW, rules: RouteRules = RULES,
) -> list[int]:
    parsed: list[Route] = []
    used: list[PathRef] = []
    for train, conns in routes:
        r = parse_route(b, train, conns, corp=corp, phase_colors=colors, used=used)
        parsed.append(r)
        used.extend(r.paths)
    return check_routes(b, corp, parsed, colors, rules)


def test_simple_route_and_towns_count_for_numbered_trains() -> None:
    b = col_board()
    b2 = b.copy()
    assert run(b, "A", [(t(2), [["C3", "C5"]])]) == [20 + 10]
    r = parse_route(b2, t(2), [["C5", "C3"]], corp="A", phase_colors=YELLOW)
    assert r.revenue_str() == "C5-C3"
    assert r.node_signatures() == ["C5-0", "C3-0"]


def test_too_many_stops() -> None:
    b = col_board()
    with pytest.raises(IllegalAction, match="too many stops"):
        run(b, "A", [(t(2), [["C3", "C5"], ["C5", "C7"]])])
    assert run(b, "A", [(t(3), [["C3", "C5"], ["C5", "C7"]])]) == [50]


def test_cannot_pass_a_full_foreign_city() -> None:
    b = col_board()
    with pytest.raises(IllegalAction, match="pass through C7"):
        run(b, "A", [(t(4), [["C3", "C5"], ["C5", "C7"], ["C7", "C9", "C11"]])])
    # B may: its own token.
    assert run(b, "B", [(t(4), [["C3", "C5"], ["C5", "C7"], ["C7", "C9", "C11"]])]) == [80]


def test_offboard_revenue_by_phase() -> None:
    b = col_board()
    assert run(b, "B", [(t(2), [["C7", "C9", "C11"]])]) == [50]
    assert run(b, "B", [(t(2), [["C11", "C9", "C7"]])], GREEN) == [60]


def test_route_needs_a_token() -> None:
    b = col_board()
    with pytest.raises(IllegalAction, match="token"):
        run(b, "A", [(t(2), [["C7", "C9", "C11"]])])


def test_track_is_not_reused_between_routes() -> None:
    b = col_board()
    with pytest.raises(IllegalAction):
        run(b, "A", [(t(2, 0), [["C3", "C5"]]), (t(2, 1), [["C3", "C5"]])])
    with pytest.raises(IllegalAction, match="more than once"):
        run(b, "A", [(t(2), [["C3", "C5"]]), (t(2), [["D3", "D5"]])])


def test_two_lanes_carry_two_routes() -> None:
    b = col_board()
    assert run(b, "A", [(t(2, 0), [["F3", "F5"]]), (t(2, 1), [["F3", "F5"]])]) == [30, 30]
    with pytest.raises(IllegalAction):
        run(b, "A", [(t(2, i), [["F3", "F5"]]) for i in range(3)])


def test_one_stop_per_group() -> None:
    b = col_board()
    with pytest.raises(IllegalAction, match="Detroit only once"):
        run(b, "A", [(t(3), [["D3", "D5"], ["D5", "D7"]])])
    assert run(b, "A", [(t(2), [["D5", "D7"]])]) == [20 + 30]


def test_unusable_stop_with_visit_cost_99() -> None:
    b = col_board()
    with pytest.raises(IllegalAction, match="too many stops"):
        run(b, "A", [(t(8), [["E7", "E9"]])])


def test_local_train() -> None:
    b = col_board()
    ltrain = Train("L-0", "L", 1, local=True)
    assert run(b, "A", [(ltrain, [["local", "C3"]])]) == [20]
    with pytest.raises(IllegalAction):
        run(b, "A", [(t(2), [["local", "C3"]])])


def test_route_specs_and_connections_round_trip() -> None:
    b = col_board()
    trains = {"3-0": t(3)}
    spec = RouteSpec("3-0", (("C5", "C3"), ("C7", "C5")), ("C3-0", "C5-0", "C7-0"))
    (r,) = parse_routes(b, "A", [spec], trains, YELLOW)
    assert [s.hex for s in r.visits] == ["C3", "C5", "C7"]
    assert r.connections() == [["C3", "C5"], ["C5", "C7"]]
    with pytest.raises(IllegalAction, match="no train"):
        parse_routes(b, "A", [RouteSpec("9-9", (("C3", "C5"),))], trains, YELLOW)
    with pytest.raises(IllegalAction):
        parse_routes(b, "A", [RouteSpec("3-0", (("C3", "C9"),))], trains, YELLOW)


class Towns1867(RouteRules):
    """1867-style: cities and off-boards are mandatory, towns only fill places."""

    distinct_hexes = True

    def select_stops(self, ctx: RouteContext, route: Route) -> tuple[Stop, ...]:
        dist = route.train.distance
        assert not isinstance(dist, int)
        pay = next(d.pay for d in dist if d.pay > 0)
        return fill_optional_stops(self, ctx, route, frozenset({"city", "offboard"}), pay)


def t1867(n: int) -> Train:
    return Train(
        f"{n}-0",
        str(n),
        (
            DistancePart(frozenset({"city", "offboard"}), n, n),
            DistancePart(frozenset({"town"}), 0, 99),
        ),
    )


def test_1867_towns_are_optional_fillers() -> None:
    b = col_board()
    rules = Towns1867()
    # C3 - C5 (town) - C7: two cities fill the 2-train; the town earns nothing.
    assert run(b, "A", [(t1867(2), [["C3", "C5"], ["C5", "C7"]])], rules=rules) == [40]
    # C3 - C5 only: the town fills the second place.
    assert run(b, "A", [(t1867(2), [["C3", "C5"]])], rules=rules) == [30]


def test_routes_are_fast() -> None:
    b = col_board()
    trains = {"4-0": t(4)}
    spec = RouteSpec("4-0", (("C3", "C5"), ("C5", "C7"), ("C7", "C9", "C11")))
    start = time.perf_counter()
    for _ in range(200):
        routes = parse_routes(b, "B", [spec], trains, YELLOW)
        check_routes(b, "B", routes, YELLOW, RULES)
    per_route = (time.perf_counter() - start) / 200
    assert per_route < 0.002
