"""pytest-qt: study mode's off-turn sandbox in the main window."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from desk18xx.engine.digest import state_digest
from desk18xx.engine.game import Game, GameSetup
from desk18xx.engine.sandbox import RouteSummary, SandboxTrial, best_routes_of, lay_offers
from desk18xx.ui.docks import sandbox as sandbox_dock
from desk18xx.ui.docks.sandbox import SANDBOX_COLOR, SandboxDock, running_companies
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.session import GameSession

GAME = (Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
        / "1867" / "21268.json")

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints", "raise")]


@pytest.fixture
def window(show_window) -> MainWindow:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.load(GAME)
    win: MainWindow = show_window(session)
    return win


def _open(window: MainWindow, corp: str) -> SandboxDock:
    dock = window.sandbox
    assert dock is not None
    dock.mode_action.trigger()  # Study > Sandbox (Ctrl+T)
    assert dock.active and dock.isVisible()
    dock.company.setCurrentIndex(dock.company.findData(corp))
    assert dock.corp == corp
    return dock


def _try(qtbot: QtBot, dock: SandboxDock) -> SandboxTrial:
    """Try the previewed lay; the trial once its routes came from the worker."""
    with qtbot.waitSignal(dock.trial_ready, timeout=60000) as got:
        assert dock.try_lay()
        assert dock.pending is not None and dock.trial is None  # searching meanwhile
    trial = got.args[0]
    assert isinstance(trial, SandboxTrial) and dock.trial is trial and dock.pending is None
    return trial


def _lay(dock: SandboxDock, hex_id: str, tile: str, rotation: int) -> None:
    dock.view.hex_clicked.emit(hex_id)  # a click on the map
    assert dock.selected_hex == hex_id
    dock.choose_tile(tile)
    for _ in range(6):
        lay = dock.pending_lay()
        if lay is not None and lay.rotation == rotation:
            return
        dock.view.rotate_requested.emit(1)  # as the map's rotate key
    raise AssertionError(f"rotation {rotation} of {tile} not offered on {hex_id}")


def test_a_tile_tried_for_a_company_off_turn_shows_its_routes_then_is_discarded(
        window: MainWindow, qtbot: QtBot) -> None:
    session = window.session
    main = session.tree.main_line()
    session.go_to(main[300])
    game = session.game
    assert game.legal_actions().entity != "PM"  # not PM's turn
    digest, size, raw = state_digest(game), len(session.tree), len(session.line.raw)
    dock = _open(window, "PM")
    expected = sorted(o.hex for o in lay_offers(game, "PM"))
    assert expected and window.map_view.highlighted() == expected
    assert "M11" in expected
    before = best_routes_of(game, "PM").revenue
    qtbot.waitUntil(lambda: f"${before}" in dock.result.text(), timeout=60000)
    # the map's own controller ignores clicks meanwhile: nothing is submitted
    _lay(dock, "M11", "8", 5)
    assert window.map_view.previewing
    trial = _try(qtbot, dock)
    assert trial.before.revenue == before
    assert trial.after.revenue == best_routes_of(trial.game, "PM").revenue
    assert trial.gain > 0 and f"{trial.gain:+d}" in dock.result.text()
    assert not trial.on_turn and not dock.keep_button.isEnabled()
    assert window.map_view.routes()  # the best routes after the lay are drawn
    assert window.map_view.highlighted() == ["M11"]
    assert session.game is game and state_digest(session.game) == digest
    assert len(session.tree) == size and len(session.line.raw) == raw
    dock.discard_button.click()
    assert dock.trial is None and window.map_view.highlighted() == expected
    dock.mode_action.trigger()  # off: the live board and its own overlays again
    live = window.controller.track
    assert not dock.active
    assert window.map_view.highlighted() == (live.hexes() if live is not None else [])
    assert len(session.tree) == size and state_digest(session.game) == digest


def test_a_tile_tried_on_the_companys_own_turn_can_be_kept_as_a_branch(
        window: MainWindow, qtbot: QtBot) -> None:
    session = window.session
    main = session.tree.main_line()
    index = next(i for i in range(300, len(main)) if main[i].type == "lay_tile"
                 and (main[i].action or {}).get("entity_type") == "corporation")
    recorded = main[index].action or {}
    corp, hex_id = str(recorded["entity"]), str(recorded["hex"])
    session.go_to(main[index - 1])
    dock = _open(window, corp)
    _lay(dock, hex_id, str(recorded["tile"]).rpartition("-")[0], int(recorded["rotation"]))
    trial = _try(qtbot, dock)
    assert trial.on_turn and dock.keep_button.isEnabled()
    dock.keep_button.click()
    assert not dock.active
    assert len(session.actions()) == index + 1
    last = session.actions()[-1]
    assert last.type == "lay_tile" and last.entity == corp
    assert session.tree.current.parent is main[index - 1]
    board = session.game.board
    assert board is not None and board.hex(hex_id).tile.name == \
        str(recorded["tile"]).rpartition("-")[0]


def test_moving_in_the_study_starts_the_sandbox_again(window: MainWindow, qtbot: QtBot) -> None:
    session = window.session
    main = session.tree.main_line()
    session.go_to(main[300])
    dock = _open(window, "PM")
    _lay(dock, "M11", "8", 5)
    _try(qtbot, dock)
    session.go_to(main[250])
    assert dock.active and dock.trial is None and dock.corp == "PM"
    assert window.map_view.highlighted() == sorted(o.hex for o in lay_offers(session.game, "PM"))
    assert dock.base is not None and state_digest(dock.base) == state_digest(session.game)
    assert SANDBOX_COLOR.startswith("#")


class _SlowSearch:
    """A stand-in for the route optimizer: notes its thread, reports $70 so far, then
    waits for ``release`` or a cancel; the n-th call earns $100 + n."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.threads: list[threading.Thread] = []

    def __call__(self, game: Game, corp: str, *, cancel: Callable[[], bool] | None = None,
                 progress: Callable[[float, int], None] | None = None) -> RouteSummary:
        n = len(self.threads)
        self.threads.append(threading.current_thread())
        if progress is not None:
            progress(0.5, 70)
        deadline = time.monotonic() + 20
        while not self.release.is_set() and not (cancel is not None and cancel()) \
                and time.monotonic() < deadline:
            time.sleep(0.005)
        return RouteSummary(100 + n, complete=self.release.is_set())


