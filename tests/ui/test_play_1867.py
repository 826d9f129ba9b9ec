"""The opening of 1867 played through the widgets and the map.

Auction through the turn panel, a minor started in the stock round and its
home token clicked on the map, a tile dragged from the tray and turned with
the wheel, a train bought, and a run built by clicking stops; the engine's
state is checked after each step.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QByteArray, QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QDropEvent, QWheelEvent

from desk18xx.engine.game import GameSetup
from desk18xx.engine.map import hexgrid
from desk18xx.engine.map.tiles import geometry
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.mapview.view import TILE_MIME
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

PLAYERS = (("1", "Alice"), ("2", "Bob"), ("3", "Carol"), ("4", "Dave"))
HOME = "O7"
"""A city next to the Maritime off-board (P8): one tile makes a run."""
OFFBOARD = "P8"


@pytest.fixture
def window(show_window) -> MainWindow:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=1867))
    return show_window(session)  # type: ignore[no-any-return]


def _click(window: MainWindow, prefix: str) -> None:
    labels = [lab for lab in window.action_panel.choice_labels() if lab.startswith(prefix)]
    assert labels, f"no choice {prefix!r} in {window.action_panel.choice_labels()}"
    window.action_panel.button(labels[0]).click()


def _scene_point(window: MainWindow, hex_id: str) -> QPoint:
    view = window.map_view
    x, y = hexgrid.center(hexgrid.parse_hex(hex_id), view.hex_size())
    view.centre_on_hex(hex_id)
    return view.mapFromScene(QPointF(x, y))


def _click_hex(window: MainWindow, qtbot, hex_id: str) -> None:  # type: ignore[no-untyped-def]
    pos = _scene_point(window, hex_id)
    qtbot.mouseClick(window.map_view.viewport(), Qt.MouseButton.LeftButton, pos=pos)


def _exit_towards(hex_id: str, other: str) -> int:
    edge = hexgrid.edge_between(hexgrid.parse_hex(hex_id), hexgrid.parse_hex(other))
    assert edge is not None
    return edge


def test_opening_of_1867(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    session = window.session
    game = session.game
    rejected: list[str] = []
    session.action_rejected.connect(rejected.append)

    # -- private auction: every fourth decision is a minimum bid, the rest pass
    start_cash = dict(game.cash)
    for k in range(80):
        if session.game.round_kind() is None or session.game.round_kind().value != "auction":
            break
        labels = window.action_panel.choice_labels()
        if k % 4 == 0 and any(lab.startswith("Bid on") for lab in labels):
            _click(window, "Bid on")
        else:
            _click(window, "Pass")
    game = session.game
    assert game.round_kind().value == "stock"
    assert all(c.owner is not None for c in game.companies.values())
    assert sum(game.cash[p.id] for p in game.players) < sum(start_cash[p.id]
                                                            for p in game.players)
    assert window.action_panel.who.text().endswith("to act")

    # -- stock round: the priority player auctions a minor; everyone else passes
    starter = game.legal_actions().entity
    assert starter is not None
    _click(window, "Auction")
    game = session.game
    assert game.legal_actions().step == "HomeToken"
    minor = game.legal_actions().entity
    assert minor is not None and minor in game.corps
    assert window.action_panel.who.text().startswith(minor)
    assert HOME in game.legal_actions().details["hexes"]  # type: ignore[operator]
    slots = [s for s in window.map_view.token_slots() if s.hex_id == HOME]
    assert slots
    view = window.map_view
    view.centre_on_hex(HOME)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=view.mapFromScene(slots[0].scenePos()))
    game = session.game
    assert game.corps[minor].tokens[0].hex == HOME
    for _ in range(10):
        if game.legal_actions().step != "BuySellParShares" or game.owner(minor):
            break
        _click(window, "Pass")
        game = session.game
    assert game.owner(minor) == starter
    for _ in range(10):
        if game.round_kind().value != "stock":
            break
        _click(window, "Pass")
        game = session.game
    assert game.round_kind().value == "operating"
    assert game.legal_actions().entity == minor

    # -- operating round 1.1: drag a tile onto the home, turn it with the wheel, Enter
    track = window.controller.track
    assert track is not None and HOME in track.hexes()
    assert HOME in view.highlighted()
    want = _exit_towards(HOME, OFFBOARD)

    choice = None
    for name, rotations in track.legal(HOME).items():
        tile = game.board.manifest[name].tile
        for rot in rotations:
            if want in geometry(tile, rot).exits:
                choice = (name, rotations, rot)
                break
        if choice:
            break
    assert choice is not None
    name, rotations, target = choice
    assert name in window.action_panel.tray.tile_names()
    data = QMimeData()
    data.setData(TILE_MIME, QByteArray(name.encode()))
    pos = _scene_point(window, HOME)
    view.dropEvent(QDropEvent(QPointF(pos), Qt.DropAction.CopyAction, data,
                              Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))
    assert view.previewing
    assert window.controller.legal_rotations == rotations
    seen = [window.controller.rotation]
    while window.controller.rotation != target:
        wheel = QWheelEvent(QPointF(pos), view.viewport().mapToGlobal(QPointF(pos)), QPoint(),
                            QPoint(0, -120), Qt.MouseButton.NoButton,
                            Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase,
                            False)
        view.wheelEvent(wheel)
        seen.append(window.controller.rotation)
        assert len(seen) <= len(rotations) + 1
    assert all(r in rotations for r in seen)
    cash_before = game.cash[minor]
    cost = track.cost(HOME, name, target)
    assert (f"(${cost})" in window.action_panel.confirm_button.text()) == (cost > 0)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    game = session.game
    placed = game.board.hex(HOME)
    assert placed.tile.name == name and placed.rotation == target
    assert game.cash[minor] == cash_before - track.cost(HOME, name, target)  # first lay
    if game.legal_actions().step == "Track":
        _click(window, "Done laying track")

    # -- buy a train
    game = session.game
    assert game.legal_actions().step == "BuyTrainStep"
    _click(window, "Buy a 2")
    game = session.game
    assert [game.trains[t].name for t in game.corps[minor].trains] == ["2"]
    if game.legal_actions().step == "BuyTrainStep":
        _click(window, "Done buying trains")

    # -- operating round 1.2: no track, then run home -> off-board by clicking stops
    game = session.game
    assert game.legal_actions().entity == minor, rejected
    if game.legal_actions().step == "Track":
        _click(window, "Done laying track")
    game = session.game
    assert game.legal_actions().step == "RouteStep"
    _click_hex(window, qtbot, HOME)
    _click_hex(window, qtbot, OFFBOARD)
    routes = window.controller.routes
    assert routes[0].stops == [HOME, OFFBOARD]
    assert "Revenue $" in window.controller.route_label.text()
    shown = int(window.controller.route_label.text().rpartition("Revenue $")[2])
    with qtbot.waitSignal(window.controller.search.proposal_ready, timeout=20000):
        window.controller.best_button.click()  # the search runs in a worker thread
    assert window.controller.routes[0].stops in ([HOME, OFFBOARD], [OFFBOARD, HOME])
    assert window.controller.route_label.text().endswith(f"Revenue ${shown}")
    owner = game.owner(minor)
    assert owner is not None
    owner_cash, minor_cash = game.cash[owner], game.cash[minor]
    window.controller.run_button.click()
    game = session.game
    assert not rejected, rejected
    earned = game.cash[minor] - minor_cash
    assert earned > 0
    assert game.cash[owner] - owner_cash == earned  # minors always split the revenue
    assert 2 * earned == shown
    model = window.log_model
    rows = [model.entry(r) for r in range(model.rowCount())]
    last = next(e for e in reversed(rows) if not e.detail).text
    assert "runs" in last or "passes" in last or "buys" in last
    told = [e.text for e in rows if e.detail and e.count == rows[-1].count]
    assert any("share price rises" in t for t in told)  # the consequence, under its action

    # -- undo the run with Ctrl+Z, redo it with Ctrl+Shift+Z
    window.undo_action.trigger()
    assert session.game.cash[owner] == owner_cash
    window.redo_action.trigger()
    assert session.game.cash[owner] == owner_cash + earned


def test_clicking_the_previewed_hex_turns_the_tile(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Click a highlighted hex to preview, click again to cycle legal rotations only."""
    session = window.session
    # reach the first operating round quickly with the engine's own moves
    import random

    rng = random.Random(2)
    for _ in range(200):
        info = window.controller.track
        if info is not None and info.hexes():
            break
        session.submit(rng.choice(session.game.legal_moves(rng)))
    track = window.controller.track
    assert track is not None
    hex_id = next(h for h in track.hexes() if any(len(r) > 1 for r in track.legal(h).values()))
    _click_hex(window, qtbot, hex_id)
    assert window.map_view.previewing
    tile = window.controller.selected_tile
    if len(window.controller.legal_rotations) < 2:
        name = next(n for n, r in track.legal(hex_id).items() if len(r) > 1)
        window.controller.choose_tile(name)
        tile = name
    rotations = window.controller.legal_rotations
    seen = []
    for _ in range(len(rotations)):
        seen.append(window.controller.rotation)
        _click_hex(window, qtbot, hex_id)
    assert sorted(seen) == sorted(rotations)
    assert window.controller.rotation == rotations[0]
    qtbot.keyClick(window.map_view, Qt.Key.Key_Escape)
    assert not window.map_view.previewing
    assert session.game.board.hex(hex_id).tile.name != tile
