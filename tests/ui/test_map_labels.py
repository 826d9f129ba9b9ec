"""Place names readable at the default zoom: labels of 9 pt over the map while the
map's own names are smaller, never two over each other, gone when zoomed in."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF

from desk18xx.engine.game import GameSetup
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.maplabels import LABEL_PX
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]


def _window(show_window, title: str) -> MainWindow:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.new_game(GameSetup(title, (("1", "Ann"), ("2", "Ben"), ("3", "Cid")), seed=5))
    return show_window(session, size=(1280, 800))  # type: ignore[no-any-return]


def _shown(win: MainWindow) -> list[QRectF]:
    view = win.map_view
    port = QRectF(view.viewport().rect())
    out = []
    for label in win.map_labels.labels().values():
        if not label.isVisible():
            continue
        centre = view.mapFromScene(label.pos())
        rect = label.boundingRect().translated(centre.x(), centre.y())
        if port.intersects(rect):
            out.append(rect)
    return out


@pytest.mark.parametrize("title", ["1867", "1822CA"])
def test_names_are_nine_points_at_the_default_zoom(show_window, qtbot, title: str) -> None:  # type: ignore[no-untyped-def]
    win = _window(show_window, title)
    qtbot.wait(20)
    labels = win.map_labels.labels()
    assert len(labels) >= 20
    own = [win.map_labels.screen_px(lb) for lb in labels.values()]
    assert max(own) < 9  # the tile's own names are unreadable at this zoom ...
    assert LABEL_PX >= 12  # ... the labels are 9 pt (12 px at 96 dpi)
    shown = _shown(win)
    assert len(shown) >= 10
    for i, a in enumerate(shown):  # never one over another
        assert not any(a.intersects(b) for b in shown[i + 1:])
    assert all(rect.height() >= LABEL_PX for rect in shown)


def test_zoomed_in_the_map_s_own_names_take_over(show_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    win = _window(show_window, "1867")
    qtbot.wait(20)
    win.map_view.zoom_step(12)
    qtbot.wait(20)
    win.map_view.viewport().repaint()
    labels = list(win.map_labels.labels().values())
    assert all(win.map_labels.screen_px(lb) >= LABEL_PX for lb in labels)
    assert not any(lb.isVisible() for lb in labels)
    win.map_view.zoom_step(-12)
    win.map_view.viewport().repaint()
    assert any(lb.isVisible() for lb in labels)


@pytest.mark.parametrize("title", ["1867", "1822CA"])
def test_with_the_whole_board_in_view_no_name_is_cut(show_window, qtbot, title: str) -> None:  # type: ignore[no-untyped-def]
    """At 1280x800 the default view shows the whole board: a name on its edge ("Prince
    Rupert", Halifax in 1822CA) is moved in, never cut by the map's edge."""
    win = _window(show_window, title)
    qtbot.wait(20)
    view = win.map_view
    port = QRectF(view.viewport().rect())
    shown = _shown(win)
    assert len(shown) >= 10
    for rect in shown:
        assert port.contains(rect), rect
    # a label stays close to its place: within its own width of the name's spot
    for label in win.map_labels.labels().values():
        moved = view.mapFromScene(label.pos()) - view.mapFromScene(label.anchor)
        assert abs(moved.x()) <= label.boundingRect().width() / 2 + 1
