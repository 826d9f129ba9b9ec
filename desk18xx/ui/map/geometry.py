"""Pure geometry of a drawn tile: track centre-lines, stop positions, hit areas.

Everything is in *tile units*: a hex whose centre-to-corner radius is 100, the
scale 18xx.games draws in, so the numbers below can be compared with its SVG
parts (``assets/app/view/game/part/track_node_path.rb``, ``city.rb``).  The
painter scales tile units to pixels.  x grows to the right and y downwards;
edge 0 is the bottom side and edges go clockwise (see
:mod:`desk18xx.engine.map.hexgrid`).

This module uses shapely but never Qt, so it can be unit-tested headless and
reused for hit tests (which track a click is on) later.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Any, Final

from shapely.affinity import rotate as shapely_rotate
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import unary_union

from desk18xx.engine.map import hexgrid
from desk18xx.engine.tiledef import NodeKind, PathDef, PathEnd, TileDef

XY = tuple[float, float]

#: Centre to corner.
UNIT: Final = 100.0
#: Centre to the middle of an edge.
EDGE_R: Final = UNIT * hexgrid.SQRT3 / 2
TRACK_WIDTH: Final = 8.0
SLOT_RADIUS: Final = 25.0
TOWN_DOT_RADIUS: Final = 10.0
TOWN_BAR: Final = (32.0, 8.0)
#: Distance from the centre of a city or town drawn toward an edge.
STOP_DISTANCE: Final = 50.0
LANE_SPACING: Final = 8.0
ARC_STEPS: Final = 24


class TrackKind(StrEnum):
    """Shape of a piece of track."""

    STRAIGHT = "straight"
    """Edge to the opposite edge, or a straight line to a node."""
    GENTLE = "gentle"
    """Edges two apart: arc of radius 75·√3 around a far corner."""
    SHARP = "sharp"
    """Adjacent edges: arc of radius 25·√3 around their common corner."""
    CURVE = "curve"
    """Edge to an off-centre stop: arc tangent to the edge's normal."""
    TERMINAL = "terminal"
    """A dead end drawn as a tapered spike (blue junctions, New York)."""
    OFFBOARD = "offboard"
    """Edge into an off-board area, drawn as an arrow."""
    STUB = "stub"
    """Printed stub at an edge."""


class StopKind(StrEnum):
    """How a node is drawn."""

    CITY = "city"
    DOT = "dot"
    BAR = "bar"
    OFFBOARD = "offboard"
    JUNCTION = "junction"


def edge_point(edge: float, distance: float = EDGE_R) -> XY:
    """Point ``distance`` from the centre toward ``edge`` (``x.5`` = a corner direction)."""
    a = math.radians(60 * edge)
    return (-math.sin(a) * distance, math.cos(a) * distance)


def rotate_point(p: XY, degrees: float) -> XY:
    """Rotate ``p`` about the origin by ``degrees`` clockwise on screen (SVG ``rotate``)."""
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return (p[0] * c - p[1] * s, p[0] * s + p[1] * c)


def hex_corners(radius: float = UNIT) -> list[XY]:
    """Corners of a flat hex around the origin (clockwise from the corner of edges 0 and 1)."""
    return hexgrid.corners(radius)


def hex_polygon(center: XY = (0.0, 0.0), radius: float = UNIT) -> Polygon:
    """The hex as a shapely polygon, e.g. for hit tests."""
    return Polygon([(center[0] + x, center[1] + y) for x, y in hex_corners(radius)])


def edge_segment(edge: int, radius: float = UNIT) -> tuple[XY, XY]:
    """The two corners bounding ``edge``."""
    return hexgrid.corner((edge + 5) % 6, radius), hexgrid.corner(edge, radius)


def edge_distance(a: int, b: int) -> int:
    """Edges apart around the hex: 1 sharp, 2 gentle, 3 straight."""
    d = abs(a - b) % 6
    return min(d, 6 - d)


