"""File commands: autosave after each action, restore after a crash, e-mail moves, 18xx.games."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMainWindow, QMessageBox

from desk18xx.engine.game import GameSetup
from desk18xx.engine.variations import action_key
from desk18xx.io.autosave import AutosaveSession, find_crashed
from desk18xx.io.pbem import History
from desk18xx.io.replaying import digest_of, open_save
from desk18xx.io.savefile import dump_save
from desk18xx.ui.dialogs.pbem import MailDialog, ReceivedMoveDialog
from desk18xx.ui.files import FileActions, header_of, is_email_move, offer_restore
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
SETUP = GameSetup("1867", (("1", "Ann"), ("2", "Bob"), ("3", "Cy")), seed=5)


@pytest.fixture(autouse=True)
def settings(tmp_path: Path) -> None:
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope,
                      str(tmp_path / "settings"))


@pytest.fixture()
def warnings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        lambda parent, title, text: shown.append(text))
    return shown


def play(session: GameSession, count: int, seed: int = 1) -> None:
    """Submit `count` random legal moves, or until the player to move changes."""
    rng = random.Random(seed)
    for _ in range(count):
        moves = session.game.legal_moves(rng)
        assert session.submit(moves[0] if len(moves) == 1 else rng.choice(moves))


def make(qtbot: Any, folder: Path, autosave: bool = False) -> tuple[GameSession, FileActions]:
    session = GameSession()
    window = QMainWindow()
    qtbot.addWidget(window)
    files = FileActions(session, window, AutosaveSession(folder / "autosave") if autosave
                        else None, data=folder)
    return session, files


def test_every_action_is_autosaved(qtbot: Any, tmp_path: Path) -> None:
    session, files = make(qtbot, tmp_path, autosave=True)
    session.new_game(SETUP)
    play(session, 5)
    assert files.autosave_session is not None
    assert files.autosave_pending  # written once the window has shown the move
    qtbot.waitUntil(lambda: not files.autosave_pending)
    restored = open_save(files.autosave_session.path)
    assert restored.replayed.applied == 5
    assert digest_of(restored.game) == digest_of(session.game)
    session.undo()
    qtbot.waitUntil(lambda: not files.autosave_pending)
    assert open_save(files.autosave_session.path).replayed.applied == 4
    files.close()
    assert list((tmp_path / "autosave").iterdir()) == []


def test_a_crashed_session_is_offered_and_restored(qtbot: Any, tmp_path: Path) -> None:
    crashed, _ = make(qtbot, tmp_path)
    crashed.new_game(SETUP)
    play(crashed, 7)
    folder = tmp_path / "autosave"
    folder.mkdir()
    (folder / "20260101-120000-99.open").write_text('{"pid": 99, "started": "noon"}')
    (folder / "20260101-120000-99.yaml").write_text(
        dump_save(header_of(SETUP), crashed.line.raw, digest_of(crashed.game)))
    (folder / "20260101-110000-98.open").write_text("{}")  # crashed before any action
    questions: list[str] = []
    session = GameSession()

    def ask(question: str) -> bool:
        questions.append(question)
        return True

    assert offer_restore(None, session, folder, ask=ask)
    assert len(questions) == 1 and "started noon" in questions[0]
    assert len(session.actions()) == 7
    assert digest_of(session.game) == digest_of(crashed.game)
    assert find_crashed(folder) == [] and list(folder.iterdir()) == []


def test_a_declined_restore_discards_the_autosave(tmp_path: Path) -> None:
    folder = tmp_path / "autosave"
    folder.mkdir()
    (folder / "x.open").write_text("{}")
    (folder / "x.yaml").write_text("broken")
    session = GameSession()
    assert not offer_restore(None, session, folder, ask=lambda q: False)
    assert not session.has_game and list(folder.iterdir()) == []


def test_two_players_exchange_moves_through_the_menus(
        qtbot: Any, tmp_path: Path, warnings: list[str]) -> None:
    mail = tmp_path / "mail"
    mail.mkdir()
    ann, ann_files = make(qtbot, tmp_path / "ann")
    bob, bob_files = make(qtbot, tmp_path / "bob")
    ann.new_game(SETUP)
    header = header_of(SETUP)
    ann_files.set_me(header, "1")
    play(ann, 1)
    sent = ann_files.save_for_email(str(mail))
    assert sent is not None and sent.path.parent == mail
    dialog = ann_files.window.findChild(MailDialog)
    assert dialog is not None and "Next: Bob." in dialog.body.toPlainText()

    bob_files.set_me(header, "2")
    move = bob_files.open_email_move(str(sent.path), confirm=False)
    assert move is not None and move.history.kind is History.EXTENDS
    assert len(bob.actions()) == 1 and not warnings
    status = bob_files.window.statusBar().currentMessage()
    assert status == "1 new action."  # an auction bid: nothing on the map to outline
    view = ReceivedMoveDialog(move, {"1": "Ann", "2": "Bob", "3": "Cy"})
    qtbot.addWidget(view)
    assert len(view.highlighted()) == 1 and "Ann" in view.highlighted()[0]

    assert is_email_move(str(sent.path), data=tmp_path / "ann")  # Ann keeps a copy
    assert is_email_move(str(sent.path), data=tmp_path / "bob")  # Bob now too
    assert not is_email_move(str(sent.path), data=tmp_path / "cy")
    assert not is_email_move(str(tmp_path / "missing.d18xx"), data=tmp_path / "ann")
    play(bob, 1, seed=2)
    back = bob_files.save_for_email(str(mail))
    assert back is not None
    again = ann_files.open_email_move(str(back.path), confirm=False)
    assert again is not None and len(again.new_events) == 1
    assert len(ann.actions()) == 2


def test_a_bad_move_leaves_the_game_on_screen(
        qtbot: Any, tmp_path: Path, warnings: list[str]) -> None:
    session, files = make(qtbot, tmp_path)
    session.new_game(SETUP)
    play(session, 3)
    game = session.game
    bad = tmp_path / "bad.d18xx"
    bad.write_text(dump_save(header_of(SETUP), session.line.raw, "wrong digest"))
    assert files.open_email_move(str(bad), confirm=False) is None
    assert session.game is game and len(session.actions()) == 3
    assert warnings and "is not a state digest" in warnings[0]


def test_a_move_of_another_game_opens_that_game(
        qtbot: Any, tmp_path: Path, warnings: list[str]) -> None:
    session, files = make(qtbot, tmp_path)
    session.new_game(SETUP)
    other = GameSetup("1867", SETUP.players, seed=6)
    other_session, _ = make(qtbot, tmp_path / "o")
    other_session.new_game(other)
    path = tmp_path / "other.d18xx"
    path.write_text(dump_save(header_of(other), [], digest_of(other_session.game)))
    files.set_me(header_of(other), "2")
    move = files.open_email_move(str(path), confirm=False)
    assert move is not None and not warnings
    assert session.setup is not None and session.setup.seed == 6


def test_import_save_and_export(qtbot: Any, tmp_path: Path, warnings: list[str]) -> None:
    session, files = make(qtbot, tmp_path)
    export = FIXTURES / "1867" / "hs_ahjzadkh_19792.json"
    out = tmp_path / "imported.d18xx"
    assert files.import_export(str(export), str(out))
    assert session.game.finished and files.path == str(out)
    assert files.save()
    assert out.with_name(out.name + ".bak").is_file()
    exported = tmp_path / "back.json"
    assert files.export_18xx(str(exported))
    assert json.loads(exported.read_text())["result"] == json.loads(export.read_text())["result"]
    broken = tmp_path / "broken.json"
    broken.write_text('{"title": "1867"')
    assert not files.import_export(str(broken), str(out))
    assert warnings and "not JSON" in warnings[0]
    assert session.game.finished  # still the imported game


def test_save_never_writes_a_new_game_over_the_file_opened_before(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session, files = make(qtbot, tmp_path)
    session.new_game(SETUP)
    path = tmp_path / "g.d18xx"
    assert files.save_as(str(path))
    session.load(str(path))
    assert files.path == str(path)
    session.new_game(GameSetup("1867", SETUP.players, seed=9))
    asked: list[str] = []

    def pick(*args: Any) -> tuple[str, str]:
        asked.append("asked")
        return "", ""  # the user cancels

    monkeypatch.setattr("desk18xx.ui.files.QFileDialog.getSaveFileName", pick)
    assert not files.save()
    assert asked == ["asked"]


CHILD = """
import os, random, sys, time
from pathlib import Path
from desk18xx.engine.variations import action_key
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication([])
from desk18xx.engine.game import GameSetup
from desk18xx.ui.session import GameSession
from desk18xx.ui.files import FileActions, start_autosave
sys.path.insert(0, sys.argv[2])
from test_files import SETUP, play
session = GameSession()
window = QMainWindow()
files = FileActions(session, window, data=Path(sys.argv[1]))
start_autosave(files, session, restore=False, folder=Path(sys.argv[1]) / "autosave")
session.new_game(SETUP)
play(session, 9)
session.undo(2)
left = session.tree.current.children[0].action   # the 8th action, taken back
moves = session.game.legal_moves(random.Random(7))
assert session.submit(next(m for m in moves if action_key(m.to_dict()) != action_key(left)))
play(session, 1, seed=7)                  # a second line from the 8th action
tree = session.tree
path = tree.path()
tree.set_name(path[7], "Another try")
tree.set_note(path[7], "Cheaper?\\nCompare after SR1.")
tree.set_marks(path[2], ["good", "interesting"])
tree.root.note = "From the start"
tree.set_note(path[0], "first")
app.processEvents()                       # the autosave after a note runs from the loop
while files.autosave_pending:             # and the one after the last move, just after
    app.processEvents()
    time.sleep(0.01)
