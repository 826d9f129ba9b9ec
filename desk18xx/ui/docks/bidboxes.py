"""The 1822CA bid boxes: companies on offer, the open bids, and each bidder's position.

Bound to the session (STYLE.md §6): the widget reads
:meth:`desk18xx.engine.game.Game.bid_boxes` after every ``state_changed``
and shows it; it never changes the game.  While it is out of sight it only
notes that it missed an update and catches up when shown.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desk18xx.engine.bidding import BidBoxView, BoxedCompany
from desk18xx.engine.game import Game
from desk18xx.ui.insight import in_sight
from desk18xx.ui.models.choices import short_company_name
from desk18xx.ui.models.tables import Row, RowsModel
from desk18xx.ui.session import GameSession
from desk18xx.ui.tableviews import fit_columns, fit_rows

BOX_HEADERS = ("Box", "Next bid", "Bids", "Company")
BIDDER_HEADERS = ("Player", "Free", "Committed", "Tokens", "Bids on")
_KIND_LABEL = {"minor": "Minor", "concession": "Concession", "private": "Private"}
_KIND_COLOUR = {"minor": "#dbe9ff", "concession": "#ffe3c4", "private": "#e4f4d8"}
ROW = 20
"""Height of a table row (a little less than the other docks': ten boxes and seven
bidders in sight at 1280x800)."""
ACTING = "#ffe680"
"""Background of the acting player (as in the players dock)."""


def _short_name(box: BoxedCompany) -> str:
    name = short_company_name(box.company, box.name)
    return f"{name} concession" if box.kind == "concession" else name


def box_rows(view: BidBoxView, names: dict[str, str]) -> list[Row]:
    """One row per boxed company: kind, name, the next bid, and every bid (high first).

    Args:
        view: the engine's bid boxes.
        names: player id -> display name.
    """
    rows = []
    for box in view.boxes:
        bids = ", ".join(f"{names.get(b.player, b.player)} ${b.price}"
                         + (" ★" if b.winning else "") for b in box.bids)
        tip = f"{box.company}: {box.name}"
        if box.value:
            tip += f" (face value ${box.value})"
        if view.acting is not None:
            who = names.get(view.acting, view.acting)
            tip += (f"\n{who} cannot bid here: {box.problem}" if box.problem
                    else f"\n{who} may bid ${box.min_bid} or more")
        rows.append(Row((f"{_KIND_LABEL.get(box.kind, box.kind)} {box.company}",
                         f"${box.min_bid}", bids or "–", _short_name(box)),
                        background=_KIND_COLOUR.get(box.kind),
                        foreground="#888888" if box.problem else None, tooltip=tip))
    return rows


def bidder_rows(view: BidBoxView, names: dict[str, str]) -> list[Row]:
    """One row per player: free cash, cash tied up in winning bids, tokens left, and
    the player's bids (★: winning)."""
    mine: dict[str, list[str]] = {}
    for box in view.boxes:
        for bid in box.bids:
            mine.setdefault(bid.player, []).append(
                f"{box.company} ${bid.price}" + (" ★" if bid.winning else ""))
    return [Row((names.get(b.player, b.player), f"${b.available}", f"${b.committed}",
                 f"{b.tokens_left}/{b.tokens}", ", ".join(mine.get(b.player, [])) or "–"),
                background=ACTING if b.player == view.acting else None,
                tooltip=f"cash ${b.cash}: ${b.committed} committed to winning bids, "
                        f"${b.available} free; {b.tokens_left} of {b.tokens} bidding "
                        "tokens left")
            for b in view.bidders]


def summary(view: BidBoxView | None, names: dict[str, str]) -> str:
    """The line over the tables: who bids now and with how much."""
    if view is None:
        return "No bid boxes in this game (1822CA and its scenarios have them)."
    if view.acting is None:
        bids = sum(len(b.bids) for b in view.boxes)
        return (f"{bids} open bid{'s' if bids != 1 else ''}; resolved at the end of the "
                "stock round." if bids else "Bids open in the stock round.")
    me = view.bidder(view.acting)
    who = names.get(view.acting, view.acting)
    if me is None:
        return f"<b>{who}</b> may bid"
    return (f"<b>{who}</b> may bid: ${me.available} free, "
            f"{me.tokens_left} of {me.tokens} tokens left")


class _TextModel(RowsModel):
    """Rows whose text columns (``left``) read from the left, amounts from the right."""

    def __init__(self, headers: tuple[str, ...], left: frozenset[int],
                 parent: QWidget | None = None) -> None:
        super().__init__(headers, parent)
        self._left = left

    def data(self, index: QModelIndex | QPersistentModelIndex,
             role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in self._left:
            return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        return super().data(index, role)


def _table(model: RowsModel) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.verticalHeader().setVisible(False)
    view.verticalHeader().setDefaultSectionSize(ROW)
    view.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    view.setTabKeyNavigation(False)  # Tab moves on to the next widget, not the next cell
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    view.setWordWrap(False)
    fit_columns(view)  # inside the dock's width: names cut with "…", never sideways
    return view


class BidBoxesWidget(QWidget):
    """Boxes and bidders of the session's game, refreshed on every state change.

    Args:
        session: the game session (read only).
    """

    def __init__(self, session: GameSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._stale = True
        self._pinned: Game | None = None
        """An earlier position being looked at (None: the live game)."""
        self.header = QLabel("")
        self.header.setWordWrap(True)
        self.header.setTextFormat(Qt.TextFormat.RichText)
        font = QFont()
        font.setPixelSize(14)
        self.header.setFont(font)
        self.boxes_model = _TextModel(BOX_HEADERS, frozenset({2, 3}), self)
        self.bidders_model = _TextModel(BIDDER_HEADERS, frozenset({4}), self)
        self.boxes_view = _table(self.boxes_model)
        self.bidders_view = _table(self.bidders_model)
        fit_rows(self.boxes_view, self.boxes_model)  # every box in sight
        fit_rows(self.bidders_view, self.bidders_model)  # every player in sight
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.header)
        layout.addWidget(self.boxes_view, 3)
        layout.addWidget(self.bidders_view, 2)
        self._connect_signals()

    def _connect_signals(self) -> None:
        self._session.state_changed.connect(self._state_changed)
        self._session.game_replaced.connect(lambda: self._state_changed(0))

    def _state_changed(self, _count: int) -> None:
        self._pinned = None
        if in_sight(self):
            self.refresh()
        else:
            self._stale = True

    def show_game(self, game: Game | None) -> None:
        """Show ``game`` (an earlier position) instead of the live one; None: live again."""
        self._pinned = game
        if in_sight(self):
            self.refresh()
        else:
            self._stale = True

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if self._stale:
            self.refresh()

    def set_in_sight(self, visible: bool) -> None:
        """Its dock's tab came to the front: fill it if it missed moves (a dock's
        ``visibilityChanged``)."""
        if visible and self._stale:
            self.refresh()

    def refresh(self) -> None:
        """Read the boxes from the game shown and fill the tables."""
        self._stale = False
        if self._pinned is None and not self._session.has_game:
            return
        game = self._pinned or self._session.game
        view = game.bid_boxes()
        names = {p.id: p.name for p in game.players}
        self.header.setText("Game over: no more bids." if game.finished and view
                            else summary(view, names))
        self.boxes_model.set_rows(box_rows(view, names) if view else [])
        self.bidders_model.set_rows(bidder_rows(view, names) if view else [])
        self.boxes_view.setVisible(view is not None)
        self.bidders_view.setVisible(view is not None)
