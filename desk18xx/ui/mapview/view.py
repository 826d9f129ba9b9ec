"""The map view: zoom, pan, fit, keyboard, clicks, drops and the overlays.

The renderer's :class:`~desk18xx.ui.map.scene.MapScene` draws the hexes; this
view adds its own items on top (highlights, a tile preview, token slots,
routes) and turns gestures into signals.  It never touches the engine.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QShortcut,
    QWheelEvent,
)
from PySide6.QtWidgets import QGraphicsItem, QGraphicsView, QWidget

from desk18xx.engine.map import hexgrid
from desk18xx.engine.tiledef import HexDef, TileDef
from desk18xx.ui.map.boardview import BoardView, Mark
from desk18xx.ui.map.geometry import SLOT_RADIUS, UNIT
from desk18xx.ui.map.scene import MapScene
from desk18xx.ui.mapview.overlays import (
    ROUTE_COLORS,
    FanTileItem,
    HexOutlineItem,
    RouteItem,
    TilePreviewItem,
    TokenSlotItem,
    fan_centres,
)
from desk18xx.ui.mapview.overview import MapOverview

#: MIME type of a tile dragged from the tray (payload: the tile name, UTF-8).
TILE_MIME = "application/x-desk18xx-tile"
MIN_ZOOM = 0.1
MAX_ZOOM = 6.0
WHEEL_STEP = 1.15
#: Pixels the mouse may move between press and release and still count as a click.
CLICK_SLOP = 5
#: Outline of a hex whose tile or tokens changed since the player's last action.
RECENT_COLOR = "#ff7a00"
#: Outline of a hex on a route run since the player's last action.
RECENT_ROUTE_COLOR = "#ffb347"
#: The smallest hex the default view draws, in pixels from centre to corner: the
#: size at which city names and revenues can still be read (1822CA fitted to a
#: window is about 9).
READABLE_HEX = 30.0
#: Hexes of margin kept around a company's tokens when the view follows it.
FOCUS_MARGIN = 1.5


class MapView(QGraphicsView):
    """A zoomable, pannable map with interaction overlays.

    Signals:
        hex_clicked(str): a hex was clicked (not dragged).
        slot_clicked(str, int, int): a highlighted token slot (hex, city, slot).
        tile_dropped(str, str): a tile (name) was dropped on a hex.
        rotate_requested(int): +1 / -1 to turn the previewed tile.
        confirm_requested(): Enter while previewing.
        cancel_requested(): Escape while previewing.
        hex_hovered(str): the mouse entered a hex ("" when off the map).
    """

    #: A hex was clicked (press and release without dragging).
    hex_clicked = Signal(str)
    #: A token slot overlay was clicked: hex, city index, slot index.
    slot_clicked = Signal(str, int, int)
    #: A tile was dropped on a hex: hex id, tile name.
    tile_dropped = Signal(str, str)
    #: The user asks to turn the previewed tile: +1 clockwise, -1 back.
    rotate_requested = Signal(int)
    #: Enter was pressed while a tile preview is shown.
    confirm_requested = Signal()
    #: Escape was pressed while a tile preview is shown.
    cancel_requested = Signal()
    #: The hex under the mouse changed.
    hex_hovered = Signal(str)
    #: A tile of the fan around a hex was clicked (its name).
    fan_tile_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._scene: MapScene | None = None
        self._ids: set[str] = set()
        self._highlights: list[HexOutlineItem] = []
        self._highlight_key: tuple[tuple[str, ...], str] = ((), "")
        self._hover: HexOutlineItem | None = None
        self._hover_hex = ""
        self._preview: TilePreviewItem | None = None
        self._slots: list[TokenSlotItem] = []
        self._fan: list[FanTileItem] = []
        self._routes: list[RouteItem] = []
        self._recent: list[HexOutlineItem] = []
        """What happened since the player's last action (an e-mail move), until dismissed."""
        self._press: QPoint | None = None
        self._last: QPoint | None = None
        self._dragging = False
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setAcceptDrops(True)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._lay_keys = [QShortcut(QKeySequence(key), self) for key in
                          (Qt.Key.Key_Return, Qt.Key.Key_Enter)]
        """Enter lays the previewed tile wherever the focus is in the window (issue 18):
        on only while a tile is previewed."""
        for shortcut in self._lay_keys:
            shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
            shortcut.setEnabled(False)
            shortcut.activated.connect(self.confirm_requested.emit)
        self.overview = MapOverview(self, self.centre_on_point)
        """The whole board in the corner, the part in view framed (click to move)."""
        self._fitted = False
        """True while the whole board is shown (kept so on resize)."""
        self._readable = False
        """True while the default view is shown (kept so on resize); False once the
        user zooms or pans, or the view follows a company."""

    # -- board ---------------------------------------------------------------------------
    @property
    def map_scene(self) -> MapScene | None:
        """The scene drawn, once a board is set."""
        return self._scene

    def set_board(self, board: BoardView) -> None:
        """Draw ``board``: refresh changed hexes, or build the scene the first time."""
        if self._scene is not None and set(self._scene.hex_ids()) == {
                s.hex.id for s in board.hex_states()}:
            self._scene.refresh(board)
            self.overview.board_changed()
            return
        old = self._scene
        self._clear_overlays()
        self._scene = MapScene(board, parent=self)
        self._ids = set(self._scene.hex_ids())
        self.setScene(self._scene)
        if old is not None:
            old.deleteLater()
        self.default_view()
        self.overview.set_scene(self._scene)

    def hex_size(self) -> float:
        """Scene units from a hex centre to a corner."""
        return self._scene.hex_size if self._scene is not None else 50.0

    def hex_at(self, pos: QPoint) -> str:
        """The hex under viewport position ``pos`` ("" if none)."""
        if self._scene is None:
            return ""
        p = self.mapToScene(pos)
        size = self.hex_size()
        # nearest hex centre among those of the scene
        col = round(p.x() / (1.5 * size))
        best = ""
        best_d = size * size
        for dc in (-1, 0, 1):
            c = col + dc
            row_guess = round(p.y() / (hexgrid.SQRT3 / 2 * size))
            for r in range(row_guess - 2, row_guess + 3):
                hid = hexgrid.hex_name(hexgrid.Coord(c, r))
                cx, cy = hexgrid.center(hexgrid.Coord(c, r), size)
                d = (cx - p.x()) ** 2 + (cy - p.y()) ** 2
                if d < best_d and hid in self._ids:
                    best, best_d = hid, d
        return best

    # -- zoom and pan --------------------------------------------------------------------
    def zoom(self) -> float:
        """Current scale factor."""
        return self.transform().m11()

    def zoom_by(self, factor: float) -> None:
        """Scale by ``factor`` around the mouse (clamped)."""
        target = max(MIN_ZOOM, min(MAX_ZOOM, self.zoom() * factor))
        f = target / self.zoom()
        if abs(f - 1.0) > 1e-6:
            self.scale(f, f)

    def fit(self) -> None:
        """Show the whole board, however small its hexes get (View > Fit, Ctrl+0)."""
        if self._scene is not None:
            self.fitInView(self._scene.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
            self._fitted = True
            self._readable = False

    def readable_zoom(self) -> float:
        """The zoom at which a hex is :data:`READABLE_HEX` pixels (centre to corner)."""
        return READABLE_HEX / self.hex_size()

    def board_rect(self, hex_ids: Iterable[str] | None = None) -> QRectF:
        """Scene rectangle of ``hex_ids`` (every hex of the board when None)."""
        size = self.hex_size()
        ids = self._ids if hex_ids is None else [h for h in hex_ids if h in self._ids]
        xs, ys = [], []
        for hid in ids:
            x, y = hexgrid.center(hexgrid.parse_hex(hid), size)
            xs.append(x)
            ys.append(y)
        if not xs:
            return QRectF()
        return QRectF(min(xs) - size, min(ys) - size,
                      max(xs) - min(xs) + 2 * size, max(ys) - min(ys) + 2 * size)

    def _zoom_to_fit(self, rect: QRectF) -> float:
        """The zoom at which ``rect`` just fits the viewport."""
        port = self.viewport().rect()
        if rect.isEmpty() or port.isEmpty():
            return self.zoom()
        return min(port.width() / rect.width(), port.height() / rect.height())

    def _set_zoom(self, zoom: float) -> None:
        target = max(MIN_ZOOM, min(MAX_ZOOM, zoom))
        f = target / self.zoom()
        if abs(f - 1.0) > 1e-6:
            self.scale(f, f)

    def default_view(self) -> None:
        """The view a new board opens with: the whole board (issue 18: the whole 1822CA
        board in sight at 1280x800). Its hexes may then be small (1822CA at 1280x800:
        about 9 px); the names stay at 9 pt in their labels (:mod:`desk18xx.ui.maplabels`)
        and View > Readable size (:meth:`readable_view`) zooms in."""
        self.fit()

    def readable_view(self) -> None:
        """The whole playable area when its hexes are readable at that size (1867 in a
        big window), else the readable size centred on the board (View > Readable
        size, Ctrl+1; the view then follows the operating company, :meth:`focus_on`)."""
        if self._scene is None:
            return
        rect = self.board_rect()
        zoom = self._zoom_to_fit(rect)
        if zoom >= self.readable_zoom():
            self.fit()
            return
        self._set_zoom(self.readable_zoom())
        self.centerOn(rect.center())
        self._fitted = False
        self._readable = True

    def focus_on(self, hex_ids: Sequence[str]) -> None:
        """Bring ``hex_ids`` (a company's home first, then its other tokens) into the
        middle of the view: at the present zoom when they fit, else zoomed out as far
        as they need but not below the readable size, centred on the first hex when
        they do not fit even then; a view zoomed out below the readable size (the
        whole board, chosen by the user) only moves."""
        rect = self.board_rect(hex_ids)
        if self._scene is None or rect.isEmpty():
            return
        margin = FOCUS_MARGIN * self.hex_size()
        rect.adjust(-margin, -margin, margin, margin)
        readable = self.readable_zoom()
        centre = rect.center()
        if self.zoom() >= readable * 0.999:
            need = self._zoom_to_fit(rect)
            self._set_zoom(max(readable, min(self.zoom(), need)))
            self._fitted = False
            if need < readable:  # too spread out: the home, with what fits around it
                centre = self.board_rect(hex_ids[:1]).center()
        self._readable = False
        self.centerOn(centre)

    def zoom_step(self, steps: int) -> None:
        """Zoom in (``steps`` > 0) or out around the middle of the view (keyboard, menu)."""
        anchor = self.transformationAnchor()
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self._fitted = self._readable = False
        self.zoom_by(WHEEL_STEP ** steps)
        self.setTransformationAnchor(anchor)

    def company_hexes(self, corp: str) -> list[str]:
        """The home hex of ``corp`` (printed reservation) first, then the other hexes
        holding one of its tokens."""
        if self._scene is None:
            return []
        tokens, homes = [], []
        for hid in self._scene.hex_ids():
            state = self._scene.hex_item(hid).state
            if any(r.entity == corp for r in state.hex.reservations):
                homes.append(hid)
            elif any(m is not None and m.owner == corp for row in state.tokens for m in row):
                tokens.append(hid)
        return homes + tokens

    def centre_on_point(self, point: QPointF) -> None:
        """Scroll so that scene ``point`` is in the middle (the overview's click)."""
        self._fitted = self._readable = False
        self.centerOn(point)

    def centre_on_hex(self, hex_id: str) -> None:
        """Scroll so that ``hex_id`` is in the middle."""
        x, y = hexgrid.center(hexgrid.parse_hex(hex_id), self.hex_size())
        self.centerOn(QPointF(x, y))

    def pan_by(self, dx: int, dy: int) -> None:
        """Scroll by pixels."""
        h, v = self.horizontalScrollBar(), self.verticalScrollBar()
        h.setValue(h.value() + dx)
        v.setValue(v.value() + dy)

    # -- overlays ------------------------------------------------------------------------
    def _clear_overlays(self) -> None:
        for items in (self._highlights, self._slots, self._routes, self._recent):
            for item in items:
                self._remove(item)
            items.clear()
        self._highlight_key = ((), "")
        self._remove(self._hover)
        self._hover = None
        self._hover_hex = ""
        self.clear_preview()
        self.clear_fan()

    def _remove(self, item: QGraphicsItem | None) -> None:
        if item is not None and item.scene() is not None:
            item.scene().removeItem(item)

    def set_highlights(self, hex_ids: Iterable[str], color: str = "#ff00ff") -> None:
        """Outline ``hex_ids`` (where the operating company may build)."""
        key = (tuple(hex_ids), color)
        if key == self._highlight_key and len(self._highlights) == len(key[0]):
            return  # the same outlines: leave them, so nothing under them is repainted
        for item in self._highlights:
            self._remove(item)
        self._highlights = []
        self._highlight_key = ((), "")
        if self._scene is None:
            return
        self._highlight_key = key
        for hid in key[0]:
            item = HexOutlineItem(hid, self.hex_size(), color, 3.0, 0)
            self._scene.addItem(item)
            self._highlights.append(item)

    def highlighted(self) -> list[str]:
        """Hexes outlined now."""
        return [i.hex_id for i in self._highlights]

    def set_recent(self, changed: Iterable[str], routes: Iterable[str] = ()) -> None:
        """Mark what happened since the player's last action (a friend's e-mail move):
        hexes whose tile or tokens changed (bold orange) and hexes of routes run (light
        orange), until `clear_recent` (Escape, or the player acts)."""
        self.clear_recent()
        if self._scene is None:
            return
        strong = [h for h in dict.fromkeys(changed) if h in self._ids]
        light = [h for h in dict.fromkeys(routes) if h in self._ids and h not in strong]
        for hexes, color, width, alpha in ((light, RECENT_ROUTE_COLOR, 3.0, 30),
                                           (strong, RECENT_COLOR, 6.0, 70)):
            for hid in hexes:
                item = HexOutlineItem(hid, self.hex_size(), color, width, alpha)
                item.setZValue(item.zValue() - 1)  # under the build highlights
                item.setToolTip("Changed since your last action (Esc hides this)")
                self._scene.addItem(item)
                self._recent.append(item)

    def recent(self) -> list[str]:
        """Hexes marked by `set_recent` now (changed ones last)."""
        return [i.hex_id for i in self._recent]

    def show_recent(self, visible: bool) -> None:
        """Show or hide the "what happened since" marks without dropping them: they
        belong to the current position, not to an earlier one looked at in the log."""
        for item in self._recent:
            item.setVisible(visible)

    def recent_shown(self) -> list[str]:
        """Hexes whose "what happened since" mark is visible now."""
        return [i.hex_id for i in self._recent if i.isVisible()]

    def clear_recent(self) -> None:
        """Remove the "what happened since" marks."""
        for item in self._recent:
            self._remove(item)
        self._recent = []

    def show_preview(self, hex_def: HexDef, tile: TileDef, rotation: int) -> None:
        """Draw ``tile`` on ``hex_def`` at ``rotation`` until cleared (tokens kept)."""
        self.clear_preview()
        if self._scene is None:
            return
        tokens: tuple[tuple[Mark | None, ...], ...] = ()
        if hex_def.id in self._ids:
            tokens = tuple(tuple(row) for row in self._scene.hex_item(hex_def.id).state.tokens)
        self._preview = TilePreviewItem(hex_def, tile, rotation, self.hex_size(), tokens)
        self._scene.addItem(self._preview)
        for shortcut in self._lay_keys:
            shortcut.setEnabled(True)

    def show_fan(self, hex_def: HexDef, tiles: Sequence[tuple[str, TileDef, int, str]]
                 ) -> None:
        """Open the legal tiles (name, tile, rotation, tooltip) as a fan around the hex."""
        self.clear_fan()
        if self._scene is None or not tiles:
            return
        size = self.hex_size()
        centres = fan_centres(hex_def.id, len(tiles), size)
        for (name, tile, rotation, tip), centre in zip(tiles, centres, strict=True):
            item = FanTileItem(hex_def, name, tile, rotation, centre, size, tip)
            self._scene.addItem(item)
            self._fan.append(item)

    def clear_fan(self) -> None:
        """Close the fan of tiles."""
        for item in self._fan:
            self._remove(item)
        self._fan = []

    def fan(self) -> list[FanTileItem]:
        """The tiles of the fan shown (empty: none)."""
        return list(self._fan)

    def clear_preview(self) -> None:
        """Remove the tile preview."""
        self._remove(self._preview)
        self._preview = None
        for shortcut in getattr(self, "_lay_keys", ()):
            shortcut.setEnabled(False)

    @property
    def previewing(self) -> bool:
        """True while a tile preview is shown."""
        return self._preview is not None

    def set_token_slots(self, slots: Sequence[tuple[str, int, int, QPointF]]) -> None:
        """Make these (hex, city, slot, scene centre) clickable."""
        for item in self._slots:
            self._remove(item)
        self._slots = []
        if self._scene is None:
            return
        r = SLOT_RADIUS * self.hex_size() / UNIT
        for hid, city, slot, centre in slots:
            item = TokenSlotItem(hid, city, slot, centre, r)
            self._scene.addItem(item)
            self._slots.append(item)

    def token_slots(self) -> list[TokenSlotItem]:
        """The clickable slots shown."""
        return list(self._slots)

    def set_routes(self, routes: Sequence[tuple[Sequence[QPointF], str, Sequence[QPointF]]]
                   ) -> None:
        """Draw routes: (line points, label, stop points) per train."""
        for item in self._routes:
            self._remove(item)
        self._routes = []
        if self._scene is None:
            return
        for i, (points, label, stops) in enumerate(routes):
            item = RouteItem(points, ROUTE_COLORS[i % len(ROUTE_COLORS)], label, stops)
            self._scene.addItem(item)
            self._routes.append(item)

    def routes(self) -> list[RouteItem]:
        """The route lines drawn."""
        return list(self._routes)

    # -- events --------------------------------------------------------------------------
    def resizeEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)  # type: ignore[arg-type]
        if self._fitted and self._scene is not None:
            self.fit()
        elif self._readable and self._scene is not None:
            self.readable_view()
        self.overview.follow()

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt override
        delta = event.angleDelta().y()
        if delta == 0:
            return
        if self._preview is not None and not (event.modifiers()
                                              & Qt.KeyboardModifier.ControlModifier):
            self.rotate_requested.emit(1 if delta < 0 else -1)
            event.accept()
            return
        self._fitted = self._readable = False
        self.zoom_by(WHEEL_STEP if delta > 0 else 1 / WHEEL_STEP)
        event.accept()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        item = self.itemAt(event.position().toPoint())
        if isinstance(item, TokenSlotItem) and event.button() == Qt.MouseButton.LeftButton:
            self.slot_clicked.emit(item.hex_id, item.city, item.slot)
            event.accept()
            return
        if isinstance(item, FanTileItem) and event.button() == Qt.MouseButton.LeftButton:
            self.fan_tile_chosen.emit(item.name)
            event.accept()
            return
        if event.button() == Qt.MouseButton.LeftButton:
            self._press = event.position().toPoint()
            self._last = self._press
            self._dragging = False
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        pos = event.position().toPoint()
        if self._press is not None and self._last is not None:
            if (pos - self._press).manhattanLength() > CLICK_SLOP:
                self._dragging = True
                self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            if self._dragging:
                d = pos - self._last
                self._fitted = self._readable = False
                self.pan_by(-d.x(), -d.y())
            self._last = pos
            event.accept()
            return
        self._update_hover(self.hex_at(pos))
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if self._press is not None and event.button() == Qt.MouseButton.LeftButton:
            was_drag = self._dragging
            self._press = self._last = None
            self._dragging = False
            self.viewport().unsetCursor()
            if not was_drag:
                hid = self.hex_at(event.position().toPoint())
                if hid:
                    self.hex_clicked.emit(hid)
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def _update_hover(self, hid: str) -> None:
        if hid == self._hover_hex:
            return
        self._hover_hex = hid
        self._remove(self._hover)
        self._hover = None
        if hid and self._scene is not None:
            self._hover = HexOutlineItem(hid, self.hex_size(), "#2060ff", 2.0, 0)
            self._scene.addItem(self._hover)
        self.hex_hovered.emit(hid)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        key = event.key()
        step = 60
        if self._preview is not None:
            if key in (Qt.Key.Key_Right, Qt.Key.Key_Up, Qt.Key.Key_R):
                self.rotate_requested.emit(1)
                return
            if key in (Qt.Key.Key_Left, Qt.Key.Key_Down):
                self.rotate_requested.emit(-1)
                return
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.confirm_requested.emit()
                return
            if key == Qt.Key.Key_Escape:
                self.clear_fan()
                self.cancel_requested.emit()
                return
        if key == Qt.Key.Key_Escape and self._recent:
            self.clear_recent()
        elif key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom_step(1)
        elif key == Qt.Key.Key_Minus:
            self.zoom_step(-1)
        elif key in (Qt.Key.Key_0, Qt.Key.Key_F, Qt.Key.Key_Home):
            self.fit()
        elif key == Qt.Key.Key_1:
            self.default_view()
        elif key in (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Up, Qt.Key.Key_Down):
            self._fitted = self._readable = False
            dx = {Qt.Key.Key_Left: -step, Qt.Key.Key_Right: step}.get(Qt.Key(key), 0)
            dy = {Qt.Key.Key_Up: -step, Qt.Key.Key_Down: step}.get(Qt.Key(key), 0)
            self.pan_by(dx, dy)
        else:
            super().keyPressEvent(event)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt override
        if event.mimeData().hasFormat(TILE_MIME):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:  # noqa: N802 - Qt override
        if event.mimeData().hasFormat(TILE_MIME):
            self._update_hover(self.hex_at(event.position().toPoint()))
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt override
        data = event.mimeData()
        if not data.hasFormat(TILE_MIME):
            event.ignore()
            return
        name = bytes(data.data(TILE_MIME).data()).decode()
        hid = self.hex_at(event.position().toPoint())
        if hid:
            self.tile_dropped.emit(hid, name)
            event.acceptProposedAction()
        else:
            event.ignore()


__all__ = ["ROUTE_COLORS", "TILE_MIME", "MapView"]
