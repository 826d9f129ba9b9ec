"""Where a tile's stops and track go: a port of 18xx.games' tile layout (pure, shapely).

:func:`layout_tile` places cities and towns as ``Engine::Tile#compute_city_town_edges``
does (a lone city in the middle, others toward their least crowded exit or their
``loc``) and turns every path into a :class:`~desk18xx.ui.map.geometry.TrackShape`:
straight, gentle or sharp arcs between edges, arcs from an edge to an off-centre
stop, spikes for terminal paths and arrows into off-board areas.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from shapely.geometry import LineString, Point, Polygon
from shapely.ops import substring, unary_union

from desk18xx.engine.map import hexgrid
from desk18xx.engine.tiledef import NodeKind, PathDef, PathEnd, TileDef
from desk18xx.ui.map.geometry import (
    EDGE_R,
    SLOT_RADIUS,
    STOP_DISTANCE,
    XY,
    StopKind,
    StopPlace,
    TrackKind,
    TrackShape,
    arc_points,
    edge_distance,
    edge_point,
    edge_to_edge,
)


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
    crossings: tuple[tuple[int, XY], ...] = ()
    """(index into ``tracks``, point): where that track passes over an earlier one."""

    def stop_hit(self, x: float, y: float) -> tuple[int, int | None] | None:
        """(node, slot) of the city or town drawn at (x, y); slot is None off the circles."""
        p = Point(x, y)
        for stop in self.stops.values():
            if stop.kind is StopKind.CITY:
                for slot, c in enumerate(stop.slot_centres()):
                    if math.hypot(x - c[0], y - c[1]) <= SLOT_RADIUS:
                        return stop.node, slot
            if stop.kind in (StopKind.CITY, StopKind.DOT, StopKind.BAR) and \
                    stop.footprint().contains(p):
                return stop.node, None
        return None

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
    return TileLayout(stops=stops, tracks=tuple(tracks), occupied=occupied,
                      crossings=_crossings(tracks))


def _crossings(tracks: Sequence[TrackShape]) -> tuple[tuple[int, XY], ...]:
    """Points where an edge-to-edge track crosses an earlier one (drawn as a bridge)."""
    plain = (TrackKind.STRAIGHT, TrackKind.GENTLE, TrackKind.SHARP)
    lines = [LineString(t.points) if t.kind in plain and t.lanes == 1 else None
             for t in tracks]
    out: list[tuple[int, XY]] = []
    for j, upper in enumerate(lines):
        if upper is None:
            continue
        for lower in lines[:j]:
            if lower is None or not upper.crosses(lower):
                continue
            hit = upper.intersection(lower)
            for p in getattr(hit, "geoms", [hit]):
                if p.geom_type == "Point" and math.hypot(p.x, p.y) < EDGE_LIMIT:
                    out.append((j, (float(p.x), float(p.y))))
    return tuple(out)

#: Crossings this close to an edge are joins at the edge, not bridges.
EDGE_LIMIT = EDGE_R - 6


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
    part = substring(line, start, end)
    return tuple((float(x), float(y)) for x, y in part.coords)
