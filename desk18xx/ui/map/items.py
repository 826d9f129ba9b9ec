"""Thin graphics items: one per hex, plus the coordinate frame around the board."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QFont, QPainter, QPainterPath, QPicture, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from desk18xx.engine.map import hexgrid
from desk18xx.ui.map import geometry as geo
from desk18xx.ui.map import style
from desk18xx.ui.map.boardview import HexState
from desk18xx.ui.map.painter import (
    BORDER_WIDTH,
    layout_loaded,
    load_layout,
    paint_borders,
    paint_hex,
    paint_plain_hex,
)

#: Hexes drawn plain before the layout was imported (drawn again in full after).
_PLAIN: list[HexItem] = []
#: Whether hexes may be drawn plain until the layout is imported (set by the app).
_DEFER = [False]
#: Work waiting for the layout (run once it is imported after the first frame).
_AFTER: list[Callable[[], None]] = []


def draw_plain_until_idle() -> None:
    """Let the first frame show the hexes' colours and outlines only, and import the
    layout (shapely, numpy) right after it, then draw them in full.

    The app's start calls this: the window then shows and takes events without
    waiting for the largest imports.  Pictures (``--screenshot``, renders) do
    not: without this call every hex is drawn in full at once.
    """
    _DEFER[0] = True


def drawn_in_full() -> bool:
    """True when no hex waits for the layout to be drawn in full."""
    return not _PLAIN and (not _DEFER[0] or layout_loaded())


def after_layout(work: Callable[[], None]) -> bool:
    """True when the hex layout may be used now; else ``work`` is run (once) when the
    layout is imported after the app's first frame (:func:`draw_plain_until_idle`),
    so that what needs it (the map's name labels) does not hold that frame up."""
    if not _DEFER[0] or layout_loaded():
        return True
    if work not in _AFTER:
        _AFTER.append(work)  # the first hex painted plain asks for the layout
    return False


def _draw_in_full() -> None:
    """Import the layout (after the frame that showed plain hexes), then redraw them
    and run the work that waited for it."""
    load_layout()
    _DEFER[0] = False
    items, _PLAIN[:] = list(_PLAIN), []
    for item in items:
        try:
            item.update()
        except RuntimeError:  # the scene went away meanwhile
            continue
    waiting, _AFTER[:] = list(_AFTER), []
    for work in waiting:
        try:
            work()
        except RuntimeError:  # its window went away meanwhile
            continue


class HexItem(QGraphicsItem):
    """One hex: knows its state and delegates drawing to :func:`paint_hex`.

    Local coordinates are tile units (corner radius 100); the item is scaled
    to the map's hex size.
    """

    def __init__(self, state: HexState, size: float, show_names: bool = True) -> None:
        super().__init__()
        self._state = state
        self._show_names = show_names
        self._shared_costs: frozenset[int] = frozenset()
        x, y = hexgrid.center(hexgrid.parse_hex(state.hex.id), size)
        self.setPos(x, y)
        self.setScale(size / geo.UNIT)
        # a hex repaints from a pixmap unless its state changes (overlays, scrolling)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._borders = BorderItem(self)
        self._picture: QPicture | None = None
        """The drawing of the state (recorded once): a zoom, which repaints every hex
        in sight, replays it instead of laying the hex out again."""

    @property
    def border_item(self) -> BorderItem:
        """The layer item drawing this hex's borders (add it to the scene with the hex)."""
        return self._borders

    @property
    def hex_id(self) -> str:
        """The id of the hex drawn."""
        return self._state.hex.id

    @property
    def state(self) -> HexState:
        """What is drawn."""
        return self._state

    def set_state(self, state: HexState) -> None:
        """Draw a new state of the same hex."""
        self._state = state
        self._picture = None
        self.update()
        self._borders.update()

    def set_shared_costs(self, edges: frozenset[int]) -> None:
        """Edges whose river cost the neighbouring hex draws instead."""
        if edges != self._shared_costs:
            self._shared_costs = edges
            self._picture = None
            self.update()  # the hex's cached picture is passed the costs too
            self._borders.update()

    @property
    def shared_costs(self) -> frozenset[int]:
        """Edges whose river cost is left to the neighbour."""
        return self._shared_costs

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt override
        return QRectF(-geo.UNIT - 2, -geo.EDGE_R - 2, 2 * geo.UNIT + 4, 2 * geo.EDGE_R + 4)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addPolygon(QPolygonF([QPointF(x, y) for x, y in geo.hex_corners()]))
        path.closeSubpath()
        return path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if _DEFER[0] and not layout_loaded():  # the app's first frame: colour and outline
            if not _PLAIN:
                QTimer.singleShot(0, _draw_in_full)
            _PLAIN.append(self)
            paint_plain_hex(painter, self._state)
            return
        if self._picture is None:
            picture = QPicture()
            recorder = QPainter(picture)
            paint_hex(recorder, self._state, self._show_names, self._shared_costs,
                      draw_borders=False)
            recorder.end()
            self._picture = picture
        painter.drawPicture(0, 0, self._picture)


class BorderItem(QGraphicsItem):
    """Borders of one hex, in a layer above every hex (they straddle the edges)."""

    #: Stacking value above the hexes.
    Z = 1.0

    def __init__(self, hex_item: HexItem) -> None:
        super().__init__()
        self._hex = hex_item
        self.setPos(hex_item.pos())
        self.setScale(hex_item.scale())
        self.setZValue(self.Z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        # like the hex: a pixmap, so overlays changing above it do not repaint it
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt override
        m = BORDER_WIDTH
        return QRectF(-geo.UNIT - m, -geo.EDGE_R - m, 2 * (geo.UNIT + m), 2 * (geo.EDGE_R + m))

    def shape(self) -> QPainterPath:
        """Nothing to hit: clicks go to the hexes."""
        return QPainterPath()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        paint_borders(painter, self._hex.state, self._hex.shared_costs)


class CoordinateFrameItem(QGraphicsItem):
    """Column letters along the top and row numbers down the left of the board."""

    def __init__(self, coords: Iterable[hexgrid.Coord], size: float) -> None:
        super().__init__()
        cs = list(coords)
        self._size = size
        self._cols = sorted({c.col for c in cs})
        self._rows = sorted({c.row for c in cs})
        self._min_col = min(self._cols, default=0)
        self._min_row = min(self._rows, default=0)
        self._top = min((hexgrid.center(c, size)[1] for c in cs), default=0.0)
        self._top -= geo.EDGE_R / geo.UNIT * size
        self._left = hexgrid.center(hexgrid.Coord(self._min_col, 0), size)[0] - size
        self.setZValue(-1)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        # the board-wide frame is under every hex: paint only the letters in the
        # exposed part (a hex redrawn repaints its own spot, not 60 labels)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)

    def shape(self) -> QPainterPath:
        """Nothing to hit: clicks go to the hexes."""
        return QPainterPath()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt override
        s = self._size
        right = hexgrid.center(hexgrid.Coord(max(self._cols, default=0), 0), s)[0] + s
        bottom = hexgrid.center(hexgrid.Coord(0, max(self._rows, default=0)), s)[1] + s
        return QRectF(self._left - s, self._top - s, right - self._left + 2 * s,
                      bottom - self._top + 2 * s)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        s = self._size
        font = QFont(style.FONT_FAMILY)
        font.setPixelSize(max(8, round(s * 0.32)))
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(Qt.GlobalColor.darkGray)
        centre = int(Qt.AlignmentFlag.AlignCenter)
        exposed = option.exposedRect
        for col in self._cols:
            x, _ = hexgrid.center(hexgrid.Coord(col, 0), s)
            box = QRectF(x - s, self._top - s * 0.55, 2 * s, s * 0.5)
            if box.intersects(exposed):
                painter.drawText(box, centre, hexgrid.column_name(col))
        for row in self._rows:
            _, y = hexgrid.center(hexgrid.Coord(0, row), s)
            box = QRectF(self._left - s * 0.75, y - s * 0.3, s * 0.7, s * 0.6)
            if box.intersects(exposed):
                painter.drawText(box, centre, str(row))
