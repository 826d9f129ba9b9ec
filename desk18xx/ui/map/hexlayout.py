"""Where everything on one hex goes: pure layout (shapely, no Qt).

:func:`layout_tile` places track and stops; this module then places the
texts and symbols (revenues, label, terrain cost, icons, markers, location
name) in the free space, trying spots in the order 18xx.games prefers and
taking the first that overlaps nothing already drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from shapely.ops import unary_union

from desk18xx.engine.tiledef import Color, FutureLabel, IconDef, NodeKind, Revenue, TileDef
from desk18xx.ui.map import geometry as geo
from desk18xx.ui.map.boardview import HexState, Mark, PlacedMark
from desk18xx.ui.map.tilelayout import layout_tile, rotate_loc

XY = geo.XY

REVENUE_DIAMETER = 30.0
REVENUE_CELL = (25.0, 21.0)
LABEL_HEIGHT = 28.0
NAME_PX = 15.0
LINE_HEIGHT = 16.0
CHAR_WIDTH = 8.8
NAME_MAX_WIDTH = 150.0
NAME_MAX_LINES = 3
TERRAIN_HEIGHT = 26.0
ICON_SIZE = 28.0
MARK_SIZE = 30.0

#: Corner directions tried for labels: left, upper left, right, upper right, lower corners.
CORNER_ORDER = (1.5, 2.5, 4.5, 3.5, 0.5, 5.5)


@dataclass(frozen=True, slots=True)
class Placed:
    """A box placed on the hex: centre, size, text and a kind (terrain, icon name …)."""

    center: XY
    w: float
    h: float
    text: str = ""
    kind: str = ""


@dataclass(frozen=True, slots=True)
class RevenueBoxes:
    """Phase revenues drawn as a row of coloured boxes."""

    center: XY
    values: tuple[tuple[Color, int], ...]


@dataclass(frozen=True, slots=True)
class HexLayout:
    """Everything to draw on a hex, in tile units."""

    tracks: tuple[geo.TrackShape, ...]
    crossings: tuple[tuple[int, XY], ...]
    stops: tuple[geo.StopPlace, ...]
    revenues: tuple[Placed, ...]
    phase_revenues: tuple[RevenueBoxes, ...]
    label: Placed | None
    future_label: Placed | None
    terrains: tuple[Placed, ...]
    icons: tuple[Placed, ...]
    marks: tuple[tuple[Placed, Mark], ...]
    reserved: Placed | None
    name: Placed | None
    name_px: float = NAME_PX


def revenue_boxes_size(n: int) -> tuple[float, float]:
    """Width and height of a row of ``n`` phase-revenue boxes."""
    return (REVENUE_CELL[0] * n, REVENUE_CELL[1])


def layout_hex(state: HexState, show_names: bool = True) -> HexLayout:
    """Lay out ``state`` (cached on its drawn content)."""
    loose = tuple(m for m in state.marks if m.city is None)
    name = state.hex.location_name if show_names else None
    reserved = tuple(state.hex_reservations)
    icons = state.tile.icons
    if state.tile != state.hex.tile:  # sticky printed icons stay on laid tiles
        icons += tuple(i for i in state.hex.tile.icons if i.sticky and i not in icons)
    return _layout(state.tile, state.rotation % 6, name, loose, reserved, state.future_label,
                   icons)


def _ring(center: XY, distance: float, angles: Sequence[float]) -> list[XY]:
    out = []
    for a in angles:
        dx, dy = geo.rotate_point((distance, 0.0), a)
        out.append((center[0] + dx, center[1] + dy))
    return out


def _corner_spots(distance: float, first: float | None = None) -> list[XY]:
    order = list(CORNER_ORDER)
    spots = [geo.edge_point(c, distance) for c in order]
    if first is not None:
        spots.insert(0, geo.edge_point(first, distance))
    spots += [geo.edge_point(float(e), distance * 0.9) for e in (2, 4, 1, 5, 3, 0)]
    # Last resort in crowded hexes: tucked into the corners.
    spots += [geo.edge_point(c, 76.0) for c in order]
    return spots


def name_segments(name: str, max_size: int = 13) -> list[str]:
    """Split a location name into lines as 18xx.games does (``LocationName.name_segments``)."""
    if len(name) <= max_size:
        return [name]
    words = name.split(" ")
    if len(words) == 3:
        if len(words[0]) > len(words[2]):
            return [words[0], " ".join(words[1:])]
        return [" ".join(words[:2]), words[2]]
    if len(words) == 4:
        return [" ".join(words[:2]), " ".join(words[2:])]
    if len(words) == 5:
        front, back = " ".join(words[:2]), " ".join(words[3:])
        if len(front) > len(back):
            return [front + " " + words[2], back]
        return [front, words[2] + " " + back]
    return words


def _fit_lines(lines: list[str], width: int = 16) -> list[str]:
    """Re-flow more than :data:`NAME_MAX_LINES` lines greedily into lines of ``width``."""
    if len(lines) <= NAME_MAX_LINES:
        return lines
    out: list[str] = []
    for word in " ".join(lines).split(" "):
        if out and len(out[-1]) + 1 + len(word) <= width:
            out[-1] += " " + word
        else:
            out.append(word)
    return out


def _name_spots(tile: TileDef, lines: int) -> list[XY]:
    """Candidate centres for the location name, in 18xx.games' order of preference."""
    h = lines * LINE_HEIGHT
    center = (0.0, 0.0)
    up40, down40 = (0.0, -40.0 - (lines - 1) * LINE_HEIGHT / 2), (0.0, 40.0 + h / 2 - 8)
    top = (0.0, -(61.0 if lines == 1 else 54.0) - (lines - 1) * LINE_HEIGHT / 2)
    bottom = (0.0, (56.0 if lines == 1 else 39.0 + h / 2))
    up24, down24 = (0.0, -24.0 - h / 2 + 8), (0.0, 24.0 + h / 2 - 8)
    cities = [n for n in tile.nodes if n.kind is NodeKind.CITY]
    towns = [n for n in tile.nodes if n.kind is NodeKind.TOWN]
    if any(n.kind is NodeKind.OFFBOARD for n in tile.nodes):
        first = [center, up24, down24]
    elif len(towns) == 1 and not cities:
        first = [center, up40, down40]
    elif len(cities) == 1 and not towns:
        first = {3: [(0.0, 50.0), top], 4: [top, bottom]}.get(
            cities[0].slots, [center, up40, down40, down24])
    elif len(cities) + len(towns) > 1:
        first = [center, up40, down40, bottom, top]
    else:
        first = [down40 if tile.upgrades or tile.icons else center]
    rim = 86.0 - h / 2 - 4
    return first + [down40, up40, bottom, top, down24, up24, center, (0.0, rim), (0.0, -rim)]


