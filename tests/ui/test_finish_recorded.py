"""A recorded game loaded near its end and finished through the window.

The last actions of an 18xx.games fixture are played by clicking: the turn
panel's buttons (passes, dividends), the map and the tile tray (tile lays),
and the stops of each train's route on the map (runs).  The final result
must be the recorded one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPointF, Qt

from desk18xx.engine.actions import (
    Action,
    Dividend,
    Merge,
    Pass,
    RunRoutes,
    action_from_dict,
)
from desk18xx.engine.map import hexgrid
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"


def _truncated(src: Path, keep_last: int, out: Path) -> tuple[list[dict[str, Any]],
                                                                 dict[str, int]]:
    """Write ``src`` without its last ``keep_last`` game actions; return those and the
    recorded result."""
    data = json.loads(src.read_text())
    actions = data["actions"]
    game_idx = [i for i, a in enumerate(actions) if a["type"] != "message"]
    cut = game_idx[-keep_last]
    result = {str(k): int(v) for k, v in data["result"].items()}
    data["actions"] = actions[:cut]
    data.pop("result", None)
    data["status"] = "active"
    out.write_text(json.dumps(data))
    return [a for a in actions[cut:] if a["type"] != "message"], result


def _window(show_window, path: Path) -> MainWindow:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.load(path)
    return show_window(session)  # type: ignore[no-any-return]


def _click_choice(window: MainWindow, wanted: Action) -> None:
    """Click the turn-panel button whose action is ``wanted`` (a pass or a dividend)."""
    panel = window.action_panel
    for label in panel.choice_labels():
        made = panel.choice(label).make(None)  # what the button submits
        same = (isinstance(made, Pass) and isinstance(wanted, Pass)) or (
            isinstance(made, Dividend) and isinstance(wanted, Dividend)
            and made.kind == wanted.kind)
        if same and made.entity == wanted.entity:
            assert panel.is_open(label)
            panel.button(label).click()
            return
    pytest.fail(f"no button for {wanted} in {panel.choice_labels()}")


def _click_hex(window: MainWindow, qtbot, hex_id: str) -> None:  # type: ignore[no-untyped-def]
    view = window.map_view
    view.centre_on_hex(hex_id)
    x, y = hexgrid.center(hexgrid.parse_hex(hex_id), view.hex_size())
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=view.mapFromScene(QPointF(x, y)))


def _stops(connections: list[list[str]]) -> list[str]:
    """The stops of a route in running order, from its hex chains."""
    first = list(connections[0])
    if len(connections) > 1 and first[-1] not in (connections[1][0], connections[1][-1]):
        first.reverse()
    stops = [first[0], first[-1]]
    for chain in connections[1:]:
        stops.append(chain[-1] if chain[0] == stops[-1] else chain[0])
    return stops


def _lay_tile(window: MainWindow, qtbot, raw: dict[str, Any]) -> None:  # type: ignore[no-untyped-def]
    controller = window.controller
    _click_hex(window, qtbot, raw["hex"])
    assert controller.selected_hex == raw["hex"]
    name = raw["tile"].rsplit("-", 1)[0]
    tray = window.action_panel.tray
    item = next(tray.item(i) for i in range(tray.count())
                if tray.tile_names()[i] == name)
    tray.itemClicked.emit(item)  # a click on the tile in the tray
    assert controller.selected_tile == name
    for _ in range(6):
        if controller.rotation == raw["rotation"]:
            break
        window.action_panel.rotate_button.click()
    assert controller.rotation == raw["rotation"]
    window.action_panel.confirm_button.click()


def _run(window: MainWindow, qtbot, raw: dict[str, Any]) -> None:  # type: ignore[no-untyped-def]
    controller = window.controller
    trains = [r.train for r in controller.routes]
    expected = 0
    for route in raw["routes"]:
        controller.train_combo.setCurrentIndex(trains.index(route["train"]))
        for hex_id in _stops(route["connections"]):
            _click_hex(window, qtbot, hex_id)
        expected += int(route.get("revenue") or 0)
    if expected:
        assert f"Revenue ${expected}" in controller.route_label.text()
    controller.run_button.click()


def _finish(window: MainWindow, qtbot, tail: list[dict[str, Any]]) -> None:  # type: ignore[no-untyped-def]
    rejected: list[str] = []
    window.session.action_rejected.connect(rejected.append)
    for raw in tail:
        before = len(window.session.actions())
        kind = raw["type"]
        if kind == "lay_tile":
            _lay_tile(window, qtbot, raw)
        elif kind == "run_routes":
            _run(window, qtbot, raw)
        elif kind in ("pass", "dividend"):
            _click_choice(window, action_from_dict(raw))
        else:
            pytest.fail(f"no gesture for {kind}")
        assert not rejected, rejected
        assert len(window.session.actions()) == before + 1, raw
        for auto in raw.get("auto_actions") or ():
            legal = window.session.game.legal_actions()
            if legal.entity == auto["entity"] and auto["type"] in legal.types:
                _click_choice(window, action_from_dict(auto))


CASES = [("1867/21268.json", 13), ("1822CA/1822CA_game_end_bank.json", 14)]


@pytest.mark.parametrize(("fixture", "keep_last"), CASES)
def test_finish_a_recorded_game(qtbot, show_window, tmp_path: Path, fixture: str,  # type: ignore[no-untyped-def]
                                keep_last: int) -> None:
    tail, result = _truncated(FIXTURES / fixture, keep_last, tmp_path / "near_end.json")
    window = _window(show_window, tmp_path / "near_end.json")
    assert not window.session.game.finished
    _finish(window, qtbot, tail)
    game = window.session.game
    assert game.finished
    assert {str(k): v for k, v in game.result().items()} == result
    assert "wins" in window.action_panel.step.text()
    standings = window.action_panel.hint.text().splitlines()  # the ranking, for the table
    assert len(standings) == len(game.players) and standings[0].startswith("1. ")


def test_edit_a_route_by_clicking_stops(qtbot, show_window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """PGE's last run of the 1822CA fixture, built, shortened and extended on the map."""
    tail, _result = _truncated(FIXTURES / "1822CA/1822CA_game_end_bank.json", 4,
                               tmp_path / "run.json")
    assert tail[0]["type"] == "run_routes"
    window = _window(show_window, tmp_path / "run.json")
    controller = window.controller
    assert controller.routes and controller.train_combo.count() == len(controller.routes)
    recorded = _stops(tail[0]["routes"][0]["connections"])
    route = controller.routes[0]
    for hex_id in recorded[:3]:
        _click_hex(window, qtbot, hex_id)
    assert route.stops == recorded[:3] and len(route.chains) == 2
    three = controller.route_label.text()
    assert "Revenue $" in three
    _click_hex(window, qtbot, recorded[1])  # a middle stop: the route now ends there
    assert route.stops == recorded[:2] and len(route.chains) == 1
    _click_hex(window, qtbot, recorded[0])  # the first stop: dropped
    assert route.stops == recorded[1:2] and not route.chains
    assert "No route yet" in controller.route_label.text()
    for hex_id in recorded[2:]:  # extended stop by stop to the recorded end
        _click_hex(window, qtbot, hex_id)
    assert route.stops == recorded[1:]
    shorter = controller.route_label.text()
    controller.clear_button.click()
    for hex_id in recorded:
        _click_hex(window, qtbot, hex_id)
    assert f"Revenue ${tail[0]['routes'][0]['revenue']}" in controller.route_label.text()
    assert shorter != controller.route_label.text()
    # a run without a PGE token: the engine's objection is shown, in red
    controller.clear_button.click()
    assert not route.stops
    _click_hex(window, qtbot, recorded[-2])
    _click_hex(window, qtbot, recorded[-1])
    assert "Not a legal run" in controller.route_label.text()
    assert "token" in controller.route_label.text()


