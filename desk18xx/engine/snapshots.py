"""Fast undo: replay from the nearest snapshot (STYLE.md §5).

The state after ``n`` actions is ``replay(new_game(setup), actions[:n])``.
:class:`SnapshotReplayer` keeps a copy of the game every ``every`` actions so
that going back (undo) or forward (redo) replays at most ``every`` actions.
Snapshots are only reused while the action prefix they were built from is
unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from desk18xx.engine.actions import Action
from desk18xx.engine.game import Game


class SnapshotReplayer:
    """Builds game states from an action list, with periodic snapshots."""

    def __init__(self, factory: Callable[[], Game], every: int = 50) -> None:
        """Args:
            factory: makes the fresh game (setup applied, no actions).
            every: snapshot interval in actions.
        """
        self._factory = factory
        self._every = max(1, every)
        self._actions: list[Action] = []
        self._snapshots: dict[int, Game] = {}

    def game_after(self, actions: Sequence[Action], count: int | None = None) -> Game:
        """A fresh game object in the state after the first ``count`` actions.

        Raises:
            IllegalAction: an action cannot be applied.
        """
        n = len(actions) if count is None else count
        # forget snapshots whose prefix changed
        same = 0
        limit = min(len(self._actions), len(actions))
        while same < limit and self._actions[same] is actions[same]:
            same += 1
        self._snapshots = {k: v for k, v in self._snapshots.items() if k <= same}
        self._actions = list(actions)
        start = max((k for k in self._snapshots if k <= n), default=None)
        game = self._factory() if start is None else self._snapshots[start].copy()
        index = start or 0
        while index < n:
            game.process(actions[index])
            index += 1
            if index % self._every == 0 and index not in self._snapshots:
                self._snapshots[index] = game.copy()
        return game
