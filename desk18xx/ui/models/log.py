"""The game log: round headers and one readable line per action."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QStringListModel, Qt
from PySide6.QtGui import QColor, QFont

from desk18xx.engine.actions import Action
from desk18xx.engine.describe import Places
from desk18xx.engine.describe import describe as describe  # re-exported
from desk18xx.ui.session import RoundKey

_Index = QModelIndex | QPersistentModelIndex

Annotator = Callable[[int], tuple[str, str]]
"""Live-action count -> (marks shown after the line, note shown as its tooltip)."""


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line: a header (``count`` is None), an action (``count`` after it) or a
    consequence of that action (``detail``, indented under it)."""

    text: str
    count: int | None = None
    """Number of live actions once this one is applied."""
    detail: bool = False
    """A consequence the engine applied (`desk18xx.engine.narration`)."""


Told = Mapping[int, Sequence[str]]
"""Live-action count -> the consequence lines of that action (`Game.events`)."""


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
                names: dict[str, str], *, first: int = 0,
                after: RoundKey | None = None, told: Told | None = None,
                places: Places | None = None) -> list[LogEntry]:
    """Headers and lines for the live actions, each followed by its consequences.

    Args:
        first: how many live actions come before ``actions`` (a log's tail).
        after: the round of the action before ``actions`` (no header repeated).
        told: the engine's consequence lines per live-action count.
        places: hex id -> place name, for tiles, tokens and routes.
    """
    out: list[LogEntry] = []
    last = after
    for i, action in enumerate(actions):
        key = rounds[i] if i < len(rounds) else last
        if key is not None and key != last:
            out.append(LogEntry(header(key)))
            last = key
        count = first + i + 1
        out.append(LogEntry(_described(action, _who(action.entity, names), places), count))
        for line in (told or {}).get(count, ()):
            out.append(LogEntry(line, count, detail=True))
    return out


def _who(entity: str, names: dict[str, str]) -> str:
    """A player's name, ``"Minor 6"`` for a numbered minor (1822CA), else the id."""
    name = names.get(entity)
    if name is not None:
        return name
    return f"Minor {entity}" if entity.isdigit() else entity


#: id(action) -> (action, name, line); the action is kept so that its id is not reused.
_LINES: dict[int, tuple[Action, str, str]] = {}
_LINES_MAX = 50_000


def _described(action: Action, who: str, places: Places | None = None) -> str:
    """:func:`describe`, remembered per action object (the log is rebuilt every move)."""
    hit = _LINES.get(id(action))
    if hit is not None and hit[0] is action and hit[1] == who:
        return hit[2]
    text = describe(action, who, places)
    if len(_LINES) >= _LINES_MAX:
        _LINES.clear()
    _LINES[id(action)] = (action, who, text)
    return text


