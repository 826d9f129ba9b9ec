"""1822CA: the Pullman and the grain train are attached from the turn panel.

The bank fixture's GTP attaches its grain train to the 2P-train at live action 453
(``choose "0"``).  The button names the train, a click attaches it, the route
builder lists only the trains that run, and the recorded run is then paid as
recorded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from desk18xx.engine.actions import Choose
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
FULL = FIXTURES / "1822CA" / "1822CA_game_end_bank.json"
LIVE_ID = 513
"""Action id of live action 453, GTP's ``choose "0"``."""


def _cut_before_id(src: Path, action_id: int, out: Path) -> dict[str, Any]:
    """Write ``src`` up to (not including) the action with ``action_id``; return it."""
    data = json.loads(src.read_text())
    index = next(i for i, a in enumerate(data["actions"]) if a.get("id") == action_id)
    action: dict[str, Any] = data["actions"][index]
    data["actions"] = data["actions"][:index]
    data.pop("result", None)
    data["status"] = "active"
    out.write_text(json.dumps(data))
    return action


def _window(show_window, path: Path) -> MainWindow:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.load(path)
    return show_window(session)  # type: ignore[no-any-return]


def test_attach_the_grain_train_by_its_button(qtbot, show_window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    recorded = _cut_before_id(FULL, LIVE_ID, tmp_path / "attach.json")
    assert recorded["type"] == "choose" and recorded["choice"] == "0"
    window = _window(show_window, tmp_path / "attach.json")
    game = window.session.game
    legal = game.legal_actions()
    assert legal.entity == "GTP" and legal.step == "RouteStep"
    labels = window.action_panel.choice_labels()
    assert "Attach the grain train to the 2P-train" in labels
    assert "Run without the grain train" in labels
    assert not any(lab in ("0", "None") for lab in labels)  # no bare indices
    hint = window.action_panel.choice("Attach the grain train to the 2P-train").hint
    assert hint.startswith("best run with this choice: $")
    # the route builder offers the trains that run, not the grain train
    assert [r.name for r in window.controller.routes] == ["2P"]

    before = len(window.session.actions())
    window.action_panel.button("Attach the grain train to the 2P-train").click()
    assert len(window.session.actions()) == before + 1
    made = window.session.actions()[-1]
    assert isinstance(made, Choose) and made.entity == "GTP" and made.choice == "0"
    game = window.session.game
    attached = getattr(game, "train_with_grain", None)
    assert attached is not None and game.trains[attached].name == "2P"
    # nothing left to attach: the buttons are gone, the run is still to do
    labels = window.action_panel.choice_labels()
    assert not any(lab.startswith(("Attach ", "Run without ")) for lab in labels)
    assert game.legal_actions().step == "RouteStep"


def test_the_proposal_waits_for_the_attachment_and_uses_it(  # type: ignore[no-untyped-def]
        qtbot, show_window, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No route is proposed while the grain train may still be attached; once it is,
    the proposal runs the 2P with it and shows what the engine pays for that run."""
    from desk18xx.engine.optimizer import best_routes, engine_revenues
    from desk18xx.ui.mapview.controller import MapController

    monkeypatch.setattr(MapController, "auto_propose", True)
    _cut_before_id(FULL, LIVE_ID, tmp_path / "attach.json")
    window = _window(show_window, tmp_path / "attach.json")
    controller = window.controller
    qtbot.wait(200)
    assert not any(r.chains for r in controller.routes)  # still attaching

    window.action_panel.button("Attach the grain train to the 2P-train").click()
    qtbot.waitUntil(lambda: any(r.chains for r in controller.routes), timeout=20000)
    game = window.session.game
    expected = best_routes(game, "GTP")
    assert engine_revenues(game, "GTP", list(expected.routes)) == [
        r.revenue for r in expected.routes]
    assert f"Revenue ${expected.revenue}" in controller.route_label.text()


def test_each_pullman_choice_shows_its_best_run() -> None:
    """ERS GT (2P, 5 and the Pullman, live action 681): the best run with each choice,
    as the optimizer finds it once that choice is made."""
    from desk18xx.engine.actions import action_from_dict
    from desk18xx.engine.game import GameSetup
    from desk18xx.engine.optimizer import best_routes
    from desk18xx.io.import_18xxgames import load_export
    from desk18xx.titles.g1822ca.game import G1822CA
    from desk18xx.ui.models.routes import attachment_runs

    imported = load_export(FIXTURES / "1822CAERS" / "1822CAERS_game_end_bank.json")
    game = G1822CA(GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                             imported.seed, ("compat_18xxgames",)))
    game.loading = True
    for raw in imported.actions[:681]:
        game.process(action_from_dict(raw))
    game.loading = False
    runs = attachment_runs(game, "GT", budget=60.0)
    assert set(runs) == {"None", "0", "1"}
    for choice, (value, complete) in runs.items():
        after = game.copy()
        after.process(Choose(entity="GT", entity_type="corporation", choice=choice))
        best = best_routes(after, "GT")
        assert complete and value == best.revenue + best.subsidy
    assert runs["None"][0] < runs["1"][0]  # the Pullman earns on the 5-train
