"""The overview inset: the whole board in the map's corner with the part in view
framed while the map is zoomed in (View > Readable size); a click or a drag there
moves the map."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QKeySequence

from desk18xx.engine.actions import LayTile, action_from_dict
from desk18xx.engine.game import GameSetup
from desk18xx.engine.map import hexgrid
from desk18xx.io.import_18xxgames import load_export
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.map import style
from desk18xx.ui.mapview.overview import REDRAW_MS
from desk18xx.ui.mapview.view import READABLE_HEX
from desk18xx.ui.session import IMPORT_OPTIONS, GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

LATE = (Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
        / "1822CA" / "1822CA_game_end_bank.json")


def _centre(win: MainWindow) -> QPointF:
    view = win.map_view
    return view.mapToScene(view.viewport().rect().center())


def _hex_centre(win: MainWindow, hex_id: str) -> QPointF:
    return QPointF(*hexgrid.center(hexgrid.parse_hex(hex_id), win.map_view.hex_size()))


def _shortcut(win: MainWindow, keys: str):  # type: ignore[no-untyped-def]
    return next(a for a in win.findChildren(type(win.undo_action))
                if a.shortcut().toString(QKeySequence.SequenceFormat.PortableText) == keys)


@pytest.fixture
def window(show_window) -> MainWindow:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.new_game(GameSetup("1822CA", (("1", "Ann"), ("2", "Bob"), ("3", "Cy")), seed=3))
    win: MainWindow = show_window(session, size=(1280, 800))
    win.map_view.readable_view()  # View > Readable size: part of the board in view
    return win


def test_the_overview_frames_the_part_in_view_at_a_readable_zoom(window: MainWindow) -> None:
    view, inset = window.map_view, window.map_view.overview
    assert view.hex_size() * view.zoom() >= READABLE_HEX - 0.01  # names stay readable ...
    assert inset.isVisible() and window.overview_action.isChecked()  # ... the board in sight
    port = view.viewport().geometry()
    assert port.contains(inset.geometry())  # over the map's corner, inside its viewport
    assert inset.geometry().bottomRight().x() > port.center().x()
    assert inset.geometry().bottomRight().y() > port.center().y()
    frame = inset.frame()
    assert 0 < frame.width() < inset.width() and 0 < frame.height() <= inset.height()
    middle = inset.to_inset(_centre(window))
    assert abs(frame.center().x() - middle.x()) < 2 and abs(frame.center().y() - middle.y()) < 2
    # every hex of the board is inside the inset
    for hex_id in view.map_scene.hex_ids():  # type: ignore[union-attr]
        p = inset.to_inset(_hex_centre(window, hex_id))
        assert 0 <= p.x() <= inset.width() and 0 <= p.y() <= inset.height()


def test_a_click_and_a_drag_in_the_overview_move_the_map(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    view, inset = window.map_view, window.map_view.overview
    start = _centre(window)
    # a hex far from the view's middle, not at the board's edge (the view would stop there)
    ids = view.map_scene.hex_ids()  # type: ignore[union-attr]
    target = max(ids, key=lambda h: abs(_hex_centre(window, h).x() - start.x())
                 - 3 * abs(_hex_centre(window, h).y() - start.y()))
    goal = _hex_centre(window, target)
    at = inset.to_inset(goal).toPoint()
    qtbot.mouseClick(inset, Qt.MouseButton.LeftButton, pos=at)
    moved = _centre(window)
    assert abs(moved.x() - start.x()) > 4 * view.hex_size()
    assert view.mapToScene(view.viewport().rect()).boundingRect().contains(goal)
    assert inset.frame().contains(QPointF(at))  # the frame follows the view
    # a drag back to where the view was
    back = inset.to_inset(start).toPoint()
    qtbot.mousePress(inset, Qt.MouseButton.LeftButton, pos=at)
    qtbot.mouseMove(inset, QPoint((at.x() + back.x()) // 2, (at.y() + back.y()) // 2))
    qtbot.mouseMove(inset, back)
    qtbot.mouseRelease(inset, Qt.MouseButton.LeftButton, pos=back)
    assert inset.frame().contains(QPointF(back))
    assert abs(_centre(window).x() - start.x()) < view.hex_size()
    assert view.hex_size() * view.zoom() >= READABLE_HEX - 0.01  # moved, never zoomed


def test_the_overview_hides_while_the_whole_board_is_in_view(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    inset = window.map_view.overview
    _shortcut(window, "Ctrl+0").trigger()  # fit: nothing to find
    qtbot.waitUntil(lambda: not inset.isVisible())
    _shortcut(window, "Ctrl+1").trigger()  # the readable size again
    qtbot.waitUntil(inset.isVisible)
    window.overview_action.trigger()  # View > Overview map off, remembered
    assert not inset.isVisible() and not window.overview_action.isChecked()
    assert str(window.settings().value("map/overview")) == "false"
    window.overview_action.trigger()
    assert inset.isVisible()


def test_the_overview_draws_the_tiles_and_follows_a_lay(show_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    imported = load_export(LATE)
    raws = [dict(a) for a in imported.actions]
    lay_at = next(i for i in range(len(raws) - 120, len(raws))
                  if raws[i]["type"] == "lay_tile")
    session = GameSession()
    session.new_game(GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                               imported.seed, tuple(imported.optional_rules) + IMPORT_OPTIONS),
                     raws[:lay_at])
    win: MainWindow = show_window(session, size=(1600, 1000))  # hexes of a few pixels
    inset = win.map_view.overview
    lay = action_from_dict(raws[lay_at])
    assert isinstance(lay, LayTile)
    scene = win.map_view.map_scene
    assert scene is not None

    def colour_of(hex_id: str) -> object:
        """The tile colour nearest to the inset's pixel below the hex's middle (the
        middle holds the tokens' dots)."""
        picture = inset._picture  # noqa: SLF001 - what the inset shows
        assert picture is not None
        radius = win.map_view.hex_size() * inset.width() / scene.sceneRect().width()
        p = (inset.to_inset(_hex_centre(win, hex_id)) + QPointF(0, 0.55 * radius)) \
            * picture.devicePixelRatio()
        got = picture.toImage().pixelColor(round(p.x()), round(p.y()))

        def distance(fill: str) -> int:
            c = QColor(fill)
            return sum(abs(a - b) for a, b in zip(c.getRgb()[:3], got.getRgb()[:3],
                                                  strict=True))

        return min(style.TILE_COLORS, key=lambda k: distance(style.TILE_COLORS[k]))

    before = scene.hex_item(lay.hex).state.tile.color
    assert colour_of(lay.hex) == before
    assert session.submit(lay)
    after = scene.hex_item(lay.hex).state.tile.color
    assert after != before
    qtbot.waitUntil(lambda: colour_of(lay.hex) == after, timeout=REDRAW_MS * 10)
