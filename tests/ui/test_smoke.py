"""Whole games through the window: every state the engine reaches must display."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from desk18xx.engine.actions import action_from_dict
from desk18xx.engine.game import GameSetup
from desk18xx.io.import_18xxgames import load_export
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.session import IMPORT_OPTIONS, GameSession

pytestmark = [pytest.mark.gui, pytest.mark.slow, pytest.mark.qt_log_ignore("propagateSizeHints")]

FIXTURES = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "18xx.games"


def _window(qtbot, session: GameSession, tmp_path: Path) -> MainWindow:  # type: ignore[no-untyped-def]
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    win = MainWindow(session, restore_layout=False)
    qtbot.addWidget(win)
    win.show()
    return win


@pytest.mark.parametrize("title", ["1867", "1822CA"])
def test_random_moves_display(qtbot, tmp_path: Path, title: str) -> None:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.new_game(GameSetup(title, (("1", "Ann"), ("2", "Ben"), ("3", "Cid")), seed=9))
    window = _window(qtbot, session, tmp_path)
    rng = random.Random(4)
    applied = 0
    for _ in range(250):
        moves = session.game.legal_moves(rng)
        if not moves or session.game.finished:
            break
        if session.submit(rng.choice(moves)):
            applied += 1
        assert window.action_panel.who.text()
    assert applied > 50
    kinds = {k.kind for k in session.rounds()}
    assert "operating" in kinds


def test_a_recorded_game_displays_at_every_action(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    imported = load_export(FIXTURES / "1867" / "hs_ahjzadkh_19792.json")
    session = GameSession()
    session.new_game(GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                               imported.seed, tuple(imported.optional_rules) + IMPORT_OPTIONS))
    window = _window(qtbot, session, tmp_path)
    for raw in imported.actions:
        if not session.submit(action_from_dict(raw)):
            break
    assert len(session.actions()) > 100
    assert window.log_model.rowCount() > len(session.actions())