def arc_points(begin: XY, end: XY, steps: int = ARC_STEPS) -> tuple[XY, ...]:
    """Arc from ``begin`` to ``end`` whose tangent at ``begin`` points at the hex centre.

    This is how 18xx.games draws track leaving an edge: perpendicular to the
    edge, bending to its target.  When ``end`` lies on that normal the result
    is a straight segment.
    """
    bx, by = begin
    ex, ey = end
    length = math.hypot(bx, by)
    if length < 1e-9:
        return (begin, end)
    tx, ty = -bx / length, -by / length  # unit tangent toward the centre
    nx, ny = -ty, tx
    dx, dy = ex - bx, ey - by
    denom = 2 * (nx * dx + ny * dy)
    if abs(denom) < 1e-6:
        return (begin, end)
    t = (dx * dx + dy * dy) / denom
    cx, cy = bx + nx * t, by + ny * t
    a0 = math.atan2(by - cy, bx - cx)
    a1 = math.atan2(ey - cy, ex - cx)
    # Sweep in the direction the tangent points.
    cross = (bx - cx) * ty - (by - cy) * tx
    sweep = a1 - a0
    if cross > 0:
        while sweep < 0:
            sweep += 2 * math.pi
    else:
        while sweep > 0:
            sweep -= 2 * math.pi
    r = abs(t)
    pts = [
        (cx + r * math.cos(a0 + sweep * i / steps), cy + r * math.sin(a0 + sweep * i / steps))
        for i in range(steps + 1)
    ]
    pts[0], pts[-1] = begin, end
    return tuple(pts)


def arc_radius(points: Sequence[XY]) -> float:
    """Radius of the circle through the first, middle and last point (inf if straight)."""
    (ax, ay), (bx, by), (cx, cy) = points[0], points[len(points) // 2], points[-1]
    d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by))
    if abs(d) < 1e-9:
        return math.inf
    a2, b2, c2 = ax * ax + ay * ay, bx * bx + by * by, cx * cx + cy * cy
    ux = (a2 * (by - cy) + b2 * (cy - ay) + c2 * (ay - by)) / d
    uy = (a2 * (cx - bx) + b2 * (ax - cx) + c2 * (bx - ax)) / d
    return math.hypot(ax - ux, ay - uy)


@dataclass(frozen=True, slots=True)
class TrackShape:
    """One drawn piece of track (a path of the tile, or a stub)."""

    kind: TrackKind
    points: tuple[XY, ...]
    """Centre-line as a polyline, from the first end to the second."""
    path: int | None
    """Index of the tile's path, None for stubs."""
    lanes: int = 1
    width: float = TRACK_WIDTH

    def centre_line(self) -> LineString:
        """The centre-line as a shapely line."""
        return LineString(self.points)

    def lane_lines(self) -> list[tuple[XY, ...]]:
        """Centre-lines of each lane (parallel copies for ``lanes`` > 1)."""
        if self.lanes <= 1:
            return [self.points]
        out: list[tuple[XY, ...]] = []
        line = self.centre_line()
        for i in range(self.lanes):
            offset = (i - (self.lanes - 1) / 2) * (self.width + LANE_SPACING)
            if abs(offset) < 1e-9:
                out.append(self.points)
                continue
            shifted = line.offset_curve(offset)
            out.append(tuple((float(x), float(y)) for x, y in shifted.coords))
        return out

    def area(self) -> Polygon:
        """Footprint of the drawn track (for hit tests and layout)."""
        if self.kind is TrackKind.TERMINAL or self.kind is TrackKind.OFFBOARD:
            return Polygon(self.outline())
        lines = [LineString(pts) for pts in self.lane_lines()]
        return _poly(unary_union([ln.buffer(self.width / 2, cap_style="flat") for ln in lines]))

    def outline(self) -> tuple[XY, ...]:
        """Filled outline of terminal spikes and off-board arrows (edge first)."""
        (bx, by), (ex, ey) = self.points[0], self.points[-1]
        angle = math.degrees(math.atan2(-bx, by))  # rotation that maps (0, d) onto begin
        w = self.width / 2
        if self.kind is TrackKind.TERMINAL:
            tip = math.hypot(ex, ey) if (ex, ey) != (0.0, 0.0) else 0.0
            tip_y = max(tip, 25.0) if tip else 25.0
            shape = [(w, 60.0), (w, EDGE_R), (-w, EDGE_R), (-w, 60.0), (0.0, tip_y)]
        else:
            shape = [(w, 75.0), (w, EDGE_R), (-w, EDGE_R), (-w, 75.0), (0.0, 48.0)]
        return tuple(rotate_point(p, angle) for p in shape)


