"""UI tests run offscreen; Qt reads the platform when the application starts."""

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def _user_data(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
               ) -> Path:
    """Settings, autosaves and e-mail copies go to a fresh folder, never the user's."""
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("DESK18XX_DATA", str(folder))
    return folder


@pytest.fixture(autouse=True)
def _no_automatic_routes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run's best routes are proposed by a worker thread as the run begins; their
    arrival could race a test's clicks on stops, so tests turn it on themselves
    (tests/ui/test_routeworker.py)."""
    from desk18xx.ui.mapview.controller import MapController

    monkeypatch.setattr(MapController, "auto_propose", False)


@pytest.fixture(autouse=True)
def _private_settings(tmp_path: Path) -> None:
    """Qt settings (window layout, options) live in the test's folder, never the user's."""
    from PySide6.QtCore import QSettings

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))


@pytest.fixture
def show_window(qtbot):  # type: ignore[no-untyped-def]
    """Open the main window on a session (1400x900 unless ``size`` says otherwise;
    the saved layout restored only with ``restore``) and wait until it is on screen."""
    from desk18xx.ui.mainwindow import MainWindow
    from desk18xx.ui.session import GameSession

    def show(session: GameSession, size: tuple[int, int] = (1400, 900),
             restore: bool = False) -> MainWindow:
        win = MainWindow(session, restore_layout=restore)
        qtbot.addWidget(win)
        win.resize(*size)
        win.show()
        qtbot.wait_exposed(win)
        qtbot.wait(20)
        return win

    return show
