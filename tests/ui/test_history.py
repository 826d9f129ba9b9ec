"""Undo stack, looking back through the log, and the game-end dialog."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from desk18xx.engine.actions import Bid, Pass
from desk18xx.engine.game import GameSetup
from desk18xx.ui.dialogs.gameend import GameEndDialog, Standing
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.models.history import standings, values_by_round
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

PLAYERS = (("1", "Alice"), ("2", "Bob"), ("3", "Carol"))
FIXTURE = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "18xx.games" / \
    "1867" / "21268.json"


@pytest.fixture
def window(qtbot, tmp_path: Path) -> MainWindow:  # type: ignore[no-untyped-def]
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=5))
    win = MainWindow(session, restore_layout=False)
    qtbot.addWidget(win)
    win.show()
    return win


def _bid_min(session: GameSession) -> None:
    legal = session.game.legal_actions()
    assert session.submit(Bid(entity=str(legal.entity), price=int(str(legal.details["min_bid"])),
                              company=str(legal.details["company"])))


def test_undo_stack_follows_the_log(window: MainWindow) -> None:
    session = window.session
    _bid_min(session)
    session.submit(Pass(entity=str(session.game.legal_actions().entity)))
    assert window.undo.stack.count() == 2
    assert window.undo_action.isEnabled()
    window.undo_action.trigger()
    assert len(session.actions()) == 1
    assert window.redo_action.isEnabled()
    window.redo_action.trigger()
    assert len(session.actions()) == 2
    window.undo.jump_to(0)
    assert session.actions() == []
    assert window.undo.stack.index() == 0
    window.redo_action.trigger()
    assert len(session.actions()) == 1


def test_log_click_shows_the_board_then(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.open_path(str(FIXTURE))
    model = window.log_model
    assert model.entry(0).count is None and model.entry(0).text.startswith("—")
    scene = window.map_view.map_scene
    assert scene is not None
    laid = [h for h in scene.hex_ids() if not window.session.game.board.hex(h).printed]
    assert laid
    row = next(i for i in range(model.rowCount()) if model.entry(i).count == 1)
    window._log_clicked(model.index(row))
    assert window.viewing == 1
    assert not window.action_panel.isEnabled()
    assert window.action_panel.who.text() == "Looking back: action 1"
    early = window.session.game_at(1)
    assert [r.cells[1] for r in window.players_model.rows()] == [
        f"${early.cash[p.id]}" for p in early.players]
    scene = window.map_view.map_scene
    assert scene is not None
    assert all(scene.hex_item(h).state.tile is early.board.hex(h).tile for h in laid)
    last = model.rowCount() - 1
    window._log_clicked(model.index(last))
    assert window.viewing is None and window.action_panel.isEnabled()
    game = window.session.game
    assert scene.hex_item(laid[0]).state.tile is game.board.hex(laid[0]).tile
    assert [r.cells[1] for r in window.players_model.rows()] == [
        f"${game.cash[p.id]}" for p in game.players]


def test_game_end_dialog_ranks_and_charts(qtbot) -> None:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=5))
    for _ in range(4):
        legal = session.game.legal_actions()
        session.submit(Pass(entity=str(legal.entity)))
    labels, series = values_by_round(session)
    assert labels[0] == "start" and labels[-1] == "end"
    assert set(series) == {"Alice", "Bob", "Carol"}
    assert all(len(v) == len(labels) for v in series.values())
    rows = standings(session.game)
    dialog = GameEndDialog("bank broken", rows + [Standing("Zed", 0, 0, 9999)], labels,
                           series)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.table.item(0, 1).text() == "Zed"
    assert dialog.chart.series() == series
    image = dialog.chart.grab().toImage()
    assert image.width() > 100


def test_the_end_of_the_game_opens_the_ranking(window: MainWindow) -> None:
    from desk18xx.engine.actions import EndGame

    session = window.session
    _bid_min(session)
    assert session.submit(EndGame(entity="1"))
    assert session.game.finished
    dialogs = window.findChildren(GameEndDialog)
    assert len(dialogs) == 1 and dialogs[0].isVisible()
    assert dialogs[0].table.rowCount() == len(PLAYERS)
    assert window.action_panel.who.text() == "Game over"
    assert " wins with $" in window.action_panel.step.text()
    window.undo_action.trigger()  # taking the end back and forth does not stack dialogs
    window.redo_action.trigger()
    assert len(window.findChildren(GameEndDialog)) == 1
