"""Pure geometry of a drawn tile: track centre-lines, stop positions, hit areas.

Everything is in *tile units*: a hex whose centre-to-corner radius is 100, the
scale 18xx.games draws in, so the numbers below can be compared with its SVG
parts (``assets/app/view/game/part/track_node_path.rb``, ``city.rb``).  The
painter scales tile units to pixels.  x grows to the right and y downwards;
edge 0 is the bottom side and edges go clockwise (see
:mod:`desk18xx.engine.map.hexgrid`).

This module uses shapely but never Qt, so it can be unit-tested headless and
reused for hit tests (which track a click is on) later.  Shapely (and numpy
under it) is imported by the functions that use it, not with the module: the
constants and plain point maths here are needed before the first frame, the
shapes only once hexes are laid out (``desk18xx.ui.map.painter``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final

from desk18xx.engine.map import hexgrid
from desk18xx.engine.tiledef import BorderDef

if TYPE_CHECKING:
    from shapely.geometry import LineString, Polygon

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
    from shapely.geometry import Polygon

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
        from shapely.geometry import LineString

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
        from shapely.geometry import LineString, Polygon
        from shapely.ops import unary_union

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
        from shapely.affinity import rotate as shapely_rotate
        from shapely.geometry import LineString, Point, Polygon, box
        from shapely.ops import unary_union

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


def edge_to_edge(a: int, b: int) -> tuple[XY, ...]:
    """Centre-line of track joining edges ``a`` and ``b``: straight, gentle or sharp arc."""
    begin, end = edge_point(a), edge_point(b)
    if edge_distance(a, b) == 3:
        return (begin, end)
    return arc_points(begin, end)


def place_box(occupied: Any, width: float, height: float, candidates: Sequence[XY],
              margin: float = 4.0) -> XY:
    """The first candidate centre where a ``width`` × ``height`` box fits the hex freely.

    Falls back to the candidate with the least overlap.
    """
    from shapely.geometry import box

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
    from shapely.geometry import box

    result: Polygon = box(center[0] - width / 2, center[1] - height / 2,
                          center[0] + width / 2, center[1] + height / 2)
    return result


NeighbourBorders = Callable[[str], "Sequence[BorderDef] | None"]


def shared_border_costs(hex_id: str, borders: Sequence[BorderDef],
                        neighbour_borders: NeighbourBorders) -> frozenset[int]:
    """Edges of ``hex_id`` whose border cost the neighbour across also shows.

    A river usually appears in the data of both hexes it separates; its cost
    is then drawn by the hex for which the edge is 0, 1 or 2 only.
    """
    out: set[int] = set()
    for b in borders:
        if not b.cost or b.edge < 3:
            continue
        other = neighbour_borders(hexgrid.neighbour_id(hex_id, b.edge))
        if other is None:
            continue
        back = hexgrid.opposite(b.edge)
        if any(ob.edge == back and ob.type == b.type and ob.cost == b.cost for ob in other):
            out.add(b.edge)
    return frozenset(out)
