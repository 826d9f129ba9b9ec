"""Compare two positions of a study side by side, differences highlighted.

Each player's cash, certificates and value and each company's cash, trains
and price (`desk18xx.engine.compare.compare_games`). "A = current" and
"B = current" pick the current position; any two nodes are picked in the tree
dock ("Compare: set as A/B" in its menu, or Ctrl-click to compare a node with
the current position), through `StudySession.set_compare`; `set_nodes` shows
two nodes from code.
"""

from __future__ import annotations

from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desk18xx.engine.compare import CompareRow, compare_games
from desk18xx.engine.variations import Node
from desk18xx.ui.docks.study_tree import describe
from desk18xx.ui.studysession import StudySession

DIFF_COLOR = QColor(255, 236, 160)


class CompareDock(QDockWidget):
    """Two nodes side by side."""

    def __init__(self, study: StudySession, parent: QWidget | None = None) -> None:
        super().__init__("Compare", parent)
        self.setObjectName("study_compare_dock")
        self.study = study
        self.names = {pid: name for pid, name in study.study.setup.players}
        self.a: Node | None = None
        self.b: Node | None = None
        self.rows: list[CompareRow] = []
        body = QWidget(self)
        layout = QVBoxLayout(body)
        buttons = QHBoxLayout()
        self.pick_a = QPushButton("A = current", body)
        self.pick_b = QPushButton("B = current", body)
        self.only_diff = QPushButton("Differences only", body)
        self.only_diff.setCheckable(True)
        for button in (self.pick_a, self.pick_b, self.only_diff):
            buttons.addWidget(button)
        layout.addLayout(buttons)
        self.heading = QLabel("Pick two positions", body)
        layout.addWidget(self.heading)
        self.table = QTableWidget(0, 3, body)
        self.table.setHorizontalHeaderLabels(["", "A", "B"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table (keyboard play)
        layout.addWidget(self.table)
        self.setWidget(body)
        self.pick_a.clicked.connect(lambda: study.set_compare(0, study.tree.current))
        self.pick_b.clicked.connect(lambda: study.set_compare(1, study.tree.current))
        self.only_diff.toggled.connect(lambda _on: self._fill())
        study.tree_changed.connect(self._tree_changed)
        study.compare_changed.connect(self._picked)

    def set_nodes(self, a: Node | None, b: Node | None) -> None:
        """Compare node `a` with node `b` (either may be None: not picked yet)."""
        self.a, self.b = a, b
        labels = [("A", a), ("B", b)]
        self.heading.setText("   ".join(
            f"{tag}: {describe(n, self.names) if n is not None else '—'}" for tag, n in labels))
        if a is None or b is None:
            self.rows = []
        else:
            self.rows = compare_games(self.study.study.game_at(a), self.study.study.game_at(b))
            count = len(self.differing())
            self.heading.setText(self.heading.text() + f"   ({count} difference"
                                 + ("" if count == 1 else "s") + ")")
        self._fill()

    def _picked(self) -> None:
        """A or B was picked (here, in the tree dock or the menu): show them."""
        a, b = self.study.compare_nodes
        self.set_nodes(a, b)
        if a is not None and b is not None and not self.isWindow():
            self.show()
            self.raise_()  # bring its tab forward in the main window

    def differing(self) -> list[CompareRow]:
        """The rows that differ."""
        return [r for r in self.rows if r.differs]

    def _fill(self) -> None:
        rows = self.differing() if self.only_diff.isChecked() else self.rows
        self.table.setRowCount(len(rows))
        for index, row in enumerate(rows):
            cells = [QTableWidgetItem(row.label), QTableWidgetItem(row.a), QTableWidgetItem(row.b)]
            for column, cell in enumerate(cells):
                if row.differs:
                    cell.setBackground(QBrush(DIFF_COLOR))
                self.table.setItem(index, column, cell)
        self.table.resizeColumnsToContents()

    def _tree_changed(self) -> None:
        self.names = {pid: name for pid, name in self.study.study.setup.players}
        tree = self.study.tree
        a = self.a if self.a is not None and self.a in tree else None
        b = self.b if self.b is not None and self.b in tree else None
        if (a, b) != (self.a, self.b):
            self.set_nodes(a, b)
