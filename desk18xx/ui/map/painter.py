"""Paint one hex with a QPainter, in tile units (centre at 0,0, corner radius 100).

The layout (where track, stops, labels and texts go) comes from
:mod:`desk18xx.ui.map.tilelayout` and :mod:`desk18xx.ui.map.hexlayout`; this
module only turns it into strokes and fills: fill, track, stops, terrain and
icons, revenues, label, markers, name, outline, and (unless a layer above the
hexes does it) borders.

The layout needs shapely, whose import (with numpy) is the largest part of
starting the app; it is imported at the first :func:`paint_hex`, and the map
draws :func:`paint_plain_hex` until then (:mod:`desk18xx.ui.map.items`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF

from desk18xx.engine.tiledef import Color, NodeKind
from desk18xx.ui.map import geometry as geo
from desk18xx.ui.map import style
from desk18xx.ui.map.boardview import HexState, Mark, MarkKind

if TYPE_CHECKING:
    from desk18xx.ui.map.hexlayout import HexLayout, Placed, RevenueBoxes

#: The module that lays hexes out (imported by the first full paint).
LAYOUT_MODULE = "desk18xx.ui.map.hexlayout"

XY = geo.XY

#: Width of impassable and river borders, in tile units.
BORDER_WIDTH = 9.0


def _color(name: str) -> QColor:
    c = QColor(name)
    return c if c.isValid() else QColor("#808080")


@lru_cache(maxsize=256)
def _font(px: float, bold: bool = False) -> QFont:
    f = QFont(style.FONT_FAMILY)
    f.setPixelSize(max(1, round(px)))
    f.setBold(bold)
    return f


def _poly(points: Sequence[XY]) -> QPolygonF:
    return QPolygonF([QPointF(x, y) for x, y in points])


def _polyline(points: Sequence[XY]) -> QPainterPath:
    path = QPainterPath(QPointF(*points[0]))
    for p in points[1:]:
        path.lineTo(QPointF(*p))
    return path


def _text(painter: QPainter, center: XY, w: float, h: float, text: str,
          px: float, color: str = "#000000", bold: bool = False) -> None:
    painter.setFont(_font(px, bold))
    painter.setPen(_color(color))
    painter.drawText(QRectF(center[0] - w / 2, center[1] - h / 2, w, h),
                     int(Qt.AlignmentFlag.AlignCenter), text)


def paint_hex(painter: QPainter, state: HexState, show_names: bool = True,
              shared_costs: frozenset[int] = frozenset(), draw_borders: bool = True) -> None:
    """Draw ``state`` around the origin in tile units.

    Args:
        painter: where to draw; tile units, centre at the origin.
        state: the hex.
        show_names: draw the location name.
        shared_costs: edges whose river cost the neighbour draws (drawn once per river edge).
        draw_borders: also draw the borders (off when a separate layer draws them).
    """
    from desk18xx.ui.map.hexlayout import layout_hex

    lay = layout_hex(state, show_names)
    tile = state.tile
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    painter.setPen(Qt.PenStyle.NoPen)
    fill = style.TILE_COLORS.get(tile.color, "#ffffff")
    painter.setBrush(_color(fill))
    painter.drawPolygon(_poly(geo.hex_corners()))
    _paint_track(painter, lay.tracks, lay.crossings, fill)
    _paint_stops(painter, lay, state)
    for placed in lay.terrains:
        _paint_terrain(painter, placed)
    for placed in lay.icons:
        _paint_icon(painter, placed)
    for placed in lay.revenues:
        _paint_single_revenue(painter, placed)
    for boxes in lay.phase_revenues:
        _paint_revenue_boxes(painter, boxes)
    if lay.label is not None:
        _text(painter, lay.label.center, lay.label.w, lay.label.h, lay.label.text,
              lay.label.h * 0.95, bold=True)
    if lay.future_label is not None:
        _paint_future_label(painter, lay.future_label)
    for placed, mark in lay.marks:
        _paint_mark(painter, placed.center, placed.h / 2, mark)
    if lay.reserved is not None:
        _paint_reserved(painter, lay.reserved)
    if lay.name is not None:
        _paint_name(painter, lay.name, lay.name_px)
    _paint_outline(painter, state)
    if draw_borders:
        paint_borders(painter, state, shared_costs)
    painter.restore()


def layout_loaded() -> bool:
    """True once the hex layout (and shapely) is imported: :func:`paint_hex` is quick."""
    return LAYOUT_MODULE in sys.modules


def load_layout() -> None:
    """Import the hex layout now (an idle-time warm-up after the window is shown)."""
    from desk18xx.ui.map import hexlayout

    del hexlayout


def paint_plain_hex(painter: QPainter, state: HexState) -> None:
    """The hex's colour and outline only, without importing the layout: what the
    first frame shows while :func:`load_layout` still has to run."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(_color(style.TILE_COLORS.get(state.tile.color, "#ffffff")))
    painter.drawPolygon(_poly(geo.hex_corners()))
    _paint_outline(painter, state)
    painter.restore()


