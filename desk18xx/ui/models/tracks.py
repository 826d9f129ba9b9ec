"""Where the operating company may lay track, and with which tiles and rotations.

Reads the engine's board and asks the pure tile-lay rules of
:mod:`desk18xx.engine.map.upgrades` (which work on
:class:`desk18xx.engine.map.board.Board`).  The 1867 engine still keeps its
own board (``engine/board_lite.py``), which is mirrored into a map Board.
The engine checks every lay when it is submitted; this module only decides
what to offer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from desk18xx.engine.game import Game
from desk18xx.engine.map import board as mboard
from desk18xx.engine.map import hexgrid, tiles, upgrades
from desk18xx.engine.map.graph import graph_for
from desk18xx.engine.tiledef import COLOR_ORDER, Color, HexDef, TileDef

#: 1867's differences from the generic lay rules (see :class:`upgrades.TrackRules`).
RULES_1867 = upgrades.TrackRules(max_exits="cities", border_costs="both_sides")
UNLIMITED = 99


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
    """A :class:`mboard.Board` showing the tiles of the game's 1867 board."""
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


def _lite_reach(game: Game, corp: str) -> dict[str, frozenset[int]]:
    """Hexes the 1867 board lets ``corp`` build on, with the edges it reaches there."""
    board = game.board
    assert board is not None
    _nodes, edges = board.reach(corp)
    reach: dict[str, set[int]] = {h: set(e) for h, e in edges.items()}
    for hex_id, hex_edges in edges.items():
        for e in hex_edges:
            other = hexgrid.neighbour_id(hex_id, e)
            if other in board.placed:
                reach.setdefault(other, set()).add(hexgrid.opposite(e))
    out = {h: frozenset(e) for h, e in reach.items()}
    for hex_id, _city, _slot in board.corp_tokens(corp):
        out.setdefault(hex_id, frozenset())
    return out


def track_rules(game: Game) -> upgrades.TrackRules:
    """The title's lay rules (1867's when the game declares none)."""
    # FIXME: ask for a declared Game.track_rules once the base class has one.
    rules = vars(game).get("track_rules")
    return rules if isinstance(rules, upgrades.TrackRules) else RULES_1867


#: (id(hex state), id(tile), id(rules)) -> (hex state, tile, rules, upgrade_problem is None);
#: the objects are kept so that an id is not reused while its entry lives.
_UPGRADE_OK: dict[tuple[int, int, int], tuple[object, object, object, bool]] = {}
_UPGRADE_OK_MAX = 100_000


def _upgrade_ok(board: mboard.Board, st: mboard.HexState, tile: TileDef,
                rules: upgrades.TrackRules) -> bool:
    """``upgrade_problem(...) is None``, remembered per (frozen) hex state and tile.

    The answer depends only on what lies on the hex, the new tile and the rules,
    so it holds for as long as the hex is unchanged (most of the map, most turns).
    """
    key = (id(st), id(tile), id(rules))
    hit = _UPGRADE_OK.get(key)
    if hit is not None and hit[0] is st and hit[1] is tile and hit[2] is rules:
        return hit[3]
    ok = upgrades.upgrade_problem(board, st.hex_id, tile, rules) is None
    if len(_UPGRADE_OK) >= _UPGRADE_OK_MAX:
        _UPGRADE_OK.clear()
    _UPGRADE_OK[key] = (st, tile, rules, ok)
    return ok


#: (id(hex state), id(tile), id(rules), ids of the deciding neighbours' states) ->
#: (the objects keyed on, the rotations open but for the connection, with their exits).
_OPEN: dict[tuple[int, ...], tuple[tuple[object, ...],
                                   tuple[tuple[int, frozenset[int]], ...]]] = {}
_OPEN_MAX = 100_000


def _around(board: mboard.Board, hex_id: str,
            rules: upgrades.TrackRules) -> tuple[mboard.HexState, ...]:
    """The neighbours whose own track decides whether an edge of ``hex_id`` is open
    (printed in an impassable colour, see :func:`upgrades.edge_open`)."""
    out = []
    for nid in board.neighbours(hex_id):
        if nid is not None and board.hex_def(nid).tile.color in rules.impassable_colors:
            out.append(board.hex(nid))
    return tuple(out)


