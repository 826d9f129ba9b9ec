"""Hot-seat e-mail games: every player at the sender's computer signs their own moves
with their own key; a key for them made elsewhere is refused. Open e-mail move runs
on a worker: the window stays live, Cancel changes nothing (pytest-qt)."""

from __future__ import annotations

import gc
import random
import time
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMainWindow, QMessageBox, QProgressDialog, QPushButton

from desk18xx.engine.game import GameSetup
from desk18xx.io.pbem import BadSignatureError, EmailDesk, History
from desk18xx.io.savefile import load_save
from desk18xx.io.signing import parse_signatures
from desk18xx.io.transfer import acting_player
from desk18xx.ui.dialogs.pbem import LocalPlayersDialog, MailDialog
from desk18xx.ui.files import FileActions, header_of
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

SETUP = GameSetup("1867", (("1", "Ann"), ("2", "Bob"), ("3", "Cy")), seed=5)
HEADER = header_of(SETUP)
BOB = "2"


@pytest.fixture()
def warnings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: shown.append(text))
    return shown


def make(qtbot: Any, folder: Path) -> tuple[GameSession, FileActions]:
    session = GameSession()
    window = QMainWindow()
    qtbot.addWidget(window)
    return session, FileActions(session, window, None, data=folder)


def play_until(session: GameSession, rng: random.Random, stop: set[str]) -> int:
    """Play random legal moves until a player of `stop` must act; how many were made."""
    made = 0
    while acting_player(session.game) not in stop:
        assert made < 400
        assert session.submit(rng.choice(session.game.legal_moves(rng)))
        made += 1
    return made


def exchange(qtbot: Any, tmp_path: Path) -> tuple[FileActions, FileActions, Path]:
    """Ann and Cy share a computer, Bob plays from his; a few mails go back and forth.
    Returns (Ann's files, Bob's files, the last file Ann's computer sent)."""
    ann, ann_files = make(qtbot, tmp_path / "ann")
    bob, bob_files = make(qtbot, tmp_path / "bob")
    ann.new_game(SETUP)
    ann_files.set_me(HEADER, "1")
    ann_files.set_local(HEADER, ["3"])
    bob_files.set_me(HEADER, BOB)
    mail = tmp_path / "mail"
    mail.mkdir(exist_ok=True)
    rng = random.Random(9)
    sent: Path | None = None
    for _round in range(3):
        assert play_until(ann, rng, {BOB}) > 0
        out = ann_files.save_for_email(str(mail))
        assert out is not None
        sent = out.path
        move = bob_files.open_email_move(str(sent), confirm=False)
        assert move is not None and move.history.kind is not History.REWRITTEN
        assert play_until(bob, rng, {"1", "3"}) > 0
        back = bob_files.save_for_email(str(mail))
        assert back is not None
        assert ann_files.open_email_move(str(back.path), confirm=False) is not None
    assert sent is not None
    return ann_files, bob_files, sent


def test_each_hot_seat_player_signs_their_own_moves(
        qtbot: Any, tmp_path: Path, warnings: list[str]) -> None:
    ann_files, _bob_files, sent = exchange(qtbot, tmp_path)
    assert not warnings
    saved = load_save(sent)
    assert saved.signatures is not None
    sigs = parse_signatures(saved.signatures, str(sent), len(saved.actions), ["1", "2", "3"])
    assert set(sigs.keys) == {"1", "2", "3"}  # Cy's own key entered the game
    ann_key = EmailDesk(tmp_path / "ann").keys.find("Ann")
    cy_key = EmailDesk(tmp_path / "ann").keys.find("Cy")
    assert ann_key is not None and cy_key is not None and ann_key.public != cy_key.public
    assert sigs.keys["3"] == cy_key.public
    move = EmailDesk(tmp_path / "fresh").receive(sent, None)  # whose move each one is
    cy_moves = [i for i, s in enumerate(move.signers) if s == "3"]
    assert cy_moves, "Cy never moved: the test proves nothing"
    assert all(sigs.moves[i] is not None and sigs.moves[i][0] == "3"  # type: ignore[index]
               for i in cy_moves)
    assert all(sigs.moves[i] is not None and sigs.moves[i][0] == "1"  # type: ignore[index]
               for i, s in enumerate(move.signers) if s == "1")
    assert sigs.seal is not None and sigs.seal[0] == "1"  # Ann sent it
    # Bob's computer knows Cy's key: pinned on first sight
    assert EmailDesk(tmp_path / "bob").pins(HEADER).load().get("3") == cy_key.public
    assert ann_files.local_players(HEADER, "1") == ["3"]