def _paint_name(painter: QPainter, placed: Placed, px: float) -> None:
    x, y = placed.center
    painter.setPen(Qt.PenStyle.NoPen)
    back = QColor("#ffffff")
    back.setAlphaF(0.5)
    painter.setBrush(back)
    painter.drawRect(QRectF(x - placed.w / 2, y - placed.h / 2, placed.w, placed.h))
    _text(painter, placed.center, placed.w + 30, placed.h, placed.text, px)


def _paint_track(painter: QPainter, tracks: Sequence[geo.TrackShape],
                 crossings: Sequence[tuple[int, XY]], background: str) -> None:
    bridges: dict[int, list[XY]] = {}
    for index, point in crossings:
        bridges.setdefault(index, []).append(point)
    for index, shape in enumerate(tracks):
        for cx, cy in bridges.get(index, ()):
            # A gap in the track underneath, as on printed crossover tiles.
            clip = QPainterPath()
            clip.addEllipse(QPointF(cx, cy), 16, 16)
            painter.save()
            painter.setClipPath(clip, Qt.ClipOperation.IntersectClip)
            gap = QPen(_color(background), shape.width + 8)
            gap.setCapStyle(Qt.PenCapStyle.FlatCap)
            painter.setPen(gap)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(_polyline(shape.points))
            painter.restore()
        if shape.kind in (geo.TrackKind.TERMINAL, geo.TrackKind.OFFBOARD):
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(_color(style.TRACK))
            painter.drawPolygon(_poly(shape.outline()))
            continue
        pen = QPen(_color(style.TRACK), shape.width)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for lane in shape.lane_lines():
            painter.drawPath(_polyline(lane))


def _paint_stops(painter: QPainter, lay: HexLayout, state: HexState) -> None:
    city_index = {node: k for k, node in enumerate(
        i for i, n in enumerate(state.tile.nodes) if n.kind is NodeKind.CITY)}
    for stop in lay.stops:
        if stop.kind is geo.StopKind.CITY:
            k = city_index.get(stop.node, 0)
            tokens = state.tokens[k] if k < len(state.tokens) else ()
            reserved = state.reservations[k] if k < len(state.reservations) else ()
            slot_marks = {m.slot: m.mark for m in state.marks
                          if m.city == k and m.slot is not None}
            _paint_city(painter, stop, tokens, reserved, slot_marks)
        elif stop.kind is geo.StopKind.DOT:
            painter.setPen(QPen(_color("#ffffff"), 2.5))
            painter.setBrush(_color(style.TRACK))
            painter.drawEllipse(QPointF(stop.x, stop.y), geo.TOWN_DOT_RADIUS,
                                geo.TOWN_DOT_RADIUS)
        elif stop.kind is geo.StopKind.BAR:
            w, h = geo.TOWN_BAR
            painter.save()
            painter.translate(stop.x, stop.y)
            painter.rotate(stop.angle)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(_color(style.TRACK))
            painter.drawRect(QRectF(-w / 2, -h / 2, w, h))
            painter.restore()


def _paint_city(painter: QPainter, stop: geo.StopPlace, tokens: Sequence[Mark | None],
                reserved: Sequence[str | None], slot_marks: dict[int, Mark]) -> None:
    r = geo.SLOT_RADIUS
    n = stop.slots
    painter.save()
    painter.translate(stop.x, stop.y)
    painter.rotate(stop.angle)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(_color(style.CITY_FILL))
    if n == 2:
        painter.drawRect(QRectF(-r, -r, 2 * r, 2 * r))
    elif n == 3:
        painter.drawPolygon(_poly(geo.hex_corners(45.8)))
    elif n == 4:
        painter.drawRoundedRect(QRectF(-2 * r, -2 * r, 4 * r, 4 * r), r, r)
    elif n >= 5:
        painter.drawEllipse(QPointF(0, 0), 1.36 * 2 * r, 1.36 * 2 * r)
    painter.restore()
    for i, (cx, cy) in enumerate(stop.slot_centres()):
        painter.setPen(QPen(_color(style.TRACK), 2))
        painter.setBrush(_color(style.CITY_FILL))
        painter.drawEllipse(QPointF(cx, cy), r, r)
        token = tokens[i] if i < len(tokens) else None
        owner = reserved[i] if i < len(reserved) else None
        if token is not None:
            _paint_mark(painter, (cx, cy), r - 1, token)
        elif owner:
            _text(painter, (cx, cy), 2 * r, 2 * r, owner, _fit_px(owner, 2 * r - 6, 14),
                  color="#202020", bold=True)
        elif i in slot_marks:
            _paint_mark(painter, (cx, cy), r - 1, slot_marks[i])


