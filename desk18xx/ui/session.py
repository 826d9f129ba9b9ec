"""The one object that owns a game for the user interface (STYLE.md §6).

:class:`GameSession` holds the setup and the append-only action log of the
line being played, and the :class:`~desk18xx.engine.game.Game` that log
folds to.  It is the only caller of ``Game.process``.  Views submit
:class:`~desk18xx.engine.actions.Action` values; undo and redo append
``undo``/``redo`` entries to the log and rebuild the game by replaying the
live actions (STYLE.md §5), never by inverse operations.

The history is a :class:`~desk18xx.engine.variations.VariationTree`
(:attr:`GameSession.tree`), so no line is ever lost: undo steps back along
the line, acting after an undo starts a branch, redo follows the branch
visited last, and any node can be jumped to (:meth:`GameSession.go_to`, or
``tree.go_to`` from a view: the session follows the tree's current node).
The linear log (:class:`Line`, 18xx.games style, with ``undo``/``redo``
entries) is kept in step with the tree's current line for autosave, e-mail
and export; :meth:`GameSession.save` writes the whole tree with its notes
(a study file, `desk18xx.io.study`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal

from desk18xx.engine.actions import Action, action_from_dict
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game, GameSetup
from desk18xx.engine.log import LogError, filter_log
from desk18xx.engine.positions import PositionCache
from desk18xx.engine.programs import run_programs
from desk18xx.engine.variations import Node, VariationTree, action_key, tree_from_log
from desk18xx.io.replaying import OpenedSave

#: Live actions between two snapshots of the game (undo replays at most this many).
SNAPSHOT_EVERY = 25

#: Milliseconds without a change after which the position is copied (the next move's undo
#: then replays nothing).
IDLE_SNAPSHOT_MS = 300

#: Milliseconds between the idle copy of the live position and the one before it.
IDLE_NEXT_MS = 20

#: Idle copies kept (the oldest goes first; the regular snapshots stay).
IDLE_SNAPSHOTS = 4

#: Snapshots kept for the nodes of the history tree (jumps between lines replay from them).
NODE_SNAPSHOTS = 256

#: While replaying a whole line (opening a game), a position is kept for jumps this often.
POSITION_EVERY = 10

#: Seconds of replay after which a jump keeps the position reached (storing one
#: costs about 8 ms in a late 1822CA game, so not after every action).
POSITION_BUDGET = 0.025

#: Options every imported 18xx.games game is played with (its rule quirks).
IMPORT_OPTIONS = ("compat_18xxgames",)

#: Makes a fresh game from a setup (the title registry in the app, a fake in tests).
GameFactory = Callable[[GameSetup], Game]

#: Errors a broken engine or a bad action can raise while processing.
_ENGINE_ERRORS = (IllegalAction, KeyError, ValueError, AssertionError, StopIteration,
                  IndexError, TypeError, AttributeError)


@dataclass(frozen=True, slots=True)
class RoundKey:
    """Which round an action was taken in (for log headers)."""

    kind: str
    turn: int
    number: int


def round_key(game: Game) -> RoundKey:
    """The round ``game`` is in now."""
    r = game.round
    return RoundKey("" if r is None else r.kind.value, game.turn,
                    0 if r is None else r.round_num)


def default_factory(setup: GameSetup) -> Game:
    """A new game of ``setup.title`` from the title registry."""
    from desk18xx.titles import find_title

    game = find_title(setup.title).new_game(setup)
    game.narrating = True  # the log tells each action's consequences
    return game


@dataclass
class Line:
    """One line of play: the raw log (18xx.games dicts, undo/redo included)."""

    raw: list[dict[str, Any]] = field(default_factory=list)
    name: str = "main"
    _seen: tuple[int, int] = field(default=(0, 0), repr=False, compare=False)
    """(entries looked at, highest id among them): only new entries are read."""

    def next_id(self) -> int:
        """The id the next entry gets (above every id ever in the log)."""
        count, top = self._seen
        if count > len(self.raw):  # entries were taken out: read them all again
            count, top = 0, 0
        for entry in self.raw[count:]:
            found = entry.get("id")
            if isinstance(found, int) and not isinstance(found, bool) and found > top:
                top = found
        self._seen = (len(self.raw), top)
        return top + 1


class GameSession(QObject):
    """Owns the game being played and its action log.

    Args:
        factory: makes a fresh game from a setup.
        parent: Qt parent.

    Signals:
        state_changed(int): the game changed; the argument is the number of
            live actions.
        action_rejected(str): the engine refused an action; the reason.
        game_replaced(): a different game (new setup) was loaded.
        action_applied(int): a submitted action was applied (before state_changed).
    """

    #: The game changed; number of live (effective) actions.
    state_changed = Signal(int)
    #: The engine refused an action, with its reason.
    action_rejected = Signal(str)
    #: A new game replaced the old one (board and entities may differ).
    game_replaced = Signal()
    #: A submitted action was applied; number of live actions.
    action_applied = Signal(int)

    def __init__(self, factory: GameFactory | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._factory: GameFactory = factory or default_factory
        self._setup: GameSetup | None = None
        self._line = Line()
        self._game: Game | None = None
        self._live: list[Action] = []
        self._rounds: list[RoundKey] = []
        """The round each live action was taken in."""
        self._live_raw: list[Any] = []
        """The raw log entries of the live actions (the same objects as in the line)."""
        self._actions: dict[int, tuple[Any, Action]] = {}
        """id(raw entry) -> (entry, parsed action)."""
        self._snaps: dict[int, Game] = {}
        """Live-action count -> a copy of the game then, valid for the live prefix."""
        self._spare: tuple[int, Game, Game] | None = None
        """(count, the snapshot at count, a copy of it made in the player's pause): the
        game an undo to that count takes as the live game without copying (valid
        while that snapshot is in ``_snaps``)."""
        self._snapshots_ok = True
        self._node_snaps: OrderedDict[int, tuple[Game, tuple[RoundKey, ...]]] = OrderedDict()
        """Tree node id -> a copy of the game there and the rounds of its line."""
        self._positions: PositionCache | None = None
        """Pickled positions along the tree's lines: a jump to any node loads the
        nearest one and replays a few actions (`desk18xx.engine.positions`)."""
        self._node_rounds: dict[int, RoundKey] = {}
        """Tree node id -> the round its action was taken in."""
        self._node_actions: dict[int, Action] = {}
        """Tree node id -> its parsed action."""
        self._live_path: list[Node] | None = []
        """The tree nodes of the live actions (None: not known; jumps replay then)."""
        self._undone: list[list[Any]] = []
        """The log's redo stack as far as the session wrote it (top last; empty when
        unknown): the entries each ``undo`` took back, restored by a ``redo``."""
        self.source: str | None = None
        """File the game came from, if any."""
        self.tree = VariationTree()
        """The history: every line played, with notes and marks (current node = live end)."""
        self._moving = False
        """True while the session moves the tree itself (not a view's jump)."""
        self._fresh: Game | None = None
        """A fresh game of the setup, unused yet (see :meth:`_new_start`)."""
        self._idle_snaps: list[int] = []
        """Live-action counts of the copies made while idle (oldest first)."""
        self._idle_timer = QTimer(self)
        self._idle_timer.setSingleShot(True)
        self._idle_timer.setInterval(IDLE_SNAPSHOT_MS)
        self._idle_timer.timeout.connect(self.idle_snapshot)
        self.state_changed.connect(self._idle_soon)
        self.tree.subscribe(self._on_tree)

    # -- queries -------------------------------------------------------------------------
    @property
    def has_game(self) -> bool:
        """True once a game is loaded."""
        return self._game is not None

    @property
    def game(self) -> Game:
        """The current game (read it; never mutate it).

        Raises:
            RuntimeError: no game is loaded.
        """
        if self._game is None:
            raise RuntimeError("no game loaded")
        return self._game

    @property
    def factory(self) -> GameFactory:
        """Makes a fresh game from a setup (for study mode's position cache)."""
        return self._factory

    @property
    def setup(self) -> GameSetup | None:
        """The setup of the current game."""
        return self._setup

    @property
    def line(self) -> Line:
        """The line being played."""
        return self._line

    def actions(self) -> list[Action]:
        """The live actions, in order."""
        return list(self._live)

    def rounds(self) -> list[RoundKey]:
        """For each live action, the round it was taken in."""
        return list(self._rounds)

    def can_undo(self) -> bool:
        """True when there is a live action to take back."""
        return bool(self._live)

    def can_redo(self) -> bool:
        """True when a line goes on from the current position."""
        return self._game is not None and self.tree.can_redo()

    def node_at(self, count: int) -> Node | None:
        """The history tree's node of live action ``count`` (1-based), or None."""
        if not 0 < count <= len(self._live):
            return None
        path = self._live_path
        if path is None or len(path) != len(self._live):
            path = self.tree.path()
            if len(path) != len(self._live):
                return None
        return path[count - 1]

    @property
    def positions(self) -> PositionCache | None:
        """Positions of the history tree's nodes (study mode's views share it)."""
        return self._positions

    def game_at(self, count: int) -> Game:
        """The game after the first ``count`` live actions (for looking back).

        The result is a separate object; the current game is untouched.
        """
        if self._setup is None:
            raise RuntimeError("no game loaded")
        count = max(0, min(count, len(self._live)))
        if count == len(self._live) and self._game is not None:
            return self._game
        path, cache = self._live_path, self._positions
        if count and cache is not None and path is not None and len(path) == len(self._live):
            try:
                return cache.game_at(path[count - 1])
            except _ENGINE_ERRORS:
                pass
        start = max((k for k in self._snaps if k <= count), default=0)
        game = self._snaps[start].copy() if start else self._factory(self._setup)
        for action in self._live[start:count]:
            try:
                game.process(action)
            except _ENGINE_ERRORS:
                break
        return game

    # -- commands ------------------------------------------------------------------------
    def new_game(self, setup: GameSetup, raw: Sequence[dict[str, Any]] = (),
                 tree: VariationTree | None = None) -> None:
        """Start ``setup`` and replay ``raw`` (a log with 18xx.games field names).

        The history tree is ``tree`` (a study; ``raw`` is then its main line) or
        is made from ``raw``, whose undone actions become variations.

        Raises:
            IllegalAction: the setup is refused (player count, title).
            LogError: ``raw`` cannot be filtered.
        """
        self._setup = setup
        self._line = Line(list(raw))
        self._live, self._live_raw, self._rounds = [], [], []
        self._actions, self._snaps, self._snapshots_ok = {}, {}, True
        self._idle_snaps = []
        self._node_snaps.clear()
        self.tree.unsubscribe(self._on_tree)
        self.tree = tree if tree is not None else tree_from_log(self._line.raw)
        self.tree.subscribe(self._on_tree)
        self._reset_positions()
        self._rebuild()
        if tree is not None:
            self._write_line(tree.current)
            self._rebuild()
        self._align_tree()
        self.game_replaced.emit()
        self.state_changed.emit(len(self._live))

    def load(self, path: str | Path) -> None:
        """Open a save (checked: hash chain, replay, state digest) or an 18xx.games export.

        Raises:
            OSError, ValueError: the file cannot be read or is not a game
                (save errors are ``ValueError`` subclasses naming the place).
        """
        from desk18xx.io.filereader import FileKind, kind_of

        if kind_of(path) is not FileKind.EXPORT:  # the detection the tools use too
            from desk18xx.io.replaying import open_save

            self.load_opened(path, open_save(path))
            return
        from desk18xx.io.import_18xxgames import load_export
        from desk18xx.io.study import study_from_export

        imported = load_export(path)
        options = tuple(imported.optional_rules) + IMPORT_OPTIONS
        setup = GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                          imported.seed, options)
        _header, tree = study_from_export(path)  # what its players took back: variations
        self.source = str(path)
        self.new_game(setup, [dict(a) for a in imported.actions], tree)

    def load_opened(self, path: str | Path, opened: OpenedSave) -> None:
        """Show a save that `desk18xx.io.replaying.open_save` has checked and replayed.

        A save that this version's rules stop at an action (``opened.complete``
        false, from ``open_save(partial=True)``) opens at the last legal action
        as a new game line: the refused action and what followed it are left
        out, and `source` stays unset so that the file is never overwritten.
        """
        from desk18xx.io.study import game_setup, load_study

        raw = [dict(a) for a in opened.saved.actions]
        failure = opened.replayed.failure
        if failure is not None:
            self.source = None
            self.new_game(game_setup(opened.saved.header), raw[:failure.index])
            return
        tree = load_study(path, check_line=True).tree if opened.saved.study is not None \
            else None
        self.source = str(path)
        self.new_game(game_setup(opened.saved.header), raw, tree)

    def save(self, path: str | Path) -> None:
        """Write the whole history tree (every line, names, notes, marks) as a study
        file: its ``actions`` are the main line, so it opens as a plain game too.

        Raises:
            ValueError, OSError: nothing could be written (the old file is intact).
        """
        from desk18xx.io.replaying import digest_of
        from desk18xx.io.savefile import SavedPlayer, SaveHeader
        from desk18xx.io.study import save_study

        setup = self._setup
        if setup is None or self._game is None:
            raise ValueError("no game to save")
        header = SaveHeader(setup.title, tuple(SavedPlayer(pid, name) for pid, name
                                               in setup.players),
                            setup.seed, setup.variant, tuple(setup.options))
        main = self.tree.main_line()
        end = main[-1] if main else self.tree.root
        save_study(path, header, self.tree, digest_of(self.game_of(end)))
        self.source = str(path)

    def game_of(self, node: Node) -> Game:
        """The game at any node of the tree (the current game for the current node).

        Raises:
            IllegalAction (or another engine error): an action on its line is refused.
        """
        if self._setup is None:
            raise RuntimeError("no game loaded")
        path = self.tree.path(node)
        live = self.tree.path()
        same = 0
        while same < min(len(path), len(live)) and path[same] is live[same]:
            same += 1
        game = self.game_at(same)
        if same == len(path):
            return game
        if game is self._game:
            game = game.copy()
        for step in path[same:]:
            assert step.action is not None
            game.process(action_from_dict(step.action))
        return game

    def submit(self, action: Action) -> bool:
        """Process ``action``; on refusal emit :attr:`action_rejected` and return False."""
        if self._game is None:
            self.action_rejected.emit("no game is open")
            return False
        entry = action.to_dict()
        entry["id"] = self._line.next_id()
        before = self._game.actions_applied
        key = round_key(self._game)
        try:
            # programmed actions (a player's standing orders) it sets off ride along nested
            action = run_programs(self._game, action)
        except _ENGINE_ERRORS as exc:
            reason = str(exc) if isinstance(exc, IllegalAction) else (
                f"{type(exc).__name__}: {exc}")
            # a refused action may have changed state half way: rebuild to be safe
            if self._game.actions_applied != before:
                self._rebuild()
            self.action_rejected.emit(reason)
            return False
        if action.auto_actions:
            entry["auto_actions"] = [a.to_dict() for a in action.auto_actions]
        self._line.raw.append(entry)
        self._undone.clear()
        self._live.append(action)
        self._live_raw.append(entry)
        self._actions[id(entry)] = (entry, action)
        self._rounds.append(key)
        with self._session_moves():
            node = self.tree.play(entry)
        self._played(node, key, self._game, len(self._live))
        self._snapshot(len(self._live), self._game, node, self._rounds)
        self.action_applied.emit(len(self._live))
        self.state_changed.emit(len(self._live))
        return True

    def undo(self, count: int = 1) -> bool:
        """Step back ``count`` actions along the line (one ``undo`` entry each);
        nothing is lost: the line stays in the tree and redo returns to it."""
        if self._game is None or not self._live:
            return False
        entity = self._live[-1].entity
        for back in range(1, min(count, len(self._live)) + 1):
            self._line.raw.append({"type": "undo", "entity": entity,
                                   "id": self._line.next_id()})
            self._undone.append([self._live_raw[-back]])
            with self._session_moves():
                self.tree.undo()
        self._rebuild()
        self._align_tree()
        self.state_changed.emit(len(self._live))
        return True

    def redo(self, count: int = 1) -> bool:
        """Step forward ``count`` actions along the branch visited last."""
        if self._game is None or not self.tree.can_redo():
            return False
        target = self.tree.current
        for _ in range(count):
            if not target.children:
                break
            target = target.last_child or target.children[0]
        return self.go_to(target)

    def go_to(self, node: Node) -> bool:
        """Show the position of any node of the tree (and play on from there)."""
        if self._game is None:
            return False
        with self._session_moves():
            self.tree.go_to(node)
        self._follow(node)
        return True

    def undo_to(self, count: int) -> bool:
        """Go back so that ``count`` live actions remain."""
        return self.undo(len(self._live) - count) if count < len(self._live) else False

    # -- internals -----------------------------------------------------------------------
    @contextmanager
    def _session_moves(self) -> Iterator[None]:
        """The tree changes below are the session's own (it need not follow them)."""
        self._moving, before = True, self._moving
        try:
            yield
        finally:
            self._moving = before

    def _on_tree(self, event: str, node: Node | None) -> None:
        """A view moved the tree (a click in the tree dock, a deleted line): follow it."""
        if event == "current" and not self._moving and self._game is not None:
            self._follow(self.tree.current)

    def _follow(self, node: Node) -> None:
        """Make the live line the line to ``node`` and show it."""
        if not self._jump(node):
            self._write_line(node)
            self._rebuild()
        self._align_tree()
        self.state_changed.emit(len(self._live))

    # -- quick jumps (study mode) -------------------------------------------------------------
    def _reset_positions(self) -> None:
        """A new position cache for a new game or tree."""
        if self._positions is not None:
            self._positions.close()
        self._positions = None
        self._node_rounds, self._node_actions, self._live_path = {}, {}, []
        self._undone = []
        setup = self._setup
        self._fresh = None
        if setup is None:
            return
        try:
            # the cache pickles the start position at once: the same fresh game then
            # starts the replay that follows (one game made, not two, at a launch)
            fresh = self._factory(setup)
            self._positions = PositionCache(self.tree, lambda: fresh,
                                            budget=POSITION_BUDGET, digests=False,
                                            on_replay=self._replayed)
            self._fresh = fresh
        except Exception:  # noqa: BLE001 - a game that cannot be pickled: jumps replay
            self._positions = None

    def _new_start(self) -> Game:
        """A fresh game of the setup (the one the position cache was just given, once)."""
        fresh, self._fresh = self._fresh, None
        if fresh is not None and fresh.actions_applied == 0:
            return fresh
        assert self._setup is not None
        return self._factory(self._setup)

    def _replayed(self, node: Node, before: Game) -> None:
        """The position cache replays ``node``'s action: note its round."""
        self._node_rounds[node.id] = round_key(before)

    def _played(self, node: Node, key: RoundKey, game: Game, count: int,
                cost: float | None = None) -> None:
        """``node``'s action was applied (in round ``key``), giving ``game`` with
        ``count`` live actions: note it for quick jumps."""
        self._node_rounds[node.id] = key
        path = self._live_path
        if path is not None:
            if len(path) == count - 1:
                path.append(node)
            elif len(path) != count or path[-1] is not node:
                self._live_path = None
        cache = self._positions
        if cache is None:
            return
        if cost is None:  # a new move: the cache decides (cost, depth, branch point)
            cache.remember(node, game, cost=0.0)
        elif count % POSITION_EVERY == 0:
            cache.remember(node, game, cost=cache.budget)

    def _node_action(self, node: Node) -> Action:
        action = self._node_actions.get(node.id)
        if action is None:
            assert node.action is not None
            action = self._node_actions[node.id] = action_from_dict(node.action)
        return action

    def _jump(self, node: Node) -> bool:
        """Make ``node``'s line live from the position cache: the game comes from the
        nearest stored position, the log gets one undo and the line's actions again.
        False (nothing changed) when the slow way is needed."""
        cache, before = self._positions, self._live_path
        if cache is None or before is None or len(before) != len(self._live):
            return False
        path = self.tree.path(node)
        same = 0
        limit = min(len(path), len(before))
        while same < limit and path[same] is before[same]:
            same += 1
        try:
            game = cache.game_at(node)
        except _ENGINE_ERRORS:
            return False
        keys = [self._node_rounds.get(n.id) for n in path]
        rounds = [k for k in keys if k is not None]
        if len(rounds) != len(path):
            return False
        actions = [self._node_action(n) for n in path[same:]]
        entries = self._write_jump(same, path[same:])
        if entries is None:
            return False
        for entry, action in zip(entries, actions, strict=True):
            self._actions[id(entry)] = (entry, action)
        self._game = game
        self._live = self._live[:same] + actions
        self._live_raw = self._live_raw[:same] + entries
        self._rounds = rounds
        self._snaps = {k: g for k, g in self._snaps.items() if k <= same}
        self._live_path = path
        return True

    def _write_jump(self, same: int, rest: Sequence[Node]) -> list[dict[str, Any]] | None:
        """Log entries taking the live line back to its first ``same`` actions (one
        ``undo`` to an action id) and playing ``rest`` again; the new entries.
        None (nothing written) when the kept action has no id of its own."""
        raw = self._line.raw
        next_id = self._line.next_id()
        entity = self._live[-1].entity if self._live else "0"
        entries: list[dict[str, Any]] = []
        if same < len(self._live_raw):
            target = 0
            if same:
                kept = self._live_raw[same - 1]
                found = kept.get("id")
                if (not isinstance(found, int) or isinstance(found, bool) or found <= 0
                        or next((e for e in raw if e.get("id") == found), None) is not kept):
                    return None
                target = found
            raw.append({"type": "undo", "entity": entity, "action_id": target,
                        "id": next_id})
            next_id += 1
            self._undone.append(self._live_raw[same:])
        else:  # only forward: a redo where it restores exactly the next actions
            while self._undone and len(entries) < len(rest):
                group = self._undone[-1]
                nodes = rest[len(entries):len(entries) + len(group)]
                if len(nodes) != len(group) or any(
                        action_key(e) != action_key(n.action or {})
                        for e, n in zip(group, nodes, strict=True)):
                    break
                raw.append({"type": "redo", "entity": entity, "id": next_id})
                next_id += 1
                entries.extend(group)
                self._undone.pop()
        again = rest[len(entries):]
        if again:
            self._undone.clear()
        for node in again:
            assert node.action is not None
            entry = {**node.action, "id": next_id}
            next_id += 1
            raw.append(entry)
            entries.append(entry)
        return entries

    def _write_line(self, node: Node) -> None:
        """Append log entries that make the live actions the line to ``node``: undos
        back to where the lines part, then redos where they restore the right
        action, else the actions again."""
        self._undone.clear()
        target = self.tree.actions(node)
        live = self._live_raw
        same = 0
        while (same < min(len(target), len(live))
               and action_key(live[same]) == action_key(target[same])):
            same += 1
        entity = self._live[-1].entity if self._live else "0"
        raw = self._line.raw
        ids = iter(range(self._line.next_id(), 1 << 62))
        raw.extend({"type": "undo", "entity": entity, "id": next(ids)}
                   for _ in range(len(live) - same))
        rest = target[same:]
        if not rest:
            return
        # redo entries when the undone actions are exactly this line, else the actions again
        mark = len(raw)
        raw.extend({"type": "redo", "entity": entity, "id": next(ids)} for _ in rest)
        try:
            kept = filter_log(raw).actions
        except LogError:
            kept = ()
        if [action_key(a) for a in kept] != [action_key(a) for a in target]:
            del raw[mark:]
            raw.extend({**action, "id": next(ids)} for action in rest)

    def _align_tree(self) -> None:
        """After a replay stopped early, move the tree back to the last live action."""
        path = self.tree.path()
        if len(path) > len(self._live):
            with self._session_moves():
                self.tree.go_to(path[len(self._live) - 1] if self._live else self.tree.root)

    def _rebuild(self) -> None:
        """Replay the live actions of the line, from the latest snapshot still valid."""
        assert self._setup is not None
        filtered = filter_log(self._line.raw)
        entries = list(filtered.actions)
        same = 0
        limit = min(len(entries), len(self._live_raw))
        while same < limit and entries[same] is self._live_raw[same]:
            same += 1
        self._snaps = {k: g for k, g in self._snaps.items() if k <= same}
        start = max(self._snaps, default=0)
        path = self._tree_path(entries)
        stored = self._node_snapshot(path, start)
        spare = self._take_spare(start)
        if stored is not None:
            start = stored[0]
            game, rounds = stored[1].copy(), list(stored[2])
        elif spare is not None:
            game, rounds = spare, self._rounds[:start]
        else:
            game = self._snaps[start].copy() if start else self._new_start()
            rounds = self._rounds[:start]
        live = [self._parsed(raw) for raw in entries[:start]]
        for raw in entries[start:]:
            action = self._parsed(raw)
            key = round_key(game)
            try:
                game.process(action)
            except _ENGINE_ERRORS as exc:
                self._set_live(game, live, rounds, entries, path)
                self.action_rejected.emit(
                    f"replay stopped at action {raw.get('id')} ({action.type}): {exc}")
                return
            live.append(action)
            rounds.append(key)
            if path:
                self._node_rounds[path[len(live) - 1].id] = key
                if len(live) % POSITION_EVERY == 0 and self._positions is not None:
                    self._positions.remember(path[len(live) - 1], game,
                                             cost=self._positions.budget)
            self._snapshot(len(live), game, path[len(live) - 1] if path else None, rounds)
        self._set_live(game, live, rounds, entries, path)

    def _tree_path(self, entries: Sequence[Any]) -> list[Node] | None:
        """The tree's current path when it is the line of ``entries``, else None."""
        path = self.tree.path()
        if len(path) != len(entries):
            return None
        for node, raw in zip(path, entries, strict=True):
            if node.action is raw or node.action == raw:  # equal entries: no keys to make
                continue
            if action_key(node.action or {}) != action_key(raw):
                return None
        return path

    def _node_snapshot(self, path: list[Node] | None, start: int
                       ) -> tuple[int, Game, tuple[RoundKey, ...]] | None:
        """The deepest node snapshot on ``path`` beyond ``start`` live actions."""
        if path is None:
            return None
        for count in range(len(path), start, -1):
            stored = self._node_snaps.get(path[count - 1].id)
            if stored is not None:
                self._node_snaps.move_to_end(path[count - 1].id)
                return count, stored[0], stored[1]
        return None

    def _set_live(self, game: Game, live: list[Action], rounds: list[RoundKey],
                  entries: list[Any], path: list[Node] | None = None) -> None:
        self._game, self._live, self._rounds = game, live, rounds
        self._live_raw = entries[:len(live)]
        self._live_path = None if path is None else path[:len(live)]

    def _parsed(self, raw: Any) -> Action:
        """The action of a raw log entry (parsed once per entry)."""
        cached = self._actions.get(id(raw))
        if cached is not None and cached[0] is raw:
            return cached[1]
        action = action_from_dict(raw)
        self._actions[id(raw)] = (raw, action)
        return action

    def _idle_soon(self, _count: int, delay: int = IDLE_SNAPSHOT_MS) -> None:
        if QCoreApplication.instance() is not None:  # an event loop may run the timer
            self._idle_timer.start(delay)

    def idle_snapshot(self) -> None:
        """Copy the live position while the player thinks (run by a timer
        :data:`IDLE_SNAPSHOT_MS` after each change), then the one before it: undoing
        the next move, or this one, starts from a copy instead of replaying up to
        :data:`SNAPSHOT_EVERY` actions; then a spare copy of the one before, which
        an undo of this move takes as its game without copying then.  One copy per
        call; the timer comes back for the next."""
        count = len(self._live)
        if self._game is None or not self._snapshots_ok or not count:
            return
        try:
            if count not in self._snaps:
                self._keep_idle(count, self._game.copy())
                self._idle_soon(count, IDLE_NEXT_MS)  # the position before it, soon
            elif count > 1 and count - 1 not in self._snaps:
                self._keep_idle(count - 1, self.game_at(count - 1))
                self._idle_soon(count, IDLE_NEXT_MS)  # and the undo's own copy of it
            elif count > 1 and (self._spare is None
                                or self._spare[1] is not self._snaps[count - 1]):
                snap = self._snaps[count - 1]
                self._spare = (count - 1, snap, snap.copy())
        except Exception:  # noqa: BLE001 - a title whose state cannot be copied
            self._snapshots_ok = False

    def _take_spare(self, count: int) -> Game | None:
        """The spare copy of the snapshot at ``count`` (see ``_spare``), taken: None
        when there is none or it is of another position now."""
        spare, self._spare = self._spare, None
        if spare is None or spare[0] != count or self._snaps.get(count) is not spare[1]:
            return None
        return spare[2]

    def _keep_idle(self, count: int, game: Game) -> None:
        self._snaps[count] = game
        self._idle_snaps.append(count)
        while len(self._idle_snaps) > IDLE_SNAPSHOTS:
            old = self._idle_snaps.pop(0)
            if old % SNAPSHOT_EVERY and old not in self._idle_snaps:
                self._snaps.pop(old, None)

    def _snapshot(self, count: int, game: Game, node: Node | None = None,
                  rounds: Sequence[RoundKey] = ()) -> None:
        """Keep a copy of ``game`` every :data:`SNAPSHOT_EVERY` live actions, for the
        live line and for ``node`` of the tree (so a later jump to that line is quick)."""
        if count % SNAPSHOT_EVERY or not self._snapshots_ok:
            return
        copy = self._snaps.get(count)
        if copy is None:
            try:
                copy = game.copy()
            except Exception:  # noqa: BLE001 - a title whose state cannot be copied
                self._snapshots_ok = False
                return
            self._snaps[count] = copy
        if node is not None and node.id not in self._node_snaps:
            self._node_snaps[node.id] = (copy, tuple(rounds[:count]))
            while len(self._node_snaps) > NODE_SNAPSHOTS:
                self._node_snaps.popitem(last=False)
