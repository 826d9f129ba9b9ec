"""The lay question of the positions one click away, asked in the player's pause.

When a company is about to lay track, the map outlines its hexes and the tray
greys its tiles from the engine's lay question (`Game.lay_choices`: 20-50 ms in a
late 1822CA game, the slowest part of showing a move; issue 18). Most lay
positions are reached by a one-click choice of the position before (the previous
company's *Done buying trains*, *Pay out*, *Withhold*…). While the player looks at
that position, :class:`LayGuesses` plays each such choice on a copy of the game
and, where it leads to a lay, asks the lay question there. The answer is used
only when the player's action is that very choice from that very position (the
same tree node, the same action, what it set off included): the engine is
deterministic, so the position reached is the one asked about, and any other
action asks the engine as before.

The guesses are work of the pause, like the autosave: ``benchmarks/gui.py``
counts them (``IDLE_WORK``) when one comes due inside a timed action.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer

from desk18xx.engine.actions import Action
from desk18xx.engine.programs import run_programs
from desk18xx.ui.models.choices import Choice, TurnInfo, turn_info
from desk18xx.ui.models.tracks import TrackOptions
from desk18xx.ui.session import GameSession

#: Milliseconds after a position is shown before its first guess: after the paint
#: and after the route search's start (`controller.AUTO_SEARCH_DELAY_MS`).
GUESS_DELAY_MS = 120
#: One-click choices tried per position at most (each is a copy of the game, the
#: action, and the lay question where it leads to a lay).
GUESSES = 3

Choices = tuple[frozenset[str], frozenset[str]]


@dataclass(frozen=True, slots=True)
class Guess:
    """The lay question answered for ``action`` played from ``node``."""

    node: object
    """The tree node of the position the action is played from."""
    count: int
    """Live actions of that position."""
    action: Action
    """The action, with what it set off (``auto_actions``)."""
    entity: str
    """The company that lays next."""
    choices: Choices
    """Its `TrackOptions.choices` (outlined hexes, usable tiles)."""


def one_click(info: TurnInfo | None) -> list[Choice]:
    """The open choices of ``info`` that take no amount and no option (a button)."""
    if info is None:
        return []
    return [c for c in info.choices
            if c.spin is None and not c.options and not c.disabled][:GUESSES]


class LayGuesses(QObject):
    """Guesses of the lay question one click ahead of the live position."""

    def __init__(self, session: GameSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._guesses: list[Guess] = []
        self._planned: tuple[object, int] | None = None
        self.used = 0
        """Lay positions answered from a guess (``benchmarks/gui.py`` prints it)."""

    def guessed(self) -> list[Guess]:
        """The guesses made for the live position so far."""
        return list(self._guesses)

    def _here(self) -> tuple[object, int]:
        return self._session.tree.current, len(self._session.actions())

    def answer(self, entity: str) -> Choices | None:
        """The guessed lay choices of ``entity`` in the live position, when it was
        reached by a guessed action from the position the guess was made in."""
        node, count = self._here()
        live = self._session.actions()
        if not live:
            return None
        last = live[-1]
        for guess in self._guesses:
            if (getattr(node, "parent", None) is guess.node and count == guess.count + 1
                    and guess.entity == entity and last == guess.action
                    and last.auto_actions == guess.action.auto_actions):
                self.used += 1
                return guess.choices
        return None

    def plan(self, info: TurnInfo | None) -> None:
        """A new live position (``info``): drop the old guesses, and try its
        one-click choices once the player pauses."""
        self._guesses = []
        self._planned = None
        todo = one_click(info)
        if not todo or not self._session.has_game or info is None:
            return
        if info.entity not in self._session.game.corps:
            return  # a player's choice (a stock round) leads to another player's, not a lay
        here = self._planned = self._here()
        QTimer.singleShot(GUESS_DELAY_MS, self, lambda: self.guess(here, todo))

    def guess(self, here: tuple[object, int], todo: Sequence[Choice]) -> None:
        """Try the first of ``todo`` from position ``here`` (when it is still the live
        one), then the next one at the next turn of the event loop."""
        if not todo or self._planned != here or self._here() != here:
            return
        choice, rest = todo[0], todo[1:]
        game = self._session.game.copy()
        try:
            action = run_programs(game, choice.make(None))
            info = turn_info(game)
        except Exception:  # noqa: BLE001 - a refused guess is simply no guess
            info = None
        entity = info.entity if info is not None else None
        if (info is not None and entity is not None and "lay_tile" in info.map_types
                and entity in game.corps):
            options = TrackOptions(game, entity)
            self._guesses.append(Guess(here[0], here[1], action, entity, options.choices()))
        if rest:
            QTimer.singleShot(0, self, lambda: self.guess(here, rest))
