"""Small helpers shared by the docks' table views."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QEvent, QModelIndex, QObject, Qt, QTimer
from PySide6.QtWidgets import QTableView

#: The narrowest a column is squeezed to when the columns do not fit (pixels).
MIN_COLUMN = 28


def fit_rows(view: QTableView, model: QAbstractItemModel) -> None:
    """Keep ``view`` at least as tall as its header, every row of ``model`` (and a
    horizontal scroll bar when it may show one), whenever the row count changes, so
    that no row (no player of a seven-player game) is ever scrolled out of sight."""

    def fit() -> None:
        rows = max(1, model.rowCount())
        bar = (0 if view.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff
               else view.horizontalScrollBar().sizeHint().height())
        view.setMinimumHeight(view.horizontalHeader().sizeHint().height()
                              + rows * view.verticalHeader().defaultSectionSize()
                              + 2 * view.frameWidth() + bar)

    model.modelReset.connect(fit)
    model.rowsInserted.connect(fit)
    model.rowsRemoved.connect(fit)
    fit()


def squeeze(natural: list[int], room: int, least: int = MIN_COLUMN) -> list[int]:
    """Column widths that fit ``room``: each column its ``natural`` width when they all
    fit, else the widest columns cut down to one common width (none below ``least``)
    so that the narrow ones (amounts) stay whole and the long texts give way."""
    if sum(natural) <= room or not natural:
        return list(natural)
    lo, hi = least, max(natural)
    while lo < hi:  # the largest cap whose widths still fit
        cap = (lo + hi + 1) // 2
        if sum(min(w, cap) for w in natural) <= room:
            lo = cap
        else:
            hi = cap - 1
    return [max(min(w, lo), min(w, least)) for w in natural]


class ColumnFitter(QObject):
    """Keeps a table's columns inside its width: as wide as their contents while they
    fit, the widest cut (text shown with "…") when they do not; never a horizontal
    scroll bar. Refits after the rows change and when the view is resized, once per
    turn of the event loop."""

    def __init__(self, view: QTableView, hide_empty: bool = False) -> None:
        super().__init__(view)
        self._view = view
        self._hide_empty = hide_empty
        """Hide a column with no text in any row (1867's destinations, an unused debt)."""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.fit)
        view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        view.setTextElideMode(Qt.TextElideMode.ElideRight)
        view.horizontalHeader().setStretchLastSection(False)
        view.viewport().installEventFilter(self)
        self._widths: dict[int, tuple[int, bool]] = {}
        """Column -> (natural width, empty in every row), while its cells are unchanged
        (a move changes a few cells: only their columns are measured again)."""
        model = view.model()
        for signal in (model.modelReset, model.rowsInserted, model.rowsRemoved,
                       model.layoutChanged, model.headerDataChanged):
            signal.connect(self.schedule)
        model.dataChanged.connect(self._cells_changed)
        view.verticalScrollBar().valueChanged.connect(self.schedule)
        self.fit()

    def schedule(self, *_args: object) -> None:
        """Measure every column again and refit at the next turn of the event loop
        (many changes, one fit)."""
        self._widths.clear()
        self._timer.start()

    def _cells_changed(self, first: QModelIndex, last: QModelIndex, *_roles: object) -> None:
        for column in range(first.column(), last.column() + 1):
            self._widths.pop(column, None)
        self._timer.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.Resize:
            self.schedule()  # the rows in sight may change, and with them the widths
        return False

    def _measured(self, column: int) -> tuple[int, bool]:
        known = self._widths.get(column)
        if known is None:
            view, model = self._view, self._view.model()
            width = max(view.horizontalHeader().sectionSizeFromContents(column).width(),
                        view.sizeHintForColumn(column))
            empty = self._hide_empty and not any(
                str(model.index(row, column).data() or "") for row in range(model.rowCount()))
            known = self._widths[column] = (width, empty)
        return known

    def natural(self) -> list[int]:
        """Each column's width with its header and every cell whole."""
        return [self._measured(c)[0] for c in range(self._view.model().columnCount())]

    def fit(self) -> None:
        """Set the column widths now."""
        view = self._view
        room = view.viewport().width()
        if room <= 0:
            return
        model = view.model()
        if self._hide_empty and model.rowCount() > 0:
            for column in range(model.columnCount()):
                empty = self._measured(column)[1]
                if view.isColumnHidden(column) != empty:
                    view.setColumnHidden(column, empty)
        shown = [c for c in range(model.columnCount()) if not view.isColumnHidden(c)]
        natural = self.natural()
        widths = squeeze([natural[c] for c in shown], room)
        if widths and sum(widths) < room:  # the last column takes what is left
            widths[-1] += room - sum(widths)
        for column, width in zip(shown, widths, strict=True):
            if view.columnWidth(column) != width:
                view.setColumnWidth(column, width)


def fit_columns(view: QTableView, hide_empty: bool = False) -> ColumnFitter:
    """Keep ``view``'s columns inside its width (:class:`ColumnFitter`); with
    ``hide_empty`` a column empty in every row is hidden."""
    return ColumnFitter(view, hide_empty)
