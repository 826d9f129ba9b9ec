"""The companies spreadsheet: one row per company with its price, cash, trains, tokens,
loans, last dividend and a sparkline of its share price round by round (issue 18; the
18xx.games "spreadsheet").

Bound to the session (STYLE.md §6): the rows read the engine's read-only views of the
position shown (:mod:`desk18xx.engine.game`); the price history and the dividends read
earlier positions of the line (:meth:`GameSession.game_at`). Those cost tens of
milliseconds each in a late game, so they are taken one per turn of the event loop while
the sheet is in sight, and kept per position of the history tree (a position never
changes), so each action adds at most one or two.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPointF,
    QRect,
    Qt,
    QTimer,
)
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desk18xx.engine.actions import Dividend, RunRoutes
from desk18xx.engine.game import Game
from desk18xx.ui.insight import in_sight
from desk18xx.ui.session import GameSession
from desk18xx.ui.tableviews import fit_columns

HEADERS = ("Co.", "Price", "Cash", "Trains", "Tok.", "Loans", "Last div.", "Price history")
TIPS = {
    "Co.": "Company (▶ the one acting)", "Tok.": "Tokens left / in all",
    "Last div.": "The company's last run: paid out, half or withheld, and what the bank "
                 "paid for it (to the holders and the treasury)",
    "Price history": "Share price at the start of each round of this line, and now",
}
HISTORY = len(HEADERS) - 1
SPARK_WIDTH = 90
HISTORY_ROLE = Qt.ItemDataRole.UserRole + 7
_KIND = {"payout": "paid", "withhold": "withheld", "half": "half"}
#: Milliseconds after a change before the first read of an earlier position ...
READ_EVERY_MS = 120
#: ... and between the next ones.
READ_NEXT_MS = 30


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One company of the sheet."""

    corp: str
    cells: tuple[str, ...]
    fill: str
    text: str
    tooltip: str
    history: tuple[int, ...]
    """Share price at the start of each round, then now (0: not on the market)."""


@dataclass(frozen=True, slots=True)
class Sample:
    """What the sheet reads of one earlier position."""

    prices: dict[str, int]
    bank: int


def sample(game: Game) -> Sample:
    """Each company's share price and the bank's cash in ``game``."""
    view = game.view()
    return Sample(view.share_prices(), view.bank_cash())


def shown(game: Game, cid: str) -> bool:
    """True for a company on the sheet: started (a national always), not closed."""
    corp = game.view().corporation(cid)
    return corp is not None and corp.started


def sheet_rows(game: Game, colors: dict[str, tuple[str, str]], acting: str | None,
               history: dict[str, tuple[int, ...]],
               dividends: dict[str, str]) -> list[SheetRow]:
    """The sheet's rows for ``game`` (history and dividends as gathered so far)."""
    out = []
    for corp in game.view().corporations():
        if not corp.started:
            continue
        cid = corp.id
        price = corp.price or 0
        trains = " ".join(corp.trains) or "–"
        fill, text = colors.get(cid, ("#ffffff", "#000000"))
        past = history.get(cid, ())
        trend = ""
        if len([p for p in past if p]) >= 2:
            first = next(p for p in past if p)
            trend = f"; from ${first} to ${past[-1]}" if past[-1] else ""
        out.append(SheetRow(
            cid,
            (cid if cid != acting else f"▶ {cid}", f"${price}" if price else "",
             f"${corp.cash}", trains, f"{corp.tokens_left}/{corp.tokens_total}",
             str(corp.loans) if corp.loans else "", dividends.get(cid, ""), ""),
            fill, text, f"{corp.name}{trend}", past))
    return out


