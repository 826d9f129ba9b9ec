"""Four players play 1822CA by signed e-mail through a whole stock round and operating
round: four key folders, four copies; every receive checks every signature."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from hostile_corpus import fingerprint, play_turn

from desk18xx.io.pbem import BadSignatureError, EmailDesk, History, round_label
from desk18xx.io.replaying import digest_of, new_game
from desk18xx.io.savefile import SavedPlayer, SaveHeader, load_save
from desk18xx.io.signing import parse_signatures
from desk18xx.io.transfer import acting_player, header_player

HEADER = SaveHeader("1822CA", tuple(SavedPlayer(str(i), name) for i, name in
                                    enumerate(("Ann", "Bob", "Cy", "Di"), start=1)), seed=18)


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_four_players_exchange_signed_files_through_a_stock_and_an_operating_round(
        tmp_path: Path) -> None:
    desks = {p.id: EmailDesk(tmp_path / p.name.lower()) for p in HEADER.players}
    mail = tmp_path / "mail"
    mail.mkdir()
    rng = random.Random(22)
    game = new_game(HEADER)
    raw: list[dict[str, Any]] = []
    sender = header_player(game, acting_player(game))
    assert sender is not None
    play_turn(game, acting_player(game) or "", raw, rng)
    sent = desks[sender].send(mail, HEADER, raw, digest_of(game), sender)
    labels = [round_label(game)]
    exchanges, checked, started = 0, 0, time.perf_counter()
    while not any(a.startswith("OR") for a in labels) or labels[-1].startswith("OR"):
        exchanges += 1
        assert exchanges < 600, f"still in {labels[-1]} after {exchanges} mails"
        receiver = header_player(game, acting_player(game))
        assert receiver is not None and receiver != sender
        move = desks[receiver].receive(sent.path, receiver)  # every signature checked
        assert move.history.kind is History.EXTENDS
        assert move.signatures is not None
        assert move.signatures.signed == sum(s is not None for s in move.signatures.moves)
        checked += move.signatures.signed
        assert move.next_player == receiver
        desks[receiver].keep(move)
        assert play_turn(game, acting_player(game) or "", raw, rng) > 0
        label = round_label(game)
        if label != labels[-1]:
            labels.append(label)
        sent = desks[receiver].send(mail, HEADER, raw, digest_of(game), receiver)
        sender = receiver
    elapsed = time.perf_counter() - started
    assert labels[0].startswith("SR") and "OR 1.1" in labels
    # every player has signed moves, with their own key, pinned by the others
    final = load_save(sent.path)
    assert final.signatures is not None
    sigs = parse_signatures(final.signatures, str(sent.path), len(final.actions),
                            [p.id for p in HEADER.players])
    assert set(sigs.keys) == {"1", "2", "3", "4"}
    assert all(m is not None for m in sigs.moves)  # every action signed by who acted
    for pid, desk in desks.items():
        pins = desk.pins(HEADER).load()
        own = desk.keys.find(HEADER.players[int(pid) - 1].name)
        assert own is not None and pins[pid] == own.public
        assert pins == sigs.keys or pid == sender  # the last sender's pins are his own
        assert desk.known(HEADER) is not None
    # the last file, edited by its sender to sign one of another player's moves: refused
    other = next(i for i, m in enumerate(sigs.moves) if m is not None and m[0] != sender)
    victim = next(p for p in desks if p not in (sender, sigs.moves[other][0]))
    before = fingerprint(tmp_path / HEADER.players[int(victim) - 1].name.lower())
    forged = sigs.to_data()
    forged["moves"][other] = dict(forged["moves"][len(sigs.moves) - 1])
    from desk18xx.io.savefile import save_game

    bad = tmp_path / "forged.d18xx"
    save_game(bad, HEADER, final.actions, final.state_digest, signatures=forged)
    with pytest.raises(BadSignatureError, match=rf"action {other + 1} \(.+\) is .+'s move but "
                       "is signed by"):
        desks[victim].receive(bad, victim)
    assert fingerprint(tmp_path / HEADER.players[int(victim) - 1].name.lower()) == before
    print(f"{exchanges} mails, {len(raw)} actions, {checked} signatures checked, rounds "
          f"{labels}, {elapsed:.1f} s")
