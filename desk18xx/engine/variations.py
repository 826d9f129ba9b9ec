"""Study mode: the history of a game as a tree of variations (no line is ever lost).

A :class:`VariationTree` holds the actions of a game as a tree.  The root is
the start position; every other :class:`Node` holds one raw action (a dict
with 18xx.games field names, as in a save) and is the position after it.  A
*line* is the path from the root to a node; the actions along it are what a
game replays (``effective_actions`` never applies: a tree has no ``undo``
entries).

Semantics (the issue "Study mode: a tree of variations"):

- :meth:`~VariationTree.play` from the current node makes a new child, or
  follows the existing child holding the same action; it never discards a
  node.  Playing from an earlier point therefore starts a new branch.
- :meth:`~VariationTree.undo` steps back to the parent;
  :meth:`~VariationTree.redo` follows the child visited last (the main line
  child when none was visited).
- The *main line* is the first child at every node.
  :meth:`~VariationTree.promote` makes a node's line the main line;
  :meth:`~VariationTree.delete` removes a node and everything after it.
- Names, notes and marks (``good``, ``mistake``, ``interesting``) annotate
  nodes; a node's *digest* (the game-state digest after its action, see
  `desk18xx.engine.digest`) finds transpositions: the same position reached
  by different orders.

The tree is plain data and never imports a rules engine or Qt; games for its
nodes come from `desk18xx.engine.positions.PositionCache`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

ActionDict = dict[str, Any]
"""One raw action (18xx.games field names)."""

ROOT_ID: Final = 0
"""Id of the root node (the start position)."""

_IGNORED_KEYS: Final = frozenset({"id", "created_at", "user"})
"""Envelope keys that do not change what an action does (ignored when comparing)."""


_LEGACY_DIGEST: Final = re.compile(r"[0-9a-f]{64}")
"""A node digest written before positions were versioned (`desk18xx.engine.digest`):
it would never match a position digest again, so it is dropped on load."""


class Mark(StrEnum):
    """Short marks on a node (chess-like annotation)."""

    GOOD = "good"
    MISTAKE = "mistake"
    INTERESTING = "interesting"

    @property
    def symbol(self) -> str:
        """``!``, ``?`` or ``!?``."""
        return _SYMBOLS[self]


_SYMBOLS: Final = {Mark.GOOD: "!", Mark.MISTAKE: "?", Mark.INTERESTING: "!?"}


class TreeError(ValueError):
    """An operation the tree cannot do (unknown node, deleting the root, bad data)."""


def action_key(action: Mapping[str, Any]) -> str:
    """Canonical JSON of `action` without its id, time and user: equal keys, same move."""
    core = {k: v for k, v in action.items() if k not in _IGNORED_KEYS}
    return json.dumps(core, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(eq=False)
class Node:
    """One position: the root, or the position after `action`."""

    id: int
    action: ActionDict | None
    """None only for the root."""
    parent: Node | None = None
    children: list[Node] = field(default_factory=list)
    """Main-line child first, then the variations in the order they were made."""
    name: str = ""
    note: str = ""
    marks: list[Mark] = field(default_factory=list)
    digest: str | None = None
    """State digest after this node's action (None until computed)."""
    last_child: Node | None = None
    """The child visited last (what redo follows)."""
    depth: int = 0
    """Number of actions from the root."""
    _tree: VariationTree | None = field(default=None, repr=False)
    """The tree holding this node (its main-line cache answers `is_main_line`)."""

    @property
    def is_root(self) -> bool:
        """True for the start position."""
        return self.parent is None

    @property
    def type(self) -> str:
        """The action type (``""`` for the root)."""
        return "" if self.action is None else str(self.action.get("type", ""))

    @property
    def is_main_line(self) -> bool:
        """True when every node from the root to this one is a first child.

        O(1) through the tree's cached main-line set (rebuilt after a promote,
        reorder or delete); a node outside a tree walks up to the root.
        """
        tree = self._tree
        if tree is not None and tree._nodes.get(self.id) is self:
            return self.id in tree._main_line_ids()
        node: Node = self
        while node.parent is not None:
            if node.parent.children[0] is not node:
                return False
            node = node.parent
        return True

    @property
    def branch_index(self) -> int:
        """Position among the parent's children (0: main line)."""
        return 0 if self.parent is None else self.parent.children.index(self)

    def walk(self) -> Iterator[Node]:
        """This node and its descendants, depth first, main line first."""
        stack: list[Node] = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def __repr__(self) -> str:
        return f"Node({self.id}, {self.type or 'root'}, depth={self.depth})"


