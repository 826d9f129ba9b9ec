"""Graphics items drawn over the renderer's hexes: highlights, a tile preview,
token slots and routes.  Thin items only (STYLE.md §6); all coordinates are
scene units computed from :mod:`desk18xx.engine.map.hexgrid`.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from desk18xx.engine.map import hexgrid
from desk18xx.engine.tiledef import HexDef, TileDef
from desk18xx.ui.map import geometry as geo
from desk18xx.ui.map.boardview import Mark, StaticHex
from desk18xx.ui.map.painter import paint_hex

#: Stacking order above the hexes (which are at z 0).
Z_HIGHLIGHT = 10.0
Z_PREVIEW = 20.0
Z_ROUTE = 30.0
Z_SLOT = 40.0
Z_FAN = 50.0

FAN_SCALE = 0.5
"""Size of a tile of the fan against a hex."""
FAN_PER_RING = 8


def hex_centre(hex_id: str, size: float) -> QPointF:
    """Scene position of the centre of ``hex_id``."""
    x, y = hexgrid.center(hexgrid.parse_hex(hex_id), size)
    return QPointF(x, y)


def tile_point(hex_id: str, size: float, xy: tuple[float, float]) -> QPointF:
    """Scene position of the tile-unit point ``xy`` on ``hex_id``."""
    c = hex_centre(hex_id, size)
    k = size / geo.UNIT
    return QPointF(c.x() + xy[0] * k, c.y() + xy[1] * k)


def _hex_polygon(size: float) -> QPolygonF:
    k = size / geo.UNIT
    return QPolygonF([QPointF(x * k, y * k) for x, y in geo.hex_corners()])


class HexOutlineItem(QGraphicsItem):
    """A coloured outline (and light fill) around one hex."""

    def __init__(self, hex_id: str, size: float, color: str, width: float = 4.0,
                 fill_alpha: int = 40) -> None:
        super().__init__()
        self.hex_id = hex_id
        self._poly = _hex_polygon(size * 0.96)
        self._color = QColor(color)
        self._width = width
        self._fill_alpha = fill_alpha
        self.setPos(hex_centre(hex_id, size))
        self.setZValue(Z_HIGHLIGHT)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt override
        return self._poly.boundingRect().adjusted(-self._width, -self._width,
                                                  self._width, self._width)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        pen = QPen(self._color, self._width)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(pen)
        fill = QColor(self._color)
        fill.setAlpha(self._fill_alpha)
        painter.setBrush(QBrush(fill))
        painter.drawPolygon(self._poly)


class TilePreviewItem(QGraphicsItem):
    """A tile drawn on a hex at a rotation, before it is laid (half transparent)."""

    def __init__(self, hex_def: HexDef, tile: TileDef, rotation: int, size: float,
                 tokens: tuple[tuple[Mark | None, ...], ...] = ()) -> None:
        super().__init__()
        cities = sum(1 for n in tile.nodes if n.kind.value == "city")
        if len(tokens) != cities:
            tokens = ()  # the engine decides where tokens go when city counts differ
        else:
            tokens = tuple(row + (None,) * (max(_slots(tile, i), len(row)) - len(row))
                           for i, row in enumerate(tokens))
        self._state = StaticHex(hex_def, tile, rotation, tokens=tokens)
        self.setPos(hex_centre(hex_def.id, size))
        self.setScale(size / geo.UNIT)
        self.setZValue(Z_PREVIEW)
        self.setOpacity(1.0)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    @property
    def rotation_(self) -> int:
        """The rotation shown."""
        return self._state.rotation

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt override
        return QRectF(-geo.UNIT - 2, -geo.EDGE_R - 2, 2 * geo.UNIT + 4, 2 * geo.EDGE_R + 4)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        paint_hex(painter, self._state, True, frozenset())
        pen = QPen(QColor("#d000d0"), 5)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPolygon(QPolygonF([QPointF(x, y) for x, y in geo.hex_corners()]))


class FanTileItem(QGraphicsItem):
    """One legal tile of the fan opened around a hex (18xx.games' tile selector):
    drawn small at its first legal rotation; a click chooses it."""

    def __init__(self, hex_def: HexDef, name: str, tile: TileDef, rotation: int,
                 centre: QPointF, size: float, tip: str = "") -> None:
        super().__init__()
        self.name = name
        self._state = StaticHex(hex_def, tile, rotation)
        self.setPos(centre)
        self.setScale(FAN_SCALE * size / geo.UNIT)
        self.setZValue(Z_FAN)
        self.setAcceptedMouseButtons(Qt.MouseButton.LeftButton)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip(tip or f"Tile {name}")

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt override
        return QRectF(-geo.UNIT - 4, -geo.EDGE_R - 4, 2 * geo.UNIT + 8, 2 * geo.EDGE_R + 8)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        paint_hex(painter, self._state, True, frozenset())
        painter.setPen(QPen(QColor("#202020"), 6))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPolygon(QPolygonF([QPointF(x, y) for x, y in geo.hex_corners()]))


def fan_centres(hex_id: str, count: int, size: float) -> list[QPointF]:
    """Where the ``count`` tiles of a fan around ``hex_id`` are drawn: rings of up to
    :data:`FAN_PER_RING` tiles around the hex, the first at the top."""
    import math

    centre = hex_centre(hex_id, size)
    out: list[QPointF] = []
    ring = 0
    while len(out) < count:
        n = min(FAN_PER_RING + 6 * ring, count - len(out))
        radius = size * (1.45 + 1.05 * ring)
        for i in range(n):
            angle = -math.pi / 2 + 2 * math.pi * i / n
            out.append(QPointF(centre.x() + radius * math.cos(angle),
                               centre.y() + radius * math.sin(angle)))
        ring += 1
    return out


def _slots(tile: TileDef, city: int) -> int:
    nodes = [n for n in tile.nodes if n.kind.value == "city"]
    return max(1, nodes[city].slots) if city < len(nodes) else 1


class TokenSlotItem(QGraphicsItem):
    """A clickable ring around a free token slot."""

    def __init__(self, hex_id: str, city: int, slot: int, centre: QPointF,
                 radius: float) -> None:
        super().__init__()
        self.hex_id = hex_id
        self.city = city
        self.slot = slot
        self._r = radius
        self.setPos(centre)
        self.setZValue(Z_SLOT)
        self.setAcceptHoverEvents(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip(f"Place a token in {hex_id}")
        self._hover = False

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt override
        r = self._r + 3
        return QRectF(-r, -r, 2 * r, 2 * r)

    def hoverEnterEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        self._hover = True
        self.update()

    def hoverLeaveEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        self._hover = False
        self.update()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        color = QColor("#00a000")
        painter.setPen(QPen(color, 3))
        fill = QColor(color)
        fill.setAlpha(140 if self._hover else 60)
        painter.setBrush(fill)
        painter.drawEllipse(QPointF(0, 0), self._r, self._r)


#: Colours of routes, by train index (18xx.games ``ROUTE_COLORS``).
ROUTE_COLORS = ("#ee0000", "#0066ff", "#00aa00", "#ff9900", "#9900cc", "#00cccc")


class RouteItem(QGraphicsItem):
    """One train's route: a thick line along its track, a dot on each stop."""

    def __init__(self, points: Sequence[QPointF], color: str, label: str,
                 stops: Sequence[QPointF] = ()) -> None:
        super().__init__()
        self._path = QPainterPath()
        if points:
            self._path.moveTo(points[0])
            for p in points[1:]:
                self._path.lineTo(p)
        self._color = QColor(color)
        self.label = label
        self._stops = list(stops)
        self.setZValue(Z_ROUTE)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt override
        return self._path.boundingRect().adjusted(-70, -50, 70, 50)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        color = QColor(self._color)
        color.setAlpha(170)
        pen = QPen(color, 9)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(self._path)
        painter.setBrush(QColor(self._color))
        painter.setPen(QPen(QColor("#ffffff"), 2))
        for p in self._stops:
            painter.drawEllipse(p, 7, 7)
        if self._stops and self.label:
            p = self._stops[0]
            box = QRectF(p.x() - 45, p.y() - 42, 90, 20)
            painter.setPen(QPen(QColor(self._color), 2))
            painter.setBrush(QColor("#ffffff"))
            painter.drawRoundedRect(box, 5, 5)
            font = painter.font()
            font.setBold(True)
            painter.setFont(font)
            painter.drawText(box, int(Qt.AlignmentFlag.AlignCenter), self.label)


def city_slot_centres(hex_id: str, tile: TileDef, rotation: int,
                      size: float) -> list[list[QPointF]]:
    """Per city (in city order), the scene centres of its token slots."""
    from desk18xx.ui.map.tilelayout import layout_tile  # shapely: not before it is used

    lay = layout_tile(tile, rotation)
    out: list[list[QPointF]] = []
    for node, nd in enumerate(tile.nodes):
        if nd.kind.value != "city":
            continue
        stop = lay.stops.get(node)
        if stop is None:
            out.append([hex_centre(hex_id, size)])
            continue
        centres = stop.slot_centres() or [stop.xy]
        out.append([tile_point(hex_id, size, c) for c in centres])
    return out


def node_centre(hex_id: str, tile: TileDef, rotation: int, node: int, size: float) -> QPointF:
    """Scene centre of stop ``node`` of the tile on ``hex_id``."""
    from desk18xx.ui.map.tilelayout import layout_tile  # shapely: not before it is used

    lay = layout_tile(tile, rotation)
    stop = lay.stops.get(node)
    if stop is None:
        return hex_centre(hex_id, size)
    return tile_point(hex_id, size, stop.xy)
