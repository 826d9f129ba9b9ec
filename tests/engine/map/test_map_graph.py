"""Track graph: reach from tokens, blocking by full cities, Duluth-Detroit closure."""

from __future__ import annotations

import time

from maphelpers import board, manifest, tile, white_block

from desk18xx.engine.map.board import Board
from desk18xx.engine.map.graph import graph_for, tokenable_cities
from desk18xx.engine.map.upgrades import TrackRules, check_tile_lay
from desk18xx.engine.tiledef import Color, HexDef, ManifestTile, Reservation, SetupToken

DD_CODE = "city=revenue:0,visit_cost:99;path=a:2,b:_0;path=a:5,b:_0"


def line() -> Board:
    """C3 (A) - C5 - C7 (B, 1 slot) - C9 - C11 running north to south."""
    hexes = white_block("ABCDEF", range(1, 14))
    for h in ("C3", "C7", "C11"):
        hexes[h] = ("white", "city=revenue:0")
    b = board(hexes, manifest({"57": 6, "9": None, "14": 2, "7": None}))
    for h, t in (("C3", "57-0"), ("C5", "9-0"), ("C7", "57-1"), ("C9", "9-1"), ("C11", "57-2")):
        b.lay_tile(h, t, 0)
    b.place_token("C3", 0, "A")
    b.place_token("C7", 0, "B")
    return b


def test_full_city_of_another_company_stops_the_walk() -> None:
    b = line()
    reach = graph_for(b).reach("A")
    assert reach.hexes == {"C3", "C5", "C7"}
    assert ("C7", 0) in reach.nodes  # a route may end there
    assert ("C11", 0) not in reach.nodes
    assert reach.connected_edges("C7") == frozenset({3})
    assert reach.connected_edges("C9") is None
    # The token hex is connected on every side that leads somewhere.
    assert reach.connected_edges("C3") == frozenset(range(6))
    # B's own token does not block B.
    assert graph_for(b).reach("B").hexes == {"C3", "C5", "C7", "C9", "C11"}


def test_upgrade_to_two_slots_opens_the_city() -> None:
    b = line()
    assert tokenable_cities(b, "A") == []
    b.lay_tile("C7", "14-0", 0)
    assert graph_for(b).reach("A").hexes == {"C3", "C5", "C7", "C9", "C11"}
    assert tokenable_cities(b, "A") == [("C11", 0), ("C7", 0)]


def test_graph_is_cached_per_version_and_copy() -> None:
    b = line()
    g = graph_for(b)
    assert graph_for(b) is g
    c = b.copy()
    assert graph_for(c) is not g
    b.place_token("C11", 0, "C")
    assert graph_for(b) is not g


def test_tile_lay_reach_comes_from_the_graph() -> None:
    b = line()
    rules = TrackRules()
    reach = graph_for(b).reach("A")
    # C13 is south of C11; A does not reach C11, so it cannot build there.
    assert reach.connected_edges("C13") is None
    # Only hexes that A's track points at are connected: C1 (north of C3), not D4.
    assert reach.connected_edges("D4") is None
    edges = reach.connected_edges("C1")
    assert edges == frozenset({0})
    check_tile_lay(b, "C1", "7-0", 5, [Color.YELLOW], rules, edges)  # exits 5 and 0


def dd_board() -> Board:
    hexes = white_block("BCDEF", range(1, 12))
    hexes["C5"] = ("white", "city=revenue:0")
    hexes["E7"] = ("white", "city=revenue:0")
    tiles = manifest({"57": 4}, {"DD-D6": ("gray", "path=a:2,b:5", 1)})
    tiles["DD-D6"] = ManifestTile(tiles["DD-D6"].tile, 1, hidden=True)
    extras = {
        "D6": HexDef("D6", tile("D6", "gray", DD_CODE), tokens=(SetupToken("DD", 0, 0),)),
    }
    b = board(hexes, tiles, extras=extras)
    b.lay_tile("C5", "57-0", 2)  # exits 2 and 5 (towards D6)
    b.lay_tile("E7", "57-1", 2)  # exits 2 (towards D6) and 5
    b.place_token("C5", 0, "GT")
    return b