def test_a_key_for_a_hot_seat_player_made_elsewhere_is_refused(
        qtbot: Any, tmp_path: Path, warnings: list[str]) -> None:
    exchange(qtbot, tmp_path)
    # Bob pretends Cy sits at his computer: his file carries a "Cy" key made there
    bob = EmailDesk(tmp_path / "bob")
    saved = bob.known(HEADER)
    assert saved is not None
    forged_dir = tmp_path / "forged"
    forged_dir.mkdir()
    forged = bob.send(forged_dir, saved.header, saved.actions, saved.state_digest, BOB,
                      local=["3"])
    fake = bob.keys.find("Cy")
    assert fake is not None
    with pytest.raises(BadSignatureError) as refused:
        EmailDesk(tmp_path / "ann").receive(forged.path, "1", local=["3"])
    assert refused.value.player == "3" and "Cy" in str(refused.value)
    assert "signatures.moves[" in str(refused.value) or "signatures:" in str(refused.value)
    assert fake.public[:8] not in str(refused.value)  # fingerprints, not keys, are shown


def test_players_at_this_computer_are_asked_and_remembered(
        qtbot: Any, tmp_path: Path) -> None:
    session, files = make(qtbot, tmp_path / "data")
    session.new_game(SETUP)
    files.set_me(HEADER, "1")

    def answer(dialog: LocalPlayersDialog) -> None:
        assert dialog.local() == []
        dialog.set_checked("1", False)  # you stay checked
        dialog.set_checked("3", True)
        QTimer.singleShot(0, dialog.accept)

    assert files.choose_local(answer) == ["3"]  # type: ignore[arg-type]
    assert files.local_players(HEADER, "1") == ["3"]
    again = FileActions(session, files.window, None, data=tmp_path / "data")
    assert again.local_players(HEADER) == ["3"]  # remembered per game

    def cancel(dialog: LocalPlayersDialog) -> None:
        assert dialog.local() == ["3"]
        dialog.set_checked("3", False)
        QTimer.singleShot(0, dialog.reject)

    assert files.choose_local(cancel) is None  # type: ignore[arg-type]
    assert files.local_players(HEADER, "1") == ["3"]  # nothing changed


def _long_game_file(qtbot: Any, tmp_path: Path) -> Path:
    ann, ann_files = make(qtbot, tmp_path / "ann")
    ann.new_game(SETUP)
    ann_files.set_me(HEADER, "1")
    ann_files.set_local(HEADER, ["2", "3"])  # everybody hot-seat: a long game in one go
    rng = random.Random(4)
    for _step in range(150):
        if ann.game.finished:
            break
        assert ann.submit(rng.choice(ann.game.legal_moves(rng)))
    out = ann_files.save_for_email(str(tmp_path))
    assert out is not None
    return out.path


def test_cancelling_a_receive_changes_nothing(
        qtbot: Any, tmp_path: Path, warnings: list[str]) -> None:
    path = _long_game_file(qtbot, tmp_path)
    session, files = make(qtbot, tmp_path / "bob")
    files.set_me(HEADER, BOB)
    session.new_game(SETUP)  # the game on screen before
    before = session.game
    seen: list[int] = []

    def started(dialog: QProgressDialog) -> None:
        seen.append(dialog.maximum())
        if len(seen) < 2:
            return  # reading the file: let it go on

        def poll() -> None:  # cancel once the check is under way
            if dialog.value() > 0:
                timer.stop()
                button = dialog.findChild(QPushButton)
                assert button is not None and button.text() == "Cancel"
                button.click()  # as the user does

        timer = QTimer(dialog)
        timer.timeout.connect(poll)
        timer.start(5)

    files._receive_started = started
    assert files.open_email_move(str(path), confirm=False) is None
    assert len(seen) == 2 and not warnings
    assert session.game is before and session.actions() == []
    desk = EmailDesk(tmp_path / "bob")
    assert not desk.copy_path(HEADER).exists()
    assert not list(desk.folder.glob("*.keys")) if desk.folder.exists() else True
    assert "cancelled" in files.window.statusBar().currentMessage()
    assert gc.isenabled()  # the collector is back on after the worker
    files._receive_started = None
    move = files.open_email_move(str(path), confirm=False)  # and without Cancel it loads
    assert move is not None and desk.copy_path(HEADER).is_file()
    assert len(session.actions()) == len(move.opened.saved.actions) > 100