@dataclass(frozen=True, slots=True)
class StopPlace:
    """Where a node is drawn."""

    node: int
    kind: StopKind
    x: float
    y: float
    angle: float = 0.0
    """Degrees; cities at an edge turn with it, bars lie across their track."""
    edge: float | None = None
    """Edge (or ``x.5`` corner) the stop was pushed toward; None at the centre."""
    slots: int = 0

    @property
    def xy(self) -> XY:
        """Position as a tuple."""
        return (self.x, self.y)

    def slot_centres(self) -> list[XY]:
        """Centres of the token circles, in slot order (cities only)."""
        first = CITY_SLOT_POSITION.get(self.slots, (0.0, 0.0))
        n = max(self.slots, 1)
        out = []
        for i in range(self.slots):
            p = rotate_point(rotate_point(first, 360 / n * i), self.angle)
            out.append((self.x + p[0], self.y + p[1]))
        return out

    def footprint(self) -> Polygon:
        """Area covered by the stop's drawing."""
        if self.kind is StopKind.CITY:
            circles = [Point(c).buffer(SLOT_RADIUS + 1) for c in self.slot_centres()]
            if self.slots >= 2:
                circles.append(Polygon(self.slot_centres()).buffer(0).convex_hull
                               if self.slots > 2 else LineString(self.slot_centres()).buffer(1))
            return _poly(unary_union(circles).convex_hull)
        if self.kind is StopKind.DOT:
            return _poly(Point(self.xy).buffer(TOWN_DOT_RADIUS + 2))
        if self.kind is StopKind.BAR:
            w, h = TOWN_BAR
            rect = box(-w / 2, -h / 2, w / 2, h / 2)
            moved = shapely_rotate(rect, self.angle, origin=(0, 0))
            return _poly(_translate(moved, self.x, self.y))
        return _poly(Point(self.xy).buffer(4))


#: Offset of the first slot of an n-slot city; the others turn about the centre.
CITY_SLOT_POSITION: Final[dict[int, XY]] = {
    1: (0.0, 0.0),
    2: (-SLOT_RADIUS, 0.0),
    3: (0.0, -29.0),
    4: (-SLOT_RADIUS, -SLOT_RADIUS),
    5: (0.0, -43.0),
    6: (0.0, -50.0),
}


def _poly(geom: Any) -> Polygon:
    result: Polygon = geom
    return result


def _translate(geom: Any, dx: float, dy: float) -> Any:
    from shapely.affinity import translate

    return translate(geom, dx, dy)


def rotate_loc(loc: str | None, rotation: int) -> float | None:
    """A ``loc`` value turned with the tile; None for no loc or ``center``."""
    if loc is None or loc == "center":
        return None
    return (float(loc) + rotation) % 6


@dataclass(frozen=True, slots=True)
class TileLayout:
    """Stops and track of a tile at a rotation, in tile units."""

    stops: dict[int, StopPlace]
    tracks: tuple[TrackShape, ...]
    occupied: Any = field(repr=False)
    """Union of the stop and track footprints (a shapely geometry)."""

    def track_hit(self, x: float, y: float, tolerance: float = 2.0) -> int | None:
        """Index of the path whose drawn track contains (x, y), if any."""
        p = Point(x, y)
        for shape in self.tracks:
            if shape.path is not None and shape.area().buffer(tolerance).contains(p):
                return shape.path
        return None


def _end_edge(end: PathEnd, rotation: int) -> int | None:
    return None if end.edge is None else hexgrid.rotate_edge(end.edge, rotation)