def test_duluth_detroit_closed_until_the_event() -> None:
    b = dd_board()
    reach = graph_for(b).reach("GT")
    assert ("D6", 0) in reach.nodes
    assert "E7" not in reach.hexes
    assert tokenable_cities(b, "GT") == []
    # open_detroit_duluth: remove the DD tokens and lay the hidden DD tile.
    b.remove_corp_tokens("DD")
    b.lay_tile("D6", "DD-D6-0", 0)
    reach = graph_for(b).reach("GT")
    assert "E7" in reach.hexes
    assert tokenable_cities(b, "GT") == [("E7", 0)]


def test_offboard_is_never_passed_through() -> None:
    hexes = white_block("ABCD", range(1, 10))
    hexes["B4"] = ("red", "offboard=revenue:20;path=a:3,b:_0;path=a:0,b:_0")
    hexes["B2"] = ("white", "city=revenue:0")
    b = board(hexes, manifest({"57": 2, "9": None}))
    b.lay_tile("B2", "57-0", 0)
    b.lay_tile("B6", "9-0", 0)
    b.place_token("B2", 0, "A")
    reach = graph_for(b).reach("A")
    assert ("B4", 0) in reach.nodes
    assert "B6" not in reach.hexes


def test_terminal_path_stops_through_walks() -> None:
    hexes = white_block("ABCD", range(1, 10))
    hexes["B4"] = (
        "gray",
        "city=revenue:30,slots:2;path=a:3,b:_0,terminal:1;path=a:0,b:_0,terminal:1",
    )
    hexes["B2"] = ("white", "city=revenue:0")
    b = board(hexes, manifest({"57": 2, "9": None}))
    b.lay_tile("B2", "57-0", 0)
    b.lay_tile("B6", "9-0", 0)
    b.place_token("B2", 0, "A")
    assert "B6" not in graph_for(b).reach("A").hexes
    b.place_token("B4", 0, "B")
    assert {"B2", "B6"} <= graph_for(b).reach("B").hexes


def test_reach_speed() -> None:
    hexes = white_block("ABCDEFGHIJKLMNOP", range(1, 30))
    hexes["H14"] = ("white", "city=revenue:0")
    star = ("yellow", "path=a:0,b:3;path=a:1,b:4;path=a:2,b:5", None)
    hub = ("yellow", "city=revenue:0;" + ";".join(f"path=a:{e},b:_0" for e in range(6)), 1)
    b = board(hexes, manifest({}, {"S": star, "HUB": hub}))
    for h in hexes:
        if h != "H14":
            b.lay_tile(h, b.next_copy("S"), 0)
    b.lay_tile("H14", "HUB-0", 0)
    b.place_token("H14", 0, "X")
    assert len(graph_for(b).reach("X").hexes) > 40
    start = time.perf_counter()
    for i in range(20):
        b.set_markers("A1", [str(i)])
        graph_for(b).reach("X")
    assert (time.perf_counter() - start) / 20 < 0.05


def test_whole_hex_reservation_keeps_a_slot() -> None:
    hexes = white_block("ABC", range(1, 8))
    extras = {
        "B4": HexDef(
            "B4",
            tile("B4", "white", "city=revenue:0"),
            reservations=(Reservation("HOME", None, None),),
        ),
        "B2": HexDef("B2", tile("B2", "white", "city=revenue:0")),
    }
    b = board(hexes, manifest({"57": 2, "14": 1}), extras=extras)
    # A single city takes the reservation in its slot (18xx.games add_reservation!).
    assert b.hex("B4").reserved == (("HOME",),)
    b.lay_tile("B2", "57-0", 0)
    b.lay_tile("B4", "57-1", 0)
    b.place_token("B2", 0, "A")
    assert tokenable_cities(b, "A") == []
    assert tokenable_cities(b, "HOME") == []  # not connected: no token yet
    b.lay_tile("B4", "14-0", 0)
    assert tokenable_cities(b, "A") == [("B4", 0)]


