"""Integer tables for a tile's track at one rotation.

A :class:`TileDef` describes track at rotation 0 with small dataclasses; the
engine's loops want ints and tuples.  :func:`geometry` turns a tile and a
rotation into a :class:`Geometry` once and caches it (the tile definitions are
frozen and hashable), the way python-chess precomputes its attack tables.

Path ends are encoded as one int: ``0``-``5`` is an edge (already rotated),
``NODE + n`` is node ``n`` of the tile.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from desk18xx.engine.tiledef import NodeKind, PathEnd, TileDef

#: Offset of node ends in the int encoding of path ends.
NODE = 8


def end_code(end: PathEnd, rotation: int) -> int:
    """The int code of a path end at ``rotation``."""
    if end.edge is not None:
        return (end.edge + rotation) % 6
    assert end.node is not None
    return NODE + end.node


@dataclass(frozen=True, slots=True, eq=False)
class Geometry:
    """A tile's track at one rotation (identity-compared, built by :func:`geometry`)."""

    tile: TileDef
    rotation: int
    ends: tuple[tuple[int, int], ...]
    """Per path: its two end codes."""
    terminal: tuple[bool, ...]
    """Per path: a route may end on it but not pass through."""
    lanes: tuple[int, ...]
    """Per path: how many routes may use it."""
    exits: frozenset[int]
    """Edges that carry track."""
    edge_paths: tuple[tuple[int, ...], ...]
    """Per edge 0-5: indexes of the paths touching it."""
    node_paths: tuple[tuple[int, ...], ...]
    """Per node: indexes of the paths touching it."""
    node_edges: tuple[frozenset[int], ...]
    """Per node: edges joined to it by one path (18xx.games ``city_town_edges``)."""
    kinds: tuple[NodeKind, ...]
    """Per node: its kind."""
    city_nodes: tuple[int, ...]
    """Node indexes of the cities, in city order."""
    town_nodes: tuple[int, ...]
    """Node indexes of the towns."""

    @property
    def n_paths(self) -> int:
        """Number of paths."""
        return len(self.ends)

    def city_edges(self) -> tuple[frozenset[int], ...]:
        """Edges of each city, in city order."""
        return tuple(self.node_edges[n] for n in self.city_nodes)


_BY_OBJECT: dict[tuple[int, int], tuple[TileDef, Geometry]] = {}
"""(id of a tile object, rotation) -> (that tile, geometry): hashing a whole
:class:`TileDef` costs more than most uses of its geometry.  Holding the tile
keeps its id from being reused while the entry lives."""


def geometry(tile: TileDef, rotation: int) -> Geometry:
    """The cached int tables of ``tile`` turned by ``rotation`` sixths."""
    rotation %= 6
    key = (id(tile), rotation)
    hit = _BY_OBJECT.get(key)
    if hit is not None and hit[0] is tile:
        return hit[1]
    if len(_BY_OBJECT) > 16384:
        _BY_OBJECT.clear()
    geo = _geometry(tile, rotation)
    _BY_OBJECT[key] = (tile, geo)
    return geo


@functools.lru_cache(maxsize=8192)
def _geometry(tile: TileDef, rotation: int) -> Geometry:
    """The int tables of ``tile`` at ``rotation`` (0-5); equal tiles share them."""
    ends = tuple((end_code(p.a, rotation), end_code(p.b, rotation)) for p in tile.paths)
    n_nodes = len(tile.nodes)
    edge_paths: list[list[int]] = [[] for _ in range(6)]
    node_paths: list[list[int]] = [[] for _ in range(n_nodes)]
    node_edges: list[set[int]] = [set() for _ in range(n_nodes)]
    for i, (a, b) in enumerate(ends):
        for x in (a, b):
            if x < NODE:
                edge_paths[x].append(i)
            else:
                node_paths[x - NODE].append(i)
        if a >= NODE and b < NODE:
            node_edges[a - NODE].add(b)
        elif b >= NODE and a < NODE:
            node_edges[b - NODE].add(a)
    kinds = tuple(n.kind for n in tile.nodes)
    return Geometry(
        tile=tile,
        rotation=rotation,
        ends=ends,
        terminal=tuple(p.terminal for p in tile.paths),
        lanes=tuple(p.lanes for p in tile.paths),
        exits=frozenset(e for pair in ends for e in pair if e < NODE),
        edge_paths=tuple(tuple(x) for x in edge_paths),
        node_paths=tuple(tuple(x) for x in node_paths),
        node_edges=tuple(frozenset(x) for x in node_edges),
        kinds=kinds,
        city_nodes=tuple(i for i, k in enumerate(kinds) if k is NodeKind.CITY),
        town_nodes=tuple(i for i, k in enumerate(kinds) if k is NodeKind.TOWN),
    )


def end_kind(geo: Geometry, code: int) -> int | NodeKind:
    """An end for subset tests: the edge number, or the node's kind."""
    return code if code < NODE else geo.kinds[code - NODE]


def _is_junction(geo: Geometry, code: int) -> bool:
    return code >= NODE and geo.kinds[code - NODE] is NodeKind.JUNCTION


def path_ends(geo: Geometry, i: int) -> frozenset[int | NodeKind]:
    """Ends of path ``i`` for subset tests (18xx.games ``Path#ends``).

    A junction end stands for the far ends of the junction's other paths, so
    a path edge 0 - junction on a tile with paths to 1 and 2 keeps 0-1 and 0-2.
    """
    out: set[int | NodeKind] = set()
    for code in geo.ends[i]:
        if not _is_junction(geo, code):
            out.add(end_kind(geo, code))
            continue
        for j in geo.node_paths[code - NODE]:
            if j != i:
                out.update(end_kind(geo, x) for x in geo.ends[j] if not _is_junction(geo, x))
    return frozenset(out)


def path_covered(old: Geometry, i: int, new: Geometry) -> bool:
    """True when old path ``i`` is kept by some path of ``new`` (18xx.games ``Path#<=``).

    Edges must match exactly and node ends must match a node of the same kind
    (a path city-edge 1 is kept by any path city-edge 1 of the new tile).
    """
    mine = path_ends(old, i)
    return any(mine <= path_ends(new, j) for j in range(new.n_paths))


@functools.lru_cache(maxsize=65536)
def paths_kept(old: Geometry, new: Geometry) -> bool:
    """Every path of ``old`` is kept by a path of ``new`` at their current rotations."""
    return all(path_covered(old, i, new) for i in range(old.n_paths))


def paths_kept_any_rotation(old: Geometry, new_tile: TileDef) -> bool:
    """``old``'s paths are kept by ``new_tile`` at some rotation (``paths_are_subset_of?``)."""
    return any(paths_kept(old, geometry(new_tile, r)) for r in range(6))


def map_cities(old: Geometry, new: Geometry) -> list[int | None]:
    """For each old city, the new city that takes its tokens (18xx.games ``city_map_for``)."""
    old_edges = old.city_edges()
    new_edges = new.city_edges()
    n_old, n_new = len(old_edges), len(new_edges)
    out: list[int | None]
    if all(not e for e in old_edges) and n_old == n_new:
        out = list(range(n_old))
    else:
        out = []
        for oe in old_edges:
            found = None
            if oe:
                found = next((i for i, ne in enumerate(new_edges) if oe <= ne), None)
            out.append(found)
    used = {c for c in out if c is not None}
    for i in range(n_old):
        if out[i] is not None:
            continue
        cand: int | None = i if i < n_new else None
        if cand is None or cand in used:
            cand = next((c for c in range(n_new) if c not in used), None)
        out[i] = cand
        if cand is not None:
            used.add(cand)
    return out