class SheetModel(QAbstractTableModel):
    """The sheet's rows; the history column holds the price series (``HISTORY_ROLE``)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[SheetRow] = []

    def set_rows(self, rows: Sequence[SheetRow]) -> bool:
        """Show ``rows``; True when they changed."""
        new = list(rows)
        if new == self._rows:
            return False
        if [r.corp for r in new] != [r.corp for r in self._rows]:
            self.beginResetModel()
            self._rows = new
            self.endResetModel()
            return True
        self._rows = new
        self.dataChanged.emit(self.index(0, 0), self.index(len(new) - 1, len(HEADERS) - 1))
        return True

    def rows(self) -> list[SheetRow]:
        """The rows shown."""
        return list(self._rows)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()  # noqa: N802, B008
                 ) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()  # noqa: N802, B008
                    ) -> int:
        return 0 if parent.isValid() else len(HEADERS)

    def data(self, index: QModelIndex | QPersistentModelIndex,
             role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row, col = self._rows[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return row.cells[col]
        if role == HISTORY_ROLE and col == HISTORY:
            return row.history
        if role == Qt.ItemDataRole.BackgroundRole and col == 0:
            return QColor(row.fill)
        if role == Qt.ItemDataRole.ForegroundRole and col == 0:
            return QColor(row.text)
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == HISTORY and row.history:
                return "Share price by round: " + " → ".join(
                    f"${p}" if p else "–" for p in row.history)
            return row.tooltip
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (1, 2, 4, 5):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(HEADERS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return TIPS.get(HEADERS[section])
        return None


def spark_points(history: Sequence[int], rect: QRect) -> list[QPointF]:
    """The sparkline of ``history`` inside ``rect`` (prices of 0 are left out)."""
    values = [(i, p) for i, p in enumerate(history) if p]
    if not values:
        return []
    lo, hi = min(p for _, p in values), max(p for _, p in values)
    span = max(1, len(history) - 1)
    height = max(1, rect.height() - 6)
    out = []
    for i, p in values:
        x = rect.left() + 3 + (rect.width() - 6) * i / span
        y = rect.bottom() - 3 - (height * (p - lo) / (hi - lo) if hi > lo else height / 2)
        out.append(QPointF(x, y))
    return out


class SparkDelegate(QStyledItemDelegate):
    """Draws the price history column as a line (the last price as a dot)."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        super().paint(painter, option, index)
        history = index.data(HISTORY_ROLE)
        if not isinstance(history, tuple):
            return
        points = spark_points(history, option.rect)
        if not points:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor("#1f5fbf"), 1.5))
        painter.drawPolyline(QPolygonF(points))
        painter.setBrush(QColor("#1f5fbf"))
        painter.drawEllipse(points[-1], 2.0, 2.0)
        painter.restore()


