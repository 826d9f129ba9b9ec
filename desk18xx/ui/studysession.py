"""Qt adapter for study mode: a `Study` with signals, optionally driving a `GameSession`.

The docks of study mode (`desk18xx.ui.docks.study_tree`, `desk18xx.ui.docks.compare`)
take a :class:`StudySession`. It forwards every change of the variation tree as
signals. Made with :meth:`StudySession.from_session`, it studies the hot-seat
:class:`~desk18xx.ui.session.GameSession`'s own history tree: the session
follows the tree's current node itself (a jump here is a jump there), and a new
game in the session is picked up (``game_replaced``).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from desk18xx.engine.actions import Action, action_from_dict
from desk18xx.engine.digest import state_digest
from desk18xx.engine.game import GameSetup
from desk18xx.engine.study import Study
from desk18xx.engine.variations import Mark, Node, VariationTree, tree_from_log
from desk18xx.titles import new_game

#: Milliseconds the shown position must stay before its state digest is computed
#: (transpositions; a digest of a late 1822CA game takes about 60 ms, so not
#: while the user moves on quickly).
DIGEST_DELAY_MS = 800


class StudySession(QObject):
    """A study for the user interface.

    Signals:
        current_changed(int): the current node's id.
        tree_changed(): nodes added, removed, reordered or annotated.
        action_rejected(str): the rules refused a move.
        compare_changed(): the two positions to compare (A, B) were picked.
    """

    #: The current node changed; its id.
    current_changed = Signal(int)
    #: Nodes were added, removed, reordered or annotated, or the tree was replaced.
    tree_changed = Signal()
    #: The rules refused a move; the reason.
    action_rejected = Signal(str)
    #: The nodes to compare (:attr:`compare_nodes`) changed.
    compare_changed = Signal()

    def __init__(self, study: Study, session: Any = None, parent: QObject | None = None
                 ) -> None:
        super().__init__(parent)
        self.study = study
        self.session = session
        self.compare_nodes: tuple[Node | None, Node | None] = (None, None)
        """The positions picked as A and B for the compare view (None: not yet)."""
        self._digest_timer = QTimer(self)
        self._digest_timer.setSingleShot(True)
        self._digest_timer.setInterval(DIGEST_DELAY_MS)
        self._digest_timer.timeout.connect(self.digest_current)
        study.tree.subscribe(self._on_tree)

    @classmethod
    def from_session(cls, session: Any, parent: QObject | None = None) -> StudySession:
        """A study of the game open in a `GameSession`: its history tree when it has
        one (kept in step, new games included), else a tree made from its log (the
        undone moves become variations)."""
        own = getattr(session, "tree", None)
        tree = own if isinstance(own, VariationTree) else tree_from_log(session.line.raw)
        setup: GameSetup = session.setup
        shared = getattr(session, "positions", None) if own is tree else None
        factory = getattr(session, "factory", None) or new_game
        study = cls(Study(setup, tree, factory=factory, cache=shared), session, parent)
        if own is tree:
            session.game_replaced.connect(study._session_replaced)
        return study

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
        if getattr(self.session, "tree", None) is self.study.tree:
            parsed = action if isinstance(action, Action) else action_from_dict(action)
            return self.tree.current if self.session.submit(parsed) else None
        try:
            return self.study.play(action)
        except Exception as error:  # the engine's refusal, shown to the user
            self.action_rejected.emit(str(error))
            return None

    def set_compare(self, which: int, node: Node | None) -> None:
        """Pick `node` as position A (`which` 0) or B (1) of the compare view."""
        nodes = list(self.compare_nodes)
        nodes[which] = node
        self.compare_nodes = (nodes[0], nodes[1])
        self.compare_changed.emit()

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
    def _session_replaced(self) -> None:
        """The session opened another game: study its new tree."""
        tree = self.session.tree
        if tree is self.study.tree or self.session.setup is None:
            return
        self.study.tree.unsubscribe(self._on_tree)
        if self.study.cache is not getattr(self.session, "positions", None):
            self.study.cache.close()
        self.study = Study(self.session.setup, tree, factory=self.session.factory,
                           cache=self.session.positions)
        tree.subscribe(self._on_tree)
        self.compare_nodes = (None, None)
        self.tree_changed.emit()
        self.current_changed.emit(tree.current.id)

    def digest_current(self) -> None:
        """Compute the shown position's state digest if it is not known yet, so that
        the same position reached by another order is marked (transpositions).
        Runs once the position has been shown for `DIGEST_DELAY_MS`."""
        node = self.tree.current
        if node.is_root or node.digest is not None:
            return
        own = getattr(self.session, "tree", None) is self.tree
        try:
            game = self.session.game if own else self.study.game
        except Exception:  # noqa: BLE001 - a line the rules refuse has no position
            return
        self.tree.set_digest(node, state_digest(game), notify=True)

    def _on_tree(self, event: str, node: Node | None) -> None:
        if event == "current":
            self._push()
            self.current_changed.emit(self.tree.current.id)
            if self.tree.current.digest is None:
                self._digest_timer.start()
        else:
            a, b = (n if n is not None and n in self.tree else None
                    for n in self.compare_nodes)
            if (a, b) != self.compare_nodes:  # a compared position was deleted
                self.compare_nodes = (a, b)
                self.compare_changed.emit()
            self.tree_changed.emit()

    def _push(self) -> None:
        if getattr(self.session, "tree", None) is self.study.tree:
            return  # the session follows its own tree
        show = getattr(self.session, "show_position", None)
        if show is not None:
            show(self.study.game, self.tree.actions())
