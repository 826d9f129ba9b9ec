"""The action log: undo/redo filtering and chat (STYLE.md §5).

The log is append-only; ``undo`` and ``redo`` are entries in it. Which entries
are live is decided by one pass over the whole log, exactly as 18xx.games does
it (18xx ``Game::Base.filtered_actions`` in ``lib/engine/game/base.rb``;
export-format doc §3.2). The live entries, chat excluded, are the rules
stream that the engine folds over: ``replay(new_game(...), effective_actions(log))``.

Actions here are the raw dicts with 18xx.games field names (``type``, ``id``,
``entity``, …). This module is the JSON edge of the engine, so ``Any`` is
allowed in the dict values; parse them into typed actions elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

RawAction: TypeAlias = Mapping[str, Any]
"""One action as found in an export or a save: 18xx.games field names."""

UNDO = "undo"
REDO = "redo"
MESSAGE = "message"


class LogError(ValueError):
    """The log cannot be filtered (an undo to an unknown action, a redo with nothing undone)."""

    def __init__(self, position: int, problem: str) -> None:
        super().__init__(f"action at position {position}: {problem}")
        self.position = position
        """0-based index of the offending entry in the raw log."""
        self.problem = problem


@dataclass(frozen=True, slots=True)
class FilteredLog:
    """The result of one filtering pass over a raw log."""

    actions: tuple[RawAction, ...]
    """Live rules actions in log order: no undo/redo, no chat."""
    positions: tuple[int, ...]
    """For each of `actions`, its 0-based index in the raw log."""
    messages: tuple[RawAction, ...]
    """Every chat message, in log order (messages are never undone)."""
    redo_possible: bool
    """True when the log ends in undos that a ``redo`` could take back."""


def _type(action: RawAction, position: int) -> str:
    kind = action.get("type")
    if not isinstance(kind, str):
        raise LogError(position, f"'type' must be a string, not {kind!r}")
    return kind


def filter_log(raw: Sequence[RawAction]) -> FilteredLog:
    """Decide which entries of `raw` are live (export-format doc §3.2).

    - ``message``: always live, never undone, does not clear the redo stack.
    - ``undo`` with ``action_id`` 0: takes back everything before it; with
      another ``action_id``: everything after the first entry with that
      ``id``; without ``action_id``: the latest live non-message entry.
      The taken-back entries are pushed as one group on the redo stack.
    - ``redo``: restores the group on top of the redo stack.
    - anything else (``log``, ``end_game``, ``program_*`` included) is live
      and clears the redo stack.

    Nested ``auto_actions`` stay inside their parent and share its fate.

    Args:
        raw: the log in file order (never sorted by ``id``).

    Returns:
        The live actions, their positions, the chat messages and whether a
        redo is possible.

    Raises:
        LogError: an entry without a string ``type``, an undo whose
            ``action_id`` matches no entry, or a redo with nothing to redo.
    """
    live: list[RawAction | None] = [None] * len(raw)
    undo_stack: list[list[tuple[RawAction, int]]] = []
    for index, action in enumerate(raw):
        kind = _type(action, index)
        if kind == UNDO:
            undo_to = _undo_target(raw, live, index, action.get("action_id"))
            undone: list[tuple[RawAction, int]] = []
            for position in range(undo_to, index):
                entry = live[position]
                if entry is None or _type(entry, position) == MESSAGE:
                    continue
                live[position] = None
                undone.append((entry, position))
            undo_stack.append(undone)
        elif kind == REDO:
            if not undo_stack:
                raise LogError(index, "redo with nothing to redo")
            for entry, position in undo_stack.pop():
                live[position] = entry
        elif kind == MESSAGE:
            live[index] = action
        else:
            undo_stack.clear()
            live[index] = action

    actions: list[RawAction] = []
    positions: list[int] = []
    messages: list[RawAction] = []
    for position, entry in enumerate(live):
        if entry is None:
            continue
        if entry["type"] == MESSAGE:
            messages.append(entry)
        else:
            actions.append(entry)
            positions.append(position)
    return FilteredLog(
        actions=tuple(actions),
        positions=tuple(positions),
        messages=tuple(messages),
        redo_possible=bool(undo_stack),
    )


def _undo_target(
    raw: Sequence[RawAction], live: Sequence[RawAction | None], index: int, action_id: object
) -> int:
    """First position an undo at `index` takes back (18xx ``undo_to``)."""
    if action_id is None or action_id is False:
        for position in range(index - 1, -1, -1):
            entry = live[position]
            if entry is not None and entry["type"] != MESSAGE:
                return position
        return 0
    if isinstance(action_id, bool) or not isinstance(action_id, int):
        raise LogError(index, f"undo 'action_id' must be an integer, not {action_id!r}")
    if action_id == 0:
        return 0
    for position, entry in enumerate(raw):
        if entry.get("id") == action_id:
            return position + 1
    raise LogError(index, f"undo to action_id {action_id}, which is not in the log")


def effective_actions(raw: Sequence[RawAction]) -> list[RawAction]:
    """The live rules actions of `raw`, in log order (no undo, redo or chat).

    This is `filter_log` reduced to what a replay needs. Chat is available
    from `chat_messages` or `filter_log`.

    Raises:
        LogError: see `filter_log`.
    """
    return list(filter_log(raw).actions)


def chat_messages(raw: Sequence[RawAction]) -> list[RawAction]:
    """Every ``message`` entry of `raw`, in log order."""
    return [action for action in raw if action.get("type") == MESSAGE]


def with_auto_actions(actions: Sequence[RawAction]) -> Iterator[RawAction]:
    """Each action, then its nested ``auto_actions`` in order (doc §3.3).

    This is the order in which a replay applies them; the auto actions are
    yielded as stored (they have no ``id``).
    """
    for action in actions:
        yield action
        nested = action.get("auto_actions") or ()
        yield from nested
