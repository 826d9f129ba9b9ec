"""pytest-qt: the study tree dock (navigation) and the compare view."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTreeWidgetItem
from pytestqt.qtbot import QtBot

from desk18xx.engine.study import Study
from desk18xx.engine.variations import Mark
from desk18xx.io.study import game_setup, study_from_export
from desk18xx.titles import new_game
from desk18xx.ui.docks.compare import DIFF_COLOR, CompareDock
from desk18xx.ui.docks.study_tree import StudyTreeDock
from desk18xx.ui.studysession import StudySession

SMALL = (Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
         / "1867" / "hs_ahjzadkh_19792.json")

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]


@pytest.fixture
def study() -> StudySession:
    header, tree = study_from_export(SMALL)
    return StudySession(Study(game_setup(header), tree, factory=new_game))


def test_the_dock_lists_the_main_line_and_its_variations(qtbot: QtBot,
                                                         study: StudySession) -> None:
    dock = StudyTreeDock(study)
    qtbot.addWidget(dock)
    widget = dock.tree_widget
    main = study.tree.main_line()
    assert widget.topLevelItemCount() == 1 + len(main) == 222
    assert dock.selected_node() is main[-1]  # the end of the imported game
    assert widget.topLevelItem(1).text(0).startswith("1. Player 1 bids $20 on C&SL")
    # a variation: passing instead of the bid at move 4
    study.go_to(main[2])
    alt = study.tree.play({"type": "pass", "entity": 6120, "entity_type": "player"})
    item = dock.item_for(alt)
    assert item is not None and item.parent() is dock.item_for(main[3])  # the move replaced
    assert widget.topLevelItemCount() == 222
    assert dock.selected_node() is alt and item.font(0).italic()


def test_keyboard_navigation(qtbot: QtBot, study: StudySession) -> None:
    dock = StudyTreeDock(study)
    qtbot.addWidget(dock)
    dock.show()
    widget = dock.tree_widget
    tree = study.tree
    main = tree.main_line()
    study.go_to(main[2])
    alt = tree.play({"type": "pass", "entity": 6120, "entity_type": "player"})
    study.go_to(main[10])
    widget.setFocus()
    qtbot.keyClick(widget, Qt.Key.Key_Left)
    assert tree.current is main[9] and dock.selected_node() is main[9]
    qtbot.keyClick(widget, Qt.Key.Key_Right)
    assert tree.current is main[10]
    study.go_to(main[3])
    qtbot.keyClick(widget, Qt.Key.Key_Down)  # the next branch at this point
    assert tree.current is alt and dock.selected_node() is alt
    qtbot.keyClick(widget, Qt.Key.Key_Down)  # there is no further one
    assert tree.current is alt
    qtbot.keyClick(widget, Qt.Key.Key_Up)
    assert tree.current is main[3]
    qtbot.keyClick(widget, Qt.Key.Key_Home)
    assert tree.current is tree.root
    qtbot.keyClick(widget, Qt.Key.Key_Right)  # redo follows the line last visited
    assert tree.current is main[0]
    qtbot.keyClick(widget, Qt.Key.Key_End)
    assert tree.current is main[-1]


def test_clicking_a_move_jumps_there(qtbot: QtBot, study: StudySession) -> None:
    dock = StudyTreeDock(study)
    qtbot.addWidget(dock)
    dock.show()
    main = study.tree.main_line()
    target = dock.item_for(main[5])
    assert target is not None
    widget = dock.tree_widget
    widget.scrollToItem(target)
    with qtbot.waitSignal(study.current_changed, timeout=2000) as signal:
        qtbot.mouseClick(widget.viewport(), Qt.MouseButton.LeftButton,
                         pos=widget.visualItemRect(target).center())
    assert signal.args == [main[5].id]
    assert study.tree.current is main[5]
    # the position of the clicked move comes from the cache
    assert study.study.game.legal_actions().entity is not None


def test_notes_marks_and_names_show_in_the_tree(qtbot: QtBot, study: StudySession) -> None:
    dock = StudyTreeDock(study)
    qtbot.addWidget(dock)
    node = study.tree.main_line()[7]
    study.toggle_mark(node, Mark.MISTAKE)
    study.toggle_mark(node, Mark.INTERESTING)
    study.set_note(node, "Too low")
    study.tree.set_name(node, "cheap")
    item = dock.item_for(node)
    assert item is not None
    assert item.text(0).startswith("[cheap] 8.") and "?!?" in item.text(0)
    assert item.text(0).endswith("✎") and "Note: Too low" in item.toolTip(0)
    assert item.font(0).bold()


def test_promote_and_delete_update_the_dock(qtbot: QtBot, study: StudySession) -> None:
    dock = StudyTreeDock(study)
    qtbot.addWidget(dock)
    main = study.tree.main_line()
    study.go_to(main[2])
    alt = study.tree.play({"type": "pass", "entity": 6120, "entity_type": "player"})
    study.promote(alt)
    assert dock.tree_widget.topLevelItemCount() == 1 + 4  # start, 3 moves, the pass
    study.delete(alt)
    assert dock.item_for(alt) is None
    assert dock.tree_widget.topLevelItemCount() == 222
    assert study.tree.current is main[2]


def test_compare_view_highlights_differences(qtbot: QtBot, study: StudySession) -> None:
    dock = CompareDock(study)
    qtbot.addWidget(dock)
    main = study.tree.main_line()
    study.go_to(main[40])
    dock.pick_a.click()
    study.go_to(main[120])
    dock.pick_b.click()
    assert dock.a is main[40] and dock.b is main[120]
    labels = [r.label for r in dock.rows]
    assert "Player 1 cash" in labels and "Player 1 certificates" in labels
    assert any(label.endswith(" trains") for label in labels)
    assert any(label.endswith(" price") for label in labels)
    table = dock.table
    assert table.rowCount() == len(dock.rows)
    cash = next(i for i, r in enumerate(dock.rows) if r.label == "Player 1 cash")
    assert dock.rows[cash].differs
    assert table.item(cash, 1).background().color() == DIFF_COLOR
    same = [i for i, r in enumerate(dock.rows) if not r.differs]
    if same:
        assert table.item(same[0], 1).background().color() != DIFF_COLOR
    dock.only_diff.setChecked(True)
    assert table.rowCount() == len(dock.differing()) < len(dock.rows) or not same
    # comparing a position with itself: nothing differs
    dock.set_nodes(main[40], main[40])
    assert dock.differing() == []


def _shape(dock: StudyTreeDock) -> list[Any]:
    """Every item as (node id, text, italic, bold, tooltip, children), in order."""

    def of(item: QTreeWidgetItem) -> list[Any]:
        font = item.font(0)
        return [int(item.data(0, Qt.ItemDataRole.UserRole)), item.text(0), font.italic(),
                font.bold(), item.toolTip(0),
                [of(item.child(i)) for i in range(item.childCount())]]

    widget = dock.tree_widget
    return [of(widget.topLevelItem(i)) for i in range(widget.topLevelItemCount())]


def test_the_dock_updated_in_place_matches_a_fresh_one(qtbot: QtBot,
                                                        study: StudySession) -> None:
    """Plays (line ends and new variations, in variations too), notes, marks, deletes
    and promotes update the dock as drawing it afresh would."""
    dock = StudyTreeDock(study)
    qtbot.addWidget(dock)
    tree = study.tree
    main = tree.main_line()
    rng = random.Random(3)
    moves = [{"type": "pass", "entity": 6120, "entity_type": "player"},
             {"type": "pass", "entity": 6121, "entity_type": "player"},
             {"type": "bid", "entity": 6120, "entity_type": "player", "price": 5}]
    made = []
    for step in range(40):
        choice = rng.random()
        if choice < 0.6:
            study.go_to(rng.choice([*main[-30:], *made]) if made else main[-5])
            node = tree.play(rng.choice(moves) | {"step": step})
            made.append(node)
        elif choice < 0.75 and made:
            study.toggle_mark(rng.choice(made), Mark.GOOD)
            study.set_note(rng.choice(made), f"note {step}")
        elif choice < 0.9 and made:
            gone = rng.choice(made)
            study.delete(gone)
            made = [n for n in made if n in tree]
        elif made:
            study.promote(rng.choice(made))
            main = tree.main_line()
        fresh = StudyTreeDock(study)
        qtbot.addWidget(fresh)
        assert _shape(dock) == _shape(fresh), step
        assert dock.selected_node() is tree.current
        fresh.deleteLater()


def test_any_two_nodes_are_compared_from_the_tree_dock(qtbot: QtBot,
                                                      study: StudySession) -> None:
    """"Compare: set as A/B" on moves picked in the tree (not the current one), and
    Ctrl-click (the current position against the clicked move), without moving."""
    tree_dock = StudyTreeDock(study)
    compare = CompareDock(study)
    qtbot.addWidget(tree_dock)
    qtbot.addWidget(compare)
    tree_dock.show()
    main = study.tree.main_line()
    study.go_to(main[2])
    alt = study.tree.play({"type": "pass", "entity": 6120, "entity_type": "player"})
    study.go_to(main[-1])
    actions = {a.text(): a for a in tree_dock.tree_widget.actions()}
    tree_dock.menu_node = main[60]  # as while its right-click menu is open
    actions["Compare: set as A"].trigger()
    tree_dock.menu_node = alt
    actions["Compare: set as B"].trigger()
    tree_dock.menu_node = None
    assert study.tree.current is main[-1]  # picking did not move
    assert (compare.a, compare.b) == (main[60], alt)
    assert "A: 61." in compare.heading.text() and "B: 4." in compare.heading.text()
    cash = {r.label: r for r in compare.rows}["Player 1 cash"]
    expected_a = study.study.game_at(main[60]).cash[study.study.setup.players[0][0]]
    assert cash.a == str(expected_a) and cash.differs
    row = compare.rows.index(cash)
    assert compare.table.item(row, 2).background().color() == DIFF_COLOR
    # Ctrl-click: the current position (A) against the clicked move (B)
    item = tree_dock.item_for(main[100])
    assert item is not None
    widget = tree_dock.tree_widget
    widget.scrollToItem(item)
    rect = widget.visualItemRect(item)
    qtbot.mouseClick(widget.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.ControlModifier, rect.center())
    assert study.tree.current is main[-1]
    assert (compare.a, compare.b) == (main[-1], main[100])
    assert compare.differing()
    # a compared position deleted: it is dropped from the comparison
    study.set_compare(1, alt)
    study.delete(alt)
    assert compare.b is None and compare.rows == []
