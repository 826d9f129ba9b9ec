"""Best routes for a company of a replayed game, priced again by the engine.

:func:`best_routes` is what the application calls (off the GUI thread): it
reads the position through :mod:`.adapters`, searches (:func:`.search.solve`)
and prices the answer with the same code the engine uses for declared routes
(:func:`engine_revenues`); the two totals must agree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from desk18xx.engine.actions import Route
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game
from desk18xx.engine.optimizer.adapters import lite_problem
from desk18xx.engine.optimizer.model import Problem, TrainSpec
from desk18xx.engine.optimizer.scoring import Scoring1867, TitleScoring
from desk18xx.engine.optimizer.search import Progress, Result, solve


class Unsupported(Exception):
    """The optimizer does not know this title yet."""


class Mismatch(AssertionError):
    """The search and the engine's scorer disagree on a route (an optimizer bug)."""


@dataclass(frozen=True, slots=True)
class Solution:
    """The best routes of one company."""

    corp: str
    routes: tuple[Route, ...]
    """As a ``run_routes`` action would declare them (``revenue`` filled)."""
    revenue: int
    """The routes' revenue (what ``run_routes`` declares)."""
    complete: bool
    """False when cancelled: the best found so far, not proven best."""
    stats: dict[str, float]
    subsidy: int = 0
    """What the run earns the treasury besides (1822CA mail contracts); the routes
    maximise ``revenue + subsidy`` (RB 5.11.28 allows a lower revenue for more mail)."""


def problem_for(game: Game, corp: str) -> tuple[Problem, TitleScoring]:
    """The routing problem of ``corp`` now, and its title's scoring.

    Raises:
        Unsupported: a title the optimizer does not know yet.
    """
    if game.title_id == "1867":
        from desk18xx.engine.board_lite import Board as LiteBoard

        board = game.board
        if not isinstance(board, LiteBoard):
            raise Unsupported("1867 board model not recognised")
        trains = [
            TrainSpec(t.id, t.name, t.distance, t.multiplier, "express" if t.express else "normal")
            for t in game.trains.values()
            if t.owner == corp and not t.rusted
        ]
        bonus: dict[str, int] = {}
        for cid in game.corps[corp].companies:
            company = game.companies[cid]
            if company.bonus_hexes and not company.closed:
                for h in company.bonus_hexes:
                    bonus[h] = bonus.get(h, 0) + company.bonus_amount
        problem = lite_problem(board, corp, trains, game.phase.tiles)
        return problem, Scoring1867(hex_bonus=bonus)
    if game.title_id.startswith("1822CA"):
        return _problem_1822ca(game, corp)
    raise Unsupported(f"no route optimizer for {game.title_id} yet")


def _problem_1822ca(game: Game, corp: str) -> tuple[Problem, TitleScoring]:
    from desk18xx.engine.map.board import Board as MapBoard
    from desk18xx.engine.optimizer.adapters import map_problem
    from desk18xx.engine.optimizer.scoring_1822ca import Scoring1822CA, Train1822
    from desk18xx.titles.g1822ca import rules as R
    from desk18xx.titles.g1822ca.revenue import _home_and_destination, route_train

    gm: Any = game
    board = gm.map
    if not isinstance(board, MapBoard):
        raise Unsupported("1822CA board model not recognised")
    specs: list[TrainSpec] = []
    infos: dict[str, Train1822] = {}
    for t in gm.route_trains(corp):
        rt = route_train(gm, t.id)
        parts = None if isinstance(rt.distance, int) else tuple(
            (frozenset(p.nodes), p.visit) for p in rt.distance)
        base = rt.distance if isinstance(rt.distance, int) else sum(p.visit for p in rt.distance)
        kind = "E" if t.name == R.E_TRAIN else "local" if t.name in R.LOCAL_TRAINS else "normal"
        if t.id == gm.train_with_pullman:
            kind += "+pullman"
            base = t.distance if isinstance(t.distance, int) else base
        if t.id == gm.train_with_grain:
            kind += "+grain"
        specs.append(TrainSpec(t.id, t.name, base, t.multiplier, kind))
        infos[t.id] = Train1822(
            parts=parts, e_train=t.name == R.E_TRAIN, local=t.name in R.LOCAL_TRAINS,
            grain=t.id == gm.train_with_grain, pullman=t.id == gm.train_with_pullman,
        )
    rules = gm.rules
    home, destination = _home_and_destination(gm, corp)
    saw_hex = gm.sawmill_hex if gm.sawmill_bonus and (
        gm.sawmill_owner is None or gm.sawmill_owner == corp) else None
    owned = gm.corps[corp].companies if gm.is_major(corp) else ()
    scoring = Scoring1822CA(
        trains=infos, major=gm.is_major(corp),
        grain_elevators=frozenset(rules.grain_elevators),
        east_ports=frozenset(rules.east_ports), west_ports=frozenset(rules.west_ports),
        home=home, destination=destination, sawmill_hex=saw_hex,
        sawmill_bonus=gm.sawmill_bonus or 0,
        mail_large=sum(1 for c in owned if c in R.PRIVATE_MAIL_CONTRACTS),
        mail_small=sum(1 for c in owned if c in R.PRIVATE_SMALL_MAIL_CONTRACTS),
        mail_small_value=rules.small_mail_subsidy.get(gm.phase.name, 0),
    )
    problem = map_problem(board, corp, specs, gm.phase_colors(),
                          repeat_hexes=rules.double_town_hexes)
    return problem, scoring


