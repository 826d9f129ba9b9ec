"""Qt adapter for study mode: a `Study` with signals, optionally driving a `GameSession`.

The docks of study mode (`desk18xx.ui.docks.study_tree`, `desk18xx.ui.docks.compare`)
take a :class:`StudySession`. It forwards every change of the variation tree as
signals and, when given the hot-seat :class:`~desk18xx.ui.session.GameSession`,
shows the current node's game there through ``GameSession.show_position(game,
actions)`` once the session has that method (see the study-mode notes for the
session owner); until then the session is left alone.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from desk18xx.engine.game import GameSetup
from desk18xx.engine.study import Study
from desk18xx.engine.variations import Mark, Node, VariationTree, tree_from_log


class StudySession(QObject):
    """A study for the user interface.

    Signals:
        current_changed(int): the current node's id.
        tree_changed(): nodes added, removed, reordered or annotated.
        action_rejected(str): the rules refused a move.
    """

    current_changed = Signal(int)
    tree_changed = Signal()
    action_rejected = Signal(str)

    def __init__(self, study: Study, session: Any = None, parent: QObject | None = None
                 ) -> None:
        super().__init__(parent)
        self.study = study
        self.session = session
        study.tree.subscribe(self._on_tree)

    @classmethod
    def from_session(cls, session: Any, parent: QObject | None = None) -> StudySession:
        """A study of the game open in a `GameSession` (its log's undone moves become
        variations)."""
        setup: GameSetup = session.setup
        tree = tree_from_log(session.line.raw)
        return cls(Study(setup, tree, factory=getattr(session, "_factory", None)), session,
                   parent)

    @property
    def tree(self) -> VariationTree:
        """The variation tree."""
        return self.study.tree

    # -- commands ---------------------------------------------------------------------
    def go_to(self, node: Node) -> None:
        """Jump to `node`."""
        self.study.go_to(node)

    def undo(self) -> None:
        """Back one action (left)."""
        self.study.undo()

    def redo(self) -> None:
        """Forward along the branch visited last (right)."""
        self.study.redo()

    def sibling(self, step: int) -> None:
        """To the previous (-1, up) or next (+1, down) branch at this point."""
        self.tree.next_sibling(step)

    def home(self) -> None:
        """To the start position."""
        self.tree.to_start()

    def end(self) -> None:
        """To the end of the current line."""
        self.tree.to_end()

    def play(self, action: Any) -> Node | None:
        """Play a move (an `Action` or a raw dict); None and `action_rejected` if refused."""
        try:
            return self.study.play(action)
        except Exception as error:  # the engine's refusal, shown to the user
            self.action_rejected.emit(str(error))
            return None

    def set_note(self, node: Node, text: str) -> None:
        """Comment on `node`."""
        self.tree.set_note(node, text)

    def toggle_mark(self, node: Node, mark: Mark | str) -> None:
        """Set or clear a mark."""
        self.tree.toggle_mark(node, mark)

    def promote(self, node: Node) -> None:
        """Make `node`'s line the main line."""
        self.tree.promote(node)

    def delete(self, node: Node) -> None:
        """Delete `node` and what follows it."""
        self.tree.delete(node)

    # -- internals --------------------------------------------------------------------
    def _on_tree(self, event: str, node: Node | None) -> None:
        if event == "current":
            self._push()
            self.current_changed.emit(self.tree.current.id)
        else:
            self.tree_changed.emit()

    def _push(self) -> None:
        show = getattr(self.session, "show_position", None)
        if show is not None:
            show(self.study.game, self.tree.actions())
