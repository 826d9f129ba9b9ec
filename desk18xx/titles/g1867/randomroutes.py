"""Random routes for random play: a `RouteOffer`'s ``find`` in 1867 (`.offers`).

A route is a random simple walk from one of the company's stations, stopping at a
city, town or off-board area; a run keeps each train's route only when the run
with it is still legal (`desk18xx.titles.g1867.revenue.check_routes`), so every
run drawn here is accepted.  Deterministic under the generator.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from desk18xx.engine.actions import Route
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.tiledef import NodeKind
from desk18xx.titles.g1867 import board as B
from desk18xx.titles.g1867.revenue import check_routes

if TYPE_CHECKING:
    from desk18xx.titles.g1867.game import G1867


def random_run(game: G1867, corp: str, rng: random.Random) -> tuple[Route, ...]:
    """Routes for one random run of ``corp``: a random simple route per train that
    has not run this round, kept when the run with it is still legal."""
    routes: list[Route] = []
    for tid in game.corps[corp].trains:
        if game.trains[tid].operated:
            continue  # bought from a company that already ran it this round
        route = random_route(game, corp, tid, rng)
        if route is None:
            continue
        try:
            check_routes(game, corp, tuple(routes + [route]))
        except IllegalAction:
            continue
        routes.append(route)
    return tuple(routes)


def random_route(game: G1867, corp: str, tid: str, rng: random.Random) -> Route | None:
    """A random simple route from one of the company's stations."""
    assert game.board is not None
    board = game.board
    train = game.trains[tid]
    starts = [(h, board.hex(h).geo.city_nodes[c]) for h, c, _s in B.corp_tokens(board, corp)]
    if not starts:
        return None
    h0, n0 = rng.choice(starts)
    chains: list[tuple[str, ...]] = []
    visited = {h0}
    cur_hex, cur_node = h0, n0
    counted = 1
    for _ in range(12):
        sh = board.hex(cur_hex).geo
        options = sorted(sh.node_edges[cur_node])
        rng.shuffle(options)
        advanced = False
        for e in options:
            chain = [cur_hex]
            h, edge = cur_hex, e
            stop: tuple[str, int] | None = None
            seen = set(visited)
            while True:
                nxt = B.neighbour_enterable(board, h, edge)
                if nxt is None:
                    break
                h2, back = nxt
                if h2 in seen:
                    break
                chain.append(h2)
                seen.add(h2)
                psh = board.hex(h2).geo
                nodes = B.edge_nodes(psh).get(back)
                if nodes:
                    stop = (h2, min(nodes))
                    break
                onward = sorted(B.edge_edges(psh).get(back, ()))
                if not onward:
                    break
                h, edge = h2, rng.choice(onward)
            if stop is None:
                continue
            chains.append(tuple(chain))
            visited.update(chain)
            cur_hex, cur_node = stop
            kind = board.hex(cur_hex).tile.nodes[cur_node].kind
            if kind is not NodeKind.TOWN:
                counted += 1
            advanced = True
            break
        if not advanced:
            break
        kind = board.hex(cur_hex).tile.nodes[cur_node].kind
        if kind is NodeKind.OFFBOARD or (not train.express and counted >= train.distance):
            break
        if kind is NodeKind.CITY and B.city_full_for(
                board, cur_hex, board.hex(cur_hex).geo.city_nodes.index(cur_node), corp):
            break
        if rng.random() < 0.3:
            break
    if not chains:
        return None
    return Route(train=tid, connections=tuple(chains))
