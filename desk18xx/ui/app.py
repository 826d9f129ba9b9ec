"""The application: a main window, or a picture of it with ``--screenshot``.

A minimal placeholder until the main window lands; keep :func:`run_app`'s
signature, the application names and :func:`user_data_dir` when replacing it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QStandardPaths, Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

from desk18xx import __version__

APP_NAME = "desk18xx"
#: extension of save files (MIME type ``application/x-desk18xx-save``)
SAVE_EXTENSION = ".d18xx"
SCREENSHOT_SIZE = (1280, 800)


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


def _main_window(file: str | None) -> QMainWindow:
    window = QMainWindow()
    window.setWindowTitle(APP_NAME if file is None else f"{Path(file).name} - {APP_NAME}")
    text = f"desk18xx {__version__}\n\n1867 and 1822CA"
    if file is not None:
        text += f"\n\nOpening games is not available yet: {file}"
    label = QLabel(text)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    window.setCentralWidget(label)
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
    window = _main_window(file)
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
