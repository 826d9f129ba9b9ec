"""The main window: docks, layout memory, panels reading the game, screenshot."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from desk18xx.engine.game import GameSetup
from desk18xx.ui import app
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

PLAYERS = (("1", "Alice"), ("2", "Bob"), ("3", "Carol"), ("4", "Dave"))
DOCKS = {"actions", "players", "companies", "market", "log", "bank", "auction", "tiles",
         "bidboxes", "sheet"}



@pytest.fixture
def window(show_window) -> MainWindow:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=3))
    win = show_window(session, size=(1280, 800))
    return win


def test_docks_are_all_there(window: MainWindow) -> None:
    assert set(window.docks) == DOCKS
    for dock in window.docks.values():
        assert dock.objectName().startswith("dock_")
        if dock is window.docks["bidboxes"]:  # 1867 has no bid boxes: hidden
            assert dock.isHidden() and window.session.game.bid_boxes() is None
            continue
        assert dock.isVisible() or window.tabifiedDockWidgets(dock)


def test_turn_header_names_the_first_bidder(window: MainWindow) -> None:
    assert window.action_panel.who.text() == "Alice to act"
    assert "Private auction" in window.action_panel.step.text()
    labels = window.action_panel.choice_labels()
    assert any(label.startswith("Bid on") for label in labels)
    assert any(label.startswith("Pass") for label in labels)
    assert window.players_model.rowCount() == 4
    assert window.players_model.rows()[0].cells[1] == "$315"


def test_models_pass_the_model_tester(window: MainWindow, qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    qtmodeltester.check(window.players_model)
    qtmodeltester.check(window.corps_model)
    qtmodeltester.check(window.log_model)


def test_closed_dock_comes_back_after_restart(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.docks["market"].close()
    window.save_layout()
    session = window.session
    again = MainWindow(session, restore_layout=True)
    qtbot.addWidget(again)
    again.show()
    assert not again.docks["market"].isVisible()
    again.reset_layout()
    assert again.docks["market"].isVisible()


def test_refusal_is_shown(window: MainWindow) -> None:
    spin = window.action_panel.spin(window.action_panel.choice_labels()[0])
    assert spin is not None
    window.session.submit(_too_high(window))
    assert "Not allowed" in window.action_panel.error.text()


def _too_high(window: MainWindow):  # type: ignore[no-untyped-def]
    from desk18xx.engine.actions import Bid

    d = window.session.game.legal_actions().details
    return Bid(entity="1", price=10_000, company=str(d["company"]))


def test_screenshot_writes_a_picture(tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    assert app.run_app(None, screenshot=str(out)) == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == app.SCREENSHOT_SIZE


def test_an_1822ca_board_is_drawn(qtbot) -> None:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.new_game(GameSetup("1822CA", PLAYERS[:3], seed=5))
    win = MainWindow(session, restore_layout=False)
    qtbot.addWidget(win)
    scene = win.map_view.map_scene
    assert scene is not None and len(scene.hex_ids()) > 200
    assert win.tiles_model.rowCount() > 20
    assert win.action_panel.who.text().endswith("to act")


def test_hovering_a_hex_explains_it(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QPointF

    from desk18xx.engine.map import hexgrid

    view = window.map_view
    x, y = hexgrid.center(hexgrid.parse_hex("L12"), view.hex_size())
    # Start elsewhere: a cursor already resting on the target (left there by
    # an earlier test) produces no move event.
    qtbot.mouseMove(view.viewport(), view.viewport().rect().topLeft())
    with qtbot.wait_signal(view.hex_hovered):
        qtbot.mouseMove(view.viewport(), view.mapFromScene(QPointF(x, y)))
    assert "Montreal" in view.toolTip()
