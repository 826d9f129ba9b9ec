"""Place names that stay readable at any zoom (issue 18: names of 9 pt or more at the
default zoom, where a name drawn inside its hex is about 3 pt).

Each named hex of the map gets a label drawn at a fixed screen size
(``ItemIgnoresTransformations``) over the spot its tile's own name has, on a pale box.
The labels show only while the tile's own name is smaller than they are (zoomed in far
enough, the map's own names take over), and a label that would cover another one waits
for a closer zoom (the hex's tooltip names it meanwhile). The scene and its hexes stay the map's
(:mod:`desk18xx.ui.map.scene`); this module only adds items to it and reads the hexes'
states and layouts.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from desk18xx.ui.map import style
from desk18xx.ui.map.items import HexItem, after_layout
from desk18xx.ui.mapview.view import MapView

#: Pixel size of a label: 9 pt at 96 dots per inch.
LABEL_PX = 12
#: Above the hexes and their borders, below the view's overlays (highlights, routes).
LABEL_Z = 5.0


def _font() -> QFont:
    font = QFont(style.FONT_FAMILY)
    font.setPixelSize(LABEL_PX)
    return font


class NameLabel(QGraphicsItem):
    """One place name at a fixed screen size, centred on a scene point."""

    def __init__(self, text: str, own_px: float) -> None:
        super().__init__()
        self.text = text
        """The name as shown (lines as the tile lays them out)."""
        self.own_px = own_px
        """The pixel size of the tile's own name at zoom 1 (scene units)."""
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        # drawn once, then copied: a map repaint does not lay out ~80 names again
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setZValue(LABEL_Z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)  # clicks reach the hex
        self.anchor = QPointF()
        """The scene point the label is centred on, unless that would put part of it
        beyond the board's edge (then it is moved in: :meth:`MapLabels._follow_zoom`)."""
        metrics = QFontMetricsF(_font())
        lines = text.split("\n")
        width = max(metrics.horizontalAdvance(line) for line in lines) + 6
        height = metrics.lineSpacing() * len(lines) + 2
        self._rect = QRectF(-width / 2, -height / 2, width, height)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt override
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        back = QColor("#ffffff")
        back.setAlphaF(0.8)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(back)
        painter.drawRoundedRect(self._rect, 3, 3)
        painter.setFont(_font())
        painter.setPen(QColor("#000000"))
        painter.drawText(self._rect, int(Qt.AlignmentFlag.AlignCenter), self.text)


class MapLabels(QObject):
    """Keeps a readable label on every named hex of ``view``'s board.

    Call :meth:`refresh` after the board changed (a tile moves a name); zoom changes
    are followed by themselves (the labels hide where the map's own names are large).
    """

    def __init__(self, view: MapView, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._view = view
        self._scene: object = None
        self._labels: dict[str, NameLabel] = {}
        self._states: dict[str, object] = {}
        self._zoom = -1.0
        view.viewport().installEventFilter(self)

    def labels(self) -> dict[str, NameLabel]:
        """Hex id -> its label."""
        return dict(self._labels)

    def screen_px(self, label: NameLabel) -> float:
        """Pixel size of the tile's own name on screen now."""
        return label.own_px * self._view.zoom()

    def refresh(self) -> None:
        """Add labels to a new scene, move those whose hex changed, show the right ones."""
        scene = self._view.map_scene
        if scene is None or not after_layout(self.refresh):  # after the app's first frame
            return
        if scene is not self._scene:
            self._scene, self._labels, self._states = scene, {}, {}
        moved = False
        for hex_id in scene.hex_ids():
            item = scene.hex_item(hex_id)
            if self._states.get(hex_id) is item.state:
                continue
            self._states[hex_id] = item.state
            self._place(item)
            moved = True
        if moved:  # which labels hide under others is known while none moves
            self._zoom = -1.0
        self._follow_zoom()

    def _place(self, item: HexItem) -> None:
        from desk18xx.ui.map.hexlayout import layout_hex  # shapely: not before the first frame

        hex_id = item.hex_id
        old = self._labels.pop(hex_id, None)
        lay = layout_hex(item.state)
        if lay.name is None:
            if old is not None and old.scene() is not None:
                old.scene().removeItem(old)
            return
        own = lay.name_px * item.scale()  # its size in scene units at zoom 1
        if old is not None and old.text == lay.name.text and old.own_px == own:
            label = old
        else:
            if old is not None and old.scene() is not None:
                old.scene().removeItem(old)
            label = NameLabel(lay.name.text, own)
            scene = item.scene()
            if scene is None:
                return
            scene.addItem(label)
        label.anchor = item.mapToScene(QPointF(*lay.name.center))
        label.setPos(label.anchor)
        self._labels[hex_id] = label

    def _follow_zoom(self) -> None:
        zoom = self._view.zoom()
        if abs(zoom - self._zoom) < 1e-9:
            return
        self._zoom = zoom
        scene = self._view.map_scene
        edges = QRectF() if scene is None else scene.sceneRect()
        taken: list[QRectF] = []  # on screen; a label over another one stays hidden
        for label in sorted(self._labels.values(),
                            key=lambda lb: (lb.anchor.y(), lb.anchor.x())):
            self._keep_inside(label, edges, zoom)
            show = self.screen_px(label) < LABEL_PX
            if show:
                centre = self._view.mapFromScene(label.pos())
                rect = label.boundingRect().translated(centre.x(), centre.y())
                show = not any(rect.intersects(other) for other in taken)
                if show:
                    taken.append(rect)
            label.setVisible(show)

    @staticmethod
    def _keep_inside(label: NameLabel, edges: QRectF, zoom: float) -> None:
        """Centre ``label`` on its anchor, moved in as far as needed for the whole label
        to be inside ``edges`` (the board's scene rectangle; "Prince Rupert" on the
        1822CA board's west edge is not cut to "rince Rupert" with the whole board in
        view)."""
        if edges.isEmpty() or zoom <= 0:
            label.setPos(label.anchor)
            return
        half_w = label.boundingRect().width() / 2 / zoom  # the label's size in scene units
        half_h = label.boundingRect().height() / 2 / zoom
        x, y = label.anchor.x(), label.anchor.y()
        x = min(max(x, edges.left() + half_w), edges.right() - half_w)
        y = min(max(y, edges.top() + half_h), edges.bottom() - half_h)
        label.setPos(QPointF(x, y))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.Paint and self._labels:
            self._follow_zoom()  # a zoom shows as a repaint of the viewport
        return False