print(len(session.actions()), len(tree), flush=True)
time.sleep(60)
"""


def test_the_app_restores_the_game_after_a_sigkill(qtbot: Any, tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys

    if not hasattr(signal, "SIGKILL"):
        pytest.skip("no SIGKILL on this platform")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path),
                              str(Path(__file__).parent)], env=env, stdout=subprocess.PIPE,
                             text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().split() == ["9", "12"]  # 11 nodes and the root
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(10)
    expected, _ = make(qtbot, tmp_path / "expected")
    expected.new_game(SETUP)
    play(expected, 9)
    expected.undo(2)
    left = expected.tree.current.children[0].action
    assert left is not None
    moves = expected.game.legal_moves(random.Random(7))
    assert expected.submit(next(m for m in moves
                                if action_key(m.to_dict()) != action_key(left)))
    play(expected, 1, seed=7)
    session = GameSession()
    assert offer_restore(None, session, tmp_path / "autosave", ask=lambda q: True)
    assert len(session.actions()) == 9
    assert digest_of(session.game) == digest_of(expected.game)
    # the whole study tree came back: both lines, names, notes and marks
    tree = session.tree
    assert len(tree) == 12
    path = tree.path()
    assert tree.current is path[-1] and len(path) == 9
    assert path[7].name == "Another try"
    assert path[7].note == "Cheaper?\nCompare after SR1."
    assert [m.value for m in path[2].marks] == ["good", "interesting"]
    assert path[0].note == "first" and tree.root.note == "From the start"
    branch = path[6].children
    assert len(branch) == 2 and path[7] in branch  # the line taken back is still there
    other = next(n for n in branch if n is not path[7])
    assert len(tree.path(other.children[0])) == 9
    session.redo()  # nothing after the current node: redo does nothing
    assert len(session.actions()) == 9
    assert session.go_to(other.children[0])
    assert len(session.actions()) == 9 and digest_of(session.game) != digest_of(expected.game)


def test_settings_live_in_the_user_data_folder_with_the_autosaves(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from desk18xx.io.paths import autosave_dir, data_dir
    from desk18xx.ui.app import user_data_dir
    from desk18xx.ui.files import user_settings

    monkeypatch.setenv("DESK18XX_DATA", str(tmp_path))
    assert user_data_dir() == data_dir() == tmp_path
    window = QMainWindow()
    qtbot.addWidget(window)
    files = FileActions(GameSession(), window)
    files.set_me(header_of(SETUP), "2")
    assert (tmp_path / "settings.ini").is_file()
    assert Path(user_settings().fileName()) == tmp_path / "settings.ini"
    assert files._me(header_of(SETUP), ask=False) == "2"
    assert files.pbem_folder() == tmp_path / "pbem"
    assert autosave_dir() == tmp_path / "autosave"


def test_a_friends_move_is_outlined_on_the_map_until_dismissed_or_acting(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from desk18xx.io.paths import pbem_dir
    from desk18xx.io.pbem import local_copy
    from desk18xx.io.replaying import replay_log
    from desk18xx.io.savefile import save_game
    from desk18xx.io.study import game_setup
    from desk18xx.io.transfer import controller, save_from_export
    from desk18xx.ui.mainwindow import MainWindow

    monkeypatch.setenv("DESK18XX_DATA", str(tmp_path))
    converted = save_from_export(FIXTURES / "1867" / "hs_ahjzadkh_19792.json")
    header, raw = converted.header, [dict(a) for a in converted.actions]
    acts: list[tuple[str | None, dict[str, Any], str | None]] = []  # who, entry, token hex

    def note(_position: int, entry: Any, game: Any) -> None:
        hex_id = game.token_city(entry["city"])[0] if entry["type"] == "place_token" else None
        acts.append((controller(game, str(entry.get("entity"))), entry, hex_id))

    replay_log(header, raw, each=note)
    # my last action, then a stretch of the others' moves with tiles, tokens and routes
    for k, (me, _entry, _hex) in enumerate(acts):
        end = next((j for j in range(k + 1, len(acts)) if acts[j][0] == me), len(acts))
        if {"lay_tile", "place_token", "run_routes"} <= {e["type"] for _p, e, _h in
                                                            acts[k + 1:end]}:
            break
    assert me is not None
    known, sent, since = raw[:k + 1], raw[:end], acts[k + 1:end]
    pbem_dir().mkdir()
    save_game(local_copy(pbem_dir(), header), header, known,
              digest_of(replay_log(header, known).game))
    mail = tmp_path / "from_a_friend.d18xx"
    save_game(mail, header, sent, digest_of(replay_log(header, sent).game))
    session = GameSession()
    session.new_game(game_setup(header), known)
    window = MainWindow(session, restore_layout=False)
    qtbot.addWidget(window)
    window.files.set_me(header, me)
    move = window.files.open_email_move(str(mail), confirm=False)
    assert move is not None and len(session.actions()) == end
    laid = {e["hex"] for _p, e, _h in since if e["type"] == "lay_tile"}
    tokens = {h for _p, e, h in since if h is not None}
    routes = {h for _p, e, _h in since if e["type"] == "run_routes"
              for r in e["routes"] for chain in r["connections"] for h in chain}
    recent = set(window.map_view.recent())
    assert laid and tokens and routes
    assert laid | tokens | routes <= recent
    assert set(move.changed_hexes) == laid | tokens  # nothing else changed on the board
    assert recent == laid | tokens | routes
    QTest.keyClick(window.map_view, Qt.Key.Key_Escape)  # dismissed
    assert window.map_view.recent() == []
    window.files.what_happened.emit(list(move.changed_hexes), list(move.route_hexes))
    assert set(window.map_view.recent()) == recent
    moves = session.game.legal_moves(random.Random(1))
    assert session.submit(moves[0])  # acting hides it too
    assert window.map_view.recent() == []
    window.close()


def _edited(text: str, change: Any) -> bytes:
    """A save text with `change(document)` applied and its hash chain redone."""
    from desk18xx.io import yamlio
    from desk18xx.io.savechain import rechain

    document = yamlio.load(text)
    change(document)
    document["end"]["action_count"] = len(document["actions"])
    rechain(document)
    return yamlio.dump(document).encode("utf-8")


def _future(text: str) -> bytes:
    return text.replace("format_version: 2", "format_version: 99", 1).encode("utf-8")


BAD_MOVES: dict[str, tuple[Any, str]] = {
    "empty": (lambda t: b"", "(file): is empty"),
    "truncated": (lambda t: t[:t.index("\nend:") + 1].encode("utf-8"),
                  "end: is missing (file truncated?)"),
    "cut mid-line": (lambda t: t[:t.index("action: {", len(t) // 2) + 20].encode("utf-8"),
                     "not valid YAML"),
    "binary": (lambda t: bytes(range(256)) * 4, "is not a text file (it contains NUL bytes)"),
    "wrong title": (lambda t: _edited(t, lambda d: d["setup"].update(title="1830")),
                    "setup.title: '1830' is not a title we play"),
    "future version": (_future, "was written by a newer desk18xx; this version reads "
                                "formats up to 2: update the app"),
    "invalid YAML": (lambda t: b"format_version: 2\nsetup: [1, 2\n", "not valid YAML"),
    "100 MB": (None, "is 104857600 bytes; saves over 33554432 are refused"),
    "duplicated action": (lambda t: _edited(t, lambda d: d["actions"].insert(
        3, d["actions"][2])), "actions[3]: action 3 (id 3,"),
    "missing action": (lambda t: _edited(t, lambda d: d["actions"].pop(2)),
                       "actions[2]: action 2 (id 4,"),
}


@pytest.mark.parametrize("name", sorted(BAD_MOVES))
def test_a_bad_email_file_is_refused_with_its_message_and_nothing_is_lost(
        qtbot: Any, tmp_path: Path, warnings: list[str], name: str) -> None:
    make_bad, message = BAD_MOVES[name]
    session, files = make(qtbot, tmp_path)
    session.new_game(SETUP)
    play(session, 6)
    header = header_of(SETUP)
    files.set_me(header, "2")
    good = files.save_for_email(str(tmp_path))  # writes your copy in data/pbem too
    assert good is not None
    copy = files.pbem_folder() / f"{header.identity()}.d18xx"
    kept = copy.read_bytes()
    game, count = session.game, len(session.actions())
    bad = tmp_path / "bad.d18xx"
    if make_bad is None:
        with bad.open("wb") as handle:  # sparse: no 100 MB written
            handle.truncate(100 * 1024 * 1024)
    else:
        bad.write_bytes(make_bad(good.path.read_text(encoding="utf-8")))
    content_size = bad.stat().st_size
    assert files.open_email_move(str(bad), confirm=False) is None
    assert len(warnings) == 1 and message in warnings[0], warnings
    assert warnings[0].startswith("This move was not loaded:")
    assert session.game is game and len(session.actions()) == count  # the game on screen
    assert copy.read_bytes() == kept  # your copy of the game
    assert bad.stat().st_size == content_size  # and the file itself


def test_a_broken_autosave_is_reported_and_kept(
        tmp_path: Path, warnings: list[str]) -> None:
    folder = tmp_path / "autosave"
    folder.mkdir()
    (folder / "x.open").write_text("{}")
    broken = dump_save(header_of(SETUP), [], "d")[:-30]  # cut off at the end
    (folder / "x.yaml").write_text(broken)
    session = GameSession()
    assert not offer_restore(None, session, folder, ask=lambda q: True)
    assert not session.has_game
    assert len(warnings) == 1 and "The autosave cannot be opened" in warnings[0]
    assert (folder / "x.broken").read_text() == broken  # kept for the user
    assert find_crashed(folder) == []
