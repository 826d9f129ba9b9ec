"""Tile-lay legality and costs, 1867 and 1822CA, on hand-built boards.

Hex and tile codes are copied from the 18xx.games reference data.
"""

from __future__ import annotations

import pytest
from maphelpers import RULES_1867, board, manifest, white_block

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
YGB = [Color.YELLOW, Color.GREEN, Color.BROWN]
ALL = [Color.YELLOW, Color.GREEN, Color.BROWN, Color.GRAY]

R1867 = RULES_1867
R1822CA = TrackRules(
    max_exits="unlabeled_cities",
    border_costs="each_side",
    fixed_rotations={"T1": (0,), "T2": (0,), "Q1": (0, 3, 5), "M1": (0, 5)},
    forbidden_upgrades={"T5": frozenset({"T6"})},
    label_exemptions={"F16": frozenset({"7", "8", "9"})},
    replace_only={"AG13": frozenset({"5", "6", "57"})},
)

HEX_1867 = {
    "L12": (
        "yellow",
        "city=revenue:40;city=revenue:40;city=revenue:40,loc:5;path=a:1,b:_0;path=a:3,b:_1;"
        "label=M;upgrade=cost:20,terrain:water",
    ),
    "F16": ("yellow", "city=revenue:30;city=revenue:30;path=a:1,b:_0;path=a:4,b:_1;label=T"),
    "G15": ("white", "city=revenue:0;stub=edge:1"),
    "K13": ("white", "town=revenue:0;stub=edge:4"),
    "H14": ("white", "town=revenue:0;border=edge:0,type:impassable"),
    "E17": ("white", "city=revenue:0;label=Y"),
    "J12": (
        "white",
        "city=revenue:0;label=Y;future_label=label:O,color:gray;upgrade=cost:20,terrain:water",
    ),
    "M9": (
        "white",
        "city=revenue:0;border=edge:5,type:water,cost:80;border=edge:0,type:water,cost:80",
    ),
    "M11": ("white", "border=edge:2,type:water,cost:80;border=edge:3,type:water,cost:80"),
    "N10": ("white", "border=edge:2,type:water,cost:80;border=edge:3,type:water,cost:80"),
    "K11": ("white", "upgrade=cost:20,terrain:water"),
    "E13": ("white", "city=revenue:0"),
    "F18": ("red", "offboard=revenue:yellow_30|green_40|brown_50|gray_60;path=a:2,b:_0"),
    "E19": ("blue", "offboard=revenue:10;path=a:3,b:_0;border=edge:2,type:impassable"),
    "L14": ("gray", "path=a:2,b:3"),
}

CUSTOM_1867 = {
    "120": (
        "green",
        "city=revenue:60;city=revenue:60;path=a:0,b:_0;path=a:_0,b:1;path=a:2,b:_1;"
        "path=a:_1,b:3;label=T",
        1,
    ),
    "X1": (
        "green",
        "city=revenue:50;city=revenue:50;city=revenue:50;path=a:0,b:_0;path=a:_0,b:3;"
        "path=a:1,b:_1;path=a:_1,b:4;path=a:2,b:_2;path=a:_2,b:5;label=M",
        1,
    ),
    "X3": (
        "green",
        "city=revenue:50;city=revenue:50;city=revenue:50;path=a:0,b:_0;path=a:_0,b:4;"
        "path=a:1,b:_1;path=a:_1,b:2;path=a:3,b:_2;path=a:_2,b:5;label=M",
        1,
    ),
    "623": (
        "brown",
        "city=revenue:50,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;"
        "path=a:4,b:_0;path=a:5,b:_0;label=Y",
        3,
    ),
    "X8": (
        "gray",
        "city=revenue:60,slots:3;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;"
        "path=a:4,b:_0;path=a:5,b:_0;label=O",
        1,
    ),
    "512": (
        "gray",
        "city=revenue:60,slots:3;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;"
        "path=a:4,b:_0;path=a:5,b:_0;label=Y",
        1,
    ),
}


