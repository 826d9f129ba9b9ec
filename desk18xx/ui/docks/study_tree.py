"""Study mode's tree of variations, as a dock beside the log.

The main line is a flat list read top-down in move order; a variation is
listed indented under the move it replaces (after it, before the next move of
the line), headed by its first move with its own line inside. Moves read as
in the game log (names and places, :func:`desk18xx.engine.describe.describe_in`);
the whole line, the branch name and the note are on hover. Marks
(``!``, ``?``, ``!?``), branch names, a ``≡`` for a position reached by
another order too (transposition) and a ``✎`` for a note are shown on each move.

Keyboard: left/right along the line (undo/redo), up/down to the branch listed
above or below at this point (the move replaced is listed first), Home/End to
the start/end of the line. Clicking a move jumps there (the position comes
from the snapshot cache, so it is quick).
Ctrl-click compares a move with the current position (without going there);
the right-click menu names, notes, marks, promotes, deletes and picks the
moves to compare, on the move clicked.
"""

from __future__ import annotations

import weakref
from typing import Any

import shiboken6
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QFont, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QInputDialog,
    QMenu,
    QMessageBox,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from desk18xx.engine.actions import action_from_dict
from desk18xx.engine.describe import describe_in
from desk18xx.engine.game import Game
from desk18xx.engine.variations import Mark, Node, TreeError, TreeListener, VariationTree
from desk18xx.ui.insight import in_sight
from desk18xx.ui.studysession import StudySession

NODE_ROLE = Qt.ItemDataRole.UserRole
_DETAIL_KEYS = ("company", "corporation", "price", "hex", "tile", "rotation", "city",
                "shares", "train", "kind")


def describe(node: Node, names: dict[str, str], game: Game | None = None) -> str:
    """One line for a move: ``"12. Ann bids $20 on C&SL"`` (in the log's words when
    ``game``, any position of the game, gives the names; else ``"12. Ann bid C&SL 20"``)."""
    if node.action is None:
        return "Start"
    if game is not None:
        try:
            return f"{node.depth}. {describe_in(game, action_from_dict(node.action))}"
        except (KeyError, ValueError, TypeError, AttributeError):
            pass  # a move this version cannot read: its raw fields below
    action = node.action
    who = names.get(str(action.get("entity")), str(action.get("entity", "")))
    details = []
    for key in _DETAIL_KEYS:
        value = action.get(key)
        if value is None or value == "" or value == []:
            continue
        if isinstance(value, list | dict):
            value = len(value) if key == "shares" else value
        details.append(str(value))
    return " ".join([f"{node.depth}.", who, node.type.replace("_", " "), *details])


