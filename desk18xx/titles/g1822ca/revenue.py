"""1822CA route rules on the map engineer's route model (RB 5.9-5.11; supplement §6.1, §8.1).

Hooks of :class:`desk18xx.engine.map.routes.RouteRules`: L/LP local runs,
E-trains (own-token cities only, doubled, own track group), Pullman and grain
attachments, grain-elevator and port bonuses, the destination bonus (one
train), the sawmill (one train), and the double-town hexes a route may
visit twice.  18xx ``G1822::Game#revenue_for``/``check_distance`` and
``G1822CA::Game#revenue_for``/``grain_and_port_bonus``/``sawmill_bonus``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from desk18xx.engine.actions import Route as RecordedRoute
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.map.routes import (
    DistancePart,
    Route,
    RouteContext,
    RouteRules,
    RouteSpec,
    Stop,
    Train,
    check_routes,
    parse_routes,
)
from desk18xx.titles.g1822ca import rules as R

if TYPE_CHECKING:
    from desk18xx.titles.g1822ca.game import G1822CA

ANY_STOP = frozenset({"city", "offboard", "town"})


class Rules1822CA(RouteRules):
    """Route rules of one company's run."""

    distinct_hexes = True

    def __init__(self, game: G1822CA, corp: str) -> None:
        self.game = game
        self.corp = corp
        self.repeat_hexes = frozenset(game.rules.double_town_hexes)
        self.grain_train = game.train_with_grain
        self.pullman_train = game.train_with_pullman
        self.home, self.destination = _home_and_destination(game, corp)

    # -- distances -----------------------------------------------------------------------
    def stop_type(self, ctx: RouteContext, stop: Stop, train: Train) -> str:
        if train.id == self.grain_train and stop.hex in self.game.rules.grain_elevators:
            return "grain_elevator"
        return stop.kind.value

    def overlap_group(self, train: Train) -> str:
        return "E" if train.name == R.E_TRAIN else ""

    def check_route(self, ctx: RouteContext, route: Route) -> None:
        if route.train.name != R.E_TRAIN:
            return
        tokened = [s for s in route.visits if s.kind.value == "city" and s.tokened_by(self.corp)]
        if len(tokened) < 2:
            raise IllegalAction("E-train route must have at least 2 tokened cities")
        ends = (route.visits[0], route.visits[-1])
        if not all(s.kind.value == "city" and s.tokened_by(self.corp) for s in ends):
            raise IllegalAction("E-train route must start and end at tokened cities")

    def check_combination(self, ctx: RouteContext, routes: Sequence[Route]) -> None:
        """Only one L-train may operate on each station token (RB 5.11.10; 18xx
        ``check_local_cities``: no city twice among the local runs)."""
        seen: set[tuple[str, int]] = set()
        for route in routes:
            if not route.train.local:
                continue
            for stop in route.visits:
                if stop.kind.value != "city":
                    continue
                if stop.ref in seen:
                    raise IllegalAction(
                        f"Local train can only use each token on {stop.hex} once (RB 5.11.10)")
                seen.add(stop.ref)

    def check_distance(self, ctx: RouteContext, route: Route) -> None:
        if route.train.name == R.E_TRAIN:
            return
        super().check_distance(ctx, route)

    # -- revenue -------------------------------------------------------------------------
    def select_stops(self, ctx: RouteContext, route: Route) -> tuple[Stop, ...]:
        if route.train.name == R.E_TRAIN:
            return tuple(s for s in route.visits
                         if s.kind.value == "city" and s.tokened_by(self.corp))
        return super().select_stops(ctx, route)

    def revenue(self, ctx: RouteContext, route: Route, stops: Sequence[Stop]) -> int:
        base = sum(s.revenue for s in stops) * route.train.multiplier
        base += self.grain_and_port(route, stops)
        dest = self.destination_bonus(ctx)
        if dest is not None and dest[0] is route:
            base += dest[1]
        saw = self.sawmill_bonus(ctx)
        if saw is not None and saw[0] is route:
            base += saw[1]
        return base

    def grain_and_port(self, route: Route, stops: Sequence[Stop]) -> int:
        """Elevators and ports (supplement §8.1 last bullet; P26/P27 grain train)."""
        if self.game.is_minor(self.corp) or route.train.name == R.E_TRAIN \
                or route.train.id == self.pullman_train:
            return 0
        g = self.game.rules
        elevators = sum(1 for s in stops if s.hex in g.grain_elevators)
        if not elevators:
            return 0
        ports = int(any(s.hex in g.east_ports for s in stops)) + int(
            any(s.hex in g.west_ports for s in stops))
        if route.train.id == self.grain_train:
            return 20 * ports
        return 10 * elevators + 10 * ports

    def destination_bonus(self, ctx: RouteContext) -> tuple[Route, int] | None:
        """The best route joining home and destination earns the destination again."""
        if self.home is None or self.destination is None:
            return None
        best: tuple[Route, int] | None = None
        for route in ctx.routes:
            refs = {s.ref for s in route.visits}
            if self.home in refs and self.destination in refs:
                stop = next(s for s in route.visits if s.ref == self.destination)
                value = stop.revenue * route.train.multiplier
                if best is None or value >= best[1]:  # ties: the later route (sort_by.reverse)
                    best = (route, value)
        return best

    def sawmill_bonus(self, ctx: RouteContext) -> tuple[Route, int] | None:
        """P13: +$20 open / +$10 closed on the best route through the sawmill hex."""
        g = self.game
        if g.sawmill_hex is None or not g.sawmill_bonus:
            return None
        if g.sawmill_owner is not None and g.sawmill_owner != self.corp:
            return None
        dest = self.destination_bonus(ctx)
        best: tuple[Route, int] | None = None
        for route in ctx.routes:
            stop = next((s for s in route.visits if s.hex == g.sawmill_hex), None)
            if stop is None:
                continue
            etrain = route.train.name == R.E_TRAIN
            if etrain and not stop.tokened_by(self.corp):
                continue
            mult = 2 if (dest is not None and dest[0] is route
                         and stop.ref == self.destination) else 1
            mult *= 2 if etrain else 1
            value = g.sawmill_bonus * mult
            if best is None or value >= best[1]:
                best = (route, value)
        return best


