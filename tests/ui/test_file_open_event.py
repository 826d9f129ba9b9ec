"""A file the system hands to the running app (macOS double-click) is opened."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QFileOpenEvent
from PySide6.QtWidgets import QApplication

from desk18xx.engine.game import GameSetup
from desk18xx.ui.app import FileOpenFilter
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.session import GameSession

FIXTURE = (Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
           / "1867" / "hs_ahjzadkh_19792.json")

pytestmark = pytest.mark.gui


def test_file_open_event_opens_the_game(qtbot: object, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    assert FIXTURE.is_file(), FIXTURE
    monkeypatch.setenv("DESK18XX_DATA", str(tmp_path))
    session = GameSession()
    session.new_game(GameSetup("1867", (("1", "A"), ("2", "B"), ("3", "C")), seed=3))
    window = MainWindow(session, restore_layout=False)
    app = QApplication.instance()
    assert app is not None
    event_filter = FileOpenFilter(window)
    app.installEventFilter(event_filter)
    try:
        QApplication.sendEvent(app, QFileOpenEvent(str(FIXTURE)))
    finally:
        app.removeEventFilter(event_filter)
    assert session.game.finished
    assert len(session.setup.players) == 4
    window.close()
