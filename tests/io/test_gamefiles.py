"""Opening save files: round trips of every shared fixture, bad input and tampering.

Every refusal is checked for its message and for leaving the user's files alone.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from desk18xx.cli import main
from desk18xx.io import yamlio
from desk18xx.io.import_18xxgames import ExportFormatError
from desk18xx.io.replaying import IllegalSaveError, digest_of, open_save, replay_log
from desk18xx.io.savechain import rechain
from desk18xx.io.savefile import (
    SaveFormatError,
    StateDigestError,
    TamperedSaveError,
    dump_save,
    save_game,
)
from desk18xx.io.transfer import export_text, save_from_export

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
SMALL = FIXTURES / "1867" / "hs_ahjzadkh_19792.json"

NOT_YET_REPLAYABLE: dict[str, str] = {}
"""Fixture (``title-folder/file``) -> why our engine cannot replay it yet. Listed
fixtures are strict xfails: the test fails as soon as they replay, so remove them then."""


def fixture_params() -> list[Any]:
    params = []
    for path in sorted(FIXTURES.glob("*/*.json")):
        key = f"{path.parent.name}/{path.name}"
        marks = [pytest.mark.xfail(strict=True, reason=NOT_YET_REPLAYABLE[key])] \
            if key in NOT_YET_REPLAYABLE else []
        params.append(pytest.param(path, id=key, marks=marks))
    assert params, f"no fixtures under {FIXTURES}"
    return params


@pytest.mark.slow  # three replays of a whole game each (3-15 s for an 1822CA fixture)
@pytest.mark.parametrize("fixture", fixture_params())
def test_round_trip_of_a_fixture(fixture: Path, tmp_path: Path) -> None:
    recorded = json.loads(fixture.read_text(encoding="utf-8"))
    converted = save_from_export(fixture)           # import: replayed through our engine
    game = converted.replayed.game
    assert game.finished and game.end_reason == recorded["game_end_reason"]
    assert game.result() == recorded["result"]
    digest = digest_of(game)

    save = tmp_path / "game.yaml"
    save_game(save, converted.header, converted.actions, digest)
    start = time.perf_counter()
    opened = open_save(save)                        # load: chain, replay, digest
    seconds = time.perf_counter() - start
    assert opened.saved.state_digest == digest == digest_of(opened.game)
    assert opened.game.result() == recorded["result"]
    print(f"{fixture.name}: {save.stat().st_size} bytes, opened in {seconds:.2f} s")

    exported = tmp_path / "export.json"             # export and import again
    exported.write_text(export_text(opened.saved.header, opened.saved.actions, opened.game),
                        encoding="utf-8")
    document = json.loads(exported.read_text(encoding="utf-8"))
    assert document["title"] == recorded["title"]
    assert document["actions"] == recorded["actions"]
    assert document["result"] == recorded["result"]
    again = save_from_export(exported)
    assert digest_of(again.replayed.game) == digest
    assert again.replayed.game.result() == recorded["result"]
    assert dump_save(again.header, again.actions, digest) == save.read_text(encoding="utf-8")


# --- a small game to break ------------------------------------------------------------

@pytest.fixture(scope="module")
def small_text() -> str:
    converted = save_from_export(SMALL)
    actions = converted.actions[:60]
    game = replay_log(converted.header, actions).game
    return dump_save(converted.header, actions, digest_of(game))


@pytest.fixture()
def small(tmp_path: Path, small_text: str) -> Path:
    path = tmp_path / "game.yaml"
    path.write_text(small_text, encoding="utf-8")
    return path


def edited(path: Path, change: Any, *, rehash: bool) -> Path:
    """`path` with `change(document)` applied; re-hashed consistently if `rehash`."""
    document = yamlio.load(path.read_text(encoding="utf-8"))
    change(document)
    document["end"]["action_count"] = len(document["actions"])
    if rehash:
        rechain(document)
    out = path.with_name("edited.yaml")
    out.write_text(yamlio.dump(document), encoding="utf-8")
    return out


def first_bid(document: dict[str, Any]) -> dict[str, Any]:
    return next(e["action"] for e in document["actions"] if e["action"]["type"] == "bid")


def refused(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """The message of `desk18xx verify` (which must exit 1)."""
    assert main(["verify", str(path)]) == 1
    return capsys.readouterr().err


def test_an_intact_small_save_verifies(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(small)]) == 0
    assert "OK: 1867, 4 players, 60 actions" in capsys.readouterr().out


@pytest.mark.parametrize(("name", "content", "message"), [
    ("empty", b"", "(file): is empty"),
    ("blank", b"  \n\n", "(file): is empty"),
    ("binary", bytes(range(256)) * 4, "is not a text file (it contains NUL bytes)"),
    ("latin-1", "format_version: 2\nx: \xe9\n".encode("latin-1"), "is not UTF-8 text"),
    ("invalid YAML", b"format_version: 2\nsetup: [1, 2\n", "not valid YAML"),
    ("future version", b"format_version: 99\n", "was written by a newer desk18xx; this "
                                                 "version reads formats up to 2: update the app"),
    ("not a save", b'{"some": "json"}', "format_version: is missing (not a desk18xx save?)"),
])
def test_bad_files_are_refused_with_a_message(
        tmp_path: Path, name: str, content: bytes, message: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.yaml"
    path.write_bytes(content)
    with pytest.raises(SaveFormatError) as caught:
        open_save(path)
    assert message in str(caught.value)
    assert message in refused(path, capsys)
    assert path.read_bytes() == content  # nothing touched


def test_a_truncated_file_is_refused(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = small.read_bytes()
    for cut in (len(data) // 3, len(data) // 2, len(data) - 40):
        small.write_bytes(data[:cut])
        with pytest.raises(SaveFormatError) as caught:
            open_save(small)
        text = str(caught.value)
        assert "truncated" in text or "not valid YAML" in text or "hash chain" in text, text
        assert refused(small, capsys)


def test_a_100_mb_file_is_refused_before_reading(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as handle:  # sparse: no 100 MB written to the test disk
        handle.truncate(100 * 1024 * 1024)
    start = time.perf_counter()
    with pytest.raises(SaveFormatError, match="is 104857600 bytes; saves over 33554432 are "
                                              "refused"):
        open_save(path)
    assert time.perf_counter() - start < 1
    assert "refused" in refused(path, capsys)


def test_a_title_we_do_not_play_is_refused(small: Path) -> None:
    bad = edited(small, lambda d: d["setup"].update(title="1830"), rehash=True)
    with pytest.raises(SaveFormatError, match="setup.title: '1830' is not a title we play"):
        open_save(bad)


# --- tampering ------------------------------------------------------------------------

def _index_of_first_bid(document: dict[str, Any]) -> int:
    return next(i for i, e in enumerate(document["actions"]) if e["action"]["type"] == "bid")


def test_a_changed_amount_is_found_by_the_chain(small: Path) -> None:
    document = yamlio.load(small.read_text())
    index = _index_of_first_bid(document)
    bad = edited(small, lambda d: first_bid(d).update(price=first_bid(d)["price"] + 5),
                 rehash=False)
    with pytest.raises(TamperedSaveError, match=rf"actions\[{index}\]: fails the hash chain"
                       ) as caught:
        open_save(bad)
    assert caught.value.index == index


def test_a_changed_amount_rehashed_is_found_by_the_replay(
        small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = edited(small, lambda d: first_bid(d).update(price=first_bid(d)["price"] + 5),
                 rehash=True)
    with pytest.raises((StateDigestError, IllegalSaveError)) as caught:
        open_save(bad)
    assert "replay to state" in str(caught.value) or "is illegal" in str(caught.value)
    assert refused(bad, capsys)


def test_a_removed_action_is_found(small: Path) -> None:
    bad = edited(small, lambda d: d["actions"].pop(10), rehash=False)
    with pytest.raises(TamperedSaveError, match=r"actions\[10\]: fails the hash chain"):
        open_save(bad)
    last = edited(small, lambda d: d["actions"].pop(), rehash=False)
    with pytest.raises(TamperedSaveError, match="end.head|action_count"):
        open_save(last)


def test_a_reordered_pair_is_found(small: Path) -> None:
    def swap(d: dict[str, Any]) -> None:
        d["actions"][20], d["actions"][21] = d["actions"][21], d["actions"][20]

    with pytest.raises(TamperedSaveError, match=r"actions\[20\]") as caught:
        open_save(edited(small, swap, rehash=False))
    assert caught.value.index == 20


def test_a_duplicated_action_is_illegal_when_replayed(small: Path) -> None:
    document = yamlio.load(small.read_text())
    index = _index_of_first_bid(document)
    twice = edited(small, lambda d: d["actions"].insert(index + 1, d["actions"][index]),
                   rehash=False)
    with pytest.raises(TamperedSaveError, match=rf"actions\[{index + 1}\]"):
        open_save(twice)
    rehashed = edited(small, lambda d: d["actions"].insert(index + 1, d["actions"][index]),
                      rehash=True)
    with pytest.raises(IllegalSaveError, match=rf"actions\[{index + 1}\]: action {index + 1} "
                       r"\(id \d+, bid by \d+\) is illegal: ") as caught:
        open_save(rehashed)
    assert caught.value.index == index + 1


def test_a_missing_action_rehashed_is_illegal_when_replayed(small: Path) -> None:
    bad = edited(small, lambda d: d["actions"].pop(5), rehash=True)
    with pytest.raises(IllegalSaveError, match=r"actions\[5\]: action 5 \(id \d+, pass by "
                       r"\d+\) is illegal: pass by \d+ is not possible now") as caught:
        open_save(bad)
    assert caught.value.index == 5


# --- the command line leaves the user's files alone -----------------------------------

def test_a_failed_import_keeps_the_existing_save(
        small: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = small.read_bytes()
    export = json.loads(SMALL.read_text())
    export["actions"].insert(5, export["actions"][4])
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(export))
    assert main(["import", str(broken), "--out", str(small)]) == 1
    err = capsys.readouterr().err
    assert "actions[5]: action 5 (id " in err and "is illegal" in err
    assert small.read_bytes() == before
    assert not small.with_name(small.name + ".bak").exists()
    with pytest.raises(ExportFormatError, match="actions.5."):
        save_from_export(broken)


def test_a_failed_export_keeps_the_existing_file(
        small: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.json"
    out.write_text("precious")
    small.write_text(small.read_text()[:-30])
    assert main(["export", str(small), "--out", str(out)]) == 1
    assert "desk18xx export:" in capsys.readouterr().err
    assert out.read_text() == "precious"


def test_replay_of_a_save_reports_an_illegal_action(
        small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = yamlio.load(small.read_text())
    index = _index_of_first_bid(document)
    bad = edited(small, lambda d: d["actions"].insert(index + 1, d["actions"][index]),
                 rehash=True)
    assert main(["replay", str(bad)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["failure"]["index"] == index + 1 and out["actions"] == index + 1
    assert main(["replay", "--check", str(bad)]) == 1
    assert "is illegal" in capsys.readouterr().err
