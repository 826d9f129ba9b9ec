"""Train routes: parse, validate and price them (18xx.games ``Route#revenue``).

A route is a train plus its ``connections`` as 18xx.games records them in
``run_routes`` (export format §5.2, §6.5).  :func:`parse_route` turns them
into a :class:`Route` on the board; :func:`check_routes` validates all of a
company's routes together and returns each one's revenue.

Generic rules (RB 5.4, 5.11; 1867 §6.6): at least two stops, a token of the
company, one stop per group, no node twice, no terminal passed through, no
full foreign city or off-board passed through, the train's distance, and no
track used twice among the company's routes (lanes allow as many routes as
they have lanes).  Title differences (1867 towns as fillers and Timmins,
1822CA E-trains, destinations, grain and ports, mail) go in a
:class:`RouteRules` subclass that overrides the named hooks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.ids import HexId
from desk18xx.engine.map.board import Board
from desk18xx.engine.map.chains import Chain, resolve_chains
from desk18xx.engine.map.graph import NodeRef, PathRef, TrackGraph, graph_for
from desk18xx.engine.map.tiles import NODE
from desk18xx.engine.tiledef import Color, NodeKind


@dataclass(frozen=True, slots=True)
class DistancePart:
    """One row of a multi-part train distance (18xx.games ``distance`` hash)."""

    nodes: frozenset[str]
    """Stop types counted by this row (``"city"``, ``"town"``, ``"offboard"`` …)."""
    pay: int
    """How many of them earn revenue."""
    visit: int
    """How many may be visited (99: any number)."""


@dataclass(frozen=True, slots=True)
class Train:
    """What the route code needs to know about a train."""

    id: str
    """``"2-0"``."""
    name: str
    """``"2"``, ``"5+5E"``, ``"L"`` …"""
    distance: int | tuple[DistancePart, ...]
    multiplier: int = 1
    local: bool = False
    """May run inside one tokened city (1822 L-train, ``[["local", hex]]``)."""
    requires_token: bool = True


@dataclass(frozen=True, slots=True)
class Stop:
    """A node a route visits, with what pricing needs."""

    hex: HexId
    node: int
    kind: NodeKind
    revenue: int
    """Printed value in the current phase (before any multiplier)."""
    visit_cost: int
    groups: tuple[str, ...]
    corps: tuple[str, ...]
    """Companies with a token here (cities only)."""

    @property
    def ref(self) -> NodeRef:
        """(hex, node)."""
        return (self.hex, self.node)

    @property
    def signature(self) -> str:
        """18xx.games node signature ``"L12-0"``."""
        return f"{self.hex}-{self.node}"

    def tokened_by(self, corp: str) -> bool:
        """A token of ``corp`` is here."""
        return corp in self.corps


@dataclass(frozen=True, slots=True)
class Route:
    """A route on the board (geometry resolved, not yet validated)."""

    train: Train
    corp: str
    chains: tuple[Chain, ...]
    visits: tuple[Stop, ...]
    """Every node visited, in travel order, each once (``visited_stops``)."""

    @property
    def paths(self) -> tuple[PathRef, ...]:
        """All paths, in travel order."""
        return tuple(p for ch in self.chains for p in ch.paths)

    @property
    def hexes(self) -> tuple[HexId, ...]:
        """Hexes of the visited nodes in order (``route.hexes``)."""
        out: list[HexId] = []
        for ch in self.chains:
            for h, _ in (ch.left, ch.right):
                if not out or out[-1] != h:
                    out.append(h)
        return tuple(out)

    @property
    def is_local(self) -> bool:
        """A local run: one stop, no track or a loop back to it (1822 L and LP trains)."""
        return len(self.chains) == 1 and self.chains[0].left == self.chains[0].right

    def connections(self) -> list[list[str]]:
        """The route as 18xx.games ``connections`` (travel order)."""
        if self.is_local and not self.chains[0].paths:
            return [["local", self.chains[0].left[0]]]
        return [ch.hex_ids() for ch in self.chains]

    def revenue_str(self) -> str:
        """``"L12-L10-M9"``."""
        return "-".join(self.hexes)

    def node_signatures(self) -> list[str]:
        """Signatures of the visited nodes."""
        return [s.signature for s in self.visits]


@dataclass(frozen=True, slots=True)
class RouteSpec:
    """A route as recorded in a ``run_routes`` action."""

    train: str
    connections: tuple[tuple[str, ...], ...]
    nodes: tuple[str, ...] = ()


@dataclass(slots=True)
class RouteContext:
    """What hooks may look at while routes are checked."""

    board: Board
    graph: TrackGraph
    corp: str
    phase_colors: tuple[Color, ...]
    routes: list[Route] = field(default_factory=list)
    """All routes of this run, in order."""


class RouteRules:
    """Generic route rules; a title subclasses this and overrides hooks.

    Attributes:
        distinct_hexes: a route may not visit two nodes in one hex (1867 Impl
            "Route visits same hex twice"; 1822 except ``repeat_hexes``).
        repeat_hexes: hexes exempt from ``distinct_hexes`` (1822CA DOUBLE_HEX).
    """

    distinct_hexes: bool = False
    repeat_hexes: frozenset[str] = frozenset()

    def stop_type(self, ctx: RouteContext, stop: Stop, train: Train) -> str:
        """The type a stop counts as for distances (``stop_type``)."""
        return stop.kind.value

    def check_token(self, ctx: RouteContext, route: Route) -> None:
        """Raise unless the route includes a token of the company (RB 5.11.6)."""
        if route.train.requires_token and not any(s.tokened_by(ctx.corp) for s in route.visits):
            raise IllegalAction("Route must contain a token of the company")

    def check_distance(self, ctx: RouteContext, route: Route) -> None:
        """Raise if the train cannot reach this many stops (``check_distance``)."""
        check_distance(self, ctx, route)

    def check_route(self, ctx: RouteContext, route: Route) -> None:
        """Title checks on one route (``check_other``)."""

    def check_combination(self, ctx: RouteContext, routes: Sequence[Route]) -> None:
        """Title checks on all routes together (``check_route_combination``)."""

    def overlap_group(self, train: Train) -> str:
        """Routes in different groups may share track (1822 E-trains)."""
        return ""

    def select_stops(self, ctx: RouteContext, route: Route) -> tuple[Stop, ...]:
        """The stops that earn revenue (``compute_stops``)."""
        return best_stops(self, ctx, route)

    def stop_revenue(self, ctx: RouteContext, route: Route, stop: Stop) -> int:
        """What one counted stop earns on this train."""
        return stop.revenue * route.train.multiplier

    def revenue(self, ctx: RouteContext, route: Route, stops: Sequence[Stop]) -> int:
        """Revenue of a route with these counted stops (``revenue_for``)."""
        return sum(self.stop_revenue(ctx, route, s) for s in stops)


# --- building routes


def stop_at(board: Board, node: NodeRef, phase_colors: Sequence[Color]) -> Stop:
    """The :class:`Stop` view of a node."""
    st = board.hex(node[0])
    nd = st.tile.nodes[node[1]]
    corps: tuple[str, ...] = ()
    if node[1] in st.geo.city_nodes:
        corps = tuple(t.corp for t in st.city_tokens(st.geo.city_nodes.index(node[1])))
    return Stop(
        hex=node[0],
        node=node[1],
        kind=nd.kind,
        revenue=nd.revenue.value(phase_colors),
        visit_cost=nd.visit_cost,
        groups=nd.groups,
        corps=corps,
    )


def parse_route(
    board: Board,
    train: Train,
    connections: Sequence[Sequence[str]],
    *,
    corp: str,
    phase_colors: Sequence[Color],
    nodes: Sequence[str] = (),
    used: Sequence[PathRef] = (),
    require_token: bool = True,
) -> Route:
    """Resolve a recorded route on ``board``.

    Args:
        nodes: the recorded node signatures (break ties between readings).
        used: track of the company's routes parsed before this one.
        require_token: a one-connection route must touch ``corp``'s token
            (as 18xx.games rebuilds it); False only for tests and tools.

    Raises:
        IllegalAction: the connections do not match the track.
    """
    graph = graph_for(board)
    if len(connections) == 1 and len(connections[0]) == 2 and connections[0][0] == "local":
        if not train.local:
            raise IllegalAction(f"A {train.name} train cannot make a local run")
        hid = connections[0][1]
        st = board.hex(hid)
        for c, n in enumerate(st.geo.city_nodes):
            if any(t.corp == corp for t in st.city_tokens(c)) or not require_token:
                node = (HexId(hid), n)
                chains: tuple[Chain, ...] = (Chain(node, node, ()),)
                return Route(train, corp, chains, (stop_at(board, node, phase_colors),))
        raise IllegalAction(f"{corp} has no token in {hid}")
    chains = resolve_chains(
        graph, connections, corp=corp, used=used, signatures=nodes, require_token=require_token
    )
    seen: list[NodeRef] = []
    for ch in chains:
        for ref in ch.nodes:
            if ref not in seen:
                seen.append(ref)
    return Route(train, corp, chains, tuple(stop_at(board, r, phase_colors) for r in seen))


def parse_routes(
    board: Board,
    corp: str,
    specs: Sequence[RouteSpec],
    trains: Mapping[str, Train],
    phase_colors: Sequence[Color],
    rules: RouteRules | None = None,
) -> list[Route]:
    """Resolve every route of a ``run_routes`` action, in order.

    Track used by an earlier route of the same ``rules.overlap_group`` is not
    used again when reading a later one.

    Raises:
        IllegalAction: an unknown train, or track that does not match.
    """
    out: list[Route] = []
    used: dict[str, list[PathRef]] = {}
    for spec in specs:
        train = trains.get(spec.train)
        if train is None:
            raise IllegalAction(f"{corp} has no train {spec.train}")
        group = rules.overlap_group(train) if rules is not None else ""
        r = parse_route(
            board,
            train,
            spec.connections,
            corp=corp,
            phase_colors=phase_colors,
            nodes=spec.nodes,
            used=used.get(group, []),
        )
        out.append(r)
        used.setdefault(group, []).extend(r.paths)
    return out


# --- checks


def check_routes(
    board: Board,
    corp: str,
    routes: Sequence[Route],
    phase_colors: Sequence[Color],
    rules: RouteRules,
) -> list[int]:
    """Validate a company's routes and return each one's revenue.

    Raises:
        IllegalAction: a route breaks a rule; the message says which.
    """
    ctx = RouteContext(board, graph_for(board), corp, tuple(phase_colors), list(routes))
    trains = [r.train.id for r in routes]
    dup = [t for t, n in Counter(trains).items() if n > 1]
    if dup:
        raise IllegalAction(f"Train {dup[0]} runs more than once")
    out: list[int] = []
    for route in routes:
        check_route(ctx, route, rules)
    check_overlap(ctx, routes, rules)
    rules.check_combination(ctx, routes)
    for route in routes:
        stops = rules.select_stops(ctx, route)
        out.append(rules.revenue(ctx, route, stops) if stops else 0)
    return out


def check_route(ctx: RouteContext, route: Route, rules: RouteRules) -> None:
    """The checks of 18xx.games ``Route#revenue`` on one route."""
    visits = route.visits
    if len(visits) < 2 and not (route.train.local and route.is_local):
        raise IllegalAction("Route must have at least 2 stops")
    rules.check_token(ctx, route)
    groups = Counter(g for s in visits for g in s.groups)
    for g, n in groups.items():
        if n > 1:
            raise IllegalAction(f"Route may visit {g} only once")
    ordered = route.paths
    for h, p in ordered[1:-1]:
        if ctx.graph.state(h).geo.terminal[p]:
            raise IllegalAction(f"Route cannot pass through the terminus in {h}")
    rules.check_route(ctx, route)
    if not route.is_local:
        seen: set[NodeRef] = set()
        for ch in route.chains:
            seen.add(ch.left)
            if ch.right in seen:
                raise IllegalAction(f"Route cannot use {ch.right[0]} twice")
            seen.add(ch.right)
    if rules.distinct_hexes:
        counts = Counter(route.hexes)
        if any(n > 1 and h not in rules.repeat_hexes for h, n in counts.items()):
            raise IllegalAction("Route visits the same hex twice")
    rules.check_distance(ctx, route)
    for ch in route.chains[1:]:
        h, n = ch.left
        if ctx.graph.blocks(h, n, ctx.corp):
            raise IllegalAction(f"Route cannot pass through {h}")


