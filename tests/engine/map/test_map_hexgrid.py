"""Hex coordinates, neighbours, edges and distance (export format §6.1-6.2)."""

from __future__ import annotations

import pytest

from desk18xx.engine.map import hexgrid


def test_parse_and_name_round_trip() -> None:
    for hex_id in ("A1", "M9", "AG13", "AP4", "a6", "b8", "Z28", "AA15"):
        assert hexgrid.hex_name(hexgrid.parse_hex(hex_id)) == hex_id
    assert hexgrid.parse_hex("AG13") == hexgrid.Coord(32, 13)
    assert hexgrid.parse_hex("a6") == hexgrid.Coord(-1, 6)


def test_parse_rejects_garbage() -> None:
    with pytest.raises(ValueError):
        hexgrid.parse_hex("57-0")
    with pytest.raises(ValueError):
        hexgrid.parse_hex("12")


def test_neighbours_of_m9_match_the_export_doc() -> None:
    # Export format §6.2: M9's neighbours are 0 M11, 1 L10, 2 L8, 3 M7, 4 N8, 5 N10.
    got = [hexgrid.neighbour_id("M9", e) for e in range(6)]
    assert got == ["M11", "L10", "L8", "M7", "N8", "N10"]


def test_montreal_and_cornwall_face_each_other() -> None:
    # data README: L12 edge 1 points at K13, whose stub edge 4 points back.
    assert hexgrid.neighbour_id("L12", 1) == "K13"
    assert hexgrid.neighbour_id("K13", 4) == "L12"


def test_opposite_and_edge_between() -> None:
    for e in range(6):
        assert hexgrid.opposite(hexgrid.opposite(e)) == e
        a = hexgrid.parse_hex("F16")
        b = hexgrid.neighbour(a, e)
        assert hexgrid.edge_between(a, b) == e
        assert hexgrid.edge_between(b, a) == hexgrid.opposite(e)
    assert hexgrid.edge_between(hexgrid.parse_hex("A1"), hexgrid.parse_hex("C1")) is None


def test_rotate_edge() -> None:
    assert hexgrid.rotate_edge(0, 1) == 1
    assert hexgrid.rotate_edge(5, 2) == 1


@pytest.mark.parametrize(
    ("a", "b", "d"),
    [
        ("F16", "F16", 0),
        ("F16", "F18", 1),
        ("F16", "G15", 1),
        ("F16", "F20", 2),
        ("A1", "C1", 2),
        ("A1", "A7", 3),
        ("A1", "D4", 3),
        ("L12", "F16", 6),
        ("D2", "O7", 11),
    ],
)
def test_distance(a: str, b: str, d: int) -> None:
    assert hexgrid.distance(hexgrid.parse_hex(a), hexgrid.parse_hex(b)) == d
    assert hexgrid.distance(hexgrid.parse_hex(b), hexgrid.parse_hex(a)) == d


def test_distance_is_path_length() -> None:
    # Breadth-first search over neighbours agrees with the formula.
    start = hexgrid.parse_hex("E9")
    dist = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for c in frontier:
            for e in range(6):
                n = hexgrid.neighbour(c, e)
                if n not in dist and abs(n.col - start.col) <= 5 and abs(n.row - start.row) <= 10:
                    dist[n] = dist[c] + 1
                    nxt.append(n)
        frontier = nxt
    for c, d in dist.items():
        if abs(c.col - start.col) <= 3 and abs(c.row - start.row) <= 6:
            assert hexgrid.distance(start, c) == d
