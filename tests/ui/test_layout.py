"""The default dock layout at 1280x800: every player in sight, old layouts dropped."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QTableView

from desk18xx.engine.game import GameSetup
from desk18xx.ui.mainwindow import LAYOUT_VERSION, MainWindow
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

NAMES = ("Alice", "Bob", "Carol", "Dave", "Eve", "Frank", "Grace")



def _session(title: str, players: int) -> GameSession:
    session = GameSession()
    session.new_game(GameSetup(title, tuple((str(i + 1), NAMES[i])
                                            for i in range(players)), seed=3))
    return session



def _rows_in_sight(view: QTableView) -> int:
    """Rows wholly inside the table's viewport."""
    area = view.viewport().rect()
    model = view.model()
    return sum(1 for r in range(model.rowCount())
               if area.contains(view.visualRect(model.index(r, 0))))


def _players_view(win: MainWindow) -> QTableView:
    widget = win.docks["players"].widget()
    assert isinstance(widget, QTableView)
    return widget


@pytest.mark.parametrize(("title", "players"), [("1822CA", 7), ("1867", 6)])
def test_every_player_is_in_sight_at_1280x800(show_window, title: str, players: int) -> None:  # type: ignore[no-untyped-def]
    win = show_window(_session(title, players), size=(1280, 800))
    assert win.height() == 800  # the docks' minimum sizes did not grow the window
    assert win.docks["players"].isVisible()
    assert _rows_in_sight(_players_view(win)) == players
    if title == "1822CA":  # the bid boxes' bidder table too, its dock in front
        boxes = win.bid_boxes
        assert boxes.isVisible()
        assert _rows_in_sight(boxes.bidders_view) == players
        panel = win.action_panel  # every bid box and the pass button, without scrolling
        for label in panel.choice_labels():
            button = panel.button(label)
            assert button.visibleRegion().boundingRect().height() == button.height(), label
    assert win.map_view.width() >= 500 and win.map_view.height() >= 450


def test_a_layout_from_an_older_version_gives_the_new_default(show_window) -> None:  # type: ignore[no-untyped-def]
    session = _session("1822CA", 7)
    old = show_window(session, size=(1280, 800))
    # the layout of version 3: the players in a small dock at the top left
    old.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, old.docks["players"])
    settings = old.settings()
    settings.setValue("window/state", old.saveState(LAYOUT_VERSION - 1))
    settings.sync()
    win = show_window(session, size=(1280, 800), restore=True)
    assert win.dockWidgetArea(win.docks["players"]) == Qt.DockWidgetArea.BottomDockWidgetArea
    assert _rows_in_sight(_players_view(win)) == 7


def test_a_layout_of_this_version_is_kept(show_window) -> None:  # type: ignore[no-untyped-def]
    session = _session("1867", 4)
    first = show_window(session, size=(1280, 800))
    first.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, first.docks["players"])
    first.save_layout()
    win = show_window(session, size=(1280, 800), restore=True)
    assert win.dockWidgetArea(win.docks["players"]) == Qt.DockWidgetArea.LeftDockWidgetArea
    dock: QDockWidget = win.docks["players"]
    assert _rows_in_sight(_players_view(win)) == 4 and dock.isVisible()


@pytest.mark.parametrize(("title", "boxes"), [("1867", False), ("1822CA", True)])
def test_dock_tabs_show_whole_titles_and_only_the_title_s_docks(show_window, title: str,  # type: ignore[no-untyped-def]
                                                                boxes: bool) -> None:
    from PySide6.QtWidgets import QTabBar

    win = show_window(_session(title, 4), size=(1280, 800))
    assert win.docks["bidboxes"].isVisible() is boxes  # 1867 has no bid boxes
    bars = [b for b in win.findChildren(QTabBar) if b.parent() is win and b.isVisible()]
    assert bars, "the left docks are tabbed"
    for bar in bars:
        assert bar.elideMode() == Qt.TextElideMode.ElideNone
    titles = {bar.tabText(i) for bar in bars for i in range(bar.count())}
    assert ("Bid boxes" in titles) is boxes and "Bank, trains" in titles
