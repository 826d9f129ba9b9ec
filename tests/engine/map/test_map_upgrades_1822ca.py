"""1822CA tile lays: big cities, La Prairie, mountain passes, future labels, double towns."""

from __future__ import annotations

import pytest
from maphelpers import RULES_1822CA, board, manifest, white_block

from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.map.board import Board
from desk18xx.engine.map.upgrades import (
    TrackRules,
    check_tile_lay,
    lay_cost,
    lay_tile,
    legal_rotations,
    legal_tiles,
    upgrade_problem,
)
from desk18xx.engine.tiledef import Color

Y = [Color.YELLOW]
YG = [Color.YELLOW, Color.GREEN]
ALL = [Color.YELLOW, Color.GREEN, Color.BROWN, Color.GRAY]

RULES = RULES_1822CA

HEXES = {
    "AC21": (
        "white",
        "city=revenue:20,groups:Toronto;city=revenue:20,groups:Toronto;path=a:1,b:_0;"
        "path=a:3,b:_1;upgrade=cost:20;label=T;border=edge:0,type:impassable",
    ),
    "AF12": (
        "white",
        "city=revenue:20,groups:Montreal,slots:2;city=revenue:20,groups:Montreal;path=a:0,b:_0;"
        "upgrade=cost:20;label=M;border=edge:4,type:water,cost:20;"
        "border=edge:5,type:water,cost:20",
    ),
    "AG13": (
        "white",
        "city=revenue:20,loc:center;town=revenue:10,loc:4;path=a:_0,b:_1;"
        "border=edge:1,type:water,cost:20;border=edge:2,type:water,cost:20",
    ),
    "Z28": ("white", "city=revenue:0;future_label=label:A,color:green"),
    "AH10": (
        "white",
        "town=revenue:0;town=revenue:0;border=edge:2,type:water,cost:40;"
        "border=edge:3,type:water,cost:40",
    ),
    "AD20": ("white", "city=revenue:0"),
}
WEST = {
    "F16": ("white", "upgrade=cost:120,terrain:mountain;label=CP"),
    "N16": (
        "white",
        "city=revenue:20,groups:Winnipeg,slots:2;city=revenue:20,groups:Winnipeg;"
        "city=revenue:20,groups:Winnipeg;city=revenue:20,groups:Winnipeg;path=a:1,b:_0;"
        "path=a:2,b:_0;path=a:3,b:_1;path=a:4,b:_2;path=a:5,b:_3;upgrade=cost:20;label=W",
    ),
}

CUSTOM: dict[str, tuple[str, str, int | None]] = {
    "T1": (
        "yellow",
        "city=revenue:30,groups:Toronto;city=revenue:30,groups:Toronto;path=a:1,b:_0;"
        "path=a:3,b:_1;label=T;upgrade=cost:40",
        1,
    ),
    "T5": (
        "brown",
        "city=revenue:50,groups:Toronto,slots:3;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;"
        "path=a:4,b:_0;label=T;upgrade=cost:80",
        1,
    ),
    "T6": (
        "gray",
        "city=revenue:90,groups:Toronto,slots:2;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;"
        "path=a:4,b:_0;label=T",
        1,
    ),
    "M1": (
        "yellow",
        "city=revenue:30,groups:Montreal;city=revenue:30,groups:Montreal,slots:2;path=a:0,b:_1;"
        "path=a:1,b:_1;path=a:2,b:_0;path=a:3,b:_0;label=M;upgrade=cost:40",
        1,
    ),
    "A1": (
        "green",
        "city=revenue:40,slots:2;path=a:1,b:_0,lanes:2;path=a:3,b:_0;path=a:4,b:_0;label=A",
        1,
    ),
    "W1": (
        "yellow",
        "city=revenue:30,groups:Winnipeg,slots:2,loc:1.5;city=revenue:30,groups:Winnipeg;"
        "city=revenue:30,groups:Winnipeg;city=revenue:30,groups:Winnipeg;path=a:1,b:_0;"
        "path=a:2,b:_0;path=a:3,b:_1;path=a:4,b:_2;path=a:5,b:_3;label=W;upgrade=cost:40",
        1,
    ),
    "W3": (
        "green",
        "city=revenue:40,groups:Winnipeg,slots:2,loc:1.5;city=revenue:40,groups:Winnipeg,"
        "slots:3,loc:4.5;path=a:0,b:_1;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_1;"
        "path=a:4,b:_1;path=a:5,b:_1;label=W;upgrade=cost:60",
        1,
    ),
}


def east() -> Board:
    cols = ["X", "Y", "Z", "AA", "AB", "AC", "AD", "AE", "AF", "AG", "AH", "AI"]
    hexes = white_block(cols, range(5, 31))
    hexes.update(HEXES)
    hexes.update(WEST)
    hexes.update(white_block(["E", "F", "G", "M", "N", "O"], range(13, 20)))
    hexes.update(WEST)
    names: dict[str, int | None] = {n: 6 for n in ("1", "2", "3", "4", "57", "5", "6", "14")}
    names.update({"7": None, "8": None, "9": None})
    return board(hexes, manifest(names, CUSTOM))


