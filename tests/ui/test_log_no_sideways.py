"""The log never scrolls sideways (seen on a 1920x1080 screenshot of a late 1867 game,
where a route line of city names is wider than the log): a long line ends in "…"."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from desk18xx.engine.game import GameSetup
from desk18xx.io.import_18xxgames import load_export
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.session import IMPORT_OPTIONS, GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

GAME = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games" \
    / "1867" / "21268.json"


def test_a_long_log_line_is_cut_not_scrolled(show_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    imported = load_export(GAME)
    raws = [dict(a) for a in imported.actions]
    session = GameSession()  # 120 actions before the end, as the screenshot
    session.new_game(GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                               imported.seed, tuple(imported.optional_rules) + IMPORT_OPTIONS),
                     raws[:-120])
    win: MainWindow = show_window(session, size=(1920, 1080))
    qtbot.wait(30)
    view = win.log_view
    metrics = view.fontMetrics()
    longest = max(range(win.log_model.rowCount()), key=lambda r: metrics.horizontalAdvance(
        str(win.log_model.index(r, 0).data())))
    text = str(win.log_model.index(longest, 0).data())
    assert metrics.horizontalAdvance(text) > view.viewport().width()  # wider than the log
    bar = view.horizontalScrollBar()
    assert not (bar.isVisible() and bar.maximum() > 0)
    assert view.textElideMode() == Qt.TextElideMode.ElideRight
