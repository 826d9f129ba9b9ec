"""Major homes: "unconnected" cities as 18xx.games tests them (g_1867 ``unconnected_hexes``).

A major's home is any city without a normal token, and an unconnected one when
there is any: the reference walks track from each path of the city's tile
(``Part::Path#walk``): no path twice, no hexside twice, until a path with a node.
Our walk used to turn back through a converging exit over the hexside it left by,
into the same city, and called the city connected (issue 16).
"""

from __future__ import annotations

from desk18xx.engine.game import GameSetup
from desk18xx.engine.map.board import Board
from desk18xx.titles.g1867 import board as B
from desk18xx.titles.g1867.game import G1867


def _game() -> G1867:
    players = tuple((str(i), f"P{i}") for i in (1, 2, 3))
    return G1867(GameSetup("1867", players, 1, ()))


def _lay(board: Board, hex_id: str, name: str, rotation: int) -> None:
    tile_id = B.free_copy(board, name)
    assert tile_id is not None
    B.lay(board, hex_id, tile_id, rotation)


def _loop_at_sudbury(board: Board) -> None:
    """Sudbury (D8) on a #57 out to C7, where #23 forks to B6 and C5, which a
    sharp curve each join: D8 → C7 → B6 → C5 → C7 → back over the C7/D8 side."""
    _lay(board, "D8", "57", 2)
    _lay(board, "C7", "23", 5)
    _lay(board, "B6", "7", 4)
    _lay(board, "C5", "7", 0)


def test_a_loop_back_over_the_same_hexside_is_no_stop() -> None:
    game = _game()
    board = game.board
    assert board is not None
    _loop_at_sudbury(board)
    assert not B.node_connected_elsewhere(board, "D8")


def test_track_into_another_city_is_a_stop() -> None:
    game = _game()
    board = game.board
    assert board is not None
    _lay(board, "D8", "57", 2)
    assert not B.node_connected_elsewhere(board, "D8")
    _lay(board, "C7", "57", 2)  # a city on C7, its path facing D8's
    assert B.node_connected_elsewhere(board, "D8")


def test_a_loop_into_another_exit_of_the_city_is_a_stop() -> None:
    """The reference counts any other path with a node, the same city's too: back into
    Sudbury by its other exit (D8 → C7 → C5 → D6 → D8) connects it."""
    game = _game()
    board = game.board
    assert board is not None
    _lay(board, "D8", "5", 2)  # #5: city exits 0 and 1, turned: 2 (C7) and 3 (D6)
    assert not B.node_connected_elsewhere(board, "D8")
    _lay(board, "C7", "7", 4)  # C7: from D8's side (5) to D6's (4)
    assert not B.node_connected_elsewhere(board, "D8")
    _lay(board, "D6", "7", 0)  # D6: from C7's side (1) to D8's (0)
    assert B.node_connected_elsewhere(board, "D8")


def test_a_major_is_offered_the_city_on_the_loop() -> None:
    game = _game()
    board = game.board
    assert board is not None
    _loop_at_sudbury(board)
    major = next(c for c in game.corps if not game.is_minor(c) and c != "CN")
    homes = game.home_token_locations(major)
    assert "D8" in homes