def _fit_px(text: str, width: float, largest: float) -> float:
    return min(largest, width / max(1, len(text)) / 0.62)


def _paint_mark(painter: QPainter, center: XY, radius: float, mark: Mark) -> None:
    x, y = center
    if mark.kind is MarkKind.DESTINATION:
        painter.setPen(QPen(_color(mark.fill), 4))
        painter.setBrush(_color("#ffffff"))
        painter.drawEllipse(QPointF(x, y), radius - 2, radius - 2)
        _text(painter, center, 2 * radius, 2 * radius, mark.owner,
              _fit_px(mark.owner, 2 * radius - 8, radius * 0.75), color="#000000", bold=True)
        return
    if mark.kind is MarkKind.BLOCKER and mark.fill == "":
        painter.setPen(QPen(_color("#000000"), 1.5))
        painter.setBrush(_color("#ffffff"))
        painter.drawRect(QRectF(x - radius, y - radius * 0.7, 2 * radius, 1.4 * radius))
        _text(painter, center, 2 * radius, 1.4 * radius, mark.owner,
              _fit_px(mark.owner, 2 * radius - 4, radius), color="#000000", bold=True)
        return
    painter.setPen(QPen(_color("#000000"), 1.5))
    painter.setBrush(_color(mark.fill))
    painter.drawEllipse(QPointF(x, y), radius, radius)
    if mark.kind is MarkKind.NEUTRAL:
        painter.setPen(QPen(_color(mark.text), 1.5))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(QPointF(x, y), radius * 0.8, radius * 0.8)
    _text(painter, center, 2 * radius, 2 * radius, mark.owner,
          _fit_px(mark.owner, 2 * radius - 6, radius * 0.8), color=mark.text, bold=True)


def _paint_single_revenue(painter: QPainter, placed: Placed) -> None:
    r = placed.h / 2
    painter.setPen(QPen(_color("#000000"), 2))
    painter.setBrush(_color("#ffffff"))
    painter.drawEllipse(QPointF(*placed.center), r, r)
    _text(painter, placed.center, placed.w, placed.h, placed.text,
          _fit_px(placed.text, placed.w - 4, 17))


def _paint_revenue_boxes(painter: QPainter, boxes: RevenueBoxes) -> None:
    from desk18xx.ui.map.hexlayout import revenue_boxes_size

    w, h = revenue_boxes_size(len(boxes.values))
    cx, cy = boxes.center
    cell = w / len(boxes.values)
    x0 = cx - w / 2
    painter.setPen(QPen(_color("#000000"), 1.5))
    for k, (color, value) in enumerate(boxes.values):
        painter.setBrush(_color(style.TILE_COLORS.get(color, "#ffffff")))
        rect = QRectF(x0 + k * cell, cy - h / 2, cell, h)
        painter.drawRect(rect)
        painter.setFont(_font(15, bold=True))
        painter.setPen(_color("#000000"))
        painter.drawText(rect, int(Qt.AlignmentFlag.AlignCenter), str(value))
        painter.setPen(QPen(_color("#000000"), 1.5))


def _paint_terrain(painter: QPainter, placed: Placed) -> None:
    x, y = placed.center
    kind = placed.kind
    sx = x - placed.w / 2 + 14  # symbol centre, text to its right
    pen = QPen(_color("#000000"), 1.5)
    if kind == "mountain":
        painter.setPen(pen)
        painter.setBrush(_color(style.MOUNTAIN))
        painter.drawPolygon(_poly([(sx - 13, y + 9), (sx, y - 12), (sx + 13, y + 9)]))
    elif kind == "hill":
        painter.setPen(pen)
        painter.setBrush(_color(style.HILL))
        painter.drawChord(QRectF(sx - 13, y - 10, 26, 28), 0, 180 * 16)
    elif kind == "swamp":
        p = QPen(_color(style.SWAMP), 2.5)
        p.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(p)
        for dx in (-8, 0, 8):
            painter.drawLine(QPointF(sx + dx, y + 8), QPointF(sx + dx * 1.5, y - 8))
        painter.drawLine(QPointF(sx - 13, y + 9), QPointF(sx + 13, y + 9))
    elif kind == "water":
        p = QPen(_color(style.WATER), 3)
        p.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(p)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for dy in (-5, 5):
            wave = QPainterPath(QPointF(sx - 13, y + dy))
            wave.cubicTo(QPointF(sx - 6, y + dy - 7), QPointF(sx, y + dy + 7),
                         QPointF(sx + 13, y + dy))
            painter.drawPath(wave)
    elif placed.text:
        _text(painter, (x, y), placed.w, placed.h, placed.text, 16, bold=True)
        return
    if placed.text:
        _text(painter, (x + 14, y), placed.w - 28, placed.h, placed.text, 16, bold=True)