def engine_revenues(game: Game, corp: str, routes: Sequence[Route]) -> list[int]:
    """Each route's revenue by the engine's own check (raises IllegalAction if illegal)."""
    if game.title_id == "1867":
        from desk18xx.titles.g1867 import revenue as r1867

        return r1867.check_routes(game, corp, tuple(routes))  # type: ignore[arg-type]
    if game.title_id.startswith("1822CA"):
        from desk18xx.titles.g1822ca.revenue import price_routes

        return price_routes(game, corp, routes)  # type: ignore[arg-type]
    raise Unsupported(f"no route pricing for {game.title_id} yet")


def engine_subsidy(game: Game, corp: str, routes: Sequence[Route]) -> int:
    """What the engine pays ``corp`` besides for this run (1822CA mail contracts)."""
    if not game.title_id.startswith("1822CA"):
        return 0
    from types import SimpleNamespace

    gm: Any = game
    if not gm.is_major(corp):
        return 0
    # the dividend step reads only the run's stops per train (OperatingRound.route_nodes)
    run = SimpleNamespace(route_nodes={r.train: gm.route_stops(r) for r in routes})
    return int(gm.mail_subsidy(corp, run))


def to_routes(problem: Problem, result: Result) -> tuple[Route, ...]:
    """The solution as ``run_routes`` routes."""
    out = []
    for r in result.routes:
        conns = tuple(tuple(c) for c in r.connections(problem))
        hexes = tuple(r.hexes(problem))
        nodes = tuple(problem.stops[s].signature for s in r.stops)
        out.append(Route(train=r.train, connections=conns, hexes=hexes, revenue=r.revenue,
                         revenue_str="-".join(hexes), nodes=nodes))
    return tuple(out)


def best_routes(
    game: Game,
    corp: str,
    *,
    progress: Progress | None = None,
    cancel: Callable[[], bool] | None = None,
    verify: bool = True,
) -> Solution:
    """The routes that earn ``corp`` the most now (a pure function of the position).

    Reads ``game`` at the start (the position) and at the end (pricing); off
    the GUI thread, pass a snapshot (``game.copy()``) the GUI does not change.

    Args:
        progress: called with (fraction done, best revenue so far).
        cancel: polled; when it returns True the best routes so far come back
            with ``complete=False``.
        verify: price the answer with the engine's scorer and raise
            :class:`Mismatch` if it differs.
    """
    problem, scoring = problem_for(game, corp)
    result = solve(problem, scoring, progress=progress, cancel=cancel)
    routes = to_routes(problem, result)
    if verify and routes:
        try:
            priced = engine_revenues(game, corp, routes)
        except IllegalAction as exc:
            raise Mismatch(f"{corp}: the engine rejects our routes: {exc}: "
                           f"{[r.to_dict() for r in routes]}") from exc
        if sum(priced) != result.revenue:
            raise Mismatch(f"{corp}: we price {result.revenue}, the engine {sum(priced)}: "
                           f"{[r.to_dict() for r in routes]}")
        subsidy = engine_subsidy(game, corp, routes)
        if subsidy != result.subsidy:
            raise Mismatch(f"{corp}: we count {result.subsidy} mail, the engine {subsidy}: "
                           f"{[r.to_dict() for r in routes]}")
    return Solution(corp, routes, result.revenue, result.complete, dict(result.stats),
                    result.subsidy)


def describe(solution: Solution) -> dict[str, Any]:
    """Plain data for JSON output."""
    return {
        "corp": solution.corp,
        "revenue": solution.revenue,
        "subsidy": solution.subsidy,
        "complete": solution.complete,
        "routes": [r.to_dict() for r in solution.routes],
    }
