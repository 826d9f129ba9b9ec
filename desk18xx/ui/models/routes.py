"""Route building for the map: find the track between two clicked stops.

A route in an action is a list of hex chains between consecutive stops
(18xx.games ``connections``).  The player clicks stops; this module finds a
chain of hexes joining each pair over the engine's track and estimates the
revenue from the stops' printed values.  The engine validates the run and
computes the real revenue when it is submitted.
"""

from __future__ import annotations

import time
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from desk18xx.engine.actions import Route
from desk18xx.engine.game import Game
from desk18xx.engine.map.hexgrid import opposite
from desk18xx.engine.map.tiles import NODE, geometry
from desk18xx.engine.tiledef import Color, NodeKind, TileDef


@dataclass
class TrainRoute:
    """The stops clicked for one train and the chains found between them."""

    train: str
    name: str
    distance: int
    stops: list[str]
    chains: list[tuple[str, ...]]
    local: bool = False
    """One stop run on its own (1822CA L-trains: connections ``[["local", hex]]``)."""

    @property
    def built(self) -> bool:
        """True when the route can be priced and run (a chain, or a local stop)."""
        return bool(self.chains) or (self.local and len(self.stops) == 1)

    def to_route(self) -> Route:
        """The action's route value."""
        if not self.chains and self.local and self.stops:
            return Route(train=self.train, connections=((LOCAL, self.stops[0]),))
        return Route(train=self.train, connections=tuple(self.chains))


#: First entry of the connection of a one-stop run (18xx.games ``local``).
LOCAL = "local"


@dataclass(frozen=True, slots=True)
class TileShape:
    """What the route builder reads of a tile at a rotation."""

    exits: frozenset[int]
    node_edges: tuple[frozenset[int], ...]
    """Per node, the edges joined to it."""
    edge_edges: dict[int, frozenset[int]]
    """Edge -> the edges joined to it by plain track."""


def _placed(game: Game, hex_id: str) -> tuple[TileDef, int, TileShape] | None:
    """The tile on ``hex_id``, its rotation and track shape."""
    board = game.board
    if board is None or hex_id not in board:
        return None
    st = board.hex(hex_id)
    return st.tile, st.rotation, _shape(st.tile, st.rotation)


@lru_cache(maxsize=2048)
def _shape(tile: TileDef, rotation: int) -> TileShape:
    geo = geometry(tile, rotation)
    joined: dict[int, set[int]] = {}
    for a, b in geo.ends:
        if a < NODE and b < NODE:
            joined.setdefault(a, set()).add(b)
            joined.setdefault(b, set()).add(a)
    return TileShape(geo.exits, geo.node_edges,
                     {k: frozenset(v) for k, v in joined.items()})


def _enter(game: Game, hex_id: str, edge: int) -> tuple[str, int] | None:
    """The (hex, edge) entered by leaving ``hex_id`` across ``edge``, if track joins."""
    board = game.board
    if board is None:
        return None
    other = board.neighbour(hex_id, edge)
    found = None if other is None else _placed(game, other)
    back = opposite(edge)
    if other is None or found is None or back not in found[2].exits:
        return None
    return other, back


def _stop_edges(game: Game, hex_id: str) -> set[int]:
    """Edges joined to a stop (city, town, off-board) on ``hex_id``."""
    found = _placed(game, hex_id)
    if found is None:
        return set()
    tile, _rotation, sh = found
    out: set[int] = set()
    for i, n in enumerate(tile.nodes):
        if n.kind is not NodeKind.JUNCTION:
            out |= set(sh.node_edges[i])
    return out


def can_build(game: Game) -> bool:
    """True when routes can be built by clicking (a board the helpers here can walk)."""
    return game.board is not None


def is_stop(game: Game, hex_id: str) -> bool:
    """True when ``hex_id`` holds a city, town or off-board."""
    found = _placed(game, hex_id)
    return found is not None and any(n.kind is not NodeKind.JUNCTION
                                     for n in found[0].nodes)


def _through(found: tuple[TileDef, int, TileShape], entry: int) -> set[int]:
    """Edges a train entering across ``entry`` may leave by without stopping: plain
    track, or track meeting at a junction (1822CA tile 83)."""
    tile, _rotation, sh = found
    out = set(sh.edge_edges.get(entry, ()))
    for i, n in enumerate(tile.nodes):
        if n.kind is NodeKind.JUNCTION and entry in sh.node_edges[i]:
            out |= sh.node_edges[i] - {entry}
    return out


