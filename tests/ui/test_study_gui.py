"""pytest-qt: the history is a tree of variations (study mode) in the main window."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from pytestqt.qtbot import QtBot

from desk18xx.engine.actions import Bid, Pass
from desk18xx.engine.digest import state_digest
from desk18xx.engine.game import GameSetup
from desk18xx.engine.log import filter_log
from desk18xx.engine.variations import Mark, Node, action_key
from desk18xx.io.study import load_study
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

PLAYERS = (("1", "Alice"), ("2", "Bob"), ("3", "Carol"))


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=5))
    win = MainWindow(session, restore_layout=False)
    qtbot.addWidget(win)
    win.show()
    return win


def _bid(session: GameSession, extra: int = 0) -> None:
    legal = session.game.legal_actions()
    assert session.submit(Bid(entity=str(legal.entity), company=str(legal.details["company"]),
                              price=int(str(legal.details["min_bid"])) + extra))


def _pass(session: GameSession) -> None:
    assert session.submit(Pass(entity=str(session.game.legal_actions().entity)))


def _branched(window: MainWindow) -> tuple[list[Node], Node]:
    """Bid, pass, pass; undo twice; bid instead: the first line and the new move."""
    session = window.session
    _bid(session)
    _pass(session)
    _pass(session)
    first = session.tree.path()
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert session.tree.current is first[0] and len(session.actions()) == 1
    _bid(session, 5)
    return first, session.tree.current


def _live_matches_tree(session: GameSession) -> None:
    keys = [action_key(a) for a in filter_log(session.line.raw).actions]
    assert keys == [action_key(a) for a in session.tree.actions()]
    assert len(session.actions()) == session.tree.current.depth


def test_acting_after_undo_starts_a_branch_shown_in_the_dock(window: MainWindow) -> None:
    first, alt = _branched(window)
    session = window.session
    assert alt.parent is first[0] and first[0].children == [first[1], alt]
    assert first[2] in session.tree  # the first line is not lost
    dock = window.study_tree
    assert dock is not None
    for node in (*first, alt):
        assert dock.item_for(node) is not None
    alt_item = dock.item_for(alt)
    assert alt_item is not None and alt_item.parent() is dock.item_for(first[1])  # replaced
    assert alt_item.font(0).italic() and dock.selected_node() is alt
    assert session.game.legal_actions().entity != first[1].action["entity"]  # type: ignore[index]
    _live_matches_tree(session)


def test_redo_follows_the_line_visited_last(window: MainWindow) -> None:
    first, alt = _branched(window)
    session = window.session
    window.undo_action.trigger()
    assert session.tree.current is first[0] and window.redo_action.isEnabled()
    window.redo_action.trigger()
    assert session.tree.current is alt  # the branch visited last, not the main line
    session.go_to(first[2])  # back to the first line, then undo twice and redo twice
    window.undo_action.trigger()
    window.undo_action.trigger()
    window.redo_action.trigger()
    window.redo_action.trigger()
    assert session.tree.current is first[2]
    assert not window.redo_action.isEnabled()
    _live_matches_tree(session)
    fresh = GameSession()
    fresh.new_game(GameSetup("1867", PLAYERS, seed=5))
    for action in session.actions():
        assert fresh.submit(action)
    assert state_digest(session.game) == state_digest(fresh.game)


def test_tree_keys_move_the_game(window: MainWindow, qtbot: QtBot) -> None:
    first, alt = _branched(window)
    dock = window.study_tree
    assert dock is not None
    session = window.session
    widget = dock.tree_widget
    widget.setFocus()
    qtbot.keyClick(widget, Qt.Key.Key_Up)  # the other branch at this point
    assert session.tree.current is first[1] and len(session.actions()) == 2
    qtbot.keyClick(widget, Qt.Key.Key_End)
    assert session.tree.current is first[2] and len(session.actions()) == 3
    qtbot.keyClick(widget, Qt.Key.Key_Home)
    assert session.actions() == []
    qtbot.keyClick(widget, Qt.Key.Key_Right)
    assert session.tree.current is first[0]
    _live_matches_tree(session)


def test_clicking_a_node_shows_that_position(window: MainWindow, qtbot: QtBot) -> None:
    first, alt = _branched(window)
    session = window.session
    dock = window.study_tree
    assert dock is not None
    bidder = str(first[0].action["entity"])  # type: ignore[index]
    alt_cash = session.game.cash[str(alt.action["entity"])]  # type: ignore[index]
    widget = dock.tree_widget
    target = dock.item_for(first[2])
    assert target is not None
    widget.scrollToItem(target)
    qtbot.mouseClick(widget.viewport(), Qt.MouseButton.LeftButton,
                     pos=widget.visualItemRect(target).center())
    assert session.tree.current is first[2]
    assert len(session.actions()) == 3
    assert [a.type for a in session.actions()] == ["bid", "pass", "pass"]
    expected = session.game_of(first[2])
    assert state_digest(session.game) == state_digest(expected)
    assert session.game.legal_actions().entity == expected.legal_actions().entity
    # the window shows it too: the players table has the position's cash
    assert [r.cells[1] for r in window.players_model.rows()] == [
        f"${session.game.cash[p.id]}" for p in session.game.players]
    back = dock.item_for(alt)
    assert back is not None
    widget.scrollToItem(back)
    qtbot.mouseClick(widget.viewport(), Qt.MouseButton.LeftButton,
                     pos=widget.visualItemRect(back).center())
    assert session.tree.current is alt
    assert session.game.cash[str(alt.action["entity"])] == alt_cash  # type: ignore[index]
    assert bidder in session.game.cash
    _live_matches_tree(session)


def test_save_and_reopen_keeps_the_tree_and_notes(window: MainWindow, tmp_path: Path) -> None:
    first, alt = _branched(window)
    session = window.session
    study = window.study
    assert study is not None
    study.set_note(first[1], "Passing here is too timid")
    study.toggle_mark(alt, Mark.GOOD)
    session.tree.set_name(alt, "raise")
    session.go_to(first[1])
    path = tmp_path / "study.d18xx"
    assert window.files.save_as(str(path))
    assert load_study(path).tree.to_data()["nodes"]  # a v2 study file
    again = GameSession()
    again.load(path)
    tree = again.tree
    assert len(tree) == len(session.tree) == 5
    assert tree.current.note == "Passing here is too timid"
    assert len(again.actions()) == 2 and again.can_redo() and again.can_undo()
    named = [n for n in tree.nodes() if n.name == "raise"]
    assert len(named) == 1 and named[0].marks == [Mark.GOOD]
    assert state_digest(again.game) == state_digest(session.game)
    _live_matches_tree(again)
    window.open_path(str(path))  # the window's docks pick the new tree up
    dock = window.study_tree
    assert dock is not None and window.study is not None
    assert window.study.tree is session.tree
    assert all(dock.item_for(n) is not None for n in session.tree.nodes())
    assert dock.selected_node() is session.tree.current


def test_compare_view_shows_differences(window: MainWindow) -> None:
    first, alt = _branched(window)
    compare = window.compare
    assert compare is not None
    window._compare_pick(0)  # the raised bid
    window.session.go_to(first[2])
    window._compare_pick(1)
    assert compare.a is alt and compare.b is first[2]
    labels = {r.label: r for r in compare.differing()}
    assert labels, "a higher bid and two passes differ"
    assert compare.table.rowCount() == len(compare.rows)


def test_export_this_line_as_a_game(window: MainWindow, tmp_path: Path) -> None:
    first, alt = _branched(window)
    out = tmp_path / "line.d18xx"
    assert window.export_line(str(out))
    plain = GameSession()
    plain.load(out)
    assert [a.type for a in plain.actions()] == ["bid", "bid"]
    assert len(plain.tree) == 3  # just this line
    assert state_digest(plain.game) == state_digest(window.session.game)


def test_study_menu_lists_the_commands(window: MainWindow) -> None:
    window._fill_study_menu()
    texts = [a.text() for a in window.study_menu.actions() if not a.isSeparator()]
    for wanted in ("Name branch…", "Note…", "Promote to main line", "Delete from here…",
                   "Mark good (!)", "Mark mistake (?)", "Mark interesting (!?)"):
        assert wanted in texts
    assert window.export_line_action in window.study_menu.actions()


SMALL = (Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
         / "1867" / "hs_ahjzadkh_19792.json")


def test_a_recorded_game_opens_as_a_study_to_branch_anywhere(window: MainWindow,
                                                           qtbot: QtBot) -> None:
    assert window.open_path(str(SMALL))
    session = window.session
    end_digest = state_digest(session.game)
    main = session.tree.main_line()
    assert len(main) == len(session.actions()) == 221
    dock = window.study_tree
    assert dock is not None and dock.tree_widget.topLevelItemCount() == 222
    session.go_to(main[2])
    assert session.submit(Pass(entity=str(session.game.legal_actions().entity)))
    alt = session.tree.current
    assert alt.parent is main[2] and not alt.is_main_line
    assert dock.item_for(alt) is not None
    dock.tree_widget.setFocus()
    qtbot.keyClick(dock.tree_widget, Qt.Key.Key_Up)  # the recorded move at this point
    qtbot.keyClick(dock.tree_widget, Qt.Key.Key_End)
    assert session.tree.current is main[-1] and len(session.actions()) == 221
    assert state_digest(session.game) == end_digest
    _live_matches_tree(session)


def test_the_shown_position_gets_its_digest_and_transpositions_are_marked(
        window: MainWindow, qtbot: QtBot) -> None:
    """A position shown for a moment gets its state digest (off the jump itself);
    a node with the same digest is then marked ≡ in the tree dock."""
    first, alt = _branched(window)
    session = window.session
    dock = window.study_tree
    assert dock is not None
    session.go_to(first[1])
    first[1].digest = None  # as for a node never computed
    session.go_to(first[2])
    session.go_to(first[1])
    assert first[1].digest is None  # not computed during the jump
    qtbot.waitUntil(lambda: first[1].digest is not None, timeout=3000)
    assert first[1].digest == state_digest(session.game)
    item = dock.item_for(first[1])
    assert item is not None and "≡" not in item.text(0)
    # another node found in the same position: both are marked
    session.tree.set_digest(alt, first[1].digest, notify=True)
    assert "≡" in item.text(0)
    alt_item = dock.item_for(alt)
    assert alt_item is not None and "≡" in alt_item.text(0)


def test_tree_dock_commands_and_keys_work_in_the_window(
        window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every key and every menu command of the tree dock, from the GUI; marks, names
    and notes show in the tree and in the log."""
    from PySide6.QtWidgets import QInputDialog

    first, alt = _branched(window)
    session = window.session
    dock = window.study_tree
    assert dock is not None
    widget = dock.tree_widget
    widget.setFocus()
    keys = [(Qt.Key.Key_Left, first[0]), (Qt.Key.Key_Right, alt),
            (Qt.Key.Key_Up, first[1]), (Qt.Key.Key_Down, alt),
            (Qt.Key.Key_Home, session.tree.root), (Qt.Key.Key_End, alt)]
    for key, expected in keys:
        qtbot.keyClick(widget, key)
        assert session.tree.current is expected, key
        assert len(session.actions()) == expected.depth
        assert dock.selected_node() is expected
    actions = {a.text(): a for a in widget.actions()}
    monkeypatch.setattr(QInputDialog, "getText",
                        staticmethod(lambda *a, **k: ("Aggressive", True)))
    monkeypatch.setattr(QInputDialog, "getMultiLineText",
                        staticmethod(lambda *a, **k: ("Bid more here", True)))
    actions["Name branch…"].trigger()
    actions["Note…"].trigger()
    actions["Mark good (!)"].trigger()
    assert (alt.name, alt.note, alt.marks) == ("Aggressive", "Bid more here", [Mark.GOOD])
    item = dock.item_for(alt)
    assert item is not None
    assert item.text(0).startswith("[Aggressive]") and "!" in item.text(0)
    assert "✎" in item.text(0) and "Note: Bid more here" in item.toolTip(0)
    # the log shows them on the line of that action
    model = window.log_model
    row = next(r for r in range(model.rowCount()) if model.entry(r).count == alt.depth)
    index = model.index(row)
    text = str(model.data(index, Qt.ItemDataRole.DisplayRole))
    assert "!" in text and "[Aggressive]" in text and "✎" in text
    assert str(model.data(index, Qt.ItemDataRole.ToolTipRole)).startswith("Bid more here")
    actions["Mark good (!)"].trigger()  # toggles off
    assert alt.marks == [] and "!" not in str(model.data(index, Qt.ItemDataRole.DisplayRole))
    # promote the variation, then delete it from the GUI
    actions["Promote to main line"].trigger()
    assert session.tree.main_line()[:2] == [first[0], alt]
    assert not dock.item_for(alt).font(0).italic()  # type: ignore[union-attr]
    from PySide6.QtWidgets import QMessageBox

    monkeypatch.setattr(QMessageBox, "question",
                        staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes))
    actions["Delete from here…"].trigger()
    assert alt not in session.tree and dock.item_for(alt) is None
    assert session.tree.current is first[0] and len(session.actions()) == 1
    assert first[2] in session.tree
    _live_matches_tree(session)