class CompanySheet(QWidget):
    """The spreadsheet of the session's companies, refreshed on every state change.

    Args:
        session: the game session (read only).
    """

    def __init__(self, session: GameSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._colors: dict[str, tuple[str, str]] = {}
        self._samples: dict[int, Sample] = {}
        """Node id of a position -> what the sheet read of it (positions never change)."""
        self._wanted: list[int] = []
        """Live action counts whose positions are still to be read."""
        self._stale = True
        self.model = SheetModel(self)
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.verticalHeader().setVisible(False)
        self.view.verticalHeader().setDefaultSectionSize(22)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.view.setTabKeyNavigation(False)
        self.view.setWordWrap(False)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.view.setItemDelegateForColumn(HISTORY, SparkDelegate(self.view))
        self.view.horizontalHeader().setMinimumSectionSize(24)
        fit_columns(self.view, hide_empty=False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        self._timer = QTimer(self)
        # a pause between reads: the window shows a move and settles before the first one
        # (each replays a few actions), and a click comes between two
        self._timer.setInterval(READ_EVERY_MS)
        self._timer.timeout.connect(self._read_one)
        session.state_changed.connect(self._state_changed)
        session.game_replaced.connect(self._game_replaced)

    def set_colors(self, colors: dict[str, tuple[str, str]]) -> None:
        """Company id -> (fill, text) as on the map."""
        self._colors = dict(colors)
        self._state_changed(0)

    @property
    def filling(self) -> bool:
        """True while earlier positions are still being read."""
        return self._timer.isActive()

    def _game_replaced(self) -> None:
        self._samples.clear()
        self._state_changed(0)

    def _state_changed(self, _count: int) -> None:
        if in_sight(self):
            self.refresh()
        else:
            self._stale = True
            self._timer.stop()

    def set_in_sight(self, visible: bool) -> None:
        """Its dock's tab came to the front (fill it if it missed moves) or went behind
        another (nothing is read meanwhile): a dock's ``visibilityChanged``."""
        if not visible:
            self._timer.stop()
            self._stale = True
        elif self._stale:
            self.refresh()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if self._stale:
            self.refresh()

    def hideEvent(self, event: object) -> None:  # noqa: N802 - Qt override
        self._timer.stop()  # nothing read for a sheet out of sight
        self._stale = True
        super().hideEvent(event)  # type: ignore[arg-type]

    # -- what to read ----------------------------------------------------------------------
    def _points(self) -> tuple[list[int], dict[str, tuple[int, int, str]]]:
        """The live counts at the start of each round (and 0), and per company the
        counts before and after its last dividend with the decision."""
        rounds = self._session.rounds()
        starts = [0] + [i for i in range(1, len(rounds)) if rounds[i] != rounds[i - 1]]
        last: dict[str, tuple[int, int, str]] = {}
        actions = self._session.actions()
        for i, action in enumerate(actions):
            if isinstance(action, RunRoutes):  # paid at once (a minor's fixed split) ...
                last[action.entity] = (i, i + 1, "paid")
            elif isinstance(action, Dividend):  # ... or as the company decides
                start = last.get(action.entity)
                begin = start[0] if start is not None and start[1] == i else i
                last[action.entity] = (begin, i + 1, action.kind)
        return starts, last

    def _sample_at(self, count: int) -> Sample | None:
        node = self._session.node_at(count) if count else self._session.tree.root
        return None if node is None else self._samples.get(node.id)

    def _read_one(self) -> None:
        """Read the next missing earlier position (one per turn of the event loop)."""
        while self._wanted:
            count = self._wanted.pop(0)
            node = self._session.node_at(count) if count else self._session.tree.root
            if node is None or node.id in self._samples:
                continue
            self._samples[node.id] = sample(self._session.game_at(count))
            if not self._wanted:
                break
            self._timer.setInterval(READ_NEXT_MS)
            return
        self._timer.stop()
        self._show()

    # -- filling ---------------------------------------------------------------------------
    def refresh(self) -> None:
        """Show the rows of the live position now; read missing earlier ones while idle."""
        self._stale = False
        if not self._session.has_game:
            self.model.set_rows([])
            return
        starts, last = self._points()
        wanted = starts + sorted({c for before, after, _ in last.values()
                                  for c in (before, after)})
        self._wanted = [c for c in reversed(wanted)  # the latest first: they change most
                        if c < len(self._session.actions()) and self._sample_at(c) is None]
        self._show()
        if self._wanted:
            self._timer.start(READ_EVERY_MS)

    def _show(self) -> None:
        game = self._session.game
        starts, last = self._points()
        series: dict[str, list[int]] = {}
        ids = [c.id for c in game.view().corporations()]
        for count in starts:
            got = self._sample_at(count)
            if got is None:
                continue
            for cid in ids:
                series.setdefault(cid, []).append(got.prices.get(cid, 0))
        now = sample(game)
        history = {cid: (*values, now.prices.get(cid, 0)) for cid, values in series.items()}
        dividends = {}
        for cid, (before, after, kind) in last.items():
            a, b = self._sample_at(before), self._sample_at(after)
            if after >= len(self._session.actions()):
                b = now
            paid = f" ${a.bank - b.bank}" if a is not None and b is not None else ""
            dividends[cid] = _KIND.get(kind, kind) + paid
        acting = game.legal_actions().entity
        self.model.set_rows(sheet_rows(game, self._colors, acting, history, dividends))