def b1867() -> Board:
    hexes = white_block("DEFGHIJKLMN", range(7, 18))
    hexes.update(HEX_1867)
    names = ("3", "4", "58", "5", "6", "57", "201", "202", "621", "14", "15")
    generic: dict[str, int | None] = {n: 4 for n in names}
    generic.update({"7": None, "8": None, "9": None, "619": 2, "207": 2, "23": 2, "24": 2})
    generic.update({"87": 2, "63": 1, "611": 2})
    return board(hexes, manifest(generic, CUSTOM_1867))


# --- plain track, map edges, borders, gray/red/blue neighbours


def test_plain_track_may_not_run_off_the_map() -> None:
    b = b1867()
    # D8 is in the left column and top row of this board: edges 1, 2 and 3 lead off it.
    rots = legal_rotations(b, "D8", b.tile_def("7"), R1867)
    assert rots == (4, 5)  # exits {4, 5} and {5, 0}
    assert legal_rotations(b, "E9", b.tile_def("9"), R1867) == (0, 1, 2, 3, 4, 5)


def test_impassable_border_blocks_track() -> None:
    b = b1867()
    rots = legal_rotations(b, "H14", b.tile_def("4"), R1867)
    assert 0 not in rots and 3 not in rots
    assert set(rots) == {1, 2, 4, 5}
    with pytest.raises(IllegalAction, match="blocked side"):
        check_tile_lay(b, "H14", "4-0", 0, Y, R1867)


def test_red_and_blue_neighbours_only_where_they_have_track() -> None:
    b = b1867()
    # E17's edge 5 faces F18 (red, track on its edge 2) and edge 0 faces E19 (blue, edge 3).
    rots = legal_rotations(b, "E17", b.tile_def("621"), R1867)  # straight 0-3
    assert 0 in rots  # 0 -> E19, 3 -> E15
    rots = legal_rotations(b, "E17", b.tile_def("201"), R1867)  # sharp 0-1
    assert 5 in rots  # exits 5 (F18) and 0 (E19)
    # F16's edge 0 faces F18 where F18 has no track: never legal.
    b2 = b1867()
    assert all(0 not in {(0 + r) % 6, (3 + r) % 6} for r in legal_rotations(
        b2, "G17", b2.tile_def("9"), R1867))


def test_gray_neighbour_needs_matching_track() -> None:
    b = b1867()
    # L14 (gray) has track on edges 2 and 3: towards K13 (edge 2) and L12 (edge 3).
    # K15's edge 4 faces L14's edge 1, which has no track.
    for r in legal_rotations(b, "K15", b.tile_def("9"), R1867):
        assert 4 not in {r % 6, (r + 3) % 6}


def test_connection_required() -> None:
    b = b1867()
    with pytest.raises(IllegalAction, match="not connected"):
        check_tile_lay(b, "E9", "9-0", 0, Y, R1867, reach=frozenset({1, 2}))
    check_tile_lay(b, "E9", "9-0", 0, Y, R1867, reach=frozenset({3}))


def test_phase_colour_and_colour_order() -> None:
    b = b1867()
    with pytest.raises(IllegalAction, match="not available in this phase"):
        check_tile_lay(b, "E13", "14-0", 0, Y, R1867)
    with pytest.raises(IllegalAction, match="cannot replace"):
        check_tile_lay(b, "E13", "14-0", 0, YG, R1867)


def test_old_track_must_be_kept() -> None:
    b = b1867()
    lay_tile(b, "E9", "9-0", 0, R1867)  # straight 0-3
    assert upgrade_problem(b, "E9", b.tile_def("23"), R1867) is None
    rots = legal_rotations(b, "E9", b.tile_def("23"), R1867)  # 0-3 and 0-4
    assert set(rots) == {0, 3}
    with pytest.raises(IllegalAction, match="does not keep the track"):
        check_tile_lay(b, "E9", "23-0", 1, YG, R1867)


