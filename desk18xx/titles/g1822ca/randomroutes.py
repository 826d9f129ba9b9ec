"""Runs for random play: a bounded walk over the track graph finds each train's
routes, kept while the whole run validates by the 1822CA route rules
(``revenue.price_routes``).  Used by the run offer (`.offers`, ``RouteOffer.find``);
the step prices every run again (`G1822CA.check_run`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from desk18xx.engine.actions import Route
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.map.graph import TrackGraph, graph_for
from desk18xx.engine.map.hexgrid import opposite
from desk18xx.engine.map.tiles import NODE
from desk18xx.engine.tiledef import NodeKind
from desk18xx.titles.g1822ca import rules as R

if TYPE_CHECKING:
    from desk18xx.titles.g1822ca.game import G1822CA

Node = tuple[str, int]


def random_run(game: G1822CA, corp: str, rng: random.Random) -> tuple[Route, ...]:
    """A run for random play: each train's best found route, kept only while the whole
    run validates (`revenue.price_routes`)."""
    from desk18xx.titles.g1822ca.revenue import price_routes

    chosen: list[Route] = []
    used: set[tuple[str, int]] = set()
    segments: dict[Node, list[Segment]] = {}
    """The track from each stop to the next ones, walked once per run."""
    for t in game.route_trains(corp):
        if t.name == R.E_TRAIN:
            continue
        candidates = _train_routes(game, corp, t.id, t.name, t.distance, used, rng, segments)
        for _value, route, paths in candidates[:4]:
            try:
                revenues = price_routes(game, corp, [*chosen, route])
            except IllegalAction:
                continue
            priced = [Route(train=r.train, connections=r.connections, hexes=r.hexes,
                            revenue=v, revenue_str=r.revenue_str, nodes=r.nodes)
                      for r, v in zip([*chosen, route], revenues, strict=True)]
            chosen = priced
            used |= paths
            break
    return tuple(chosen)


def _train_routes(game: G1822CA, corp: str, tid: str, name: str, distance: int,
                  used: set[tuple[str, int]], rng: random.Random,
                  segments: dict[Node, list[Segment]] | None = None,
                  ) -> list[tuple[int, Route, set[tuple[str, int]]]]:
    """Candidate routes for one train, best estimated value first."""
    board = game.map
    graph = graph_for(board)
    colors = game.phase_colors()
    starts: list[Node] = []
    for token_hex, city in board.tokens_of(corp):
        starts.append((str(token_hex), board.hex(token_hex).geo.city_nodes[city]))
    if name in R.LOCAL_TRAINS:
        out: list[tuple[int, Route, set[tuple[str, int]]]] = []
        for start_hex, node in starts:
            value = board.hex(start_hex).geo.tile.nodes[node].revenue.value(colors)
            out.append((value, Route(train=tid, connections=(("local", start_hex),),
                                     hexes=(start_hex,), revenue=value, revenue_str=start_hex,
                                     nodes=(f"{start_hex}-{node}",)), set()))
        out.sort(key=lambda x: -x[0])
        return out
    stops_max = distance if distance < 20 else 6
    known: dict[Node, list[Segment]] = {} if segments is None else segments
    found: list[tuple[int, Route, set[tuple[str, int]]]] = []
    budget = [2000]

    def value_of(node: Node) -> int:
        return board.hex(node[0]).geo.tile.nodes[node[1]].revenue.value(colors)

    def dfs(path_nodes: list[Node], chains: list[tuple[str, ...]], paths: set[tuple[str, int]],
            hexes_seen: set[str]) -> None:
        budget[0] -= 1
        if budget[0] <= 0:
            return
        if len(path_nodes) >= 2:
            value = sum(value_of(n) for n in path_nodes)
            found.append((value, Route(
                train=tid, connections=tuple(chains), hexes=tuple(n[0] for n in path_nodes),
                revenue=value, revenue_str="-".join(n[0] for n in path_nodes),
                nodes=tuple(f"{h}-{n}" for h, n in path_nodes)), set(paths)))
        if len(path_nodes) >= stops_max:
            return
        here = path_nodes[-1]
        if len(path_nodes) > 1 and graph.blocks(here[0], here[1], corp):
            return
        found_here = known.get(here)
        if found_here is None:
            found_here = known[here] = _segments(graph, here)
        for end, chain, seg in found_here:
            if end in path_nodes or seg & paths or seg & used:
                continue
            new_hexes = set(chain[1:]) if chain[0] == here[0] else set(chain)
            if (new_hexes - {here[0]}) & hexes_seen:
                continue
            dfs(path_nodes + [end], chains + [chain], paths | seg,
                hexes_seen | new_hexes)

    for start in starts:
        dfs([start], [], set(), {start[0]})
    found.sort(key=lambda x: -x[0])
    return found


Segment = tuple[Node, tuple[str, ...], set[tuple[str, int]]]


def _segments(graph: TrackGraph, start: Node) -> list[Segment]:
    """Track from a stop to each next stop: (end node, hexes, paths)."""
    out: list[Segment] = []
    hid, node = start
    geo = graph.state(hid).geo

    def walk(h: str, p: int, came: int, hexes: list[str], paths: set[tuple[str, int]]) -> None:
        if (h, p) in paths or len(paths) > 40:
            return
        paths = paths | {(h, p)}
        g = graph.state(h).geo
        a, b = g.ends[p]
        other = b if a == came else a
        if other >= NODE:
            n = other - NODE
            if g.kinds[n] is NodeKind.JUNCTION:
                for q in g.node_paths[n]:
                    if q != p:
                        walk(h, q, other, hexes, paths)
                return
            if (h, n) != start:
                out.append(((h, n), tuple(hexes), paths))
            return
        for nid, q in graph.links(h, other):
            walk(nid, q, opposite(other), hexes + [nid] if hexes[-1] != nid else hexes, paths)

    for p in geo.node_paths[node]:
        walk(hid, p, NODE + node, [hid], set())
    return out
