"""Programmed actions in files: they are saved, ride along in e-mail files and
18xx.games exports, and replay to the same game (docs/save-format.md)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from desk18xx.engine.actions import Action, Pass, ProgramSharePass
from desk18xx.engine.game import Game
from desk18xx.engine.programs import run_programs
from desk18xx.engine.round import RoundKind
from desk18xx.io.pbem import open_move, save_for_email
from desk18xx.io.replaying import digest_of, new_game, open_save
from desk18xx.io.savechain import canonical_json
from desk18xx.io.savefile import SavedPlayer, SaveHeader, save_game
from desk18xx.io.transfer import export_text, save_from_export

HEADER = SaveHeader("1867", (SavedPlayer("1", "Ann"), SavedPlayer("2", "Bob"),
                             SavedPlayer("3", "Cy")), seed=5)
CY = "3"


def act(game: Game, raw: list[dict[str, Any]], action: Action) -> Action:
    """Play `action` as the app does (programs run) and log it with an id."""
    done = run_programs(game, action)
    entry = done.to_dict()
    entry["id"] = len(raw) + 1
    raw.append(entry)
    return done


@pytest.fixture(scope="module")
def played() -> tuple[Game, list[dict[str, Any]]]:
    """1867 to the end of the first stock round; Cy set an auto-pass at its start."""
    rng = random.Random(1)
    game = new_game(HEADER)
    raw: list[dict[str, Any]] = []
    while game.round is not None and game.round.kind is not RoundKind.STOCK:
        act(game, raw, rng.choice(game.legal_moves(rng)))
    act(game, raw, ProgramSharePass(CY, unconditional=True))
    while game.round is not None and game.round.kind is RoundKind.STOCK:
        assert game.round is not None
        if game.round.current_entity(game) == CY:  # a bid to answer: Cy's own call
            act(game, raw, Pass(CY))
        else:
            act(game, raw, rng.choice(game.legal_moves(rng)))
    return game, raw


def autos_of(raw: list[dict[str, Any]], player: int) -> list[dict[str, Any]]:
    return [a for entry in raw for a in entry.get("auto_actions") or ()
            if a["entity"] == player]


def test_the_order_and_its_passes_are_in_the_log(
        played: tuple[Game, list[dict[str, Any]]]) -> None:
    _game, raw = played
    orders = [e for e in raw if e["type"] == "program_share_pass"]
    # the order carries Cy's first pass itself when Cy is the one to act as it is given
    assert [{k: v for k, v in e.items() if k != "auto_actions"} for e in orders] == [
        {"type": "program_share_pass", "entity": 3, "entity_type": "player",
         "unconditional": True, "id": orders[0]["id"]}]
    assert [a["type"] for a in autos_of(raw, 3)] == ["pass"] * len(autos_of(raw, 3))
    assert autos_of(raw, 3)


def test_a_save_keeps_the_orders_and_replays_to_the_same_game(
        played: tuple[Game, list[dict[str, Any]]], tmp_path: Path) -> None:
    game, raw = played
    path = tmp_path / "game.d18xx"
    save_game(path, HEADER, raw, digest_of(game))
    opened = open_save(path)  # hash chain, every action replayed, state digest
    assert [canonical_json(a) for a in opened.saved.actions] == [canonical_json(a) for a in raw]
    assert digest_of(opened.game) == digest_of(game)


def test_the_orders_ride_along_in_an_email_file(
        played: tuple[Game, list[dict[str, Any]]], tmp_path: Path) -> None:
    game, raw = played
    mail = save_for_email(tmp_path, HEADER, raw, digest_of(game), sender="1")
    move = open_move(mail.path, None, me=CY)
    assert any(e.text == "Cy programs: Pass in stock rounds, unconditionally"
               for e in move.events)
    passes = [e for e in move.events if e.auto and e.player == CY]
    assert passes and all(e.text == "Cy passes" for e in passes)
    assert len(passes) == len(autos_of(raw, 3))
    # Cy's copy, sent on to Ann: the same log, still verified
    (tmp_path / "cy").mkdir()
    again = save_for_email(tmp_path / "cy", HEADER, list(move.opened.saved.actions),
                           digest_of(move.opened.game), sender=CY)
    assert open_move(again.path, move.opened.saved, me="1").history.kind.value == "same"


def test_the_orders_survive_an_18xx_games_export_and_import(
        played: tuple[Game, list[dict[str, Any]]], tmp_path: Path) -> None:
    game, raw = played
    out = tmp_path / "game.json"
    out.write_text(export_text(HEADER, raw, game), encoding="utf-8")
    converted = save_from_export(out)
    assert [canonical_json(a) for a in converted.actions] == [canonical_json(a) for a in raw]
    assert digest_of(converted.replayed.game) == digest_of(game)
    assert converted.header.identity() == HEADER.identity()
