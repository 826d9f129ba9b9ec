"""Turn a replayed game into a :class:`~desk18xx.engine.optimizer.model.Problem`.

The rules engine's board is still moving (1867 runs on
:mod:`desk18xx.engine.board_lite` for now, 1822CA on
:mod:`desk18xx.engine.map.board`); everything the optimizer reads from a
game goes through this module so that a change there is one change here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from desk18xx.engine.board_lite import Board as LiteBoard
from desk18xx.engine.optimizer.model import CITY, OFFBOARD, TOWN, Problem, Segment, Stop, TrainSpec
from desk18xx.engine.tiledef import Color, NodeKind

_KIND = {NodeKind.CITY: CITY, NodeKind.TOWN: TOWN, NodeKind.OFFBOARD: OFFBOARD}


def lite_problem(
    board: LiteBoard,
    corp: str,
    trains: Iterable[TrainSpec],
    phase_colors: Iterable[str | Color],
) -> Problem:
    """The routing problem of ``corp`` on a :class:`board_lite.Board`."""
    colors = [c if isinstance(c, Color) else Color(c) for c in phase_colors]
    hex_ids = tuple(sorted(board.placed))
    hex_no = {h: i for i, h in enumerate(hex_ids)}
    stops: list[Stop] = []
    stop_at: dict[tuple[str, int], int] = {}
    for h in hex_ids:
        placed = board.placed[h]
        for n, nd in enumerate(placed.tile.nodes):
            kind = _KIND.get(nd.kind)
            if kind is None:
                continue
            tokened = False
            passable = kind == TOWN
            if kind == CITY:
                ci = placed.city_nodes.index(n)
                slots = board.tokens.get(h, [])
                tokened = ci < len(slots) and corp in slots[ci]
                passable = ci >= len(slots) or not board.city_full_for(h, ci, corp)
            stop_at[(h, n)] = len(stops)
            stops.append(Stop(
                index=len(stops), hex=h, node=n, kind=kind,
                revenue=nd.revenue.value(colors), tokened=tokened, passable=passable,
                hex_bit=1 << hex_no[h], groups=tuple(nd.groups),
            ))
    track_no: dict[tuple[Any, ...], int] = {}

    def piece(key: tuple[Any, ...]) -> int:
        if key not in track_no:
            track_no[key] = len(track_no)
        return 1 << track_no[key]

    found: dict[tuple[int, int, int], Segment] = {}

    def add(a: int, b: int, chain: list[str], track: int, passed: int, ta: bool, tb: bool) -> None:
        if a == b:
            return
        if b < a:
            a, b, chain, ta, tb = b, a, chain[::-1], tb, ta
        key = (a, b, track)
        if key not in found:
            found[key] = Segment(0, a, b, tuple(chain), track, passed, ta, tb)

    for (h, n), s in stop_at.items():
        placed = board.placed[h]
        sh = placed.shape
        t_start = n in sh.terminal_nodes
        for m in sh.node_nodes[n]:
            if (h, m) in stop_at:
                add(s, stop_at[(h, m)], [h], piece(("nn", h, min(n, m), max(n, m))), 0,
                    t_start, m in sh.terminal_nodes)
        # walk plain track from each edge of the node
        stack: list[tuple[str, int, list[str], int, int]] = [
            (h, e, [h], 0, 0) for e in sorted(sh.node_edges[n])
        ]
        while stack:
            cur, edge, chain, track, passed = stack.pop()
            nxt = board.neighbour_enterable(cur, edge)
            if nxt is None:
                continue
            h2, back = nxt
            if h2 in chain:
                continue
            key = min((cur, edge), (h2, back))
            track2 = track | piece(("x", *key))
            chain2 = [*chain, h2]
            sh2 = board.placed[h2].shape
            nodes2 = board.placed[h2].tile.nodes
            for m in sorted(sh2.edge_nodes.get(back, ())):
                if nodes2[m].kind is NodeKind.JUNCTION:
                    for g in sorted(sh2.node_edges[m] - {back}):
                        stack.append((h2, g, chain2, track2, passed | 1 << hex_no[h2]))
                    continue
                if (h2, m) in stop_at:
                    add(s, stop_at[(h2, m)], chain2, track2, passed, t_start,
                        m in sh2.terminal_nodes)
            for g in sorted(sh2.edge_edges.get(back, ())):
                stack.append((h2, g, chain2, track2, passed | 1 << hex_no[h2]))
    segments = tuple(
        Segment(i, seg.a, seg.b, seg.hexes, seg.track, seg.passed, seg.terminal_a,
                seg.terminal_b)
        for i, seg in enumerate(sorted(found.values(), key=lambda x: (x.a, x.b, x.hexes)))
    )
    return Problem(corp, tuple(stops), segments, tuple(trains), hex_ids).finish()
