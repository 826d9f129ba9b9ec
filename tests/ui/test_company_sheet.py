"""The companies spreadsheet dock: price, cash, trains, tokens, loans, last dividend and
a price-history sparkline per company, read from the engine's positions of the line."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRect

from desk18xx.engine.actions import Dividend, RunRoutes
from desk18xx.engine.state import BANK
from desk18xx.ui.docks.company_sheet import HEADERS, HISTORY_ROLE, spark_points
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

GAME = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games" \
    / "1867" / "21268.json"


@pytest.fixture
def window(show_window, qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.load(GAME)
    session.undo_to(len(session.actions()) * 3 // 5)
    win: MainWindow = show_window(session, size=(1280, 800))
    win.docks["sheet"].raise_()
    qtbot.waitUntil(lambda: win.company_sheet.isVisible() and not win.company_sheet.filling,
                    timeout=20000)
    return win


def test_the_sheet_reads_the_position_and_its_history(window: MainWindow) -> None:
    session = window.session
    game = session.game
    sheet = window.company_sheet
    rows = {r.corp: r for r in sheet.model.rows()}
    assert "NYC" in rows and "CS" in rows
    rounds = session.rounds()
    starts = [0] + [i for i in range(1, len(rounds)) if rounds[i] != rounds[i - 1]]
    for cid, row in rows.items():
        price = game.market.price(cid) if cid in game.market.where else 0
        assert row.cells[HEADERS.index("Price")] == (f"${price}" if price else "")
        assert row.cells[HEADERS.index("Cash")] == f"${game.cash.get(cid, 0)}"
        assert row.cells[HEADERS.index("Loans")] == (str(game.corps[cid].loans)
                                                     if game.corps[cid].loans else "")
        assert len(row.history) == len(starts) + 1 and row.history[-1] == price
    cs = rows["CS"]  # an earlier start of a round, read independently
    k = next(i for i, s in enumerate(starts) if cs.history[i])
    earlier = session.game_at(starts[k])
    assert cs.history[k] == earlier.market.price("CS")
    index = sheet.model.index(list(rows).index("CS"), len(HEADERS) - 1)
    assert sheet.model.data(index, HISTORY_ROLE) == cs.history


def test_the_last_dividend_is_what_the_bank_paid(window: MainWindow) -> None:
    session = window.session
    actions = session.actions()
    rows = {r.corp: r for r in window.company_sheet.model.rows()}
    paid = [i for i, a in enumerate(actions) if isinstance(a, Dividend)]
    assert paid
    i = paid[-1]
    corp = actions[i].entity
    begin = i - 1 if isinstance(actions[i - 1], RunRoutes) and \
        actions[i - 1].entity == corp else i
    bank = session.game_at(begin).cash[BANK] - session.game_at(i + 1).cash[BANK]
    later = [j for j, a in enumerate(actions) if j > i and a.entity == corp
             and isinstance(a, RunRoutes | Dividend)]
    assert not later  # a major decides every dividend: none since the last decision
    decision = actions[i]
    assert isinstance(decision, Dividend)
    kind = {"payout": "paid", "withhold": "withheld"}.get(decision.kind, decision.kind)
    assert rows[corp].cells[HEADERS.index("Last div.")] == f"{kind} ${bank}"
    assert any(r.cells[HEADERS.index("Last div.")].startswith("paid $") for r in rows.values())


def test_the_sparkline_rises_with_the_price() -> None:
    rect = QRect(0, 0, 90, 22)
    points = spark_points((0, 50, 55, 0, 70), rect)
    assert len(points) == 3  # no price, no point
    assert all(rect.contains(p.toPoint()) for p in points)
    assert points[0].x() < points[1].x() < points[2].x()
    assert points[0].y() > points[1].y() > points[2].y()  # higher price, higher up
    assert spark_points((), rect) == []
