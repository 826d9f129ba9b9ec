"""The application: the main window, or a picture of it with ``--screenshot``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QFileOpenEvent, QIcon
from PySide6.QtWidgets import QApplication

from desk18xx import __version__

if TYPE_CHECKING:
    from desk18xx.ui.mainwindow import MainWindow

APP_NAME = "desk18xx"
#: extension of save files (MIME type ``application/x-desk18xx-save``)
SAVE_EXTENSION = ".d18xx"
SCREENSHOT_SIZE = (1280, 800)


def resources_dir() -> Path:
    """``resources/`` next to the package (source tree and installer bundles)."""
    return Path(__file__).resolve().parents[2] / "resources"


def user_data_dir() -> Path:
    """Where settings, autosaves and e-mail copies go: `desk18xx.io.paths.data_dir`.

    ``$DESK18XX_DATA`` if set, else ``~/.local/share/desk18xx`` on Linux,
    ``%APPDATA%/desk18xx`` on Windows, ``~/Library/Application Support/desk18xx``
    on macOS; never the install folder. The same folder as the autosave's.
    """
    from desk18xx.io.paths import data_dir

    return data_dir()


def _application(argv: list[str]) -> QApplication:
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    QApplication.setApplicationName(APP_NAME)
    QApplication.setOrganizationName(APP_NAME)
    QApplication.setApplicationVersion(__version__)
    QApplication.setDesktopFileName(APP_NAME)
    app = QApplication(argv)
    icon = resources_dir() / "icons" / "desk18xx-256.png"
    if icon.is_file():
        app.setWindowIcon(QIcon(str(icon)))
    return app


class FileOpenFilter(QObject):
    """Opens files the system hands to the running app (macOS double-click).

    On macOS a double-clicked save reaches the app as a ``QFileOpenEvent``,
    not on the command line; an e-mail move goes through the e-mail check.
    """

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._window = window

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.FileOpen and isinstance(event, QFileOpenEvent):
            path = event.file()
            if path:
                from desk18xx.ui.files import is_email_move

                if is_email_move(path):
                    self._window.files.open_email_move(path)
                else:
                    self._window.open_path(path)
                return True
        return super().eventFilter(watched, event)


def run_app(file: str | None, screenshot: str | None = None) -> int:
    """Open the main window (on ``file`` if given) and run until it closes.

    Without a file the window shows a 4-player 1867 game and asks at once for
    the game to play (title, players, seed); cancelling keeps the 1867 game.

    Args:
        file: an 18xx.games export to open, or ``None``.
        screenshot: if set, render the window offscreen to this PNG and exit.

    Returns:
        The process exit code.
    """
    app = _application([sys.argv[0] if sys.argv else APP_NAME])
    from desk18xx.ui.mainwindow import MainWindow
    from desk18xx.ui.session import GameSession

    session = GameSession()
    error: str | None = None
    email_move = False  # a mail attachment of an e-mail game: show what happened first
    if file is not None and screenshot is None:
        from desk18xx.ui.files import is_email_move

        email_move = is_email_move(file)
    deferred: str | None = None  # a save that stops early: the window asks what to do
    if file is not None and not email_move:
        from desk18xx.io.replaying import IllegalSaveError
        from desk18xx.io.savefile import StateDigestError

        try:
            session.load(file)
        except (IllegalSaveError, StateDigestError) as exc:
            if screenshot is not None:
                print(f"desk18xx: cannot open {file}: {exc}", file=sys.stderr)
                return 4
            deferred = file
        except (OSError, ValueError, KeyError) as exc:
            error = f"cannot open {file}: {exc}"
            print(f"desk18xx: {error}", file=sys.stderr)
            if screenshot is not None:
                return 4
    if not session.has_game:
        from desk18xx.engine.game import GameSetup

        session.new_game(GameSetup("1867", (("1", "Alice"), ("2", "Bob"), ("3", "Carol"),
                                            ("4", "Dave")), seed=1867))
    if screenshot is None:
        from desk18xx.ui.map.items import draw_plain_until_idle

        draw_plain_until_idle()  # shapely is imported right after the first frame
    window = MainWindow(session, restore_layout=screenshot is None)
    if screenshot is not None or not window.layout_restored:
        window.resize(*SCREENSHOT_SIZE)
    if screenshot is not None:
        window.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
        window.show()
        app.processEvents()
        window.map_view.fit()
        app.processEvents()
        ok = window.grab().save(screenshot, "PNG")
        window.close()
        if not ok:
            print(f"desk18xx: could not write {screenshot}", file=sys.stderr)
            return 1
        return 0
    window.show()
    from desk18xx.ui.idlegc import IdleCollector

    IdleCollector(session, window)  # full garbage passes while idle, not during a move
    from desk18xx.ui.routeworker import install_attachment_hints

    install_attachment_hints(session, window)  # the choices' best runs, off the GUI thread
    app.installEventFilter(FileOpenFilter(window))
    if error is not None:
        window.statusBar().showMessage(error)

    def after_first_frame() -> None:
        """Autosave (offering a crashed game back), then what the user came for."""
        from desk18xx.ui.files import start_autosave

        restored = start_autosave(window.files, session, restore=file is None)
        if deferred is not None:
            window.open_path(deferred)
        elif email_move and file is not None:
            window.files.open_email_move(file)
        elif file is None and not restored:
            window.new_game()  # choose title, players and seed first

    QTimer.singleShot(0, after_first_frame)  # the window shows first
    return app.exec()
