"""Board state for the rules engine: placed tiles, station tokens, reachability.

The rules engine's own board (``Game.board``): the tile on every hex with its
rotation, the token slots of every city, the tile supply, river borders
already paid, and a reachability walk over track from a corporation's tokens
(18xx ``Graph#connected_nodes``/``connected_hexes``: full cities of other
companies block, off-boards end a walk).  It was written while
``engine/map/board.py``/``graph.py`` were being built; the UI, the route
optimizer and the state digest read it now.  FIXME: merge it with
``engine/map`` (one board model, one graph).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from operator import itemgetter

from desk18xx.engine.map.hexgrid import neighbour_id, opposite
from desk18xx.engine.map.tiles import Geometry, geometry, paths_kept
from desk18xx.engine.tiledef import Color, HexDef, ManifestTile, NodeKind, TileDef

NEUTRAL = "~neutral"
"""Token-slot marker of a neutral placeholder token (1867 CN)."""


@dataclass(frozen=True, slots=True)
class TileShape:
    """Adjacency of one tile at one rotation, precomputed."""

    exits: frozenset[int]
    node_edges: tuple[frozenset[int], ...]
    """Edges joined directly to each node."""
    node_nodes: tuple[frozenset[int], ...]
    """Nodes joined directly to each node."""
    edge_edges: Mapping[int, frozenset[int]]
    """Edge -> edges joined by plain track."""
    edge_nodes: Mapping[int, frozenset[int]]
    """Edge -> nodes joined to it."""
    terminal_nodes: frozenset[int]


_SHAPES: dict[tuple[int, int], tuple[TileDef, TileShape]] = {}
_NEIGHBOURS: dict[int, tuple[Mapping[str, HexDef], dict[tuple[str, int], str | None]]] = {}
"""Per board definition: (hex, edge) -> neighbour on the board across a passable side."""


_EDGES: dict[tuple[str, str], int | None] = {}
_STOPS: dict[int, tuple[TileDef, tuple[int, int]]] = {}


def stop_counts(tile: TileDef) -> tuple[int, int]:
    """(cities, towns) on ``tile`` (cached; tile definitions are immutable)."""
    key = id(tile)
    hit = _STOPS.get(key)
    if hit is not None and hit[0] is tile:
        return hit[1]
    counts = (sum(1 for n in tile.nodes if n.kind is NodeKind.CITY),
              sum(1 for n in tile.nodes if n.kind is NodeKind.TOWN))
    _STOPS[key] = (tile, counts)
    return counts


def edge_to(a: str, b: str) -> int | None:
    """The edge of hex ``a`` that touches hex ``b`` (None when not adjacent); cached."""
    key = (a, b)
    if key in _EDGES:
        return _EDGES[key]
    from desk18xx.engine.map.hexgrid import edge_between, parse_hex

    try:
        edge = edge_between(parse_hex(a), parse_hex(b))
    except ValueError:
        edge = None
    _EDGES[key] = edge
    return edge


def _neighbour_table(hexdefs: Mapping[str, HexDef]) -> dict[tuple[str, int], str | None]:
    key = id(hexdefs)
    hit = _NEIGHBOURS.get(key)
    if hit is not None and hit[0] is hexdefs:
        return hit[1]
    table: dict[tuple[str, int], str | None] = {}
    for hex_id, hd in hexdefs.items():
        for edge in range(6):
            other: str | None = neighbour_id(hex_id, edge)
            if other not in hexdefs:
                other = None
            else:
                assert other is not None
                for b in hd.tile.borders:
                    if b.edge == edge and b.type == "impassable":
                        other = None
                for b in hexdefs[other].tile.borders if other else ():
                    if b.edge == opposite(edge) and b.type == "impassable":
                        other = None
            table[(hex_id, edge)] = other
    _NEIGHBOURS[key] = (hexdefs, table)
    return table


_ROWS: dict[int, tuple[Mapping[str, HexDef], dict[str, tuple[str | None, ...]]]] = {}


def _neighbour_rows(hexdefs: Mapping[str, HexDef]) -> dict[str, tuple[str | None, ...]]:
    """Hex -> its six neighbours across passable sides (:func:`_neighbour_table` by row)."""
    key = id(hexdefs)
    hit = _ROWS.get(key)
    if hit is not None and hit[0] is hexdefs:
        return hit[1]
    table = _neighbour_table(hexdefs)
    rows = {h: tuple(table[(h, e)] for e in range(6)) for h in hexdefs}
    _ROWS[key] = (hexdefs, rows)
    return rows


def shape(tile: TileDef, rotation: int) -> TileShape:
    """The adjacency of ``tile`` turned ``rotation`` sixths (cached)."""
    key = (id(tile), rotation)
    cached = _SHAPES.get(key)
    if cached is not None and cached[0] is tile:
        return cached[1]
    n = len(tile.nodes)
    node_edges: list[set[int]] = [set() for _ in range(n)]
    node_nodes: list[set[int]] = [set() for _ in range(n)]
    edge_edges: dict[int, set[int]] = {}
    edge_nodes: dict[int, set[int]] = {}
    terminal: set[int] = set()
    exits: set[int] = set()
    for p in tile.paths:
        a, b = p.a, p.b
        ea = None if a.edge is None else (a.edge + rotation) % 6
        eb = None if b.edge is None else (b.edge + rotation) % 6
        for e in (ea, eb):
            if e is not None:
                exits.add(e)
        if ea is not None and eb is not None:
            edge_edges.setdefault(ea, set()).add(eb)
            edge_edges.setdefault(eb, set()).add(ea)
        elif ea is not None and b.node is not None:
            node_edges[b.node].add(ea)
            edge_nodes.setdefault(ea, set()).add(b.node)
            if p.terminal:
                terminal.add(b.node)
        elif eb is not None and a.node is not None:
            node_edges[a.node].add(eb)
            edge_nodes.setdefault(eb, set()).add(a.node)
            if p.terminal:
                terminal.add(a.node)
        elif a.node is not None and b.node is not None:
            node_nodes[a.node].add(b.node)
            node_nodes[b.node].add(a.node)
    result = TileShape(
        frozenset(exits),
        tuple(frozenset(s) for s in node_edges),
        tuple(frozenset(s) for s in node_nodes),
        {k: frozenset(v) for k, v in edge_edges.items()},
        {k: frozenset(v) for k, v in edge_nodes.items()},
        frozenset(terminal),
    )
    _SHAPES[key] = (tile, result)  # the reference keeps id(tile) from being reused
    return result


@dataclass(frozen=True, slots=True)
class PathTable:
    """The paths of one tile at one rotation as the walk reads them (18xx
    ``Tile#paths`` order; each path's ends in its ``a``, ``b`` order)."""

    edges: tuple[tuple[int, ...], ...]
    """Per path, its edges."""
    nodes: tuple[tuple[int, ...], ...]
    """Per path, its nodes."""
    terminal: tuple[bool, ...]
    node_paths: tuple[tuple[int, ...], ...]
    """Per node, the paths touching it."""
    edge_paths: tuple[tuple[int, ...], ...]
    """Per edge 0-5, the paths leaving by it."""
    converging: tuple[bool, ...]
    """Per edge 0-5, more than one path leaves by it (18xx ``converging_exit?``)."""


_TABLES: dict[tuple[int, int], tuple[TileDef, PathTable]] = {}


def path_table(tile: TileDef, rotation: int) -> PathTable:
    """The :class:`PathTable` of ``tile`` turned ``rotation`` sixths (cached)."""
    key = (id(tile), rotation)
    cached = _TABLES.get(key)
    if cached is not None and cached[0] is tile:
        return cached[1]
    edges: list[tuple[int, ...]] = []
    nodes: list[tuple[int, ...]] = []
    node_paths: list[list[int]] = [[] for _ in tile.nodes]
    edge_paths: list[list[int]] = [[] for _ in range(6)]
    for i, p in enumerate(tile.paths):
        pe = tuple((end.edge + rotation) % 6 for end in (p.a, p.b) if end.edge is not None)
        pn = tuple(end.node for end in (p.a, p.b) if end.node is not None)
        edges.append(pe)
        nodes.append(pn)
        for n in dict.fromkeys(pn):
            node_paths[n].append(i)
        for e in pe:
            edge_paths[e].append(i)
    table = PathTable(
        tuple(edges), tuple(nodes), tuple(p.terminal for p in tile.paths),
        tuple(tuple(x) for x in node_paths), tuple(tuple(x) for x in edge_paths),
        tuple(len(x) > 1 for x in edge_paths),
    )
    _TABLES[key] = (tile, table)  # the reference keeps id(tile) from being reused
    return table


_GEOMETRY: dict[tuple[int, int], tuple[TileDef, Geometry]] = {}


def _geometry(tile: TileDef, rotation: int) -> Geometry:
    """``engine.map.tiles.geometry`` keyed by identity (hashing a tile is deep)."""
    key = (id(tile), rotation)
    hit = _GEOMETRY.get(key)
    if hit is not None and hit[0] is tile:
        return hit[1]
    geo = geometry(tile, rotation)
    _GEOMETRY[key] = (tile, geo)
    return geo


_KEPT: dict[tuple[int, int, int, int], tuple[TileDef, TileDef, bool]] = {}


def keeps_paths(old: TileDef, old_rotation: int, new: TileDef, new_rotation: int) -> bool:
    """Every path of ``old`` is kept by ``new`` at these rotations (cached
    :func:`~desk18xx.engine.map.tiles.paths_kept`; tile definitions are immutable)."""
    key = (id(old), old_rotation, id(new), new_rotation)
    hit = _KEPT.get(key)
    if hit is not None and hit[0] is old and hit[1] is new:
        return hit[2]
    kept = paths_kept(_geometry(old, old_rotation), _geometry(new, new_rotation))
    _KEPT[key] = (old, new, kept)  # the references keep the ids from being reused
    return kept


def _max_revenue(tile: TileDef, node: int) -> int:
    rev = tile.nodes[node].revenue
    return max([rev.flat, *(v for _c, v in rev.by_color)])


_GAINS: dict[tuple[int, int, int, int], tuple[TileDef, TileDef, frozenset[int] | None]] = {}


def new_track_paths(old: TileDef, old_rotation: int, new: TileDef, new_rotation: int
                    ) -> frozenset[int] | None:
    """Paths of ``new`` that are new track or change a stop's value over ``old``
    (18xx.games ``Tracker#check_track_restrictions!``); None when ``old`` has no
    track (any lay on it is new track).  Cached; tile definitions are immutable.

    A new path is old track when every end of it is an end of one old path (an
    edge by number, a stop by kind: 18xx ``Path#<=``); it changes a value when
    the stops of the first such old path have other (highest) revenues.
    """
    key = (id(old), old_rotation, id(new), new_rotation)
    hit = _GAINS.get(key)
    if hit is not None and hit[0] is old and hit[1] is new:
        return hit[2]
    result: frozenset[int] | None = None
    if old.paths:
        ot, nt = path_table(old, old_rotation), path_table(new, new_rotation)
        gains: set[int] = set()
        for p in range(len(nt.edges)):
            kinds = [new.nodes[n].kind for n in nt.nodes[p]]
            for q in range(len(ot.edges)):
                okinds = {old.nodes[n].kind for n in ot.nodes[q]}
                if set(nt.edges[p]) <= set(ot.edges[q]) and all(k in okinds for k in kinds):
                    if sorted(_max_revenue(new, n) for n in nt.nodes[p]) != sorted(
                            _max_revenue(old, n) for n in ot.nodes[q]):
                        gains.add(p)
                    break
            else:
                gains.add(p)
        result = frozenset(gains)
    _GAINS[key] = (old, new, result)  # the references keep the ids from being reused
    return result


@dataclass
class Placed:
    """The tile on a hex (immutable once placed: a lay makes a new one)."""

    __slots__ = ("tile", "tile_id", "rotation", "printed", "shape", "city_nodes", "table")

    def __init__(self, tile: TileDef, tile_id: str, rotation: int = 0,
                 printed: bool = True) -> None:
        self.tile = tile
        self.tile_id = tile_id
        """``"57-0"``; a printed tile is ``"<hex>-<n>"``: 18xx.games' name, ``n`` the hex's
        place in its group of the title's hex list (``"E15-3"``, `HexDef.tile_id`)."""
        self.rotation = rotation
        self.printed = printed
        self.shape: TileShape = shape(tile, rotation)
        """Adjacency at the current rotation."""
        self.city_nodes: list[int] = [i for i, n in enumerate(tile.nodes)
                                      if n.kind is NodeKind.CITY]
        """Node indexes of the cities, in order (do not mutate)."""
        self.table: PathTable = path_table(tile, rotation)
        """The paths at the current rotation, for the walk."""


@dataclass
class Board:
    """Tiles, tokens and the tile supply."""

    hexdefs: Mapping[str, HexDef]
    manifest: Mapping[str, ManifestTile]
    placed: dict[str, Placed] = field(default_factory=dict)
    tokens: dict[str, list[list[str | None]]] = field(default_factory=dict)
    """Hex -> per city (in city order) its slots: corporation id, NEUTRAL, or None."""
    used_tiles: dict[str, str] = field(default_factory=dict)
    """Tile copy id -> hex it lies on."""
    paid_borders: set[tuple[str, int]] = field(default_factory=set)
    blocked: set[str] = field(default_factory=set)
    lays: int = 0
    """Number of tiles laid (part of the reachability cache key)."""
    _reach_cache: dict[str, tuple[object, tuple[set[tuple[str, int]], dict[str, set[int]]]]] = \
        field(default_factory=dict, repr=False, compare=False)
    _slot_lists: tuple[int, list[tuple[str, int, list[str | None]]]] | None = \
        field(default=None, repr=False, compare=False)
    _walk_rows: tuple[int, list[_HexRow]] | None = field(default=None, repr=False, compare=False)
    _new_track: tuple[object, dict[tuple[str, str, int, int], tuple[TileDef, bool]]] | None = \
        field(default=None, repr=False, compare=False)
    """:meth:`gives_new_track` answers for one state (:meth:`_state_key`)."""

    @classmethod
    def from_hexes(cls, hexdefs: Mapping[str, HexDef], manifest: Mapping[str, ManifestTile]
                   ) -> Board:
        """A fresh board as printed (setup tokens are added by the title)."""
        board = cls(hexdefs, manifest)
        for hex_id, hd in hexdefs.items():
            board.placed[hex_id] = Placed(hd.tile, hd.tile_id or f"{hex_id}-0")
            board.tokens[hex_id] = [[None] * max(1, n.slots)
                                    for n in hd.tile.nodes if n.kind is NodeKind.CITY]
            if hd.blockers:
                board.blocked.add(hex_id)
        return board

    def __deepcopy__(self, memo: dict[int, object]) -> Board:
        """Deep copies (game snapshots) share the immutable tile definitions."""
        return self.copy()

    def copy(self) -> Board:
        """Independent copy (tile definitions are shared)."""
        return Board(
            self.hexdefs, self.manifest,
            dict(self.placed),
            {h: [list(c) for c in cities] for h, cities in self.tokens.items()},
            dict(self.used_tiles), set(self.paid_borders), set(self.blocked), self.lays,
        )

    # -- tiles ---------------------------------------------------------------------------
    def tile_available(self, tile_id: str) -> bool:
        """True when the copy ``tile_id`` is in the supply."""
        name, _, index = tile_id.rpartition("-")
        entry = self.manifest.get(name)
        if entry is None or tile_id in self.used_tiles:
            return False
        return entry.count is None or int(index) < entry.count

    def free_copy(self, name: str) -> str | None:
        """The lowest-numbered copy of ``name`` in the supply."""
        entry = self.manifest.get(name)
        if entry is None:
            return None
        limit = entry.count if entry.count is not None else 10_000
        for i in range(limit):
            tid = f"{name}-{i}"
            if tid not in self.used_tiles:
                return tid
        return None

    def copies_left(self, name: str) -> int:
        """Copies of ``name`` in the supply (a large number when unlimited)."""
        entry = self.manifest[name]
        if entry.count is None:
            return 1_000
        used = sum(1 for t in self.used_tiles if t.rpartition("-")[0] == name)
        return entry.count - used

    def lay(self, hex_id: str, tile: TileDef, tile_id: str, rotation: int) -> None:
        """Put a tile on ``hex_id``; tokens follow their city; the old copy returns."""
        old = self.placed[hex_id]
        new = Placed(tile, tile_id, rotation, printed=False)
        old_tokens = self.tokens.get(hex_id, [])
        new_cities = new.city_nodes
        new_tokens: list[list[str | None]] = [[None] * max(1, tile.nodes[n].slots)
                                              for n in new_cities]
        for ni, found in enumerate(self._city_map(old, new)):
            if ni >= len(old_tokens):
                continue
            if found is None:
                if any(old_tokens[ni]):
                    raise ValueError(f"{tile.name} on {hex_id} has no city for a token")
                continue
            dest = new_tokens[found]
            for s in old_tokens[ni]:
                if s is None:
                    continue
                for k in range(len(dest)):
                    if dest[k] is None:
                        dest[k] = s
                        break
                else:
                    dest.append(s)  # a "cheater" slot beyond the printed ones
        self.tokens[hex_id] = new_tokens
        if not old.printed:
            self.used_tiles.pop(old.tile_id, None)
        self.used_tiles[tile_id] = hex_id
        self.placed[hex_id] = new
        self.lays += 1
        rows = self._walk_rows
        if rows is not None and rows[0] == self.lays - 1:
            index = _hex_index(self.hexdefs)
            rows[1][index[hex_id]] = _hex_row(self, hex_id, index)
            self._walk_rows = (self.lays, rows[1])

    @staticmethod
    def _city_map(old: Placed, new: Placed) -> list[int | None]:
        """New city index for each old city (18xx ``Hex#city_map_for``)."""
        old_cities, new_cities = old.city_nodes, new.city_nodes
        osh, nsh = old.shape, new.shape
        blank = not any(osh.node_edges[n] for n in old_cities)
        result: list[int | None] = []
        if blank and len(old_cities) == len(new_cities):
            return list(range(len(old_cities)))
        for on in old_cities:
            exits = osh.node_edges[on]
            found = None
            for ni, nn in enumerate(new_cities):
                if exits and exits <= nsh.node_edges[nn]:
                    found = ni
                    break
            result.append(found)
        used = [r for r in result if r is not None]
        for oi in range(len(old_cities)):
            if result[oi] is not None:
                continue
            cand: int | None = oi if oi < len(new_cities) else None
            if cand is None or cand in used:
                cand = next((i for i in range(len(new_cities)) if i not in used), None)
            result[oi] = cand
            if cand is not None:
                used.append(cand)
        return result

    # -- tokens --------------------------------------------------------------------------
    def city_index(self, hex_id: str, node: int) -> int:
        """City number of node ``node`` of the tile on ``hex_id``."""
        return self.placed[hex_id].city_nodes.index(node)

    def find_city(self, tile_id: str, part: int) -> tuple[str, int]:
        """Hex and city number of city id ``<tile id>-<part>``.

        Raises:
            KeyError: the tile is not on the board.
        """
        hex_id = self.used_tiles.get(tile_id)
        if hex_id is None:
            name = tile_id.rpartition("-")[0]
            placed = self.placed.get(name)
            # a printed tile by 18xx.games' id, or desk18xx 0.1.0's "<hex>-0"
            if placed is not None and placed.printed and tile_id in (placed.tile_id,
                                                                      f"{name}-0"):
                hex_id = name
        if hex_id is None:
            raise KeyError(tile_id)
        return hex_id, part

    def reference_city_id(self, city_id: str) -> str:
        """18xx.games' name of city id ``city_id``: a city on a printed tile written
        ``"<hex>-0-<part>"`` (desk18xx 0.1.0 named every printed tile
        ``"<hex>-0"``) becomes ``"<hex>-<n>-<part>"`` with the map's tile id
        (`HexDef.tile_id`, e.g. ``"E15-3-0"``); any other id is returned as is."""
        tile_id, sep, part = city_id.rpartition("-")
        name, sep2, index = tile_id.rpartition("-")
        hd = self.hexdefs.get(name)
        if not (sep and sep2 and index.isdigit()) or hd is None or hd.tile_id is None:
            return city_id
        return f"{hd.tile_id}-{part}"

    def corp_tokens(self, corp: str) -> Iterator[tuple[str, int, int]]:
        """(hex, city, slot) of every token of ``corp``."""
        for hex_id, ci, slots in self._cities():
            if corp in slots:
                for si, s in enumerate(slots):
                    if s == corp:
                        yield hex_id, ci, si

    def city_full_for(self, hex_id: str, city: int, corp: str) -> bool:
        """True when ``corp`` cannot pass through (full and not tokened by it)."""
        slots = self.tokens[hex_id][city]
        return corp not in slots and all(s is not None for s in slots)

    def hex_has_token_of(self, hex_id: str, corp: str) -> bool:
        """True when any city on ``hex_id`` holds a token of ``corp``."""
        return any(corp in slots for slots in self.tokens.get(hex_id, []))

    # -- reachability --------------------------------------------------------------------
    def neighbour_enterable(self, hex_id: str, edge: int) -> tuple[str, int] | None:
        """The (hex, edge) entered by leaving ``hex_id`` across ``edge``, if track joins."""
        other = _neighbour_table(self.hexdefs)[(hex_id, edge)]
        if other is None:
            return None
        placed = self.placed[other]
        back = opposite(edge)
        if back not in placed.shape.exits:
            return None
        return other, back

    def _cities(self) -> list[tuple[str, int, list[str | None]]]:
        """(hex, city, slot list) of every city, in board order.

        The slot lists of a hex are replaced only by :meth:`lay` (which counts
        ``lays``), so the list is kept per ``lays``; slots change in place.
        """
        flat = self._slot_lists
        if flat is None or flat[0] != self.lays:
            flat = (self.lays, [(h, ci, slots) for h, cities in self.tokens.items()
                                for ci, slots in enumerate(cities)])
            self._slot_lists = flat
        return flat[1]

    def _state_key(self) -> tuple[int, tuple[tuple[str | None, ...], ...]]:
        """What the reachability walks depend on: lays and every token slot."""
        return (self.lays, tuple(map(tuple, map(itemgetter(2), self._cities()))))

    def _cached(self, cache_key: str, key: object) -> tuple[set[tuple[str, int]],
                                                           dict[str, set[int]]] | None:
        hit = self._reach_cache.get(cache_key)
        if hit is not None and hit[0] == key:
            return hit[1]
        return None

    def reach(self, corp: str, friends: frozenset[str] = frozenset()
              ) -> tuple[set[tuple[str, int]], dict[str, set[int]]]:
        """Nodes and hex edges reachable from ``corp``'s tokens.

        Returns:
            ``(nodes, edges)``: ``(hex, node index)`` pairs reachable, and per
            hex the edges from which it can be reached or left (18xx
            ``connected_nodes``/``connected_hexes``).  Callers must not mutate them.
            Tokens of ``friends`` never block (1867 card: merging minors).
        """
        key = self._state_key()
        cache_key = corp + "|" + ",".join(sorted(friends))
        hit = self._cached(cache_key, key)
        if hit is not None:
            return hit
        edges: dict[str, set[int]] = {}
        result = (self._walk(corp, friends, self._token_nodes(corp), edges), edges)
        self._reach_cache[cache_key] = (key, result)
        return result

    def reach_nodes(self, corp: str, friends: frozenset[str] = frozenset()
                    ) -> set[tuple[str, int]]:
        """Only the nodes of :meth:`reach` (a cheaper walk when edges are not needed)."""
        key = self._state_key()
        suffix = corp + "|" + ",".join(sorted(friends))
        hit = self._cached(suffix, key) or self._cached("nodes:" + suffix, key)
        if hit is not None:
            return hit[0]
        nodes = self._walk(corp, friends, self._token_nodes(corp))
        self._reach_cache["nodes:" + suffix] = (key, (nodes, {}))
        return nodes

    def can_run_from_one_token(self, corp: str) -> bool:
        """Some token of ``corp`` reaches another stop on its own (18xx
        ``Graph#compute`` ``route_available``: each token is walked separately, and
        tokens in cities that track does not join give no route)."""
        key = self._state_key()
        cache_key = "run:" + corp
        hit = self._cached(cache_key, key)
        if hit is None:
            ok = any(len(self._walk(corp, frozenset(), [start], limit=2)) > 1
                     for start in self._token_nodes(corp))
            hit = ({("", 0)} if ok else set(), {})
            self._reach_cache[cache_key] = (key, hit)
        return bool(hit[0])

    def reaches_any(self, corp: str, wanted: frozenset[tuple[str, int]]) -> bool:
        """Whether :meth:`reach_nodes` of ``corp`` holds one of ``wanted``; the walk
        stops at the first one found (same answer, less walking: token checks)."""
        if not wanted:
            return False
        key = self._state_key()
        full = self._cached(corp + "|", key) or self._cached("nodes:" + corp + "|", key)
        if full is not None:
            return not wanted.isdisjoint(full[0])
        cache_key = "any:" + corp
        hit = self._reach_cache.get(cache_key)
        if hit is not None and hit[0] == (key, wanted):
            return bool(hit[1][0])
        starts = self._token_nodes(corp)
        found = not wanted.isdisjoint(starts) or bool(
            wanted & self._walk(corp, frozenset(), starts, target=wanted))
        self._reach_cache[cache_key] = ((key, wanted), ({("", 0)} if found else set(), {}))
        return found

    def _walk(self, corp: str, friends: frozenset[str], start_nodes: list[tuple[str, int]],
              edges: dict[str, set[int]] | None = None, limit: int = 0,
              target: frozenset[tuple[str, int]] | None = None) -> set[tuple[str, int]]:
        """Walk track from ``start_nodes``; return the nodes reached.

        18xx.games ``Graph#compute``: one walk from each start (the other
        starts count as visited, so a walk reaches them but does not pass
        through), the union of what they reach.  A walk is the reference's
        depth-first ``Node#walk``/``Path#walk``: it never enters a path it
        has entered before in the same walk, nor a path with an edge the
        walk is still leaving by (each hexside once per route, ``counter``);
        past a converging exit (a tile edge shared by two paths) paths and
        nodes are released again on the way back.  Full cities of other
        companies (not ``friends``) and off-boards end a walk, a terminal
        path's node is reached but not left.  When ``edges`` is given, every
        hex edge of a walked path and the side facing it is recorded; a
        ``limit`` stops the walk once that many nodes are found, a ``target`` once
        one of its nodes is.
        """
        starts = list(dict.fromkeys(start_nodes))
        nodes: set[tuple[str, int]] = set(starts)
        if limit and len(nodes) >= limit:
            return nodes
        try:
            _search(self, corp, friends, starts, nodes, edges, limit, target)
        except _Enough:
            pass
        return nodes

    def gives_new_track(self, corp: str, hex_id: str, tile: TileDef, tile_id: str,
                        rotation: int) -> bool:
        """Laying ``tile`` on ``hex_id`` at ``rotation`` gives ``corp`` new track or a
        new stop value (18xx.games ``check_track_restrictions!``, ``:semi_restrictive``):
        one of :func:`new_track_paths` is reached once the tile is laid."""
        old = self.placed[hex_id]
        gains = new_track_paths(old.tile, old.rotation, tile, rotation)
        if gains is None:
            return True  # nothing was on the hex: all track is new
        if not gains:
            return False
        state = self._state_key()
        known = self._new_track
        if known is None or known[0] != state:
            known = self._new_track = (state, {})
        key = (corp, hex_id, id(tile), rotation)  # the copy laid does not matter
        hit = known[1].get(key)
        if hit is not None and hit[0] is tile:
            return hit[1]
        answer = self.reaches_after_lay(corp, hex_id, tile, tile_id, rotation, gains)
        known[1][key] = (tile, answer)  # the reference keeps id(tile) from being reused
        return answer

    def reaches_after_lay(self, corp: str, hex_id: str, tile: TileDef, tile_id: str,
                          rotation: int, paths: frozenset[int]) -> bool:
        """``corp``'s network reaches one of ``paths`` (indexes into ``tile.paths``)
        once ``tile`` is laid on ``hex_id`` at ``rotation`` (18xx ``connected_paths``
        after the lay).  The lay is made on a copy: this board and its caches are
        untouched.

        Raises:
            ValueError: the tile has no city for a token of the old one.
        """
        # a copy for one lay: only the hex laid on gets new token lists, so the
        # others are shared (read only), as are the border and blocker sets
        trial = Board(self.hexdefs, self.manifest, dict(self.placed), dict(self.tokens),
                      dict(self.used_tiles), self.paid_borders, self.blocked, self.lays)
        rows = self._walk_rows
        if rows is not None and rows[0] == self.lays:
            # the other rows read the same token slots (equal lists); the lay renews its own
            trial._walk_rows = (self.lays, list(rows[1]))
        trial.lay(hex_id, tile, tile_id, rotation)
        # the trial's token nodes, in board order (as ``trial._token_nodes``; the
        # lay moves tokens on ``hex_id`` only, and keeps the hex's place)
        nodes: list[tuple[str, int]] = []
        for h, c, _s in self.corp_tokens(corp):
            if h != hex_id:
                nodes.append((h, self.placed[h].city_nodes[c]))
            elif not any(n[0] == hex_id for n in nodes):
                city_nodes = trial.placed[hex_id].city_nodes
                nodes.extend((hex_id, city_nodes[ci])
                             for ci, slots in enumerate(trial.tokens[hex_id])
                             for held in slots if held == corp)
        starts = list(dict.fromkeys(nodes))
        index = _hex_index(self.hexdefs)
        base = index[hex_id] * 32
        wanted = frozenset(base + p for p in paths)
        # shortcuts with the walk's answer: a new path at a token of ``corp`` is
        # entered by the first walk from that token (nothing is marked there yet, and
        # a path marked before was walked); a new path out of every walk's reach
        # (:func:`_reachable_paths`) is never walked
        table = trial.placed[hex_id].table
        tokens = {index[h] * 32 + n for h, n in starts}
        if any(base + m in tokens for p in paths for m in table.nodes[p]):
            return True
        if wanted.isdisjoint(_reachable_paths(trial, corp, starts, wanted)):
            return False
        try:
            _search(trial, corp, frozenset(), starts, set(starts), None, 0, paths=wanted)
        except _Enough:
            return True
        return False

    def passable(self, hex_id: str, edge: int) -> bool:
        """A neighbour exists across ``edge`` and no impassable border separates them."""
        return _neighbour_table(self.hexdefs)[(hex_id, edge)] is not None

    def token_hex_edges(self, corp: str) -> dict[str, set[int]]:
        """Every passable edge of each hex where ``corp`` has a token (18xx graph)."""
        out: dict[str, set[int]] = {}
        for hex_id, _c, _s in self.corp_tokens(corp):
            out[hex_id] = {e for e in range(6) if self.passable(hex_id, e)}
        return out

    def _token_nodes(self, corp: str) -> list[tuple[str, int]]:
        return [(h, self.placed[h].city_nodes[c]) for h, c, _s in self.corp_tokens(corp)]

    def node_connected_elsewhere(self, hex_id: str) -> bool:
        """True when track from a city of ``hex_id`` reaches a stop (18xx
        ``G1867::Game#unconnected_hexes``, used for major home choices).

        The reference's test, walked as it walks: from each path of each city
        (``Path#walk``), a route of plain track that enters no path twice and
        crosses no hexside twice until it meets a path with a node (a city, a
        town or an off-board, tokens ignored; another path into the same city
        counts too).  The walk never passes through a node, so a path joining
        two nodes leads nowhere, and a loop that comes back over the hexside it
        left by (through a converging exit) is not another stop."""
        placed = self.placed[hex_id]
        table = placed.table
        for node in placed.city_nodes:
            for p in table.node_paths[node]:
                if self._path_reaches_node(hex_id, p):
                    return True
        return False

    def _path_reaches_node(self, hex_id: str, start: int) -> bool:
        """`node_connected_elsewhere` from path ``start`` of ``hex_id`` (a plain
        depth-first search: every mark is released on the way back, as in the
        reference, whose outermost walk is ``converging``)."""
        visited: set[tuple[str, int]] = {(hex_id, start)}
        crossed: set[tuple[str, int]] = set()
        """(hex, edge) of every hexside the route left a hex by."""
        neighbours = _neighbour_rows(self.hexdefs)  # passable sides only

        def cross(h: str, e: int) -> bool:
            other = neighbours[h][e]
            if other is None:
                return False
            crossed.add((h, e))
            back = opposite(e)
            found = any(enter(other, q, back) for q in self.placed[other].table.edge_paths[back])
            crossed.discard((h, e))
            return found

        def enter(h: str, p: int, skip: int) -> bool:
            table = self.placed[h].table
            if (h, p) in visited or any((h, e) in crossed for e in table.edges[p]):
                return False
            if table.nodes[p]:
                return True
            visited.add((h, p))
            found = any(cross(h, e) for e in table.edges[p] if e != skip)
            visited.discard((h, p))
            return found

        return any(cross(hex_id, e) for e in self.placed[hex_id].table.edges[start])

    def color(self, hex_id: str) -> Color:
        """Colour of the tile on ``hex_id``."""
        return self.placed[hex_id].tile.color


class _Enough(Exception):
    """A walk found as many nodes as it was asked for."""


_INDEX: dict[int, tuple[Mapping[str, HexDef], dict[str, int]]] = {}


def _hex_index(hexdefs: Mapping[str, HexDef]) -> dict[str, int]:
    """Hex -> its position in ``hexdefs`` (cached per board definition)."""
    key = id(hexdefs)
    hit = _INDEX.get(key)
    if hit is not None and hit[0] is hexdefs:
        return hit[1]
    index = {h: i for i, h in enumerate(hexdefs)}
    _INDEX[key] = (hexdefs, index)
    return index


_HexRow = tuple[str, PathTable, tuple[int, ...], tuple[list[str | None] | None, ...],
                tuple[int, ...]]
"""A hex as the walk reads it: id, paths, neighbour positions across each edge
(-1: none), per node the token slots of a city, per node 0 (passes), 1 (city) or
2 (off-board: ends a walk)."""


def _hex_row(board: Board, hex_id: str, index: Mapping[str, int]) -> _HexRow:
    """The :data:`_HexRow` of ``hex_id`` now."""
    placed = board.placed[hex_id]
    cities = iter(board.tokens[hex_id])
    slots: list[list[str | None] | None] = []
    kinds: list[int] = []
    for node in placed.tile.nodes:
        if node.kind is NodeKind.CITY:
            slots.append(next(cities))
            kinds.append(1)
        else:
            slots.append(None)
            kinds.append(2 if node.kind is NodeKind.OFFBOARD else 0)
    return (hex_id, placed.table,
            tuple(-1 if o is None else index[o] for o in _neighbour_rows(board.hexdefs)[hex_id]),
            tuple(slots), tuple(kinds))


def _walk_rows(board: Board) -> list[_HexRow]:
    """Per hex position, its :data:`_HexRow` (:meth:`Board.lay` renews the row
    of the hex it lays on; tokens change the slot lists in place)."""
    hit = board._walk_rows
    if hit is not None and hit[0] == board.lays:
        return hit[1]
    index = _hex_index(board.hexdefs)
    out = [_hex_row(board, hex_id, index) for hex_id in board.hexdefs]
    board._walk_rows = (board.lays, out)
    return out


def _reachable_paths(board: Board, corp: str, starts: list[tuple[str, int]],
                     wanted: frozenset[int] = frozenset()) -> set[int]:
    """Every path (``32 * hex + index``) a walk of :func:`_search` from ``starts`` could
    enter (or those found until one of ``wanted`` is): a plain search over (path,
    entry edge) states with every move of the walk (a path's nodes unless it is
    terminal, a node's other paths unless it is a start, an off-board or a city
    ``corp`` cannot pass; a path's edges but the one it was entered by, into the
    paths at the facing edge) and none of its per-route limits (visited paths and
    nodes, hexsides on the route)."""
    hexes = _walk_rows(board)
    index = _hex_index(board.hexdefs)
    tokens = {index[hex_id] * 32 + n for hex_id, n in starts}
    out: set[int] = set()
    seen: set[int] = set()
    stack: list[tuple[int, int, int]] = []
    for hex_id, n in starts:
        hi = index[hex_id]
        stack.extend((hi, p, -1) for p in hexes[hi][1].node_paths[n])
    while stack:
        h, p, skip = stack.pop()
        pid = h * 32 + p
        state = pid * 8 + skip + 1
        if state in seen:
            continue
        seen.add(state)
        out.add(pid)
        if pid in wanted:
            break
        _hex_id, table, nbr, slots, kinds = hexes[h]
        if not table.terminal[p]:
            for m in table.nodes[p]:
                kind = kinds[m]
                if h * 32 + m in tokens or kind == 2:
                    continue
                if kind == 1:
                    held = slots[m]
                    assert held is not None
                    if not (corp in held or None in held or NEUTRAL in held):
                        continue
                stack.extend((h, q, -1) for q in table.node_paths[m] if q != p)
        for e in table.edges[p]:
            if e == skip:
                continue
            other = nbr[e]
            if other >= 0:
                back = (e + 3) % 6
                stack.extend((other, q, back) for q in hexes[other][1].edge_paths[back])
    return out


def _search(board: Board, corp: str, friends: frozenset[str], starts: list[tuple[str, int]],
            nodes: set[tuple[str, int]], edges: dict[str, set[int]] | None, limit: int,
            target: frozenset[tuple[str, int]] | None = None,
            paths: frozenset[int] | None = None, memo: bool = True) -> None:
    """The walks of :meth:`Board._walk`, adding what they reach to ``nodes`` and ``edges``.

    18xx.games ``Node#walk`` and ``Path#walk``, whose visiting order decides what is
    reached: paths in tile order, a path's ends in its own order.  Hexes are
    numbered by position; hexsides in ``counter`` are ``6 * hex + edge``, paths in
    ``vpaths`` and nodes in ``vnodes`` ``32 * hex + index``.  ``paths``, numbered
    so, stops the walks once one of them is walked (18xx ``connected_paths``).

    ``memo`` (the default) skips repeated walks past converging exits that can
    find nothing new; ``memo=False`` is the plain walk, which the tests compare
    it with (tests/engine/test_board_lite_walk.py).  Past a converging exit a walk
    leaves nothing behind but what it records (it releases every path, node and
    hexside it took), so it tries every route the marks taken before it allow.
    What stopped it is known: the marks older than its start that a test found
    taken (its *blockers*).  A later walk from the same path and entry edge,
    started while all those blockers are taken again, can only follow
    routes the first one followed (a test the first one passed, it passes
    again unless one of its own marks, the same on the same route, blocks it;
    a walk the first one skipped so is covered by that walk's blockers, which
    are passed on to the first one's) and record nothing new: it is skipped.
    Recording is the only thing skipped, so what is recorded, in which order,
    and where a ``limit``, ``target`` or ``paths`` stops the walks, are the same.
    """
    hexes = _walk_rows(board)
    index = _hex_index(board.hexdefs)
    # marks in one set: a path 32 * hex + index, a node NODE + 32 * hex + index,
    # a hexside SIDE + 6 * hex + edge (the reference's ``visited`` and ``counter``)
    node_mark = 32 * len(hexes)
    side_mark = 2 * node_mark
    scale = side_mark + 6 * len(hexes)
    taken: set[int] = set()
    recorded: dict[int, None] = {}
    """Paths walked, in order; recorded at once when the walk may stop early,
    else after it (same order: same ``nodes`` and ``edges``)."""
    eager = bool(limit) or target is not None or paths is not None
    # memo: the clock tick at which each mark was taken; per (path, entry edge)
    # the blockers of finished converging walks; a blocker hit is
    # ``tick * scale + mark`` (plain ints: no garbage for the collector)
    clock = 0
    stamp: dict[int, int] = {}
    done: dict[int, list[frozenset[int]]] = {}

    def passes(slots: list[str | None] | None) -> bool:
        """A city with these slots lets the company through."""
        assert slots is not None
        if corp in slots or None in slots or NEUTRAL in slots:
            return True
        return bool(friends) and any(x in friends for x in slots)

    def record(h: int, table: PathTable, p: int) -> None:
        hex_id, _t, nbr, _s, _k = hexes[h]
        if paths is not None and h * 32 + p in paths:
            raise _Enough
        for m in table.nodes[p]:
            nodes.add((hex_id, m))
            if target is not None and (hex_id, m) in target:
                raise _Enough
        if limit and len(nodes) >= limit:
            raise _Enough
        if edges is not None:
            for e in table.edges[p]:
                edges.setdefault(hex_id, set()).add(e)
                other = nbr[e]
                if other >= 0:
                    edges.setdefault(hexes[other][0], set()).add((e + 3) % 6)

    def walk_node(h: int, node: int, converging: bool, hits: list[int] | None) -> None:
        nonlocal clock
        key = node_mark + h * 32 + node
        taken.add(key)
        if memo:
            clock += 1
            stamp[key] = clock
        base = h * 32
        for p in hexes[h][1].node_paths[node]:
            if base + p not in taken:
                walk_path(h, p, -1, converging, converging, hits)
            elif hits is not None:
                hits.append(stamp[base + p] * scale + base + p)
        if converging:
            taken.discard(key)

    def walk_path(h: int, p: int, skip: int, converging: bool,
                  origin_converging: bool, hits: list[int] | None) -> None:
        """``hits``: the blocker list of the converging walk this one is part of.

        The reference also passes the node a walk set out from, which is not
        entered again; that node stays marked as visited while the walk goes
        on, so the visited test below covers it."""
        nonlocal clock
        _hex_id, table, nbr, slots, kinds = hexes[h]
        path_edges = table.edges[p]
        base = side_mark + h * 6
        for e in path_edges:
            if base + e in taken:
                if hits is not None:
                    hits.append(stamp[base + e] * scale + base + e)
                return
        pid = h * 32 + p
        mine = hits
        entry = clock
        state = 0
        found: list[frozenset[int]] | None = None
        if memo and converging:
            state = (skip + 1) * node_mark + pid
            found = done.get(state)
            if found is None:
                done[state] = []  # seen: a walk from here again keeps its blockers
            else:
                for blockers in found:
                    if blockers <= taken:
                        if hits is not None:  # the skipped walk's blockers are the caller's
                            hits.extend(stamp[x] * scale + x for x in blockers)
                        return
                mine = []
        taken.add(pid)
        if memo:
            clock += 1
            stamp[pid] = clock
        if pid not in recorded:
            recorded[pid] = None
            if eager:
                record(h, table, p)
        if not table.terminal[p]:
            for m in table.nodes[p]:
                key = node_mark + h * 32 + m
                if key in taken:
                    if mine is not None:
                        mine.append(stamp[key] * scale + key)
                    continue
                kind = kinds[m]
                if kind == 2 or (kind == 1 and not passes(slots[m])):
                    continue
                walk_node(h, m, origin_converging or converging, mine)
        for e in path_edges:
            if e == skip:
                continue
            other = nbr[e]
            if other < 0:
                continue
            taken.add(base + e)
            if memo:
                clock += 1
                stamp[base + e] = clock
            back = (e + 3) % 6
            onward = converging or table.converging[e]
            obase = other * 32
            for q in hexes[other][1].edge_paths[back]:
                if obase + q not in taken:
                    walk_path(other, q, back, onward, origin_converging, mine)
                elif mine is not None:
                    mine.append(stamp[obase + q] * scale + obase + q)
            taken.discard(base + e)
        if converging:
            taken.discard(pid)
        if found is not None and mine is not None:
            bound = (entry + 1) * scale
            older = [hit for hit in mine if hit < bound]
            if len(found) < _MEMO_WIDTH:
                found.append(frozenset(hit % scale for hit in older))
            if hits is not None:
                hits.extend(older)

    if sys.getrecursionlimit() < 20_000:
        sys.setrecursionlimit(20_000)
    keys = [node_mark + index[h] * 32 + n for h, n in starts]
    for (hex_id, node), key in zip(starts, keys, strict=True):
        taken.clear()
        taken.update(keys)
        taken.discard(key)
        if memo:
            for k in keys:
                clock += 1
                stamp[k] = clock
        walk_node(index[hex_id], node, False, None)
    if not eager:
        for pid in recorded:
            hex_id, table, nbr, _s, _k = hexes[pid >> 5]
            p = pid & 31
            for m in table.nodes[p]:
                nodes.add((hex_id, m))
            if edges is not None:
                for e in table.edges[p]:
                    hit = edges.get(hex_id)
                    if hit is None:
                        edges[hex_id] = {e}
                    else:
                        hit.add(e)
                    other = nbr[e]
                    if other >= 0:
                        oid = hexes[other][0]
                        hit = edges.get(oid)
                        if hit is None:
                            edges[oid] = {(e + 3) % 6}
                        else:
                            hit.add((e + 3) % 6)


_MEMO_WIDTH = 8
"""Blocker sets kept per (path, entry edge) in :func:`_search`."""
