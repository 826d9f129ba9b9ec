"""Save files (desk18xx.io.savefile): round trip, tamper detection, bad files, atomic writes."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
import yaml

from desk18xx.io import atomic, migrations, savefile
from desk18xx.io.import_18xxgames import load_export
from desk18xx.io.savechain import rechain
from desk18xx.io.savefile import (
    SavedGame,
    SavedPlayer,
    SaveFormatError,
    SaveHeader,
    SaveWriteError,
    StateDigestError,
    TamperedSaveError,
    dump_save,
    load_save,
    save_game,
)

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"

HEADER = SaveHeader(
    title="1822CA-WRS",
    players=(SavedPlayer("1", "Ann"), SavedPlayer("2", "Bø"), SavedPlayer("3", "Cy")),
    seed=2029016302,
    options=("some_option",),
)


def actions() -> list[dict[str, Any]]:
    return [
        {"type": "bid", "entity": 1, "entity_type": "player", "id": 1, "company": "M24",
         "price": 100},
        {"type": "bid", "entity": 2, "entity_type": "player", "id": 2, "company": "P1",
         "price": 5},
        {"type": "message", "entity": 2, "entity_type": "player", "id": 3,
         "message": "gl hf — ünïcödé: 'quotes' \"and\" colons: yes"},
        {"type": "undo", "entity": 2, "entity_type": "player", "id": 4},
        {"type": "pass", "entity": 3, "entity_type": "player", "id": 5,
         "auto_actions": [{"type": "pass", "entity": 1, "entity_type": "player"}]},
        {"type": "run_routes", "entity": "CPR", "entity_type": "corporation", "id": 6,
         "routes": [{"train": "L-0", "connections": [["local", "T14"]], "revenue": 30}]},
        {"type": "par", "entity": 1, "entity_type": "player", "id": 7, "corporation": "CPR",
         "share_price": "60,0,10"},
    ]


@pytest.fixture()
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "game.yaml"
    save_game(path, HEADER, actions(), "digest-1", notes={"1": "watch P8", "3": ""})
    return path


def edit(path: Path, change: Any) -> None:
    """Rewrite the save's YAML after `change(document)` (as a hand edit would)."""
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True), "utf-8")


# --- round trip ----------------------------------------------------------------------

def test_round_trip(saved: Path) -> None:
    game = load_save(saved)
    assert game.header == HEADER
    assert list(game.actions) == actions()
    assert game.state_digest == "digest-1"
    assert game.notes == {"1": "watch P8", "3": ""}
    assert game.format_version == migrations.CURRENT_VERSION
    assert game.app_version
    assert [a["id"] for a in game.effective_actions()] == [1, 5, 6, 7]


def test_file_shape(saved: Path) -> None:
    document = yaml.safe_load(saved.read_text(encoding="utf-8"))
    assert list(document) == [
        "format_version", "app_version", "setup", "setup_hash", "notes", "actions", "end"
    ]
    assert document["setup"] == {
        "title": "1822CA-WRS", "variant": None, "options": ["some_option"],
        "players": [{"id": "1", "name": "Ann"}, {"id": "2", "name": "Bø"},
                    {"id": "3", "name": "Cy"}],
        "seed": 2029016302,
    }
    assert all(len(entry["hash"]) == 16 for entry in document["actions"])
    assert document["end"]["action_count"] == 7
    assert document["end"]["head"] == document["actions"][-1]["hash"]
    # one line per action, 18xx.games field names in their own order
    text = saved.read_text(encoding="utf-8")
    assert "\n  action: {\"type\": \"bid\", \"entity\": 1, \"entity_type\": \"player\", " in text


@pytest.mark.parametrize(
    "value",
    [
        "plain", "", "with \"quotes\" and 'apostrophes'", "back\\slash", "line\nbreak\ttab\r",
        "ünïcödé ✓ 😀", "nel\x85", "ls\u2028ps\u2029", "bom\ufeff", "\x07bell\x1b", "\ufffe",
        "null", "true", "~", "- item", "# comment", "key: value", "{a: 1}", "*alias", "&anchor",
        "%YAML", "0x1F", "0b101", "1e5", "1_000", "12:30:00", ".inf", "NaN",
        0, -1, 2**40, 0.1, -0.0, 1e-05, 1e20, 1.5e300, True, False, None, [], {},
        [1, [2, [3]]], {"nested": {"deep": ["x", {"k": "v"}]}}, {"1": "int-looking key"},
    ],
)
def test_any_json_value_round_trips_exactly(tmp_path: Path, value: Any) -> None:
    action = {"type": "message", "id": 1, "message": value}
    path = tmp_path / "v.yaml"
    save_game(path, HEADER, [action], "d")
    loaded = load_save(path).actions[0]
    assert loaded == action
    assert json.dumps(loaded) == json.dumps(action)  # same types (no 1 vs 1.0 vs True)