def loop_board() -> Board:
    """D25: A's token in C3 runs south into C5, whose tile forks at its south side
    (paths 3-0 and 5-0: a converging exit), on to the city in C7, which a loop
    through B6 and B8 leaves and re-enters.  The city in D6 lies on the fork's
    other branch: only a route that comes back north over the C5/C7 hexside
    after the loop would reach it."""
    hexes = white_block("ABCDE", range(1, 12))
    for h in ("C3", "C7", "D6"):
        hexes[h] = ("white", "city=revenue:0")
    custom = {
        "T": ("yellow", "city=revenue:0;path=a:0,b:_0", 1),
        "Y": ("yellow", "path=a:3,b:0;path=a:5,b:0", 1),
        "N": ("yellow", "city=revenue:0,slots:2;path=a:3,b:_0;path=a:1,b:_0;path=a:2,b:_0", 1),
        "X": ("yellow", "city=revenue:0;path=a:2,b:_0", 1),
        "L1": ("yellow", "path=a:5,b:0", 1),
        "L2": ("yellow", "path=a:3,b:4", 1),
    }
    b = board(hexes, manifest({}, custom))
    for h, t in (("C3", "T-0"), ("C5", "Y-0"), ("C7", "N-0"), ("D6", "X-0"),
                 ("B6", "L1-0"), ("B8", "L2-0")):
        b.lay_tile(h, t, 0)
    b.place_token("C3", 0, "A")
    return b


def test_a_walk_never_crosses_a_hexside_twice() -> None:
    b = loop_board()
    reach = graph_for(b).reach("A")
    # the loop through C7, B6 and B8 is reached; the fork's other branch is not
    assert {"C3", "C5", "C7", "B6", "B8"} == reach.hexes
    assert ("C5", 0) in reach.paths and ("C5", 1) not in reach.paths
    assert ("D6", 0) not in reach.nodes
    assert reach.connected_edges("D6") is None
    assert tokenable_cities(b, "A") == [("C7", 0)]
    assert not graph_for(b).token_walk_reaches("A", 3)
    assert graph_for(b).reach_from_each_token("A") == [frozenset({("C3", 0), ("C7", 0)})]
    # from C7 itself the route north takes either branch of the fork
    b.place_token("C7", 0, "B")
    reach_b = graph_for(b).reach("B")
    assert ("D6", 0) in reach_b.nodes and ("C3", 0) in reach_b.nodes
    assert graph_for(b).token_walk_reaches("B", 3)
    # once A has a token in C7 as well, that token's walk reaches D6
    b.place_token("C7", 0, "A")
    assert ("D6", 0) in graph_for(b).reach("A").nodes


def test_the_reference_walk_passes_junctions_and_forks() -> None:
    """Where a converging exit makes the reference walk run (C7's two paths share
    its north side), it still passes a junction (C5) into each of its branches
    and takes both paths of the fork: the same reach as the search."""
    hexes = white_block("ABCDE", range(1, 12))
    for h in ("C3", "D6", "C9"):
        hexes[h] = ("white", "city=revenue:0")
    hexes["B8"] = ("white", "town=revenue:10")
    custom = {
        "T": ("yellow", "city=revenue:0;path=a:0,b:_0", 1),
        "J": ("yellow", "junction;path=a:3,b:_0;path=a:0,b:_0;path=a:5,b:_0", 1),
        "F": ("yellow", "path=a:3,b:0;path=a:3,b:1", 1),
        "X": ("yellow", "city=revenue:0;path=a:2,b:_0", 1),
        "S": ("yellow", "city=revenue:0;path=a:3,b:_0", 1),
        "W": ("yellow", "town=revenue:10;path=a:4,b:_0", 1),
    }
    b = board(hexes, manifest({}, custom))
    for h, t in (("C3", "T-0"), ("C5", "J-0"), ("C7", "F-0"), ("D6", "X-0"),
                 ("C9", "S-0"), ("B8", "W-0")):
        b.lay_tile(h, t, 0)
    b.place_token("C3", 0, "A")
    graph = graph_for(b)
    reach = graph.reach("A")
    assert reach.hexes == {"C3", "C5", "C7", "D6", "C9", "B8"}
    assert {("C7", 0), ("C7", 1), ("C5", 0), ("C5", 1), ("C5", 2)} <= reach.paths
    assert {("C3", 0), ("D6", 0), ("C9", 0), ("B8", 0)} <= reach.nodes
    assert reach.connected_edges("C7") == frozenset({0, 1, 3})
    assert graph.token_walk_reaches("A", 4)
    assert not graph.token_walk_reaches("A", 5)
