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
from desk18xx.engine.state import BANK, DEPOT, POOL, CorpKind

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
    # FIXME: read declared Game attributes once the base class has them.
    limit = vars(game).get("cert_limit", 0)
    debts = vars(game).get("debt", {})
    out = []
    for p in game.players:
        privates = ", ".join(c.id for c in game.companies.values()
                             if c.owner == p.id and not c.closed)
        holdings = []
        for cid in game.corps:
            pct = game.percent_of(p.id, cid)
            if pct:
                pres = "*" if game.president(cid) == p.id else ""
                holdings.append(f"{cid}{pres} {pct}%")
        certs = f"{game.num_certs(p.id)}/{limit}" if limit else str(game.num_certs(p.id))
        debt = debts.get(p.id, 0) if isinstance(debts, dict) else 0
        out.append(Row((p.name, money(game.cash.get(p.id, 0)), certs,
                        money(game.player_value(p.id)), f"${debt}" if debt else "", privates,
                        ", ".join(holdings)),
                       background="#ffe680" if p.id == acting else None,
                       tooltip=", ".join(holdings)))
    return out


def corp_rows(game: Game, colors: dict[str, tuple[str, str]],
              acting: str | None = None,
              destinations: dict[str, str] | None = None) -> list[Row]:
    """Started companies: owner, price, cash, trains, tokens, shares, loans, privates."""
    out = []
    for cid, corp in game.corps.items():
        if corp.closed or not (corp.ipoed or corp.floated) and corp.kind is not \
                CorpKind.NATIONAL:
            continue
        owner = game.owner(cid)
        price = f"${game.market.price(cid)}" if cid in game.market.where else ""
        trains = " ".join(game.trains[t].name for t in corp.trains) or "-"
        left = sum(1 for t in corp.tokens if not t.used)
        treasury = game.percent_of(cid, cid)
        pool = game.percent_of(POOL, cid)
        privates = ", ".join(corp.companies)
        fill, text = colors.get(cid, ("#ffffff", "#000000"))
        name = cid if cid != acting else f"▶ {cid}"
        out.append(Row((name, game.name_of(owner) if owner else "", price,
                        f"${game.cash.get(cid, 0)}", trains, f"{left}/{len(corp.tokens)}",
                        f"{treasury}%", f"{pool}%", str(corp.loans) if corp.loans else "", privates,
                        (destinations or {}).get(cid, "")),
                       background=fill, foreground=text,
                       tooltip=f"{corp.name} ({corp.kind.value})"))
    return out


def bank_rows(game: Game) -> list[Row]:
    """Bank cash, phase, train limits, the trains on sale and the trains still to come."""
    phase = game.phase if game.phases else None
    out = [Row(("Bank", f"${game.cash.get(BANK, 0)}"))]
    if phase is not None:
        limits = ", ".join(f"{k} {v}" for k, v in phase.train_limit.items())
        out.append(Row(("Phase", phase.name)))
        out.append(Row(("Train limit", limits)))
        out.append(Row(("Tiles", ", ".join(phase.tiles))))
    loans = vars(game).get("loans_left")
    if isinstance(loans, int):
        out.append(Row(("Loans left", str(loans))))
    counts: dict[str, int] = {}
    for tid in game.depot:
        counts[game.trains[tid].name] = counts.get(game.trains[tid].name, 0) + 1
    unlimited = vars(game).get("unlimited", ())
    for name, n in counts.items():
        t = next(game.trains[tid] for tid in game.depot if game.trains[tid].name == name)
        rust = f", rusts on {t.rusts_on}" if t.rusts_on else ""
        left = "unlimited" if name in unlimited else str(n)
        out.append(Row((f"Train {name}", f"{left} × ${t.price}{rust}")))
    pool = [t.name for t in game.trains.values() if t.owner == POOL]
    if pool:
        out.append(Row(("Bank pool trains", " ".join(pool))))
    rusted = sum(1 for t in game.trains.values() if t.rusted and t.owner != DEPOT)
    if rusted:
        out.append(Row(("Rusted trains", str(rusted))))
    return out


def company_rows(game: Game) -> list[Row]:
    """Privates: name, value, revenue, owner."""
    out = []
    for c in game.companies.values():
        owner = game.name_of(c.owner) if c.owner else ("closed" if c.closed else "bank")
        out.append(Row((f"{c.id}: {c.name}", f"${c.value}", f"${c.revenue}", owner)))
    return out
