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


def test_an_idle_copy_makes_the_next_undo_replay_nothing(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from desk18xx.engine.digest import state_digest
    from desk18xx.ui.session import IDLE_SNAPSHOTS, SNAPSHOT_EVERY

    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=5))
    rng = random.Random(5)
    for _ in range(SNAPSHOT_EVERY + 7):  # past the first regular snapshot
        assert session.submit(rng.choice(session.game.legal_moves(rng)))
    session.idle_snapshot()  # as the timer does while the player thinks
    before = state_digest(session.game)
    assert session.submit(rng.choice(session.game.legal_moves(rng)))

    replayed: list[object] = []
    game_class = type(session.game)
    original = game_class.process
    monkeypatch.setattr(game_class, "process",
                        lambda self, action: (replayed.append(action), original(self, action))[1])
    assert session.undo()
    assert replayed == []  # started from the idle copy
    assert state_digest(session.game) == before
    monkeypatch.undo()

    fresh = GameSession()  # the same position by a full replay
    fresh.new_game(session.game.setup)
    for action in session.actions():
        assert fresh.submit(action)
    assert state_digest(fresh.game) == before
    # no copy before the move: the idle pass after it makes the one before it too
    before = state_digest(session.game)
    assert session.submit(rng.choice(session.game.legal_moves(rng)))
    session.idle_snapshot()
    session.idle_snapshot()
    replayed.clear()
    monkeypatch.setattr(game_class, "process",
                        lambda self, action: (replayed.append(action), original(self, action))[1])
    assert session.undo()
    assert replayed == [] and state_digest(session.game) == before
    monkeypatch.undo()
    for _ in range(IDLE_SNAPSHOTS + 2):  # the idle copies stay few
        assert session.submit(rng.choice(session.game.legal_moves(rng)))
        session.idle_snapshot()
    kept = [k for k in session._snaps if k % SNAPSHOT_EVERY]
    assert len(kept) <= IDLE_SNAPSHOTS


def test_the_idle_spare_copy_makes_an_undo_copy_nothing(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """After the player's pause (three idle passes: this position, the one before,
    a spare copy of it) an undo takes the spare as its game: no copy, no replay; the
    position is the one before the move, and the snapshot it came from is untouched."""
    from desk18xx.engine.digest import state_digest
    from desk18xx.ui.session import SNAPSHOT_EVERY

    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=7))
    rng = random.Random(7)
    for _ in range(SNAPSHOT_EVERY + 5):
        assert session.submit(rng.choice(session.game.legal_moves(rng)))
    before = state_digest(session.game)
    count = len(session.actions())
    assert session.submit(rng.choice(session.game.legal_moves(rng)))
    for _ in range(3):
        session.idle_snapshot()
    game_class = type(session.game)
    copied: list[object] = []
    replayed: list[object] = []
    copy, process = game_class.copy, game_class.process
    monkeypatch.setattr(game_class, "copy", lambda self: (copied.append(self), copy(self))[1])
    monkeypatch.setattr(game_class, "process",
                        lambda self, action: (replayed.append(action), process(self, action))[1])
    assert session.undo()
    assert copied == [] and replayed == []
    assert state_digest(session.game) == before
    monkeypatch.undo()
    # the live game is the undo's own: playing on leaves the snapshot as it was
    snapshot = session._snaps[count]
    assert session.game is not snapshot
    assert session.submit(rng.choice(session.game.legal_moves(rng)))
    assert state_digest(snapshot) == before
    # an undo with no spare ready (no pause) copies the snapshot as before
    assert session.submit(rng.choice(session.game.legal_moves(rng)))
    assert session.undo() and session.undo()
    assert state_digest(session.game) == before
