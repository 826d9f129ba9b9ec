"""Fast games for any node of a variation tree: snapshots along each line, LRU.

`PositionCache.game_at` returns the game at a node by loading the nearest
snapshot on the node's path and replaying the few actions after it.  Where
snapshots are taken is decided by cost, not only by count: while replaying,
the time spent since the last snapshot is summed, and a snapshot is taken
once it reaches ``budget`` seconds (or ``every`` actions, or at a branch
point, or at the node asked for).  A jump therefore replays at most about
``budget`` of engine time, however slow single actions are (a late 1867
tile lay takes over 100 ms), plus one snapshot load (about a millisecond).

A snapshot is a pickle of the game in which the immutable title data
(frozen dataclasses such as tile and hex definitions, read-only mappings)
is not copied but referred to, so every snapshot shares it with the live
game: snapshots are small and quick, and caches keyed by object identity
(tile shapes) stay valid.  `Game.copy` is not used: it deep-copies that
data too.

Snapshots beyond ``max_snapshots`` are dropped least recently used first
(the start position never); a dropped one is simply rebuilt when needed.
"""

from __future__ import annotations

import dataclasses
import io
import pickle
import time
import types
from collections import OrderedDict
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any, Final

from desk18xx.engine.actions import action_from_dict
from desk18xx.engine.digest import state_digest
from desk18xx.engine.game import Game
from desk18xx.engine.variations import Node, VariationTree

_ATOMIC: Final = frozenset({str, int, float, bool, type(None), bytes, tuple, list, dict, set,
                            frozenset})
"""Types never shared by reference (containers are checked through their owner)."""


class SharedData:
    """Immutable objects that snapshots refer to instead of copying."""

    def __init__(self) -> None:
        self.objects: list[Any] = []
        self._index: dict[int, int] = {}
        self._static: dict[type, bool] = {}

    def is_static(self, obj: Any) -> bool:
        """True for a read-only mapping or a frozen dataclass holding only immutable
        values (decided once per class, from its first instance)."""
        cls = type(obj)
        known = self._static.get(cls)
        if known is None:
            known = _immutable(obj, 0)
            self._static[cls] = known
        return known

    def ref(self, obj: Any) -> int:
        """The index of `obj` in the table (added on first use)."""
        key = id(obj)
        index = self._index.get(key)
        if index is None:
            index = len(self.objects)
            self.objects.append(obj)
            self._index[key] = index
        return index


def _immutable(obj: Any, depth: int) -> bool:
    if depth > 6:
        return False
    if isinstance(obj, types.MappingProxyType):
        return depth == 0 or all(_immutable(v, depth + 1) for v in list(obj.values())[:8])
    if isinstance(obj, str | int | float | bool | bytes | Enum) or obj is None:
        return True
    if isinstance(obj, tuple | frozenset):
        return all(_immutable(v, depth + 1) for v in obj)
    if isinstance(obj, type | types.FunctionType):
        return True
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        params = getattr(type(obj), "__dataclass_params__", None)
        if params is None or not params.frozen:
            return False
        return all(_immutable(getattr(obj, f.name), depth + 1) for f in dataclasses.fields(obj))
    return False


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, shared: SharedData) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._shared = shared

    def persistent_id(self, obj: Any) -> int | None:
        if type(obj) in _ATOMIC:
            return None
        if self._shared.is_static(obj):
            return self._shared.ref(obj)
        return None


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, shared: SharedData) -> None:
        super().__init__(file)
        self._shared = shared

    def persistent_load(self, pid: Any) -> Any:
        return self._shared.objects[pid]


def freeze(game: Game, shared: SharedData) -> bytes:
    """A snapshot of `game` (bytes; immutable title data by reference to `shared`)."""
    buffer = io.BytesIO()
    _Pickler(buffer, shared).dump(game)
    return buffer.getvalue()


def thaw(snapshot: bytes, shared: SharedData) -> Game:
    """A new, independent game from `freeze` output."""
    game = _Unpickler(io.BytesIO(snapshot), shared).load()
    assert isinstance(game, Game)
    return game


@dataclasses.dataclass
class CacheStats:
    """Counters for tests and the benchmark."""

    hits: int = 0
    """Jumps served straight from a snapshot of the node."""
    replayed: int = 0
    """Actions replayed in total."""
    snapshots: int = 0
    """Snapshots taken in total."""
    evicted: int = 0