def city_town_edges(tile: TileDef, rotation: int) -> dict[int, float | None]:
    """Edge each city/town is drawn toward (None = centre), after 18xx.games.

    Port of ``Engine::Tile#compute_city_town_edges``: a lone city or a lone
    town sits in the middle; otherwise each stop goes toward its least crowded
    exit, or its ``loc``.
    """
    cts = [i for i, n in enumerate(tile.nodes) if n.kind in (NodeKind.CITY, NodeKind.TOWN)]
    cities = [i for i in cts if tile.nodes[i].kind is NodeKind.CITY]
    towns = [i for i in cts if tile.nodes[i].kind is NodeKind.TOWN]
    result: dict[int, float | None] = {i: None for i in cts}
    exits: dict[int, list[int]] = {i: [] for i in cts}
    with_paths: set[int] = set()
    for p in tile.paths:
        for end, other in ((p.a, p.b), (p.b, p.a)):
            if end.node is not None and end.node in exits:
                with_paths.add(end.node)
                e = _end_edge(other, rotation)
                if e is not None:
                    exits[end.node].append(e)
    if not tile.paths and len(cities) >= 2:
        div = 6 // len(cities)
        for k, i in enumerate(cities):
            result[i] = float(k * div)
        return result
    if len(cities) == 1 and not towns and rotate_loc(tile.nodes[cities[0]].loc, rotation) is None:
        return result
    if (not cities and len(towns) == 1 and len(exits[towns[0]]) != 2
            and rotate_loc(tile.nodes[towns[0]].loc, rotation) is None):
        return result
    count: dict[int, float] = {e: 0.0 for e in range(6)}
    count[0] += 0.1

    def bump(e: int) -> None:
        count[e] += 1
        count[(e + 1) % 6] += 0.1
        count[(e - 1) % 6] += 0.1

    # 18xx takes a path's city before its town; here each end's node counts.
    owner: dict[int, list[int]] = {}
    for p in tile.paths:
        nodes = [e.node for e in (p.a, p.b) if e.node is not None and e.node in exits]
        if not nodes:
            continue
        ct = next((n for n in nodes if tile.nodes[n].kind is NodeKind.CITY), nodes[0])
        for end in (p.a, p.b):
            e = _end_edge(end, rotation)
            if e is not None:
                owner.setdefault(ct, []).append(e)
                bump(e)
    for ct, edges in sorted(owner.items(), key=lambda kv: sorted(kv[1])):
        loc = rotate_loc(tile.nodes[ct].loc, rotation)
        if loc is not None:
            result[ct] = loc
            continue
        best = min(sorted(edges), key=lambda e: count[e])
        result[ct] = float(best)
        bump(best)
    pathless = [i for i in cts if i not in with_paths]
    placed = [v for k, v in result.items() if k in owner]
    if len(pathless) == 1 and len(cts) == 2 and placed and placed[0] is not None:
        result[pathless[0]] = (placed[0] + 3) % 6
    for i in cts:
        if not exits[i]:
            loc = rotate_loc(tile.nodes[i].loc, rotation)
            if loc is not None:
                result[i] = loc
    return result


def _through_town(tile: TileDef, node: int) -> tuple[int, int] | None:
    """The two exits of a town that sits on a single edge-to-edge run, if it does."""
    ends: list[int] = []
    for p in tile.paths:
        for end, other in ((p.a, p.b), (p.b, p.a)):
            if end.node == node:
                if other.edge is None:
                    return None
                ends.append(other.edge)
    return (ends[0], ends[1]) if len(ends) == 2 else None


