"""The Variations tree behind the Log tab is not kept in step with every move
(issue 18, speed): it selects the position's node when it comes into sight, and
whatever asks it for the selected node meanwhile gets the position's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from desk18xx.ui.insight import in_sight
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

GAME = (Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
        / "1867" / "21268.json")


def _current_item_node(dock) -> object:  # type: ignore[no-untyped-def]
    item = dock.tree_widget.currentItem()
    return None if item is None else dock.node_of(item)


def _window_at_action_60(show_window):  # type: ignore[no-untyped-def]
    """The window on 21268 stepped back to action 60, and its Variations dock."""
    session = GameSession()
    session.load(GAME)
    session.undo_to(60)
    win = show_window(session)
    dock = win.study_tree
    assert dock is not None and win.study is not None
    return win, dock


def test_the_tree_behind_a_tab_catches_up_when_shown(show_window, qtbot: QtBot) -> None:  # type: ignore[no-untyped-def]
    win, dock = _window_at_action_60(show_window)
    session = win.session
    win.docks["log"].raise_()
    qtbot.waitUntil(lambda: not in_sight(dock))
    shown = _current_item_node(dock)
    session.undo()
    session.undo()
    tree = win.study.tree
    assert tree.current is not shown
    assert _current_item_node(dock) is shown  # behind the Log tab: not followed
    dock.raise_()
    qtbot.waitUntil(lambda: in_sight(dock))
    assert _current_item_node(dock) is tree.current  # in sight: the position's node
    win.docks["log"].raise_()
    qtbot.waitUntil(lambda: not in_sight(dock))
    session.redo()
    assert dock.selected_node() is tree.current  # asked while hidden: the right node


def test_a_tree_in_sight_follows_every_move(show_window, qtbot: QtBot) -> None:  # type: ignore[no-untyped-def]
    win, dock = _window_at_action_60(show_window)
    session = win.session
    dock.raise_()
    qtbot.waitUntil(lambda: in_sight(dock))
    session.undo()
    assert _current_item_node(dock) is win.study.tree.current
