"""The default layout at 1280x800: nothing scrolls sideways (tables, turn panel), every
dock tab reads whole, every bid box and bidder is in sight, and a squeezed table cuts
its widest texts, never its amounts."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QTabBar, QTableView

from desk18xx.engine.game import GameSetup
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.session import GameSession
from desk18xx.ui.tableviews import squeeze

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
NAMES = ("Alice", "Bob", "Carol", "Dave", "Eve", "Frank", "Grace")


def _new(title: str, players: int) -> GameSession:
    session = GameSession()
    session.new_game(GameSetup(title, tuple((str(i + 1), NAMES[i]) for i in range(players)),
                               seed=3))
    return session


def _operating_1867() -> GameSession:
    session = GameSession()
    session.load(FIXTURES / "1867" / "21268.json")
    session.undo_to(len(session.actions()) * 2 // 5)  # mid game: many companies running
    return session


def _in_sight(win: MainWindow, widget: QAbstractScrollArea) -> bool:
    """Shown, and not in a dock tab behind another (Qt moves those off the window)."""
    corner = widget.mapTo(win, QPoint(0, 0))
    return widget.isVisible() and corner.x() >= 0 and corner.y() >= 0


def _check_no_sideways_scroll(win: MainWindow) -> None:
    for area in win.findChildren(QAbstractScrollArea):
        if not _in_sight(win, area) or area is win.map_view:
            continue
        bar = area.horizontalScrollBar()
        assert not (bar.isVisible() and bar.maximum() > 0), area
    for view in win.findChildren(QTableView):
        if _in_sight(win, view):
            shown = [c for c in range(view.model().columnCount()) if not view.isColumnHidden(c)]
            assert sum(view.columnWidth(c) for c in shown) <= view.viewport().width() + 1


def _check_whole_tabs(win: MainWindow) -> None:
    bars = [b for b in win.findChildren(QTabBar) if b.parent() is win and b.isVisible()]
    assert bars
    for bar in bars:
        for i in range(bar.count()):
            text = bar.tabText(i)
            assert bar.tabRect(i).right() <= bar.width(), text  # no tab beyond the edge
            assert bar.fontMetrics().horizontalAdvance(text) <= bar.tabRect(i).width(), text


@pytest.mark.parametrize("case", ["1822CA-7", "1867-4", "1867-or"])
def test_nothing_scrolls_sideways_at_1280x800(show_window, qtbot, case: str) -> None:  # type: ignore[no-untyped-def]
    session = _operating_1867() if case == "1867-or" else _new(case.split("-")[0],
                                                                int(case.split("-")[1]))
    win = show_window(session, size=(1280, 800))
    qtbot.wait(30)  # the column fitter runs at the next turn of the event loop
    assert win.height() == 800
    _check_no_sideways_scroll(win)
    _check_whole_tabs(win)
    if case == "1822CA-7":
        boxes = win.bid_boxes
        for view in (boxes.boxes_view, boxes.bidders_view):
            rows = view.model().rowCount()
            assert rows >= 7
            last = view.visualRect(view.model().index(rows - 1, 0))
            assert view.viewport().rect().contains(last), view  # every row without scrolling
    if case == "1867-or":
        view = win.docks["companies"].widget()
        assert isinstance(view, QTableView) and view.model().rowCount() >= 6
        price = 2  # amounts are never cut: the price column is as wide as its contents
        assert view.columnWidth(price) >= view.sizeHintForColumn(price)
        assert view.isColumnHidden(view.model().columnCount() - 1)  # no 1867 destinations


def test_squeeze_cuts_the_widest_columns_first() -> None:
    assert squeeze([40, 50, 60], 200) == [40, 50, 60]  # room for all
    assert squeeze([40, 200, 60, 150], 300) == [40, 100, 60, 100]
    widths = squeeze([30, 30, 30, 30], 60)
    assert widths == [28, 28, 28, 28]  # no column below the least width


def test_the_turn_panel_cuts_long_choices_and_says_them_whole(show_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    win = show_window(_new("1822CA", 4), size=(1280, 800))
    panel = win.action_panel
    for label in panel.choice_labels():
        button = panel.button(label)
        assert button.text() == label
        assert button.fontMetrics().horizontalAdvance(button.text()) > 0
        shown = super(type(button), button).text().replace("&&", "&")
        if shown != label:
            assert shown.endswith("…") and label in button.toolTip()
    assert panel.parentWidget() is not None
    scroll = panel.findChild(QAbstractScrollArea)
    assert scroll is not None
    assert scroll.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff
