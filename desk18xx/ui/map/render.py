"""Render a board to an image without showing a window (needs a QGuiApplication)."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QRectF
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QApplication

from desk18xx.ui.map import style
from desk18xx.ui.map.boardview import BoardView
from desk18xx.ui.map.scene import DEFAULT_HEX_SIZE, MapScene


def application() -> QCoreApplication:
    """The running Qt application, made (offscreen or on the screen) if there is none:
    what a command-line tool needs before it draws."""
    return QApplication.instance() or QApplication([sys.argv[0]])


def render_scene(scene: MapScene) -> QImage:
    """Paint the whole scene into a new image of the scene's size."""
    rect = scene.sceneRect()
    image = QImage(max(1, round(rect.width())), max(1, round(rect.height())),
                   QImage.Format.Format_ARGB32)
    image.fill(QColor(style.BACKGROUND))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    scene.render(painter, QRectF(0, 0, image.width(), image.height()), rect)
    painter.end()
    return image


def render_board(board: BoardView, size: float = DEFAULT_HEX_SIZE,
                 show_names: bool = True) -> QImage:
    """Draw ``board`` with hexes of ``size`` pixels (centre to corner)."""
    return render_scene(MapScene(board, size, show_names))


def save_board_png(board: BoardView, path: str | Path, size: float = DEFAULT_HEX_SIZE,
                   show_names: bool = True) -> Path:
    """Draw ``board`` and write it as a PNG file.

    Raises:
        OSError: the file could not be written.
    """
    out = Path(path)
    image = render_board(board, size, show_names)
    if not image.save(str(out), "PNG"):  # type: ignore[call-overload]  # stub wants bytes
        raise OSError(f"could not write {out}")
    return out
