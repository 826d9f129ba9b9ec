"""Where the operating company may lay track, and with which tiles and rotations.

Reads the engine's board and asks the pure tile-lay rules of
:mod:`desk18xx.engine.map.upgrades` (which work on
:class:`desk18xx.engine.map.board.Board`).  The engine still checks every
lay when it is submitted; this module only decides what to offer.
"""

from __future__ import annotations

from dataclasses import dataclass

from desk18xx.engine.game import Game
from desk18xx.engine.map import board as mboard
from desk18xx.engine.map import hexgrid, upgrades
from desk18xx.engine.tiledef import Color, TileDef

#: 1867's differences from the generic lay rules (see :class:`upgrades.TrackRules`).
RULES_1867 = upgrades.TrackRules(max_exits="cities", border_costs="both_sides")


@dataclass(frozen=True, slots=True)
class TileChoice:
    """A tile of the supply for the hex being built on."""

    name: str
    tile: TileDef
    rotations: tuple[int, ...]
    """Legal rotations (empty: not usable here)."""
    left: int
    """Copies left in the supply."""
    reason: str = ""
    """Why it cannot be laid here (when ``rotations`` is empty)."""


def _mirror(game: Game) -> mboard.Board:
    """A :class:`mboard.Board` showing the tiles of the game's board."""
    board = game.board
    assert board is not None
    out = mboard.Board(board.hexdefs, board.manifest)
    for hex_id, placed in board.placed.items():
        if placed.printed:
            continue
        try:
            out.lay_tile(hex_id, placed.tile_id, placed.rotation)
        except Exception:  # noqa: BLE001 - a mirror mismatch only limits what we offer
            continue
    return out


class TrackOptions:
    """Buildable hexes and tiles for ``corp`` on the board of ``game`` (computed once)."""

    def __init__(self, game: Game, corp: str) -> None:
        self._game = game
        self._corp = corp
        board = game.board
        assert board is not None
        self._board = board
        _nodes, edges = board.reach(corp)
        reach: dict[str, set[int]] = {h: set(e) for h, e in edges.items()}
        for hex_id, hex_edges in edges.items():
            for e in hex_edges:
                other = hexgrid.neighbour_id(hex_id, e)
                if other in board.placed:
                    reach.setdefault(other, set()).add(hexgrid.opposite(e))
        self._reach = {h: frozenset(e) for h, e in reach.items()}
        for hex_id, _city, _slot in board.corp_tokens(corp):
            self._reach.setdefault(hex_id, frozenset())
        self._colors = tuple(Color(c) for c in game.phase.tiles)
        self._mirror = _mirror(game)
        self._cache: dict[str, dict[str, tuple[int, ...]]] = {}

    def hexes(self) -> list[str]:
        """Hexes where at least one tile may be laid now."""
        return [h for h in sorted(self._reach) if self.legal(h)]

    def legal(self, hex_id: str) -> dict[str, tuple[int, ...]]:
        """Tile name -> legal rotations on ``hex_id``."""
        if hex_id in self._cache:
            return self._cache[hex_id]
        out: dict[str, tuple[int, ...]] = {}
        if hex_id in self._reach and hex_id not in self._board.blocked:
            reach = self._reach[hex_id]
            try:
                out = upgrades.legal_tiles(self._mirror, hex_id, self._colors, RULES_1867,
                                           reach if reach else None)
            except Exception:  # noqa: BLE001 - offer nothing rather than crash the view
                out = {}
            out = {n: r for n, r in out.items() if self._board.copies_left(n) > 0}
        self._cache[hex_id] = out
        return out

    def tray(self, hex_id: str | None) -> list[TileChoice]:
        """Every tile of the phase colours, usable on ``hex_id`` or greyed with a reason."""
        if hex_id:
            legal = self.legal(hex_id)
        else:  # usable somewhere: drag it onto a highlighted hex
            legal = {}
            for h in self.hexes():
                for name, rots in self.legal(h).items():
                    legal.setdefault(name, rots)
        out: list[TileChoice] = []
        for name, entry in self._board.manifest.items():
            tile = entry.tile
            left = self._board.copies_left(name)
            if tile.color not in self._colors:
                continue
            rots = legal.get(name, ())
            if left <= 0:
                reason = "none left"
            elif not rots and hex_id is None:
                reason = "fits no hex the company can reach"
            elif not rots:
                reason = f"does not fit {hex_id}"
            else:
                reason = ""
            out.append(TileChoice(name, tile, rots, min(left, 99), reason))
        out.sort(key=lambda c: (not c.rotations, c.tile.color.value, _num(c.name)))
        return out

    def copy_id(self, name: str) -> str | None:
        """The supply copy id to lay for tile ``name``."""
        return self._board.free_copy(name)


def _num(name: str) -> tuple[int, str]:
    digits = "".join(ch for ch in name if ch.isdigit())
    return (int(digits) if digits else 0, name)
