"""1822CA rulebook mode: a deal with another player's private waits for that player's
consent (commit 81844c3); proposed, refused and accepted through the turn panel."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from desk18xx.engine.game import Game, GameSetup
from desk18xx.engine.state import BANK
from desk18xx.titles.g1822ca.game import G1822CA
from desk18xx.titles.g1822ca.rounds import OperatingRound
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

SEED = 337421161
PLAYERS = (("100", "Ann"), ("101", "Bob"), ("102", "Cy"), ("103", "Dee"))
TAKE_OVER = "Take over P2"
CONSENT, REFUSE = "Consent to the deal", "Refuse the deal"



def _deal_turn(setup: GameSetup) -> Game:
    """Phase 3 of a rulebook-mode game: GT (director Ann) operates; Bob owns private P2
    (the position of tests/titles/g1822ca/test_rulebook_mode.py)."""
    game = G1822CA(setup)
    cells = {c.price: c.coord for c in game.market.cells.values()}
    game.market.place("GT", cells[100])
    game.corps["GT"].ipoed = game.corps["GT"].floated = True
    game.shares["GT_0"].owner = "100"
    game.operating_history["GT"] = 2
    game.place_token("GT", "AC21", 1, 0)
    game.transfer(BANK, "GT", 500)
    for train in ("2", "3"):  # the first 2- and 3-trains: phase 3
        game.train_bought(game.trains[game.depot[0]], train)
    game.companies["P2"].owner = "101"
    orr = OperatingRound(game, 1)
    orr.entity_index = orr.entities.index("GT")
    game.round = orr
    return game


def _button(win: MainWindow, prefix: str) -> str:
    labels = [label for label in win.action_panel.choice_labels() if label.startswith(prefix)]
    assert labels, f"no {prefix!r} button among {win.action_panel.choice_labels()}"
    return labels[0]


def _click(qtbot, win: MainWindow, prefix: str) -> None:  # type: ignore[no-untyped-def]
    button = win.action_panel.button(_button(win, prefix))
    assert button.isVisible() and button.isEnabled()
    with qtbot.wait_signal(win.session.state_changed):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def _asks_bob(win: MainWindow) -> None:
    panel = win.action_panel
    assert panel.who.text() == "Bob to act"
    assert "GT (Ann) asks Bob's consent" in panel.step.text()
    facts = panel.facts.text()
    assert "Deal proposed: GT (Ann) takes over P2" in facts and "from Bob" in facts
    assert "Only Bob may answer" in facts
    assert sorted(panel.choice_labels()) == [CONSENT, REFUSE]
    assert win.players_model.rows()[1].background is not None  # Bob's row is marked


@pytest.fixture
def window(show_window) -> MainWindow:  # type: ignore[no-untyped-def]
    session = GameSession(factory=_deal_turn)
    session.new_game(GameSetup("1822CA", PLAYERS, SEED))
    win = show_window(session, size=(1280, 800))
    return win


def test_a_refused_deal_is_not_done(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert window.action_panel.who.text() == "GT (Ann) to act"
    _click(qtbot, window, TAKE_OVER)
    _asks_bob(window)
    assert window.session.game.companies["P2"].owner == "101"
    _click(qtbot, window, REFUSE)
    assert window.session.game.companies["P2"].owner == "101"
    assert window.action_panel.who.text() == "GT (Ann) to act"
    assert "Pass" in window.action_panel.choice_labels()  # GT's turn goes on
    assert "Deal proposed" not in window.action_panel.facts.text()


def test_a_consented_deal_is_done(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    _click(qtbot, window, TAKE_OVER)
    _asks_bob(window)
    _click(qtbot, window, CONSENT)
    assert window.session.game.companies["P2"].owner == "GT"
    assert window.action_panel.who.text() == "GT (Ann) to act"
    assert "Deal proposed" not in window.action_panel.facts.text()