def _cut_before(src: Path, index: int, out: Path) -> dict[str, Any]:
    """Write ``src`` up to (not including) action ``index``; return that action."""
    data = json.loads(src.read_text())
    action: dict[str, Any] = data["actions"][index]
    data["actions"] = data["actions"][:index]
    data.pop("result", None)
    data["status"] = "active"
    out.write_text(json.dumps(data))
    return action


def test_a_local_run_is_one_clicked_stop(qtbot, show_window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """1822CA minor 28 runs its L-train in D14 alone (connections ``[["local", "D14"]]``)."""
    src = FIXTURES / "1822CA/1822CA_game_end_bank.json"
    data = json.loads(src.read_text())
    index = next(i for i, a in enumerate(data["actions"]) if a["type"] == "run_routes"
                 and a["routes"][0]["connections"][0][0] == "local")
    recorded = _cut_before(src, index, tmp_path / "local.json")
    window = _window(show_window, tmp_path / "local.json")
    hex_id = recorded["routes"][0]["connections"][0][1]
    _click_hex(window, qtbot, hex_id)
    route = window.controller.routes[0]
    assert route.stops == [hex_id] and route.local and route.built
    assert f"Revenue ${recorded['routes'][0]['revenue']}" in window.controller.route_label.text()
    assert len(window.map_view.routes()) == 1
    window.controller.run_button.click()
    assert window.session.game.legal_actions().step != "RouteStep"
    run = next(a for a in reversed(window.session.actions()) if a.type == "run_routes")
    assert isinstance(run, RunRoutes) and run.entity == recorded["entity"]
    assert [tuple(c) for c in run.routes[0].connections] == [("local", hex_id)]
    assert run.routes[0].revenue == recorded["routes"][0]["revenue"]


def test_a_minor_acquisition_reads_as_one(qtbot, show_window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """1822CA: GWR may acquire minor 6; the button says so (not "merges with 6")."""
    src = FIXTURES / "1822CA/1.json"
    count = len(json.loads(src.read_text())["actions"]) // 2
    _cut_before(src, count, tmp_path / "acquire.json")
    window = _window(show_window, tmp_path / "acquire.json")
    labels = window.action_panel.choice_labels()
    acquire = [lab for lab in labels if lab.startswith("Acquire Minor ")]
    assert acquire and not any("merges" in lab for lab in labels)
    before = len(window.session.actions())
    window.action_panel.button(acquire[0]).click()
    assert len(window.session.actions()) == before + 1
    made = window.session.actions()[-1]
    assert isinstance(made, Merge)
    assert acquire[0].startswith(f"Acquire Minor {made.corporation} ")
