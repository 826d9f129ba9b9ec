"""Route validation and revenue for 1867 (card: "OR Run trains").

A declared route is a list of chains of hexes between consecutive stops
(export format §6.5).  We check that every step of every chain follows
track on the current tiles, that no hex is visited twice, and we recompute
the revenue: an n-train counts its cities and off-boards (at most n) and
fills free places with the best towns; 2+2 doubles; 5+5E counts up to five
off-boards, fills up to five with the best cities/towns (one must hold a
token unless five off-boards), doubled; Timmins with a capital +40×mult;
hex-bonus privates +10 per route.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from desk18xx.engine.actions import Route
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.map.hexgrid import edge_between, opposite, parse_hex
from desk18xx.engine.tiledef import NodeKind
from desk18xx.titles.g1867 import board as B
from desk18xx.titles.g1867 import rules as R

if TYPE_CHECKING:
    from desk18xx.titles.g1867.game import G1867

Stop = tuple[str, int]  # (hex, node)


def _edge(a: str, b: str) -> int:
    try:
        e = edge_between(parse_hex(a), parse_hex(b))
    except ValueError:
        e = None
    if e is None:
        raise IllegalAction(f"route: {a} and {b} are not neighbours")
    return e


def _stop_node(game: G1867, hex_id: str, edges: list[int]) -> int:
    """The node on ``hex_id`` joined to all ``edges`` (a stop)."""
    assert game.board is not None
    geo = game.board.hex(hex_id).geo
    candidates = [i for i, n in enumerate(geo.tile.nodes)
                  if n.kind is not NodeKind.JUNCTION and set(edges) <= geo.node_edges[i]]
    if not candidates:
        raise IllegalAction(f"route: no stop on {hex_id} joins its track")
    return candidates[0]


def _walk_through(game: G1867, hex_id: str, e_in: int, e_out: int) -> None:
    """Passing ``hex_id`` from ``e_in`` to ``e_out`` must follow plain track."""
    assert game.board is not None
    geo = game.board.hex(hex_id).geo
    if e_out in B.edge_edges(geo).get(e_in, ()):
        return
    raise IllegalAction(f"route: no track through {hex_id} from edge {e_in} to {e_out}")


def route_stops(game: G1867, route: Route) -> list[Stop]:
    """Validate the chains of ``route`` and return its stops in order."""
    assert game.board is not None
    chains = [c for c in route.connections if len(c) >= 2]
    if not chains:
        raise IllegalAction(f"route of {route.train} has no track")
    ends: dict[str, list[int]] = {}
    hexes_seen: list[str] = []
    for chain in chains:
        for i, h in enumerate(chain):
            if h not in game.board:
                raise IllegalAction(f"route: {h} is not on the map")
            if i + 1 < len(chain):
                e = _edge(h, chain[i + 1])
                if B.neighbour_enterable(game.board, h, e) is None or e not in \
                        game.board.hex(h).geo.exits:
                    raise IllegalAction(f"route: no track between {h} and {chain[i + 1]}")
            if 0 < i < len(chain) - 1:
                _walk_through(game, h, _edge(h, chain[i - 1]), _edge(h, chain[i + 1]))
        ends.setdefault(chain[0], []).append(_edge(chain[0], chain[1]))
        ends.setdefault(chain[-1], []).append(_edge(chain[-1], chain[-2]))
        hexes_seen.extend(chain[1:-1])
    stops_hexes: list[str] = []
    for chain in chains:
        for h in (chain[0], chain[-1]):
            if h not in stops_hexes:
                stops_hexes.append(h)
    if len(set(hexes_seen + stops_hexes)) != len(hexes_seen) + len(stops_hexes):
        raise IllegalAction("Route visits same hex twice")
    stops: list[Stop] = []
    for h in stops_hexes:
        node = _stop_node(game, h, ends[h])
        kind = game.board.hex(h).tile.nodes[node].kind
        if kind is NodeKind.OFFBOARD and len(ends[h]) > 1:
            raise IllegalAction(f"route passes through off-board {h}")
        stops.append((h, node))
    if len(stops) < 2:
        raise IllegalAction("Route must have at least 2 stops")
    groups: list[str] = []
    for h, node in stops:
        groups.extend(game.board.hex(h).tile.nodes[node].groups)
    if len(groups) != len(set(groups)):
        raise IllegalAction("a route may visit only one stop of a group (Detroit)")
    corp = route_owner(game, route)
    if not any(_tokened(game, corp, s) for s in stops):
        raise IllegalAction("Route must contain token")
    # a full city of another company blocks passing through it
    for h, node in stops:
        st = game.board.hex(h)
        if st.tile.nodes[node].kind is NodeKind.CITY and len(ends[h]) > 1:
            ci = st.geo.city_nodes.index(node)
            if B.city_full_for(game.board, h, ci, route_owner(game, route)):
                raise IllegalAction(f"route passes through a full city on {h}")
    return stops


def _tokened(game: G1867, corp: str, stop: Stop) -> bool:
    assert game.board is not None
    geo = game.board.hex(stop[0]).geo
    if stop[1] not in geo.city_nodes:
        return False
    return corp in B.slots(game.board, stop[0], geo.city_nodes.index(stop[1]))


def route_owner(game: G1867, route: Route) -> str:
    """Owner of the route's train."""
    return game.trains[route.train].owner


