"""Best routes for a company of a replayed game, priced again by the engine.

:func:`best_routes` is what the application calls (off the GUI thread): it
reads the position through :mod:`.adapters`, searches (:func:`.search.solve`)
and prices the answer with the same code the engine uses for declared routes
(:func:`engine_revenues`); the two totals must agree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from desk18xx.engine.actions import Route
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game
from desk18xx.engine.optimizer.model import Problem
from desk18xx.engine.optimizer.scoring import TitleScoring
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


class TitleRouting(Protocol):
    """What the optimizer asks a title about one game (`Game.routing`)."""

    def problem(self, corp: str) -> tuple[Problem, TitleScoring]:
        """The routing problem of ``corp`` now, and its title's scoring.

        Raises:
            Unsupported: the title cannot state this position as a problem.
        """

    def revenues(self, corp: str, routes: Sequence[Route]) -> list[int]:
        """Each route's revenue by the engine's own check.

        Raises:
            IllegalAction: a route is illegal.
        """

    def subsidy(self, corp: str, routes: Sequence[Route]) -> int:
        """What the run earns ``corp`` besides its revenue (1822CA mail contracts)."""


def _routing(game: Game) -> TitleRouting:
    routing = game.routing()
    if routing is None:
        raise Unsupported(f"no route optimizer for {game.title_id} yet")
    return routing


def problem_for(game: Game, corp: str) -> tuple[Problem, TitleScoring]:
    """The routing problem of ``corp`` now, and its title's scoring (the title's
    `TitleRouting`).

    Raises:
        Unsupported: a title the optimizer does not know yet.
    """
    return _routing(game).problem(corp)


def engine_revenues(game: Game, corp: str, routes: Sequence[Route]) -> list[int]:
    """Each route's revenue by the engine's own check (raises IllegalAction if illegal)."""
    return _routing(game).revenues(corp, routes)


def engine_subsidy(game: Game, corp: str, routes: Sequence[Route]) -> int:
    """What the engine pays ``corp`` besides for this run (1822CA mail contracts)."""
    routing = game.routing()
    return 0 if routing is None else routing.subsidy(corp, routes)


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
