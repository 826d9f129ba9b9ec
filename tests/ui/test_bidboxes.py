"""The 1822CA bid boxes dock and the bid forms greyed before a submit."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from desk18xx.engine.game import GameSetup
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

PLAYERS = (("1", "Ann"), ("2", "Ben"), ("3", "Cid"), ("4", "Dot"))


@pytest.fixture
def window(show_window) -> MainWindow:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.new_game(GameSetup("1822CA", PLAYERS, seed=7))
    return show_window(session)  # type: ignore[no-any-return]


def _bid_label(window: MainWindow, company: str) -> str:
    labels = [lab for lab in window.action_panel.choice_labels()
              if lab.startswith(f"Bid on {company} ")]
    assert len(labels) == 1, window.action_panel.choice_labels()
    return labels[0]


def test_bid_boxes_follow_the_game(window: MainWindow) -> None:
    dock = window.docks["bidboxes"]
    assert dock.isVisible()  # 1822CA brings the boxes forward
    assert dock.toggleViewAction() in window.menuBar().actions()[-1].menu().actions()
    boxes = window.bid_boxes
    game = window.session.game
    offered = game.boxes.offered()
    rows = boxes.boxes_model.rows()
    assert [r.cells[0].split()[-1] for r in rows] == offered
    assert all(r.cells[2] == "–" for r in rows)
    assert [r.cells[0] for r in boxes.bidders_model.rows()] == ["Ann", "Ben", "Cid", "Dot"]
    assert "Ann" in boxes.header.text()

    minor = offered[0]
    label = _bid_label(window, minor)
    spin = window.action_panel.spin(label)
    assert spin is not None and spin.minimum() == 100 and spin.singleStep() == 5
    assert spin.maximum() == game.cash["player:1"]
    spin.setValue(130)
    window.action_panel.button(label).click()

    game = window.session.game
    assert game.boxes.highest(minor) is not None
    assert game.boxes.highest(minor).price == 130  # type: ignore[union-attr]
    row = boxes.boxes_model.rows()[0]
    assert row.cells[1] == "$135" and row.cells[2] == "Ann $130 ★"
    ann = boxes.bidders_model.rows()[0]
    assert ann.cells == ("Ann", f"${game.cash['player:1'] - 130}", "$130", "4/5",
                         f"{minor} $130 ★")
    assert boxes.bidders_model.rows()[1].cells[4] == "–"  # Ben has not bid

    # Ann is still to act (up to three bids a turn): her own box is greyed with the reason
    label = _bid_label(window, minor)
    assert not window.action_panel.is_open(label)
    assert "highest bidder" in window.action_panel.button(label).toolTip()
    other = _bid_label(window, offered[1])
    assert window.action_panel.is_open(other)
    free_spin = window.action_panel.spin(other)
    assert free_spin is not None and free_spin.maximum() == game.cash["player:1"] - 130


def test_start_prices_cost_what_the_concession_leaves(window: MainWindow) -> None:
    game = window.session.game
    options = game.par_options("player:1", "CPR")
    assert [o.price for o in options] == [100, 90, 80, 70, 60]
    mult = game.shares["CPR_0"].percent // 10
    # the CPR concession is worth $100 towards the director's certificate (RB 4.7)
    assert [o.cost for o in options] == [max(0, p * mult - 100) for p in (100, 90, 80, 70, 60)]
    assert game.par_options("player:1", "M6") == ()  # not a major


def test_closed_choices_are_greyed_up_front(window: MainWindow) -> None:
    from desk18xx.engine.actions import Par, Pass
    from desk18xx.ui.models.choices import Choice, TurnInfo

    def par(value: int | str | None) -> Par:
        return Par(entity="player:1", corporation="CPR", share_price=str(value))

    choices = (
        Choice("Start CPR", par, "Start a major",
               options=(("a", "$100"), ("b", "$90"), ("c", "$80")),
               disabled_options=(("a", "costs $200; $150 free"), ("b", "costs $180; $150 free"))),
        Choice("Bid on C2 (CPR)", lambda v: Pass(entity="player:1"), "Bid boxes",
               spin=(100, 100, 5, 100), disabled="no bidding tokens left"),
    )
    panel = window.action_panel
    panel.show_turn(TurnInfo("player:1", "Ann", "Stock round 1", "Buy", ("par", "bid"),
                             choices))
    combo = panel.combo("Start CPR")
    assert combo is not None
    assert combo.currentData() == "c"  # the first price open now is preselected
    model = combo.model()
    assert not model.flags(model.index(0, 0)) & Qt.ItemFlag.ItemIsEnabled
    assert model.flags(model.index(2, 0)) & Qt.ItemFlag.ItemIsEnabled
    assert "costs $200" in str(combo.itemData(0, Qt.ItemDataRole.ToolTipRole))
    assert panel.is_open("Start CPR")
    assert not panel.is_open("Bid on C2 (CPR)")
    assert "no bidding tokens left" in panel.button("Bid on C2 (CPR)").toolTip()
    spin = panel.spin("Bid on C2 (CPR)")
    assert spin is not None and not spin.isEnabled()


def test_1867_bid_below_the_minimum_is_greyed() -> None:
    from desk18xx.titles import find_title
    from desk18xx.ui.models.choices import turn_info

    game = find_title("1867").new_game(GameSetup("1867", PLAYERS, seed=1867))
    info = turn_info(game)
    bid = next(c for c in info.choices if c.label.startswith("Bid on"))
    assert bid.spin is not None and not bid.disabled
    lowest = bid.spin[0]
    assert info.entity is not None
    poorer = game.copy()  # a new position (turn_info remembers the last one asked)
    poorer.cash[info.entity] = lowest - 5  # less than the lowest bid
    poor = next(c for c in turn_info(poorer).choices if c.label == bid.label)
    assert f"lowest bid is ${lowest}" in poor.disabled
    assert poorer.why_illegal(poor.make(lowest)) is not None  # the engine agrees


def test_bid_boxes_dock_is_remembered(window: MainWindow, qtbot, qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    qtmodeltester.check(window.bid_boxes.boxes_model)
    qtmodeltester.check(window.bid_boxes.bidders_model)
    window.docks["bidboxes"].close()
    window.save_layout()
    again = MainWindow(window.session, restore_layout=True)
    qtbot.addWidget(again)
    again.show()
    qtbot.wait_exposed(again)
    assert not again.docks["bidboxes"].isVisible()
    again.docks["bidboxes"].toggleViewAction().trigger()  # View > Bid boxes
    assert again.docks["bidboxes"].isVisible()
    assert len(again.bid_boxes.boxes_model.rows()) == len(again.session.game.boxes.offered())
