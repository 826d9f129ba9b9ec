"""Open e-mail move merges, never erases: your branch names, notes and marks survive, the
received line becomes the main line beside your own; cancelling "Which player are you?"
writes nothing (pytest-qt)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QInputDialog, QMainWindow, QMessageBox

from desk18xx.engine.game import GameSetup
from desk18xx.engine.variations import Mark, Node
from desk18xx.io.pbem import History
from desk18xx.io.transfer import acting_player
from desk18xx.ui.dialogs.pbem import ReceivedMoveDialog
from desk18xx.ui.files import FileActions, header_of
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

SETUP = GameSetup("1867", (("1", "Ann"), ("2", "Bob"), ("3", "Cy")), seed=5)
HEADER = header_of(SETUP)


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


def play_turn(session: GameSession, rng: random.Random) -> None:
    """The player to move plays until another must act."""
    me = acting_player(session.game)
    while acting_player(session.game) == me:
        moves = session.game.legal_moves(rng)
        assert session.submit(rng.choice(moves))


def annotated(session: GameSession) -> tuple[Node, Node]:
    """Ann marks her last move, notes it, and names a branch she tried instead."""
    tree = session.tree
    mine = tree.current
    tree.set_note(mine, "a cheap start")
    tree.toggle_mark(mine, Mark.INTERESTING)
    session.undo()
    others = [m for m in session.game.legal_moves(random.Random(3))
              if m.to_dict() != {k: v for k, v in (mine.action or {}).items() if k != "id"}]
    assert session.submit(others[0])
    idea = tree.current
    tree.set_name(idea, "my idea")
    tree.go_to(mine)  # back to the line she plays
    assert session.tree.current is mine
    return mine, idea


def check_merged(session: GameSession, mine: Node, idea: Node, total: int) -> None:
    tree = session.tree
    by_name = {n.name: n for n in tree.nodes() if n.name}
    assert "my idea" in by_name, "the branch name was lost"
    kept = next(n for n in tree.nodes() if n.note == "a cheap start")
    assert Mark.INTERESTING in kept.marks
    assert kept.action is not None and mine.action is not None
    assert kept.action["id"] == mine.action["id"]
    main = tree.main_line()
    assert len(main) == total and tree.current is main[-1]  # the received line is main
    assert kept in main and by_name["my idea"] not in main  # her branch beside it
    assert by_name["my idea"].parent is kept.parent
    assert len(session.actions()) == total


def test_receiving_keeps_the_receivers_names_notes_and_marks(
        qtbot: Any, tmp_path: Path, warnings: list[str]) -> None:
    rng = random.Random(5)
    ann, ann_files = make(qtbot, tmp_path / "ann")
    bob, bob_files = make(qtbot, tmp_path / "bob")
    mail = tmp_path / "mail"
    mail.mkdir()
    ann.new_game(SETUP)
    ann_files.set_me(HEADER, "1")
    bob_files.set_me(HEADER, "2")
    play_turn(ann, rng)
    mine, idea = annotated(ann)
    sent = ann_files.save_for_email(str(mail))
    assert sent is not None and not warnings
    assert bob_files.open_email_move(str(sent.path), confirm=False) is not None
    play_turn(bob, rng)
    back = bob_files.save_for_email(str(mail))
    assert back is not None
    total = len(bob.actions())

    # Ann's window still shows the game: her tree there is merged
    move = ann_files.open_email_move(str(back.path), confirm=False)
    assert move is not None and move.history.kind is History.EXTENDS and not warnings
    assert move.signatures is not None and move.signatures.signed >= 2
    check_merged(ann, mine, idea, total)
    dialog = ReceivedMoveDialog(move, dict(SETUP.players))
    qtbot.addWidget(dialog)
    rows = [dialog.events.item(i).text().strip() for i in range(dialog.events.count())]
    for event in move.events:  # each action, then what followed, as the log dock says
        assert any(event.text in row for row in rows)
        assert all(line in rows for line in event.details)
    assert "signed moves checked" in dialog.summary.text()

    # after a restart (a new window, another game open): her copy's tree is merged
    later, later_files = make(qtbot, tmp_path / "ann")
    later.new_game(GameSetup("1867", (("1", "X"), ("2", "Y"), ("3", "Z")), seed=1))
    assert later_files.open_email_move(str(back.path), confirm=False) is not None
    assert not warnings
    check_merged(later, mine, idea, total)


def test_cancelling_which_player_are_you_writes_nothing(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        warnings: list[str]) -> None:
    monkeypatch.setattr(QInputDialog, "getItem",
                        staticmethod(lambda *a, **k: ("", False)))  # Cancel
    session, files = make(qtbot, tmp_path / "data")
    session.new_game(SETUP)
    play_turn(session, random.Random(2))
    mail = tmp_path / "mail"
    mail.mkdir()
    assert files.save_for_email(str(mail)) is None
    assert list(mail.iterdir()) == []
    assert not (tmp_path / "data" / "pbem").exists() and not (tmp_path / "data" / "keys").exists()
    # a friend's file: cancelling the question loads nothing and writes nothing
    other, other_files = make(qtbot, tmp_path / "friend")
    other.new_game(SETUP)
    other_files.set_me(HEADER, "1")
    play_turn(other, random.Random(2))
    sent = other_files.save_for_email(str(mail))
    assert sent is not None
    game = session.game
    assert files.open_email_move(str(sent.path), confirm=True) is None
    assert session.game is game and not warnings
    assert not (tmp_path / "data" / "pbem").exists()
