"""pytest-qt: study mode's off-turn sandbox in the main window."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from desk18xx.engine.digest import state_digest
from desk18xx.engine.sandbox import best_routes_of
from desk18xx.ui.docks.sandbox import SANDBOX_COLOR, SandboxDock
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.models.tracks import TrackOptions
from desk18xx.ui.session import GameSession

GAME = (Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
        / "1867" / "21268.json")

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints", "raise"),
              pytest.mark.skipif(not GAME.exists(), reason="no 1867 fixture")]


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    session = GameSession()
    session.load(GAME)
    win = MainWindow(session, restore_layout=False)
    qtbot.addWidget(win)
    win.show()
    return win


def _open(window: MainWindow, corp: str) -> SandboxDock:
    dock = window.sandbox
    assert dock is not None
    dock.mode_action.trigger()  # Study > Sandbox (Ctrl+T)
    assert dock.active and dock.isVisible()
    dock.company.setCurrentIndex(dock.company.findData(corp))
    assert dock.corp == corp
    return dock


def _lay(dock: SandboxDock, hex_id: str, tile: str, rotation: int) -> None:
    dock.view.hex_clicked.emit(hex_id)  # a click on the map
    assert dock.selected_hex == hex_id
    dock.choose_tile(tile)
    for _ in range(6):
        lay = dock.pending_lay()
        if lay is not None and lay.rotation == rotation:
            return
        dock.view.rotate_requested.emit(1)  # as the map's rotate key
    raise AssertionError(f"rotation {rotation} of {tile} not offered on {hex_id}")


def test_a_tile_tried_for_a_company_off_turn_shows_its_routes_then_is_discarded(
        window: MainWindow) -> None:
    session = window.session
    main = session.tree.main_line()
    session.go_to(main[300])
    game = session.game
    assert game.legal_actions().entity != "PM"  # not PM's turn
    digest, size, raw = state_digest(game), len(session.tree), len(session.line.raw)
    dock = _open(window, "PM")
    expected = TrackOptions(game, "PM").hexes()
    assert expected and window.map_view.highlighted() == expected
    assert "M11" in expected
    before = best_routes_of(game, "PM").revenue
    assert f"${before}" in dock.result.text()
    # the map's own controller ignores clicks meanwhile: nothing is submitted
    _lay(dock, "M11", "8", 5)
    assert window.map_view.previewing
    trial = dock.try_lay()
    assert trial is not None and trial.before.revenue == before
    assert trial.after.revenue == best_routes_of(trial.game, "PM").revenue
    assert trial.gain > 0 and f"{trial.gain:+d}" in dock.result.text()
    assert not trial.on_turn and not dock.keep_button.isEnabled()
    assert window.map_view.routes()  # the best routes after the lay are drawn
    assert window.map_view.highlighted() == ["M11"]
    assert session.game is game and state_digest(session.game) == digest
    assert len(session.tree) == size and len(session.line.raw) == raw
    dock.discard_button.click()
    assert dock.trial is None and window.map_view.highlighted() == expected
    dock.mode_action.trigger()  # off: the live board and its own overlays again
    live = window.controller.track
    assert not dock.active
    assert window.map_view.highlighted() == (live.hexes() if live is not None else [])
    assert len(session.tree) == size and state_digest(session.game) == digest


def test_a_tile_tried_on_the_companys_own_turn_can_be_kept_as_a_branch(
        window: MainWindow) -> None:
    session = window.session
    main = session.tree.main_line()
    index = next(i for i in range(300, len(main)) if main[i].type == "lay_tile"
                 and (main[i].action or {}).get("entity_type") == "corporation")
    recorded = main[index].action or {}
    corp, hex_id = str(recorded["entity"]), str(recorded["hex"])
    session.go_to(main[index - 1])
    dock = _open(window, corp)
    _lay(dock, hex_id, str(recorded["tile"]).rpartition("-")[0], int(recorded["rotation"]))
    trial = dock.try_lay()
    assert trial is not None and trial.on_turn and dock.keep_button.isEnabled()
    dock.keep_button.click()
    assert not dock.active
    assert len(session.actions()) == index + 1
    last = session.actions()[-1]
    assert last.type == "lay_tile" and last.entity == corp
    assert session.tree.current.parent is main[index - 1]
    board = session.game.board
    assert board is not None and board.placed[hex_id].tile.name == \
        str(recorded["tile"]).rpartition("-")[0]


def test_moving_in_the_study_starts_the_sandbox_again(window: MainWindow) -> None:
    session = window.session
    main = session.tree.main_line()
    session.go_to(main[300])
    dock = _open(window, "PM")
    _lay(dock, "M11", "8", 5)
    assert dock.try_lay() is not None
    session.go_to(main[250])
    assert dock.active and dock.trial is None and dock.corp == "PM"
    assert window.map_view.highlighted() == TrackOptions(session.game, "PM").hexes()
    assert dock.base is not None and state_digest(dock.base) == state_digest(session.game)
    assert SANDBOX_COLOR.startswith("#")
