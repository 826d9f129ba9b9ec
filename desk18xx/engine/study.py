"""A study: a setup, its variation tree and fast games for its nodes (no Qt).

`Study` is what a user interface drives in study mode: it plays actions
(checked by the rules engine) into the tree, moves around it, and hands out
the game of the current node, using a `PositionCache` so that any jump is
quick.  It replaces the linear log of a hot-seat session: ``play`` is
``submit``, ``undo``/``redo`` move along the line (nothing is discarded),
``go_to`` jumps anywhere.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from desk18xx.engine.actions import Action, LayTile, action_from_dict
from desk18xx.engine.game import Game, GameSetup
from desk18xx.engine.positions import PositionCache
from desk18xx.engine.sandbox import Cancel, RouteSummary, SandboxTrial, try_tile_lay
from desk18xx.engine.variations import Node, VariationTree

GameFactory = Callable[[GameSetup], Game]


def replay(setup: GameSetup, actions: Iterable[Mapping[str, Any]],
           factory: GameFactory) -> Game:
    """A fresh game of `setup` (made by ``factory``, e.g. `desk18xx.titles.new_game`)
    with `actions` (raw dicts) applied."""
    game = factory(setup)
    for raw in actions:
        game.process(action_from_dict(raw))
    return game


class Study:
    """A game studied as a tree of variations.

    Args:
        setup: the game's setup.
        tree: an existing tree (from a study file or an import); a new one if None.
        factory: makes a fresh game for a setup (`desk18xx.titles.new_game`: the engine
            knows no title).
        cache: an existing position cache of `tree` to share (a hot-seat session's).
        cache_options: passed to `PositionCache` (``budget``, ``every``, …).
    """

    def __init__(self, setup: GameSetup, tree: VariationTree | None = None, *,
                 factory: GameFactory, cache: PositionCache | None = None,
                 **cache_options: Any) -> None:
        self.setup = setup
        self.tree = tree if tree is not None else VariationTree()
        self._factory = factory
        if cache is not None and cache.tree is not self.tree:
            raise ValueError("the position cache belongs to another tree")
        self.cache = cache if cache is not None else PositionCache(
            self.tree, lambda: self._factory(setup), **cache_options)
        self._game: Game | None = None
        self._game_node: Node | None = None

    # -- the current position ---------------------------------------------------------
    @property
    def current(self) -> Node:
        """The node shown and played from."""
        return self.tree.current

    @property
    def game(self) -> Game:
        """The game at the current node (read it; never change it)."""
        node = self.tree.current
        if self._game is None or self._game_node is not node:
            self._game = self.cache.game_at(node)
            self._game_node = node
        return self._game

    def game_at(self, node: Node) -> Game:
        """A separate game at `node` (the caller may change it)."""
        return self.cache.game_at(node)

    # -- playing ----------------------------------------------------------------------
    def play(self, action: Action | Mapping[str, Any]) -> Node:
        """Apply `action` at the current node and move to the resulting node
        (an existing child with the same move, or a new branch).

        Raises:
            desk18xx.engine.errors.IllegalAction (or another engine error): the
                rules refuse it; the tree and the current game are unchanged.
        """
        parsed = action if isinstance(action, Action) else action_from_dict(action)
        data = parsed.to_dict() if isinstance(action, Action) else dict(action)
        known = self.tree.find_child(self.tree.current, data)
        if known is not None:
            return self.go_to(known)
        game = self.game
        began = time.perf_counter()
        try:
            game.process(parsed)
        except Exception:
            self._game = None  # it may have changed half way; rebuilt on demand
            raise
        cost = time.perf_counter() - began
        node = self.tree.play(data)
        self._game, self._game_node = game, node
        self.cache.remember(node, game, cost=cost)
        return node

    def try_action(self, action: Action | Mapping[str, Any], node: Node | None = None) -> Game:
        """The game after `action` at `node` (default: current), without recording it
        (the off-turn sandbox).

        Raises:
            desk18xx.engine.errors.IllegalAction: the rules refuse it.
        """
        parsed = action if isinstance(action, Action) else action_from_dict(action)
        game = self.cache.game_at(self.tree.current if node is None else node)
        game.process(parsed)
        return game

    def try_tile_lay(self, lay: LayTile, node: Node | None = None, *,
                     before: RouteSummary | None = None,
                     cancel: Cancel | None = None) -> SandboxTrial:
        """The off-turn sandbox: `lay` for any company at `node` (default: current),
        as its own track step would lay it, with its best routes before and after.
        Nothing is recorded; play ``trial.lay`` to keep it when ``trial.on_turn``.
        `before` (the company's best routes here), when known, saves one search.

        Raises:
            desk18xx.engine.errors.IllegalAction: the rules refuse the lay.
        """
        game = self.cache.game_at(self.tree.current if node is None else node)
        return try_tile_lay(game, lay, before=before, cancel=cancel)

    # -- moving -----------------------------------------------------------------------
    def go_to(self, node: Node) -> Node:
        """Jump to any node."""
        return self.tree.go_to(node)

    def undo(self) -> Node | None:
        """One action back along the line (nothing is discarded)."""
        return self.tree.undo()

    def redo(self) -> Node | None:
        """One action forward along the branch visited last."""
        return self.tree.redo()

    def transpositions(self, node: Node | None = None) -> list[Node]:
        """Nodes with the same position as `node` (default: current)."""
        target = self.tree.current if node is None else node
        if target.digest is None and not target.is_root:
            self.cache.game_at(target)  # computes the digest
        return self.tree.transpositions(target)


__all__ = ["Study", "replay"]
