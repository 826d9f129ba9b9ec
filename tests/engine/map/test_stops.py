"""The route builder's track questions (``engine/map/stops.py``) on recorded games.

At every ``run_routes`` of a recorded 1867 and a recorded 1822CA game, each
recorded connection (the hexes between two consecutive stops, as 18xx.games
stores them) joins two stops, and the chain search finds track between them that
is no longer than the recorded one, starts and ends at the two stops and steps
from hex to neighbouring hex.  A hexside marked used is not left by.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from desk18xx.commands.replay import import_setup
from desk18xx.engine.actions import RunRoutes, action_from_dict
from desk18xx.engine.map.board import Board
from desk18xx.engine.map.hexgrid import edge_between, parse_hex
from desk18xx.engine.map.stops import find_chain, is_stop, stop_node
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title

FIXTURES = Path(__file__).resolve().parents[3].parent / "shared" / "fixtures" / "18xx.games"


def _connections(path: Path) -> int:
    """Check every recorded connection between two stops on the board it was run on
    (before the run changes anything); returns how many were checked."""
    imported = load_export(path)
    game = find_title(imported.title).new_game(import_setup(imported))
    checked = 0
    for raw in imported.actions:
        action = action_from_dict(raw)
        if isinstance(action, RunRoutes):
            for route in action.routes:
                for conn in route.connections:
                    if len(conn) >= 2 and conn[0] != "local":
                        assert game.board is not None
                        _check(game.board, tuple(conn))
                        checked += 1
        game.process(action)
    return checked


def _check(board: Board, conn: tuple[str, ...]) -> None:
    a, b = conn[0], conn[-1]
    assert is_stop(board, a) and is_stop(board, b), conn
    found = find_chain(board, a, b)
    assert found is not None, f"no track found for the recorded {conn}"
    assert found[0] == a and found[-1] == b
    assert len(found) <= len(conn), (found, conn)
    for here, there in zip(found, found[1:], strict=False):
        assert edge_between(parse_hex(here), parse_hex(there)) is not None
    assert stop_node(board, a, found[1]) is not None


@pytest.mark.parametrize("fixture", ["1867/21268.json", "1822CA/1.json"])
def test_every_recorded_connection_has_track_the_search_finds(fixture: str) -> None:
    assert _connections(FIXTURES / fixture) > 50


def test_a_used_hexside_is_not_left_by() -> None:
    imported = load_export(FIXTURES / "1867/21268.json")
    game = find_title(imported.title).new_game(import_setup(imported))
    for raw in imported.actions:
        game.process(action_from_dict(raw))
    board = game.board
    assert board is not None
    pairs = []
    for raw in reversed(imported.actions):
        if raw.get("type") == "run_routes":
            pairs = [tuple(c) for r in raw["routes"] for c in r["connections"]
                     if len(c) >= 2 and c[0] != "local"]
            break
    a, b = pairs[0][0], pairs[0][-1]
    first = find_chain(board, a, b)
    assert first is not None
    side = edge_between(parse_hex(first[0]), parse_hex(first[1]))
    assert side is not None
    again = find_chain(board, a, b, {(a, side)})
    assert again is None or again[1] != first[1]
    # every hexside of the stop used: no chain at all
    assert find_chain(board, a, b, {(a, e) for e in range(6)}) is None
    assert not is_stop(board, "ZZ99")
