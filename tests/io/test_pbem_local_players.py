"""Hot-seat players in signed e-mail games (no Qt): their moves made at the sender's
computer are signed with their own keys, or reported unsigned; a receiver's hot-seat
player is held to the receiver's own rule; a receive reports progress, can be
cancelled without writing anything, and finds what changed since your last action."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hostile_corpus import play_turn

from desk18xx.engine.digest import board_summary, changed_hexes
from desk18xx.engine.game import Game
from desk18xx.io.pbem import BadSignatureError, Cancelled, EmailDesk, History
from desk18xx.io.replaying import digest_of, new_game, replay_log
from desk18xx.io.savefile import SavedPlayer, SaveHeader
from desk18xx.io.transfer import acting_player, header_player

HEADER = SaveHeader("1867", tuple(SavedPlayer(pid, name) for pid, name in
                                  (("1", "Ann"), ("2", "Bob"), ("3", "Cy"))), seed=5)


def mover(game: Game) -> str:
    player = header_player(game, acting_player(game))
    assert player is not None
    return player


def play_until(game: Game, raw: list[dict[str, Any]], rng: random.Random,
               stop: set[str]) -> list[str]:
    """Whole turns until a player of `stop` must act; who played them, in order."""
    played: list[str] = []
    while mover(game) not in stop:
        player = mover(game)
        assert play_turn(game, acting_player(game) or "", raw, rng) > 0
        played.append(player)
        assert len(played) < 200
    return played


def test_moves_of_players_not_at_this_computer_are_reported_unsigned(tmp_path: Path) -> None:
    rng = random.Random(3)
    game, raw = new_game(HEADER), []
    played = play_until(game, raw, rng, {"2"})
    assert played
    while "3" not in played:  # Bob's turn at Ann's computer too, until Cy has played
        played += play_until(game, raw, rng, {"1"}) + play_until(game, raw, rng, {"2"})
    alone = EmailDesk(tmp_path / "alone").send(tmp_path, HEADER, raw, digest_of(game), "1")
    assert "3" in alone.unsigned and alone.unsigned["3"] > 0 and "1" not in alone.unsigned
    both = EmailDesk(tmp_path / "both").send(tmp_path, HEADER, raw, digest_of(game), "1",
                                             local=["2", "3"])
    assert both.unsigned == {}


def _bob_plays_for_cy(tmp_path: Path) -> tuple[Path, Path]:
    """Ann sends; Bob plays his turns and Cy's at his computer, signing only as Bob.
    Returns (Ann's first file, Bob's file)."""
    rng = random.Random(8)
    game, raw = new_game(HEADER), []
    assert play_until(game, raw, rng, {"2"}) == ["1"] or mover(game) == "2"
    ann = EmailDesk(tmp_path / "ann")
    first = ann.send(tmp_path / "mail", HEADER, raw, digest_of(game), "1")  # Cy: no key yet
    bob = EmailDesk(tmp_path / "bob")
    bob.keep(bob.receive(first.path, "2"))
    played = play_until(game, raw, rng, {"1"})
    assert "3" in played, played
    back = bob.send(tmp_path / "mail", HEADER, raw, digest_of(game), "2")
    assert back.unsigned.get("3", 0) > 0
    return first.path, back.path


def test_a_new_unsigned_move_of_a_player_at_your_computer_is_refused(tmp_path: Path) -> None:
    (tmp_path / "mail").mkdir()
    first, back = _bob_plays_for_cy(tmp_path)
    ann = EmailDesk(tmp_path / "ann")
    ann.keep(ann.receive(first, "1", local=["3"]))
    with pytest.raises(BadSignatureError) as refused:
        ann.receive(back, "1", local=["3"])
    assert refused.value.player == "3"
    assert "Cy's move but carries no signature by Cy" in str(refused.value)
    assert "signatures.moves[" in str(refused.value)
    # a computer where Cy does not sit has no reason to refuse it (Cy has no key yet)
    other = EmailDesk(tmp_path / "spectator")
    assert other.receive(back, None).history.kind is History.EXTENDS


def test_progress_reaches_every_action_and_cancel_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "mail").mkdir()
    _first, back = _bob_plays_for_cy(tmp_path)
    seen: list[tuple[int, int]] = []
    cy = EmailDesk(tmp_path / "cy")
    move = cy.receive(back, None, progress=lambda done, total: seen.append((done, total)))
    total = len(move.opened.saved.actions)
    assert seen and all(t == total for _d, t in seen)
    assert [d for d, _t in seen] == sorted(d for d, _t in seen)
    assert seen[-1][0] == total - 1  # the last action was replayed too

    assert total >= 2  # something is left to replay when the user cancels

    def stop(done: int, _total: int) -> None:
        if done >= min(3, total - 1):
            raise Cancelled("stop")

    fresh = EmailDesk(tmp_path / "fresh")
    with pytest.raises(Cancelled):
        fresh.receive(back, None, progress=stop)
    assert not (tmp_path / "fresh").exists()  # no copy, no pins, no keys


def test_what_changed_since_your_last_action_matches_a_replay_to_it(tmp_path: Path) -> None:
    rng = random.Random(11)
    game, raw = new_game(HEADER), []
    for _ in range(40):
        if game.finished:
            break
        play_turn(game, acting_player(game) or "", raw, rng)
    path = EmailDesk(tmp_path / "ann").send(tmp_path, HEADER, raw, digest_of(game), "1",
                                            local=["2", "3"]).path
    checked = 0
    for me in ("1", "2", "3"):
        move = EmailDesk(tmp_path / f"r{me}").receive(path, me)
        mine = [e.index for e in move.events if e.player == me and not e.auto]
        if not mine or mine[-1] == len(raw) - 1:
            continue
        before = board_summary(replay_log(HEADER, raw[:mine[-1] + 1]).game)
        expected = changed_hexes(before, board_summary(move.opened.game))
        assert list(move.changed_hexes) == expected
        checked += 1
    assert checked >= 2


def test_what_changed_since_your_last_action_after_a_copy_you_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a copy, the board after your last action is taken on the way when that
    action is at the end of your copy or later, else replayed to again: both agree
    with a replay to it."""
    import desk18xx.io.pbem as pbem

    replays: list[int] = []
    real = pbem.replay_log

    def counted(header: SaveHeader, raw: Any, **kw: Any) -> Any:
        replays.append(len(raw))
        return real(header, raw, **kw)

    monkeypatch.setattr(pbem, "replay_log", counted)
    rng = random.Random(12)
    game, raw = new_game(HEADER), []
    for _ in range(45):
        if game.finished:
            break
        play_turn(game, acting_player(game) or "", raw, rng)
    ann = EmailDesk(tmp_path / "ann")
    cut = len(raw) - 1  # one new action: some players acted long before
    (tmp_path / "early").mkdir()
    early = ann.send(tmp_path / "early", HEADER, raw[:cut],
                     digest_of(replay_log(HEADER, raw[:cut]).game), "1", local=["2", "3"])
    full = ann.send(tmp_path, HEADER, raw, digest_of(game), "1", local=["2", "3"])
    ways: set[bool] = set()
    for me in ("1", "2", "3"):
        desk = EmailDesk(tmp_path / f"r{me}")
        desk.keep(desk.receive(early.path, me))
        replays.clear()
        move = desk.receive(full.path, me)
        assert move.history.kind is History.EXTENDS
        mine = [e.index for e in move.events if e.player == me and not e.auto]
        assert mine
        before = board_summary(replay_log(HEADER, raw[:mine[-1] + 1]).game)
        assert list(move.changed_hexes) == changed_hexes(before,
                                                         board_summary(move.opened.game))
        ways.add(bool(replays))
        assert bool(replays) == (mine[-1] < cut - 1)  # replayed only when it came earlier
    assert ways == {True, False}, "both ways must be tried"
