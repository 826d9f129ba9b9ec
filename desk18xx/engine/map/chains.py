"""Turn 18xx.games route ``connections`` into concrete track (export format §6.5).

A connection is a list of hex ids that one stretch of track walks through
between two consecutive stops.  18xx.games rebuilds it by walking from every
node on the first hex to every node on the last and keeping the walks whose
hex list equals the connection exactly (``Route#find_matching_chains``); a
walk never passes through a node, only along edges and through junctions.
Consecutive connections share exactly one node.  We do the same, but choose
the whole sequence at once so that the chains agree with each other, prefer
the ones that touch the recorded ``nodes`` signatures, and never reuse track
already used by the company's other routes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.ids import HexId
from desk18xx.engine.map.graph import NodeRef, PathRef, TrackGraph
from desk18xx.engine.map.hexgrid import opposite
from desk18xx.engine.map.tiles import NODE
from desk18xx.engine.tiledef import NodeKind


@dataclass(frozen=True, slots=True)
class Chain:
    """Track between two consecutive stops of a route."""

    left: NodeRef
    right: NodeRef
    paths: tuple[PathRef, ...]
    """Paths in order from ``left`` to ``right`` (empty for a local run)."""

    @property
    def nodes(self) -> tuple[NodeRef, NodeRef]:
        """Both end nodes."""
        return (self.left, self.right)

    def flipped(self) -> Chain:
        """The same chain walked the other way."""
        return Chain(self.right, self.left, tuple(reversed(self.paths)))

    def hex_ids(self) -> list[str]:
        """The connection as 18xx.games writes it (hexes in walk order, each once in a row)."""
        out: list[str] = []
        for h, _ in self.paths:
            if not out or out[-1] != h:
                out.append(h)
        return out


def chain_candidates(graph: TrackGraph, hex_ids: Sequence[str]) -> list[Chain]:
    """Every walk matching one connection, shortest first.

    A walk may come back to its start node (a loop, used by local trains);
    route checks reject it for other trains.

    Raises:
        IllegalAction: the connection names a hex that is not on the map.
    """
    if not hex_ids:
        raise IllegalAction("Empty route connection")
    for h in hex_ids:
        if h.split(" ")[0] not in graph.board:
            raise IllegalAction(f"There is no hex {h} on this map")
    if len(hex_ids) == 1 and " " in hex_ids[0]:
        return _intra_tile(graph, hex_ids[0])
    want = [HexId(h) for h in hex_ids]
    first, last = want[0], want[-1]
    out: list[Chain] = []
    start_geo = graph.state(first).geo
    end_kinds = graph.state(last).geo.kinds
    for s, kind in enumerate(start_geo.kinds):
        if kind is NodeKind.JUNCTION:
            continue
        for p in start_geo.node_paths[s]:
            _walk(graph, want, (first, s), (first, p), NODE + s, [(first, p)], [first], out)
    return sorted(
        (c for c in out if end_kinds[c.right[1]] is not NodeKind.JUNCTION and c.right[0] == last),
        key=lambda c: len(c.paths),
    )


def _walk(
    graph: TrackGraph,
    want: list[HexId],
    start: NodeRef,
    cur: PathRef,
    came: int,
    paths: list[PathRef],
    hexes: list[HexId],
    out: list[Chain],
) -> None:
    hid, p = cur
    geo = graph.state(hid).geo
    a, b = geo.ends[p]
    other = b if a == came else a
    if other >= NODE:
        node = other - NODE
        if geo.kinds[node] is NodeKind.JUNCTION:
            if geo.terminal[p]:
                return
            for q in geo.node_paths[node]:
                if q != p and (hid, q) not in paths and not geo.terminal[q]:
                    paths.append((hid, q))
                    _walk(graph, want, start, (hid, q), other, paths, hexes, out)
                    paths.pop()
            return
        if hexes == want:
            out.append(Chain(start, (hid, node), tuple(paths)))
        return
    nid = graph.neighbour(hid, other)
    if nid is None or len(hexes) >= len(want) or want[len(hexes)] != nid:
        return
    hexes.append(nid)
    for nh, q in graph.links(hid, other):
        if (nh, q) in paths:
            continue
        paths.append((nh, q))
        _walk(graph, want, start, (nh, q), opposite(other), paths, hexes, out)
        paths.pop()
    hexes.pop()


def _intra_tile(graph: TrackGraph, text: str) -> list[Chain]:
    """``"G13 0.1"``: the path joining nodes 0 and 1 inside G13."""
    hex_part, _, nodes = text.partition(" ")
    hid = HexId(hex_part)
    try:
        n0, n1 = (int(x) for x in nodes.split("."))
    except ValueError:
        raise IllegalAction(f"Bad route connection {text!r}") from None
    geo = graph.state(hid).geo
    for i, (a, b) in enumerate(geo.ends):
        if {a, b} == {NODE + n0, NODE + n1}:
            return [Chain((hid, n0), (hid, n1), ((hid, i),))]
    return []


def resolve_chains(
    graph: TrackGraph,
    connections: Sequence[Sequence[str]],
    *,
    corp: str,
    used: Collection[PathRef] = (),
    signatures: Collection[str] = (),
    require_token: bool = True,
) -> tuple[Chain, ...]:
    """Concrete chains for a route's connections, oriented in travel order.

    A single connection must touch a node with ``corp``'s token (as
    18xx.games requires when rebuilding).  ``used`` is track taken by the
    company's other routes; ``signatures`` the recorded node signatures.

    Raises:
        IllegalAction: no consistent reading of the connections exists.
    """
    cands = [chain_candidates(graph, c) for c in connections]
    counts = Counter(used)
    blocked = {p for p, n in counts.items() if n >= graph.state(p[0]).geo.lanes[p[1]]}
    sig = set(signatures)

    def score(ch: Chain) -> int:
        return sum(1 for h, n in ch.nodes if f"{h}-{n}" in sig)

    cands = [
        sorted((c for c in cs if not blocked.intersection(c.paths)), key=lambda c: -score(c))
        for cs in cands
    ]
    if len(cands) == 1:
        for ch in cands[0]:
            if not require_token or any(_tokened(graph, node, corp) for node in ch.nodes):
                return (ch,)
        raise IllegalAction(
            f"No track matches the connection {'-'.join(connections[0])} with a token of {corp}"
        )
    found = _sequence(cands, 0, None, [], set())
    if found is None:
        raise IllegalAction("The route's connections do not join up on the board")
    return tuple(found)


def _sequence(
    cands: list[list[Chain]],
    i: int,
    enter: NodeRef | None,
    acc: list[Chain],
    taken: set[PathRef],
) -> list[Chain] | None:
    if i == len(cands):
        return list(acc)
    for ch in cands[i]:
        if taken.intersection(ch.paths):
            continue
        options: list[Chain] = []
        if enter is None:
            nxt = cands[i + 1]
            for oriented in (ch, ch.flipped()):
                if any(oriented.right in n.nodes and oriented.left not in n.nodes for n in nxt):
                    options.append(oriented)
        elif ch.left == enter and ch.right != enter:
            options.append(ch)
        elif ch.right == enter and ch.left != enter:
            options.append(ch.flipped())
        for oriented in options:
            acc.append(oriented)
            taken.update(oriented.paths)
            got = _sequence(cands, i + 1, oriented.right, acc, taken)
            if got is not None:
                return got
            acc.pop()
            taken.difference_update(oriented.paths)
    return None


def _tokened(graph: TrackGraph, node: NodeRef, corp: str) -> bool:
    st = graph.state(node[0])
    if node[1] not in st.geo.city_nodes:
        return False
    return any(t.corp == corp for t in st.city_tokens(st.geo.city_nodes.index(node[1])))
