"""The turn panel keeps its controls where they were between actions of the same kind,
and its amount fields show their range, refuse what is out of it and act on Enter."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt

from desk18xx.engine.game import GameSetup
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

PLAYERS = (("1", "Ann"), ("2", "Ben"), ("3", "Cid"), ("4", "Dot"))


@pytest.fixture
def window(show_window) -> MainWindow:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.new_game(GameSetup("1822CA", PLAYERS, seed=7))
    return show_window(session, size=(1280, 800))  # type: ignore[no-any-return]


def _bid_buttons(win: MainWindow) -> dict[str, QPoint]:
    panel = win.action_panel
    return {label: panel.button(label).mapTo(win, QPoint(0, 0))
            for label in panel.choice_labels() if label.startswith("Bid on ")}


def _first_open_bid(win: MainWindow) -> str:
    panel = win.action_panel
    return next(lab for lab in panel.choice_labels()
                if lab.startswith("Bid on ") and panel.is_open(lab))


def test_a_bid_leaves_every_bid_button_where_it_was(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    before = _bid_buttons(window)
    assert len(before) >= 8
    for _ in range(2):  # two bids by Ann: the heading now counts the bids left
        label = _first_open_bid(window)
        window.action_panel.button(label).click()
        qtbot.wait(10)
        after = _bid_buttons(window)
        assert after.keys() == before.keys()
        moved = {lab: (before[lab], after[lab]) for lab in before if before[lab] != after[lab]}
        assert not moved, moved
    assert "more bid" in window.action_panel.step.toolTip() + window.action_panel.step.text()


def _open_bid(win: MainWindow, company: str) -> str:
    return next(lab for lab in win.action_panel.choice_labels()
                if lab.startswith(f"Bid on {company} "))


def _type(qtbot, field, text: str) -> None:  # type: ignore[no-untyped-def]
    field.setFocus()
    field.selectAll()
    qtbot.keyClick(field, Qt.Key.Key_Delete)
    qtbot.keyClicks(field, text)


def test_an_amount_below_the_minimum_stays_as_typed_and_red(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = window.action_panel
    label = _first_open_bid(window)
    field = panel.spin(label)
    assert field is not None and field.minimum() == 100
    before = len(window.session.actions())
    _type(qtbot, field, "22")
    field.clearFocus()  # leaving the field does not "fix" it to the minimum
    qtbot.wait(10)
    assert field.text() == "$22" and field.typed() == 22
    assert "below the lowest allowed, $100" in field.problem()
    assert "#b00000" in field.styleSheet()
    assert "below the lowest allowed, $100" in panel.amount_note.text()
    panel.button(label).click()
    assert len(window.session.actions()) == before  # refused here, not bid at $100
    assert field.text() == "$22"
    assert "below the lowest allowed" in panel.error.text()


def test_typing_a_large_amount_gives_it_and_enter_bids(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = window.action_panel
    label = _first_open_bid(window)
    company = label.split()[2]
    field = panel.spin(label)
    assert field is not None and field.maximum() == 525
    _type(qtbot, field, "400")
    assert field.typed() == 400 and not field.problem()
    assert "Allowed: $100 to $525 in $5 steps" in panel.amount_note.text()
    _type(qtbot, field, "600")
    assert field.typed() == 600 and "above the highest allowed, $525" in field.problem()
    _type(qtbot, field, "400")
    qtbot.keyClick(field, Qt.Key.Key_Return)  # Enter acts
    top = window.session.game.boxes.highest(company)
    assert top is not None and top.price == 400


def test_the_next_player_starts_at_the_default_not_the_last_amount(  # type: ignore[no-untyped-def]
        window: MainWindow, qtbot) -> None:
    panel = window.action_panel
    label = _first_open_bid(window)
    other = _open_bid(window, "C2")
    field = panel.spin(other)
    assert field is not None
    _type(qtbot, field, "150")  # Ann types an amount for C2, then bids elsewhere and passes
    panel.button(label).click()
    assert panel.spin(_open_bid(window, "C2")).value() == 100  # type: ignore[union-attr]
    _type(qtbot, panel.spin(_open_bid(window, "C2")), "150")
    pass_label = next(lab for lab in panel.choice_labels() if "turn" in lab.lower()
                      or lab.startswith("Pass"))
    panel.button(pass_label).click()
    assert panel.who.text() == "Ben to act"
    ben = panel.spin(_open_bid(window, "C2"))
    assert ben is not None and ben.value() == 100 and not ben.problem()


def test_the_arrows_keep_to_the_range(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    field = window.action_panel.spin(_first_open_bid(window))
    assert field is not None
    field.setFocus()
    qtbot.keyClick(field, Qt.Key.Key_Down)
    assert field.value() == 100  # not below the minimum
    qtbot.keyClick(field, Qt.Key.Key_Up)
    assert field.value() == 105
    field.setValue(525)
    qtbot.keyClick(field, Qt.Key.Key_Up)
    assert field.value() == 525 and not field.problem()


def test_a_long_heading_is_drawn_smaller_then_cut_at_one_height(window: MainWindow) -> None:
    who = window.action_panel.who
    height = who.height()
    who.setText("Minor 16 (Player 2) to act")
    small = who.font().pixelSize()
    assert 18 <= small <= 26 and who.height() == height
    who.setText("Minor 16 (A player with a very, very long name indeed) to act")
    assert who.font().pixelSize() == 18 and who.height() == height
    assert who.is_elided() and "very long name" in who.toolTip()
    assert who.text().endswith("indeed) to act")  # the whole text for the program
    who.setText("Ann to act")
    assert who.font().pixelSize() == 26 and not who.is_elided() and who.height() == height