class StudyTreeWidget(QTreeWidget):
    """The tree; keys move in the study."""

    def __init__(self, study: StudySession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.study = study
        self.setHeaderHidden(True)
        self.setUniformRowHeights(True)
        self.setExpandsOnDoubleClick(False)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        """Ctrl-click: compare that move with the current position; a right click
        opens the menu for the move under it without going there."""
        item = self.itemAt(event.position().toPoint())
        if event.button() == Qt.MouseButton.RightButton:
            event.accept()
            return
        if (event.button() == Qt.MouseButton.LeftButton and item is not None
                and event.modifiers() & Qt.KeyboardModifier.ControlModifier):
            node = self.study.tree.node(int(item.data(0, NODE_ROLE)))
            self.study.set_compare(0, self.study.tree.current)
            self.study.set_compare(1, node)
            event.accept()
            return
        super().mousePressEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        key = event.key()
        moves = {
            Qt.Key.Key_Left: self.study.undo,
            Qt.Key.Key_Right: self.study.redo,
            Qt.Key.Key_Up: lambda: self.study.sibling(-1),
            Qt.Key.Key_Down: lambda: self.study.sibling(1),
            Qt.Key.Key_Home: self.study.home,
            Qt.Key.Key_End: self.study.end,
        }
        move = moves.get(Qt.Key(key))
        if move is None:
            super().keyPressEvent(event)
            return
        move()
        event.accept()


class StudyTreeDock(QDockWidget):
    """Dock showing the variation tree of a `StudySession`."""

    def __init__(self, study: StudySession, parent: QWidget | None = None) -> None:
        super().__init__("Variations", parent)
        self.setObjectName("study_tree_dock")
        self.study = study
        self.names = {pid: name for pid, name in study.study.setup.players}
        self.tree_widget = StudyTreeWidget(study, self)
        self.setWidget(self.tree_widget)
        self._items: dict[int, QTreeWidgetItem] = {}
        self._heads: set[int] = set()
        """Ids of nodes shown as the head of a variation (not continuing a line)."""
        self._shown = study.tree.current.id
        self.menu_node: Node | None = None
        """The node right-clicked, while its menu is open (the menu acts on it)."""
        self._syncing = False
        self._game: Game | None = None
        self._game_setup: object = None
        self._tree: VariationTree | None = None
        self._listener: TreeListener | None = None
        self.tree_widget.currentItemChanged.connect(self._clicked)
        self._add_actions()
        study.tree_changed.connect(self._tree_changed)
        self._pending: int | None = None
        """The node to select once the dock comes into sight (it moved meanwhile)."""
        study.current_changed.connect(self._current_changed)
        self.visibilityChanged.connect(self._came_into_sight)
        self._follow(study.tree)
        self.rebuild()

    # -- queries for tests and other views ----------------------------------------------
    def item_for(self, node: Node) -> QTreeWidgetItem | None:
        """The item showing `node`."""
        return self._items.get(node.id)

    def node_of(self, item: QTreeWidgetItem) -> Node:
        """The node an item shows."""
        return self.study.tree.node(int(item.data(0, NODE_ROLE)))

    def selected_node(self) -> Node | None:
        """The node the menu acts on: the one right-clicked while its menu is open,
        else the selected one."""
        if self.menu_node is not None and self.menu_node in self.study.tree:
            return self.menu_node
        self._flush()
        item = self.tree_widget.currentItem()
        return None if item is None else self.node_of(item)

    # -- following the tree ---------------------------------------------------------------
    def _follow(self, tree: VariationTree) -> None:
        """Listen to `tree`'s own events (with the node changed) to update in place."""
        if self._tree is not None and self._listener is not None:
            self._tree.unsubscribe(self._listener)
        ref = weakref.ref(self)

        def listener(event: str, node: Node | None) -> None:
            dock = ref()
            if dock is None or not shiboken6.isValid(dock):
                tree.unsubscribe(listener)
                return
            dock._on_tree(event, node)

        tree.subscribe(listener)
        self._tree, self._listener = tree, listener
        self.destroyed.connect(lambda *_: tree.unsubscribe(listener))

    def _tree_changed(self) -> None:
        """The session's signal: only a new tree needs anything (the rest comes from
        the tree's own events, handled in place by `_on_tree`)."""
        if self.study.tree is not self._tree:
            self._follow(self.study.tree)
            self.rebuild()

    def _on_tree(self, event: str, node: Node | None) -> None:
        if event == "current" or node is None:
            if node is None:
                self.rebuild()
            return
        if event == "added":
            self._append(node)
        elif event == "changed":
            self._refresh_related(node)
        elif event == "removed" and node.id in self._heads and node.parent is not None:
            self._remove(node)
        else:  # reordered, reset, a line cut short: lines move between containers
            self.rebuild()

    def _append(self, node: Node) -> None:
        """Show a node just played: the end of its parent's line, or a new variation."""
        parent = node.parent
        parent_item = None if parent is None else self._items.get(parent.id)
        if parent is None or parent_item is None or node.id in self._items:
            self.rebuild()
            return
        if parent.children[0] is node:
            # continues the parent's line: a head holds its line, a line node is followed
            # by the rest of its line in its own container (the line is its tail)
            if parent.id in self._heads:
                container: QTreeWidget | QTreeWidgetItem = parent_item
            else:
                above = parent_item.parent()
                container = self.tree_widget if above is None else above
            self._place(container, node)
        else:
            # a new variation: under the move it replaces, after the earlier ones
            replaced = self._items.get(parent.children[0].id)
            if replaced is None:
                self.rebuild()
                return
            item = self._new_item(node)
            replaced.insertChild(len(parent.children) - 2, item)
            self._heads.add(node.id)
            self.refresh_item(node)
        self._refresh_related(node)

    def _remove(self, node: Node) -> None:
        """Drop a deleted variation (its head item holds its whole line)."""
        item = self._items.get(node.id)
        parent_item = None if item is None else item.parent()
        if item is None or parent_item is None:
            self.rebuild()
            return
        digests = set()
        for gone in node.walk():
            self._items.pop(gone.id, None)
            self._heads.discard(gone.id)
            if gone.digest is not None:
                digests.add(gone.digest)
        self._syncing = True
        parent_item.removeChild(item)
        self._syncing = False
        if digests:  # their transpositions lost a partner
            for other in self.study.tree.nodes():
                if other.digest in digests:
                    self.refresh_item(other)

    def _refresh_related(self, node: Node) -> None:
        """Refresh `node` and the nodes reaching the same position."""
        if node not in self.study.tree:
            return
        self.refresh_item(node)
        for other in self.study.tree.transpositions(node):
            self.refresh_item(other)

    # -- building -----------------------------------------------------------------------
    def rebuild(self) -> None:
        """Redraw the whole tree (after a branch was promoted, moved or cut, or a new tree)."""
        self._syncing = True
        self.names = {pid: name for pid, name in self.study.study.setup.players}
        self.tree_widget.clear()
        self._items.clear()
        self._heads.clear()
        tree = self.study.tree
        root_item = self._place(self.tree_widget, tree.root)
        root_item.setExpanded(True)
        if tree.root.children:
            self._line(self.tree_widget, tree.root.children[0])
        self._syncing = False
        self._select(tree.current.id)

    def _line(self, container: QTreeWidget | QTreeWidgetItem, node: Node | None) -> None:
        while node is not None:
            self._place(container, node)
            node = node.children[0] if node.children else None

    def _new_item(self, node: Node, container: QTreeWidget | QTreeWidgetItem | None = None
                  ) -> QTreeWidgetItem:
        item = QTreeWidgetItem() if container is None else QTreeWidgetItem(container)
        item.setData(0, NODE_ROLE, node.id)
        self._items[node.id] = item
        return item

    def _place(self, container: QTreeWidget | QTreeWidgetItem, node: Node) -> QTreeWidgetItem:
        """Show ``node`` at the end of ``container``; a move that continues its line
        holds, indented under it, the variations that replace it."""
        item = self._new_item(node, container)
        self.refresh_item(node)
        parent = node.parent
        if parent is not None and parent.children[0] is node:
            for alt in parent.children[1:]:
                head = self._place(item, alt)
                self._heads.add(alt.id)
                self._line(head, alt.children[0] if alt.children else None)
        return item

    def refresh_item(self, node: Node) -> None:
        """Update one item's text (marks, name, note, transposition)."""
        item = self._items.get(node.id)
        if item is None:
            return
        text = describe(node, self.names, self._names_game())
        line = text
        if node.marks:
            text += " " + "".join(m.symbol for m in node.marks)
        if node.name:
            text = f"[{node.name}] {text}"
        if self.study.tree.transpositions(node):
            text += " ≡"
        if node.note:
            text += " ✎"
        item.setText(0, text)
        tips = [f"Branch: {node.name}"] if node.name else []
        tips.append(line + (" " + ", ".join(m.value for m in node.marks) if node.marks
                            else ""))
        if node.note:
            tips.append(f"Note: {node.note}")
        others = self.study.tree.transpositions(node)
        if others:
            tips.append("Same position as: " + ", ".join(
                describe(o, self.names, self._names_game()) for o in others[:5]))
        item.setToolTip(0, "\n".join(tips))
        font = QFont(item.font(0))
        font.setBold(bool(node.name))
        font.setItalic(not node.is_main_line)
        item.setFont(0, font)

    def _names_game(self) -> Game | None:
        """A position of the game studied, for the names of players, companies and
        places (they do not change during a game); None when none can be had."""
        if self._game is not None and self._game_setup is self.study.study.setup:
            return self._game
        game = None
        session = self.study.session
        if session is not None and getattr(session, "has_game", False):
            candidate = getattr(session, "game", None)
            game = candidate if isinstance(candidate, Game) else None
        if game is None:
            try:
                game = self.study.study.game_at(self.study.tree.root)
            except Exception:  # noqa: BLE001 - names only; the raw fields stay readable
                game = None
        self._game, self._game_setup = game, self.study.study.setup
        return game

    # -- syncing ------------------------------------------------------------------------
    def _current_changed(self, node_id: int) -> None:
        """The position moved: select its node now, or (the dock behind another tab or
        closed, in a shown window) when the dock comes into sight: a move does not
        wait for a tree nobody sees (issue 18, speed)."""
        if self.window().isVisible() and not in_sight(self):
            self._pending = node_id
            return
        self._pending = None
        self._select(node_id)

    def _came_into_sight(self, visible: bool) -> None:
        if visible:
            self._flush()

    def _flush(self) -> None:
        """Select the node the position moved to while the dock was out of sight."""
        pending, self._pending = self._pending, None
        if pending is not None:
            self._select(pending)

    def _select(self, node_id: int) -> None:
        item = self._items.get(node_id)
        if item is None:
            return
        self._syncing = True
        parent = item.parent()
        while parent is not None:
            parent.setExpanded(True)
            parent = parent.parent()
        self.tree_widget.setCurrentItem(item)
        self.tree_widget.scrollToItem(item)
        # digests appear as positions are computed: refresh the shown item, the one
        # shown before and the positions they transpose to
        tree = self.study.tree
        previous, self._shown = self._shown, node_id
        if previous != node_id and previous in self._items:
            try:
                self._refresh_related(tree.node(previous))
            except TreeError:  # deleted meanwhile
                pass
        self._refresh_related(tree.node(node_id))
        self._syncing = False

    def _clicked(self, item: QTreeWidgetItem | None, _previous: Any) -> None:
        if self._syncing or item is None:
            return
        node = self.node_of(item)
        if node is not self.study.tree.current:
            self.study.go_to(node)

    # -- annotations ----------------------------------------------------------------------
    def _add_actions(self) -> None:
        widget = self.tree_widget
        widget.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        widget.customContextMenuRequested.connect(self._menu)
        entries: list[tuple[str, Any]] = [
            ("Name branch…", self._ask_name),
            ("Note…", self._ask_note),
            *[(f"Mark {m.value} ({m.symbol})", lambda _=False, m=m: self._mark(m))
              for m in Mark],
            ("Promote to main line", lambda: self._with_selected(self.study.promote)),
            ("Delete from here…", lambda: self._with_selected(self._ask_delete)),
            ("Compare: set as A", lambda: self._with_selected(
                lambda node: self.study.set_compare(0, node))),
            ("Compare: set as B", lambda: self._with_selected(
                lambda node: self.study.set_compare(1, node))),
        ]
        for text, slot in entries:
            action = QAction(text, widget)
            action.triggered.connect(slot)
            widget.addAction(action)

    def _menu(self, pos: QPoint) -> None:
        """The right-click menu, acting on the move under the mouse."""
        item = self.tree_widget.itemAt(pos)
        if item is None:
            return
        self.menu_node = self.node_of(item)
        try:
            QMenu.exec(self.tree_widget.actions(),
                       self.tree_widget.viewport().mapToGlobal(pos), None, self)
        finally:
            self.menu_node = None

    def _with_selected(self, apply: Any) -> None:
        node = self.selected_node()
        if node is not None and not (node.is_root and apply == self._ask_delete):
            apply(node)

    def _ask_delete(self, node: Node) -> bool:
        """Delete ``node`` and what follows once the player agrees: nothing brings the
        moves back (the autosave follows), and on the main line they are the game."""
        count = sum(1 for _ in node.walk())
        where = "of the main line — the game itself — " if node.is_main_line else ""
        answer = QMessageBox.question(
            self, "Delete moves",
            f"Delete move {node.depth} and everything after it {where}"
            f"({count} move{'' if count == 1 else 's'})? This cannot be undone.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            return False
        self.study.delete(node)
        return True

    def _mark(self, mark: Mark) -> None:
        self._with_selected(lambda node: self.study.toggle_mark(node, mark))

    def _ask_name(self) -> None:
        node = self.selected_node()
        if node is None:
            return
        text, ok = QInputDialog.getText(self, "Name branch", "Name:", text=node.name)
        if ok:
            self.study.tree.set_name(node, text)

    def _ask_note(self) -> None:
        node = self.selected_node()
        if node is None:
            return
        text, ok = QInputDialog.getMultiLineText(self, "Note", "Note:", node.note)
        if ok:
            self.study.set_note(node, text)
