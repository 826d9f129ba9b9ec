"""A new game makes one fresh game: the position cache's start is the replay's start."""

from __future__ import annotations

import random

from desk18xx.engine.game import Game, GameSetup
from desk18xx.ui.session import GameSession, default_factory

PLAYERS = (("1", "Alice"), ("2", "Bob"), ("3", "Carol"), ("4", "Dave"))


def test_a_new_game_is_made_once_and_jumps_still_start_fresh() -> None:
    made: list[Game] = []

    def factory(setup: GameSetup) -> Game:
        made.append(default_factory(setup))
        return made[-1]

    session = GameSession(factory)
    session.new_game(GameSetup("1867", PLAYERS, seed=3))
    assert len(made) == 1 and session.game is made[0]
    moves = session.game.legal_moves(random.Random(1))
    assert moves and session.submit(moves[0])
    played = session.game
    assert session.go_to(session.tree.root)  # from the position cache's start position
    assert session.game is not played and session.game.actions_applied == 0
    assert len(made) == 1  # the cache's start was the fresh game, pickled before the move