def test_toronto_yellow_tile_has_a_fixed_rotation() -> None:
    b = east()
    assert legal_rotations(b, "AC21", b.tile_def("T1"), RULES) == (0,)
    check_tile_lay(b, "AC21", "T1-0", 0, Y, RULES)
    with pytest.raises(IllegalAction, match="rotation 0"):
        check_tile_lay(b, "AC21", "T1-0", 3, Y, RULES)
    assert lay_cost(b, "AC21", b.tile_def("T1"), 0, RULES).total == 20
    assert upgrade_problem(b, "AC21", b.tile_def("57"), RULES) is not None


def test_forbidden_big_city_upgrade() -> None:
    b = east()
    b.lay_tile("AC21", "T5-0", 0)
    assert "may not be upgraded" in (upgrade_problem(b, "AC21", b.tile_def("T6"), RULES) or "")


def test_montreal_keeps_slot_sizes() -> None:
    b = east()
    rots = legal_rotations(b, "AF12", b.tile_def("M1"), RULES)
    assert rots and set(rots) <= {0, 5}
    # Rotation 0: the 2-slot city on edge 0 lands in M1's 2-slot city (edges 0, 1).
    check_tile_lay(b, "AF12", "M1-0", 0, Y, RULES)


def test_la_prairie_takes_a_plain_yellow_city_and_loses_its_town() -> None:
    b = east()
    assert "Only tiles 5, 57, 6" in (upgrade_problem(b, "AG13", b.tile_def("4"), RULES) or "")
    rots = legal_rotations(b, "AG13", b.tile_def("57"), RULES)
    assert rots
    cost = lay_tile(b, "AG13", "57-0", rots[0], RULES)
    exits = b.hex("AG13").geo.exits
    assert cost.total == 20 * len({1, 2} & exits)
    assert not b.hex("AG13").geo.town_nodes
    # Afterwards the usual rules apply: a green plain city, not another yellow.
    assert upgrade_problem(b, "AG13", b.tile_def("14"), RULES) is None
    assert upgrade_problem(b, "AG13", b.tile_def("5"), RULES) is not None


def test_windsor_needs_an_a_tile_in_green() -> None:
    b = east()
    check_tile_lay(b, "Z28", "57-0", 1, Y, RULES)
    lay_tile(b, "Z28", "57-0", 1, RULES)  # exits 1 and 4
    assert "label A" in (upgrade_problem(b, "Z28", b.tile_def("14"), RULES) or "")
    assert upgrade_problem(b, "Z28", b.tile_def("A1"), RULES) is None
    assert "A1" in legal_tiles(b, "Z28", YG, RULES)
    b.lay_tile("Z28", "A1-0", legal_tiles(b, "Z28", YG, RULES)["A1"][0])
    assert b.hex("Z28").future_label is None


def test_mountain_pass_accepts_plain_track_despite_its_label() -> None:
    b = east()
    assert upgrade_problem(b, "F16", b.tile_def("9"), RULES) is None
    assert upgrade_problem(b, "F16", b.tile_def("57"), RULES) is not None
    cost = lay_cost(b, "F16", b.tile_def("9"), 0, RULES)
    assert cost.total == 120 and cost.terrain_types == ("mountain",)
    no_exemption = TrackRules()
    assert upgrade_problem(b, "F16", b.tile_def("9"), no_exemption) is not None


def test_double_town() -> None:
    b = east()
    assert upgrade_problem(b, "AH10", b.tile_def("1"), RULES) is None
    assert "towns" in (upgrade_problem(b, "AH10", b.tile_def("4"), RULES) or "")
    rots = legal_rotations(b, "AH10", b.tile_def("1"), RULES)
    assert rots
    cost = lay_cost(b, "AH10", b.tile_def("1"), 0, RULES)  # exits 1, 3, 0, 4
    assert cost.total == 40 and [c.edge for c in cost.borders] == [3]


def test_winnipeg_upgrade_keeps_every_city() -> None:
    b = east()
    assert legal_rotations(b, "N16", b.tile_def("W1"), RULES) == (0,)
    lay_tile(b, "N16", "W1-0", 0, RULES)
    b.place_token("N16", 1, "GNW")
    assert legal_rotations(b, "N16", b.tile_def("W3"), RULES) == (0, 2, 3)
    b.lay_tile("N16", "W3-0", 0)
    st = b.hex("N16")
    assert [t.corp for t in st.city_tokens(1)] == ["GNW"]


def test_unlabelled_city_most_exits_only_for_unlabelled() -> None:
    b = east()
    lay_tile(b, "AD20", "57-0", 0, RULES)
    assert "14" in legal_tiles(b, "AD20", YG, RULES)
    check_tile_lay(b, "AD20", "14-0", 0, YG, RULES)
