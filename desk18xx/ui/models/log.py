"""The game log: round headers and one readable line per action."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from desk18xx.engine.actions import Action
from desk18xx.engine.describe import describe as describe  # re-exported
from desk18xx.ui.session import RoundKey

_Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line: a header (``count`` is None) or an action (``count`` after it)."""

    text: str
    count: int | None = None
    """Number of live actions once this one is applied."""


def header(key: RoundKey) -> str:
    """``"— Stock round 2 —"`` …"""
    if key.kind == "operating":
        name = f"Operating round {key.turn}.{key.number}"
    elif key.kind == "merger":
        name = f"Merger round {key.turn}.{key.number}"
    elif key.kind == "auction":
        name = "Private auction"
    else:
        name = f"Stock round {key.turn}"
    return f"— {name} —"


def log_entries(actions: Sequence[Action], rounds: Sequence[RoundKey],
                names: dict[str, str]) -> list[LogEntry]:
    """Headers and lines for the live actions."""
    out: list[LogEntry] = []
    last: RoundKey | None = None
    for i, action in enumerate(actions):
        key = rounds[i] if i < len(rounds) else last
        if key is not None and key != last:
            out.append(LogEntry(header(key)))
            last = key
        out.append(LogEntry(_described(action, names.get(action.entity, action.entity)),
                            i + 1))
    return out


#: id(action) -> (action, name, line); the action is kept so that its id is not reused.
_LINES: dict[int, tuple[Action, str, str]] = {}
_LINES_MAX = 50_000


def _described(action: Action, who: str) -> str:
    """:func:`describe`, remembered per action object (the log is rebuilt every move)."""
    hit = _LINES.get(id(action))
    if hit is not None and hit[0] is action and hit[1] == who:
        return hit[2]
    text = describe(action, who)
    if len(_LINES) >= _LINES_MAX:
        _LINES.clear()
    _LINES[id(action)] = (action, who, text)
    return text


class LogModel(QAbstractListModel):
    """The log as a list model; headers are bold."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._entries: list[LogEntry] = []

    def set_entries(self, entries: Sequence[LogEntry]) -> bool:
        """Replace the log; appending only inserts the new rows.

        Returns:
            True when something changed.
        """
        new = list(entries)
        old = self._entries
        if new == old:
            return False
        if len(new) > len(old) and new[:len(old)] == old:
            self.beginInsertRows(QModelIndex(), len(old), len(new) - 1)
            self._entries = new
            self.endInsertRows()
            return True
        self.beginResetModel()
        self._entries = new
        self.endResetModel()
        return True

    def entry(self, row: int) -> LogEntry:
        """The entry at ``row``."""
        return self._entries[row]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self._entries)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or index.row() >= len(self._entries):
            return None
        e = self._entries[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return e.text
        if role == Qt.ItemDataRole.FontRole and e.count is None:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole and e.count is not None:
            return f"Click to see the board after action {e.count}"
        return None