@pytest.fixture
def slow(monkeypatch: pytest.MonkeyPatch) -> Iterator[_SlowSearch]:
    search = _SlowSearch()
    monkeypatch.setattr(sandbox_dock, "best_routes_of", search)
    yield search
    search.release.set()


def test_the_routes_are_searched_off_the_gui_thread_and_cancel_keeps_the_best_so_far(
        window: MainWindow, qtbot: QtBot, slow: _SlowSearch) -> None:
    session = window.session
    session.go_to(session.tree.main_line()[300])
    dock = _open(window, "PM")  # returns at once: the search runs in the worker
    assert dock.runner.running and "finding the best routes" in dock.result.text()
    assert not dock.search_bar.isHidden()
    qtbot.waitUntil(lambda: "$70 so far" in dock.search_bar.label.text(), timeout=10000)
    slow.release.set()
    qtbot.waitUntil(lambda: dock.before("PM") is not None, timeout=10000)
    before = dock.before("PM")
    assert before is not None and before.revenue == 100 + len(slow.threads) - 1  # the last call
    assert f"PM now: ${before.revenue} " in dock.result.text()
    assert dock.search_bar.isHidden() and not dock.runner.running
    slow.release.clear()
    _lay(dock, "M11", "8", 5)
    with qtbot.waitSignal(dock.trial_ready, timeout=10000) as got:
        assert dock.try_lay()
        assert dock.pending is not None and not dock.try_button.isEnabled()
        qtbot.waitUntil(lambda: "$70 so far" in dock.search_bar.label.text(), timeout=10000)
        dock.search_bar.cancel_button.click()  # the best routes found so far
    trial: SandboxTrial = got.args[0]
    assert trial.before == before and trial.after.revenue == before.revenue + 1  # one search
    assert not trial.after.complete and "(search stopped early)" in dock.result.text()
    assert "+1" in dock.result.text()
    assert all(t is not threading.main_thread() for t in slow.threads)


def test_a_search_for_a_position_or_trial_left_meanwhile_is_dropped(
        window: MainWindow, qtbot: QtBot, slow: _SlowSearch) -> None:
    session = window.session
    main = session.tree.main_line()
    session.go_to(main[300])
    dock = _open(window, "PM")
    assert dock.runner.running
    qtbot.waitUntil(lambda: "$70 so far" in dock.search_bar.label.text(), timeout=10000)
    at_300 = len(slow.threads)  # PM's search at 300 is the last call so far
    trials: list[object] = []
    dock.trial_ready.connect(trials.append)
    with qtbot.waitSignal(dock.runner.dropped, timeout=10000):
        session.go_to(main[250])  # the search for position 300 is stale now
    slow.release.set()
    qtbot.waitUntil(lambda: dock.before("PM") is not None, timeout=10000)
    assert dock.before("PM") == RouteSummary(100 + len(slow.threads) - 1)  # 250's search
    assert dock.before("PM") != RouteSummary(100 + at_300 - 1)  # not 300's answer
    slow.release.clear()
    track = dock.track
    assert track is not None
    hex_id = track.hexes()[0]
    name, rotations = sorted(track.legal(hex_id).items())[0]
    _lay(dock, hex_id, name, rotations[0])
    with qtbot.waitSignal(dock.runner.dropped, timeout=10000):
        assert dock.try_lay()
        dock.discard_button.click()  # dropped before its routes came
    assert trials == [] and dock.trial is None and dock.pending is None


