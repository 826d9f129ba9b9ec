"""A dock behind another one's tab is filled when it comes to the front, not on every
move: Qt keeps such a dock "visible" (moved out of the window), so the window asks
whether any of it is on screen (:func:`desk18xx.ui.insight.in_sight`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from desk18xx.ui.docks.company_sheet import HEADERS
from desk18xx.ui.insight import in_sight
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.models.tables import bank_rows
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

GAME = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games" \
    / "1867" / "21268.json"


def test_the_sheet_behind_the_market_waits_for_its_tab(show_window, qtbot,  # type: ignore[no-untyped-def]
                                                       monkeypatch) -> None:
    session = GameSession()
    session.load(GAME)
    session.undo_to(len(session.actions()) * 3 // 5)
    win: MainWindow = show_window(session, size=(1280, 800))
    sheet, market = win.docks["sheet"], win.docks["market"]
    market.raise_()
    qtbot.waitUntil(lambda: not in_sight(sheet) and in_sight(market))
    assert sheet.isVisible()  # what Qt says of a dock behind a tab: hence in_sight
    refreshed: list[int] = []
    original = type(win.company_sheet).refresh
    monkeypatch.setattr(type(win.company_sheet), "refresh",
                        lambda self: (refreshed.append(1), original(self))[1])
    for _ in range(6):
        assert session.redo()
    assert refreshed == []  # six moves, and the sheet out of sight read none of them
    sheet.raise_()
    qtbot.waitUntil(lambda: bool(refreshed) and in_sight(sheet))
    game = session.game
    cash = HEADERS.index("Cash")
    for row in win.company_sheet.model.rows():  # the position now, not six moves back
        assert row.cells[cash] == f"${game.cash.get(row.corp, 0)}"
    win.docks["tiles"].raise_()  # the bank's tab goes behind, misses two moves ...
    qtbot.waitUntil(lambda: not in_sight(win.docks["bank"]))
    for _ in range(2):
        assert session.redo()
    win.docks["bank"].raise_()  # ... and shows the position now when it comes back
    qtbot.waitUntil(lambda: in_sight(win.docks["bank"]))
    assert win.bank_model.rows() == bank_rows(session.game)
