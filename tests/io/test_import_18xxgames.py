"""Importing 18xx.games exports (desk18xx.io.import_18xxgames)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from desk18xx.io import import_18xxgames
from desk18xx.io.import_18xxgames import (
    ExportFormatError,
    ImportedPlayer,
    load_export,
    parse_export,
    parse_export_text,
)

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"

# file, our title, players, seed, raw actions, live rules actions, chat, end reason
EXPECTED = [
    ("1822CA/1.json", "1822CA", 4, 1705813307, 529, 390, 0, "manually_ended"),
    ("1822CA/1822CA_game_end_bank.json", "1822CA", 4, 337421161, 1409, 1214, 0, "bank"),
    ("1822CAERS/1822CAERS_game_end_bank.json", "1822CA-ERS", 5, 382677413, 944, 944, 0, "bank"),
    ("1822CAWRS/1822CAWRS_game_end_bank.json", "1822CA-WRS", 5, 2029016302, 1126, 961, 0, "bank"),
    ("1867/21268.json", "1867", 4, 21268, 1050, 736, 314, "final_phase"),
    ("1867/hs_ahjzadkh_19792.json", "1867", 4, 19792, 221, 221, 0, "manually_ended"),
]


def test_every_shared_fixture_is_listed() -> None:
    on_disk = {p.relative_to(FIXTURES).as_posix() for p in FIXTURES.glob("*/*.json")}
    assert on_disk == {row[0] for row in EXPECTED}


@pytest.mark.parametrize(
    ("name", "title", "players", "seed", "raw", "live", "chat", "reason"), EXPECTED
)
def test_fixture(
    name: str, title: str, players: int, seed: int, raw: int, live: int, chat: int, reason: str
) -> None:
    game = load_export(FIXTURES / name)
    assert game.title == title
    assert len(game.players) == players
    assert game.seed == seed
    assert game.raw_action_count == raw
    assert len(game.actions) == live
    assert len(game.messages) == chat
    assert game.game_end_reason == reason
    assert game.optional_rules == ()
    assert all(a["type"] not in ("undo", "redo", "message") for a in game.actions)
    assert game.result is not None
    assert set(game.result) == {p.id for p in game.players}


def test_fixture_details_of_the_bank_game() -> None:
    game = load_export(FIXTURES / "1822CA" / "1822CA_game_end_bank.json")
    assert game.players[0] == ImportedPlayer("5840", "Player 1")
    assert game.export_title == "1822CA"
    assert game.result is not None and game.result["91"] == 13859
    assert game.actions[0]["type"] == "bid" and game.actions[0]["company"] == "M6"


def test_applied_actions_interleave_auto_actions() -> None:
    game = load_export(FIXTURES / "1822CA" / "1822CA_game_end_bank.json")
    applied = game.applied_actions()
    nested = sum(len(a.get("auto_actions") or ()) for a in game.actions)
    assert len(applied) == len(game.actions) + nested
    parent = next(i for i, a in enumerate(applied) if a.get("auto_actions"))
    assert applied[parent + 1] == applied[parent]["auto_actions"][0]


def test_scenario_titles_are_respelled() -> None:
    game = load_export(FIXTURES / "1822CAERS" / "1822CAERS_game_end_bank.json")
    assert (game.export_title, game.title) == ("1822CA ERS", "1822CA-ERS")


def minimal(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": "hs_abc_77",
        "title": "1867",
        "players": [{"id": 1, "name": "A"}, {"id": 2, "name": "B"}, {"id": 3, "name": "C"}],
        "settings": {"seed": 5, "optional_rules": ["grid_market"]},
        "actions": [
            {"id": 1, "type": "pass", "entity": 1, "entity_type": "player"},
            {"id": 2, "type": "message", "message": "hi", "entity": 2},
            {"id": 3, "type": "bid", "entity": 2, "company": "C&SL", "price": 20,
             "auto_actions": [{"type": "pass", "entity": 3}]},
            {"id": 4, "type": "undo", "entity": 2},
        ],
        "result": {"1": 10, "2": 20, "3": 30},
        "game_end_reason": "bank",
    }
    data.update(changes)
    return data


def test_minimal_export() -> None:
    game = parse_export(minimal())
    assert [a["id"] for a in game.actions] == [1]
    assert [m["message"] for m in game.messages] == ["hi"]
    assert game.optional_rules == ("grid_market",)
    assert game.players[2] == ImportedPlayer("3", "C")
    assert game.result == {"1": 10, "2": 20, "3": 30}


def test_seed_falls_back_to_the_digits_of_the_game_id() -> None:
    assert parse_export(minimal(settings={"seed": ""})).seed == 77
    assert parse_export(minimal(settings={})).seed == 77
    assert parse_export(minimal(settings={"seed": None}, id=4242)).seed == 4242


def test_optional_fields_may_be_absent() -> None:
    data = minimal()
    del data["result"], data["game_end_reason"], data["settings"]
    game = parse_export(data)
    assert game.result is None and game.game_end_reason is None and game.optional_rules == ()


def test_player_without_id_uses_the_name() -> None:
    players = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]
    game = parse_export(minimal(players=players, result=None))
    assert [p.id for p in game.players] == ["Ann", "Bob", "Cy"]


def broken(**changes: Any) -> str:
    with pytest.raises(ExportFormatError) as info:
        parse_export(minimal(**changes), "game.json")
    return str(info.value)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"title": "1830"}, "game.json: title: '1830' is not a title we play"),
        ({"title": 1867}, "game.json: title: must be a string, not an integer"),
        ({"title": "1822CAERS"}, "title: '1822CAERS' is not a title we play"),
        ({"players": {}}, "players: must be an array, not an object"),
        ({"players": [{"id": 1, "name": "A"}]}, "players: 1867 is for 2-6 players, not 1"),
        ({"players": [{"id": 1}, {"id": 2, "name": "B"}]}, "players[0].name: is missing"),
        ({"players": [{"id": 1.5, "name": "A"}, {"id": 2, "name": "B"}]},
         "players[0].id: must be an integer or a string, not a number"),
        ({"players": [{"id": 1, "name": "A"}, {"id": "1", "name": "B"}]},
         "players[1].id: '1' is used by two players"),
        ({"settings": []}, "settings: must be an object, not an array"),
        ({"settings": {"seed": "x"}}, "settings.seed: must be an integer, not 'x'"),
        ({"settings": {"seed": 1, "optional_rules": "grid"}},
         "settings.optional_rules: must be an array"),
        ({"actions": None}, "actions: must be an array, not null"),
        ({"actions": [{"id": 1}]}, "actions[0].type: is missing"),
        ({"actions": [{"id": 1, "type": 7}]}, "actions[0].type: must be a string"),
        ({"actions": [{"type": "pass"}]}, "actions[0].id: is missing"),
        ({"actions": [{"id": "1", "type": "pass"}]}, "actions[0].id: must be an integer"),
        ({"actions": ["pass"]}, "actions[0]: must be an object, not a string"),
        ({"actions": [{"id": 1, "type": "pass", "auto_actions": [{}]}]},
         "actions[0].auto_actions[0].type: is missing"),
        ({"actions": [{"id": 1, "type": "undo", "action_id": 9}]},
         "actions[0]: undo to action_id 9, which is not in the log"),
        ({"actions": [{"id": 1, "type": "redo"}]}, "actions[0]: redo with nothing to redo"),
        ({"result": {"9": 1}}, "result.9: is not one of the players' ids"),
        ({"result": {"1": "10"}}, "result.1: must be an integer, not a string"),
        ({"game_end_reason": 3}, "game_end_reason: must be a string"),
        ({"id": [1]}, "id: must be an integer or a string, not an array"),
    ],
)
def test_broken_exports_say_where_and_why(changes: dict[str, Any], message: str) -> None:
    assert message in broken(**changes)


@pytest.mark.parametrize("key", ["title", "players", "actions"])
def test_missing_required_keys(key: str) -> None:
    data = minimal()
    del data[key]
    with pytest.raises(ExportFormatError, match=f"x.json: {key}: is missing"):
        parse_export(data, "x.json")


def test_top_level_must_be_an_object() -> None:
    with pytest.raises(ExportFormatError, match=r"\(top level\): must be an object, not an array"):
        parse_export_text("[1, 2]", "x.json")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "is empty"),
        (b"  \n", "is empty"),
        (b"{\"title\": ", "line 1 column 11: not JSON"),
        (b"\x00\xff\xfe\x89PNG", "is not UTF-8 text"),
        (b"title: 1867\n", "line 1 column 1: not JSON"),
    ],
)
def test_files_that_are_not_json(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(ExportFormatError, match=message) as info:
        load_export(path)
    assert str(path) in str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ExportFormatError, match="cannot be read"):
        load_export(tmp_path / "nope.json")


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(minimal()).encode())
    assert load_export(path).title == "1867"


def test_oversized_file_is_refused_before_parsing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.json"
    path.write_text(json.dumps(minimal()), encoding="utf-8")
    monkeypatch.setattr(import_18xxgames, "MAX_EXPORT_BYTES", 100)
    monkeypatch.setattr(import_18xxgames.json, "loads", _must_not_parse)
    with pytest.raises(ExportFormatError, match="exports over 100 are refused"):
        load_export(path)


def _must_not_parse(text: str) -> Any:
    raise AssertionError("parsed a file that should have been refused")