def find_chain(game: Game, a: str, b: str,
               used: set[tuple[str, int]] | None = None) -> tuple[str, ...] | None:
    """Hexes from stop ``a`` to stop ``b`` along track, or None (breadth first)."""
    used = used or set()
    start_edges = _stop_edges(game, a)
    target_edges = _stop_edges(game, b)
    queue: deque[tuple[str, int, tuple[str, ...]]] = deque()
    for e in sorted(start_edges):
        if (a, e) in used:
            continue
        nxt = _enter(game, a, e)
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
        found = _placed(game, hex_id)
        if found is None:
            continue
        for out in sorted(_through(found, entry)):
            nxt = _enter(game, hex_id, out)
            if nxt is not None and nxt[0] not in path:
                queue.append((nxt[0], nxt[1], (*path, nxt[0])))
    return None


def stop_node(game: Game, hex_id: str, toward: str | None) -> tuple[TileDef, int, int] | None:
    """(tile, rotation, node) of the stop on ``hex_id`` joined toward the neighbour
    ``toward`` (any stop when None), for drawing the route through it."""
    from desk18xx.engine.map.hexgrid import edge_between, parse_hex

    found = _placed(game, hex_id)
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


def stop_revenue(game: Game, hex_id: str) -> int:
    """Printed value of the best stop on ``hex_id`` in the current phase."""
    found = _placed(game, hex_id)
    if found is None:
        return 0
    colors = [Color(c) for c in game.view().phase_tiles()]
    values = [n.revenue.value(colors) for n in found[0].nodes
              if n.kind is not NodeKind.JUNCTION]
    return max(values, default=0)


def estimate(game: Game, route: TrainRoute) -> int:
    """Sum of the stops' values (the engine's count may differ: towns, bonuses)."""
    return sum(stop_revenue(game, h) for h in route.stops[: max(route.distance, 0) or None])


def price(game: Game, corp: str, routes: list[TrainRoute]) -> tuple[list[int] | None, str]:
    """The engine's revenue for each built route, or None and the engine's objection."""
    from desk18xx.engine.errors import IllegalAction
    from desk18xx.engine.optimizer import Unsupported, engine_revenues

    built = [r for r in routes if r.built]
    if not built:
        return [], ""
    try:
        return engine_revenues(game, corp, [r.to_route() for r in built]), ""
    except Unsupported:
        return None, ""
    except (IllegalAction, KeyError, ValueError, AssertionError) as exc:
        return None, str(exc)


def mail_subsidy(game: Game, corp: str, routes: list[TrainRoute]) -> int:
    """What the engine pays ``corp`` besides the revenue for the built routes (1822CA
    mail contracts, ``G1822CA.mail_subsidy``); 0 for other titles or an illegal run."""
    from desk18xx.engine.errors import IllegalAction
    from desk18xx.engine.optimizer import engine_subsidy

    built = [r.to_route() for r in routes if r.built]
    if not built:
        return 0
    try:
        return engine_subsidy(game, corp, built)
    except (IllegalAction, KeyError, ValueError, AssertionError):
        return 0


def earnings(revenue: int, subsidy: int) -> str:
    """``$revenue``, with the mail subsidy and the sum when there is one."""
    if not subsidy:
        return f"${revenue}"
    return f"${revenue} + ${subsidy} mail = ${revenue + subsidy}"


def runs_local(game: Game, corp: str, route: TrainRoute) -> bool:
    """True when the engine accepts the one stop of ``route`` as a run of its own."""
    from desk18xx.engine.errors import IllegalAction
    from desk18xx.engine.optimizer import Unsupported, engine_revenues

    if len(route.stops) != 1:
        return False
    one = Route(train=route.train, connections=((LOCAL, route.stops[0]),))
    try:
        engine_revenues(game, corp, [one])
    except (Unsupported, IllegalAction, KeyError, ValueError, AssertionError):
        return False
    return True


