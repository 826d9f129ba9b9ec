"""Autosave: the data folder, the session marker, and restoring after a SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import platformdirs
import pytest

from desk18xx.io import autosave
from desk18xx.io.autosave import AutosaveSession, autosave_dir, data_dir, find_crashed
from desk18xx.io.replaying import digest_of, open_save, replay_log
from desk18xx.io.savefile import SavedPlayer, SaveHeader, SaveWriteError
from desk18xx.io.transfer import save_from_export

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
SMALL = FIXTURES / "1867" / "hs_ahjzadkh_19792.json"


def test_data_dir_override_wins() -> None:
    assert data_dir({"DESK18XX_DATA": "/data/d18"}) == Path("/data/d18")


def test_data_dir_is_the_platform_user_data_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DESK18XX_DATA", raising=False)
    assert data_dir() == platformdirs.user_data_path("desk18xx", appauthor=False, roaming=True)
    if sys.platform.startswith("linux"):
        monkeypatch.setenv("XDG_DATA_HOME", "/x")
        assert data_dir() == Path("/x/desk18xx")
        monkeypatch.delenv("XDG_DATA_HOME")
        assert data_dir() == Path.home() / ".local/share/desk18xx"


def test_data_dir_is_never_the_install_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DESK18XX_DATA", raising=False)
    install = Path(autosave.__file__).resolve().parents[1]
    assert install not in data_dir().resolve().parents


@pytest.fixture(scope="module")
def small() -> tuple[SaveHeader, tuple[dict[str, object], ...]]:
    converted = save_from_export(SMALL)
    return converted.header, tuple(dict(a) for a in converted.actions[:40])


def test_a_clean_exit_leaves_nothing_to_restore(
        tmp_path: Path, small: tuple[SaveHeader, tuple[dict[str, object], ...]]) -> None:
    header, actions = small
    with AutosaveSession(tmp_path) as session:
        session.save(header, actions, "d")
        assert session.path.is_file() and session.marker.is_file()
        assert find_crashed(tmp_path) == []  # we hold the lock: not a crash
    assert list(tmp_path.iterdir()) == []


def test_a_session_that_did_not_close_is_found_and_discarded(tmp_path: Path) -> None:
    (tmp_path / "20260101-000000-1.open").write_text('{"pid": 1}')
    (tmp_path / "20260101-000000-1.yaml").write_text("x")
    (tmp_path / "20260102-000000-2.open").write_text("garbage")
    crashed = find_crashed(tmp_path)
    assert sorted(c.autosave is not None for c in crashed) == [False, True]
    with_save = next(c for c in crashed if c.autosave is not None)
    assert with_save.info == {"pid": 1}
    for c in crashed:
        c.discard()
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_keeps_the_previous_autosave(
        tmp_path: Path, small: tuple[SaveHeader, tuple[dict[str, object], ...]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    header, actions = small
    session = AutosaveSession(tmp_path)
    session.save(header, actions[:10], "d10")
    before = session.path.read_bytes()

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(autosave, "write_atomic", full)
    with pytest.raises(SaveWriteError, match="No space left"):
        session.save(header, actions, "d40")
    assert session.path.read_bytes() == before
    session.close()


def test_header_errors_write_nothing(tmp_path: Path) -> None:
    bad = SaveHeader("1830", (SavedPlayer("1", "A"), SavedPlayer("2", "B")), 1)
    with AutosaveSession(tmp_path) as session, pytest.raises(ValueError):
        session.save(bad, [], "d")
    assert not session.path.exists()


CHILD = textwrap.dedent("""
    import sys, time
    from desk18xx.io.autosave import AutosaveSession, autosave_dir
    from desk18xx.io.replaying import digest_of, new_game
    from desk18xx.io.transfer import save_from_export
    from desk18xx.engine.actions import action_from_dict
    from desk18xx.engine.log import effective_actions

    converted = save_from_export(sys.argv[1])
    stop = int(sys.argv[2])
    session = AutosaveSession(autosave_dir())
    game = new_game(converted.header)
    log = []
    for raw in converted.actions:           # play as the app does: act, then autosave
        log.append(dict(raw))
        if raw["type"] in ("undo", "redo", "message"):
            continue
        game.process(action_from_dict(raw))
        session.save(converted.header, log, digest_of(game))
        if len(effective_actions(log)) == stop:
            break
    print(len(log), flush=True)
    time.sleep(60)                          # killed here
