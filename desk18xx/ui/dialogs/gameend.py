"""The end of a game: final ranking and a chart of each player's value by round."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

PLAYER_COLORS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf")


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's final result."""

    name: str
    cash: int
    shares: int
    """Value of certificates and privates."""
    value: int


class ValueChart(QWidget):
    """Lines of each player's value over the rounds (QPainter only)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._series: dict[str, list[int]] = {}
        self._labels: list[str] = []
        self.setMinimumSize(420, 240)

    def set_series(self, labels: Sequence[str], series: dict[str, list[int]]) -> None:
        """``series``: player name -> value after each round in ``labels``."""
        self._labels = list(labels)
        self._series = {k: list(v) for k, v in series.items()}
        self.update()

    def series(self) -> dict[str, list[int]]:
        """The values drawn."""
        return dict(self._series)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(560, 300)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), QColor("#ffffff"))
        left, top, right, bottom = 50.0, 12.0, 110.0, 30.0
        area = QRectF(left, top, max(10.0, self.width() - left - right),
                      max(10.0, self.height() - top - bottom))
        values = [v for s in self._series.values() for v in s]
        hi = max(values, default=1) or 1
        n = max((len(s) for s in self._series.values()), default=0)
        painter.setPen(QPen(QColor("#999999")))
        painter.drawRect(area)
        for i in range(5):
            y = area.bottom() - area.height() * i / 4
            painter.drawText(QRectF(0, y - 8, left - 4, 16),
                             int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                             f"${round(hi * i / 4)}")
        if n >= 2:
            for j, label in enumerate(self._labels[:n]):
                if j % max(1, n // 8):
                    continue
                x = area.left() + area.width() * j / (n - 1)
                painter.drawText(QRectF(x - 25, area.bottom() + 2, 50, 16),
                                 int(Qt.AlignmentFlag.AlignCenter), label)
        for k, (name, series) in enumerate(self._series.items()):
            color = QColor(PLAYER_COLORS[k % len(PLAYER_COLORS)])
            painter.setPen(QPen(color, 2.5))
            pts = [QPointF(area.left() + (area.width() * j / (n - 1) if n > 1 else 0),
                           area.bottom() - area.height() * v / hi)
                   for j, v in enumerate(series)]
            for a, b in zip(pts, pts[1:], strict=False):
                painter.drawLine(a, b)
            painter.drawText(QRectF(area.right() + 6, top + 18 * k, right - 8, 16),
                             int(Qt.AlignmentFlag.AlignLeft), name)
        painter.end()


class GameEndDialog(QDialog):
    """Ranking and value chart."""

    def __init__(self, reason: str, standings: Sequence[Standing], labels: Sequence[str],
                 series: dict[str, list[int]], parent: QWidget | None = None,
                 finished: bool = True) -> None:
        super().__init__(parent)
        self.setWindowTitle("Game over" if finished else "Standings")
        layout = QVBoxLayout(self)
        ranked = sorted(standings, key=lambda s: -s.value)
        winner = ranked[0].name if ranked else ""
        why = reason.replace("_", " ")
        self.head = QLabel(f"<h2>{winner} wins</h2><p>The game ended: {why}</p>" if finished
                           else f"<h2>{winner} leads</h2><p>The game goes on.</p>")
        head = self.head
        layout.addWidget(head)
        self.table = QTableWidget(len(ranked), 5)
        self.table.setHorizontalHeaderLabels(["#", "Player", "Cash", "Holdings", "Value"])
        self.table.verticalHeader().setVisible(False)
        for i, s in enumerate(ranked):
            for j, text in enumerate((str(i + 1), s.name, f"${s.cash}", f"${s.shares}",
                                      f"${s.value}")):
                self.table.setItem(i, j, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        layout.addWidget(self.table)
        self.chart = ValueChart()
        self.chart.set_series(labels, series)
        layout.addWidget(self.chart, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)
        layout.addWidget(buttons)
