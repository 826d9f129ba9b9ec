"""A major's turn through the widgets: a token clicked on the map, a dividend chosen.

The game is brought to a major's token step with the engine's own random
legal moves (seeded), then the window takes over.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt

from desk18xx.engine.game import GameSetup
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

PLAYERS = (("1", "Ann"), ("2", "Ben"), ("3", "Cid"))


def _advance(session: GameSession, rng: random.Random, step: str, kind: str) -> None:
    for _ in range(1500):
        legal = session.game.legal_actions()
        if legal.step == step and kind in legal.types:
            return
        assert session.submit(rng.choice(session.game.legal_moves(rng)))
    pytest.fail(f"no {step} reached")


def test_major_token_and_dividend(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=5))
    rng = random.Random(5)
    _advance(session, rng, "TokenStep", "place_token")
    window = MainWindow(session, restore_layout=False)
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    qtbot.wait_exposed(window)

    game = session.game
    corp = game.legal_actions().entity
    assert corp is not None and game.corps[corp].kind.value == "major"
    assert window.action_panel.who.text().startswith(corp)
    slots = window.map_view.token_slots()
    assert slots
    used_before = sum(1 for t in game.corps[corp].tokens if t.used)
    cash_before = game.cash[corp]
    view = window.map_view
    target = slots[0]
    view.centre_on_hex(target.hex_id)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=view.mapFromScene(target.scenePos()))
    game = session.game
    assert sum(1 for t in game.corps[corp].tokens if t.used) == used_before + 1
    assert any(t.hex == target.hex_id for t in game.corps[corp].tokens)
    assert game.cash[corp] <= cash_before
    assert window.map_view.token_slots() == []

    _advance(session, rng, "DividendStep", "dividend")
    game = session.game
    corp = game.legal_actions().entity
    assert corp is not None
    labels = window.action_panel.choice_labels()
    assert {"Pay out", "Half pay", "Withhold"} <= set(labels)
    holders = {p.id: game.cash[p.id] for p in game.players if game.percent_of(p.id, corp)}
    assert holders
    window.action_panel.button("Pay out").click()
    game = session.game
    assert all(game.cash[p] > before for p, before in holders.items())
    model = window.log_model
    rows = [model.entry(r) for r in range(model.rowCount())]
    assert "payout" in next(e for e in reversed(rows) if not e.detail).text
    assert any(e.detail and "(dividends)" in e.text for e in rows[-4:])  # who got what
