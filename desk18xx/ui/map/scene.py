"""The map as a QGraphicsScene: one :class:`HexItem` per hex and a coordinate frame."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsScene

from desk18xx.engine.map import hexgrid
from desk18xx.engine.tiledef import BorderDef
from desk18xx.ui.map import style
from desk18xx.ui.map.boardview import BoardView
from desk18xx.ui.map.geometry import shared_border_costs
from desk18xx.ui.map.items import CoordinateFrameItem, HexItem

#: Pixels from a hex's centre to a corner at zoom 1.
DEFAULT_HEX_SIZE = 50.0


class MapScene(QGraphicsScene):
    """All hexes of a board.

    Args:
        board: what to draw.
        size: hex size in scene units (centre to corner).
        show_names: draw location names.
        parent: Qt parent.
    """

    def __init__(self, board: BoardView, size: float = DEFAULT_HEX_SIZE,
                 show_names: bool = True, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._size = size
        self._items: dict[str, HexItem] = {}
        self.setBackgroundBrush(QColor(style.BACKGROUND))
        coords = []
        for state in board.hex_states():
            item = HexItem(state, size, show_names)
            self.addItem(item)
            self.addItem(item.border_item)
            self._items[state.hex.id] = item
            coords.append(hexgrid.parse_hex(state.hex.id))
        self._update_shared_costs()
        self._frame = CoordinateFrameItem(coords, size)
        self.addItem(self._frame)
        self.setSceneRect(self.itemsBoundingRect().adjusted(-size * 0.2, -size * 0.2,
                                                            size * 0.2, size * 0.2))

    @property
    def hex_size(self) -> float:
        """Centre-to-corner size of a hex in scene units."""
        return self._size

    def hex_item(self, hex_id: str) -> HexItem:
        """The item drawing ``hex_id``.

        Raises:
            KeyError: the hex is not on this board.
        """
        return self._items[hex_id]

    def hex_ids(self) -> list[str]:
        """Ids of all hexes drawn."""
        return list(self._items)

    def refresh(self, board: BoardView) -> None:
        """Redraw the hexes whose state changed (same board shape)."""
        borders_changed = False
        for state in board.hex_states():
            item = self._items.get(state.hex.id)
            if item is None or item.state is state:
                continue  # the board view reuses a hex's state while it is unchanged
            if item.state != state:
                borders_changed = borders_changed or item.state.borders != state.borders
                item.set_state(state)
        if borders_changed:  # a neighbour may draw a shared river cost now, or stop
            self._update_shared_costs()

    def _neighbour_borders(self, hex_id: str) -> Sequence[BorderDef] | None:
        item = self._items.get(hex_id)
        return None if item is None else item.state.borders

    def _update_shared_costs(self) -> None:
        for hex_id, item in self._items.items():
            item.set_shared_costs(
                shared_border_costs(hex_id, item.state.borders, self._neighbour_borders))
