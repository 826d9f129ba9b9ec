"""1822CA mail contracts in the run panel and the status line: revenue, subsidy, sum."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from desk18xx.commands.replay import import_setup
from desk18xx.engine.actions import action_from_dict
from desk18xx.engine.optimizer import best_routes
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title
from desk18xx.titles.g1822ca import rules as R
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.mapview.controller import MapController
from desk18xx.ui.models.routes import earnings
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

GAME = (Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
        / "1822CA" / "1822CA_game_end_bank.json")
MAIL = R.PRIVATE_MAIL_CONTRACTS | R.PRIVATE_SMALL_MAIL_CONTRACTS


def _at_a_mail_run(out: Path) -> str:
    """Write the fixture up to its first run by a major holding a mail contract; the
    runner."""
    imported = load_export(GAME)
    game = find_title(imported.title).new_game(import_setup(imported))
    for raw in imported.actions:
        if raw["type"] == "run_routes" and raw.get("routes") and int(game.phase.name) >= 3 \
                and MAIL & set(game.corps[raw["entity"]].companies) \
                and best_routes(game, raw["entity"]).subsidy:  # (no small mail before 3)
            data: dict[str, Any] = json.loads(GAME.read_text())
            cut = next(i for i, a in enumerate(data["actions"]) if a["id"] == raw["id"])
            data["actions"] = data["actions"][:cut]
            data.pop("result", None)
            data["status"] = "active"
            out.write_text(json.dumps(data))
            return str(raw["entity"])
        game.process(action_from_dict(raw))
    raise AssertionError("no run with a mail contract in the fixture")


def test_the_run_panel_and_the_status_line_show_the_mail_subsidy(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(MapController, "auto_propose", True)
    corp = _at_a_mail_run(tmp_path / "run.json")
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    session = GameSession()
    session.load(tmp_path / "run.json")
    expected = best_routes(session.game, corp)
    assert expected.subsidy > 0
    win = MainWindow(session, restore_layout=False)
    qtbot.addWidget(win)
    controller = win.controller
    messages: list[str] = []
    controller.status.connect(messages.append)
    qtbot.waitUntil(lambda: any(r.chains for r in controller.routes), timeout=30000)
    total = expected.revenue + expected.subsidy
    split = f"${expected.revenue} + ${expected.subsidy} mail = ${total}"
    assert earnings(expected.revenue, expected.subsidy) == split
    assert f"Revenue {split}" in controller.route_label.text()
    assert any(m.startswith(f"Best routes: {split}") for m in messages)
    # a run without its mail: the plain revenue only
    assert earnings(expected.revenue, 0) == f"${expected.revenue}"