@lru_cache(maxsize=4096)
def layout_tile(tile: TileDef, rotation: int = 0) -> TileLayout:
    """Positions of the stops and shapes of the track of ``tile`` at ``rotation``."""
    ct_edges = city_town_edges(tile, rotation)
    border_edges = {hexgrid.rotate_edge(b.edge, rotation) for b in tile.borders}
    stops: dict[int, StopPlace] = {}
    tracks: list[TrackShape] = []
    through: dict[int, tuple[tuple[XY, ...], float]] = {}
    n_ct = len(ct_edges)

    # Towns on a through run: one curve edge to edge, the bar across it.
    for i, node in enumerate(tile.nodes):
        if node.kind is not NodeKind.TOWN or node.loc is not None:
            continue
        pair = _through_town(tile, i)
        if pair is None or (n_ct > 1 and _count_through(tile, ct_edges) != n_ct):
            continue
        a, b = (hexgrid.rotate_edge(e, rotation) for e in pair)
        curve = edge_to_edge(a, b)
        length = LineString(curve).length
        split = length / 2
        if n_ct > 1 and _crosses_other(tile, i, curve, rotation):
            # Double dits on crossing runs: slide each bar toward its own edge.
            near_a = ct_edges[i] is None or ct_edges[i] == a
            split = length * (0.3 if near_a else 0.7)
        mid, tangent = _point_at(curve, split)
        through[i] = (curve, split)
        stops[i] = StopPlace(i, StopKind.BAR, mid[0], mid[1], angle=tangent + 90, edge=ct_edges[i])

    for i, node in enumerate(tile.nodes):
        if i in stops:
            continue
        if node.kind in (NodeKind.OFFBOARD, NodeKind.JUNCTION):
            kind = StopKind.OFFBOARD if node.kind is NodeKind.OFFBOARD else StopKind.JUNCTION
            stops[i] = StopPlace(i, kind, 0.0, 0.0)
            continue
        edge = ct_edges.get(i)
        if edge is None:
            stops[i] = StopPlace(i, StopKind.CITY if node.kind is NodeKind.CITY else StopKind.DOT,
                                 0.0, 0.0, slots=node.slots)
            continue
        dist = STOP_DISTANCE
        if node.kind is NodeKind.CITY and edge != int(edge) and node.slots > 1:
            dist -= 8
        if edge in border_edges:
            dist -= 15
        x, y = edge_point(edge, dist)
        if node.kind is NodeKind.CITY:
            stops[i] = StopPlace(i, StopKind.CITY, x, y, angle=60 * edge, edge=edge,
                                 slots=node.slots)
        else:
            stops[i] = StopPlace(i, StopKind.DOT, x, y, angle=60 * edge, edge=edge)

    _spread_centre_stops(stops, tile)

    for index, path in enumerate(tile.paths):
        tracks.extend(_path_shapes(tile, index, path, rotation, stops, through))
    for stub in tile.stubs:
        e = hexgrid.rotate_edge(stub, rotation)
        tracks.append(TrackShape(TrackKind.STUB, (edge_point(e), edge_point(e, 60.0)), None))

    geoms = [t.area() for t in tracks] + [s.footprint() for s in stops.values()]
    occupied = unary_union(geoms) if geoms else Polygon()
    return TileLayout(stops=stops, tracks=tuple(tracks), occupied=occupied)


def _count_through(tile: TileDef, ct_edges: dict[int, float | None]) -> int:
    return sum(
        1 for i in ct_edges
        if tile.nodes[i].kind is NodeKind.TOWN and _through_town(tile, i) is not None
    )


def _spread_centre_stops(stops: dict[int, StopPlace], tile: TileDef) -> None:
    """Stops that would all sit in the middle (two pathless towns) go side by side."""
    centre = [s for s in stops.values()
              if s.edge is None and s.kind in (StopKind.CITY, StopKind.DOT) and s.xy == (0.0, 0.0)]
    if len(centre) < 2:
        return
    step = 60.0 if any(s.kind is StopKind.CITY for s in centre) else 40.0
    start = -step * (len(centre) - 1) / 2
    for k, s in enumerate(centre):
        stops[s.node] = StopPlace(s.node, s.kind, start + k * step, 0.0, s.angle, None, s.slots)


def _crosses_other(tile: TileDef, node: int, curve: tuple[XY, ...], rotation: int) -> bool:
    """True when another through town's run meets this one's near the middle."""
    mine = LineString(curve)
    mid = mine.interpolate(mine.length / 2)
    for j in range(len(tile.nodes)):
        pair = _through_town(tile, j) if j != node else None
        if pair is None:
            continue
        a, b = (hexgrid.rotate_edge(e, rotation) for e in pair)
        other = LineString(edge_to_edge(a, b))
        if other.distance(mid) < 30:
            return True
    return False


