"""The route builder's questions, answered on the board: which hexes hold a stop,
the track that joins two clicked stops, and the stop a route is drawn through.

A player builds a route by clicking stops; the map asks here for a chain of hexes
(18xx.games ``connections``) joining each pair over the laid track, never over a
hexside the company's other routes already use.  What the chain is worth, and
whether the run is legal, is the engine's route pricing (`desk18xx.engine.optimizer
.engine_revenues`), asked when the route is submitted or shown; nothing here
prices or judges a run.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache

from desk18xx.engine.map.board import Board
from desk18xx.engine.map.hexgrid import edge_between, opposite, parse_hex
from desk18xx.engine.map.tiles import NODE, geometry
from desk18xx.engine.tiledef import NodeKind, TileDef

MAX_CHAIN = 40
"""The longest chain searched, in hexes (no map has a longer stretch of track)."""


@dataclass(frozen=True, slots=True)
class TileShape:
    """The track of a tile at a rotation, as the chain search reads it."""

    exits: frozenset[int]
    node_edges: tuple[frozenset[int], ...]
    """Per node, the edges joined to it."""
    edge_edges: dict[int, frozenset[int]]
    """Edge -> the edges joined to it by plain track."""


@lru_cache(maxsize=2048)
def tile_shape(tile: TileDef, rotation: int) -> TileShape:
    """The track of ``tile`` turned to ``rotation``."""
    geo = geometry(tile, rotation)
    joined: dict[int, set[int]] = {}
    for a, b in geo.ends:
        if a < NODE and b < NODE:
            joined.setdefault(a, set()).add(b)
            joined.setdefault(b, set()).add(a)
    return TileShape(geo.exits, geo.node_edges,
                     {k: frozenset(v) for k, v in joined.items()})


def _placed(board: Board, hex_id: str) -> tuple[TileDef, int, TileShape] | None:
    """The tile on ``hex_id``, its rotation and its track (None off the map)."""
    if hex_id not in board:
        return None
    st = board.hex(hex_id)
    return st.tile, st.rotation, tile_shape(st.tile, st.rotation)


def _enter(board: Board, hex_id: str, edge: int) -> tuple[str, int] | None:
    """The (hex, edge) entered by leaving ``hex_id`` across ``edge``, if track joins."""
    other = board.neighbour(hex_id, edge)
    found = None if other is None else _placed(board, other)
    back = opposite(edge)
    if other is None or found is None or back not in found[2].exits:
        return None
    return other, back


def _stop_edges(board: Board, hex_id: str) -> set[int]:
    """Edges joined to a stop (city, town, off-board) on ``hex_id``."""
    found = _placed(board, hex_id)
    if found is None:
        return set()
    tile, _rotation, sh = found
    out: set[int] = set()
    for i, n in enumerate(tile.nodes):
        if n.kind is not NodeKind.JUNCTION:
            out |= set(sh.node_edges[i])
    return out


def _through(found: tuple[TileDef, int, TileShape], entry: int) -> set[int]:
    """Edges a train entering across ``entry`` may leave by without stopping: plain
    track, or track meeting at a junction (1822CA tile 83)."""
    tile, _rotation, sh = found
    out = set(sh.edge_edges.get(entry, ()))
    for i, n in enumerate(tile.nodes):
        if n.kind is NodeKind.JUNCTION and entry in sh.node_edges[i]:
            out |= sh.node_edges[i] - {entry}
    return out


def is_stop(board: Board, hex_id: str) -> bool:
    """True when ``hex_id`` holds a city, town or off-board."""
    found = _placed(board, hex_id)
    return found is not None and any(n.kind is not NodeKind.JUNCTION for n in found[0].nodes)


def find_chain(board: Board, a: str, b: str,
               used: Collection[tuple[str, int]] = ()) -> tuple[str, ...] | None:
    """The hexes from stop ``a`` to stop ``b`` along laid track, shortest first
    (breadth first), leaving ``a`` by no hexside in ``used``; None when no track
    joins them."""
    target_edges = _stop_edges(board, b)
    queue: deque[tuple[str, int, tuple[str, ...]]] = deque()
    for e in sorted(_stop_edges(board, a)):
        if (a, e) in used:
            continue
        nxt = _enter(board, a, e)
        if nxt is not None:
            queue.append((nxt[0], nxt[1], (a, nxt[0])))
    seen: set[tuple[str, int]] = set()
    while queue:
        hex_id, entry, path = queue.popleft()
        if (hex_id, entry) in seen or len(path) > MAX_CHAIN:
            continue
        seen.add((hex_id, entry))
        if hex_id == b and entry in target_edges:
            return path
        found = _placed(board, hex_id)
        if found is None:
            continue
        for out in sorted(_through(found, entry)):
            nxt = _enter(board, hex_id, out)
            if nxt is not None and nxt[0] not in path:
                queue.append((nxt[0], nxt[1], (*path, nxt[0])))
    return None


def stop_node(board: Board, hex_id: str, toward: str | None
              ) -> tuple[TileDef, int, int] | None:
    """(tile, rotation, node) of the stop on ``hex_id`` joined toward the neighbour
    ``toward`` (any stop when None): where a route through it is drawn."""
    found = _placed(board, hex_id)
    if found is None:
        return None
    tile, rotation, sh = found
    edge = None if toward is None else edge_between(parse_hex(hex_id), parse_hex(toward))
    for i, n in enumerate(tile.nodes):
        if n.kind is NodeKind.JUNCTION:
            continue
        if edge is None or edge in sh.node_edges[i]:
            return tile, rotation, i
    return None
