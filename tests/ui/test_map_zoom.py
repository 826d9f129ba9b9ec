"""The map's default zoom, the keyboard zoom, and following the operating company."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, QSettings
from PySide6.QtGui import QKeySequence

from desk18xx.engine.game import GameSetup
from desk18xx.engine.map import hexgrid
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.mapview.view import READABLE_HEX
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

FIXTURE = (Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
           / "1822CA" / "1822CA_game_end_bank.json")
#: CPR (home AF12, Montréal) runs its trains after this many live actions of the fixture.
CPR_RUNS = 600




def _hex_pixels(win: MainWindow) -> float:
    return win.map_view.hex_size() * win.map_view.zoom()


def _in_sight(win: MainWindow, hex_id: str) -> bool:
    view = win.map_view
    x, y = hexgrid.center(hexgrid.parse_hex(hex_id), view.hex_size())
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    return shown.contains(QPointF(x, y))


def _centre(win: MainWindow) -> QPointF:
    view = win.map_view
    return view.mapToScene(view.viewport().rect().center())


def _board_in_view(win: MainWindow) -> bool:
    view = win.map_view
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    return shown.adjusted(-1, -1, 1, 1).contains(view.board_rect())


@pytest.mark.parametrize("title", ["1822CA", "1867"])
@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_the_default_layout_shows_the_whole_board(show_window, qtbot, title: str,  # type: ignore[no-untyped-def]
                                                  size: tuple[int, int]) -> None:
    """Issue 18: "the default layout fits 1280x800 with the whole board visible"."""
    session = GameSession()
    session.new_game(GameSetup(title, (("1", "Ann"), ("2", "Bob"), ("3", "Cy")), seed=3))
    win = show_window(session, size=size)
    assert win.height() == size[1]
    view = win.map_view
    assert _board_in_view(win)
    bar = view.horizontalScrollBar()
    assert not (bar.isVisible() and bar.maximum() > 0)  # nothing to scroll to
    assert not view.overview.isVisible()  # no inset standing in for the board
    win.resize(size[0] - 80, size[1] - 40)  # kept whole on a resize
    qtbot.wait(10)
    assert _board_in_view(win)


def test_1822ca_readable_size_and_fit(qtbot, show_window) -> None:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.new_game(GameSetup("1822CA", (("1", "Ann"), ("2", "Bob"), ("3", "Cy")), seed=3))
    win = show_window(session, size=(1280, 800))
    assert _board_in_view(win) and _hex_pixels(win) < READABLE_HEX / 2  # about 9 px
    shortcuts = {a.shortcut().toString(QKeySequence.SequenceFormat.PortableText): a
                 for a in win.findChildren(type(win.undo_action))}
    shortcuts["Ctrl+1"].trigger()  # the readable size: part of the board
    view = win.map_view
    assert _hex_pixels(win) == pytest.approx(READABLE_HEX)
    assert not _board_in_view(win)
    win.resize(1200, 760)  # the readable view is kept on a resize
    qtbot.wait(10)
    assert _hex_pixels(win) == pytest.approx(READABLE_HEX)
    shortcuts["Ctrl+0"].trigger()  # fit: the whole board, however small
    assert _board_in_view(win)
    assert _hex_pixels(win) < READABLE_HEX / 2
    before = view.zoom()
    shortcuts["Ctrl++"].trigger()
    assert view.zoom() > before
    shortcuts["Ctrl+-"].trigger()
    shortcuts["Ctrl+-"].trigger()
    assert view.zoom() < before
    shortcuts["Ctrl+1"].trigger()
    assert _hex_pixels(win) == pytest.approx(READABLE_HEX)


def test_a_small_board_in_a_big_window_is_fitted_whole(show_window) -> None:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.new_game(GameSetup("1867", (("1", "Ann"), ("2", "Bob"), ("3", "Cy")), seed=3))
    win = show_window(session, size=(1280, 800))
    win.resize(3000, 2400)
    win.map_view.readable_view()
    view = win.map_view
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    assert shown.adjusted(-1, -1, 1, 1).contains(view.board_rect())
    assert _hex_pixels(win) > READABLE_HEX


def _next_company(win: MainWindow, session: GameSession, now: str) -> str:
    """Redo recorded actions until another company acts; its id."""
    for _ in range(40):
        assert session.redo()
        entity = win._info.entity if win._info else None  # noqa: SLF001
        if entity is not None and entity != now and entity in session.game.corps:
            return entity
    raise AssertionError("no other company acted")


def test_the_map_follows_a_new_operating_company_only(show_window) -> None:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.load(FIXTURE)
    session.undo_to(CPR_RUNS)
    win = show_window(session, size=(1280, 800))
    assert win._info is not None and win._info.entity == "CPR"  # noqa: SLF001
    assert win.follow_action.isChecked()
    assert _in_sight(win, "AF12")  # CPR's home, Montréal (the whole board is in view)
    win.map_view.readable_view()  # View > Readable size: from there the view follows
    win.map_view.pan_by(-900, 300)  # the player looks elsewhere
    assert not _in_sight(win, "AF12")
    zoom = win.map_view.zoom()
    moved_to = _centre(win)
    session.redo()  # CPR runs: still CPR's turn (dividend), the player's view stays
    assert win._info is not None and win._info.entity == "CPR"  # noqa: SLF001
    assert _centre(win) == moved_to and win.map_view.zoom() == zoom
    other = _next_company(win, session, "CPR")
    hexes = win.map_view.company_hexes(other)
    assert hexes and _in_sight(win, hexes[0])
    assert _hex_pixels(win) >= READABLE_HEX - 0.01


def test_following_can_be_turned_off(show_window) -> None:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.load(FIXTURE)
    session.undo_to(CPR_RUNS)
    win = show_window(session, size=(1280, 800))
    win.follow_action.setChecked(False)
    assert QSettings.value(win.settings(), "map/follow") == "false"
    win.map_view.readable_view()
    win.map_view.pan_by(-900, 300)
    where = _centre(win)
    _next_company(win, session, "CPR")
    assert _centre(win) == where


def test_another_game_follows_its_first_company_too(show_window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.load(FIXTURE)
    session.undo_to(CPR_RUNS)
    win = show_window(session, size=(1280, 800))
    saved = tmp_path / "same.d18xx"
    session.save(saved)
    win.map_view.readable_view()
    win.map_view.pan_by(-900, 300)
    assert not _in_sight(win, "AF12")
    session.load(saved)  # the same company to act, in another game: followed again
    assert win._info is not None and win._info.entity == "CPR"  # noqa: SLF001
    assert _in_sight(win, "AF12")