def stop_value(game: G1867, stop: Stop) -> int:
    """Revenue of a stop in the current phase."""
    assert game.board is not None
    h, node = stop
    return game.board.hex(h).tile.nodes[node].revenue.value(
        [_color(c) for c in game.phase.tiles])


def _color(name: str):  # type: ignore[no-untyped-def]
    from desk18xx.engine.tiledef import Color

    return Color(name)


def revenue_for(game: G1867, corp: str, route: Route, stops: list[Stop]) -> int:
    """Best revenue of ``stops`` for the route's train (18xx ``compute_stops``)."""
    assert game.board is not None
    train = game.trains[route.train]
    kinds = {s: game.board.hex(s[0]).tile.nodes[s[1]].kind for s in stops}
    if train.express:
        mandatory = [s for s in stops if kinds[s] is NodeKind.OFFBOARD]
        optional = [s for s in stops if kinds[s] is not NodeKind.OFFBOARD]
        pay = train.distance
    else:
        mandatory = [s for s in stops if kinds[s] in (NodeKind.CITY, NodeKind.OFFBOARD)]
        optional = [s for s in stops if kinds[s] is NodeKind.TOWN]
        pay = train.distance
        if len(mandatory) > pay:
            raise IllegalAction(f"{route.train} cannot reach {len(mandatory)} stops")
    if len(mandatory) > pay:
        raise IllegalAction(f"{route.train} counts at most {pay} off-boards")

    def tokened(s: Stop) -> bool:
        board = game.board
        assert board is not None
        if kinds[s] is not NodeKind.CITY:
            return False
        ci = board.hex(s[0]).geo.city_nodes.index(s[1])
        return corp in B.slots(board, s[0], ci)

    if len(mandatory) == pay:
        chosen_sets = [mandatory]
    else:
        need_token = train.express and not any(tokened(s) for s in mandatory)
        k = pay - len(mandatory)
        combos = list(combinations(optional, min(k, len(optional))))
        chosen_sets = []
        for combo in combos:
            if need_token and not any(tokened(s) for s in combo):
                continue
            chosen_sets.append(mandatory + list(combo))
    best = 0
    for chosen in chosen_sets:
        best = max(best, _value(game, corp, train.multiplier, chosen))
    return best


def _value(game: G1867, corp: str, mult: int, stops: list[Stop]) -> int:
    base = sum(stop_value(game, s) for s in stops) * mult
    hexes = {s[0] for s in stops}
    for cid in game.corps[corp].companies:
        company = game.companies[cid]
        if company.bonus_hexes and not company.closed:
            base += sum(company.bonus_amount for h in hexes if h in company.bonus_hexes)
    if R.BONUS_REVENUE in hexes and hexes & set(R.BONUS_CAPITALS):
        base += 40 * mult
    return base


def check_routes(game: G1867, corp: str, routes: tuple[Route, ...]) -> list[int]:
    """Validate every route and return the recomputed revenues.

    Raises:
        IllegalAction: a route is illegal, two routes share track, or a stored
            revenue differs from ours.
    """
    revenues: list[int] = []
    used_edges: set[tuple[str, int]] = set()
    seen_trains: set[str] = set()
    for route in routes:
        train = game.trains.get(route.train)
        if train is None or train.owner != corp:
            raise IllegalAction(f"{corp} does not own train {route.train}")
        if route.train in seen_trains:
            raise IllegalAction(f"train {route.train} runs twice")
        seen_trains.add(route.train)
        stops = route_stops(game, route)
        if route.hexes is not None and set(route.hexes) != {h for h, _n in stops}:
            raise IllegalAction(f"route of {route.train}: the file's stops "
                                f"{'-'.join(route.hexes)} are not the track's stops")
        # two trains may not share a piece of track (checked per hex side)
        for chain in route.connections:
            for a, b in zip(chain, chain[1:], strict=False):
                e = _edge(a, b)
                for side in ((a, e), (b, opposite(e))):
                    if side in used_edges and side[0] == a:
                        raise IllegalAction(f"routes share track between {a} and {b}")
                used_edges.add((a, e))
                used_edges.add((b, opposite(e)))
        rev = revenue_for(game, corp, route, stops)
        if route.revenue is not None and route.revenue != rev:
            raise IllegalAction(
                f"route of {route.train} earns ${rev} by our count, the file says "
                f"${route.revenue}")
        revenues.append(rev)
    return revenues
