"""Named choices (``choose``) get one button each: a 1822CA major acquiring a minor
chooses to exchange or replace the minor's token (RB 5.14)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from desk18xx.engine.actions import Choose
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

FIXTURE = (Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
           / "1822CA" / "1822CA_game_end_bank.json")
#: CPR has acquired a minor and chooses what becomes of its token (the recorded game
#: answers "exchange" after this many live actions).
TOKEN_CHOICE = 367



def test_each_named_choice_has_its_button(qtbot) -> None:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.load(FIXTURE)
    recorded = session.actions()[TOKEN_CHOICE]
    assert isinstance(recorded, Choose) and recorded.choice == "exchange"
    session.undo_to(TOKEN_CHOICE)
    win = MainWindow(session, restore_layout=False)
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    qtbot.wait_exposed(win)
    labels = win.action_panel.choice_labels()
    assert "Exchange the token" in labels and "Replace the token" in labels
    button = win.action_panel.button("Exchange the token")
    with qtbot.wait_signal(session.action_applied):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    played = session.actions()[-1]
    assert isinstance(played, Choose)
    assert (played.entity, played.choice) == (recorded.entity, "exchange")
