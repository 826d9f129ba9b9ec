"""Table models over plain rows, and the rows read from a game.

The row functions are the docks' only view of engine state; the models take
new rows when the session's state changes (STYLE.md §6) and announce only
what changed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from desk18xx.engine.game import Game

_Index = QModelIndex | QPersistentModelIndex
_DISPLAY = int(Qt.ItemDataRole.DisplayRole.value)
_BACKGROUND = int(Qt.ItemDataRole.BackgroundRole.value)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole.value)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole.value)
_ALIGN = int(Qt.ItemDataRole.TextAlignmentRole.value)
_ROLES = frozenset({_DISPLAY, _BACKGROUND, _FOREGROUND, _TOOLTIP, _ALIGN})


@dataclass(frozen=True, slots=True)
class Row:
    """One table row: cell texts, an optional background and tooltip."""

    cells: tuple[str, ...]
    background: str | None = None
    foreground: str | None = None
    tooltip: str = ""


class RowsModel(QAbstractTableModel):
    """A read-only table of :class:`Row` values with fixed headers."""

    def __init__(self, headers: Sequence[str], parent: QObject | None = None,
                 header_tips: Mapping[str, str] | None = None) -> None:
        super().__init__(parent)
        self._headers = list(headers)
        self._header_tips = dict(header_tips or {})
        """Header -> its meaning in full (short headers keep a table narrow)."""
        self._rows: list[Row] = []

    def set_rows(self, rows: Sequence[Row]) -> bool:
        """Replace every row; nothing happens when they are equal.

        With as many rows as before only the changed cells are announced
        (``dataChanged`` over the block of changed rows and columns), so a
        view repaints those and keeps its column widths; a different row
        count resets the model.

        Returns:
            True when the rows changed.
        """
        new = list(rows)
        old = self._rows
        if new == old:
            return False
        if len(new) != len(old):
            self.beginResetModel()
            self._rows = new
            self.endResetModel()
            return True
        changed = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
        last = len(self._headers) - 1
        if any(_look(old[i]) != _look(new[i]) for i in changed):
            columns = [0, last]  # a colour or tooltip: the whole row
        else:
            columns = [c for c in range(last + 1)
                       if any(_cell(old[i], c) != _cell(new[i], c) for i in changed)]
            columns = columns or [0, last]
        self._rows = new
        self.dataChanged.emit(self.index(changed[0], columns[0]),
                              self.index(changed[-1], columns[-1]))
        return True

    def rows(self) -> list[Row]:
        """The rows shown."""
        return list(self._rows)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self._headers)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        r = int(role)
        if r not in _ROLES:
            return None
        row_i = index.row()
        if row_i < 0 or row_i >= len(self._rows):
            return None
        row = self._rows[row_i]
        col = index.column()
        if r == _DISPLAY:
            return row.cells[col] if col < len(row.cells) else ""
        if r == _BACKGROUND:
            return QColor(row.background) if row.background and col == 0 else None
        if r == _FOREGROUND:
            return QColor(row.foreground) if row.foreground and col == 0 else None
        if r == _TOOLTIP:
            return row.tooltip or None
        if r == _ALIGN and col > 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self._headers):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._headers[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._header_tips.get(self._headers[section])
        return None


def _cell(row: Row, column: int) -> str:
    return row.cells[column] if column < len(row.cells) else ""


def _look(row: Row) -> tuple[str | None, str | None, str]:
    return row.background, row.foreground, row.tooltip


# -- rows read from a game -------------------------------------------------------------
PLAYER_HEADERS = ("Player", "Cash", "Certs", "Value", "Debt", "Privates", "Shares")
CORP_HEADERS = ("Co.", "Owner", "Price", "Cash", "Trains", "Tok.", "Treas.",
                "Pool", "Loans", "Priv.", "Dest.")
"""Short, so that the table fits its dock at 1280x800 (:data:`HEADER_TIPS` in full)."""
HEADER_TIPS = {
    "Co.": "Company (▶ the one operating)", "Tok.": "Tokens left / in all",
    "Treas.": "Shares in the company's treasury", "Pool": "Shares in the bank pool",
    "Priv.": "Privates the company owns", "Dest.": "Destination hex (1822CA majors)",
    "Certs": "Certificates held / the limit", "Value": "Cash and shares at market price",
}
BANK_HEADERS = ("Item", "Value")


def money(value: int) -> str:
    """``$120``, or ``-$40`` below zero (a player in debt; not ``$-40``)."""
    return f"-${-value}" if value < 0 else f"${value}"


def player_rows(game: Game, acting: str | None = None) -> list[Row]:
    """Cash, certificates against the limit, privates, holdings and value per player."""
    out = []
    for p in game.view().players():
        holdings = [f"{h.corporation}{'*' if h.president else ''} {h.percent}%"
                    for h in p.holdings]
        certs = f"{p.certificates}/{p.cert_limit}" if p.cert_limit else str(p.certificates)
        out.append(Row((p.name, money(p.cash), certs, money(p.value),
                        f"${p.debt}" if p.debt else "", ", ".join(p.privates),
                        ", ".join(holdings)),
                       background="#ffe680" if p.id == acting else None,
                       tooltip=", ".join(holdings)))
    return out


def corp_rows(game: Game, colors: dict[str, tuple[str, str]],
              acting: str | None = None,
              destinations: dict[str, str] | None = None) -> list[Row]:
    """Started companies: owner, price, cash, trains, tokens, shares, loans, privates."""
    out = []
    for corp in game.view().corporations():
        if not corp.started:
            continue
        cid = corp.id
        price = f"${corp.price}" if corp.price is not None else ""
        fill, text = colors.get(cid, ("#ffffff", "#000000"))
        name = cid if cid != acting else f"▶ {cid}"
        out.append(Row((name, game.name_of(corp.owner) if corp.owner else "", price,
                        f"${corp.cash}", " ".join(corp.trains) or "-",
                        f"{corp.tokens_left}/{corp.tokens_total}",
                        f"{corp.treasury_percent}%", f"{corp.pool_percent}%",
                        str(corp.loans) if corp.loans else "", ", ".join(corp.privates),
                        (destinations or {}).get(cid, "")),
                       background=fill, foreground=text,
                       tooltip=f"{corp.name} ({corp.kind.value})"))
    return out


def bank_rows(game: Game) -> list[Row]:
    """Bank cash, phase, train limits, the trains on sale and the trains still to come."""
    bank = game.view().bank()
    out = [Row(("Bank", f"${bank.cash}"))]
    if bank.phase is not None:
        limits = ", ".join(f"{k} {v}" for k, v in bank.train_limits)
        out.append(Row(("Phase", bank.phase)))
        out.append(Row(("Train limit", limits)))
        out.append(Row(("Tiles", ", ".join(bank.tiles))))
    if bank.loans_left is not None:
        out.append(Row(("Loans left", str(bank.loans_left))))
    for t in bank.depot:
        rust = f", rusts on {t.rusts_on}" if t.rusts_on else ""
        left = "unlimited" if t.count is None else str(t.count)
        out.append(Row((f"Train {t.name}", f"{left} × ${t.price}{rust}")))
    if bank.pool_trains:
        out.append(Row(("Bank pool trains", " ".join(bank.pool_trains))))
    if bank.rusted:
        out.append(Row(("Rusted trains", str(bank.rusted))))
    return out


def company_rows(game: Game) -> list[Row]:
    """Privates: name, value, revenue, owner."""
    out = []
    for c in game.view().privates():
        owner = game.name_of(c.owner) if c.owner else ("closed" if c.closed else "bank")
        out.append(Row((f"{c.id}: {c.name}", f"${c.value}", f"${c.revenue}", owner)))
    return out
