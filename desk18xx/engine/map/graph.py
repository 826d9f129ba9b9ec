"""The track graph of a board and what a company can reach over it.

Mirrors 18xx.games ``Graph#compute``: from each city holding the company's
token, walk the track; a walk passes through towns and through cities with
a free slot or the company's own token, never through a city full of other
companies' tokens (RB 5.4.2-5.4.3), an off-board area, or a ``terminal``
path's node.  Blue-hex ``junction`` stubs with ``terminal`` are never walked.

What blocks is data: tokens in slots (the 1822CA ``DD`` blocker tokens in
Q19/Y27 keep Duluth-Detroit shut until the event removes them and lays the
DD tiles), neutral tokens never block, ``visit_cost: 99`` keeps a node from
being a stop (see :mod:`routes`).

The walk is a search over (path, entry end) states rather than 18xx.games'
enumeration of simple paths: the same hexes, edges, paths and nodes are
reached on every real map, at a fraction of the cost.  Results are cached
per board object and version (:func:`graph_for`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from desk18xx.engine.ids import HexId
from desk18xx.engine.map.board import Board, HexState
from desk18xx.engine.map.hexgrid import opposite
from desk18xx.engine.map.tiles import NODE
from desk18xx.engine.tiledef import Color, NodeKind

PathRef = tuple[HexId, int]
"""A path: hex and path index on its tile."""
NodeRef = tuple[HexId, int]
"""A node: hex and node index on its tile."""

DEFAULT_IMPASSABLE: frozenset[Color] = frozenset({Color.BLUE, Color.GRAY, Color.RED})


@dataclass(frozen=True, slots=True)
class Reach:
    """What one company reaches (18xx.games connected hexes/nodes/paths)."""

    nodes: frozenset[NodeRef]
    """Nodes on reached track, including full cities it may end at."""
    paths: frozenset[PathRef]
    """Paths it can trace a route over."""
    edges: Mapping[HexId, frozenset[int]]
    """Per hex, edges where its track arrives or leaves: where new track may connect."""

    def connected_edges(self, hex_id: str) -> frozenset[int] | None:
        """Edges of ``hex_id`` the company reaches (None: the hex is not reached)."""
        return self.edges.get(HexId(hex_id))

    @property
    def hexes(self) -> frozenset[HexId]:
        """Hexes with track the company can run on."""
        return frozenset(h for h, _ in self.paths)


class TrackGraph:
    """Links between the paths of adjacent tiles for one board version.

    Args:
        board: the board; the graph is valid while ``board.version`` is unchanged.
        impassable_colors: printed colours reached only across their own track.
    """

    def __init__(self, board: Board, impassable_colors: Collection[Color] = DEFAULT_IMPASSABLE):
        self.board = board
        self.version = board.version
        self.serial = board.serial
        self._impassable = frozenset(impassable_colors)
        self._states: dict[HexId, HexState] = {st.hex_id: st for st in board}
        self._open: dict[HexId, tuple[HexId | None, ...]] = {}
        self._links: dict[tuple[HexId, int], tuple[PathRef, ...]] = {}
        self._reach: dict[str | None, Reach] = {}
        for hid, st in self._states.items():
            opened: list[HexId | None] = []
            for edge in range(6):
                opened.append(self._open_neighbour(hid, st, edge))
            self._open[hid] = tuple(opened)
        for hid, st in self._states.items():
            for edge in st.geo.exits:
                nid = self._open[hid][edge]
                if nid is None:
                    continue
                back = opposite(edge)
                targets = tuple((nid, j) for j in self._states[nid].geo.edge_paths[back])
                if targets:
                    self._links[(hid, edge)] = targets

    def _open_neighbour(self, hid: HexId, st: HexState, edge: int) -> HexId | None:
        nid = self.board.neighbour(hid, edge)
        if nid is None:
            return None
        if any(b.edge == edge and b.type == "impassable" for b in st.borders):
            return None
        if self.board.hex_def(nid).tile.color in self._impassable:
            if opposite(edge) not in self._states[nid].geo.exits:
                return None
        return nid

    def neighbour(self, hex_id: str, edge: int) -> HexId | None:
        """The hex across ``edge`` if track may cross that side."""
        return self._open[HexId(hex_id)][edge]

    def links(self, hex_id: str, edge: int) -> tuple[PathRef, ...]:
        """Paths of the neighbour that continue track leaving ``hex_id`` at ``edge``."""
        return self._links.get((HexId(hex_id), edge), ())

    def state(self, hex_id: str) -> HexState:
        """The hex state this graph was built from."""
        return self._states[HexId(hex_id)]

    def blocks(self, hex_id: str, node: int, corp: str | None) -> bool:
        """True when a walk of ``corp`` may not pass through this node."""
        st = self._states[HexId(hex_id)]
        kind = st.geo.kinds[node]
        if kind is NodeKind.OFFBOARD:
            return True
        if kind is NodeKind.CITY:
            return st.city_blocks(st.geo.city_nodes.index(node), corp)
        return False

    def reach(self, corp: str) -> Reach:
        """What ``corp`` reaches from its tokens (cached)."""
        found = self._reach.get(corp)
        if found is None:
            found = self._compute(corp)
            self._reach[corp] = found
        return found

    def token_nodes(self, corp: str) -> list[NodeRef]:
        """The city nodes holding a ``corp`` token, in board order."""
        return [(hid, n) for hid, st in self._states.items()
                for c, n in enumerate(st.geo.city_nodes)
                if any(t.corp == corp for t in st.city_tokens(c))]

    def reach_from_each_token(self, corp: str) -> list[frozenset[NodeRef]]:
        """Per token, the nodes its own walk reaches (18xx ``Graph#compute``
        ``local_nodes``): the other token cities are reached but not walked through."""
        tokens = self.token_nodes(corp)
        return [self._compute(corp, only=t, stops=frozenset(tokens) - {t}).nodes
                for t in tokens]

    def _compute(self, corp: str, only: NodeRef | None = None,
                 stops: frozenset[NodeRef] = frozenset()) -> Reach:
        nodes: set[NodeRef] = set()
        paths: set[PathRef] = set()
        edges: dict[HexId, set[int]] = {}
        stack: list[tuple[HexId, int, int]] = []
        for hid, n in self.token_nodes(corp) if only is None else [only]:
            st = self._states[hid]
            nodes.add((hid, n))
            here = edges.setdefault(hid, set())
            here.update(e for e in range(6) if self._open[hid][e] is not None)
            for p in st.geo.node_paths[n]:
                stack.append((hid, p, NODE + n))
        seen: set[tuple[HexId, int, int]] = set()
        while stack:
            item = stack.pop()
            if item in seen:
                continue
            seen.add(item)
            hid, p, came = item
            geo = self._states[hid].geo
            a, b = geo.ends[p]
            terminal = geo.terminal[p]
            if terminal and any(
                x >= NODE and geo.kinds[x - NODE] is NodeKind.JUNCTION for x in (a, b)
            ):
                continue
            paths.add((hid, p))
            for end in (a, b):
                if end >= NODE:
                    nodes.add((hid, end - NODE))
                else:
                    edges.setdefault(hid, set()).add(end)
                    nid = self._open[hid][end]
                    if nid is not None:
                        edges.setdefault(nid, set()).add(opposite(end))
            for end in (a, b):
                if end == came:
                    continue
                if end < NODE:
                    for nid, q in self._links.get((hid, end), ()):
                        stack.append((nid, q, opposite(end)))
                    continue
                node = end - NODE
                if (hid, node) in stops:
                    continue
                if geo.kinds[node] is not NodeKind.JUNCTION:
                    if terminal or self.blocks(hid, node, corp):
                        continue
                for q in geo.node_paths[node]:
                    if q != p:
                        stack.append((hid, q, end))
        return Reach(
            nodes=frozenset(nodes),
            paths=frozenset(paths),
            edges={h: frozenset(e) for h, e in edges.items()},
        )


_CACHE: dict[int, TrackGraph] = {}


def graph_for(
    board: Board, impassable_colors: Collection[Color] = DEFAULT_IMPASSABLE
) -> TrackGraph:
    """The graph of ``board`` at its current version, built once per version."""
    g = _CACHE.get(board.serial)
    if g is None or g.version != board.version or g.board is not board:
        g = TrackGraph(board, impassable_colors)
        if len(_CACHE) > 64:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[board.serial] = g
    return g


def tokenable_cities(board: Board, corp: str) -> list[tuple[HexId, int]]:
    """Cities (hex, city number) where ``corp`` may place a token now.

    The city must be reached by ``corp``'s track, have a free slot that no
    other company has reserved, and lie in a hex without a ``corp`` token
    (18xx.games ``City#tokenable?`` with the default same-hex rule).  Whole-hex
    reservations of other companies keep one free slot each.
    """
    reach = graph_for(board).reach(corp)
    out: list[tuple[HexId, int]] = []
    for hid, node in sorted(reach.nodes):
        st = board.hex(hid)
        if node not in st.geo.city_nodes or st.tokened_by(corp):
            continue
        city = st.geo.city_nodes.index(node)
        own = any(r == corp for r in st.reserved[city])
        if not own and st.free_slots(city) == 0:
            continue
        others = [r for r in st.hex_reservations if r != corp]
        free_total = sum(st.free_slots(c) for c in range(len(st.tokens)))
        if others and not own and free_total <= len(others):
            continue
        out.append((hid, city))
    return out
