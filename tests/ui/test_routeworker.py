"""The route optimizer in a worker thread: proposals, cancel, stale answers, the map."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QObject, QSettings, Signal

from desk18xx.commands.replay import import_setup
from desk18xx.engine.actions import RunRoutes, action_from_dict
from desk18xx.engine.game import Game
from desk18xx.engine.optimizer import best_routes
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.mapview.controller import MapController
from desk18xx.ui.models.routes import TrainRoute
from desk18xx.ui.routeworker import Proposal, RouteSearch, RouteSearchBar
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
SMALL = FIXTURES / "1867" / "hs_ahjzadkh_19792.json"


class FakeSession(QObject):
    """The two signals and the game a RouteSearch reads."""

    state_changed = Signal(int)
    game_replaced = Signal()

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game


def _position(path: Path, nth: int) -> tuple[Game, str]:
    """The game just before the ``nth`` run with routes in ``path``, and the runner."""
    imported = load_export(path)
    game = find_title(imported.title).new_game(import_setup(imported))
    seen = 0
    for raw in imported.actions:
        action = action_from_dict(raw)
        if isinstance(action, RunRoutes) and action.routes:
            if seen == nth:
                return game, action.entity
            seen += 1
        game.process(action)
    raise AssertionError("not that many runs")


def _blocking_search(release: threading.Event, calls: list[str]
                     ) -> Callable[..., tuple[list[TrainRoute], int, bool]]:
    """A stand-in search: reports $70 so far, then waits for ``release`` or a cancel."""
    def search(game: Game, corp: str, cancel: Callable[[], bool],
               progress: Callable[[float, int], None]) -> tuple[list[TrainRoute], int, bool]:
        calls.append(corp)
        progress(0.5, 70)
        deadline = time.monotonic() + 20
        while not release.is_set() and not cancel() and time.monotonic() < deadline:
            time.sleep(0.005)
        route = TrainRoute("2-0", "2", 2, ["A1", "A3"], [("A1", "A3")])
        return [route], 70, release.is_set()
    return search


def test_worker_delivers_the_optimizers_proposal(qtbot) -> None:  # type: ignore[no-untyped-def]
    game, corp = _position(SMALL, 10)
    session = FakeSession(game)
    search = RouteSearch(session)
    percents: list[int] = []
    search.progress.connect(lambda p, _r: percents.append(p))
    with qtbot.waitSignal(search.proposal_ready, timeout=20000) as got:
        search.start(corp)
        assert search.running
    proposal: Proposal = got.args[0]
    expected = best_routes(game, corp)
    assert proposal.corp == corp and proposal.complete and not proposal.auto
    assert proposal.revenue == expected.revenue > 0
    assert {r.train: [list(c) for c in r.chains] for r in proposal.routes if r.chains} == {
        r.train: [list(c) for c in r.connections] for r in expected.routes}
    assert not search.running
    assert percents and percents[-1] == 100


def test_cancel_hands_back_the_best_so_far(qtbot) -> None:  # type: ignore[no-untyped-def]
    game, corp = _position(SMALL, 0)
    release = threading.Event()
    calls: list[str] = []
    search = RouteSearch(FakeSession(game), search=_blocking_search(release, calls))
    bar = RouteSearchBar(search)
    qtbot.addWidget(bar)
    with qtbot.waitSignal(search.progress, timeout=10000):
        search.start(corp)
    assert not bar.isHidden() and "$70 so far" in bar.label.text()
    with qtbot.waitSignal(search.proposal_ready, timeout=10000) as got:
        bar.cancel_button.click()
    proposal: Proposal = got.args[0]
    assert calls == [corp]
    assert not proposal.complete and proposal.revenue == 70
    assert proposal.routes[0].stops == ["A1", "A3"]
    assert bar.isHidden() and not search.running


def test_an_answer_for_an_older_position_is_dropped(qtbot) -> None:  # type: ignore[no-untyped-def]
    game, corp = _position(SMALL, 0)
    release = threading.Event()
    session = FakeSession(game)
    search = RouteSearch(session, search=_blocking_search(release, []))
    proposals: list[Proposal] = []
    search.proposal_ready.connect(proposals.append)
    with qtbot.waitSignal(search.progress, timeout=10000):
        search.start(corp)
    with qtbot.waitSignal(search.dropped, timeout=10000):
        session.state_changed.emit(99)  # an action was taken meanwhile
        release.set()
    assert proposals == [] and not search.running
    # a new search for the new position still delivers
    with qtbot.waitSignal(search.proposal_ready, timeout=10000) as got:
        search.start(corp)
    assert got.args[0].complete


def _truncated_at_run(src: Path, out: Path) -> dict[str, Any]:
    """Write ``src`` up to (not including) its last run with routes; return that run."""
    data = json.loads(src.read_text())
    actions = data["actions"]
    last = max(i for i, a in enumerate(actions) if a["type"] == "run_routes" and a["routes"])
    data["actions"] = actions[:last]
    data.pop("result", None)
    data["status"] = "active"
    out.write_text(json.dumps(data))
    return dict(actions[last])


def test_the_map_proposes_the_best_routes_when_a_run_begins(
        qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(MapController, "auto_propose", True)
    run = _truncated_at_run(SMALL, tmp_path / "run.json")
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    session = GameSession()
    session.load(tmp_path / "run.json")
    expected = best_routes(session.game, run["entity"])
    win = MainWindow(session, restore_layout=False)
    qtbot.addWidget(win)
    controller = win.controller
    qtbot.waitUntil(lambda: any(r.chains for r in controller.routes), timeout=20000)
    assert f"Revenue ${expected.revenue}" in controller.route_label.text()
    assert [r.train for r in controller.routes if r.chains] == [r.train for r in expected.routes]
    # the player's edits are never overwritten by an automatic proposal
    controller.show_proposal(Proposal(run["entity"], [], 0, True, auto=True))
    assert any(r.chains for r in controller.routes)