def test_the_window_stays_live_while_a_move_is_checked(
        qtbot: Any, tmp_path: Path, warnings: list[str]) -> None:
    path = _long_game_file(qtbot, tmp_path)
    _session, files = make(qtbot, tmp_path / "bob")
    files.set_me(HEADER, BOB)
    ticks: list[float] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(10)
    started = time.perf_counter()
    move = files.open_email_move(str(path), confirm=False)
    elapsed = time.perf_counter() - started
    timer.stop()
    assert move is not None and not warnings
    during = [t for t in ticks if t <= started + elapsed]
    # the event loop ran all along (a receive on the GUI thread gives none): at least
    # one tick per 500 ms, 10 ms asked, on a loaded machine
    assert len(during) >= max(2, int(elapsed / 0.5)), (len(during), elapsed)


def test_moves_of_players_not_at_this_computer_are_named_when_sending(
        qtbot: Any, tmp_path: Path, warnings: list[str], monkeypatch: pytest.MonkeyPatch
        ) -> None:
    shown: list[MailDialog] = []
    monkeypatch.setattr(MailDialog, "open", lambda self: shown.append(self))
    session, files = make(qtbot, tmp_path / "ann")
    session.new_game(SETUP)
    files.set_me(HEADER, "1")
    rng = random.Random(9)
    while not any(a.entity == "3" for a in session.actions()):  # Cy plays here too
        assert session.submit(rng.choice(session.game.legal_moves(rng)))
    assert files.save_for_email(str(tmp_path)) is not None
    status = files.window.statusBar().currentMessage()
    assert "of Cy made here went unsigned" in status and "players at this computer" in status
    assert shown and shown[-1].unsigned.isVisibleTo(shown[-1])
    assert "Cy" in shown[-1].unsigned.text()
    files.set_local(HEADER, ["2", "3"])
    assert files.save_for_email(str(tmp_path)) is not None
    assert "unsigned" not in files.window.statusBar().currentMessage()
    assert not shown[-1].unsigned.isVisibleTo(shown[-1]) and not warnings


def test_a_second_open_while_a_move_is_checked_is_refused(
        qtbot: Any, tmp_path: Path, warnings: list[str]) -> None:
    path = _long_game_file(qtbot, tmp_path)
    _session, files = make(qtbot, tmp_path / "bob")
    files.set_me(HEADER, BOB)
    nested: list[object] = []
    tried: list[bool] = []

    def started(_dialog: QProgressDialog) -> None:
        if not tried:  # Ctrl+M pressed again while the first one runs (once: the
            tried.append(True)  # dialog may start again before the timers fire)
            QTimer.singleShot(0, lambda: nested.append(
                files.open_email_move(str(path), confirm=False)))
            QTimer.singleShot(0, lambda: nested.append(files.save_for_email(str(tmp_path))))

    files._receive_started = started
    move = files.open_email_move(str(path), confirm=False)
    assert move is not None and not warnings
    assert nested == [None, None]
    files._receive_started = None
    assert files.open_email_move(str(path), confirm=False) is not None  # free again


def test_a_refused_move_on_the_worker_is_a_message_and_the_collector_is_back(
        qtbot: Any, tmp_path: Path, warnings: list[str]) -> None:
    path = _long_game_file(qtbot, tmp_path)
    data = path.read_bytes()
    bad = tmp_path / "edited.d18xx"
    bad.write_bytes(data.replace(b"bid", b"bud", 1))  # edited after it was written
    session, files = make(qtbot, tmp_path / "bob")
    files.set_me(HEADER, BOB)
    assert files.open_email_move(str(bad), confirm=False) is None
    assert len(warnings) == 1 and "not loaded" in warnings[0] and str(bad) in warnings[0]
    assert gc.isenabled() and not session.has_game