def check_distance(rules: RouteRules, ctx: RouteContext, route: Route) -> None:
    """18xx.games ``check_distance`` (numbers or multi-part distances)."""
    visits = route.visits
    dist = route.train.distance
    if isinstance(dist, int):
        used = sum(s.visit_cost for s in visits)
        if used > dist:
            raise IllegalAction(f"{used} is too many stops for a {route.train.name} train")
        return
    room = [p.visit for p in dist]
    grouped: dict[str, int] = {}
    for s in visits:
        t = rules.stop_type(ctx, s, route.train)
        grouped[t] = grouped.get(t, 0) + s.visit_cost
    by_rows = sorted(grouped.items(), key=lambda kv: sum(1 for d in dist if kv[0] in d.nodes))
    for t, num in by_rows:
        for i, d in enumerate(dist):
            if t not in d.nodes or room[i] <= 0:
                continue
            take = min(num, room[i])
            room[i] -= take
            num -= take
            if num <= 0:
                break
        if num > 0:
            raise IllegalAction(f"Route has too many stops for a {route.train.name} train")


def check_overlap(ctx: RouteContext, routes: Sequence[Route], rules: RouteRules) -> None:
    """No track is used by more routes than it has lanes (``check_overlap``)."""
    use: dict[tuple[str, tuple[HexId, int, int]], int] = {}
    cap: dict[tuple[str, tuple[HexId, int, int]], int] = {}
    for route in routes:
        group = rules.overlap_group(route.train)
        for h, p in route.paths:
            geo = ctx.graph.state(h).geo
            a, b = geo.ends[p]
            keys = [(h, e, -1) for e in (a, b) if e < NODE]
            if a >= NODE and b >= NODE:
                keys.append((h, -1, p))
            for k in keys:
                key = (group, k)
                use[key] = use.get(key, 0) + 1
                cap[key] = max(cap.get(key, 1), geo.lanes[p])
                if use[key] > cap[key]:
                    raise IllegalAction(f"Routes cannot reuse track in {h}")