def _home_and_destination(game: G1822CA, corp: str
                          ) -> tuple[tuple[str, int] | None, tuple[str, int] | None]:
    """Node refs of the home token and the destination token of a major."""
    if not game.is_major(corp) or corp not in game.destinated:
        return None, None
    board = game.map
    home_tok = game.corps[corp].tokens[0]
    home: tuple[str, int] | None = None
    dest: tuple[str, int] | None = None
    for st in board:
        for c in range(len(st.tokens)):
            node = st.geo.city_nodes[c]
            for t in list(st.tokens[c]) + list(st.extra_tokens[c]):
                if t is None or t.corp != corp:
                    continue
                if t.kind == "destination":
                    dest = (st.hex_id, node)
                elif st.hex_id == home_tok.hex and home is None:
                    home = (st.hex_id, node)
    return home, dest


def route_train(game: G1822CA, tid: str) -> Train:
    """The route model's view of one of our trains (attachments included)."""
    t = game.trains[tid]
    if t.name in R.LOCAL_TRAINS:
        dist: int | tuple[DistancePart, ...] = (DistancePart(frozenset({"city"}), 1, 1),
                                                DistancePart(frozenset({"town"}), 1, 1))
    else:
        dist = t.distance
    if tid == game.train_with_pullman and isinstance(dist, int):
        dist = (DistancePart(frozenset({"town"}), 2 * dist, 2 * dist),
                DistancePart(ANY_STOP, dist, dist))
    if tid == game.train_with_grain:
        parts = dist if not isinstance(dist, int) else (DistancePart(ANY_STOP, dist, dist),)
        dist = (DistancePart(frozenset({"grain_elevator"}), 12, 12), *parts)
    return Train(tid, t.name, dist, t.multiplier, local=t.name in R.LOCAL_TRAINS)


def price_routes(game: G1822CA, corp: str, routes: Sequence[RecordedRoute]) -> list[int]:
    """Validate a recorded run and return each route's revenue.

    Raises:
        IllegalAction: a route does not match the track or breaks a rule.
    """
    rules = Rules1822CA(game, corp)
    trains = {r.train: route_train(game, r.train) for r in routes}
    specs = [RouteSpec(r.train, tuple(tuple(c) for c in r.connections), tuple(r.nodes or ()))
             for r in routes]
    colors = game.phase_colors()
    parsed = parse_routes(game.map, corp, specs, trains, colors, rules)
    return check_routes(game.map, corp, parsed, colors, rules)