def test_kept_rotations_follow_the_board_and_its_copies() -> None:
    # legal_rotations is kept per board version: asked before and after a lay on the
    # hex, and on a copy made before the lay, it answers for each board as it is now
    b = b1867()
    before = b.copy()
    assert legal_rotations(b, "E9", b.tile_def("9"), R1867) == (0, 1, 2, 3, 4, 5)
    assert legal_rotations(b, "E9", b.tile_def("23"), R1867) == ()  # green on white
    lay_tile(b, "E9", "9-0", 0, R1867)  # straight 0-3
    assert legal_rotations(b, "E9", b.tile_def("9"), R1867) == ()  # yellow on yellow
    assert set(legal_rotations(b, "E9", b.tile_def("23"), R1867)) == {0, 3}
    assert legal_rotations(before, "E9", before.tile_def("9"), R1867) == (0, 1, 2, 3, 4, 5)


# --- towns and cities


def test_town_hex_takes_town_tiles_only() -> None:
    b = b1867()
    assert upgrade_problem(b, "H14", b.tile_def("4"), R1867) is None
    assert "towns" in (upgrade_problem(b, "H14", b.tile_def("9"), R1867) or "")
    assert "towns" in (upgrade_problem(b, "H14", b.tile_def("57"), R1867) or "")
    assert "cities" in (upgrade_problem(b, "E13", b.tile_def("9"), R1867) or "")


def test_stub_must_be_used() -> None:
    b = b1867()
    # K13 stub edge 4 towards Montreal.
    rots = legal_rotations(b, "K13", b.tile_def("4"), R1867)
    assert set(rots) == {1, 4}
    # G15 stub edge 1 towards Toronto.
    for r in legal_rotations(b, "G15", b.tile_def("5"), R1867):
        assert 1 in {r % 6, (r + 1) % 6}
    with pytest.raises(IllegalAction, match="stub"):
        check_tile_lay(b, "G15", "5-0", 3, Y, R1867)
    assert legal_rotations(b, "G15", b.tile_def("5"), TrackRules(stubs_restricted=False))


def test_town_upgrade_keeps_its_track() -> None:
    b = b1867()
    lay_tile(b, "K13", "4-0", 1, R1867)  # town on edges 1 and 4
    rots = legal_rotations(b, "K13", b.tile_def("87"), R1867)  # town to 0, 1, 2, 3
    assert rots
    for r in rots:
        assert {1, 4} <= {(e + r) % 6 for e in (0, 1, 2, 3)}


def test_y_label() -> None:
    b = b1867()
    assert upgrade_problem(b, "E17", b.tile_def("201"), R1867) is None
    assert "label Y" in (upgrade_problem(b, "E17", b.tile_def("57"), R1867) or "")
    assert "no label" in (upgrade_problem(b, "E13", b.tile_def("201"), R1867) or "")


def test_ottawa_is_y_until_gray_then_o() -> None:
    b = b1867()
    cost = lay_cost(b, "J12", b.tile_def("621"), 0, R1867)
    assert cost.total == 20 and cost.terrain_types == ("water",)
    lay_tile(b, "J12", "621-0", 0, R1867)
    assert lay_cost(b, "J12", b.tile_def("207"), 0, R1867).total == 0
    assert b.hex("J12").future_label is not None
    check_tile_lay(b, "J12", "207-0", 0, YG, R1867)
    lay_tile(b, "J12", "207-0", 0, R1867)
    check_tile_lay(b, "J12", "623-0", 0, YGB, R1867)
    lay_tile(b, "J12", "623-0", 0, R1867)
    assert "label O" in (upgrade_problem(b, "J12", b.tile_def("512"), R1867) or "")
    assert upgrade_problem(b, "J12", b.tile_def("X8"), R1867) is None
    check_tile_lay(b, "J12", "X8-0", 0, ALL, R1867)


def test_other_y_city_cannot_take_the_o_tile() -> None:
    b = b1867()
    lay_tile(b, "E17", "621-0", 0, R1867)
    lay_tile(b, "E17", "207-0", 0, R1867)
    lay_tile(b, "E17", "623-0", 0, R1867)
    assert upgrade_problem(b, "E17", b.tile_def("X8"), R1867) is not None
    assert upgrade_problem(b, "E17", b.tile_def("512"), R1867) is None


