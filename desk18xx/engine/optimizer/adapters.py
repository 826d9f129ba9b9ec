"""Turn a replayed game into a :class:`~desk18xx.engine.optimizer.model.Problem`.

Every title runs on :mod:`desk18xx.engine.map.board`; everything the optimizer
reads from a game goes through this module so that a change there is one
change here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from desk18xx.engine.map.board import Board as MapBoard
from desk18xx.engine.optimizer.model import CITY, OFFBOARD, TOWN, Problem, Segment, Stop, TrainSpec
from desk18xx.engine.tiledef import Color, NodeKind

_KIND = {NodeKind.CITY: CITY, NodeKind.TOWN: TOWN, NodeKind.OFFBOARD: OFFBOARD}


def map_problem(
    board: MapBoard,
    corp: str,
    trains: Iterable[TrainSpec],
    phase_colors: Iterable[Color],
    repeat_hexes: Iterable[str] = (),
    *,
    blocks: Callable[[str, int], bool] | None = None,
    hex_once: bool = False,
) -> Problem:
    """The routing problem of ``corp`` on a :class:`desk18xx.engine.map.board.Board`.

    Track pieces are the path ends at hex edges (18xx.games ``check_overlap``:
    one per lane), and paths between two nodes of one hex.  A route may visit
    a hex's nodes once (``repeat_hexes``: each node once), passing through a
    hex on plain track is free.  Blocking follows :meth:`TrackGraph.blocks`.
    """
    from desk18xx.engine.map.graph import graph_for
    from desk18xx.engine.map.hexgrid import opposite
    from desk18xx.engine.map.tiles import NODE

    colors = list(phase_colors)
    graph = graph_for(board)
    repeat = frozenset(repeat_hexes)
    hex_ids = tuple(sorted(str(h) for h in board.hex_ids()))
    bit_no: dict[str, int] = {h: i for i, h in enumerate(hex_ids)}
    next_bit = len(hex_ids)
    stops: list[Stop] = []
    stop_at: dict[tuple[str, int], int] = {}
    for h in hex_ids:
        st = board.hex(h)
        geo = st.geo
        for n, nd in enumerate(geo.tile.nodes):
            kind = _KIND.get(nd.kind)
            if kind is None or nd.visit_cost >= 99:
                continue
            tokened = False
            if kind == CITY:
                c = geo.city_nodes.index(n)
                tokened = any(t.corp == corp for t in st.city_tokens(c))
            bit = bit_no[h]
            if h in repeat:
                bit, next_bit = next_bit, next_bit + 1
            stop_at[(h, n)] = len(stops)
            stops.append(Stop(
                index=len(stops), hex=h, node=n, kind=kind, revenue=nd.revenue.value(colors),
                tokened=tokened,
                passable=not (graph.blocks(h, n, corp) if blocks is None else blocks(h, n)),
                hex_bit=1 << bit,
                groups=tuple(nd.groups), cost=nd.visit_cost,
            ))
    track_no: dict[tuple[Any, ...], int] = {}

    def piece(key: tuple[Any, ...]) -> int:
        if key not in track_no:
            track_no[key] = len(track_no)
        return 1 << track_no[key]

    found: dict[tuple[int, int, int], Segment] = {}
    # walked from the company's tokens outwards: a stop the routes can pass through
    # is walked from once reached (the others only end routes)
    todo = [st.index for st in stops if st.tokened]
    reached = set(todo)

    def add(a: int, b: int, chain: list[str], track: int, ta: bool, tb: bool) -> None:
        if b not in reached and stops[b].passable:
            reached.add(b)
            todo.append(b)
        if a == b:
            return
        if b < a:
            a, b, chain, ta, tb = b, a, chain[::-1], tb, ta
        key = (a, b, track)
        if key not in found:
            passed = 0
            if hex_once:
                for h in chain[1:-1]:
                    passed |= 1 << bit_no[h]
            found[key] = Segment(0, a, b, tuple(chain), track, passed, ta, tb)

    def walked(geo_terminal: bool, geo_ends: tuple[int, int], kinds: Any) -> bool:
        """Junction stubs marked terminal are never walked (as the track graph)."""
        return not (geo_terminal and any(
            x >= NODE and kinds[x - NODE] is NodeKind.JUNCTION for x in geo_ends))

    ref_of = {s: ref for ref, s in stop_at.items()}
    geos: dict[str, Any] = {}
    pieces: dict[tuple[str, int], list[int]] = {}
    """Per (hex, path): the track bits of each lane it can be run on."""
    open_q: dict[tuple[str, int], bool] = {}
    """Per (hex, path): :func:`walked`."""

    def geo_of(h: str) -> Any:
        got = geos.get(h)
        if got is None:
            got = geos[h] = board.hex(h).geo
        return got

    walked_from = 0
    while walked_from < len(todo):
        s = todo[walked_from]
        walked_from += 1
        h0, n = ref_of[s]
        geo0 = board.hex(h0).geo
        # (hex, path, end we came in by, chain, track, first path terminal, path count)
        stack: list[tuple[str, int, int, list[str], int, bool, int]] = []
        for p in geo0.node_paths[n]:
            if walked(geo0.terminal[p], geo0.ends[p], geo0.kinds):
                stack.append((h0, p, NODE + n, [h0], 0, geo0.terminal[p], 0))
        while stack:
            hid, p, came, chain, track, t_first, depth = stack.pop()
            geo = geo_of(hid)
            t_last = geo.terminal[p]
            a, b = geo.ends[p]
            far = b if a == came else a
            variants = pieces.get((hid, p))
            if variants is None:
                variants = pieces[(hid, p)] = []
                edge_ends = [x for x in (a, b) if x < NODE]
                if edge_ends:
                    for lane in range(geo.lanes[p]):
                        bits = 0
                        for e in edge_ends:
                            bits |= piece(("e", hid, e, lane))
                        variants.append(bits)
                else:
                    variants.append(piece(("n", hid, p)))
            for bits in variants:
                if bits & track:
                    continue
                track2 = track | bits
                if far >= NODE:
                    node = far - NODE
                    if geo.kinds[node] is NodeKind.JUNCTION:
                        if geo.terminal[p] and depth > 0:
                            continue
                        for q in geo.node_paths[node]:
                            if q != p and walked(geo.terminal[q], geo.ends[q], geo.kinds):
                                stack.append((hid, q, far, chain, track2, t_first, depth + 1))
                        continue
                    target = stop_at.get((hid, node))
                    if target is not None:
                        add(s, target, chain, track2, t_first, t_last)
                    continue
                if geo.terminal[p] and depth > 0:
                    continue  # a terminal path inside plain track: never passed through
                for nid, q in graph.links(hid, far):
                    if nid in chain:
                        continue
                    ok = open_q.get((nid, q))
                    if ok is None:
                        ngeo = geo_of(nid)
                        ok = open_q[(nid, q)] = walked(ngeo.terminal[q], ngeo.ends[q],
                                                       ngeo.kinds)
                    if not ok:
                        continue
                    stack.append((nid, q, opposite(far), [*chain, nid], track2, t_first,
                                  depth + 1))
    segments = tuple(
        Segment(i, seg.a, seg.b, seg.hexes, seg.track, seg.passed, seg.terminal_a,
                seg.terminal_b)
        for i, seg in enumerate(sorted(found.values(), key=lambda x: (x.a, x.b, x.hexes,
                                                                       x.track)))
    )
    return Problem(corp, tuple(stops), segments, tuple(trains), hex_ids).finish()
