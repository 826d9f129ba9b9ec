"""Token slots the acting company may fill, read from either engine board."""

from __future__ import annotations

from dataclasses import dataclass

from desk18xx.engine.game import Game
from desk18xx.engine.map import board as mboard
from desk18xx.engine.map.graph import tokenable_cities
from desk18xx.engine.tiledef import TileDef


@dataclass(frozen=True, slots=True)
class SlotChoice:
    """A free slot: where it is and what tile it is drawn on."""

    hex: str
    city: int
    slot: int
    tile: TileDef
    rotation: int


def token_slots(game: Game, corp: str, hexes: list[str] | None) -> list[SlotChoice]:
    """The first free slot of each city ``corp`` may token (``hexes``: only these)."""
    board: object = game.board
    out: list[SlotChoice] = []
    if isinstance(board, mboard.Board):
        if hexes is not None:
            cities = [(h, c) for h in hexes for c in range(len(board.hex(h).tokens))]
        else:
            cities = [(str(h), c) for h, c in tokenable_cities(board, corp)]
        for h, c in cities:
            st = board.hex(h)
            free = [i for i, t in enumerate(st.tokens[c]) if t is None]
            if free:
                out.append(SlotChoice(h, c, free[0], st.tile, st.rotation))
        return out
    lite = game.board
    assert lite is not None
    if hexes is not None:
        lite_cities = [(h, c) for h in hexes for c in range(len(lite.tokens[h]))]
    else:
        nodes, _edges = lite.reach(corp)
        lite_cities = []
        for h, node in sorted(nodes):
            placed = lite.placed[h]
            if node in placed.city_nodes and not lite.hex_has_token_of(h, corp):
                lite_cities.append((h, placed.city_nodes.index(node)))
    for h, c in lite_cities:
        placed = lite.placed[h]
        free = [i for i, t in enumerate(lite.tokens[h][c]) if t is None]
        if free:
            out.append(SlotChoice(h, c, free[0], placed.tile, placed.rotation))
    return out


def city_id(game: Game, hex_id: str, city: int) -> str:
    """The id a ``place_token`` action names the city by."""
    board: object = game.board
    if isinstance(board, mboard.Board):
        return board.city_id(hex_id, city)
    lite = game.board
    assert lite is not None
    return f"{lite.placed[hex_id].tile_id}-{city}"
