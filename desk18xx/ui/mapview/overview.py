"""The overview: the whole board in a small inset over the map's corner, with the part
in view as a rectangle; a click or a drag there moves the view (issue 18: the whole
board in sight at 1280x800 while the map stays at a size where names read).

The inset draws the hexes in their tile colours and the companies' tokens as dots,
read from the map scene's hex states (never from the engine); its picture is drawn
again a moment after the board changes (:data:`REDRAW_MS`), the rectangle at once.
It hides while the whole board is in view (nothing to find) and when turned off
(View > Overview map).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen, QPixmap, QPolygonF
from PySide6.QtWidgets import QGraphicsView, QWidget

from desk18xx.engine.map import hexgrid
from desk18xx.ui.map import style
from desk18xx.ui.map.scene import MapScene

#: Largest inset, in pixels (the board's shape decides which side is shorter).
MAX_SIZE = QSize(200, 150)
#: At most this part of the map's width and of its height.
MAX_SHARE = 0.28
#: Pixels between the inset and the map's edges.
MARGIN = 6
#: Milliseconds after a board change before the picture is drawn again (idle work).
REDRAW_MS = 250
#: The rectangle of the part in view.
FRAME_COLOR = "#d0021b"


class MapOverview(QWidget):
    """The whole board, small, over the bottom-right corner of ``view``.

    Args:
        view: the map view it shows (its parent).
        move_to: centres the view on a scene point (a click or drag in the inset).
    """

    def __init__(self, view: QGraphicsView, move_to: Callable[[QPointF], None]) -> None:
        super().__init__(view)
        self._view = view
        self._move_to = move_to
        self._picture: QPixmap | None = None
        self._scene: MapScene | None = None
        self._enabled = True
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REDRAW_MS)
        self._timer.timeout.connect(self._draw_picture)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("The whole board: the red frame is the part in view. "
                        "Click or drag to move the map (View > Overview map).")
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        for bar in (view.horizontalScrollBar(), view.verticalScrollBar()):
            bar.valueChanged.connect(self.follow)
            bar.rangeChanged.connect(self.follow)
        self.hide()

    # -- what it shows -----------------------------------------------------------------
    def set_scene(self, scene: MapScene | None) -> None:
        """Show ``scene``'s board (a new board: its picture now)."""
        self._scene = scene
        self._picture = None
        self.follow()
        if scene is not None:
            self._draw_picture()

    def board_changed(self) -> None:
        """Tiles or tokens changed: draw the picture again in a moment."""
        if self._scene is not None and not self._timer.isActive():
            self._timer.start()

    def set_enabled(self, on: bool) -> None:
        """Turn the inset on or off (View > Overview map)."""
        self._enabled = on
        self.follow()

    @property
    def wanted(self) -> bool:
        """True when the inset is turned on."""
        return self._enabled

    def follow(self, *_args: object) -> None:
        """Place the inset in the corner, show it while part of the board is out of
        view, and move its rectangle to the part in view."""
        scene = self._scene
        if scene is None or not self._enabled:
            self.hide()
            return
        size = self._size_for(scene.sceneRect())
        port = self._view.viewport().geometry()
        x = port.right() - size.width() - MARGIN + 1
        y = port.bottom() - size.height() - MARGIN + 1
        if self.size() != size:
            self.resize(size)
            self._picture = None
            self._draw_picture()
        if self.pos().x() != x or self.pos().y() != y:
            self.move(x, y)
        shown = self.visible_scene_rect()
        everything = shown.adjusted(-1, -1, 1, 1).contains(scene.sceneRect())
        fits = port.width() > 2 * size.width() and port.height() > 2 * size.height()
        self.setVisible(not everything and fits)
        self.update()

    def _size_for(self, rect: QRectF) -> QSize:
        port = self._view.viewport().size()  # a small map keeps most of itself in sight
        w = min(MAX_SIZE.width(), port.width() * MAX_SHARE)
        h = min(MAX_SIZE.height(), port.height() * MAX_SHARE)
        if rect.isEmpty() or w <= 0 or h <= 0:
            return MAX_SIZE
        k = min(w / rect.width(), h / rect.height())
        return QSize(max(20, round(rect.width() * k)), max(20, round(rect.height() * k)))

    # -- coordinates -------------------------------------------------------------------
    def _scale(self) -> float:
        scene = self._scene
        if scene is None or scene.sceneRect().isEmpty():
            return 1.0
        rect = scene.sceneRect()
        return min(self.width() / rect.width(), self.height() / rect.height())

    def to_inset(self, point: QPointF) -> QPointF:
        """Where scene point ``point`` is in the inset."""
        assert self._scene is not None
        origin = self._scene.sceneRect().topLeft()
        k = self._scale()
        return QPointF((point.x() - origin.x()) * k, (point.y() - origin.y()) * k)

    def to_scene(self, point: QPointF) -> QPointF:
        """The scene point shown at inset point ``point``."""
        assert self._scene is not None
        origin = self._scene.sceneRect().topLeft()
        k = self._scale()
        return QPointF(origin.x() + point.x() / k, origin.y() + point.y() / k)

    def visible_scene_rect(self) -> QRectF:
        """The part of the scene in the map's view now."""
        view = self._view
        return view.mapToScene(view.viewport().rect()).boundingRect()

    def frame(self) -> QRectF:
        """The rectangle drawn for the part in view, in inset pixels (clipped to it)."""
        if self._scene is None:
            return QRectF()
        shown = self.visible_scene_rect()
        top_left, bottom_right = self.to_inset(shown.topLeft()), self.to_inset(
            shown.bottomRight())
        return QRectF(top_left, bottom_right).intersected(
            QRectF(0, 0, self.width(), self.height()))

    # -- drawing -----------------------------------------------------------------------
    def _draw_picture(self) -> None:
        scene = self._scene
        if scene is None or self.width() <= 0 or self.height() <= 0:
            return
        ratio = self.devicePixelRatioF()
        picture = QPixmap(round(self.width() * ratio), round(self.height() * ratio))
        picture.setDevicePixelRatio(ratio)
        picture.fill(QColor(style.BACKGROUND))
        painter = QPainter(picture)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        k = self._scale()
        size = scene.hex_size
        corners = [QPointF(x * k, y * k) for x, y in hexgrid.corners(size)]
        outline = QPen(QColor(style.OUTLINE), 0.5)
        dot = max(1.2, size * k * 0.22)
        for hex_id in scene.hex_ids():
            state = scene.hex_item(hex_id).state
            centre = self.to_inset(QPointF(*hexgrid.center(hexgrid.parse_hex(hex_id), size)))
            painter.setPen(outline)
            painter.setBrush(QColor(style.TILE_COLORS.get(state.tile.color, "#ffffff")))
            painter.drawPolygon(QPolygonF([centre + c for c in corners]))
            marks = [m for row in state.tokens for m in row if m is not None]
            for i, mark in enumerate(marks[:3]):
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(QColor(mark.fill))
                painter.drawEllipse(centre + QPointF((i - (len(marks[:3]) - 1) / 2) * dot * 2,
                                                     0), dot, dot)
        painter.end()
        self._picture = picture
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        if self._picture is not None:
            painter.drawPixmap(0, 0, self._picture)
        else:
            painter.fillRect(self.rect(), QColor(style.BACKGROUND))
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(QColor(FRAME_COLOR), 2))
        painter.drawRect(self.frame().adjusted(1, 1, -1, -1))
        painter.setPen(QPen(QColor(style.OUTLINE), 1))
        painter.drawRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5))

    # -- moving the map ----------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if event.button() == Qt.MouseButton.LeftButton:
            self._move_view(event.position())
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._move_view(event.position())
            event.accept()
            return
        super().mouseMoveEvent(event)

    def _move_view(self, at: QPointF) -> None:
        if self._scene is not None:
            self._move_to(self.to_scene(at))


__all__ = ["MAX_SIZE", "MapOverview"]