def _open_rotations(board: mboard.Board, st: mboard.HexState, tile: TileDef,
                    rules: upgrades.TrackRules, around: tuple[mboard.HexState, ...]
                    ) -> tuple[tuple[int, frozenset[int]], ...]:
    """Rotations every rule but the connection to the network allows, with the exits
    of the tile there; remembered per hex state, tile, rules and deciding neighbours
    (all frozen), so a company's highlight rarely asks the rules again."""
    key = (id(st), id(tile), id(rules), *map(id, around))
    hit = _OPEN.get(key)
    kept = (st, tile, rules, *around)
    if hit is not None and all(a is b for a, b in zip(hit[0], kept, strict=True)):
        return hit[1]
    out = tuple((r, tiles.geometry(tile, r).exits) for r in range(6)
                if upgrades.rotation_problem(board, st.hex_id, tile, r, rules) is None)
    if len(_OPEN) >= _OPEN_MAX:
        _OPEN.clear()
    _OPEN[key] = (kept, out)
    return out


def _legal_rotations(board: mboard.Board, st: mboard.HexState, tile: TileDef,
                     rules: upgrades.TrackRules, reach: frozenset[int] | None,
                     around: tuple[mboard.HexState, ...] | None = None) -> tuple[int, ...]:
    """:func:`upgrades.legal_rotations`, with what does not depend on the company
    remembered (the rotation-free test, and each rotation but for the connection)."""
    if not _upgrade_ok(board, st, tile, rules):
        return ()
    if around is None:
        around = _around(board, st.hex_id, rules)
    opened = _open_rotations(board, st, tile, rules, around)
    return tuple(r for r, exits in opened if reach is None or exits & reach)


