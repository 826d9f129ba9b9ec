"""Study mode's tree of variations, as a dock beside the log.

The main line is a flat list; the variations that branch at a move are listed
under it, each headed by its first move with its own line inside. Marks
(``!``, ``?``, ``!?``), branch names, a ``≡`` for a position reached by
another order too (transposition) and a ``✎`` for a note are shown on each move.

Keyboard: left/right along the line (undo/redo), up/down to the previous or
next branch at this point, Home/End to the start/end of the line. Clicking a
move jumps there (the position comes from the snapshot cache, so it is quick).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QFont, QKeyEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QInputDialog,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from desk18xx.engine.variations import Mark, Node
from desk18xx.ui.studysession import StudySession

NODE_ROLE = Qt.ItemDataRole.UserRole
_DETAIL_KEYS = ("company", "corporation", "price", "hex", "tile", "rotation", "city",
                "shares", "train", "kind")


def describe(node: Node, names: dict[str, str]) -> str:
    """One line for a move: ``"12. Ann bid C&SL 20"``."""
    if node.action is None:
        return "Start"
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
        self._syncing = False
        self.tree_widget.currentItemChanged.connect(self._clicked)
        self._add_actions()
        study.tree_changed.connect(self.rebuild)
        study.current_changed.connect(self._select)
        self.rebuild()

    # -- queries for tests and other views ----------------------------------------------
    def item_for(self, node: Node) -> QTreeWidgetItem | None:
        """The item showing `node`."""
        return self._items.get(node.id)

    def node_of(self, item: QTreeWidgetItem) -> Node:
        """The node an item shows."""
        return self.study.tree.node(int(item.data(0, NODE_ROLE)))

    def selected_node(self) -> Node | None:
        """The node of the selected item."""
        item = self.tree_widget.currentItem()
        return None if item is None else self.node_of(item)

    # -- building -----------------------------------------------------------------------
    def rebuild(self) -> None:
        """Redraw the whole tree (after nodes were added, removed or annotated)."""
        self._syncing = True
        self.names = {pid: name for pid, name in self.study.study.setup.players}
        self.tree_widget.clear()
        self._items.clear()
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

    def _place(self, container: QTreeWidget | QTreeWidgetItem, node: Node) -> QTreeWidgetItem:
        item = QTreeWidgetItem(container)
        item.setData(0, NODE_ROLE, node.id)
        self._items[node.id] = item
        self.refresh_item(node)
        for alt in node.children[1:]:
            head = self._place(item, alt)
            self._line(head, alt.children[0] if alt.children else None)
        return item

    def refresh_item(self, node: Node) -> None:
        """Update one item's text (marks, name, note, transposition)."""
        item = self._items.get(node.id)
        if item is None:
            return
        text = describe(node, self.names)
        if node.marks:
            text += " " + "".join(m.symbol for m in node.marks)
        if node.name:
            text = f"[{node.name}] {text}"
        if self.study.tree.transpositions(node):
            text += " ≡"
        if node.note:
            text += " ✎"
        item.setText(0, text)
        tips = [node.note] if node.note else []
        others = self.study.tree.transpositions(node)
        if others:
            tips.append("Same position as: " + ", ".join(
                describe(o, self.names) for o in others[:5]))
        item.setToolTip(0, "\n".join(tips))
        font = QFont(item.font(0))
        font.setBold(bool(node.name))
        font.setItalic(not node.is_main_line)
        item.setFont(0, font)

    # -- syncing ------------------------------------------------------------------------
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
        # digests appear as positions are computed: refresh the shown item
        self.refresh_item(self.study.tree.node(node_id))
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
        widget.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        entries: list[tuple[str, Any]] = [
            ("Name branch…", self._ask_name),
            ("Note…", self._ask_note),
            *[(f"Mark {m.value} ({m.symbol})", lambda _=False, m=m: self._mark(m))
              for m in Mark],
            ("Promote to main line", lambda: self._with_selected(self.study.promote)),
            ("Delete from here", lambda: self._with_selected(self.study.delete)),
        ]
        for text, slot in entries:
            action = QAction(text, widget)
            action.triggered.connect(slot)
            widget.addAction(action)

    def _with_selected(self, apply: Any) -> None:
        node = self.selected_node()
        if node is not None and not (node.is_root and apply == self.study.delete):
            apply(node)

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