def _paint_icon(painter: QPainter, placed: Placed) -> None:
    x, y = placed.center
    r = placed.h / 2
    if placed.kind == "port":
        painter.setPen(QPen(_color("#ffffff"), 1.5))
        painter.setBrush(_color(style.PORT))
        painter.drawEllipse(QPointF(x, y), r, r)
        pen = QPen(_color("#ffffff"), 2.2)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawLine(QPointF(x, y - r * 0.6), QPointF(x, y + r * 0.6))
        painter.drawLine(QPointF(x - r * 0.35, y - r * 0.3), QPointF(x + r * 0.35, y - r * 0.3))
        painter.drawArc(QRectF(x - r * 0.55, y - r * 0.25, r * 1.1, r * 0.85), 180 * 16, 180 * 16)
        painter.drawEllipse(QPointF(x, y - r * 0.68), r * 0.12, r * 0.12)
    elif placed.kind == "elevator":
        painter.setPen(QPen(_color("#000000"), 1.2))
        painter.setBrush(_color(style.ELEVATOR))
        painter.drawRect(QRectF(x - r * 0.45, y - r * 0.4, r * 0.9, r * 1.3))
        painter.drawPolygon(_poly([(x - r * 0.6, y - r * 0.4), (x, y - r * 0.95),
                                   (x + r * 0.6, y - r * 0.4)]))
        painter.drawLine(QPointF(x - r * 0.45, y + r * 0.2), QPointF(x + r * 0.45, y + r * 0.2))
    else:
        painter.setPen(QPen(_color("#000000"), 1.2))
        painter.setBrush(_color("#ffffff"))
        painter.drawEllipse(QPointF(x, y), r, r)
        _text(painter, (x, y), 2 * r, 2 * r, placed.text[:2].upper(), r)


def _paint_future_label(painter: QPainter, placed: Placed) -> None:
    x, y = placed.center
    r = placed.h / 2
    fill = style.TILE_COLORS.get(Color(placed.kind), "#ffffff") if placed.kind else "#ffffff"
    painter.setPen(QPen(_color("#000000"), 1.2))
    painter.setBrush(_color(fill))
    painter.drawPolygon(_poly([(x + px, y + py) for px, py in geo.hex_corners(r)]))
    _text(painter, (x, y), 2 * r, 2 * r, placed.text, r * 1.1, bold=True)


def paint_borders(painter: QPainter, state: HexState,
                  shared_costs: frozenset[int] = frozenset()) -> None:
    """Draw the hex's impassable and river borders, centred on its edges, with river costs.

    Drawn by a layer above all hexes so a neighbour's fill never covers half of it.
    """
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    for border in state.borders:
        if border.type is None:
            continue
        edge = border.edge
        a, b = geo.edge_segment(edge)
        color = style.IMPASSABLE if border.type == "impassable" else style.WATER_BORDER
        pen = QPen(_color(color), BORDER_WIDTH)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        painter.drawLine(QPointF(*a), QPointF(*b))
    for border in state.borders:
        if border.type is None or not border.cost or border.edge in shared_costs:
            continue
        # Inside the hex, beside the middle of the edge where track would cross.
        mx, my = geo.edge_point(border.edge, geo.EDGE_R - 17)
        sx, sy = geo.edge_point(border.edge + 1.5, 20)
        centre = (mx + sx, my + sy)
        color = style.IMPASSABLE if border.type == "impassable" else style.WATER_BORDER
        painter.setPen(QPen(_color(color), 2))
        painter.setBrush(_color("#ffffff"))
        painter.drawEllipse(QPointF(*centre), 12, 12)
        _text(painter, centre, 24, 24, str(border.cost), 13, color="#000000", bold=True)
    painter.restore()


def _paint_outline(painter: QPainter, state: HexState) -> None:
    hidden = {b.edge for b in state.borders if b.type is None}
    pen = QPen(_color(style.OUTLINE), 1.5)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    painter.setPen(pen)
    for edge in range(6):
        if edge in hidden:
            continue
        a, b = geo.edge_segment(edge)
        painter.drawLine(QPointF(*a), QPointF(*b))


def _paint_reserved(painter: QPainter, placed: Placed) -> None:
    x, y = placed.center
    painter.setPen(QPen(_color("#000000"), 1))
    painter.setBrush(_color("#ffffff"))
    painter.drawRoundedRect(QRectF(x - placed.w / 2, y - placed.h / 2, placed.w, placed.h), 5, 5)
    _text(painter, placed.center, placed.w, placed.h, placed.text, 12, bold=True)
