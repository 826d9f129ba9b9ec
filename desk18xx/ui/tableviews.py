"""Small helpers shared by the docks' table views."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel
from PySide6.QtWidgets import QTableView


def fit_rows(view: QTableView, model: QAbstractItemModel) -> None:
    """Keep ``view`` at least as tall as its header, every row of ``model`` and a
    horizontal scroll bar, whenever the row count changes, so that no row (no
    player of a seven-player game) is ever scrolled out of sight."""

    def fit() -> None:
        rows = max(1, model.rowCount())
        view.setMinimumHeight(view.horizontalHeader().sizeHint().height()
                              + rows * view.verticalHeader().defaultSectionSize()
                              + 2 * view.frameWidth()
                              + view.horizontalScrollBar().sizeHint().height())

    model.modelReset.connect(fit)
    model.rowsInserted.connect(fit)
    model.rowsRemoved.connect(fit)
    fit()