def test_toronto_t_upgrade_keeps_both_cities() -> None:
    b = b1867()
    rots = legal_rotations(b, "F16", b.tile_def("120"), R1867)
    # 120: city 0 on edges 0, 1 and city 1 on edges 2, 3; F16 has city on 1 and city on 4.
    assert rots == (1,)
    assert upgrade_problem(b, "F16", b.tile_def("14"), R1867) is not None


def test_montreal_green_tiles() -> None:
    b = b1867()
    # L12: city 0 <- edge 1, city 1 <- edge 3 (different cities).
    x1 = legal_rotations(b, "L12", b.tile_def("X1"), R1867)
    for r in x1:
        pairs = [{(0 + r) % 6, (3 + r) % 6}, {(1 + r) % 6, (4 + r) % 6}, {(2 + r) % 6, (5 + r) % 6}]
        assert not any({1, 3} <= p for p in pairs)
    assert x1
    x3 = legal_rotations(b, "L12", b.tile_def("X3"), R1867)
    # X3 pairs {0,4} {1,2} {3,5}: rotation 4 joins edges 1 and 3 in one city, never legal.
    assert 4 not in x3
    cost = lay_cost(b, "L12", b.tile_def("X1"), x1[0], R1867)
    assert cost.total == 20


def test_most_exits_rule_for_cities() -> None:
    b = b1867()
    lay_tile(b, "E13", "57-0", 0, R1867)
    lay_tile(b, "E13", "15-0", 0, R1867)
    legal = legal_tiles(b, "E13", YGB, R1867)
    assert "63" in legal and "611" not in legal
    with pytest.raises(IllegalAction, match="more exits"):
        check_tile_lay(b, "E13", "611-0", 0, YGB, R1867)
    # Once the only 63 is used elsewhere, 611 is fine.
    lay_tile(b, "E15", "57-1", 0, R1867)
    lay_tile(b, "E15", "15-1", 0, R1867)
    lay_tile(b, "E15", "63-0", 0, R1867)
    check_tile_lay(b, "E13", "611-0", 0, YGB, R1867)


# --- costs


def test_1867_river_is_paid_once_when_both_sides_have_track() -> None:
    b = b1867()
    # M9 edge 0 faces M11 edge 3; both printed with an $80 river border.
    first = lay_tile(b, "M9", "57-0", 0, R1867)  # exits 0 and 3
    assert first.total == 0
    assert any(x.edge == 0 for x in b.hex("M9").borders)
    second = lay_tile(b, "M11", "9-0", 0, R1867)  # exits 0 and 3
    assert second.total == 80
    assert [c.edge for c in second.borders] == [3]
    assert not any(x.edge == 0 for x in b.hex("M9").borders)
    assert not any(x.edge == 3 for x in b.hex("M11").borders)


def test_1822ca_river_is_paid_by_each_side() -> None:
    b = b1867()
    first = lay_tile(b, "M9", "57-0", 0, R1822CA)
    assert first.total == 80
    assert not any(x.edge == 0 for x in b.hex("M9").borders)
    assert any(x.edge == 3 for x in b.hex("M11").borders)
    second = lay_tile(b, "M11", "9-0", 0, R1822CA)
    assert second.total == 80
    assert not any(x.edge == 3 for x in b.hex("M11").borders)


def test_terrain_cost_of_printed_hex_only_first_time() -> None:
    b = b1867()
    assert lay_tile(b, "K11", "9-0", 0, R1867).total == 20
    assert lay_cost(b, "K11", b.tile_def("23"), 0, R1867).total == 0


def test_blocked_hex() -> None:
    b = b1867()
    b.set_blockers("K11", ["3"])
    with pytest.raises(IllegalAction, match="blocked by 3"):
        check_tile_lay(b, "K11", "9-0", 0, Y, R1867)
    b.set_blockers("K11", [])
    check_tile_lay(b, "K11", "9-0", 0, Y, R1867)
