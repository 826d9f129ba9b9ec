"""Pure geometry of drawn tiles: track shapes, stop positions, hit areas."""

from __future__ import annotations

import math

import pytest
from shapely.geometry import LineString, Point, Polygon

from desk18xx.engine.tiledef import (
    Color,
    NodeDef,
    NodeKind,
    PathDef,
    PathEnd,
    TileDef,
)
from desk18xx.ui.map import geometry as geo
from desk18xx.ui.map.tilelayout import city_town_edges, layout_tile

pytestmark = pytest.mark.gui


def _edge(e: int) -> PathEnd:
    return PathEnd(edge=e)


def _node(n: int) -> PathEnd:
    return PathEnd(node=n)


def _track(*pairs: tuple[int, int], color: Color = Color.YELLOW) -> TileDef:
    return TileDef("t", color, paths=tuple(PathDef(_edge(a), _edge(b)) for a, b in pairs))


def _dist(p: geo.XY, q: geo.XY) -> float:
    return math.hypot(p[0] - q[0], p[1] - q[1])


def test_edge_points_follow_the_flat_layout() -> None:
    assert geo.edge_point(0) == pytest.approx((0.0, geo.EDGE_R))  # bottom
    assert geo.edge_point(3) == pytest.approx((0.0, -geo.EDGE_R))  # top
    x, y = geo.edge_point(1)
    assert x < 0 and y > 0  # lower left
    x, y = geo.edge_point(4)
    assert x > 0 and y < 0  # upper right


def test_straight_track_is_a_line_through_the_centre() -> None:
    pts = geo.edge_to_edge(0, 3)
    assert len(pts) == 2
    assert geo.arc_radius(pts) == math.inf
    assert LineString(pts).distance(Point(0, 0)) < 1e-9


def test_sharp_curve_is_an_arc_around_the_shared_corner() -> None:
    pts = geo.edge_to_edge(0, 1)
    corner = geo.hex_corners()[0]  # between edges 0 and 1
    for p in pts:
        assert _dist(p, corner) == pytest.approx(geo.UNIT / 2, abs=1e-6)
    assert pts[0] == pytest.approx(geo.edge_point(0))
    assert pts[-1] == pytest.approx(geo.edge_point(1))


def test_gentle_curve_has_three_times_the_sharp_radius() -> None:
    pts = geo.edge_to_edge(0, 2)
    assert geo.arc_radius(pts) == pytest.approx(1.5 * geo.UNIT, rel=1e-3)
    # It bends toward the centre but does not reach it.
    d = LineString(pts).distance(Point(0, 0))
    assert 0 < d < geo.UNIT / 2


def test_curves_leave_edges_at_right_angles() -> None:
    for a, b in ((0, 1), (0, 2), (2, 4), (5, 1)):
        pts = geo.edge_to_edge(a, b)
        (x0, y0), (x1, y1) = pts[0], pts[1]
        direction = math.atan2(y1 - y0, x1 - x0)
        inward = math.atan2(-y0, -x0)
        assert abs(math.remainder(direction - inward, 2 * math.pi)) < 0.15


def test_layout_classifies_track_kinds() -> None:
    kinds = [s.kind for s in layout_tile(_track((0, 3), (0, 1), (0, 2))).tracks]
    assert kinds == [geo.TrackKind.STRAIGHT, geo.TrackKind.SHARP, geo.TrackKind.GENTLE]


def test_rotation_turns_track_clockwise() -> None:
    shape = layout_tile(_track((0, 1)), rotation=2).tracks[0]
    assert shape.points[0] == pytest.approx(geo.edge_point(2))
    assert shape.points[-1] == pytest.approx(geo.edge_point(3))


def test_hit_polygon_contains_the_centre() -> None:
    poly = geo.hex_polygon()
    assert poly.contains(Point(0, 0))
    assert not poly.contains(Point(0, geo.UNIT))
    assert poly.area == pytest.approx(3 * math.sqrt(3) / 2 * geo.UNIT**2)