def _point_at(points: Sequence[XY], half: float) -> tuple[XY, float]:
    line = LineString(points)
    p = line.interpolate(half)
    q = line.interpolate(min(half + 1.0, line.length))
    o = line.interpolate(max(half - 1.0, 0.0))
    tangent = math.degrees(math.atan2(q.y - o.y, q.x - o.x))
    return (float(p.x), float(p.y)), tangent


def edge_to_edge(a: int, b: int) -> tuple[XY, ...]:
    """Centre-line of track joining edges ``a`` and ``b``: straight, gentle or sharp arc."""
    begin, end = edge_point(a), edge_point(b)
    if edge_distance(a, b) == 3:
        return (begin, end)
    return arc_points(begin, end)


def _path_shapes(tile: TileDef, index: int, path: PathDef, rotation: int,
                 stops: dict[int, StopPlace],
                 through: dict[int, tuple[tuple[XY, ...], float]]) -> Iterable[TrackShape]:
    ea, eb = _end_edge(path.a, rotation), _end_edge(path.b, rotation)
    if ea is not None and eb is not None:
        kind = {1: TrackKind.SHARP, 2: TrackKind.GENTLE}.get(edge_distance(ea, eb),
                                                              TrackKind.STRAIGHT)
        if ea == eb:
            kind = TrackKind.STRAIGHT
        yield TrackShape(kind, edge_to_edge(ea, eb), index, lanes=path.lanes)
        return
    if ea is None and eb is not None:
        ea, eb = eb, None
        node_end = path.a
    else:
        node_end = path.b
    if ea is None:
        # node to node
        na, nb = path.a.node, path.b.node
        assert na is not None and nb is not None
        yield TrackShape(TrackKind.STRAIGHT, (stops[na].xy, stops[nb].xy), index,
                         lanes=path.lanes)
        return
    node = node_end.node
    assert node is not None
    stop = stops[node]
    if node in through:
        curve, half = through[node]
        line = LineString(curve)
        begin = edge_point(ea)
        first = Point(curve[0]).distance(Point(begin)) < 1e-6
        pts = _substring(line, 0.0, half) if first else tuple(reversed(_substring(line, half,
                                                                                  line.length)))
        kind = TrackKind.STRAIGHT if len(curve) == 2 else TrackKind.CURVE
        yield TrackShape(kind, pts, index, lanes=path.lanes)
        return
    if stop.kind is StopKind.OFFBOARD:
        yield TrackShape(TrackKind.OFFBOARD, (edge_point(ea), (0.0, 0.0)), index)
        return
    if path.terminal:
        yield TrackShape(TrackKind.TERMINAL, (edge_point(ea), stop.xy), index)
        return
    begin = edge_point(ea)
    pts = arc_points(begin, stop.xy)
    kind = TrackKind.STRAIGHT if len(pts) == 2 else TrackKind.CURVE
    yield TrackShape(kind, pts, index, lanes=path.lanes)


def _substring(line: LineString, start: float, end: float) -> tuple[XY, ...]:
    from shapely.ops import substring

    part = substring(line, start, end)
    return tuple((float(x), float(y)) for x, y in part.coords)


def place_box(occupied: Any, width: float, height: float, candidates: Sequence[XY],
              margin: float = 4.0) -> XY:
    """The first candidate centre where a ``width`` × ``height`` box fits the hex freely.

    Falls back to the candidate with the least overlap.
    """
    inside = hex_polygon(radius=UNIT - margin)
    best: XY = candidates[0]
    best_cost = math.inf
    for c in candidates:
        b = box(c[0] - width / 2, c[1] - height / 2, c[0] + width / 2, c[1] + height / 2)
        outside = b.difference(inside).area
        overlap = b.intersection(occupied).area if not occupied.is_empty else 0.0
        cost = float(overlap + outside * 0.5)
        if cost <= 1e-6:
            return c
        if cost < best_cost:
            best, best_cost = c, cost
    return best


def box_geom(center: XY, width: float, height: float) -> Polygon:
    """An axis-aligned box around ``center``."""
    result: Polygon = box(center[0] - width / 2, center[1] - height / 2,
                          center[0] + width / 2, center[1] + height / 2)
    return result