class TrackOptions:
    """Buildable hexes and tiles for ``corp`` on the board of ``game`` (computed once)."""

    def __init__(self, game: Game, corp: str,
                 turn: Mapping[str, object] | None = None) -> None:
        self._game = game
        self._corp = corp
        turn = turn or {}
        hexes = turn.get("hexes")
        self._turn_hexes = frozenset(str(h) for h in hexes) if isinstance(hexes, list) \
            else None
        """The engine's hexes open to this lay (1867: none laid earlier in the turn)."""
        self._may_yellow = turn.get("may_lay_yellow") is not False
        self._may_upgrade = turn.get("may_upgrade") is not False
        extra = turn.get("extra_cost")
        self._extra_cost = extra if isinstance(extra, int) else 0
        """1867: the second lay of a turn costs $20."""
        laid = turn.get("laid_hexes")
        self._laid = frozenset(str(h) for h in laid) if isinstance(laid, list) else frozenset()
        """1822CA: hexes laid earlier in the turn (no second tile there)."""
        no_colors = turn.get("no_colors")
        self._no_colors = frozenset(str(c) for c in no_colors) \
            if isinstance(no_colors, list) else frozenset()
        """1822CA: colours the company never lays (minors: brown and grey)."""
        cash = turn.get("cash")
        self._cash = cash if isinstance(cash, int) else None
        """What the company can pay for a lay, when the engine says."""
        self._colors = tuple(Color(c) for c in game.phase.tiles)
        self._rules = track_rules(game)
        board: object = game.board
        self._blocked: frozenset[str] = frozenset()
        if isinstance(board, mboard.Board):
            self._map = board
            edges = graph_for(board).reach(corp).edges
            self._reach: dict[str, frozenset[int]] = {str(h): e for h, e in edges.items()}
            self._lite = False
        else:
            self._map = _mirror(game)
            self._reach = _lite_reach(game, corp)
            assert game.board is not None
            self._blocked = frozenset(game.board.blocked)
            self._lite = True
        self._cache: dict[str, dict[str, tuple[int, ...]]] = {}
        self._left: dict[str, int] = {}

    def hexes(self) -> list[str]:
        """Hexes where at least one tile may be laid now."""
        return [h for h in sorted(self._reach) if self.any_legal(h)]

    def any_legal(self, hex_id: str) -> bool:
        """True when some tile fits ``hex_id`` (stops at the first one found)."""
        if hex_id in self._cache:
            return bool(self._cache[hex_id])
        if hex_id not in self._reach or hex_id in self._blocked or not self._turn_open(hex_id):
            return False
        if not self._lite and any(b != self._corp for b in self._map.hex(hex_id).blockers):
            return False
        reach = self._reach[hex_id]
        edges = reach if reach or not self._lite else None
        st = self._map.hex(hex_id)
        # upgrade_problem refuses a tile not of the next colour unless the printed hex
        # takes only named tiles: test only the next colour's tiles (same answer).
        only = st.printed and hex_id in self._rules.replace_only
        old_index = COLOR_ORDER.index(st.tile.color) if st.tile.color in COLOR_ORDER else -10
        around = _around(self._map, hex_id, self._rules)
        for name, entry in self._map.manifest.items():
            if entry.tile.color not in self._colors:
                continue
            color = entry.tile.color
            if not only and color in COLOR_ORDER and COLOR_ORDER.index(color) != old_index + 1:
                continue
            if self.left(name) <= 0 or not self._kind_open(entry.tile):
                continue
            try:
                rotations = _legal_rotations(self._map, st, entry.tile, self._rules, edges,
                                             around)
                if rotations and (not self._lite
                                  or self._new_track_rotations(hex_id, name, rotations)):
                    return True
            except Exception:  # noqa: BLE001 - offer nothing rather than crash the view
                return False
        return False

    def legal(self, hex_id: str) -> dict[str, tuple[int, ...]]:
        """Tile name -> legal rotations on ``hex_id``."""
        if hex_id in self._cache:
            return self._cache[hex_id]
        out: dict[str, tuple[int, ...]] = {}
        if hex_id in self._reach and hex_id not in self._blocked and self._turn_open(hex_id):
            reach = self._reach[hex_id]
            if any(b != self._corp for b in self._map.hex(hex_id).blockers) and not self._lite:
                out = {}
            else:
                try:
                    out = upgrades.legal_tiles(self._map, hex_id, self._colors, self._rules,
                                               reach if reach or not self._lite else None)
                except Exception:  # noqa: BLE001 - offer nothing rather than crash the view
                    out = {}
            out = {n: r for n, r in out.items()
                   if self.left(n) > 0 and self._kind_open(self.tile(n))}
            if self._cash is not None:
                out = {n: kept for n, r in out.items()
                       if (kept := self._affordable(hex_id, n, r))}
            if self._lite:
                out = self._new_track_only(hex_id, out)
        self._cache[hex_id] = out
        return out

    def _turn_open(self, hex_id: str) -> bool:
        """The engine leaves ``hex_id`` open to this lay of the turn."""
        if hex_id in self._laid:
            return False
        if self._cash is not None and self.terrain_cost(hex_id) > self._cash:
            return False
        return self._turn_hexes is None or hex_id in self._turn_hexes

    def _kind_open(self, tile: TileDef) -> bool:
        """A yellow lay or an upgrade, whichever this lay of the turn may be (1867: the
        second lay is yellow only)."""
        if tile.color.value in self._no_colors:
            return False
        return self._may_yellow if tile.color == Color.YELLOW else self._may_upgrade

    def _affordable(self, hex_id: str, name: str, rotations: tuple[int, ...]
                    ) -> tuple[int, ...]:
        """Those of ``rotations`` the company can pay for (all when the engine does not
        say what it can pay)."""
        cash = self._cash
        if cash is None:
            return rotations
        return tuple(r for r in rotations if self.cost(hex_id, name, r) <= cash)

    def _new_track_only(self, hex_id: str, out: dict[str, tuple[int, ...]]
                        ) -> dict[str, tuple[int, ...]]:
        """1867: the rotations that give the company new track or a new city value
        (the engine's ``Board.gives_new_track``, 18xx.games ``:semi_restrictive``)."""
        kept: dict[str, tuple[int, ...]] = {}
        for name, rotations in out.items():
            ok = self._new_track_rotations(hex_id, name, rotations)
            if ok:
                kept[name] = ok
        return kept

    def _new_track_rotations(self, hex_id: str, name: str, rotations: tuple[int, ...]
                             ) -> tuple[int, ...]:
        """Those of ``rotations`` of tile ``name`` that pass :meth:`_new_track_only`."""
        from desk18xx.engine.board_lite import Board as LiteBoard

        lite = self._game.board
        if not isinstance(lite, LiteBoard):
            return rotations
        entry = lite.manifest.get(name)
        copy = lite.free_copy(name)
        if entry is None or copy is None:
            return ()
        return tuple(r for r in rotations
                     if lite.gives_new_track(self._corp, hex_id, entry.tile, copy, r))

    def left(self, name: str) -> int:
        """Copies of ``name`` in the supply."""
        cached = self._left.get(name)
        if cached is None:
            cached = self._left[name] = self._count_left(name)
        return cached

    def _count_left(self, name: str) -> int:
        if self._lite:
            board = self._game.board
            assert board is not None
            return min(board.copies_left(name), UNLIMITED)
        left = self._map.remaining(name)
        return UNLIMITED if left is None else left

    def tile(self, name: str) -> TileDef:
        """The definition of tile ``name``."""
        return self._map.tile_def(name)

    def hex_def(self, hex_id: str) -> HexDef:
        """The printed hex."""
        return self._map.hex_def(hex_id)

    def terrain_cost(self, hex_id: str) -> int:
        """Terrain cost printed on what lies on ``hex_id`` now."""
        return sum(u.cost for u in self._map.hex(hex_id).tile.upgrades)

    def cost(self, hex_id: str, name: str, rotation: int) -> int:
        """Terrain and river cost of laying ``name`` at ``rotation``, and the fee of a
        further lay in the turn (1867: $20)."""
        try:
            lay = upgrades.lay_cost(self._map, hex_id, self.tile(name), rotation, self._rules)
        except Exception:  # noqa: BLE001 - a cost is informative only
            return self.terrain_cost(hex_id) + self._extra_cost
        paid: set[tuple[str, int]] = set()
        if self._lite:
            board = self._game.board
            assert board is not None
            paid = set(board.paid_borders)
        rivers = sum(b.cost for b in lay.borders if (b.hex, b.edge) not in paid)
        return sum(u.cost for u in lay.terrain) + rivers + self._extra_cost

    def tray(self, hex_id: str | None) -> list[TileChoice]:
        """Every tile of the phase colours, usable on ``hex_id`` or greyed with a reason."""
        legal = self.legal(hex_id) if hex_id else {}
        out: list[TileChoice] = []
        for name, entry in self._map.manifest.items():
            tile = entry.tile
            if tile.color not in self._colors:
                continue
            left = self.left(name)
            rots = legal.get(name, ())
            if hex_id is None and left > 0 and self._kind_open(tile):
                rots = (0,)  # checked when dropped on a hex
            if left <= 0:
                reason = "none left"
            elif tile.color.value in self._no_colors:
                reason = f"this company never lays {tile.color.value} tiles"
            elif not self._kind_open(tile):
                reason = ("no upgrade on this lay of the turn" if tile.color != Color.YELLOW
                          else "no yellow tile on this lay of the turn")
            elif not rots:
                reason = f"does not fit {hex_id}"
            else:
                reason = ""
            out.append(TileChoice(name, tile, rots, left, reason))
        out.sort(key=lambda c: (not c.rotations, c.tile.color.value, _num(c.name)))
        return out

    def copy_id(self, name: str) -> str | None:
        """The supply copy id to lay for tile ``name``."""
        if self._lite:
            board = self._game.board
            assert board is not None
            return board.free_copy(name)
        try:
            return str(self._map.next_copy(name))
        except Exception:  # noqa: BLE001 - none left
            return None


def _num(name: str) -> tuple[int, str]:
    digits = "".join(ch for ch in name if ch.isdigit())
    return (int(digits) if digits else 0, name)
