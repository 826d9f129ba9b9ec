"""The lay question of the next position asked in the player's pause (issue 18,
speed): a company's *Done buying trains* leads to the next company's lay, whose
outlines and tray then come from the guess made while the player looked at the
position before, with no engine question on the way; a guess is used only for the
very action and position it was made for.  Played on 21268.json (1867)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from desk18xx.engine.actions import LayTile, Pass
from desk18xx.engine.offers import lay_hexes_of, lay_tiles_of
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.session import GameSession

GAME = (Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
        / "1867" / "21268.json")
#: BO to buy trains; its recorded action is "Done buying trains", then CS lays track.
BO_BUYS = 78

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints", "raise")]


@pytest.fixture
def window(show_window) -> MainWindow:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.load(GAME)
    win: MainWindow = show_window(session)
    session.undo_to(BO_BUYS)
    assert win._info is not None and win._info.entity == "BO"  # noqa: SLF001
    return win


def _count_lay_questions(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    asked: list[str] = []
    kind = type(window.session.game)
    original = kind.lay_choices

    def counted(self: Any, entity: str) -> tuple[frozenset[str], frozenset[str]]:
        asked.append(entity)
        return original(self, entity)

    monkeypatch.setattr(kind, "lay_choices", counted)
    return asked


def _shown_and_offered(window: MainWindow) -> tuple[tuple[list[str], set[str]],
                                                    tuple[list[str], set[str]]]:
    track = window.controller.track
    assert track is not None
    shown = track.hexes(), {c.name for c in track.tray(None) if c.rotations}
    game = window.session.game
    entity = game.legal_actions().entity
    assert entity is not None
    offers = game.offers(entity, (LayTile.type,))
    return shown, (sorted(lay_hexes_of(offers)), set(lay_tiles_of(offers)))


def test_done_buying_trains_shows_the_next_lay_from_the_pause(
        window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    guesses = window.controller.guesses
    qtbot.waitUntil(lambda: any(g.entity == "CS" for g in guesses.guessed()), timeout=3000)
    asked = _count_lay_questions(window, monkeypatch)
    window.action_panel.button("Done buying trains").click()
    assert window._info is not None and window._info.entity == "CS"  # noqa: SLF001
    assert asked == []  # outlined and the tray greyed with no engine question
    assert guesses.used == 1
    shown, offered = _shown_and_offered(window)
    assert shown[0] and shown == offered  # the same as the engine's full offers


def test_a_guess_serves_only_its_own_position(window: MainWindow, qtbot: QtBot,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    guesses = window.controller.guesses
    qtbot.waitUntil(lambda: bool(guesses.guessed()), timeout=3000)
    # the same action from another position (the count of another line)
    guesses._guesses = [dataclasses.replace(g, count=g.count + 1)  # noqa: SLF001
                        for g in guesses.guessed()]
    asked = _count_lay_questions(window, monkeypatch)
    window.action_panel.button("Done buying trains").click()
    assert asked == ["CS"] and guesses.used == 0
    shown, offered = _shown_and_offered(window)
    assert shown == offered


def test_another_action_asks_the_engine(window: MainWindow, qtbot: QtBot,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    guesses = window.controller.guesses
    qtbot.waitUntil(lambda: bool(guesses.guessed()), timeout=3000)
    guesses._guesses = [dataclasses.replace(g, action=Pass(entity="CS",  # noqa: SLF001
                                                           entity_type="corporation"))
                        for g in guesses.guessed()]
    asked = _count_lay_questions(window, monkeypatch)
    window.action_panel.button("Done buying trains").click()
    assert asked == ["CS"] and guesses.used == 0


def test_no_guess_for_a_position_left_before_the_pause(window: MainWindow,
                                                       qtbot: QtBot) -> None:
    guesses = window.controller.guesses
    window.session.undo()  # gone before the guess's timer
    window.session.redo()  # back, with a new plan of its own
    qtbot.waitUntil(lambda: bool(guesses.guessed()), timeout=3000)
    node = window.session.tree.current
    assert all(g.node is node for g in guesses.guessed())


def test_a_players_turn_is_not_guessed(window: MainWindow, qtbot: QtBot,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A stock round's choice leads to another player's turn, never to a lay: the
    pause is not spent copying the game for it."""
    from desk18xx.ui.mapview.layguess import GUESS_DELAY_MS, LayGuesses

    tried: list[object] = []
    monkeypatch.setattr(LayGuesses, "guess", lambda self, here, todo: tried.append(here))
    session = window.session
    session.undo_to(20)  # the first stock round: a player to act
    info = window._info  # noqa: SLF001
    assert info is not None and info.entity not in session.game.corps
    assert any(c.spin is None and not c.options and not c.disabled for c in info.choices)
    qtbot.wait(GUESS_DELAY_MS * 3)
    assert not [h for h in tried if h == (session.tree.current, 20)]
    session.redo(BO_BUYS - 20)  # a company's turn: its one-click choices are tried
    qtbot.waitUntil(lambda: (session.tree.current, BO_BUYS) in tried, timeout=3000)