def test_tuples_and_int_keys_are_saved_as_json_would() -> None:
    text = dump_save(HEADER, [{"type": "x", "l": (1, 2), "m": {3: "y"}}], "d")
    assert '"l": [1, 2], "m": {"3": "y"}' in text


def test_the_example_in_the_format_doc_is_a_valid_save(tmp_path: Path) -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "save-format.md").read_text("utf-8")
    example = doc.split("```yaml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "example.yaml"
    path.write_text(example, encoding="utf-8")
    game = load_save(path)
    assert game.header.title == "1822CA-WRS" and len(game.actions) == 2
    assert dump_save(game.header, game.actions, game.state_digest, notes=game.notes) == example


def test_output_is_deterministic() -> None:
    assert dump_save(HEADER, actions(), "d") == dump_save(HEADER, actions(), "d")


def test_empty_game_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "new.yaml"
    save_game(path, HEADER, [], "start")
    game = load_save(path)
    assert game.actions == () and game.state_digest == "start" and game.notes == {}


@pytest.mark.parametrize("fixture", sorted(p.name for p in FIXTURES.glob("*/*.json")))
def test_every_fixture_log_round_trips(tmp_path: Path, fixture: str) -> None:
    source = next(FIXTURES.glob(f"*/{fixture}"))
    raw = json.loads(source.read_text(encoding="utf-8"))["actions"]
    imported = load_export(source)
    path = tmp_path / "imported.yaml"
    save_game(path, SaveHeader.from_import(imported), raw, "x")
    game = load_save(path)
    assert list(game.actions) == raw
    assert game.effective_actions() == list(imported.actions)
    assert game.header.title == imported.title and game.header.seed == imported.seed


# --- tampering -----------------------------------------------------------------------

def tampered(path: Path) -> TamperedSaveError:
    with pytest.raises(TamperedSaveError) as info:
        load_save(path)
    return info.value


def test_changed_amount_is_found_at_its_index(saved: Path) -> None:
    edit(saved, lambda d: d["actions"][1]["action"].update(price=500))
    error = tampered(saved)
    assert error.index == 1
    assert "actions[1]: fails the hash chain: action 1 (id 2)" in str(error)


def test_changed_nested_value_is_found(saved: Path) -> None:
    edit(saved, lambda d: d["actions"][5]["action"]["routes"][0].update(revenue=300))
    assert tampered(saved).index == 5


def test_removed_action_is_found_at_its_index(saved: Path) -> None:
    edit(saved, lambda d: d["actions"].pop(3))
    assert tampered(saved).index == 3


def test_removed_last_action_is_found(saved: Path) -> None:
    edit(saved, lambda d: d["actions"].pop())
    error = tampered(saved)
    assert error.index == 6
    assert "end.action_count: says 7 actions but the file has 6" in str(error)


def test_removed_last_action_with_fixed_count_is_found_by_head(saved: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        d["actions"].pop()
        d["end"]["action_count"] = 6

    edit(saved, change)
    error = tampered(saved)
    assert error.where == "end.head"


def test_reordered_pair_is_found_at_the_first_of_them(saved: Path) -> None:
    def swap(d: dict[str, Any]) -> None:
        a = d["actions"]
        a[4], a[5] = a[5], a[4]

    edit(saved, swap)
    assert tampered(saved).index == 4


def test_inserted_action_is_found(saved: Path) -> None:
    extra = {"hash": "0000000000000000", "action": {"type": "pass", "entity": 1, "id": 99}}
    edit(saved, lambda d: d["actions"].insert(2, extra))
    assert tampered(saved).index == 2


def test_edited_hash_is_found(saved: Path) -> None:
    edit(saved, lambda d: d["actions"][0].update(hash="ffffffffffffffff"))
    assert tampered(saved).index == 0


def test_edited_setup_is_found(saved: Path) -> None:
    edit(saved, lambda d: d["setup"].update(seed=1))
    error = tampered(saved)
    assert error.index is None and error.where == "setup"


def test_notes_may_be_edited(saved: Path) -> None:
    edit(saved, lambda d: d["notes"].update({"2": "my plan"}))
    assert load_save(saved).notes["2"] == "my plan"


def test_state_digest_is_checked_by_replaying(saved: Path) -> None:
    seen: list[SavedGame] = []

    def replay(game: SavedGame) -> str:
        seen.append(game)
        return "digest-1"

    assert load_save(saved, replay_digest=replay) is not None
    assert len(seen[0].actions) == 7
    with pytest.raises(StateDigestError, match="replay to state other, the file says digest-1"):
        load_save(saved, replay_digest=lambda game: "other")


def test_hash_chain_does_not_depend_on_yaml_layout(saved: Path) -> None:
    # block style, different quoting: same data, same chain
    edit(saved, lambda d: None)
    assert load_save(saved).state_digest == "digest-1"


# --- bad files -----------------------------------------------------------------------

def bad(path: Path, content: bytes | str) -> str:
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    with pytest.raises(SaveFormatError) as info:
        load_save(path)
    assert str(path) in str(info.value)
    return str(info.value)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "(file): is empty"),
        ("\n\n   \n", "(file): is empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "is not a text file (it contains NUL bytes)"),
        (b"format_version: 1\nname: \xff\xfe\n", "is not UTF-8 text (byte 24)"),
        ("format_version: 1\nsetup: [1, 2\n", "not valid YAML"),
        ("a: b: c\n", "line 1 column 5: not valid YAML"),
        ("- 1\n- 2\n", "(top level): must be a mapping, not a list"),
        ("just a string", "(top level): must be a mapping, not a string"),
        ("title: 1867\n", "format_version: is missing (not a desk18xx save?)"),
        ("format_version: '1'\n", "format_version: must be an integer, not a string"),
        ("format_version: 3\n", "was written by a newer desk18xx; this version reads formats "
                                "up to 2: update the app"),
        ("format_version: 0\n", "format_version 0 does not exist"),
        ("format_version: 1\n", "app_version: is missing"),
        ("format_version: !!python/object/apply:os.system ['echo hi']\n", "not valid YAML"),
        ("a: &x [1, 2]\nb: *x\n", "not valid YAML: aliases (*name) are not allowed"),
    ],
)
def test_unreadable_files(tmp_path: Path, content: bytes | str, message: str) -> None:
    assert message in bad(tmp_path / "bad.yaml", content)