# --- stops


def best_stops(rules: RouteRules, ctx: RouteContext, route: Route) -> tuple[Stop, ...]:
    """18xx.games base ``compute_stops``: the best legal choice of paying stops."""
    visits = route.visits
    dist = route.train.distance
    if isinstance(dist, int):
        return visits
    if not visits:
        return ()
    rows = sorted(dist, key=lambda d: len(d.nodes))
    most = min(sum(d.pay for d in rows), len(visits))
    for n in range(most, 0, -1):
        best: tuple[int, tuple[Stop, ...]] | None = None
        for combo in combinations(visits, n):
            if route.train.requires_token and not any(s.tokened_by(ctx.corp) for s in combo):
                continue
            filled = [0] * len(rows)
            ok = True
            for s in combo:
                t = rules.stop_type(ctx, s, route.train)
                i = next(
                    (i for i, d in enumerate(rows) if t in d.nodes and filled[i] < d.pay), None
                )
                if i is None:
                    ok = False
                    break
                filled[i] += 1
            if not ok:
                continue
            value = rules.revenue(ctx, route, combo)
            if best is None or value > best[0]:
                best = (value, combo)
        if best is not None and best[0] > 0:
            return best[1]
    return ()


def fill_optional_stops(
    rules: RouteRules, ctx: RouteContext, route: Route, mandatory_types: frozenset[str], pay: int
) -> tuple[Stop, ...]:
    """1867 ``compute_stops``: all mandatory stops, then the best optional ones to fill ``pay``.

    Mandatory stops are those whose type is in ``mandatory_types`` (cities
    and off-boards); towns only fill unused places.  If no mandatory stop
    has the company's token, a chosen optional stop must (5+5E).
    """
    visits = route.visits
    mandatory = tuple(
        s for s in visits if rules.stop_type(ctx, s, route.train) in mandatory_types
    )
    optional = tuple(s for s in visits if s not in mandatory)
    if len(mandatory) >= pay:
        return mandatory
    need_token = not any(s.tokened_by(ctx.corp) for s in mandatory)
    left = pay - len(mandatory)
    combos = list(combinations(optional, left)) or [optional]
    if left > len(optional):
        combos = [optional]
    best: tuple[int, tuple[Stop, ...]] | None = None
    for combo in combos:
        if need_token and not any(s.tokened_by(ctx.corp) for s in combo):
            continue
        stops = mandatory + tuple(combo)
        value = rules.revenue(ctx, route, stops)
        if best is None or value > best[0]:
            best = (value, stops)
    if best is None or best[0] <= 0:
        return ()
    return best[1]
