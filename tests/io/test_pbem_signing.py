"""Signed e-mail moves: every hostile PBEM case is refused on receive, naming the action
and the player, and nothing of the receiver's changes; keys, pins and the signature rules."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import pytest
from hostile_corpus import PBEM_HEADER, fingerprint, pbem_cases

from desk18xx.io.pbem import (
    BadSignatureError,
    ChangedIdentityError,
    EmailDesk,
    History,
    OlderFileError,
    UnsignedMoveError,
)
from desk18xx.io.savefile import SaveFormatError
from desk18xx.io.signing import (
    KeyStore,
    Signatures,
    check_signatures,
    move_chain,
    move_message,
    normal_name,
    seal_message,
    stable_identity,
    verify,
)

EXPECTED: dict[str, tuple[type[Exception], str]] = {
    "pbem-older.d18xx": (OlderFileError, r"older than your copy: it ends at action \d+ \(.+\); "
                         r"your copy goes on to action \d+ \(.+ by (Ann|Bob|Cy)\)"),
    "pbem-move-for-another-player.d18xx": (BadSignatureError,
                                           r"action \d+ \(Ann .+\) is Ann's move but is signed "
                                           r"by (Bob|Cy)"),
    "pbem-wrong-key.d18xx": (BadSignatureError, r"action \d+ \((Bob|Cy) .+\) is signed by a key "
                             r"for (Bob|Cy) .* not the key you have for (Bob|Cy)"),
    "pbem-resigned-by-the-wrong-key.d18xx": (BadSignatureError,
                                             r"action \d+ \((Bob|Cy) .+\) is (Bob|Cy)'s move but "
                                             r"is signed by (Bob|Cy)"),
    "pbem-edited-rechained.d18xx": (BadSignatureError, r"action \d+ \(.+\): the signature of "
                                    r"(Ann|Bob|Cy) does not match it"),
    "pbem-cut-short.d18xx": (BadSignatureError, r"the seal of (Bob|Cy) does not match the "
                             r"file's \d+ actions \(cut short"),
    "pbem-unsigned.d18xx": (UnsignedMoveError, r"signatures: this file is not signed"),
    "pbem-signature-removed.d18xx": (BadSignatureError, r"action \d+ \((Bob|Cy) .+\) is "
                                     r"(Bob|Cy)'s move but carries no signature by (Bob|Cy)"),
    "pbem-own-key-replaced.d18xx": (BadSignatureError, r"action \d+ \(Ann .+\) is signed by a "
                                    r"key for Ann .* not your key"),
    "pbem-signatures-short.d18xx": (SaveFormatError, r"signatures\.moves: has \d+ entries for "
                                    r"\d+ actions"),
    "pbem-rewrite-name-space.d18xx": (ChangedIdentityError,
                                      r"your game under a changed identity \(1867, seed 11, Ann, "
                                      r"Bob, Cy -> 1867, seed 11, Ann , Bob, Cy\).*action \d+ "
                                      r"\(.+\) is Ann ?'s"),
    "pbem-rewrite-seed.d18xx": (ChangedIdentityError, r"changed identity \(1867, seed 11, .* -> "
                                r"1867, seed 12, .*action \d+ \(.+\) is Ann's"),
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list]:  # type: ignore[type-arg]
    folder = tmp_path_factory.mktemp("pbem")
    return folder, pbem_cases(folder, None)  # type: ignore[arg-type]


def test_every_hostile_email_move_is_refused_naming_action_and_player(
        corpus: tuple[Path, list]) -> None:  # type: ignore[type-arg]
    folder, cases = corpus
    assert {c.name for c in cases} == set(EXPECTED) | {"pbem-good.d18xx"}
    before = fingerprint(folder)
    refused = 0
    for case in cases:
        desk = EmailDesk(case.receiver)
        if case.valid:
            move = desk.receive(case.path, case.me)
            assert move.history.kind is History.EXTENDS
            assert move.signatures is not None and move.signatures.signed >= 3
            continue
        kind, pattern = EXPECTED[case.name]
        with pytest.raises(kind) as caught:
            desk.receive(case.path, case.me)
        message = str(caught.value)
        assert message.startswith(f"{case.path}: "), message
        assert re.search(pattern, message), f"{case.name}: {message}"
        assert "Traceback" not in message
        refused += 1
    assert refused == len(EXPECTED)
    assert fingerprint(folder) == before  # nothing local changed, no file touched


def test_the_good_move_is_kept_with_its_signatures_and_pins(
        corpus: tuple[Path, list], tmp_path: Path) -> None:  # type: ignore[type-arg]
    import shutil

    _folder, cases = corpus
    good = next(c for c in cases if c.valid)
    data = tmp_path / "ann"
    shutil.copytree(good.receiver, data)
    desk = EmailDesk(data)
    move = desk.receive(good.path, "1")
    copy = desk.keep(move)
    again = desk.receive(good.path, "1")  # the same file again: nothing new, still valid
    assert again.history.kind is History.SAME
    assert copy == desk.copy_path(PBEM_HEADER)
    kept = desk.known(PBEM_HEADER)
    assert kept is not None and kept.signatures is not None
    assert set(desk.pins(PBEM_HEADER).load()) == {"1", "2", "3"}


def test_keys_are_made_once_private_and_sign_what_they_claim(tmp_path: Path) -> None:
    store = KeyStore(tmp_path / "keys")
    assert store.find("Ann") is None
    key = store.key_for("Ann")
    path = store.path_for("Ann")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert store.key_for(" ann ").public == key.public  # one key per player name
    assert store.key_for("Bob").public != key.public
    setup = PBEM_HEADER.setup_mapping()
    actions = [{"type": "pass", "entity": "1", "id": 1}, {"type": "pass", "entity": "2", "id": 2}]
    chain = move_chain(setup, actions)
    signature = key.sign(move_message("1", 0, chain[0]))
    assert verify(key.public, move_message("1", 0, chain[0]), signature)
    assert not verify(key.public, move_message("1", 1, chain[1]), signature)  # not movable
    assert not verify(key.public, move_message("2", 0, chain[0]), signature)
    other = move_chain({**setup, "seed": 12}, actions)
    assert not verify(key.public, move_message("1", 0, other[0]), signature)  # other game


def test_stable_identity_ignores_seed_and_spelling_but_not_who_plays() -> None:
    players = [("1", "Ann"), ("2", "Bob")]
    assert normal_name("  Ann\u00a0 Smith ") == "ann smith"
    assert stable_identity("1867", players) == stable_identity("1867", [("1", "ann "),
                                                                      ("2", "BOB")])
    assert stable_identity("1867", players) != stable_identity("1867", [("1", "Bob"),
                                                                      ("2", "Ann")])
    assert stable_identity("1867", players) != stable_identity("1822CA", players)


def test_unsigned_moves_of_players_without_a_key_are_vouched_for_by_later_signatures(
        tmp_path: Path) -> None:
    ann = KeyStore(tmp_path).key_for("Ann")
    setup = PBEM_HEADER.setup_mapping()
    actions = [{"type": "pass", "entity": "2", "id": 1}, {"type": "pass", "entity": "1", "id": 2}]
    chain = move_chain(setup, actions)
    sigs = Signatures({"1": ann.public}, [None, ("1", ann.sign(move_message("1", 1, chain[1])))],
                      ("1", ann.sign(seal_message("1", setup, actions))))
    names = {"1": "Ann", "2": "Bob"}
    check = check_signatures(setup, actions, ["2", "1"], sigs, {}, {}, names, ["a", "b"])
    assert check.signed == 1 and check.new_pins == ("1",)
    with pytest.raises(ValueError, match=r"action 1 \(a\) is Bob's move but carries no "
                       "signature by Bob"):
        check_signatures(setup, actions, ["2", "1"], sigs, {"2": ann.public}, {}, names,
                         ["a", "b"])
    # what the receiver already had may stay unsigned
    check_signatures(setup, actions, ["2", "1"], sigs, {"2": ann.public}, {}, names, ["a", "b"],
                     start=1)
    with pytest.raises(ValueError, match="seal of Ann does not match the file's 1 actions"):
        check_signatures(setup, actions[:1], ["2"], Signatures({"1": ann.public}, [None],
                                                                sigs.seal), {}, {}, names, ["a"])
    with pytest.raises(ValueError, match="nobody vouches"):
        check_signatures(setup, actions, ["2", "3"], Signatures({}, [None, None]),
                         {}, {}, names, ["a", "b"])


def test_a_move_opened_with_plain_open_keeps_the_others_signatures_when_sent_on(
        corpus: tuple[Path, list], tmp_path: Path) -> None:  # type: ignore[type-arg]
    """Ann has no copy (she opened Bob's file with plain Open, or lost her copy): her
    answer still carries Bob's and Cy's signatures, so the next receiver accepts it."""
    import random
    import shutil

    from hostile_corpus import play_turn

    from desk18xx.engine.actions import action_from_dict
    from desk18xx.io.replaying import digest_of, new_game
    from desk18xx.io.savefile import load_save
    from desk18xx.io.transfer import acting_player

    _folder, cases = corpus
    good = next(c for c in cases if c.valid)
    received = load_save(good.path)
    game = new_game(PBEM_HEADER)
    raw = [dict(a) for a in received.actions]
    for entry in raw:
        game.process(action_from_dict(entry))
    assert acting_player(game) == "1"
    play_turn(game, "1", raw, random.Random(2))
    fresh = EmailDesk(tmp_path / "ann-new")  # no copy, but her own key
    shutil.copytree(good.receiver / "keys", tmp_path / "ann-new" / "keys")
    for name in ("lost", "kept"):
        (tmp_path / name).mkdir()
    lost = fresh.send(tmp_path / "lost", PBEM_HEADER, raw, digest_of(game), "1")
    kept = fresh.send(tmp_path / "kept", PBEM_HEADER, raw, digest_of(game), "1",
                      carried=received)
    nxt = acting_player(game)
    assert nxt in ("2", "3")
    data = tmp_path / "next"
    shutil.copytree(good.receiver.parent / f"pbem-data-{'bob' if nxt == '2' else 'cy'}", data)
    desk = EmailDesk(data)
    move = desk.receive(kept.path, nxt)
    assert move.signatures is not None
    assert all(m is not None for m in move.signatures.moves[len(received.actions):])
    lost_sigs = load_save(lost.path).signatures
    assert lost_sigs is not None and None in lost_sigs["moves"]  # the others' were dropped


def test_the_move_list_and_the_mail_tell_the_engines_narration(
        corpus: tuple[Path, list]) -> None:  # type: ignore[type-arg]
    """The "since your last action" list and the mail text are the log dock's lines:
    `describe_in` for each action, then the consequences the engine told."""
    from desk18xx.engine.actions import action_from_dict
    from desk18xx.engine.describe import describe_in
    from desk18xx.io.pbem import mail_text
    from desk18xx.io.replaying import new_game

    _folder, cases = corpus
    good = next(c for c in cases if c.valid)
    move = EmailDesk(good.receiver).receive(good.path, good.me)
    game = new_game(PBEM_HEADER)
    game.narrating = True
    told: list[str] = []
    for entry in move.opened.saved.actions:
        action = action_from_dict(entry)
        told.append(describe_in(game, action))
        before = len(game.events)
        game.process(action)
        told += [line for _count, lines in game.events[before:] for line in lines]
    listed = [line.strip() for event in move.events for line in event.lines()]
    assert listed == told
    assert any(e.details for e in move.events), "no consequence told (an auction win …)"
    _subject, body = mail_text(PBEM_HEADER, move.events, move.opened.game, "2")
    for event in move.since_yours:
        assert event.text in body
        for line in event.details:
            assert f"      {line}" in body


def test_a_rewrite_that_renames_you_is_refused_once_you_say_who_you_are(
        corpus: tuple[Path, list], tmp_path: Path) -> None:  # type: ignore[type-arg]
    """The sender renames Ann ("Anna": another stable identity, so no pinned keys and no
    key of hers by that name) and rewrites her moves: the file holds moves of the seat
    she plays while she has a copy of a game with the same title and seats."""
    import random

    from hostile_corpus import play_turn

    from desk18xx.io.replaying import digest_of, new_game
    from desk18xx.io.savefile import SavedPlayer, SaveHeader
    from desk18xx.io.transfer import acting_player

    folder, cases = corpus
    good = next(c for c in cases if c.valid)
    renamed = SaveHeader("1867", (SavedPlayer("1", "Anna"), *PBEM_HEADER.players[1:]),
                         PBEM_HEADER.seed)
    game, raw = new_game(renamed), []
    rng = random.Random(5)
    while len(raw) < 8:
        play_turn(game, acting_player(game) or "", raw, rng)
    (tmp_path / "mail").mkdir()
    sent = EmailDesk(tmp_path / "bob").send(tmp_path / "mail", renamed, raw, digest_of(game), "2")
    before = fingerprint(folder)
    with pytest.raises(ChangedIdentityError, match=r"your game under a changed identity "
                       r"\(1867, seed 11, Ann, Bob, Cy -> 1867, seed 11, Anna, Bob, Cy\).*"
                       r"action 1 \(Anna .+\) is Anna's"):
        EmailDesk(good.receiver).receive(sent.path, "1")
    assert fingerprint(folder) == before


def test_your_own_new_moves_must_carry_your_signature_even_before_you_have_a_key(
        tmp_path: Path) -> None:
    bob = KeyStore(tmp_path).key_for("Bob")
    setup = PBEM_HEADER.setup_mapping()
    actions = [{"type": "pass", "entity": "1", "id": 1}]
    sigs = Signatures({"2": bob.public}, [None], ("2", bob.sign(seal_message("2", setup,
                                                                            actions))))
    names = {"1": "Ann", "2": "Bob"}
    check_signatures(setup, actions, ["1"], sigs, {}, {}, names, ["Ann passes"])  # for Cy
    with pytest.raises(ValueError, match=r"action 1 \(Ann passes\) is Ann's move but carries "
                       "no signature by Ann"):
        check_signatures(setup, actions, ["1"], sigs, {}, {}, names, ["Ann passes"], me="1")


def test_a_file_s_signatures_are_checked_on_their_own_for_verify(
        corpus: tuple[Path, list]) -> None:  # type: ignore[type-arg]
    """Without the receiver's copy, keys or pins, what a signed file shows about
    itself: moves signed by the wrong player, changed after signing, cut short."""
    from desk18xx.io.pbem import check_file_signatures

    _folder, cases = corpus
    by_name = {c.name: c for c in cases}
    assert check_file_signatures(by_name["pbem-good.d18xx"].path) >= 3
    assert check_file_signatures(by_name["pbem-unsigned.d18xx"].path) == 0
    for name in ("pbem-move-for-another-player.d18xx", "pbem-resigned-by-the-wrong-key.d18xx",
                 "pbem-edited-rechained.d18xx", "pbem-cut-short.d18xx"):
        with pytest.raises(BadSignatureError, match=rf"^{re.escape(str(by_name[name].path))}: "):
            check_file_signatures(by_name[name].path)
    with pytest.raises(SaveFormatError, match="signatures.moves"):
        check_file_signatures(by_name["pbem-signatures-short.d18xx"].path)


def test_an_appended_undo_of_what_you_had_is_a_rewrite(
        corpus: tuple[Path, list], tmp_path: Path) -> None:  # type: ignore[type-arg]
    import shutil

    from desk18xx.io.pbem import RewrittenHistoryError
    from desk18xx.io.replaying import digest_of, replay_log
    from desk18xx.io.savefile import load_save

    folder, cases = corpus
    good = next(c for c in cases if c.valid)
    older = next(c for c in cases if c.name == "pbem-older.d18xx")
    known = len(load_save(older.path).actions)  # Ann had at least this much before
    raw = [dict(a) for a in load_save(good.path).actions]
    sender = "2"  # Bob appends an undo back into what Ann had, signs it and seals the file
    raw.append({"type": "undo", "entity": int(sender), "entity_type": "player",
                "action_id": raw[known - 2]["id"], "id": len(raw) + 1})
    data = tmp_path / "sender"
    shutil.copytree(folder / "pbem-data-bob", data)
    (tmp_path / "mail").mkdir()
    sent = EmailDesk(data).send(tmp_path / "mail", PBEM_HEADER, raw,
                                digest_of(replay_log(PBEM_HEADER, raw).game), sender)
    with pytest.raises(RewrittenHistoryError, match=rf"takes back live action {known} "
                       r"\(.+ by (Ann|Bob|Cy)\) that you had"):
        EmailDesk(good.receiver).receive(sent.path, "1")