def test_billion_laughs_is_refused_quickly(tmp_path: Path) -> None:
    lines = ["format_version: 1", 'l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]" for i in range(1, 12)]
    assert "aliases (*name) are not allowed" in bad(tmp_path / "lol.yaml", "\n".join(lines))


def test_truncated_file(saved: Path) -> None:
    text = saved.read_text(encoding="utf-8")
    cut_mid_line = text[: len(text) * 2 // 3]
    message = bad(saved, cut_mid_line)
    assert "not valid YAML" in message or "is missing" in message or "must be" in message
    cut_at_line = text[: text.index("\nend:") + 1]
    assert "end: is missing (file truncated?)" in bad(saved, cut_at_line)


def test_huge_file_is_refused_by_size_before_parsing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as handle:
        handle.write(b"format_version: 1\n")
        handle.truncate(100 * 1024 * 1024)  # sparse: 100 MB without writing them

    def must_not_read(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("read a file that should have been refused by size")

    monkeypatch.setattr(Path, "read_bytes", must_not_read)
    monkeypatch.setattr(yaml, "load", must_not_read)
    with pytest.raises(SaveFormatError, match="is 104857600 bytes; saves over 33554432"):
        load_save(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(SaveFormatError, match="cannot be read"):
        load_save(tmp_path / "none.yaml")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["setup"].pop("title"), "setup.title: is missing"),
        (lambda d: d["setup"].update(title="1830"), "setup.title: '1830' is not a title we play"),
        (lambda d: d["setup"].update(seed="5"), "setup.seed: must be an integer, not a string"),
        (lambda d: d["setup"].update(seed=True), "setup.seed: must be an integer, not a boolean"),
        (lambda d: d["setup"].update(variant=3), "setup.variant: must be a string or null"),
        (lambda d: d["setup"].update(players=d["setup"]["players"][:1]),
         "setup.players: 1822CA-WRS is for 2-5 players, not 1"),
        (lambda d: d["setup"]["players"][1].update(id="1"), "two players have the same id"),
        (lambda d: d["setup"]["players"][0].update(id=1), "setup.players[0].id: must be a string"),
        (lambda d: d["actions"][2]["action"].pop("type"), "actions[2].action.type: is missing"),
        (lambda d: d["actions"][2].pop("hash"), "actions[2].hash: is missing"),
        (lambda d: d.update(actions={}), "actions: must be a list, not a mapping"),
        (lambda d: d["notes"].update({"1": 5}), "notes.1: must be a string, not an integer"),
        (lambda d: d["end"].pop("state_digest"), "end.state_digest: is missing"),
    ],
)
def test_schema_errors_name_the_place(saved: Path, change: Any, message: str) -> None:
    edit(saved, change)
    with pytest.raises(SaveFormatError) as info:
        load_save(saved)
    assert message in str(info.value)


# --- migrations ----------------------------------------------------------------------

def test_migrate_applies_steps_in_order() -> None:
    def one_to_two(d: dict[str, Any]) -> dict[str, Any]:
        return {**d, "two": True}

    def two_to_three(d: dict[str, Any]) -> dict[str, Any]:
        assert d["format_version"] == 2 and d["two"]
        return {**d, "three": True}

    document = {"format_version": 1}
    result = migrations.migrate(document, 1, current=3, steps={1: one_to_two, 2: two_to_three})
    assert result == {"format_version": 3, "two": True, "three": True}
    assert document == {"format_version": 1}


def test_migrate_reports_gaps_and_future_versions() -> None:
    with pytest.raises(migrations.MigrationError, match="no migration from format_version 1"):
        migrations.migrate({}, 1, current=2, steps={})
    with pytest.raises(migrations.MigrationError, match="newer desk18xx"):
        migrations.migrate({}, 3, current=2, steps={})
    assert migrations.migrate({"x": 1}, 1) == {"x": 1, "format_version": 2}
    assert migrations.migrate({"x": 1}, 2) == {"x": 1}


def test_load_migrates_an_old_save(saved: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def rename_player(d: dict[str, Any]) -> dict[str, Any]:
        d["setup"]["players"][0]["name"] = "Ann (v2)"
        return rechain(d)

    monkeypatch.setattr(migrations, "CURRENT_VERSION", 3)
    monkeypatch.setitem(migrations.MIGRATIONS, 2, rename_player)
    game = load_save(saved)
    assert game.format_version == 2
    assert game.header.players[0].name == "Ann (v2)"


# --- atomic writes -------------------------------------------------------------------

def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_second_save_keeps_the_first_as_bak(saved: Path) -> None:
    first = saved.read_bytes()
    assert not saved.with_name("game.yaml.bak").exists()
    save_game(saved, HEADER, actions()[:2], "digest-2")
    assert saved.with_name("game.yaml.bak").read_bytes() == first
    assert load_save(saved).state_digest == "digest-2"
    assert load_save(saved.with_name("game.yaml.bak")).state_digest == "digest-1"
    assert leftovers(saved.parent) == []


@pytest.mark.parametrize(
    ("bad_actions", "bad_header"),
    [
        ([{"type": "pass", "when": object()}], HEADER),
        ([{"type": "pass", "x": float("nan")}], HEADER),
        ([{"entity": 1}], HEADER),
        ([{"type": "message", "message": "lone \ud800 surrogate"}], HEADER),
        (["pass"], HEADER),
        (actions(), SaveHeader("1867", (SavedPlayer("1", "solo"),), 1)),
        (actions(), SaveHeader("9999", HEADER.players, 1)),
    ],
)
def test_invalid_content_is_refused_and_the_old_file_survives(
    saved: Path, bad_actions: list[dict[str, Any]], bad_header: SaveHeader
) -> None:
    before = saved.read_bytes()
    with pytest.raises(ValueError):
        save_game(saved, bad_header, bad_actions, "x")
    assert saved.read_bytes() == before
    assert not saved.with_name("game.yaml.bak").exists()
    assert leftovers(saved.parent) == []


@pytest.mark.parametrize("failing", ["replace", "fsync", "write"])
def test_disk_failure_never_destroys_the_existing_file(
    saved: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    before = saved.read_bytes()

    def fail(*args: Any, **kwargs: Any) -> Any:
        raise OSError(28, "No space left on device")

    if failing == "write":
        monkeypatch.setattr(atomic.os, "fdopen", fail)
    else:
        monkeypatch.setattr(atomic.os, failing, fail)
    with pytest.raises(SaveWriteError, match="No space left on device"):
        save_game(saved, HEADER, actions()[:1], "new")
    monkeypatch.undo()
    assert saved.read_bytes() == before
    assert load_save(saved).state_digest == "digest-1"
    assert leftovers(saved.parent) == []


def test_save_into_a_missing_folder_fails_cleanly(tmp_path: Path) -> None:
    with pytest.raises(SaveWriteError, match="cannot save"):
        save_game(tmp_path / "no" / "such" / "game.yaml", HEADER, [], "x")


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_new_file_gets_normal_permissions_and_keeps_existing_ones(saved: Path) -> None:
    umask = os.umask(0)
    os.umask(umask)
    assert saved.stat().st_mode & 0o777 == 0o666 & ~umask
    saved.chmod(0o640)
    save_game(saved, HEADER, [], "y")
    assert saved.stat().st_mode & 0o777 == 0o640


def test_savefile_module_has_a_size_limit_constant() -> None:
    assert savefile.MAX_SAVE_BYTES < 100 * 1024 * 1024
