"""The Variations tree reads top-down in move order: a branch is indented under the
move it replaces, Up/Down move the highlight the way they point, the moves read as
in the log and the whole line with its note is on hover."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTreeWidgetItem, QTreeWidgetItemIterator
from pytestqt.qtbot import QtBot

from desk18xx.engine.study import Study
from desk18xx.io.study import game_setup, study_from_export
from desk18xx.titles import new_game
from desk18xx.ui.docks.study_tree import StudyTreeDock
from desk18xx.ui.studysession import StudySession

SMALL = (Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
         / "1867" / "hs_ahjzadkh_19792.json")

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]


@pytest.fixture
def study() -> StudySession:
    header, tree = study_from_export(SMALL)
    return StudySession(Study(game_setup(header), tree, factory=new_game))


def _rows(dock: StudyTreeDock) -> list[QTreeWidgetItem]:
    """Items in the order they are drawn, top to bottom (all expanded)."""
    dock.tree_widget.expandAll()
    out = []
    it = QTreeWidgetItemIterator(dock.tree_widget)
    while it.value() is not None:
        out.append(it.value())
        it += 1
    return out


def _y(dock: StudyTreeDock, item: QTreeWidgetItem | None) -> int:
    assert item is not None
    return dock.tree_widget.visualItemRect(item).top()


def test_a_branch_follows_the_move_it_replaces(qtbot: QtBot, study: StudySession) -> None:
    dock = StudyTreeDock(study)
    qtbot.addWidget(dock)
    dock.resize(400, 600)
    dock.show()
    main = study.tree.main_line()
    study.go_to(main[2])  # after move 3, instead of move 4 (a bid): a pass, then one more
    alt = study.tree.play({"type": "pass", "entity": 6120, "entity_type": "player"})
    after = alt.children[0] if alt.children else study.tree.play(
        {"type": "pass", "entity": 6121, "entity_type": "player"})
    rows = _rows(dock)
    nodes = [dock.node_of(item) for item in rows]
    # top-down: moves 1..4 of the main line, then the branch replacing move 4, then move 5
    i = nodes.index(main[3])
    assert nodes[:i + 1] == [study.tree.root, *main[:4]]
    assert nodes[i + 1] is alt
    assert nodes[i + 2] is after if after is not None else True
    assert main[4] in nodes[i + 2:i + 4]
    depths = [n.depth for n in nodes if n.is_main_line]
    assert depths == sorted(depths)  # the main line in move order
    alt_item = dock.item_for(alt)
    assert alt_item is not None and alt_item.parent() is dock.item_for(main[3])
    assert _y(dock, dock.item_for(main[3])) < _y(dock, alt_item) < _y(dock, dock.item_for(main[4]))
    assert alt_item.text(0).startswith("4. ") and "passes" in alt_item.text(0)


def test_up_and_down_move_the_way_they_point(qtbot: QtBot, study: StudySession) -> None:
    dock = StudyTreeDock(study)
    qtbot.addWidget(dock)
    dock.resize(400, 600)
    dock.show()
    widget = dock.tree_widget
    main = study.tree.main_line()
    study.go_to(main[2])
    alt = study.tree.play({"type": "pass", "entity": 6120, "entity_type": "player"})
    study.go_to(main[3])
    widget.setFocus()
    y0 = _y(dock, widget.currentItem())
    qtbot.keyClick(widget, Qt.Key.Key_Down)
    assert study.tree.current is alt and _y(dock, widget.currentItem()) > y0
    y1 = _y(dock, widget.currentItem())
    qtbot.keyClick(widget, Qt.Key.Key_Up)
    assert study.tree.current is main[3] and _y(dock, widget.currentItem()) < y1


def test_moves_read_as_in_the_log_with_the_whole_line_on_hover(
        qtbot: QtBot, study: StudySession) -> None:
    dock = StudyTreeDock(study)
    qtbot.addWidget(dock)
    main = study.tree.main_line()
    item = dock.item_for(main[0])
    assert item is not None
    assert item.text(0) == "1. Player 1 bids $20 on C&SL"  # not "bid C&SL 20"
    tiles = [n for n in main if n.type == "lay_tile"]
    assert tiles
    text = dock.item_for(tiles[0]).text(0)  # type: ignore[union-attr]
    assert " lays tile " in text and "-0" not in text.split(" lays tile ")[1].split()[0]
    study.tree.set_name(main[5], "Opening")
    study.set_note(main[5], "Cheap enough")
    tip = dock.item_for(main[5]).toolTip(0)  # type: ignore[union-attr]
    assert "Branch: Opening" in tip and "Note: Cheap enough" in tip
    assert dock.item_for(main[5]).text(0).split("] ", 1)[1].rstrip(" ✎") in tip  # type: ignore[union-attr]
