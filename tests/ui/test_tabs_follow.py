"""The left dock tabs follow the round (issue 18): the bid boxes in front in a stock
round, the bank and its trains in an operating round, and a tab the player picks by
hand stays in front until the round changes."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTabBar

from desk18xx.engine.actions import action_from_dict
from desk18xx.engine.game import GameSetup
from desk18xx.engine.round import RoundKind
from desk18xx.io.import_18xxgames import load_export
from desk18xx.ui.insight import in_sight
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.session import IMPORT_OPTIONS, GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

GAME = (Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
        / "1822CA" / "1822CA_game_end_bank.json")


def _click_tab(qtbot, win: MainWindow, title: str) -> None:  # type: ignore[no-untyped-def]
    """Click the dock tab reading ``title``, as the player does."""
    for bar in win.findChildren(QTabBar):
        if bar.parent() is not win:
            continue
        for i in range(bar.count()):
            if bar.tabText(i) == title:
                qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(i).center())
                return
    raise AssertionError(f"no tab {title!r}")


def _front(qtbot, win: MainWindow, key: str) -> bool:  # type: ignore[no-untyped-def]
    qtbot.wait(5)
    return in_sight(win.docks[key])


def test_the_tabs_follow_the_round_but_not_over_the_players_choice(show_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    imported = load_export(GAME)
    raws = [dict(a) for a in imported.actions]
    probe = GameSession()
    probe.load(GAME)
    kinds = [r.kind for r in probe.rounds()]
    # the second stock round: the first action taken in it, with another one after it
    first_or = kinds.index("operating")
    second_sr = next(i for i in range(first_or, len(kinds) - 1)
                     if kinds[i] == "stock" and kinds[i + 1] == "stock")
    session = GameSession()
    session.new_game(GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                               imported.seed, tuple(imported.optional_rules) + IMPORT_OPTIONS),
                     raws[:second_sr])
    win: MainWindow = show_window(session, size=(1280, 800))
    assert session.game.round_kind() is RoundKind.STOCK
    assert _front(qtbot, win, "bidboxes")  # a stock round: the boxes in front

    _click_tab(qtbot, win, "Tiles")  # the player's own choice ...
    assert _front(qtbot, win, "tiles") and win.tabs.chosen_by_hand("left")
    at = second_sr
    assert session.submit(action_from_dict(raws[at]))  # ... outlasts a move of the round
    at += 1
    assert session.game.round_kind() is RoundKind.STOCK
    assert _front(qtbot, win, "tiles") and not _front(qtbot, win, "bidboxes")

    while session.game.round_kind() is not RoundKind.OPERATING:
        assert session.submit(action_from_dict(raws[at]))
        at += 1
    assert _front(qtbot, win, "bank")  # a new round: its own tab, the bank's trains
    assert not win.tabs.chosen_by_hand("left")

    _click_tab(qtbot, win, "Bid boxes")  # looking at the boxes during the round ...
    for _ in range(3):
        assert session.submit(action_from_dict(raws[at]))
        at += 1
    assert session.game.round_kind() is RoundKind.OPERATING
    assert _front(qtbot, win, "bidboxes")  # ... is not taken back by the next moves
    _click_tab(qtbot, win, "Privates")
    while session.game.round_kind() is not RoundKind.STOCK:
        assert session.submit(action_from_dict(raws[at]))
        at += 1
    assert _front(qtbot, win, "bidboxes")  # the next stock round brings the boxes back