def best(game: Game, corp: str, cancel: Callable[[], bool] | None = None,
         progress: Callable[[float, int], None] | None = None,
         ) -> tuple[list[TrainRoute], int, bool]:
    """The optimizer's routes as editable train routes, their revenue, and whether
    the search finished (False: cancelled, best so far).  ``progress(fraction,
    best so far)`` is called now and then (from the thread the search runs in).

    Raises:
        desk18xx.engine.optimizer.Unsupported: no optimizer for this title yet.
    """
    from desk18xx.engine.optimizer import best_routes

    solution = best_routes(game, corp, cancel=cancel, progress=progress)
    out = trains_of(game, corp)
    by_train = {r.train: r for r in solution.routes}
    for tr in out:
        route = by_train.get(tr.train)
        if route is None:
            continue
        tr.chains = [tuple(c) for c in route.connections]
        if len(tr.chains) == 1 and tr.chains[0][0] == LOCAL:
            tr.stops, tr.chains, tr.local = [tr.chains[0][-1]], [], True
            continue
        stops: list[str] = []
        for chain in tr.chains:
            for h in (chain[0], chain[-1]):
                if not stops or stops[-1] != h:
                    stops.append(h)
        tr.stops = stops
    return out, solution.revenue, solution.complete


ATTACH_BUDGET = 0.5
"""CPU seconds :func:`attachment_runs` may spend on the GUI thread (or a worker's)."""


class AttachmentRuns(dict[str, tuple[int, bool]]):
    """What :func:`attachment_runs` answers: choice -> (best run, search finished).

    Filled at once, or empty and filled later, on the GUI thread, when a
    background search took the question (:func:`register_attachment_search`).
    """


AttachmentSearch = Callable[[Game, str], "AttachmentRuns | None"]
"""``search(game, corp)``: an (empty, filled later) answer if it takes the question,
else None."""

_SEARCHES: list[weakref.WeakMethod[AttachmentSearch]] = []


def register_attachment_search(search: AttachmentSearch) -> None:
    """Let a bound method ``search`` answer :func:`attachment_runs` in the background
    (held weakly: it stops when its object goes; a search declines games not its own)."""
    _SEARCHES[:] = [w for w in _SEARCHES if w() is not None]
    _SEARCHES.append(weakref.WeakMethod(search))


def attachment_runs(game: Game, corp: str, budget: float = ATTACH_BUDGET
                    ) -> AttachmentRuns:
    """For each attachment choice open to ``corp`` now (1822CA's Pullman, then its
    grain train; ``choose`` values), the best run found once it is made: revenue plus
    mail, and whether the search finished in ``budget`` CPU seconds.  A Pullman
    choice counts the best grain-train choice after it.  Empty for other titles or
    when the optimizer cannot price the position.

    When a registered background search takes the question (the window's
    :class:`~desk18xx.ui.routeworker.AttachmentHints`), the answer comes back
    empty at once and is filled when that search is done.
    """
    if not game.view().attach_labels(corp):
        return AttachmentRuns()
    for ref in list(_SEARCHES):
        search = ref()
        taken = search(game, corp) if search is not None else None
        if taken is not None:
            return taken
    return search_attachment_runs(game, corp, budget)


def search_attachment_runs(game: Game, corp: str, budget: float = ATTACH_BUDGET,
                           cancel: Callable[[], bool] | None = None,
                           clock: Callable[[], float] = time.process_time
                           ) -> AttachmentRuns:
    """:func:`attachment_runs` searched now, in ``budget`` seconds of ``clock`` (a
    worker thread passes ``time.thread_time``) or until ``cancel`` says stop; ``game``
    is not changed."""
    from desk18xx.engine.actions import Choose
    from desk18xx.engine.errors import IllegalAction
    from desk18xx.engine.optimizer import Unsupported, best_routes

    labels = game.view().attach_labels
    deadline = clock() + budget

    def late() -> bool:
        return clock() > deadline or (cancel is not None and cancel())

    def after(g: Game, choice: str) -> Game:
        out = g.copy()
        out.process(Choose(entity=corp, entity_type="corporation", choice=choice))
        return out

    def best_of(g: Game) -> tuple[int, bool]:
        more = g.view().attach_labels(corp)
        if more:
            runs = [best_of(after(g, c)) for c in more]
            return max(r[0] for r in runs), all(r[1] for r in runs)
        sol = best_routes(g, corp, cancel=late, verify=False)
        return sol.revenue + sol.subsidy, sol.complete

    try:
        return AttachmentRuns({c: best_of(after(game, c)) for c in labels(corp)})
    except (Unsupported, IllegalAction, KeyError, ValueError, AssertionError):
        return AttachmentRuns()


def trains_of(game: Game, corp: str) -> list[TrainRoute]:
    """An empty route per train of ``corp`` that runs (1822CA: not the Pullman or the
    grain train, which only go with another train, RB 5.11.12, 5.11.20)."""
    out = []
    view = game.view()
    for tid in view.route_trains(corp):
        t = view.train(tid)
        if t is not None:
            out.append(TrainRoute(tid, t.name, t.distance, [], []))
    return out