TreeListener = Callable[[str, "Node | None"], None]
"""Called as ``listener(event, node)``; events: ``"current"``, ``"added"``,
``"removed"``, ``"changed"`` (name/note/marks), ``"reordered"``, ``"reset"``."""


class VariationTree:
    """A game's actions as a tree, with a current node."""

    def __init__(self) -> None:
        self.root = Node(ROOT_ID, None)
        self.root._tree = self
        self._nodes: dict[int, Node] = {ROOT_ID: self.root}
        self._next_id = ROOT_ID + 1
        self._next_action_id = 1
        self._current = self.root
        self._by_digest: dict[str, set[int]] = {}
        self._listeners: list[TreeListener] = []
        self._main_ids: set[int] | None = None
        """Ids on the main line (root included); None until asked for or after a change."""

    # -- listeners --------------------------------------------------------------------
    def subscribe(self, listener: TreeListener) -> None:
        """Call `listener` after every change."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: TreeListener) -> None:
        """Stop calling `listener`."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _emit(self, event: str, node: Node | None) -> None:
        for listener in list(self._listeners):
            listener(event, node)

    # -- queries ----------------------------------------------------------------------
    @property
    def current(self) -> Node:
        """The node shown and played from."""
        return self._current

    def node(self, node_id: int) -> Node:
        """Node by id.

        Raises:
            TreeError: no such node.
        """
        found = self._nodes.get(node_id)
        if found is None:
            raise TreeError(f"no node {node_id}")
        return found

    def __contains__(self, node: object) -> bool:
        return isinstance(node, Node) and self._nodes.get(node.id) is node

    def __len__(self) -> int:
        """Number of nodes, the root included."""
        return len(self._nodes)

    def nodes(self) -> Iterator[Node]:
        """Every node, depth first, main line first."""
        return self.root.walk()

    def path(self, node: Node | None = None) -> list[Node]:
        """The nodes from the root (excluded) to `node` (included; default: current)."""
        target = self._current if node is None else self._own(node)
        out: list[Node] = []
        walk: Node | None = target
        while walk is not None and walk.parent is not None:
            out.append(walk)
            walk = walk.parent
        out.reverse()
        return out

    def actions(self, node: Node | None = None) -> list[ActionDict]:
        """The actions of the line to `node` (default: current), in play order."""
        return [n.action for n in self.path(node) if n.action is not None]

    def line(self, node: Node | None = None) -> list[Node]:
        """The whole line through `node`: its path, then onwards along the children
        visited last (main line where none was visited)."""
        start = self._current if node is None else self._own(node)
        out = self.path(start)
        walk = start
        while walk.children:
            walk = walk.last_child or walk.children[0]
            out.append(walk)
        return out

    def main_line(self) -> list[Node]:
        """The first child at every node, from the root (excluded)."""
        out: list[Node] = []
        walk = self.root
        while walk.children:
            walk = walk.children[0]
            out.append(walk)
        return out

    def leaves(self) -> list[Node]:
        """Nodes without children (the end of every line)."""
        return [n for n in self.nodes() if not n.children]

    def siblings(self, node: Node | None = None) -> list[Node]:
        """The parent's children (the node itself included; the root alone)."""
        target = self._current if node is None else self._own(node)
        return [target] if target.parent is None else list(target.parent.children)

    def can_undo(self) -> bool:
        """True unless at the root."""
        return self._current.parent is not None

    def can_redo(self) -> bool:
        """True when the current node has a child."""
        return bool(self._current.children)

    def find_child(self, node: Node, action: Mapping[str, Any]) -> Node | None:
        """The child of `node` holding the same action (id and time ignored)."""
        key = action_key(action)
        for child in node.children:
            if child.action is not None and action_key(child.action) == key:
                return child
        return None

    # -- moving -----------------------------------------------------------------------
    def go_to(self, node: Node) -> Node:
        """Make `node` current; redo from any of its ancestors now leads back to it."""
        target = self._own(node)
        walk = target
        while walk.parent is not None:
            walk.parent.last_child = walk
            walk = walk.parent
        if target is not self._current:
            self._current = target
            self._emit("current", target)
        return target

    def undo(self) -> Node | None:
        """Step back one action along the line; None at the root."""
        parent = self._current.parent
        if parent is None:
            return None
        parent.last_child = self._current
        self._current = parent
        self._emit("current", parent)
        return parent

    def redo(self) -> Node | None:
        """Step forward along the branch visited last; None at a leaf."""
        node = self._current
        if not node.children:
            return None
        child = node.last_child or node.children[0]
        self._current = child
        self._emit("current", child)
        return child

    def next_sibling(self, step: int = 1) -> Node | None:
        """Move to the sibling `step` places after the current node (negative: before),
        keeping to the first/last; None when there is no other sibling."""
        node = self._current
        if node.parent is None:
            return None
        siblings = node.parent.children
        index = max(0, min(len(siblings) - 1, siblings.index(node) + step))
        if siblings[index] is node:
            return None
        return self.go_to(siblings[index])

    def to_start(self) -> Node:
        """Go to the root (Home)."""
        return self.go_to(self.root)

    def to_end(self) -> Node:
        """Go to the end of the current line (End)."""
        return self.go_to(self.line()[-1] if self.line() else self.root)

    # -- changing ---------------------------------------------------------------------
    def play(self, action: Mapping[str, Any], *, digest: str | None = None) -> Node:
        """Play `action` from the current node and move to it.

        An existing child with the same action (id, time and user ignored) is
        followed; otherwise a new child is added after the existing ones (the
        main line when it is the first). The action is copied; a missing
        ``id`` is set above every id in the tree, so ids grow along any line.
        """
        parent = self._current
        existing = self.find_child(parent, action)
        if existing is not None:
            if digest is not None and existing.digest is None:
                self.set_digest(existing, digest)
            parent.last_child = existing
            self._current = existing
            self._emit("current", existing)
            return existing
        data = _plain(action)
        if not isinstance(data.get("id"), int) or isinstance(data.get("id"), bool):
            data["id"] = self._next_action_id
        self._next_action_id = max(self._next_action_id, int(data["id"]) + 1)
        node = self._add(parent, data, self._next_id)
        if digest is not None:
            self.set_digest(node, digest)
        parent.last_child = node
        self._current = node
        self._emit("added", node)
        self._emit("current", node)
        return node

    def add_line(self, actions: Sequence[Mapping[str, Any]], start: Node | None = None
                 ) -> list[Node]:
        """Play `actions` one after another from `start` (default: current); the nodes.

        The current node ends at the last one.
        """
        if start is not None:
            self.go_to(start)
        return [self.play(a) for a in actions]

    def merge_line(self, actions: Sequence[Mapping[str, Any]]) -> Node:
        """Take in a line from elsewhere (a friend's e-mail move): play `actions` from
        the start, following the nodes that already hold the same moves, make it the
        main line and go to its end; the node there.

        Nothing is removed or renamed: names, notes, marks and every other line
        stay; your own line, where it differs, stays beside the new main line.
        """
        end = self.add_line(actions, self.root)[-1] if actions else self.root
        self.promote(end)
        self.go_to(end)
        return end

    def copy(self) -> VariationTree:
        """An independent copy (nodes, names, notes, marks, digests, the current node;
        no listeners)."""
        return VariationTree.from_data(self.to_data())

    def promote(self, node: Node) -> None:
        """Make the line through `node` the main line (first child at every step)."""
        walk = self._own(node)
        changed = False
        while walk.parent is not None:
            siblings = walk.parent.children
            if siblings[0] is not walk:
                siblings.remove(walk)
                siblings.insert(0, walk)
                changed = True
            walk = walk.parent
        if changed:
            self._main_ids = None
            self._emit("reordered", node)

    def move_branch(self, node: Node, step: int) -> None:
        """Move `node` `step` places among its siblings (negative: towards the main line)."""
        target = self._own(node)
        if target.parent is None:
            return
        siblings = target.parent.children
        index = siblings.index(target)
        new = max(0, min(len(siblings) - 1, index + step))
        if new != index:
            siblings.insert(new, siblings.pop(index))
            self._main_ids = None
            self._emit("reordered", target)

    def delete(self, node: Node) -> int:
        """Remove `node` and everything after it; the number of nodes removed.

        The current node moves to `node`'s parent if it was among them.

        Raises:
            TreeError: `node` is the root (there is always a start position).
        """
        target = self._own(node)
        parent = target.parent
        if parent is None:
            raise TreeError("the start position cannot be deleted")
        removed = list(target.walk())
        parent.children.remove(target)
        self._main_ids = None
        if parent.last_child is target:
            parent.last_child = None
        current_gone = False
        for gone in removed:
            del self._nodes[gone.id]
            if gone.digest is not None:
                ids = self._by_digest.get(gone.digest)
                if ids is not None:
                    ids.discard(gone.id)
                    if not ids:
                        del self._by_digest[gone.digest]
            current_gone = current_gone or gone is self._current
        self._emit("removed", target)
        if current_gone:
            self._current = parent
            self._emit("current", parent)
        return len(removed)

    def set_name(self, node: Node, name: str) -> None:
        """Name the branch starting at `node` (empty: no name)."""
        self._own(node).name = name.strip()
        self._emit("changed", node)

    def set_note(self, node: Node, note: str) -> None:
        """Comment on `node` (empty: none)."""
        self._own(node).note = note
        self._emit("changed", node)

    def set_marks(self, node: Node, marks: Sequence[Mark | str]) -> None:
        """Replace the marks of `node` (kept in `Mark` order, no repeats)."""
        wanted = {Mark(m) for m in marks}
        self._own(node).marks = [m for m in Mark if m in wanted]
        self._emit("changed", node)

    def toggle_mark(self, node: Node, mark: Mark | str) -> bool:
        """Add or remove one mark; True when it is now set."""
        target = self._own(node)
        m = Mark(mark)
        if m in target.marks:
            self.set_marks(target, [x for x in target.marks if x is not m])
            return False
        self.set_marks(target, [*target.marks, m])
        return True

    # -- transpositions ---------------------------------------------------------------
    def set_digest(self, node: Node, digest: str, *, notify: bool = False) -> None:
        """Record the state digest of `node` (see `desk18xx.engine.digest`).

        With `notify`, listeners hear ``"changed"`` when it makes `node` a
        transposition of another node (views mark both).
        """
        target = self._own(node)
        if target.digest == digest:
            return
        if target.digest is not None:
            self._by_digest.get(target.digest, set()).discard(target.id)
        target.digest = digest
        same = self._by_digest.setdefault(digest, set())
        same.add(target.id)
        if notify and len(same) > 1:
            self._emit("changed", target)

    def transpositions(self, node: Node | None = None) -> list[Node]:
        """Other nodes with the same state digest as `node` (default: current),
        in id order: the same position reached by another order of actions."""
        target = self._current if node is None else self._own(node)
        if target.digest is None:
            return []
        ids = self._by_digest.get(target.digest, set())
        return [self._nodes[i] for i in sorted(ids) if i != target.id]

    def transposition_groups(self) -> list[list[Node]]:
        """Every set of two or more nodes sharing a digest."""
        return [[self._nodes[i] for i in sorted(ids)]
                for ids in self._by_digest.values() if len(ids) > 1]

    # -- plain data -------------------------------------------------------------------
    def to_data(self) -> dict[str, Any]:
        """Plain data (the ``study`` section of a save without hashes)."""
        nodes: list[dict[str, Any]] = []
        for node in self.nodes():
            if node.parent is None:
                continue
            entry: dict[str, Any] = {"id": node.id, "parent": node.parent.id,
                                     "action": node.action}
            if node.name:
                entry["name"] = node.name
            if node.note:
                entry["note"] = node.note
            if node.marks:
                entry["marks"] = [m.value for m in node.marks]
            if node.digest is not None:
                entry["digest"] = node.digest
            nodes.append(entry)
        data: dict[str, Any] = {"current": self._current.id, "nodes": nodes}
        if self.root.note:
            data["root_note"] = self.root.note
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> VariationTree:
        """Rebuild a tree from `to_data` output (children in their listed order).

        Raises:
            TreeError: unknown parent, repeated id, missing action, bad mark.
        """
        tree = cls()
        for index, entry in enumerate(data.get("nodes", ())):
            where = f"nodes[{index}]"
            try:
                node_id = entry["id"]
                parent = tree._nodes.get(entry["parent"])
                action = entry["action"]
            except (KeyError, TypeError) as error:
                raise TreeError(f"{where}: missing {error}") from error
            if not isinstance(node_id, int) or isinstance(node_id, bool) or node_id <= ROOT_ID:
                raise TreeError(f"{where}.id: must be a positive integer")
            if node_id in tree._nodes:
                raise TreeError(f"{where}.id: {node_id} is used twice")
            if parent is None:
                raise TreeError(f"{where}.parent: no earlier node {entry['parent']!r}")
            if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
                raise TreeError(f"{where}.action: must be a mapping with a string type")
            node = tree._add(parent, _plain(action), node_id)
            node.name = str(entry.get("name") or "")
            node.note = str(entry.get("note") or "")
            try:
                node.marks = [m for m in Mark if m in {Mark(x) for x in entry.get("marks") or ()}]
            except ValueError as error:
                raise TreeError(f"{where}.marks: {error}") from error
            digest = entry.get("digest")
            if isinstance(digest, str) and not _LEGACY_DIGEST.fullmatch(digest):
                tree.set_digest(node, digest)  # legacy ones are recomputed when needed
            action_id = node.action.get("id") if node.action else None
            if isinstance(action_id, int) and not isinstance(action_id, bool):
                tree._next_action_id = max(tree._next_action_id, action_id + 1)
        tree.root.note = str(data.get("root_note") or "")
        current = data.get("current", ROOT_ID)
        tree.go_to(tree._nodes.get(current, tree.root) if isinstance(current, int) else tree.root)
        return tree

    # -- internals --------------------------------------------------------------------
    def _own(self, node: Node) -> Node:
        if self._nodes.get(node.id) is not node:
            raise TreeError(f"{node!r} is not in this tree (deleted?)")
        return node

    def _main_line_ids(self) -> set[int]:
        """The cached ids of the main line (root included)."""
        if self._main_ids is None:
            self._main_ids = {self.root.id, *(n.id for n in self.main_line())}
        return self._main_ids

    def _add(self, parent: Node, action: ActionDict, node_id: int) -> Node:
        node = Node(node_id, action, parent, depth=parent.depth + 1, _tree=self)
        parent.children.append(node)
        main = self._main_ids
        if main is not None and not parent.children[1:] and parent.id in main:
            main.add(node_id)  # a first child of a main-line node extends the main line
        self._nodes[node_id] = node
        self._next_id = max(self._next_id, node_id + 1)
        return node


