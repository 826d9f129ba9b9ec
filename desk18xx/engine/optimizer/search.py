"""Exact route search: enumerate every legal route, then the best non-overlapping set.

1. **Routes.**  For each distance class of the company's trains (the stop
   kinds that use up distance, :meth:`TitleScoring.distance`), a depth-first
   walk over the contracted track graph lists every simple route that visits
   a token of the company and at most the longest train's distance of
   counted stops.  A route never visits two stops in one hex nor passes a hex
   twice, never passes through an off-board or a city full of other tokens,
   and never reuses a piece of track.  Walks that can no longer reach a token
   within the distance are cut (a lower bound from a shortest-path table).
   Each route is found once from each end and kept from the lower stop.
2. **Prices.**  Each route is priced for each train that can run it with the
   title's scorer; only positive routes are kept, best first.
3. **Assignment.**  A branch and bound over the trains (best single route
   first) picks one route or none per train, with no track piece shared; the
   bound is the sum of the remaining trains' best single routes.  Identical
   trains take routes in increasing order (symmetry).

The first assignment found with the greatest total wins, so ties are broken
by the fixed order of trains and routes (sorted by revenue, then stops).
``progress`` is called now and then with a fraction and the best total so
far; ``cancel`` is polled and the best assignment so far is returned.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from desk18xx.engine.optimizer.model import PlannedRoute, Problem, Segment, Stop, TrainSpec
from desk18xx.engine.optimizer.scoring import TitleScoring

Progress = Callable[[float, int], None]
"""``progress(fraction_done, best_revenue_so_far)``."""


class CancelToken:
    """A flag another thread sets to stop a search (the search returns its best so far)."""

    def __init__(self) -> None:
        self._cancelled = False

    def cancel(self) -> None:
        """Ask the search to stop."""
        self._cancelled = True

    @property
    def cancelled(self) -> bool:
        """True once :meth:`cancel` was called."""
        return self._cancelled

    def __call__(self) -> bool:
        return self._cancelled


class _Stopped(Exception):
    pass


@dataclass(slots=True)
class Candidate:
    """A route a train can run."""

    revenue: int
    track: int
    stops: tuple[int, ...]
    segments: tuple[int, ...]


@dataclass(slots=True)
class Result:
    """The best assignment found."""

    routes: tuple[PlannedRoute, ...]
    revenue: int
    complete: bool
    """False when cancelled: ``routes`` is the best found so far, not proven best."""
    stats: dict[str, float] = field(default_factory=dict)


def _poll(cancel: Callable[[], bool] | None) -> None:
    if cancel is not None and cancel():
        raise _Stopped


def _reachable(problem: Problem) -> list[bool]:
    """Stops a route of the company can touch (walking from its tokens)."""
    stops, segs, adj = problem.stops, problem.segments, problem.adjacency
    seen = [False] * len(stops)
    todo = [s.index for s in stops if s.tokened]
    for s in todo:
        seen[s] = True
    while todo:
        cur = todo.pop()
        if not stops[cur].passable and not stops[cur].tokened:
            continue
        for si in adj[cur]:
            o = segs[si].other(cur)
            if not seen[o]:
                seen[o] = True
                todo.append(o)
    return seen


def _token_distance(problem: Problem, counted: frozenset[str], live: list[bool]) -> list[int]:
    """Per stop, fewest counted stops (excluding itself) on a walk to a token."""
    import heapq

    stops, segs, adj = problem.stops, problem.segments, problem.adjacency
    inf = 1 << 30
    dist = [inf] * len(stops)
    heap: list[tuple[int, int]] = []
    for s in stops:
        if s.tokened and live[s.index]:
            dist[s.index] = 1 if s.kind in counted else 0
            heap.append((dist[s.index], s.index))
    heapq.heapify(heap)
    while heap:
        d, cur = heapq.heappop(heap)
        if d > dist[cur]:
            continue
        st = stops[cur]
        if not st.passable:
            continue
        for si in adj[cur]:
            o = segs[si].other(cur)
            nd = d + (1 if stops[o].kind in counted else 0)
            if nd < dist[o]:
                dist[o] = nd
                heapq.heappush(heap, (nd, o))
    # dist counts the token's own stop and every counted stop after ``cur``; drop ``cur``
    return [d - (1 if d < inf and stops[i].kind in counted else 0) if d < inf else inf
            for i, d in enumerate(dist)]


def enumerate_routes(
    problem: Problem,
    counted: frozenset[str],
    limit: int | None,
    visit: Callable[[list[int], list[int], int, int], None],
    cancel: Callable[[], bool] | None = None,
    progress: Callable[[float], None] | None = None,
) -> int:
    """Call ``visit(stops, segments, track, n_counted)`` once for every legal route.

    Routes hold a token of the company and at most ``limit`` stops of the
    ``counted`` kinds.  Returns the number of routes.
    """
    stops: tuple[Stop, ...] = problem.stops
    segs: tuple[Segment, ...] = problem.segments
    adj = problem.adjacency
    live = _reachable(problem)
    lim = limit if limit is not None else 1 << 30
    to_token = _token_distance(problem, counted, live)
    is_counted = [s.kind in counted for s in stops]
    passable = [s.passable for s in stops]
    tokened = [s.tokened for s in stops]
    hex_bit = [s.hex_bit for s in stops]
    path_stops: list[int] = []
    path_segs: list[int] = []
    found = 0
    polls = 0

    def walk(cur: int, first: int, hexes: int, track: int, n: int, tok: bool) -> None:
        nonlocal found, polls
        if tok and cur > first:
            found += 1
            visit(path_stops, path_segs, track, n)
        if cur != first and not passable[cur]:
            return
        polls += 1
        if polls & 1023 == 0:
            _poll(cancel)
        for si in adj[cur]:
            sg = segs[si]
            if sg.track & track:
                continue
            o = sg.b if sg.a == cur else sg.a
            if hex_bit[o] & hexes or sg.passed & hexes:
                continue
            if sg.terminal_a if sg.a == o else sg.terminal_b:
                # terminal at the far stop: may end there, not pass through
                n2 = n + is_counted[o]
                if n2 <= lim and (tok or tokened[o]) and o > first:
                    path_stops.append(o)
                    path_segs.append(si)
                    found += 1
                    visit(path_stops, path_segs, track | sg.track, n2)
                    path_stops.pop()
                    path_segs.pop()
                continue
            if cur != first and (sg.terminal_a if sg.a == cur else sg.terminal_b):
                continue
            n2 = n + is_counted[o]
            if n2 > lim:
                continue
            t2 = tok or tokened[o]
            if not t2 and n2 + to_token[o] > lim:
                continue
            path_stops.append(o)
            path_segs.append(si)
            walk(o, first, hexes | hex_bit[o] | sg.passed, track | sg.track, n2, t2)
            path_stops.pop()
            path_segs.pop()

    starts = [s.index for s in stops if live[s.index]]
    for k, s in enumerate(starts):
        if progress is not None:
            progress(k / max(1, len(starts)))
        n0 = 1 if is_counted[s] else 0
        if n0 > lim or (not tokened[s] and n0 + to_token[s] > lim):
            continue
        path_stops.append(s)
        walk(s, s, hex_bit[s], 0, n0, tokened[s])
        path_stops.pop()
    return found


def _price_routes(
    problem: Problem,
    scoring: TitleScoring,
    cancel: Callable[[], bool] | None,
    progress: Callable[[float], None] | None,
    best_single: Callable[[int], None] | None = None,
) -> tuple[dict[str, list[Candidate]], int, bool]:
    """Candidate routes per train id, best first; the number of routes; completeness."""
    trains = problem.trains
    by_class: dict[frozenset[str], list[TrainSpec]] = {}
    for t in trains:
        by_class.setdefault(scoring.distance(t).kinds, []).append(t)
    out: dict[str, list[Candidate]] = {t.id: [] for t in trains}
    total = 0
    complete = True
    stops = problem.stops
    for n_class, (kinds, group) in enumerate(sorted(by_class.items(), key=lambda kv: sorted(
            kv[0]))):
        limits = [scoring.distance(t).limit for t in group]
        limit = None if any(x is None for x in limits) else max(x for x in limits if x is not None)
        # trains with the same name and distance share their candidate list
        kinds_of: dict[tuple[str, int | None, int, str], list[TrainSpec]] = {}
        for t, lim in zip(group, limits, strict=True):
            kinds_of.setdefault((t.name, lim, t.multiplier, t.kind), []).append(t)
        cands: list[tuple[TrainSpec, int | None, list[Candidate]]] = [
            (ts[0], key[1], []) for key, ts in kinds_of.items()
        ]
        best = [0]

        def visit(
            ps: list[int], sg: list[int], track: int, n: int,
            cands: list[tuple[TrainSpec, int | None, list[Candidate]]] = cands,
            best: list[int] = best,
        ) -> None:
            visited = [stops[i] for i in ps]
            for train, lim, lst in cands:
                if lim is not None and n > lim:
                    continue
                rev = scoring.revenue(train, visited)
                if rev > 0:
                    lst.append(Candidate(rev, track, tuple(ps), tuple(sg)))
                    if rev > best[0]:
                        best[0] = rev
                        if best_single is not None:
                            best_single(rev)

        def sub(f: float, n_class: int = n_class) -> None:
            if progress is not None:
                progress((n_class + f) / len(by_class))

        try:
            total += enumerate_routes(problem, kinds, limit, visit, cancel, sub)
        except _Stopped:
            complete = False
        for (_name, _lim, _m, _k), ts in kinds_of.items():
            lst = next(c for r, _l, c in cands if r is ts[0])
            lst.sort(key=lambda c: (-c.revenue, c.stops, c.segments))
            for t in ts:
                out[t.id] = lst
        if not complete:
            break
    return out, total, complete


def solve(
    problem: Problem,
    scoring: TitleScoring,
    *,
    progress: Progress | None = None,
    cancel: Callable[[], bool] | None = None,
) -> Result:
    """The routes for the company's trains that earn the most (see the module doc)."""
    t0 = time.perf_counter()
    best_total = [0]

    def note(rev: int) -> None:
        best_total[0] = max(best_total[0], rev)

    def enum_progress(f: float) -> None:
        if progress is not None:
            progress(0.8 * f, best_total[0])

    cands, n_routes, complete = _price_routes(problem, scoring, cancel, enum_progress, note)
    t1 = time.perf_counter()
    trains = sorted(
        problem.trains,
        key=lambda t: (-(cands[t.id][0].revenue if cands[t.id] else 0), t.name, t.id),
    )
    lists = [cands[t.id] for t in trains]
    k = len(trains)
    rest = [0] * (k + 1)
    for i in range(k - 1, -1, -1):
        rest[i] = rest[i + 1] + (lists[i][0].revenue if lists[i] else 0)
    same_as_prev = [i > 0 and lists[i] is lists[i - 1] for i in range(k)]
    best: list[int] = [-1] * k
    best_value = [0]
    choice = [-1] * k
    polls = [0]

    def branch(i: int, used: int, total: int) -> None:
        if i == k:
            if total > best_value[0]:
                best_value[0] = total
                best[:] = choice
                if progress is not None:
                    progress(0.9, total)
            return
        polls[0] += 1
        if polls[0] & 1023 == 0:
            _poll(cancel)
        lst = lists[i]
        start = 0
        if same_as_prev[i]:
            if choice[i - 1] < 0:
                choice[i] = -1
                branch(i + 1, used, total)
                return
            start = choice[i - 1] + 1
        after = rest[i + 1]
        for j in range(start, len(lst)):
            c = lst[j]
            if total + c.revenue + after <= best_value[0]:
                break
            if c.track & used:
                continue
            choice[i] = j
            branch(i + 1, used | c.track, total + c.revenue)
        choice[i] = -1
        if total + after > best_value[0]:
            branch(i + 1, used, total)

    if complete:
        try:
            branch(0, 0, 0)
        except _Stopped:
            complete = False
    else:
        # cancelled while listing routes: a greedy assignment of what was found
        used = 0
        for i, lst in enumerate(lists):
            for j, c in enumerate(lst):
                if not c.track & used:
                    best[i] = j
                    used |= c.track
                    best_value[0] += c.revenue
                    break
    routes = []
    for i, t in enumerate(trains):
        if best[i] >= 0:
            c = lists[i][best[i]]
            routes.append(PlannedRoute(t.id, c.stops, c.segments, c.revenue))
    order = {t.id: n for n, t in enumerate(problem.trains)}
    routes.sort(key=lambda r: order[r.train])
    t2 = time.perf_counter()
    if progress is not None:
        progress(1.0, best_value[0])
    return Result(
        tuple(routes), best_value[0], complete,
        {"routes": float(n_routes), "enumerate_s": t1 - t0, "assign_s": t2 - t1},
    )
