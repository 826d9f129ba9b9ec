"""A QUndoStack bound to the session's action log (Ctrl+Z / Ctrl+Shift+Z).

Each live action is one command.  Undoing a command appends an ``undo``
entry to the log through :meth:`GameSession.undo`; redoing appends ``redo``.
Jumping back to a log entry undoes several commands with one rebuild.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QUndoCommand, QUndoStack

from desk18xx.ui.session import GameSession


class ActionCommand(QUndoCommand):
    """One live action of the session."""

    def __init__(self, binder: UndoBinder, text: str) -> None:
        super().__init__(text)
        self._binder = binder
        self._pushed = False

    def redo(self) -> None:
        if not self._pushed:  # QUndoStack.push calls redo; the action is already applied
            self._pushed = True
            return
        if not self._binder.syncing:
            self._binder.session.redo()

    def undo(self) -> None:
        if not self._binder.syncing:
            self._binder.session.undo()


class UndoBinder(QObject):
    """Keeps :attr:`stack` in step with the session's live actions."""

    def __init__(self, session: GameSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.stack = QUndoStack(self)
        self.syncing = False
        self._connect_signals()

    def _connect_signals(self) -> None:
        self.session.action_applied.connect(self._applied)
        self.session.game_replaced.connect(self._reset)

    def _applied(self, count: int) -> None:
        actions = self.session.actions()
        text = actions[-1].type.replace("_", " ") if actions else "action"
        self.stack.push(ActionCommand(self, text))

    def _reset(self) -> None:
        self.syncing = True
        self.stack.clear()
        for action in self.session.actions():
            self.stack.push(ActionCommand(self, action.type.replace("_", " ")))
        self.stack.setClean()
        self.syncing = False

    def jump_to(self, count: int) -> None:
        """Undo back to ``count`` live actions with one rebuild."""
        steps = len(self.session.actions()) - count
        if steps <= 0:
            return
        self.syncing = True
        self.stack.setIndex(max(0, self.stack.index() - steps))
        self.syncing = False
        self.session.undo(steps)