def _plain(action: Mapping[str, Any]) -> ActionDict:
    """A deep, plain-JSON copy of `action`."""
    copied = json.loads(json.dumps(action, ensure_ascii=False))
    if not isinstance(copied, dict):
        raise TreeError("an action must be a mapping")
    return copied


# --- from a recorded game -----------------------------------------------------------

def tree_from_log(raw: Sequence[Mapping[str, Any]]) -> VariationTree:
    """A study from a raw action log (18xx.games export or save, undo/redo included).

    The live line (what `desk18xx.engine.log.filter_log` keeps) becomes the
    current line, and every action that was taken back becomes a variation
    where it was played: nothing in the log is lost. Chat is left out.
    The main line is the live line.

    Raises:
        desk18xx.engine.log.LogError: the log cannot be filtered.
    """
    from desk18xx.engine.log import MESSAGE, REDO, UNDO, LogError

    tree = VariationTree()
    live: list[tuple[int, Node]] = []
    """(raw position, node) of the live actions: always a path from the root."""
    redo_stack: list[list[tuple[int, Node]]] = []
    for index, entry in enumerate(raw):
        kind = entry.get("type")
        if not isinstance(kind, str):
            raise LogError(index, f"'type' must be a string, not {kind!r}")
        if kind == MESSAGE:
            continue
        if kind == UNDO:
            target = _undo_position(raw, live, index, entry.get("action_id"))
            keep = [pair for pair in live if pair[0] < target]
            redo_stack.append(live[len(keep):])
            live = keep
        elif kind == REDO:
            if not redo_stack:
                raise LogError(index, "redo with nothing to redo")
            live = live + redo_stack.pop()
        else:
            redo_stack.clear()
            tree.go_to(live[-1][1] if live else tree.root)
            node = tree.play(entry)
            if node.action != entry:  # the same move played again: keep the live copy
                node.action = _plain(entry)
                action_id = node.action.get("id")
                if isinstance(action_id, int) and not isinstance(action_id, bool):
                    tree._next_action_id = max(tree._next_action_id, action_id + 1)
            live.append((index, node))
    end = live[-1][1] if live else tree.root
    tree.promote(end)
    tree.go_to(end)
    return tree


def _undo_position(raw: Sequence[Mapping[str, Any]], live: Sequence[tuple[int, Node]],
                   index: int, action_id: object) -> int:
    """First raw position an undo takes back (as `desk18xx.engine.log` does)."""
    from desk18xx.engine.log import LogError

    if action_id is None or action_id is False:
        return live[-1][0] if live else 0
    if isinstance(action_id, bool) or not isinstance(action_id, int):
        raise LogError(index, f"undo 'action_id' must be an integer, not {action_id!r}")
    if action_id == 0:
        return 0
    for position, entry in enumerate(raw):
        if entry.get("id") == action_id:
            return position + 1
    raise LogError(index, f"undo to action_id {action_id}, which is not in the log")


__all__ = [
    "ROOT_ID",
    "ActionDict",
    "Mark",
    "Node",
    "TreeError",
    "VariationTree",
    "action_key",
    "tree_from_log",
]
