"""The application: a main window, or a picture of it with ``--screenshot``.

A minimal placeholder until the main window lands; keep :func:`run_app`'s
signature, the application names and :func:`user_data_dir` when replacing it.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from PySide6.QtCore import QStandardPaths, Qt
from PySide6.QtGui import QIcon, QPainter, QResizeEvent
from PySide6.QtWidgets import QApplication, QGraphicsView, QLabel, QMainWindow, QWidget

from desk18xx import __version__

APP_NAME = "desk18xx"
#: extension of save files (MIME type ``application/x-desk18xx-save``)
SAVE_EXTENSION = ".d18xx"
SCREENSHOT_SIZE = (1280, 800)
#: what this placeholder says (and exit code 4 with --screenshot) when given a file
OPEN_NOT_SUPPORTED = "opening games is not available yet"


def resources_dir() -> Path:
    """``resources/`` next to the package (source tree and installer bundles)."""
    return Path(__file__).resolve().parents[2] / "resources"


def user_data_dir() -> Path:
    """Where settings and autosaves go: the platform's per-user app data folder.

    ``~/.local/share/desk18xx`` on Linux, ``%APPDATA%/desk18xx`` on Windows,
    ``~/Library/Application Support/desk18xx`` on macOS; never the install folder.
    Call after the ``QApplication`` exists (it supplies the name).
    """
    location = QStandardPaths.StandardLocation.AppDataLocation
    return Path(QStandardPaths.writableLocation(location))


def _application(argv: list[str]) -> QApplication:
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    QApplication.setApplicationName(APP_NAME)
    QApplication.setApplicationVersion(__version__)
    QApplication.setDesktopFileName(APP_NAME)
    app = QApplication(argv)
    icon = resources_dir() / "icons" / "desk18xx-256.png"
    if icon.is_file():
        app.setWindowIcon(QIcon(str(icon)))
    return app


class _FittedView(QGraphicsView):
    """A view that keeps the whole scene in sight."""

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self.fitInView(self.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)


def _board_widget() -> QWidget | None:
    """The 1867 starting board, or ``None`` if the map cannot be drawn."""
    if importlib.util.find_spec("desk18xx.ui.map.starting") is None:
        return None
    # A broken install (numpy missing from a bundle) must fail loudly, not fall back.
    from desk18xx.engine.data import load_title
    from desk18xx.engine.errors import DataError
    from desk18xx.ui.map.scene import MapScene
    from desk18xx.ui.map.starting import starting_board

    try:
        scene = MapScene(starting_board(load_title("1867")))
    except (DataError, OSError) as exc:
        print(f"desk18xx: cannot draw the 1867 map: {exc}", file=sys.stderr)
        return None
    view = _FittedView(scene)
    view.setRenderHint(QPainter.RenderHint.Antialiasing)
    scene.setParent(view)
    return view


def _main_window() -> QMainWindow:
    window = QMainWindow()
    window.setWindowTitle(APP_NAME)
    central = _board_widget()
    if central is None:
        label = QLabel(f"desk18xx {__version__}\n\n1867 and 1822CA")
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        central = label
    window.setCentralWidget(central)
    return window


def run_app(file: str | None, screenshot: str | None = None) -> int:
    """Open the main window (on ``file`` if given) and run until it closes.

    Args:
        file: a saved game or an 18xx.games export to open, or ``None``.
        screenshot: if set, render the window at 1280x800 to this PNG and exit.

    Returns:
        The process exit code.
    """
    app = _application([sys.argv[0] if sys.argv else APP_NAME])
    if file is not None:
        # Not faked: tests/installer/test_bundle.py skips its open-a-game check on this.
        print(f"desk18xx: {OPEN_NOT_SUPPORTED}: {file}", file=sys.stderr)
        if screenshot is not None:
            return 4
    window = _main_window()
    window.resize(*SCREENSHOT_SIZE)
    if screenshot is not None:
        window.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
        window.ensurePolished()
        if not window.grab().save(screenshot, "PNG"):
            print(f"desk18xx: could not write {screenshot}", file=sys.stderr)
            return 1
        return 0
    window.show()
    return app.exec()
