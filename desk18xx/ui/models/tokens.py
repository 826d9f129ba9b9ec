"""Token slots the acting company may fill, read from either engine board."""

from __future__ import annotations

from dataclasses import dataclass

from desk18xx.engine.actions import PlaceToken
from desk18xx.engine.game import Game
from desk18xx.engine.map.graph import tokenable_cities
from desk18xx.engine.offers import TokenOffer
from desk18xx.engine.tiledef import TileDef


@dataclass(frozen=True, slots=True)
class SlotChoice:
    """A free slot: where it is and what tile it is drawn on."""

    hex: str
    city: int
    slot: int
    tile: TileDef
    rotation: int


def offered_cities(game: Game, corp: str) -> list[tuple[str, int]] | None:
    """(hex, city number) of each allowed token offer of ``corp`` (`Game.offers`), or
    None where the title's offers do not decide token placements now."""
    if PlaceToken.type not in game.offered_types():
        return None
    probe = PlaceToken(entity=corp, entity_type="corporation")
    offers = game.deciding_offers(probe)
    if offers is None:
        return None
    return [(o.hex, o.index) for o in offers if isinstance(o, TokenOffer) and o.allowed]


def token_slots(game: Game, corp: str, hexes: list[str] | None) -> list[SlotChoice]:
    """The first free slot of each city ``corp`` may token (``hexes``: only these);
    the cities come from the engine's token offers where they decide."""
    board = game.board
    out: list[SlotChoice] = []
    if board is None:
        return out
    offered = offered_cities(game, corp) if hexes is None else None
    if hexes is not None:
        cities = [(h, c) for h in hexes for c in range(len(board.hex(h).tokens))]
    elif offered is not None:
        cities = offered
    else:
        cities = [(str(h), c) for h, c in tokenable_cities(board, corp)]
    for h, c in cities:
        st = board.hex(h)
        free = [i for i, t in enumerate(st.tokens[c]) if t is None]
        if free:
            out.append(SlotChoice(h, c, free[0], st.tile, st.rotation))
    return out


def city_id(game: Game, hex_id: str, city: int) -> str:
    """The id a ``place_token`` action names the city by."""
    return game.city_id(hex_id, city)