def test_a_tile_is_laid_in_the_sandbox_in_1822ca_where_the_outlines_say(
        qtbot: QtBot, tmp_path: Path) -> None:
    """1822CA: the sandbox outlines where the chosen company may lay (the title's
    sandbox offers), and a tile laid there is tried."""
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    session = GameSession()
    session.load(GAME.parents[1] / "1822CA" / "1.json")
    win = MainWindow(session, restore_layout=False)
    qtbot.addWidget(win)
    win.show()
    main = session.tree.main_line()
    session.go_to(main[len(main) // 2])
    game = session.game
    corp = next(c for c in running_companies(game) if lay_offers(game, c))
    dock = _open(win, corp)
    offers = lay_offers(game, corp)
    expected = sorted(o.hex for o in offers)
    assert expected and win.map_view.highlighted() == expected
    offer = offers[0]
    name, rotations = offer.tiles[0]
    _lay(dock, offer.hex, name, rotations[0])
    assert sorted(f.name for f in win.map_view.fan()) == sorted(dict(offer.tiles))
    trial = _try(qtbot, dock)
    assert trial.lay.hex == offer.hex and trial.game.board is not None
    assert state_digest(session.game) == state_digest(game)  # the study is untouched


def test_a_refused_sandbox_drop_names_the_rule(window: MainWindow) -> None:
    session = window.session
    main = session.tree.main_line()
    session.go_to(main[300])
    dock = _open(window, "PM")
    offers = lay_offers(session.game, "PM")
    hex_id = offers[0].hex
    track = dock.track
    assert track is not None
    wrong = next(c.name for c in track.tray(hex_id) if not c.rotations and c.left > 0)
    dock.drop_tile(hex_id, wrong)
    assert dock.hint.text().startswith(f"Tile {wrong} cannot be laid on {hex_id} by PM: ")
    assert dock.hint.text() != f"Tile {wrong} cannot be laid on {hex_id} by PM: ."


def test_the_sandbox_is_a_mode_ended_by_a_move_and_gone_in_a_new_game(
        window: MainWindow, qtbot: QtBot) -> None:
    """Issue 18 item 4: acting ends the sandbox and gives the map and the turn panel
    back; a new game takes its tab away; the company list reads full names."""
    session = window.session
    main = session.tree.main_line()
    session.go_to(main[300])
    dock = _open(window, "PM")
    game = session.game
    labels = [dock.company.itemText(i) for i in range(dock.company.count())]
    assert all(" — " in text and text.split(" — ")[0] != text.split(" — ")[1]
               for text in labels), labels
    assert f"PM — {game.corps['PM'].name}" in labels
    legal = game.legal_actions()
    move = next(m for m in game.legal_moves(random.Random(1)) if m.entity == legal.entity)
    assert session.submit(move)
    assert not dock.active and not dock.isVisible()
    live = window.controller.track
    assert window.map_view.highlighted() == (live.hexes() if live is not None else [])
    assert not window.map_view.fan()
    dock.mode_action.trigger()
    assert dock.active and dock.isVisible()
    session.new_game(GameSetup("1867", (("1", "Ann"), ("2", "Bob"), ("3", "Cy")), 5))
    assert not dock.active and not dock.isVisible()


def test_routes_found_while_the_sandbox_is_open_are_shown_when_it_closes(
        window: MainWindow, qtbot: QtBot) -> None:
    """Issue 18: "Best routes" asked just before the sandbox opened was left on
    "Finding the best routes…"; its answer is shown once the live board is back."""
    session = window.session
    main = session.tree.main_line()
    index = next(i for i in range(300, len(main)) if main[i].type == "run_routes")
    session.go_to(main[index - 1])
    controller = window.controller
    assert controller.routes and not any(r.stops for r in controller.routes)
    said: list[str] = []
    controller.status.connect(said.append)
    with qtbot.waitSignal(controller.search.stopped, timeout=60000):
        controller.find_best()
        dock = _open(window, running_companies(session.game)[0])
    assert not any(r.stops for r in controller.routes)  # not drawn under the sandbox
    dock.mode_action.trigger()  # off
    assert not dock.active
    assert any(r.stops for r in controller.routes)
    assert said[-1].startswith("Best routes: ")
    assert window.map_view.routes()
