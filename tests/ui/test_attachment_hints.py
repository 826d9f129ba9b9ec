"""The choices' "best run with this choice" hints are searched off the GUI thread.

An action that offers 1822CA's grain train (the bank fixture's GTP at live action
453) shows its buttons at once; the hints come when the worker's search is done,
the same as the search on the GUI thread finds, and a search of a position left
meanwhile is dropped.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.models.routes import search_attachment_runs
from desk18xx.ui.routeworker import AttachmentHints, install_attachment_hints
from desk18xx.ui.session import GameSession
from tests.ui.test_attach_choice import FULL, LIVE_ID, _cut_before_id

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

ATTACH = "Attach the grain train to the 2P-train"


def _window(show_window, tmp_path: Path) -> tuple[MainWindow, AttachmentHints]:  # type: ignore[no-untyped-def]
    _cut_before_id(FULL, LIVE_ID, tmp_path / "attach.json")
    session = GameSession()
    session.load(tmp_path / "attach.json")
    window = show_window(session)
    return window, install_attachment_hints(session, window)


def test_hints_come_from_the_worker(qtbot, show_window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window, hints = _window(show_window, tmp_path)
    session = window.session
    session.undo()
    session.redo()  # the attachment position again, as a new game object
    panel = window.action_panel
    assert ATTACH in panel.choice_labels()
    assert panel.choice(ATTACH).hint == ""  # not searched on the GUI thread
    assert hints.running
    qtbot.waitUntil(lambda: bool(panel.choice(ATTACH).hint), timeout=30000)
    expected = search_attachment_runs(session.game, "GTP", budget=60.0)
    value, complete = expected["0"]
    hint = panel.choice(ATTACH).hint
    assert hint.startswith("best run with this choice: $") and complete
    assert f"${value}" in hint
    assert hint in panel.button(ATTACH).toolTip()
    assert not hints.running


def test_a_search_of_a_position_left_is_dropped(qtbot, show_window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window, hints = _window(show_window, tmp_path)
    session = window.session
    session.undo()
    session.redo()
    assert hints.running
    found: list[bool] = []
    hints.ready.connect(lambda: found.append(True))
    session.undo()  # before the worker answers: its answer is not for this position
    assert not hints.running
    qtbot.wait(1500)
    assert found == []
    assert ATTACH not in window.action_panel.choice_labels()