""")


def test_after_a_sigkill_the_autosave_restores_the_game(
        tmp_path: Path, small: tuple[SaveHeader, tuple[dict[str, object], ...]]) -> None:
    if not hasattr(signal, "SIGKILL"):
        pytest.skip("no SIGKILL on this platform")
    env = dict(os.environ, DESK18XX_DATA=str(tmp_path))
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(SMALL), "25"], env=env,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        written = int(child.stdout.readline())
        assert find_crashed(autosave_dir(tmp_path)) == []  # still running: not a crash
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(10)
    crashed = find_crashed(autosave_dir(tmp_path))
    assert len(crashed) == 1 and crashed[0].autosave is not None
    assert crashed[0].info["pid"] == child.pid
    restored = open_save(crashed[0].autosave)  # hash chain, replay and digest all checked
    assert restored.replayed.applied == 25
    header, _ = small
    expected = replay_log(header, save_from_export(SMALL).actions[:written])
    assert digest_of(restored.game) == digest_of(expected.game)
    crashed[0].discard()
    assert find_crashed(autosave_dir(tmp_path)) == []


def test_settings_autosaves_and_mail_copies_share_one_data_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from desk18xx.io.paths import pbem_dir, settings_file

    monkeypatch.setenv("DESK18XX_DATA", str(tmp_path))
    assert autosave_dir() == tmp_path / "autosave"
    assert settings_file() == tmp_path / "settings.ini"
    assert pbem_dir() == tmp_path / "pbem"
    assert autosave.data_dir is data_dir  # one implementation, in desk18xx.io.paths


def test_the_autosave_keeps_the_whole_study_tree(
        tmp_path: Path, small: tuple[SaveHeader, tuple[dict[str, object], ...]]) -> None:
    from desk18xx.engine.log import effective_actions
    from desk18xx.engine.variations import Mark, tree_from_log
    from desk18xx.io.study import load_study

    header, actions = small
    log = [dict(a) for a in actions[:12]]
    log += [{"type": "undo", "entity": log[-1]["entity"], "id": 1000},
            {"type": "undo", "entity": log[-1]["entity"], "id": 1001}]
    tree = tree_from_log(log)  # the two actions taken back are a line of their own
    tree.set_name(tree.current.children[0], "taken back")
    tree.set_note(tree.path()[3], "why?")
    tree.set_marks(tree.path()[4], [Mark.MISTAKE])
    live = list(effective_actions(log))
    digest = digest_of(replay_log(header, live).game)
    with AutosaveSession(tmp_path) as session:
        session.save(header, log, digest, tree=tree)
        session.save(header, log, digest, tree=tree)  # cached node hashes and lines
        tree.set_note(tree.path()[2], "changed")  # a changed node is written anew
        session.save(header, log, digest, tree=tree)
        from desk18xx.io.savefile import dump_save
        from desk18xx.io.study import LINE_CURRENT, study_section

        assert session.path.read_text(encoding="utf-8") == dump_save(
            header, log, digest, study=study_section(header, tree, line=LINE_CURRENT))
        loaded = load_study(session.path, replay_digest=lambda s: digest_of(
            replay_log(s.header, s.actions).game))
        assert open_save(session.path).replayed.applied == 10
    restored = loaded.tree
    assert len(restored) == len(tree) == 13
    assert restored.current.id == tree.current.id and len(restored.path()) == 10
    assert restored.current.children[0].name == "taken back"
    assert restored.path()[3].note == "why?" and restored.path()[2].note == "changed"
    assert restored.path()[4].marks == [Mark.MISTAKE]
    assert loaded.saved.study is not None and loaded.saved.study["line"] == "current"