def test_track_hit_finds_the_path_under_a_point() -> None:
    lay = layout_tile(_track((0, 3), (1, 2)))
    assert lay.track_hit(0, 0) == 0
    mid = geo.edge_to_edge(1, 2)[geo.ARC_STEPS // 2]
    assert lay.track_hit(*mid) == 1
    assert lay.track_hit(60, 0) is None


def test_lone_city_sits_in_the_middle() -> None:
    tile = TileDef("57", Color.YELLOW, nodes=(NodeDef(NodeKind.CITY, slots=1),),
                   paths=(PathDef(_edge(0), _node(0)), PathDef(_node(0), _edge(3))))
    lay = layout_tile(tile)
    assert lay.stops[0].xy == (0.0, 0.0)
    assert [s.kind for s in lay.tracks] == [geo.TrackKind.STRAIGHT] * 2


def test_two_cities_go_toward_their_exits() -> None:
    # 1867 Toronto: edge 1 to the first city, edge 4 to the second.
    tile = TileDef("F16", Color.YELLOW,
                   nodes=(NodeDef(NodeKind.CITY, slots=1), NodeDef(NodeKind.CITY, slots=1)),
                   paths=(PathDef(_edge(1), _node(0)), PathDef(_edge(4), _node(1))))
    assert city_town_edges(tile, 0) == {0: 1.0, 1: 4.0}
    lay = layout_tile(tile)
    assert lay.stops[0].xy == pytest.approx(geo.edge_point(1, geo.STOP_DISTANCE))
    assert lay.stops[1].xy == pytest.approx(geo.edge_point(4, geo.STOP_DISTANCE))


def test_city_loc_is_used_and_rotated() -> None:
    tile = TileDef("x", Color.GREEN, nodes=(NodeDef(NodeKind.CITY, slots=1, loc="5"),
                                            NodeDef(NodeKind.CITY, slots=1)),
                   paths=(PathDef(_edge(3), _node(1)),))
    assert city_town_edges(tile, 0)[0] == 5.0
    assert city_town_edges(tile, 1)[0] == 0.0


def test_through_town_is_a_bar_across_its_track() -> None:
    tile = TileDef("4", Color.YELLOW, nodes=(NodeDef(NodeKind.TOWN),),
                   paths=(PathDef(_edge(0), _node(0)), PathDef(_node(0), _edge(3))))
    stop = layout_tile(tile).stops[0]
    assert stop.kind is geo.StopKind.BAR
    assert stop.xy == pytest.approx((0.0, 0.0), abs=1e-6)
    assert math.cos(math.radians(stop.angle)) == pytest.approx(1.0, abs=1e-6)  # horizontal


def test_town_with_three_exits_is_a_dot() -> None:
    tile = TileDef("141", Color.GREEN, nodes=(NodeDef(NodeKind.TOWN),),
                   paths=tuple(PathDef(_edge(e), _node(0)) for e in (0, 1, 3)))
    assert layout_tile(tile).stops[0].kind is geo.StopKind.DOT


def test_offboard_and_terminal_paths_are_filled_shapes() -> None:
    tile = TileDef("o", Color.RED, nodes=(NodeDef(NodeKind.OFFBOARD),),
                   paths=(PathDef(_edge(2), _node(0)),))
    shape = layout_tile(tile).tracks[0]
    assert shape.kind is geo.TrackKind.OFFBOARD
    assert Polygon(shape.outline()).is_valid
    blue = TileDef("b", Color.BLUE, nodes=(NodeDef(NodeKind.JUNCTION),),
                   paths=(PathDef(_edge(4), _node(0), terminal=True),))
    assert layout_tile(blue).tracks[0].kind is geo.TrackKind.TERMINAL


def test_multi_slot_city_slots_do_not_overlap() -> None:
    for n in (2, 3, 4):
        stop = geo.StopPlace(0, geo.StopKind.CITY, 0.0, 0.0, slots=n)
        centres = stop.slot_centres()
        assert len(centres) == n
        for i in range(n):
            for j in range(i + 1, n):
                assert _dist(centres[i], centres[j]) >= 2 * geo.SLOT_RADIUS - 1e-6


def test_place_box_avoids_occupied_space() -> None:
    occupied = geo.box_geom((0.0, 0.0), 60, 60)
    spot = geo.place_box(occupied, 20, 20, [(0.0, 0.0), (0.0, 55.0)])
    assert spot == (0.0, 55.0)


def test_crossing_straights_get_a_bridge() -> None:
    lay = layout_tile(_track((0, 3), (1, 4)))
    assert len(lay.crossings) == 1
    index, (x, y) = lay.crossings[0]
    assert index == 1 and math.hypot(x, y) < 1e-6
    assert layout_tile(_track((0, 1), (3, 4))).crossings == ()


def test_stop_hit_finds_city_slots() -> None:
    tile = TileDef("14", Color.GREEN, nodes=(NodeDef(NodeKind.CITY, slots=2),),
                   paths=tuple(PathDef(_edge(e), _node(0)) for e in (0, 1, 3, 4)))
    lay = layout_tile(tile)
    assert lay.stop_hit(-geo.SLOT_RADIUS, 0) == (0, 0)
    assert lay.stop_hit(geo.SLOT_RADIUS, 0) == (0, 1)
    assert lay.stop_hit(0, 70) is None
