"""Tile lays on the map read the engine's offers (issue 18 item 3): the legal tiles
open as a fan around the hex, a refused drop names the rule, Enter lays the
previewed tile wherever the focus is, and a click on a city closed to a token
says why.  Played on 21268.json (1867), at the recorded lays."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desk18xx.engine.actions import LayTile
from desk18xx.engine.offers import TileLayOffer, tile_name
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.mapview.overlays import hex_centre
from desk18xx.ui.models.tokens import city_id
from desk18xx.ui.models.tracks import hex_offer_of
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


def _before(window: MainWindow, kind: str, hex_id: str | None = None) -> dict[str, object]:
    """Go to the position before the first recorded ``kind`` action (on ``hex_id``);
    that action."""
    session = window.session
    main = session.tree.main_line()
    index = next(i for i, n in enumerate(main) if i > 0 and n.type == kind
                 and (hex_id is None or (n.action or {}).get("hex") == hex_id))
    session.go_to(main[index - 1])
    recorded = main[index].action
    assert recorded is not None
    return dict(recorded)


def _statuses(window: MainWindow) -> list[str]:
    said: list[str] = []
    window.controller.status.connect(said.append)
    return said


def test_a_refused_drop_names_the_rule(window: MainWindow) -> None:
    _before(window, "lay_tile", "J12")
    track = window.controller.track
    assert track is not None and "J12" in track.hexes()
    said = _statuses(window)
    window.controller.drop_tile("J12", "5")  # a plain city tile on Ottawa
    assert said, "the drop is answered"
    assert said[-1].startswith("Tile 5 cannot be laid on J12: Ottawa (J12) takes only its "
                               "Y tiles: ")
    assert "202" in said[-1] and "(the card, OR Lay track)" not in said[-1][:20]
    assert not window.map_view.previewing
    reason = next(c.reason for c in track.tray("J12") if c.name == "5")
    assert "takes only its Y tiles" in reason  # the tray greys it with the same rule


def test_the_legal_tiles_open_as_a_fan_around_the_hex(window: MainWindow,
                                                      qtbot: QtBot) -> None:
    recorded = _before(window, "lay_tile", "J12")
    controller, view = window.controller, window.map_view
    track = controller.track
    assert track is not None
    controller.click_hex("J12")
    fan = view.fan()
    legal = track.legal("J12")
    assert sorted(f.name for f in fan) == sorted(legal) and tile_name(
        str(recorded["tile"])) in legal
    # every tile of the fan lies around the hex, none on it
    size = view.hex_size()
    centre = hex_centre("J12", size)
    for item in fan:
        d = item.pos() - centre
        assert (d.x() ** 2 + d.y() ** 2) ** 0.5 > size
    # a click on a tile of the fan chooses it (as in the tray)
    view.centerOn(fan[-1])
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=view.mapFromScene(fan[-1].scenePos()))
    assert controller.selected_tile == fan[-1].name and view.previewing
    controller.cancel()
    assert not view.fan() and not view.previewing


def test_enter_lays_the_previewed_tile_with_the_focus_in_the_tray(window: MainWindow,
                                                                   qtbot: QtBot) -> None:
    recorded = _before(window, "lay_tile", "J12")
    controller, session = window.controller, window.session
    controller.click_hex("J12")
    controller.choose_tile(tile_name(str(recorded["tile"])))
    for _ in range(6):
        if controller.rotation == recorded["rotation"]:
            break
        controller.rotate(1)
    assert controller.rotation == recorded["rotation"]
    tray = window.action_panel.tray
    window.activateWindow()
    tray.setFocus()
    qtbot.waitUntil(lambda: window.focusWidget() is tray, timeout=3000)
    count = len(session.actions())
    qtbot.keyClick(tray, Qt.Key.Key_Return)
    assert len(session.actions()) == count + 1
    laid = session.actions()[-1]
    assert isinstance(laid, LayTile) and laid.hex == "J12"
    assert tile_name(laid.tile) == tile_name(str(recorded["tile"]))


def test_a_click_on_a_city_closed_to_a_token_says_why(window: MainWindow) -> None:
    recorded = _before(window, "place_token")
    game = window.session.game
    corp = str(recorded["entity"])
    ringed = {s.hex_id for s in window.map_view.token_slots()}
    assert ringed, "the token step rings the cities open to it"
    board = game.board
    assert board is not None
    closed = next(h for h in sorted(board.hex_ids()) if h not in ringed
                  and board.hex(h).geo.city_nodes and city_id(game, h, 0))
    said = _statuses(window)
    window.controller.click_hex(closed)
    assert said and said[-1].startswith(f"{corp} cannot place a token on {closed}: ")
    assert len(said[-1]) > len(f"{corp} cannot place a token on {closed}: ") + 5


def test_the_track_options_read_the_engine_offers(window: MainWindow) -> None:
    """What the map outlines is what the engine offers, hex by hex and tile by tile."""
    _before(window, "lay_tile", "J12")
    game, track = window.session.game, window.controller.track
    assert track is not None
    entity = game.legal_actions().entity
    assert entity is not None
    offers = [o for o in game.offers(entity, (LayTile.type,)) if isinstance(o, TileLayOffer)]
    assert track.hexes() == sorted(o.hex for o in offers if o.allowed and o.tiles)
    for offer in offers:
        assert track.legal(offer.hex) == dict(offer.tiles)
        # the question about one hex (a click, a drop) gets the same whole offer
        asked = hex_offer_of(game, entity, offer.hex)
        assert asked is not None and asked.tiles == offer.tiles, offer.hex
