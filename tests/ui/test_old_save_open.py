"""A rules change that makes an old save's action illegal: the app opens the save
at the last legal action, says which action and why, and continues from there as a
new line; the file is never changed (issue: saves readable by every later version)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from desk18xx.engine.actions import LayTile
from desk18xx.engine.errors import IllegalAction
from desk18xx.io.replaying import IllegalSaveError, open_save
from desk18xx.titles.g1867.steps import track
from desk18xx.ui.session import GameSession

OLD = (Path(__file__).resolve().parents[1] / "io" / "old_saves" / "0.1.0"
       / "1867-small-midgame.d18xx")
REASON = "a changed rule: no track in Toronto's K13 (test)"

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]


@pytest.fixture
def changed_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """A later version refuses every tile on K13 (the save lays one at action 101)."""
    original = track.Track.process

    def process(self: track.Track, game: Any, action: Any) -> None:
        if isinstance(action, LayTile) and action.hex == "K13":
            raise IllegalAction(REASON)
        original(self, game, action)

    monkeypatch.setattr(track.Track, "process", process)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_save_stops_at_the_refused_action(changed_rule: None) -> None:
    with pytest.raises(IllegalSaveError) as caught:
        open_save(OLD)
    assert "lay_tile by CV" in str(caught.value) and REASON in str(caught.value)
    opened = open_save(OLD, partial=True)
    failure = opened.replayed.failure
    assert failure is not None and failure.type == "lay_tile" and REASON in failure.reason
    assert not opened.complete and not opened.digest_checked
    assert opened.saved.actions[failure.index]["hex"] == "K13"


def test_the_app_continues_from_the_last_legal_action(
        changed_rule: None, qtbot: Any, show_window: Any, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    before = _digest(OLD)
    asked: list[str] = []

    def question(*args: Any, **_kw: Any) -> QMessageBox.StandardButton:
        asked.append(str(args[2]))
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    session = GameSession()
    win = show_window(session)
    assert win.open_path(str(OLD))
    assert asked and "lay_tile by CV" in asked[0] and REASON in asked[0]
    assert "not changed" in asked[0]
    failure = open_save(OLD, partial=True).replayed.failure
    assert failure is not None
    assert len(session.line.raw) == failure.index  # the game up to the refused action
    assert session.source is None  # a plain Save cannot overwrite the old file
    game = session.game
    entity = game.legal_actions().entity
    assert entity == "CV"  # CV's turn again: it may lay elsewhere now
    assert _digest(OLD) == before


def test_cancel_leaves_the_game_on_screen(
        changed_rule: None, qtbot: Any, show_window: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(QMessageBox, "question", staticmethod(
        lambda *a, **k: QMessageBox.StandardButton.Cancel))
    session = GameSession()
    win = show_window(session)
    from desk18xx.engine.game import GameSetup

    session.new_game(GameSetup("1867", (("1", "A"), ("2", "B"), ("3", "C")), seed=3))
    game = session.game
    assert not win.open_path(str(OLD))
    assert session.game is game
