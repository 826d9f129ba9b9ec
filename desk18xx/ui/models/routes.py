"""Route building for the map: find the track between two clicked stops.

A route in an action is a list of hex chains between consecutive stops
(18xx.games ``connections``).  The player clicks stops; this module finds a
chain of hexes joining each pair over the engine's track and estimates the
revenue from the stops' printed values.  The engine validates the run and
computes the real revenue when it is submitted.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from desk18xx.engine.actions import Route
from desk18xx.engine.game import Game
from desk18xx.engine.map import board as mboard
from desk18xx.engine.tiledef import Color, NodeKind, TileDef


@dataclass
class TrainRoute:
    """The stops clicked for one train and the chains found between them."""

    train: str
    name: str
    distance: int
    stops: list[str]
    chains: list[tuple[str, ...]]

    def to_route(self) -> Route:
        """The action's route value."""
        return Route(train=self.train, connections=tuple(self.chains))


def _stop_edges(game: Game, hex_id: str) -> set[int]:
    """Edges joined to a stop (city, town, off-board) on ``hex_id``."""
    board = game.board
    assert board is not None
    placed = board.placed[hex_id]
    sh = placed.shape
    out: set[int] = set()
    for i, n in enumerate(placed.tile.nodes):
        if n.kind is not NodeKind.JUNCTION:
            out |= set(sh.node_edges[i])
    return out


def can_build(game: Game) -> bool:
    """True when routes can be built by clicking (the 1867 board; 1822CA later)."""
    return not isinstance(game.board, mboard.Board)


def is_stop(game: Game, hex_id: str) -> bool:
    """True when ``hex_id`` holds a city, town or off-board."""
    board = game.board
    assert board is not None
    placed = board.placed.get(hex_id)
    return placed is not None and any(n.kind is not NodeKind.JUNCTION
                                      for n in placed.tile.nodes)


def find_chain(game: Game, a: str, b: str,
               used: set[tuple[str, int]] | None = None) -> tuple[str, ...] | None:
    """Hexes from stop ``a`` to stop ``b`` along track, or None (breadth first)."""
    board = game.board
    assert board is not None
    used = used or set()
    start_edges = _stop_edges(game, a)
    target_edges = _stop_edges(game, b)
    queue: deque[tuple[str, int, tuple[str, ...]]] = deque()
    for e in sorted(start_edges):
        if (a, e) in used:
            continue
        nxt = board.neighbour_enterable(a, e)
        if nxt is not None:
            queue.append((nxt[0], nxt[1], (a, nxt[0])))
    seen: set[tuple[str, int]] = set()
    while queue:
        hex_id, entry, path = queue.popleft()
        if (hex_id, entry) in seen or len(path) > 40:
            continue
        seen.add((hex_id, entry))
        if hex_id == b and entry in target_edges:
            return path
        sh = board.placed[hex_id].shape
        for out in sorted(sh.edge_edges.get(entry, ())):
            nxt = board.neighbour_enterable(hex_id, out)
            if nxt is not None and nxt[0] not in path:
                queue.append((nxt[0], nxt[1], (*path, nxt[0])))
    return None


def stop_node(game: Game, hex_id: str, toward: str | None) -> tuple[TileDef, int, int] | None:
    """(tile, rotation, node) of the stop on ``hex_id`` joined toward the neighbour
    ``toward`` (any stop when None), for drawing the route through it."""
    from desk18xx.engine.map.hexgrid import edge_between, parse_hex

    board = game.board
    assert board is not None
    placed = board.placed.get(hex_id)
    if placed is None:
        return None
    edge = None if toward is None else edge_between(parse_hex(hex_id), parse_hex(toward))
    sh = placed.shape
    for i, n in enumerate(placed.tile.nodes):
        if n.kind is NodeKind.JUNCTION:
            continue
        if edge is None or edge in sh.node_edges[i]:
            return placed.tile, placed.rotation, i
    return None


def stop_revenue(game: Game, hex_id: str) -> int:
    """Printed value of the best stop on ``hex_id`` in the current phase."""
    board = game.board
    assert board is not None
    colors = [Color(c) for c in game.phase.tiles]
    values = [n.revenue.value(colors) for n in board.placed[hex_id].tile.nodes
              if n.kind is not NodeKind.JUNCTION]
    return max(values, default=0)


def estimate(game: Game, route: TrainRoute) -> int:
    """Sum of the stops' values (the engine's count may differ: towns, bonuses)."""
    return sum(stop_revenue(game, h) for h in route.stops[: max(route.distance, 0) or None])


def price(game: Game, corp: str, routes: list[TrainRoute]) -> tuple[list[int] | None, str]:
    """The engine's revenue for each built route, or None and the engine's objection."""
    from desk18xx.engine.errors import IllegalAction
    from desk18xx.engine.optimizer import Unsupported, engine_revenues

    built = [r for r in routes if r.chains]
    if not built:
        return [], ""
    try:
        return engine_revenues(game, corp, [r.to_route() for r in built]), ""
    except Unsupported:
        return None, ""
    except (IllegalAction, KeyError, ValueError, AssertionError) as exc:
        return None, str(exc)


def best(game: Game, corp: str, cancel: Callable[[], bool] | None = None
         ) -> tuple[list[TrainRoute], int, bool]:
    """The optimizer's routes as editable train routes, their revenue, and whether
    the search finished (False: cancelled, best so far).

    Raises:
        desk18xx.engine.optimizer.Unsupported: no optimizer for this title yet.
    """
    from desk18xx.engine.optimizer import best_routes

    solution = best_routes(game, corp, cancel=cancel)
    out = trains_of(game, corp)
    by_train = {r.train: r for r in solution.routes}
    for tr in out:
        route = by_train.get(tr.train)
        if route is None:
            continue
        tr.chains = [tuple(c) for c in route.connections]
        stops: list[str] = []
        for chain in tr.chains:
            for h in (chain[0], chain[-1]):
                if not stops or stops[-1] != h:
                    stops.append(h)
        tr.stops = stops
    return out, solution.revenue, solution.complete


def trains_of(game: Game, corp: str) -> list[TrainRoute]:
    """An empty route per train of ``corp``."""
    out = []
    for tid in game.corps[corp].trains:
        t = game.trains[tid]
        out.append(TrainRoute(tid, t.name, t.distance, [], []))
    return out
