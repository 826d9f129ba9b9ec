"""The stock market drawn with QPainter: cells with prices, tokens stacked in order."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from desk18xx.ui.models.market import MarketCellView

CELL_W = 46
CELL_H = 40
TOKEN = 18


class MarketWidget(QWidget):
    """Paints a grid of :class:`MarketCellView`; a one-row market wraps into a column."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._cells: list[MarketCellView] = []
        self._rows = 1
        self._cols = 1
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)

    def set_cells(self, cells: list[MarketCellView]) -> None:
        """Show these cells."""
        self._cells = cells
        self._rows = max((c.row for c in cells), default=0) + 1
        self._cols = max((c.col for c in cells), default=0) + 1
        self.updateGeometry()
        self.update()

    def cells(self) -> list[MarketCellView]:
        """The cells shown."""
        return list(self._cells)

    def _wrap(self) -> int:
        """Columns per line for a one-row market (so it fits the dock)."""
        if self._rows > 1:
            return self._cols
        return max(4, self.width() // CELL_W)

    def _cell_rect(self, c: MarketCellView) -> QRectF:
        if self._rows > 1:
            return QRectF(c.col * CELL_W, c.row * CELL_H, CELL_W - 1, CELL_H - 1)
        per = self._wrap()
        return QRectF((c.col % per) * CELL_W, (c.col // per) * CELL_H, CELL_W - 1, CELL_H - 1)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        if self._rows > 1:
            return QSize(self._cols * CELL_W, self._rows * CELL_H)
        return QSize(12 * CELL_W, (self._cols // 12 + 1) * CELL_H)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(4 * CELL_W, 2 * CELL_H)

    def _natural(self) -> QSize:
        """Size of the drawing at scale 1."""
        if self._rows > 1:
            return QSize(self._cols * CELL_W, self._rows * CELL_H)
        per = self._wrap()
        return QSize(per * CELL_W, (self._cols + per - 1) // per * CELL_H)

    def scale_factor(self) -> float:
        """How much the drawing is shrunk to fit the widget (1 = natural size)."""
        natural = self._natural()
        if natural.width() <= 0 or natural.height() <= 0:
            return 1.0
        return min(1.0, self.width() / natural.width(), self.height() / natural.height())

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        k = self.scale_factor()
        painter.scale(k, k)
        font = QFont()
        font.setPixelSize(11)
        small = QFont()
        small.setPixelSize(9)
        small.setBold(True)
        for c in self._cells:
            rect = self._cell_rect(c)
            painter.setPen(QPen(QColor("#808080")))
            painter.setBrush(QColor(c.color))
            painter.drawRect(rect)
            painter.setFont(font)
            painter.setPen(QColor("#000000"))
            painter.drawText(rect.adjusted(2, 1, -2, 0),
                             int(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft),
                             str(c.price))
            n = len(c.tokens)
            cols = min(n, 3) if n <= 3 else 3
            rows = (n + cols - 1) // cols if n else 1
            size = min(TOKEN, (CELL_W - 4) / max(cols, 1) - 1, (CELL_H - 15) / rows - 1)
            for i, (corp, fill, text) in enumerate(c.tokens):
                x = rect.left() + 2 + (i % cols) * (size + 1)
                y = rect.top() + 14 + (i // cols) * (size + 1)
                r = QRectF(x, y, size, size)
                painter.setBrush(QColor(fill))
                painter.setPen(QPen(QColor("#000000"), 1))
                painter.drawEllipse(r)
                small.setPixelSize(max(6, int(size * 0.5)))
                painter.setFont(small)
                painter.setPen(QColor(text))
                painter.drawText(r, int(Qt.AlignmentFlag.AlignCenter), corp[:3])
        painter.end()