class PositionCache:
    """Games for the nodes of one tree.

    Args:
        tree: the variation tree; the cache follows its deletions.
        new_game: makes the start position (a fresh game of the setup).
        budget: seconds of replay after which a snapshot is taken.
        every: a snapshot at least every this many actions along a line.
        max_snapshots: LRU bound (the start position is kept).
        digests: record each replayed node's state digest on the tree.
        on_replay: called as ``on_replay(node, game)`` before each replayed action,
            with the game in the position before it (the session records the
            round each action was taken in).
    """

    def __init__(self, tree: VariationTree, new_game: Callable[[], Game], *,
                 budget: float = 0.01, every: int = 12, max_snapshots: int = 4096,
                 digests: bool = True,
                 on_replay: Callable[[Node, Game], None] | None = None) -> None:
        self.tree = tree
        self.shared = SharedData()
        self.budget = budget
        self.every = every
        self.max_snapshots = max_snapshots
        self.digests = digests
        self.on_replay = on_replay
        self.stats = CacheStats()
        self._snapshots: OrderedDict[int, bytes] = OrderedDict()
        self._root = freeze(new_game(), self.shared)
        self._snapshots[tree.root.id] = self._root
        tree.subscribe(self._on_tree)

    # -- queries ----------------------------------------------------------------------
    def game_at(self, node: Node) -> Game:
        """A new game in the position of `node` (the caller may change it).

        Raises:
            desk18xx.engine.errors.IllegalAction (or another engine error):
                an action on the path is refused by the rules.
        """
        path = self.tree.path(node)
        start = len(path)
        while start > 0 and path[start - 1].id not in self._snapshots:
            start -= 1
        base_id = path[start - 1].id if start > 0 else self.tree.root.id
        snapshot = self._snapshots[base_id]
        self._snapshots.move_to_end(base_id)
        game = thaw(snapshot, self.shared)
        if start == len(path):
            self.stats.hits += 1
            return game
        spent = 0.0
        since = 0
        for index in range(start, len(path)):
            step = path[index]
            began = time.perf_counter()
            assert step.action is not None
            if self.on_replay is not None:
                self.on_replay(step, game)
            game.process(action_from_dict(step.action))
            spent += time.perf_counter() - began
            since += 1
            self.stats.replayed += 1
            if self.digests and step.digest is None:
                self.tree.set_digest(step, state_digest(game))
            last = index == len(path) - 1
            if last or spent >= self.budget or since >= self.every or len(step.children) > 1:
                self._store(step, game)
                spent, since = 0.0, 0
        return game

    def has_snapshot(self, node: Node) -> bool:
        """True when `node`'s position is stored."""
        return node.id in self._snapshots

    def __len__(self) -> int:
        """Number of snapshots held."""
        return len(self._snapshots)

    def snapshot_bytes(self) -> int:
        """Total size of the snapshots."""
        return sum(len(s) for s in self._snapshots.values())

    # -- changes ----------------------------------------------------------------------
    def remember(self, node: Node, game: Game, *, cost: float = 0.0) -> None:
        """Tell the cache that `game` is the position of `node` (just played there).

        A snapshot is taken when `cost` (seconds the action took) is over the
        budget, when `node` is at a multiple of ``every``, or when its parent
        is a branch point; the digest is recorded on the tree either way.
        """
        if self.digests and node.digest is None:
            self.tree.set_digest(node, state_digest(game))
        parent = node.parent
        if (cost >= self.budget or node.depth % self.every == 0
                or (parent is not None and len(parent.children) > 1)):
            self._store(node, game)

    def warm(self, node: Node | None = None) -> int:
        """Replay every line below `node` (default: the root) once, taking snapshots
        as a jump would; the number of nodes visited. Makes every later jump quick."""
        start = self.tree.root if node is None else node
        count = 0
        for leaf in [n for n in start.walk() if not n.children]:
            self.game_at(leaf)
            count += 1
        return count

    def clear(self) -> None:
        """Drop every snapshot but the start position."""
        self._snapshots.clear()
        self._snapshots[self.tree.root.id] = self._root

    def close(self) -> None:
        """Stop following the tree."""
        self.tree.unsubscribe(self._on_tree)

    # -- internals --------------------------------------------------------------------
    def _store(self, node: Node, game: Game) -> None:
        if node.id in self._snapshots:
            self._snapshots.move_to_end(node.id)
            return
        self._snapshots[node.id] = freeze(game, self.shared)
        self.stats.snapshots += 1
        while len(self._snapshots) > self.max_snapshots:
            oldest = next(iter(self._snapshots))
            if oldest == self.tree.root.id:
                self._snapshots.move_to_end(oldest)
                oldest = next(iter(self._snapshots))
            del self._snapshots[oldest]
            self.stats.evicted += 1

    def _on_tree(self, event: str, node: Node | None) -> None:
        if event == "removed" and node is not None:
            for gone in node.walk():
                self._snapshots.pop(gone.id, None)
        elif event == "reset":
            self.clear()


def snapshot_sizes(cache: PositionCache) -> Mapping[int, int]:
    """Node id -> snapshot size in bytes (for diagnostics)."""
    return {k: len(v) for k, v in cache._snapshots.items()}


__all__ = ["CacheStats", "PositionCache", "SharedData", "freeze", "snapshot_sizes", "thaw"]
