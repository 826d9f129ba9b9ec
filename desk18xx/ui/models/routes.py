"""Route building for the map: the clicked stops of each train and what the engine
says of them.

A route in an action is a list of hex chains between consecutive stops
(18xx.games ``connections``).  The player clicks stops; the engine finds the chain
of hexes joining each pair (`desk18xx.engine.map.stops`), prices the routes and
says why a run is not legal (`desk18xx.engine.optimizer.engine_revenues`).  No
rule is decided here.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass

from desk18xx.engine.actions import Route
from desk18xx.engine.game import Game
from desk18xx.engine.map import stops
from desk18xx.engine.tiledef import TileDef


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


def can_build(game: Game) -> bool:
    """True when routes can be built by clicking (a board the helpers here can walk)."""
    return game.board is not None


def is_stop(game: Game, hex_id: str) -> bool:
    """True when ``hex_id`` holds a city, town or off-board (`desk18xx.engine.map.stops`)."""
    board = game.board
    return board is not None and stops.is_stop(board, hex_id)


def find_chain(game: Game, a: str, b: str,
               used: set[tuple[str, int]] | None = None) -> tuple[str, ...] | None:
    """Hexes from stop ``a`` to stop ``b`` along track, or None
    (`desk18xx.engine.map.stops.find_chain`)."""
    board = game.board
    return None if board is None else stops.find_chain(board, a, b, used or ())


def stop_node(game: Game, hex_id: str, toward: str | None) -> tuple[TileDef, int, int] | None:
    """(tile, rotation, node) of the stop on ``hex_id`` joined toward ``toward``, for
    drawing the route through it (`desk18xx.engine.map.stops.stop_node`)."""
    board = game.board
    return None if board is None else stops.stop_node(board, hex_id, toward)


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