class LogModel(QStringListModel):
    """The log as a list model; headers are bold.

    The rows are counted by Qt (a list of blank strings kept beside the entries):
    a list view lays out all its rows after every insertion, asking the row count
    once per row, and thousands of calls into Python late in a game are a few
    milliseconds per move.  What a row shows is :meth:`data`, from the entries.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._entries: list[LogEntry] = []
        self._shown: tuple[list[Action], list[RoundKey], dict[str, str]] | None = None
        """The actions, rounds and names of :meth:`show_actions` (None after set_entries)."""
        self._annotate: Annotator | None = None

    def set_annotator(self, annotate: Annotator | None) -> None:
        """Show study marks and notes of each action (asked for when drawn)."""
        self._annotate = annotate
        self.annotations_changed()

    def annotations_changed(self) -> None:
        """Marks or notes changed: redraw the lines."""
        if self._entries:
            self.dataChanged.emit(self.index(0), self.index(len(self._entries) - 1),
                                  [Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole])

    def show_actions(self, actions: Sequence[Action], rounds: Sequence[RoundKey],
                     names: dict[str, str], *, told: Told | None = None,
                     places: Places | None = None) -> bool:
        """Show the log of ``actions``: a longer log of the same actions (a move was
        played) only describes and inserts the new rows, a shorter one (an undo) only
        removes the rows of the actions gone; anything else is rebuilt.

        Returns:
            True when something changed.
        """
        new_actions, new_rounds = list(actions), list(rounds)
        shown = self._shown
        if shown is not None:
            old_actions, old_rounds, old_names = shown
            n = len(old_actions)
            if (names == old_names and len(new_actions) >= n
                    and len(new_rounds) >= len(old_rounds) == n
                    and all(a is b for a, b in zip(old_actions, new_actions, strict=False))
                    and all(a is b or a == b
                            for a, b in zip(old_rounds, new_rounds, strict=False))):
                self._shown = (new_actions, new_rounds, dict(names))
                if len(new_actions) == n:
                    return False
                tail = log_entries(new_actions[n:], new_rounds[n:], names, first=n,
                                   after=old_rounds[-1] if old_rounds else None,
                                   told=told, places=places)
                self._append(tail)
                return True
            kept = len(new_actions)
            if (names == old_names and kept < n and len(old_rounds) == n
                    and len(new_rounds) == kept
                    and all(a is b for a, b in zip(new_actions, old_actions, strict=False))
                    and all(a is b or a == b
                            for a, b in zip(new_rounds, old_rounds, strict=False))):
                self._drop_after(kept)
                self._shown = (new_actions, new_rounds, dict(names))
                return True
        changed = self.set_entries(log_entries(new_actions, new_rounds, names, told=told,
                                               places=places))
        self._shown = (new_actions, new_rounds, dict(names))
        return changed

    def set_entries(self, entries: Sequence[LogEntry]) -> bool:
        """Replace the log; appending only inserts the new rows.

        Returns:
            True when something changed.
        """
        self._shown = None
        new = list(entries)
        old = self._entries
        if new == old:
            return False
        if len(new) > len(old) and new[:len(old)] == old:
            self._append(new[len(old):])
            return True
        if len(new) < len(old) and old[:len(new)] == new:  # an undo: the tail goes
            self.removeRows(len(new), len(old) - len(new))
            self._entries = new
            return True
        self._entries = new
        self.setStringList([""] * len(new))  # a reset
        return True

    def _drop_after(self, count: int) -> None:
        """Remove the rows of the actions after the first ``count`` (their lines, their
        consequences and the round headers before them)."""
        entries = self._entries
        cut = len(entries)
        while cut > 0:
            after = entries[cut - 1].count
            if after is not None and after <= count:
                break
            cut -= 1
        if cut < len(entries):
            self.removeRows(cut, len(entries) - cut)
            self._entries = entries[:cut]

    def _append(self, tail: Sequence[LogEntry]) -> None:
        """Add rows for ``tail`` (the entries are there when ``rowsInserted`` comes)."""
        if tail:
            start = len(self._entries)
            self._entries.extend(tail)
            self.insertRows(start, len(tail))

    def entry(self, row: int) -> LogEntry:
        """The entry at ``row``."""
        return self._entries[row]

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return (Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled
                | Qt.ItemFlag.ItemNeverHasChildren)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or index.row() >= len(self._entries):
            return None
        e = self._entries[index.row()]
        annotate = self._annotate
        if annotate is not None and e.count is not None and role in (
                Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            marks, note = annotate(e.count) if not e.detail else ("", "")
            if role == Qt.ItemDataRole.DisplayRole and e.detail:
                return f"    {e.text}"
            if role == Qt.ItemDataRole.DisplayRole:
                return f"{e.text} {marks}" if marks else e.text
            hint = f"Click to see the board after action {e.count}"
            return f"{note}\n\n{hint}" if note else hint
        if role == Qt.ItemDataRole.DisplayRole:
            return f"    {e.text}" if e.detail else e.text
        if role == Qt.ItemDataRole.ForegroundRole and e.detail:
            return QColor(90, 90, 90)
        if role == Qt.ItemDataRole.FontRole and e.count is None:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole and e.count is not None:
            return f"Click to see the board after action {e.count}"
        return None