@lru_cache(maxsize=8192)
def _layout(tile: TileDef, rotation: int, name: str | None, loose: tuple[PlacedMark, ...],
            reserved: tuple[str, ...], future_label: FutureLabel | None,
            tile_icons: tuple[IconDef, ...]) -> HexLayout:
    base = layout_tile(tile, rotation)
    occupied: list[Any] = [base.occupied]

    def take(center: XY, w: float, h: float) -> None:
        occupied.append(geo.box_geom(center, w, h))

    def free() -> Any:
        return unary_union(occupied)

    def place(w: float, h: float, spots: Sequence[XY]) -> XY:
        c = geo.place_box(free(), w, h, spots)
        take(c, w, h)
        return c

    # Revenues: one per tile when all stops agree, else one per stop.
    shown = [(i, n.revenue) for i, n in enumerate(tile.nodes)
             if n.kind in (NodeKind.CITY, NodeKind.TOWN, NodeKind.OFFBOARD) and not n.hidden
             and _visible(n.revenue)]
    revenues: list[Placed] = []
    boxes: list[RevenueBoxes] = []
    distinct = {r for _, r in shown}
    groups = [(None, shown[0][1])] if len(distinct) == 1 and len(shown) > 1 else shown
    for node, rev in groups:
        stop = base.stops.get(node) if node is not None else None
        anchor = stop.xy if stop is not None else (0.0, 0.0)
        reach = _reach(stop)
        if rev.by_color:
            w, h = revenue_boxes_size(len(rev.by_color))
            spots = [(0.0, -52.0), (0.0, 52.0), (0.0, -40.0), (0.0, 40.0), (0.0, 0.0),
                     (0.0, -70.0), (0.0, 70.0)]
            c = place(w, h, spots)
            boxes.append(RevenueBoxes(c, rev.by_color))
        else:
            d = REVENUE_DIAMETER
            spots = _ring(anchor, reach + d / 2 + 2, (-45, -135, 0, 180, 45, 135, -90, 90))
            spots += _corner_spots(58)
            c = place(d, d, spots)
            revenues.append(Placed(c, d, d, str(rev.flat)))

    label = None
    if tile.label:
        w = 14 + 17 * len(tile.label)
        c = place(w, LABEL_HEIGHT, _corner_spots(62))
        label = Placed(c, w, LABEL_HEIGHT, tile.label)

    terrains: list[Placed] = []
    for up in tile.upgrades:
        text = str(up.cost) if up.cost else ""
        kind = up.terrains[0] if up.terrains else ""
        w = (28.0 if kind else 0.0) + 10.0 * len(text) + 8
        loc = rotate_loc(up.loc, rotation)
        spots = [geo.edge_point(loc, 55)] if loc is not None else []
        spots += [(0.0, 0.0), geo.edge_point(3.5, 52), geo.edge_point(2.5, 52),
                  geo.edge_point(4.5, 58), geo.edge_point(1.5, 58), (0.0, -45.0), (0.0, 45.0)]
        spots += _corner_spots(55)
        c = place(w, TERRAIN_HEIGHT, spots)
        terrains.append(Placed(c, w, TERRAIN_HEIGHT, text, kind))

    icons: list[Placed] = []
    for icon in tile_icons:
        loc = rotate_loc(icon.loc, rotation)
        spots = _corner_spots(60, first=loc)
        c = place(ICON_SIZE, ICON_SIZE, spots)
        icons.append(Placed(c, ICON_SIZE, ICON_SIZE, icon.name, icon.name))

    future = None
    if future_label is not None:
        size = 28.0
        c = place(size, size, _corner_spots(60))
        future = Placed(c, size, size, future_label.label, future_label.color.value)

    marks: list[tuple[Placed, Mark]] = []
    for pm in loose:
        loc = rotate_loc(pm.loc, rotation)
        c = place(MARK_SIZE, MARK_SIZE, _corner_spots(58, first=loc))
        marks.append((Placed(c, MARK_SIZE, MARK_SIZE), pm.mark))

    reserved_box = None
    if reserved:
        text = " ".join(reserved)
        w = 10 + 9 * len(text)
        c = place(w, 18, [(0.0, 40.0), (0.0, -40.0), *_corner_spots(55)])
        reserved_box = Placed(c, w, 18, text)

    name_box = None
    name_px = NAME_PX
    if name:
        lines = _fit_lines(name_segments(name))
        longest = max(len(line) for line in lines) + 1
        name_px = min(NAME_PX, NAME_PX * NAME_MAX_WIDTH / (CHAR_WIDTH * longest))
        scale = name_px / NAME_PX
        w = CHAR_WIDTH * longest * scale
        h = len(lines) * LINE_HEIGHT * scale + 4
        c = place(w, h, _name_spots(tile, len(lines)))
        name_box = Placed(c, w, h, "\n".join(lines))

    return HexLayout(
        tracks=base.tracks,
        crossings=base.crossings,
        stops=tuple(base.stops.values()),
        revenues=tuple(revenues),
        phase_revenues=tuple(boxes),
        label=label,
        future_label=future,
        terrains=tuple(terrains),
        icons=tuple(icons),
        marks=tuple(marks),
        reserved=reserved_box,
        name=name_box,
        name_px=name_px,
    )


def _visible(rev: Revenue) -> bool:
    return bool(rev.by_color) or rev.flat != 0


def _reach(stop: geo.StopPlace | None) -> float:
    """Distance from a stop's centre to the edge of its drawing."""
    if stop is None:
        return 0.0
    if stop.kind is geo.StopKind.CITY:
        return {1: 25.0, 2: 50.0, 3: 55.0, 4: 50.0}.get(stop.slots, 60.0)
    if stop.kind is geo.StopKind.BAR:
        return 16.0
    if stop.kind is geo.StopKind.DOT:
        return geo.TOWN_DOT_RADIUS
    return 0.0
