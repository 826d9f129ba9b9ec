"""The outline of a received e-mail move belongs to the current position: hidden while
the player looks back through the log, shown again back at the end."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from desk18xx.engine.actions import Bid
from desk18xx.engine.game import GameSetup
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

PLAYERS = (("1", "Alice"), ("2", "Bob"), ("3", "Carol"))



def _click_log(qtbot, win: MainWindow, count: int) -> None:  # type: ignore[no-untyped-def]
    """Click the log line of live action ``count``."""
    model = win.log_model
    row = next(r for r in range(model.rowCount()) if model.entry(r).count == count)
    index = model.index(row, 0)
    win.log_view.scrollTo(index)
    qtbot.mouseClick(win.log_view.viewport(), Qt.MouseButton.LeftButton,
                     pos=win.log_view.visualRect(index).center())


def test_the_received_move_outline_shows_only_at_the_current_position(qtbot, show_window) -> None:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=3))
    win = show_window(session, size=(1280, 800))
    company = win._info.facts.company if win._info else None  # noqa: SLF001
    assert isinstance(company, str)
    assert session.submit(Bid(entity="1", price=25, company=company))
    assert session.submit(Bid(entity="2", price=30, company=company))
    scene = win.map_view.map_scene
    assert scene is not None
    changed = sorted(scene.hex_ids())[:3]
    win.files.what_happened.emit(changed, [])  # as after opening a friend's e-mail move
    assert win.map_view.recent_shown() == changed
    _click_log(qtbot, win, 1)  # look back at the board after the first bid
    assert win.viewing == 1
    assert win.map_view.recent_shown() == []  # not this board's changes
    assert win.map_view.recent() == changed  # kept for the current position
    _click_log(qtbot, win, 2)  # the last line: back to the current position
    assert win.viewing is None
    assert win.map_view.recent_shown() == changed
    session.undo()  # another position: the outline is not of it either
    assert win.map_view.recent_shown() == []
    session.redo()
    assert win.map_view.recent_shown() == changed
