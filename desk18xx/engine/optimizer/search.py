"""Exact route search: list the legal routes worth having, then the best non-clashing set.

1. **Routes.**  Per distance class of the company's trains (which stops use
   distance, :meth:`TitleScoring.distance`), a depth-first walk over the
   contracted track graph (:class:`Segment` = stop to stop over plain track)
   lists routes from their lowest-numbered token outwards, first growing
   one end, then for each such half the other end (so each route once).  A
   route never visits two stops of one hex, never passes through an
   off-board, a full foreign city or a terminal path, and never reuses a
   piece of track.  The walk goes from stop to stop: the segments between
   two stops are taken together, and a partial route carries every way over
   track still open to it (alternatives; one that uses a subset of another's
   hexes and track is dropped), so parallel track does not multiply the walk,
   only the routes it lists.  Branches are cut by an upper bound: ``multiplier x
   (values so far + the best values the places left can add) + bonus``
   against the revenue a route needs to be kept (for unbounded trains, with
   only the stops still reachable), where the best values are those an open
   end can reach with the distance it has left (:class:`_Near`).  Each route is
   priced by the title's
   scorer (:meth:`TitleScoring.variants`: revenue and the extra resource bits
   of one-per-run bonuses).  Trains that earn only at tokened cities (1822CA
   E-trains, :meth:`TitleScoring.contractible`) walk a graph of tokened
   cities joined by subset-minimal links instead (:mod:`.contract`).
2. **First pass.**  Each train kind keeps its best 48 routes (its floor rises
   as they come), a train alone in its track group its best route per bonus
   pattern.  A greedy start (each train the best route on the track left,
   every train first once, up to four trains) and a branch and bound over the
   kept routes, each cut list with a phantom (a route of key ``floor - 1`` that
   clashes with nothing, standing for all it left out), give a lower bound
   ``LB``; an answer without a phantom is proven best at once.
3. **Proof.**  A better answer needs train ``t`` to earn at least
   ``LB + 1 - (what the other trains can earn together)``; kinds whose kept list
   does not reach that low are listed again down to it.  Then a greedy start on
   the whole lists may raise ``LB``, and a route stays only if its key plus, for
   each other train, the best route of its list that leaves it free exceeds
   ``LB`` (:func:`_consistent`: most of the long lists go); the branch and bound
   runs on what is left.  Its bound at each level is the sum, over the trains
   left, of the best route not clashing with the track taken (bit sets per
   segment).  Identical trains take routes in order.

**Run bonus.**  A company may earn besides its routes' revenue, depending on
the whole set of routes (1822CA mail contracts: :meth:`TitleScoring.run_bonus`).
The search maximises revenue plus that bonus: each route carries its own
mail value and a ``key``, the most it can earn the company (revenue plus
:meth:`TitleScoring.run_bonus_cap`); lists, floors and bounds use keys, the
branch and bound also bounds ``revenues + the most the whole bonus can be``,
and every complete assignment is priced exactly.  In pattern mode a route is
kept if it is the best of its pattern by revenue, or by revenue plus its own
mail value.

The first assignment found with the greatest total wins, so ties are broken
by the fixed order of trains and routes (revenue, then stops).  ``progress``
is called now and then with a fraction and the best total so far; ``cancel``
is polled and the best assignment found so far comes back (``complete`` False).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from desk18xx.engine.optimizer.model import (
    CITY,
    PlannedRoute,
    Problem,
    Segment,
    Stop,
    TrainSpec,
)
from desk18xx.engine.optimizer.scoring import Distance, TitleScoring

STRONG = False
NODES = [0]
"""Walk steps taken so far (all searches; a measure of work for benchmarks)."""

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


Prices = dict[tuple[str, tuple[int, ...]], tuple[int | None, list[tuple[int, int]]]]
"""(train id, stops in order) -> the scorer's mail value and variants for that route;
the same stops are often reached over other track, and the passes list routes again."""


@dataclass(slots=True)
class Candidate:
    """A route a train can run."""

    revenue: int
    track: int
    stops: tuple[int, ...]
    segments: tuple[int, ...]
    key: int = -1
    """Most the route can earn the company: ``revenue`` plus the most a run bonus
    (mail contract) can add for it (:meth:`TitleScoring.run_bonus_cap`); -1: ``revenue``."""
    mail: int | None = None
    """The route's own value for the run bonus (:meth:`TitleScoring.mail_value`)."""
    phantom: bool = False
    """Stands for every route a list left out (all worth less than ``key``), clashing
    with nothing: an assignment with it bounds every assignment with one of them."""

    def __post_init__(self) -> None:
        if self.key < 0:
            self.key = self.revenue


@dataclass(slots=True)
class Result:
    """The best assignment found."""

    routes: tuple[PlannedRoute, ...]
    revenue: int
    """The routes' revenue (what ``run_routes`` declares)."""
    complete: bool
    """False when cancelled: ``routes`` is the best found so far, not proven best."""
    stats: dict[str, float] = field(default_factory=dict)
    subsidy: int = 0
    """What the run earns the company besides (1822CA mail contracts); the search
    maximises ``revenue + subsidy``."""


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


@dataclass(slots=True)
class _Rep:
    """Trains that run the same routes for the same money (one list for all of them)."""

    train: TrainSpec
    limit: int | None
    paying: int
    mult: int
    bonus: int
    keep: int
    """Keep only the best ``keep`` routes (0: every route at or above ``floor``)."""
    floor: int = 1
    """Revenue a route needs to be kept; rises as the best-``keep`` heap fills."""
    heap: list[tuple[int, tuple[int, ...], int, tuple[int, ...], int, int | None]] = field(
        default_factory=list)
    """(key, negated stops, bits, segments, revenue, mail) of the best ``keep`` routes."""
    routes: list[Candidate] = field(default_factory=list)
    best: int = 0
    group: int = 0
    """Overlap group (:meth:`TitleScoring.group`): where its routes' track bits lie."""
    patterns: list[tuple[int, int]] | None = None
    """Alone in its overlap group: its track clashes with nothing, so only the best
    route per extra-bit pattern matters; (pattern key, most bonus it can add).  A key
    is ``extra << 1`` (best by revenue) or ``extra << 1 | 1`` (best by revenue plus its
    mail value, when a large mail contract may go to the route)."""
    pattern_best: dict[int, tuple[int, tuple[int, ...], int, tuple[int, ...], int, int | None]
                       ] = field(default_factory=dict)
    """Per pattern key: (value compared, stops, bits, segments, revenue, mail)."""
    flags: tuple[int, ...] = (0,)
    """Pattern flags in use (``(0, 1)`` when a large mail contract may go to the route)."""
    mail_cap: int = 0
    """What the bonus of a flag-1 pattern key counts for the mail value (most of any route)."""
    thresholds: list[int] = field(default_factory=lambda: [1 << 60, 1 << 60])
    """Per flag, the least ``best of a pattern - its bonus``: a route must exceed it."""

    def offer(self, scoring: TitleScoring, rev: int, extra: int, mail: int | None,
              stops: tuple[int, ...], bits: int, segs: tuple[int, ...]) -> None:
        """Pattern mode: keep the route if it is the best of its pattern (ties: fewer stops)."""
        for f in self.flags:
            if f and mail is None:
                continue
            cmp = rev + mail if f and mail is not None else rev
            k = extra << 1 | f
            old = self.pattern_best.get(k)
            if old is None or cmp > old[0] or (cmp == old[0] and stops < old[1]):
                self.pattern_best[k] = (cmp, stops, bits, segs, rev, mail)
                self.update_thresholds()
        key = rev + scoring.run_bonus_cap(self.train, mail)
        if key > self.best:
            self.best = key

    def update_thresholds(self) -> None:
        """:attr:`thresholds` from :attr:`pattern_best`."""
        assert self.patterns is not None
        out = [1 << 60, 1 << 60]
        for k, bonus in self.patterns:
            v = self.pattern_best.get(k, (0,))[0] - bonus
            if v < out[k & 1]:
                out[k & 1] = v
        self.thresholds = out

    def hopeless(self, most: int, cut: int) -> bool:
        """Pattern mode: no route whose revenue before bonuses is at most ``most`` can be
        kept (``cut``: how far its mail value stays below :attr:`mail_cap`)."""
        thr = self.thresholds
        return most <= thr[0] and most <= thr[1] + cut

    def pattern_routes(self, scoring: TitleScoring) -> list[Candidate]:
        """The kept routes of pattern mode, each once."""
        out: dict[tuple[tuple[int, ...], tuple[int, ...], int], Candidate] = {}
        for _cmp, st, bits, sg, rev, mail in self.pattern_best.values():
            out[(st, sg, bits)] = Candidate(rev, bits, st, sg,
                                            rev + scoring.run_bonus_cap(self.train, mail), mail)
        return list(out.values())


def _walk(
    problem: Problem,
    scoring: TitleScoring,
    dist: Distance,
    reps: list[_Rep],
    cancel: Callable[[], bool] | None,
    progress: Callable[[float], None] | None,
    used: int = 0,
    cache: Prices | None = None,
) -> int:
    """List every legal route of the distance class ``dist`` worth keeping for ``reps``.

    A route holds a token of the company and at most the longest ``limit``
    distance; branches that cannot reach a rep's ``floor`` (by the bound
    ``mult x (values so far + best values still payable) + bonus``) are cut.
    ``used``: resource bits taken by other trains (with one rep only).
    ``cache``: the scorer's answers so far (shared by the walks of one search).
    Returns the number of routes priced.
    """
    import heapq
    from operator import neg

    if not used and all(r.patterns is not None and scoring.contractible(r.train) for r in reps):
        return _walk_tokens(problem, scoring, reps, cancel, progress)
    stops: tuple[Stop, ...] = problem.stops
    segs: tuple[Segment, ...] = problem.segments
    adj = problem.adjacency
    live = _reachable(problem)
    limits = [r.limit for r in reps]
    lim = 1 << 30 if any(x is None for x in limits) else max(x for x in limits if x is not None)
    counted, free = dist.kinds, dist.free
    is_counted = [s.cost if s.kind in counted and s.hex not in free else 0 for s in stops]
    passable = [s.passable for s in stops]
    tokened = [s.tokened for s in stops]
    hex_bit = [s.hex_bit for s in stops]
    value = [max(scoring.bound_value(r.train, s) for r in reps) for s in stops]
    span = problem.n_track
    track_mask = (1 << span) - 1
    avoid = (used >> (reps[0].group * span)) & track_mask if used else 0
    used_extra = used >> (2 * span) << (2 * span)
    # prefix sums of the best stop values anywhere: what more stops can add at most
    ordered = sorted((value[i] for i in range(len(stops)) if live[i]), reverse=True)
    pref = [0]
    for v in ordered:
        pref.append(pref[-1] + v)
    top = len(pref) - 1
    total_value = pref[-1]
    # the same for the stops that use distance, plus everything the free ones can add
    counted_values = sorted((value[i] for i in range(len(stops)) if live[i] and is_counted[i]),
                            reverse=True)
    pref_c = [0]
    for v in counted_values:
        pref_c.append(pref_c[-1] + v)
    top_c = len(pref_c) - 1
    free_values = sorted((value[i] for i in range(len(stops)) if live[i] and not is_counted[i]),
                         reverse=True)
    pref_f = [0]
    for v in free_values:
        pref_f.append(pref_f[-1] + v)
    top_f = len(pref_f) - 1
    top_other = max((value[i] for i in range(len(stops)) if live[i] and not is_counted[i]),
                    default=0)
    rep_lim = [r.limit if r.limit is not None else 1 << 30 for r in reps]
    max_stops = dist.max_stops if dist.max_stops is not None else 1 << 30
    near = _near_for(problem, live, is_counted, value,
                     max((x for x in rep_lim if x < 1 << 30), default=0))
    near_row = near.row
    span_near = near.most if near.most > 0 else -1
    # unbounded trains (E-trains ...) get the stronger, dearer bound
    strong = STRONG or any(r.paying >= 1 << 30 for r in reps)
    # adjacency best-value first, so that good routes come early and raise the floors
    # segments between the same two stops are walked together: a route is first a
    # sequence of stops, carrying every way over track that is still possible
    # (alternatives), so that the walk does not repeat itself once per way
    pair_no: dict[tuple[int, int], int] = {}
    for sg in segs:
        pair_no.setdefault((min(sg.a, sg.b), max(sg.a, sg.b)), 0)
    for n_pair, pair in enumerate(sorted(pair_no)):
        pair_no[pair] = n_pair
    # per stop, per stop next to it: the pair's number, that stop, and each segment
    # between them as (index, track, hexes passed, terminal here, terminal there): plain
    # tuples, read in the walk's innermost loop
    Way = tuple[int, int, int, bool, bool]
    adj_groups: list[list[tuple[int, int, tuple[Way, ...]]]] = []
    for i in range(len(stops)):
        by_far: dict[int, list[int]] = {}
        for si in adj[i]:
            by_far.setdefault(segs[si].other(i), []).append(si)
        groups_i = []
        for o, seg_ids in by_far.items():
            ways = []
            for si in sorted(seg_ids):
                sg = segs[si]
                here, there = ((sg.terminal_a, sg.terminal_b) if sg.a == i
                               else (sg.terminal_b, sg.terminal_a))
                ways.append((si, sg.track, sg.passed, here, there))
            groups_i.append((pair_no[(min(i, o), max(i, o))], o, tuple(ways)))
        adj_groups.append(sorted(groups_i, key=lambda g: (-value[g[1]], g[0])))
    right_stops: list[int] = []
    right_pairs: list[int] = []
    left_stops: list[int] = []
    priced = 0
    polls = 0
    n_reps = len(reps)
    pattern_needs = [
        {p: scoring.pattern_needs(r.train, p >> 1) for p, _b in r.patterns} if r.patterns
        else {}
        for r in reps
    ]
    # pattern mode: per rep, (pattern key, bonus, needs); a need is (hex bits of its
    # stops, per stop the least distance to one of them) -- a pattern whose needs no
    # open end can reach within the distance left cannot be had
    far = 1 << 30
    pattern_checks: list[list[tuple[int, int, list[tuple[int, list[int]]]]]] = []
    for i, r in enumerate(reps):
        checks: list[tuple[int, int, list[tuple[int, list[int]]]]] = []
        if r.patterns is not None and rep_lim[i] <= span_near \
                and any(pattern_needs[i].get(p) for p, _b in r.patterns):
            for p, b in r.patterns:
                needs = []
                for group in pattern_needs[i].get(p, ()):
                    mask = 0
                    for y in group:
                        mask |= hex_bit[y]
                    row = near.to_group(group) if group else [far] * len(stops)
                    needs.append((mask, row))
                checks.append((p, b, needs))
        pattern_checks.append(checks)
    # kept-list mode: the bonus in the bound is the most of the patterns whose needs
    # an open end can still reach (instead of every bonus at once), plus the most the
    # run bonus can add (known closer once the right end is fixed: ``caps``)
    keep_checks: list[tuple[int, list[tuple[int, list[tuple[int, list[int]]]]]] | None] = []
    for i, r in enumerate(reps):
        pats = scoring.patterns(r.train) if r.patterns is None else None
        if pats is None or rep_lim[i] > span_near:
            keep_checks.append(None)
            continue
        options = []
        for p, b in sorted(pats, key=lambda pb: -pb[1]):
            needs = []
            for group in scoring.pattern_needs(r.train, p):
                mask = 0
                for y in group:
                    mask |= hex_bit[y]
                row = near.to_group(group) if group else [far] * len(stops)
                needs.append((mask, row))
            options.append((b, needs))
        keep_checks.append((scoring.max_bonus(r.train), options))
    run_caps = [scoring.max_run_bonus(r.train) for r in reps]
    check_masks = [[(b, tuple(mask for mask, _row in needs)) for b, needs in check[1]]
                   if check is not None else [] for check in keep_checks]
    end_caps: dict[tuple[int, int, int], int] = {}
    """(rep, one end, the other end) -> the most the run bonus can add for such a route."""
    caps = list(run_caps)
    base = [0]
    base_stop = base
    """The token the routes being listed start from (routes are listed from their lowest token)."""

    def route_stops() -> tuple[int, ...]:
        return (*reversed(left_stops), base[0], *right_stops)

    def store(r: _Rep, rev: int, key: int, mail: int | None, bits: int,
              ordered_stops: tuple[int, ...], ordered_segs: tuple[int, ...]) -> None:
        if key > r.best:
            r.best = key
        if r.keep:
            item = (key, tuple(map(neg, ordered_stops)), bits, ordered_segs, rev, mail)
            if len(r.heap) < r.keep:
                heapq.heappush(r.heap, item)
            else:
                heapq.heappushpop(r.heap, item)
            if len(r.heap) >= r.keep:
                r.floor = max(r.floor, r.heap[0][0] + 1)
        else:
            # a route that earns what a listed one earns and whose track meets the same
            # segments clashes with the same routes: one of them is enough (the one
            # that sorts first, as :func:`_order` puts them)
            closure = 0
            for si in ordered_segs:
                closure |= near_segs[si]
            sig = (key, rev, mail, bits >> extra_shift, closure)
            merged = merge[id(r)]
            at = merged.get(sig)
            if at is None:
                merged[sig] = len(r.routes)
                r.routes.append(Candidate(rev, bits, ordered_stops, ordered_segs, key, mail))
            else:
                old = r.routes[at]
                if (ordered_stops, ordered_segs) < (old.stops, old.segments):
                    r.routes[at] = Candidate(rev, bits, ordered_stops, ordered_segs, key, mail)

    extra_shift = 2 * span
    merge: dict[int, dict[tuple[int, int, int | None, int, int], int]] = {
        id(r): {} for r in reps if not r.keep and r.patterns is None}
    near_segs = [_bitset(list(m), len(segs)) for m in _meets(problem)] if merge else []
    """Per segment, the segments whose track meets its own, as a bit set."""

    prices = {} if cache is None else cache

    def record(alts: list[Alt], n: int, vsum: int, csum: int, hexes: int = -1) -> None:
        """Offer the route of the stops now, over each of its ways (``alts``)."""
        nonlocal priced
        visited: list[Stop] | None = None
        osum = vsum - csum
        for i, r in enumerate(reps):
            if n > (r.limit if r.limit is not None else n):
                continue
            best_of = r.pattern_best if r.patterns is not None else None
            # counted stops pay; the others at most fill the places left
            room = r.paying - n
            extra = osum if osum <= room * top_other else room * top_other
            most = r.mult * (csum + (extra if extra > 0 else 0))
            if best_of is None:
                if most + r.bonus < r.floor:
                    continue
                check = keep_checks[i]
                if check is not None and hexes >= 0:
                    # the route is whole: the bonuses of the patterns its hexes allow,
                    # the run bonus of its own ends
                    bonus = 0
                    for b, masks in check_masks[i]:
                        for mask in masks:
                            if not mask & hexes:
                                break
                        else:
                            bonus = b
                            break
                    first = left_stops[-1] if left_stops else base[0]
                    last = right_stops[-1] if right_stops else base[0]
                    end_cap = end_caps.get((i, first, last))
                    if end_cap is None:
                        m = scoring.mail_value(r.train, [stops[first], stops[last]])
                        end_cap = end_caps[(i, first, last)] = min(
                            run_caps[i], scoring.run_bonus_cap(r.train, m))
                    if most + min(bonus, check[0]) + end_cap < r.floor:
                        continue
            elif most <= r.thresholds[0]:
                if not r.flags[-1]:
                    continue
                # the ends are known now: the route's own mail value instead of the cap
                first = left_stops[-1] if left_stops else base[0]
                last = right_stops[-1] if right_stops else base[0]
                m = scoring.mail_value(r.train, [stops[first], stops[last]])
                if r.hopeless(most, r.mail_cap - m if m is not None else 1 << 40):
                    continue
            route = route_stops()
            # the same stops in the same order are often reached over other track
            known = prices.get((r.train.id, route))
            if known is None:
                if visited is None:
                    visited = [stops[i] for i in route]
                priced += 1
                known = (scoring.mail_value(r.train, visited),
                         scoring.variants(r.train, visited))
                prices[(r.train.id, route)] = known
            mail, variants = known
            cap = scoring.run_bonus_cap(r.train, mail)
            shift = r.group * span
            for rev, extra in variants:
                if extra & used_extra:
                    continue
                if best_of is not None:
                    # the same stops over other track earn the same: the first way is kept
                    _h, t, rs, ls, _ok = alts[0]
                    r.offer(scoring, rev, extra, mail, route,
                            ((t & ~avoid) << shift) | extra, (*reversed(ls), *rs))
                    continue
                if rev + cap < r.floor:
                    continue
                for _h, t, rs, ls, _ok in alts:
                    store(r, rev, rev + cap, mail, ((t & ~avoid) << shift) | extra, route,
                          (*reversed(ls), *rs))

    top_stop = max((i for i in range(len(stops)) if live[i]),
                   key=lambda i: (stops[i].revenue, -i), default=0)
    cuts = [0] * n_reps
    """Per rep, how far the mail value of the routes being listed stays below
    ``mail_cap`` (known once the route's right end is fixed, see walk_right)."""

    def set_cuts(end: int | None) -> None:
        for i in range(n_reps):
            r = reps[i]
            if keep_checks[i] is not None:
                # the route ends at ``end``: its mail value is at most that with the
                # best stop at the other end
                if end is None:
                    caps[i] = run_caps[i]
                else:
                    m = scoring.mail_value(r.train, [stops[end], stops[top_stop]])
                    caps[i] = min(run_caps[i], scoring.run_bonus_cap(r.train, m))
            if end is None or not r.flags[-1]:
                cuts[i] = 0
                continue
            m = scoring.mail_value(r.train, [stops[end], stops[top_stop]])
            cuts[i] = r.mail_cap - m if m is not None else 1 << 40

    def hopeful(n: int, vsum: int, k: int = 1, x: int = -1, y: int = -1,
                hexes: int = 0) -> bool:
        """``k``: stops on the route so far (for the cap on stops); ``x``, ``y``: the
        ends the route may still grow at (-1: none), for the bound by distance;
        ``hexes``: the hexes the route visits (for the patterns' needs)."""
        cap = max_stops - k
        for i in range(n_reps):
            r = reps[i]
            lim_i = rep_lim[i]
            if n > lim_i:
                continue
            room = r.paying - n
            if room > cap:
                room = cap
            if room < 0:
                room = 0
            if room > top:
                room = top
            more = pref[room]
            left = lim_i - n
            if left <= span_near:
                # counted stops: within the distance left of an open end
                if x < 0:
                    near_c = near_row(y)[left] if y >= 0 else 0
                elif y < 0:
                    near_c = near_row(x)[left]
                else:
                    nx, ny = near_row(x), near_row(y)
                    near_c = 0
                    for a in range(left + 1):
                        v = nx[a] + ny[left - a]
                        if v > near_c:
                            near_c = v
                other = near_c + pref_f[room if room < top_f else top_f]
                if other < more:
                    more = other
            if left < top_c:
                # more counted stops fit the distance; free ones at most the paying places
                c_room = left if left < cap else (cap if cap > 0 else 0)
                other = pref_c[c_room] + pref_f[room if room < top_f else top_f]
                if other < more:
                    more = other
            if total_value - vsum < more:
                more = total_value - vsum
            if r.patterns is not None:
                most = r.mult * (vsum + more)
                if r.hopeless(most, cuts[i]):
                    continue
                checks = pattern_checks[i]
                if not checks:
                    return True
                best_of = r.pattern_best
                for p, bonus, needs in checks:
                    if most <= best_of.get(p, (0,))[0] - bonus + (cuts[i] if p & 1 else 0):
                        continue
                    for mask, row in needs:
                        if not (mask & hexes) and (x < 0 or row[x] > left) \
                                and (y < 0 or row[y] > left):
                            break
                    else:
                        return True
                continue
            most = r.mult * (vsum + more)
            if most + r.bonus < r.floor:
                continue
            check = keep_checks[i]
            if check is None:
                return True
            bonus = 0
            for b, needs in check[1]:
                for mask, row in needs:
                    if not (mask & hexes) and (x < 0 or row[x] > left) \
                            and (y < 0 or row[y] > left):
                        break
                else:
                    bonus = b
                    break
            if most + min(bonus, check[0]) + caps[i] >= r.floor:
                return True
        return False

    def reach_hopeful(ends: tuple[int, ...], hexes: int, track: int, n: int, vsum: int) -> bool:
        """The bound of :func:`hopeful` with only the stops still reachable from the route's ends.

        A walk from the ends over track not yet used, into hexes not yet
        visited (stops it cannot pass through end it); the best values found
        fill the places left.
        """
        found: list[int] = []
        seen = set(ends)
        todo = list(ends)
        while todo:
            x = todo.pop()
            if x not in ends and not passable[x]:
                continue
            for si in adj[x]:
                sg = segs[si]
                if sg.track & track:
                    continue
                y = sg.b if sg.a == x else sg.a
                if y in seen or hex_bit[y] & hexes or sg.passed & hexes:
                    continue
                seen.add(y)
                if value[y]:
                    found.append(value[y])
                todo.append(y)
        found.sort(reverse=True)
        here: set[int] | None = None
        for i in range(n_reps):
            r = reps[i]
            if n > rep_lim[i]:
                continue
            room = r.paying - n
            base = r.mult * (vsum + sum(found[:room] if room > 0 else ()))
            if r.patterns is None:
                if base + r.bonus >= r.floor:
                    return True
                continue
            if here is None:
                here = seen | set(left_stops) | set(right_stops) | {base_stop[0]}
            for pattern, bonus in r.patterns:
                if base + bonus <= r.pattern_best.get(pattern, (0,))[0]:
                    continue
                needs = pattern_needs[i].get(pattern, ())
                if all(here & group for group in needs):
                    return True
        return False

    def steps(
        cur: int, alts: list[Alt], n: int, vsum: int, csum: int, low: int, inner: bool,
        right: bool, left_open: bool = False,
    ) -> Iterator[tuple[int, int, list[Alt], list[Alt], int, int, int, int]]:
        """Each stop to go on to from ``cur``: the pair's number, the stop, the ways that
        may go on from it and those that must end there, and the route's state.

        ``inner``: ``cur`` is passed through (so no segment terminal at it);
        ``right``: the right end grows (else the left one); ``left_open``: the route
        may still grow at the token end too (only while the right end grows).
        """
        t0_open = base[0] if left_open else -1
        t0 = base[0]
        k = len(right_stops) + len(left_stops) + 2
        if k > max_stops:
            return
        for gid, o, variants in adj_groups[cur]:
            if gid <= low:
                continue
            if tokened[o] and o < t0:
                continue
            n2 = n + is_counted[o]
            if n2 > lim:
                continue
            hb = hex_bit[o]
            go: list[Alt] = []
            end: list[Alt] = []
            h_any = 0
            any_ok = False
            for alt in alts:
                h, t, rs, ls, ok = alt
                if h & hb:
                    continue
                h |= hb
                for si, s_track, s_passed, here, ends in variants:
                    if s_track & t or s_passed & h or (inner and here):
                        continue
                    h2 = h | s_passed
                    h_any |= h2
                    if right:
                        # the first segment starts at the token (``cur``): terminal there?
                        ok2 = ok if rs else not here
                        any_ok = any_ok or ok2
                        new = (h2, t | s_track, (*rs, si), ls, ok2)
                    else:
                        new = (h2, t | s_track, rs, (*ls, si), ok)
                    (end if ends else go).append(new)
            if not go and not end:
                continue
            if len(go) > 1 or len(end) > 1:
                n_ways = len(go) + len(end)
                if len(go) > 1:
                    go = _undominated(go)
                if len(end) > 1:
                    end = _undominated(end)
                if len(go) + len(end) < n_ways:
                    # dominance keeps whether some way may start the left half
                    h_any = _union(go) | _union(end)
            v2 = vsum + value[o]
            x_open = o if go and passable[o] else -1
            y_open = t0_open
            if right and left_open and not any_ok:
                y_open = -1
            if not hopeful(n2, v2, k, x_open, y_open, h_any):
                continue
            if strong:
                h_all = t_all = -1
                for alt in (*go, *end):
                    h_all &= alt[0]
                    t_all &= alt[1]
                tips = ((o, t0) if y_open >= 0 else (o,)) if x_open >= 0 else (
                    (t0,) if y_open >= 0 else ())
                if not reach_hopeful(tips, h_all, t_all, n2, v2):
                    continue
            c2 = csum + value[o] if is_counted[o] else csum
            yield (gid, o, go, end, n2, v2, c2, h_any)

    def walk_left(cur: int, alts: list[Alt], n: int, vsum: int, csum: int, low: int) -> None:
        """Every way to extend the route at its start (the token end), recording each."""
        nonlocal polls
        polls += 1
        if polls & 1023 == 0:
            _poll(cancel)
        for _gid, o, go, end, n2, v2, c2, h_any in steps(cur, alts, n, vsum, csum, low, True,
                                                         False):
            left_stops.append(o)
            record(go + end if end else go, n2, v2, c2, h_any)
            if go and passable[o]:
                walk_left(o, go, n2, v2, c2, -1)
            left_stops.pop()

    def walk_right(cur: int, alts: list[Alt], going: list[Alt], n: int, vsum: int,
                   csum: int, h_any: int) -> None:
        """Every way to extend the route at its end; for each, every start (walk_left).

        ``alts``: every way the route can run; ``going``: those that may go on
        from ``cur`` (the others end there); ``h_any``: the hexes any of them visits."""
        nonlocal polls
        polls += 1
        if polls & 1023 == 0:
            _poll(cancel)
        t0 = base[0]
        if right_stops:
            record(alts, n, vsum, csum, h_any)
            if passable[t0]:
                lefties = [a for a in alts if a[4]]
                if lefties:
                    set_cuts(cur)
                    walk_left(t0, lefties, n, vsum, csum, right_pairs[0])
                    set_cuts(None)
            if not passable[cur] or not going:
                return
        inner = bool(right_stops)
        left_open = passable[t0] and (not right_stops or any(a[4] for a in going))
        for gid, o, go, end, n2, v2, c2, h2 in steps(cur, going, n, vsum, csum, -1, inner,
                                                     True, left_open):
            right_stops.append(o)
            right_pairs.append(gid)
            walk_right(o, go + end if end else go, go, n2, v2, c2, h2)
            right_stops.pop()
            right_pairs.pop()

    starts = [s.index for s in stops if live[s.index] and s.tokened]
    for r in reps:
        if scoring.local(r.train):
            for s in starts:
                if stops[s].kind != CITY:
                    continue
                mail = scoring.mail_value(r.train, [stops[s]])
                cap = scoring.run_bonus_cap(r.train, mail)
                for rev, extra in scoring.variants(r.train, [stops[s]]):
                    if r.patterns is not None:
                        if not extra & used_extra:
                            r.offer(scoring, rev, extra, mail, (s,), extra, ())
                    elif rev + cap >= r.floor and not extra & used_extra:
                        store(r, rev, rev + cap, mail, extra, (s,), ())
    for k, s in enumerate(starts):
        if progress is not None:
            progress(k / max(1, len(starts)))
        n0 = is_counted[s]
        if n0 > lim or not hopeful(n0, value[s], 1, s, s if passable[s] else -1, hex_bit[s]):
            continue
        base[0] = s
        start: list[Alt] = [(hex_bit[s], avoid, (), (), True)]
        walk_right(s, start, start, n0, value[s], value[s] if n0 else 0, hex_bit[s])
    for r in reps:
        if r.patterns is not None:
            r.routes = r.pattern_routes(scoring)
        elif r.keep:
            r.routes = [Candidate(rev, bits, tuple(map(neg, negated)), segs_, key, mail)
                        for key, negated, bits, segs_, rev, mail in r.heap]
        r.routes.sort(key=_order)
    NODES[0] += polls
    return priced


_NEARS: tuple[Problem, dict[tuple[tuple[int, ...], tuple[int, ...], int], _Near]] | None = None
"""The last problem's :class:`_Near` tables (its walks ask the same again; one global read
or write at a time, so searches in other threads are safe)."""


def _near_for(problem: Problem, live: list[bool], cost: list[int], value: list[int],
              most: int) -> _Near:
    """:class:`_Near` for these costs and values, shared by the walks of one problem
    (``live`` is the problem's own :func:`_reachable`)."""
    global _NEARS
    last = _NEARS
    if last is None or last[0] is not problem:
        last = (problem, {})
        _NEARS = last
    key = (tuple(cost), tuple(value), most)
    got = last[1].get(key)
    if got is None:
        got = last[1][key] = _Near(problem, live, cost, value, most)
    return got


class _Near:
    """Bounds by distance: what an end can still reach with the distance it has left.

    Distance runs from stop to stop over track (ignoring hexes and track used, so
    these are bounds), paying the ``cost`` of each stop entered, through passable
    stops only.  Rows are computed on first use (most positions need few).
    """

    def __init__(self, problem: Problem, live: list[bool], cost: list[int],
                 value: list[int], most: int) -> None:
        self.most = most
        """Longest distance asked about (the longest bounded train of the walk)."""
        self._problem = problem
        self._live = live
        self._cost = cost
        self._value = value
        self._passable = [s.passable for s in problem.stops]
        self._rows: list[list[int] | None] = [None] * len(problem.stops)
        self._to_groups: dict[tuple[int, ...], list[int]] = {}

    def _dijkstra(self, sources: list[int], out: bool) -> dict[int, int]:
        """Least distance from ``sources`` (``out``: paying for stops entered) to each
        stop within :attr:`most`; ``out`` False: the same walked backwards (paying for
        the stop left instead, so that it is the distance *to* the sources)."""
        import heapq

        segs, adj, cost, passable = (self._problem.segments, self._problem.adjacency,
                                     self._cost, self._passable)
        most = self.most
        best = dict.fromkeys(sources, 0)
        start = set(sources)
        todo = [(0, x) for x in sources]
        while todo:
            d, u = heapq.heappop(todo)
            if d > best.get(u, 1 << 30) or (u not in start and not passable[u]):
                continue
            for si in adj[u]:
                sg = segs[si]
                o = sg.b if sg.a == u else sg.a
                nd = d + (cost[o] if out else cost[u] if u not in start else 0)
                if nd <= most and nd < best.get(o, 1 << 30):
                    best[o] = nd
                    heapq.heappush(todo, (nd, o))
        return best

    def row(self, x: int) -> list[int]:
        """Per distance ``d <= most``: the most ``d`` more distance can add at ``x``
        in values of stops that use distance.

        The ``k``-th stop an end reaches has used at least its distance from the
        end, and at most ``d`` in all: the best set of stops that fit distinct
        places ``1..d``, each no nearer than its distance (a matroid: greedy by value).
        """
        got = self._rows[x]
        if got is not None:
            return got
        cost, value = self._cost, self._value
        row = [0] * (self.most + 1)
        if self._live[x]:
            found = self._dijkstra([x], True)
            cands = sorted(((value[o], d) for o, d in found.items()
                            if o != x and cost[o] and value[o] > 0), reverse=True)
            for d in range(1, self.most + 1):
                # places 1..d as bits: a stop at distance ``dist`` takes the nearest free
                # place at or beyond it (the places a stop may take all end at ``d``, so
                # this fits a set of stops whenever any placing does)
                free = (1 << (d + 1)) - 2
                total = 0
                left = d
                for v, dist in cands:
                    if dist > d:
                        continue
                    beyond = free >> dist << dist
                    if beyond:
                        free ^= beyond & -beyond
                        total += v
                        left -= 1
                        if not left:
                            break
                row[d] = total
        self._rows[x] = row
        return row

    def to_group(self, group: set[int]) -> list[int]:
        """Per stop, at most its distance to the nearest stop of ``group`` (1 << 30: beyond
        :attr:`most`)."""
        key = tuple(sorted(group))
        got = self._to_groups.get(key)
        if got is not None:
            return got
        back = self._dijkstra(list(key), False)
        least = min((self._cost[y] for y in group), default=0)
        far = 1 << 30
        # walked backwards the distance pays for each stop left, the start included
        got = self._to_groups[key] = [max(0, back[x] - self._cost[x] + least) if x in back
                                      else far for x in range(len(self._problem.stops))]
        return got


Alt = tuple[int, int, tuple[int, ...], tuple[int, ...], bool]
"""One way over track of a route's stops: (hexes visited, track used, segments of the
right half, segments of the left half, whether the left half may start at the token)."""


def _union(alts: list[Alt]) -> int:
    """Hexes any of the ways visits."""
    h = 0
    for alt in alts:
        h |= alt[0]
    return h


def _undominated(alts: list[Alt]) -> list[Alt]:
    """The ways no other way beats: one that uses a subset of another's hexes and
    track (and may start the left half if the other may) does all it does, for the
    same money.  Of equal ones the first stays; more than 8 ways are left as they are
    (comparing them costs more than it saves)."""
    if len(alts) > 8:
        return alts
    out: list[Alt] = []
    for a in alts:
        ha, ta, ok_a = a[0], a[1], a[4]
        beaten = False
        for b in out:
            if not (b[0] & ~ha) and not (b[1] & ~ta) and (b[4] or not ok_a):
                beaten = True
                break
        if beaten:
            continue
        out = [b for b in out
               if not (not (ha & ~b[0]) and not (ta & ~b[1]) and (ok_a or not b[4]))]
        out.append(a)
    return out


def _order(c: Candidate) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
    """Best first: most the route can earn, then revenue, then stops and segments."""
    return (-c.key, -c.revenue, c.stops, c.segments)



def _walk_tokens(
    problem: Problem,
    scoring: TitleScoring,
    reps: list[_Rep],
    cancel: Callable[[], bool] | None,
    progress: Callable[[float], None] | None,
) -> int:
    """:func:`_walk` for trains that earn only at tokened cities (see :mod:`.contract`).

    The links are listed without the segments and then without the links such a
    train never needs (:func:`.spare.spare_segments` with ``alone``,
    :func:`.contract.spare_links`).  A route over them earns by the set of
    tokened cities it visits, its two ends (the mail value) and which stops a
    pattern needs it passes on the way (:meth:`TitleScoring.pattern_needs`), so
    the walk goes from city to city and keeps, per start, set of cities visited
    and city reached, only the ways that no other way reached with a subset of
    the resources that can still matter (those of the cities not yet visited and
    of the links among them and the one reached) and a superset of the needed
    stops passed (``labels``): ways that differ only where no later link can go
    are walked once.  Each (start, cities, end, needed stops passed) is priced
    once, on the real stops of its first way, and offered to every pattern; the
    walk is cut by ``mult x (tokened values so far + those not yet visited) +
    bonus`` against the best route of every pattern.  Returns the number of
    routes priced.
    """
    from desk18xx.engine.optimizer.contract import (
        LinkTables,
        _group_bits,
        _widths,
        links,
        spare_links,
        token_nodes,
    )
    from desk18xx.engine.optimizer.spare import one_route, spare_segments

    stops = problem.stops
    span = problem.n_track
    nodes = token_nodes(problem, _reachable(problem))
    # the stops a pattern needs: whether a link passes them matters
    needed = sorted({y for r in reps for p, _b in (r.patterns or ())
                     for group in scoring.pattern_needs(r.train, p >> 1) for y in group})
    # one route: the pieces only segments between the same two stops use never clash
    alone = one_route(problem)
    lks = spare_links(alone, links(alone, nodes, lambda: _poll(cancel),
                                   spare_segments(alone, alone=True), frozenset(needed)),
                      nodes, frozenset(needed))
    value = {x: max(scoring.bound_value(r.train, stops[x]) for r in reps) for x in nodes}
    total = sum(value.values())
    tables = LinkTables(alone, lks)
    around, ids, full, terminal, res = (tables.around, tables.ids, tables.full,
                                        tables.terminal, tables.res)
    hb, tb = _widths(problem)
    gbits = _group_bits(problem)
    # a city's own resources: its hex and its exclusive groups (packed as the links')
    own = {x: stops[x].hex_bit | gbits[x] << (hb + tb) for x in nodes}
    node_bit = {x: 1 << k for k, x in enumerate(nodes)}
    # the needed stops as bits: which of them a link passes (not its ends)
    need_bit = {y: 1 << k for k, y in enumerate(needed)}
    passes = [0] * len(lks)
    for n, lk in enumerate(lks):
        for y in lk.stops[1:-1]:
            passes[n] |= need_bit.get(y, 0)
    unions = {pair: tables.blocked_union(pair) for pair in ids}
    future: dict[tuple[int, int], int] = {}
    """(cities visited, city reached) -> the resource bits a way on can still meet."""

    def future_of(visited: int, cur: int) -> int:
        got = future.get((visited, cur))
        if got is None:
            got = 0
            for x in nodes:
                if not node_bit[x] & visited:
                    got |= own[x]
            for (a, b), u in unions.items():
                if (a == cur or not node_bit[a] & visited) and \
                        (b == cur or not node_bit[b] & visited):
                    got |= u
            future[(visited, cur)] = got
        return got

    path_nodes: list[int] = []
    path_links: list[int] = []
    priced = 0
    polls = 0
    done: set[tuple[int, int, int]] = set()
    """(cities visited, end, needed stops passed) priced from the current start."""
    labels: dict[tuple[int, int], list[tuple[int, int]]] = {}
    """(cities visited, city reached) -> ways that may go on: (resources that can still
    matter, needed stops passed), none beaten by another."""

    def record(visited: int, cur: int, got: int) -> None:
        nonlocal priced
        key = (visited, cur, got)
        if key in done:
            return
        done.add(key)
        real = [path_nodes[0]]
        real_segs: list[int] = []
        track = 0
        for x, n in zip(path_nodes, path_links, strict=False):
            lk = lks[n]
            track |= lk.track
            if lk.a == x:
                real.extend(lk.stops[1:])
                real_segs.extend(lk.segments)
            else:
                real.extend(reversed(lk.stops[:-1]))
                real_segs.extend(reversed(lk.segments))
        visited_stops = [stops[i] for i in real]
        route = tuple(real)
        priced += 1
        for r in reps:
            mail = scoring.mail_value(r.train, visited_stops)
            for rev, extra in scoring.variants(r.train, visited_stops):
                r.offer(scoring, rev, extra, mail, route, (track << (r.group * span)) | extra,
                        tuple(real_segs))

    top_node = max(nodes, key=lambda x: (stops[x].revenue, -x), default=0)
    cuts = [0] * len(reps)

    def hopeful(vsum: int, rest: int) -> bool:
        for i, r in enumerate(reps):
            if not r.hopeless(r.mult * (vsum + rest), cuts[i]):
                return True
        return False

    def walk(cur: int, visited: int, used: int, got: int, vsum: int, rest: int,
             start: int) -> None:
        """``used``: resources taken (hexes, track, groups of the links and cities);
        ``got``: needed stops passed."""
        nonlocal polls
        polls += 1
        if polls & 1023 == 0:
            _poll(cancel)
        inner = bool(path_links)
        for o, pair in around.get(cur, ()):
            if node_bit[o] & visited or own[o] & used:
                continue
            # the link may not meet the way so far, nor ``o`` (its groups)
            avail = full[pair] & ~tables.blocked(used | own[o], pair)
            if inner:
                avail &= ~terminal[(cur, pair)]
            if not avail:
                continue
            v2 = vsum + value[o]
            r2 = rest - value[o]
            if not hopeful(v2, r2):
                continue
            seen2 = visited | node_bit[o]
            matters = future_of(seen2, o)
            kept = labels.setdefault((seen2, o), [])
            ends_here = terminal[(o, pair)]
            pair_ids = ids[pair]
            while avail:
                low = avail & -avail
                avail ^= low
                n = pair_ids[low.bit_length() - 1]
                u2 = used | res[n] | own[o]
                g2 = got | passes[n]
                go_on = not ends_here & low
                if go_on:
                    mine = u2 & matters
                    if any(not q & ~mine and not g2 & ~h for q, h in kept):
                        continue
                    kept[:] = [(q, h) for q, h in kept if mine & ~q or h & ~g2]
                    kept.append((mine, g2))
                elif o < start or (seen2, o, g2) in done:
                    continue
                path_nodes.append(o)
                path_links.append(n)
                if start < o:
                    record(seen2, o, g2)
                if go_on:
                    walk(o, seen2, u2, g2, v2, r2, start)
                path_nodes.pop()
                path_links.pop()
                # the bound tightens as routes are found
                if avail and not hopeful(v2, r2):
                    break

    for k, s in enumerate(nodes):
        if progress is not None:
            progress(k / max(1, len(nodes)))
        path_nodes[:] = [s]
        for i, r in enumerate(reps):
            if r.flags[-1]:
                # one end is ``s``: its mail value is at most that with the best other end
                m = scoring.mail_value(r.train, [stops[s], stops[top_node]])
                cuts[i] = r.mail_cap - m if m is not None else 1 << 40
        done.clear()
        labels.clear()
        walk(s, node_bit[s], own[s], 0, value[s], total - value[s], s)
    for r in reps:
        r.routes = r.pattern_routes(scoring)
        r.routes.sort(key=_order)
    return priced


def _greedy(
    problem: Problem,
    scoring: TitleScoring,
    trains: list[TrainSpec],
    rep_of: dict[str, _Rep],
    cancel: Callable[[], bool] | None,
    stats: dict[str, float],
    prices: Prices,
) -> list[Candidate | None]:
    """Each train in turn takes its best route on the track the others left (a lower bound).

    Every train is tried first once (the rest follow in ``trains`` order); the
    best total wins.
    """
    best: list[Candidate | None] = [None] * len(trains)
    best_total = 0
    firsts = range(len(trains)) if len(trains) <= 4 else range(1)
    for first in firsts:
        if first > 0 and trains[first].name == trains[first - 1].name:
            continue
        order = [first, *(i for i in range(len(trains)) if i != first)]
        picks: list[Candidate | None] = [None] * len(trains)
        used = 0
        for i in order:
            t = trains[i]
            top = rep_of[t.id]
            if first == i and top.routes:
                pick: Candidate | None = top.routes[0]
            elif top.patterns is not None or any(not c.track & used for c in top.routes):
                # the kept routes are the best ones: the first that fits is the best that fits
                pick = next((c for c in top.routes if not c.track & used), None)
            elif (pick := _refit(problem, scoring, t, top.routes, used)) is not None:
                pass  # a kept route on free track, without the bonus another train took
            else:
                d = scoring.distance(t)
                paying = scoring.paying(t)
                rep = _Rep(t, d.limit, paying if paying is not None else 1 << 30,
                           t.multiplier, scoring.max_bonus(t) + scoring.max_run_bonus(t),
                           keep=1, group=scoring.group(t))
                walk_class = Distance(d.kinds, None, d.free, d.max_stops)
                stats["priced"] += _walk(problem, scoring, walk_class, [rep], cancel, None, used,
                                         prices)
                stats["passes"] += 1
                pick = rep.routes[0] if rep.routes else None
            if pick is not None:
                picks[i] = pick
                used |= pick.track
        total = _value(scoring, picks)
        if total > best_total:
            best, best_total = picks, total
    return best


def _refit(problem: Problem, scoring: TitleScoring, train: TrainSpec,
           routes: list[Candidate], used: int) -> Candidate | None:
    """The best kept route whose track is free, priced again without the taken extra bits."""
    plain = (1 << (2 * problem.n_track)) - 1
    best: Candidate | None = None
    for c in routes:
        if c.track & plain & used:
            continue
        if best is not None and c.key <= best.key:
            break
        visited = [problem.stops[i] for i in c.stops]
        for rev, extra in scoring.variants(train, visited):
            if extra & used:
                continue
            key = rev + scoring.run_bonus_cap(train, c.mail)
            if best is None or key > best.key:
                best = Candidate(rev, (c.track & plain) | extra, c.stops, c.segments, key, c.mail)
    return best


def _value(scoring: TitleScoring, picks: list[Candidate | None]) -> int:
    """What a choice of routes earns the company: revenue plus the run bonus."""
    chosen = [c for c in picks if c is not None and not c.phantom]
    # a phantom adds at most its key (a route's revenue and what it can add to the bonus)
    extra = sum(c.key for c in picks if c is not None and c.phantom)
    return sum(c.revenue for c in chosen) + scoring.run_bonus([c.mail for c in chosen]) + extra


def _bitset(indexes: list[int], size: int) -> int:
    """The positions as one int (byte by byte: OR-ing ever longer ints is quadratic)."""
    raw = bytearray((size + 7) >> 3)
    for i in indexes:
        raw[i >> 3] |= 1 << (i & 7)
    return int.from_bytes(raw, "little")


_MEETS: tuple[Problem, list[tuple[int, ...]]] | None = None
"""The last problem's :func:`_meets` (a search builds clash tables several times; one
global read or write at a time, so searches in other threads are safe)."""


def _meets(problem: Problem) -> list[tuple[int, ...]]:
    """Per segment, the segments whose track meets its own (itself included)."""
    global _MEETS
    last = _MEETS
    if last is not None and last[0] is problem:
        return last[1]
    segs = problem.segments
    by_piece: dict[int, list[int]] = {}
    for sg in segs:
        t = sg.track
        while t:
            low = t & -t
            by_piece.setdefault(low, []).append(sg.index)
            t ^= low
    meets: list[set[int]] = [{sg.index} for sg in segs]
    for users in by_piece.values():
        if len(users) > 1:
            for a in users:
                meets[a].update(users)
    out = [tuple(sorted(m)) for m in meets]
    _MEETS = (problem, out)
    return out


Tables = dict[int, tuple[list[Candidate], dict[int, int], dict[int, int], list[int]]]
"""``id`` of a list -> (the list, its :class:`_Conflicts` tables: per segment and per extra
bit the routes using it, and the per-segment clash masks once made).  Kept for one
search: its branch and bounds run on the same lists again (with phantoms, which use
nothing, added at the end: :func:`_alias`)."""


def _alias(tables: Tables | None, longer: list[Candidate], base: list[Candidate]) -> None:
    """``longer`` is ``base`` with phantoms after it: the same tables."""
    if tables is not None:
        known = tables.get(id(base))
        if known is not None and known[0] is base:
            tables[id(longer)] = (longer, *known[1:])


class _Conflicts:
    """Which routes of each list clash with a given route (share a piece of track or
    an extra bit).

    A route's own track is the union of its segments' track (shifted into its
    overlap group), so the table is kept per segment, not per track piece (a
    segment has many): per list, segment -> the routes using it, and two
    segments clash when their track meets (a small precomputed table).  Extra
    bits (one-per-run bonuses, L-train cities) keep a table per bit.
    """

    def __init__(self, problem: Problem, lists: list[list[Candidate]], groups: list[int],
                 tables: Tables | None = None) -> None:
        self._shift = 2 * problem.n_track
        self._meets = _meets(problem)
        self._lists = lists
        self._groups = groups
        self._segs: list[dict[int, int]] = []
        self._extras: list[dict[int, int]] = []
        self._memo: list[list[int]] = []
        shift = self._shift
        for lst in lists:
            known = tables.get(id(lst)) if tables is not None else None
            if known is not None and known[0] is lst:
                self._segs.append(known[1])
                self._extras.append(known[2])
                self._memo.append(known[3])
                continue
            seg_users: dict[int, list[int]] = {}
            extra_users: dict[int, list[int]] = {}
            for index, c in enumerate(lst):
                for si in c.segments:
                    seg_users.setdefault(si, []).append(index)
                e = c.track >> shift
                while e:
                    low = e & -e
                    extra_users.setdefault(low, []).append(index)
                    e ^= low
            n = len(lst)
            segs_d = {k: _bitset(v, n) for k, v in seg_users.items()}
            extras_d = {k: _bitset(v, n) for k, v in extra_users.items()}
            memo: list[int] = []
            self._segs.append(segs_d)
            self._extras.append(extras_d)
            self._memo.append(memo)
            if tables is not None:
                tables[id(lst)] = (lst, segs_d, extras_d, memo)

    def _seg_masks(self, d: int) -> list[int]:
        """Per segment, the routes of list ``d`` whose track meets it (made on first use)."""
        memo = self._memo[d]
        if not memo:
            table = self._segs[d]
            for near in self._meets:
                m = 0
                for other in near:
                    m |= table.get(other, 0)
                memo.append(m)
        return memo


    def masks(self, d_i: int, j: int) -> list[int]:
        """Per list, the routes that clash with route ``j`` of list ``d_i``."""
        c = self._lists[d_i][j]
        group = self._groups[d_i]
        e = c.track >> self._shift
        extra_bits: list[int] = []
        while e:
            low = e & -e
            extra_bits.append(low)
            e ^= low
        out: list[int] = []
        segments = c.segments
        for d in range(len(self._lists)):
            m = 0
            if self._groups[d] == group and segments:
                seg_masks = self._seg_masks(d)
                for si in segments:
                    m |= seg_masks[si]
            if extra_bits:
                extras = self._extras[d]
                for low in extra_bits:
                    m |= extras.get(low, 0)
            out.append(m)
        return out


    def mask(self, d_i: int, j: int, d: int) -> int:
        """The routes of list ``d`` that clash with route ``j`` of list ``d_i``."""
        c = self._lists[d_i][j]
        m = 0
        if self._groups[d] == self._groups[d_i] and c.segments:
            seg_masks = self._seg_masks(d)
            for si in c.segments:
                m |= seg_masks[si]
        e = c.track >> self._shift
        if e:
            extras = self._extras[d]
            while e:
                low = e & -e
                m |= extras.get(low, 0)
                e ^= low
        return m


GREEDY_TRIES = 32
"""Routes tried first per train by the greedy start of :func:`_consistent`."""


def _prefix(keys: list[int], y: int) -> int:
    """The routes of a list (keys best first) whose key exceeds ``y``, as a bit set."""
    lo, hi = 0, len(keys)
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys[mid] > y:
            lo = mid + 1
        else:
            hi = mid
    return (1 << lo) - 1


def _above(keys: list[int], classes: list[tuple[int, list[tuple[int, int]]]], i: int, y: int,
           memo: dict[tuple[int, int], int]) -> int:
    """The routes of a list whose key plus what the first ``i`` other lists leave them
    exceeds ``y``; ``classes``: per other list, its number of trains and, per value, the
    routes it leaves that value (disjoint bit sets)."""
    if i == 0:
        return _prefix(keys, y)
    got = memo.get((i, y))
    if got is None:
        mult, by_value = classes[i - 1]
        got = 0
        for v, members in by_value:
            got |= members & _above(keys, classes, i - 1, y - mult * v, memo)
        memo[(i, y)] = got
    return got


def _consistent(problem: Problem, scoring: TitleScoring, lists: list[list[Candidate]],
                groups: list[int], incumbent: list[Candidate | None],
                cancel: Callable[[], bool] | None, tables: Tables | None = None
                ) -> tuple[list[list[Candidate]], list[Candidate | None]]:
    """The lists without the routes no assignment worth more than the best known can
    use, and that best (``incumbent`` or better).

    First a greedy start on the whole lists: each train in turn takes, after one of
    the :data:`GREEDY_TRIES` best routes of the first, the best route the others left.

    The lists must hold every route of such an assignment (the proof pass's lists).
    A route ``r`` of a train can be in one only if ``key(r)`` plus, for each other
    train, the best route of its list that does not clash with ``r`` (0 if none)
    exceeds ``lb`` (keys bound what routes earn, the run bonus included).  Per pair
    of lists, one sweep down the other list (best first) finds for every route of
    this one the best route it leaves free (bit sets: the routes of this list still
    clashing with everything so far); the sums are then formed per value class, not
    per route.  Lists of identical trains (the same object) stay one object.
    """
    distinct: list[list[Candidate]] = []
    distinct_groups: list[int] = []
    count: list[int] = []
    which: list[int] = []
    for lst, group in zip(lists, groups, strict=True):
        d = next((n for n, other in enumerate(distinct) if other is lst), -1)
        if d < 0:
            d = len(distinct)
            distinct.append(lst)
            distinct_groups.append(group)
            count.append(0)
        count[d] += 1
        which.append(d)
    if len(distinct) == 1 and count[0] == 1:
        return lists, incumbent
    conflicts = _Conflicts(problem, distinct, distinct_groups, tables)
    k = len(lists)
    lb = _value(scoring, incumbent)
    for first in range(k):
        if first and which[first] == which[first - 1]:
            continue
        order = [first, *(i for i in range(k) if i != first)]
        d0 = which[first]
        for j0 in range(min(GREEDY_TRIES, len(distinct[d0]))):
            picks: list[Candidate | None] = [None] * k
            confs = conflicts.masks(d0, j0)
            picks[first] = distinct[d0][j0]
            for i in order[1:]:
                d = which[i]
                free = ((1 << len(distinct[d])) - 1) & ~confs[d]
                if not free:
                    continue
                j = (free & -free).bit_length() - 1
                picks[i] = distinct[d][j]
                confs = [c | m for c, m in zip(confs, conflicts.masks(d, j), strict=True)]
            value = _value(scoring, picks)
            if value > lb:
                lb, incumbent = value, picks
    _poll(cancel)
    best = [lst[0].key if lst else 0 for lst in distinct]
    out: list[list[Candidate]] = []
    for a, lst_a in enumerate(distinct):
        _poll(cancel)
        n_a = len(lst_a)
        if not n_a:
            out.append(lst_a)
            continue
        full = (1 << n_a) - 1
        others = [(d, count[d] - (d == a)) for d in range(len(distinct)) if count[d] - (d == a)]
        rest_all = sum(m * best[d] for d, m in others)
        keys_a = [c.key for c in lst_a]
        classes_all: list[tuple[int, list[tuple[int, int]]]] = []
        for d, mult in others:
            rest = rest_all - mult * best[d]
            unresolved = full
            found: dict[int, int] = {}
            lst_d = distinct[d]
            n_d = len(lst_d)
            for j, b in enumerate(lst_d):
                # the routes that fail even if ``b`` is free for them: out of the sweep
                hopeless = full & ~_prefix(keys_a, lb - rest - mult * b.key)
                if unresolved & hopeless:
                    found[b.key] = found.get(b.key, 0) | (unresolved & hopeless)
                    unresolved &= ~hopeless
                if not unresolved:
                    break
                if unresolved.bit_count() * 2 < n_d - j:
                    # fewer routes left here than there: look up each one's best instead
                    full_d = ((1 << n_d) - 1) & ~((1 << j) - 1)
                    while unresolved:
                        low = unresolved & -unresolved
                        unresolved ^= low
                        free = full_d & ~conflicts.mask(a, low.bit_length() - 1, d)
                        v = lst_d[(free & -free).bit_length() - 1].key if free else 0
                        found[v] = found.get(v, 0) | low
                    break
                clash = conflicts.mask(d, j, a)
                free = unresolved & ~clash
                if free:
                    found[b.key] = found.get(b.key, 0) | free
                    unresolved &= clash
            if unresolved:
                found[0] = found.get(0, 0) | unresolved  # nothing left free: the train rests
            classes_all.append((mult, sorted(found.items(), reverse=True)))
        keep = _above(keys_a, classes_all, len(classes_all), lb, {})
        if keep == full:
            out.append(lst_a)
            continue
        bits = bin(keep)[:1:-1]
        out.append([lst_a[i] for i, ch in enumerate(bits) if ch == "1"])
    return [out[d] for d in which], incumbent


def _assign(
    problem: Problem,
    lists: list[list[Candidate]],
    groups: list[int],
    incumbent: list[Candidate | None],
    cancel: Callable[[], bool] | None,
    progress: Progress | None,
    scoring: TitleScoring,
    tables: Tables | None = None,
) -> tuple[list[Candidate | None], int, bool]:
    """Best choice of one route or none per list, no track shared (branch and bound).

    Routes of a list that earn the same and clash with the same routes of every
    list (their own too when identical trains share it) are interchangeable: only
    the first of them is branched on (:func:`_interchangeable`).  The routes left
    keep their order, so the answer is the one the whole lists give.
    """
    lists = _interchangeable(problem, lists, groups, tables)
    return _assign_in_order(problem, lists, groups, incumbent, cancel, progress, scoring, tables)


def _interchangeable(problem: Problem, lists: list[list[Candidate]], groups: list[int],
                     tables: Tables | None = None) -> list[list[Candidate]]:
    """The lists with one route per class of interchangeable ones (the first of each).

    Two routes of a list are interchangeable when their key, revenue, mail value
    and phantom flag are equal and they clash with the same routes of each list (of
    their own list only when identical trains share it).  Parallel track and many
    ways between the same stops make most of a long list such copies; a branch on
    a copy gives what the branch on the first one gave.
    """
    distinct: list[list[Candidate]] = []
    distinct_groups: list[int] = []
    count: list[int] = []
    which: list[int] = []
    for lst, group in zip(lists, groups, strict=True):
        d = next((n for n, other in enumerate(distinct) if other is lst), -1)
        if d < 0:
            d = len(distinct)
            distinct.append(lst)
            distinct_groups.append(group)
            count.append(0)
        count[d] += 1
        which.append(d)
    if len(distinct) < 2 or sum(len(lst) for lst in distinct) < DEDUPE_FROM:
        return lists
    conflicts = _Conflicts(problem, distinct, distinct_groups, tables)
    out: list[list[Candidate]] = []
    for d, lst in enumerate(distinct):
        seen: set[tuple[object, ...]] = set()
        kept: list[Candidate] = []
        for j, c in enumerate(lst):
            masks = conflicts.masks(d, j)
            if count[d] < 2:
                masks[d] = 0
            sig = (c.key, c.revenue, c.mail, c.phantom, *masks)
            if sig not in seen:
                seen.add(sig)
                kept.append(c)
        out.append(kept if len(kept) < len(lst) else lst)
    return [out[d] for d in which]


DEDUPE_FROM = 400
"""Routes in all lists from which :func:`_assign` merges interchangeable routes (below,
the branch and bound is quicker than the merge)."""


def _assign_in_order(
    problem: Problem,
    lists: list[list[Candidate]],
    groups: list[int],
    incumbent: list[Candidate | None],
    cancel: Callable[[], bool] | None,
    progress: Progress | None,
    scoring: TitleScoring,
    tables: Tables | None = None,
) -> tuple[list[Candidate | None], int, bool]:
    """Best choice of one route or none per list, no track shared (branch and bound),
    choosing in the order of ``lists``.

    Each list keeps, as a bit set over its positions, the routes that clash
    with the track taken so far; the bound at each level is the sum, over the
    trains left, of their best route that does not clash.  ``incumbent`` is
    a known legal choice to beat.  Lists that are the same object belong to
    identical trains and take routes in increasing order.  Returns the
    choice, its total and whether the search finished.
    """
    k = len(lists)
    distinct: list[list[Candidate]] = []
    distinct_groups: list[int] = []
    which: list[int] = []
    for lst, group in zip(lists, groups, strict=True):
        for d, other in enumerate(distinct):
            if other is lst:
                which.append(d)
                break
        else:
            which.append(len(distinct))
            distinct.append(lst)
            distinct_groups.append(group)
    conflicts = _Conflicts(problem, distinct, distinct_groups, tables)
    full = [(1 << len(lst)) - 1 for lst in distinct]
    same_as_prev = [i > 0 and which[i] == which[i - 1] for i in range(k)]
    best: list[Candidate | None] = list(incumbent)
    best_value = [_value(scoring, incumbent)]
    exact = scoring.has_run_bonus()
    # with a run bonus: every route's key is at least ``lo`` above its revenue, and
    # the bonus of a whole run is at most ``hi`` (a second bound, on the revenues)
    lo = scoring.run_bonus_floor() if exact else 0
    hi = scoring.run_bonus_total() if exact else 0
    choice = [-1] * k
    polls = [0]
    n_distinct = len(distinct)
    last = k - 1
    ahead = [sorted(set(which[i:])) for i in range(k)]
    """Per level, the lists of the trains still to choose (their best free routes bound)."""

    masks: dict[tuple[int, int], list[int]] = {}
    """(list, position) -> per list, the routes that clash with that route (memo)."""

    def clash(confs: list[int], d_i: int, j: int) -> list[int]:
        mine = masks.get((d_i, j))
        if mine is None:
            mine = masks[(d_i, j)] = conflicts.masks(d_i, j)
        return [c | m for c, m in zip(confs, mine, strict=True)]

    def branch(i: int, confs: list[int], total: int, rsum: int) -> None:
        if i == k:
            if exact:
                total = _value(scoring, [lists[j][choice[j]] if choice[j] >= 0 else None
                                         for j in range(k)])
            if total > best_value[0]:
                best_value[0] = total
                best[:] = [lists[j][choice[j]] if choice[j] >= 0 else None for j in range(k)]
                if progress is not None:
                    progress(0.95, total)
            return
        polls[0] += 1
        if polls[0] & 1023 == 0:
            _poll(cancel)
        d_i = which[i]
        top = [0] * n_distinct
        for d in ahead[i]:
            free = full[d] & ~confs[d]
            if free:
                top[d] = distinct[d][(free & -free).bit_length() - 1].key
            if d == d_i:
                mine = free
        after = sum(top[which[j]] for j in range(i + 1, k))
        if total + top[d_i] + after <= best_value[0]:
            return
        after_rev = 0
        if exact:
            after_rev = sum(top[which[j]] - lo for j in range(i + 1, k) if top[which[j]])
            if rsum + (top[d_i] - lo if top[d_i] else 0) + after_rev + hi <= best_value[0]:
                return
        lst = distinct[d_i]
        free = mine
        if same_as_prev[i]:
            if choice[i - 1] < 0:
                choice[i] = -1
                branch(i + 1, confs, total, rsum)
                return
            free &= ~((1 << (choice[i - 1] + 1)) - 1)
        while free:
            low = free & -free
            free ^= low
            j = low.bit_length() - 1
            c = lst[j]
            if total + c.key + after <= best_value[0]:
                break
            if exact and rsum + c.revenue + after_rev + hi <= best_value[0]:
                continue
            choice[i] = j
            # the last train's route clashes with nothing after it
            branch(i + 1, confs if i == last else clash(confs, d_i, j), total + c.key,
                   rsum + c.revenue)
        choice[i] = -1
        if total + after > best_value[0] and (not exact or rsum + after_rev + hi > best_value[0]):
            branch(i + 1, confs, total, rsum)

    try:
        branch(0, [0] * n_distinct, 0, 0)
    except _Stopped:
        return best, best_value[0], False
    return best, best_value[0], True


def _phantoms(scoring: TitleScoring, trains: list[TrainSpec], rep_of: dict[str, _Rep],
              lists: list[list[Candidate]], tables: Tables | None = None
              ) -> tuple[list[list[Candidate]], bool]:
    """The lists with their phantoms, and whether any list was cut.

    A cut list (the best ``keep`` routes) holds every route of key at least its
    floor; all the others are stood for by a phantom of key ``floor - 1`` that
    clashes with nothing (one per train of the list).  If the branch and bound finds
    no better answer with a phantom than without, the lists needed no more routes.
    """
    extended: dict[int, list[Candidate]] = {}
    lo = scoring.run_bonus_floor() if scoring.has_run_bonus() else 0
    count: dict[int, int] = {}
    for t in trains:
        count[id(rep_of[t.id])] = count.get(id(rep_of[t.id]), 0) + 1
    out: list[list[Candidate]] = []
    any_phantom = False
    for t, lst in zip(trains, lists, strict=True):
        r = rep_of[t.id]
        got = extended.get(id(lst))
        if got is None:
            got = lst
            if r.keep and len(r.heap) >= r.keep and r.floor > 1:
                key = r.floor - 1
                got = lst + [Candidate(max(0, key - lo), 0, (), (), key, None, True)
                             for _ in range(count[id(r)])]
                _alias(tables, got, lst)
                any_phantom = True
            extended[id(lst)] = got
        out.append(got)
    return out, any_phantom


def _others_best(problem: Problem, scoring: TitleScoring, lists: list[list[Candidate]],
                 groups: list[int], cancel: Callable[[], bool] | None,
                 tables: Tables | None = None) -> list[int] | None:
    """Per train, the most the other trains can earn together (their lists with
    phantoms: an upper bound); None when cancelled."""
    out: list[int] = []
    k = len(lists)
    for i in range(k):
        rest = [lists[j] for j in range(k) if j != i]
        rest_groups = [groups[j] for j in range(k) if j != i]
        try:
            _best, value, done = _assign(problem, rest, rest_groups, [None] * (k - 1), cancel,
                                         None, scoring, tables)
        except _Stopped:
            return None
        if not done:
            return None
        out.append(value)
    return out


def solve(
    problem: Problem,
    scoring: TitleScoring,
    *,
    progress: Progress | None = None,
    cancel: Callable[[], bool] | None = None,
    keep: int = 48,
) -> Result:
    """The routes for the company's trains that earn the most (see the module doc).

    The search runs without the segments no answer needs (:mod:`.spare`); the
    routes come back in the problem's own segment numbers.

    Args:
        keep: routes per train kept by the first, heavily pruned pass.
    """
    from dataclasses import replace

    from desk18xx.engine.optimizer.spare import spare_segments

    spare = spare_segments(problem)
    if not spare:
        return _solve(problem, scoring, progress, cancel, keep)
    kept = [sg for sg in problem.segments if sg.index not in spare]
    back = [sg.index for sg in kept]
    reduced = Problem(problem.corp, problem.stops,
                      tuple(replace(sg, index=n) for n, sg in enumerate(kept)), problem.trains,
                      problem.hex_ids, info=problem.info, n_track=problem.n_track).finish()
    result = _solve(reduced, scoring, progress, cancel, keep)
    result.routes = tuple(replace(r, segments=tuple(back[si] for si in r.segments))
                          for r in result.routes)
    result.stats["spare"] = float(len(spare))
    return result


def _solve(problem: Problem, scoring: TitleScoring, progress: Progress | None,
           cancel: Callable[[], bool] | None, keep: int) -> Result:
    """:func:`solve` on the problem as it is."""
    t0 = time.perf_counter()
    trains = problem.trains
    k = len(trains)
    scoring.prepare(problem)
    # one rep per (distance class, name, limit, multiplier, kind)
    classes: dict[Distance, dict[tuple[str, int | None, int, str], _Rep]] = {}
    rep_of: dict[str, _Rep] = {}
    for t in trains:
        d = scoring.distance(t)
        key = (t.name, d.limit, t.multiplier, t.kind)
        reps = classes.setdefault(Distance(d.kinds, None, d.free, d.max_stops), {})
        if key not in reps:
            paying = scoring.paying(t)
            reps[key] = _Rep(
                t, d.limit, paying if paying is not None else 1 << 30, t.multiplier,
                scoring.max_bonus(t) + scoring.max_run_bonus(t), keep=1 if k == 1 else keep,
                group=scoring.group(t),
            )
        rep_of[t.id] = reps[key]
    per_group: dict[int, int] = {}
    for t in trains:
        per_group[rep_of[t.id].group] = per_group.get(rep_of[t.id].group, 0) + 1
    for t in trains:
        r = rep_of[t.id]
        if per_group[r.group] == 1:
            pats = scoring.patterns(t)
            if pats is not None:
                r.flags = (0, 1) if scoring.mail_flag(t) else (0,)
                mail = r.mail_cap = scoring.max_run_bonus(t)
                r.patterns = [(p << 1 | f, b + mail * f) for p, b in pats for f in r.flags]
                r.update_thresholds()
                r.keep = 0
    order = sorted(classes, key=lambda d: (sorted(d.kinds), sorted(d.free), d.max_stops or 0))
    stats: dict[str, float] = {"priced": 0.0, "passes": 0.0}
    best_note = [0]
    prices: Prices = {}

    def run_pass(which: list[Distance], share: tuple[float, float],
                 only: dict[Distance, list[_Rep]] | None = None) -> bool:
        """Walk each distance class of ``which`` (``only``: just these reps of it)."""
        for n, kinds in enumerate(which):
            def sub(f: float, n: int = n) -> None:
                if progress is not None:
                    span = share[1] - share[0]
                    progress(share[0] + span * (n + f) / len(which), best_note[0])
            try:
                reps = only[kinds] if only is not None else list(classes[kinds].values())
                stats["priced"] += _walk(problem, scoring, kinds, reps, cancel, sub,
                                         cache=prices)
            except _Stopped:
                return False
            stats["passes"] += 1
        return True

    complete = run_pass(order, (0.0, 0.5))
    ordered_trains = sorted(trains, key=lambda t: (-rep_of[t.id].best, t.name, t.id))
    lists = [rep_of[t.id].routes for t in ordered_trains]
    # a first answer: greedy (each train the best route on the track left), then the
    # best mix of the kept routes; proven best if no train needs more routes
    incumbent: list[Candidate | None] = [None] * k
    if complete and k > 1:
        try:
            incumbent = _greedy(problem, scoring, ordered_trains, rep_of, cancel, stats, prices)
        except _Stopped:
            complete = False
    groups = [rep_of[t.id].group for t in ordered_trains]
    tables: Tables = {}
    proven = False
    phantom_lists, cut = _phantoms(scoring, ordered_trains, rep_of, lists, tables)
    first: tuple[list[Candidate | None], int, bool] | None = None
    if complete and k > 1 and cut:
        # the kept routes and a phantom per cut list (every route it left out): an
        # answer without a phantom is the best there is
        best, value, done = _assign(problem, phantom_lists, groups, incumbent, cancel, None,
                                    scoring, tables)
        if not any(c is not None and c.phantom for c in best):
            first = best, value, done
            proven = done
        elif not done:
            first = incumbent, _value(scoring, incumbent), False
    if first is None:
        first = _assign(problem, lists, groups, incumbent, cancel, progress, scoring, tables)
        proven = first[2] and k > 1 and not cut
    choice, total, done = first
    complete = complete and done
    best_note[0] = total
    if proven and complete:
        stats["phantom_proof"] = 1.0
    elif complete and k > 1:
        # what the others can earn together bounds what a better answer leaves this one
        others = _others_best(problem, scoring, phantom_lists, groups, cancel, tables)
        total_best = sum(rep_of[t.id].best for t in trains)
        lo, hi = scoring.run_bonus_floor(), scoring.run_bonus_total()
        rev_best = sum(max(0, rep_of[t.id].best - lo) for t in trains)
        need: dict[int, int] = {}
        position_of = {t.id: n for n, t in enumerate(ordered_trains)}
        for t in trains:
            r = rep_of[t.id]
            floor = total + 1 - (total_best - r.best)
            if scoring.has_run_bonus():
                # revenues: key_t - lo + the others' best revenues + the whole bonus
                floor = max(floor, total + 1 + lo - (rev_best - max(0, r.best - lo)) - hi)
            if others is not None:
                floor = max(floor, total + 1 - others[position_of[t.id]])
            need[id(r)] = min(need.get(id(r), floor), floor)
        again: dict[Distance, list[_Rep]] = {}
        for kinds in order:
            for r in classes[kinds].values():
                floor = max(1, need[id(r)])
                complete_list = not r.keep or len(r.heap) < r.keep or r.floor <= floor
                if not complete_list:
                    # only the lists cut too high are walked again (the others stay whole)
                    r.keep, r.floor, r.routes, r.heap = 0, floor, [], []
                    again.setdefault(kinds, []).append(r)
        if again:
            complete = run_pass(list(again), (0.5, 0.9), again)
            lists = [rep_of[t.id].routes for t in ordered_trains]
            if complete:
                try:
                    lists, choice = _consistent(problem, scoring, lists, groups, choice, cancel,
                                                tables)
                except _Stopped:
                    complete = False
            choice, total, done = _assign(problem, lists, groups, choice, cancel, progress,
                                          scoring, tables)
            complete = complete and done
    routes = []
    for t, c in zip(ordered_trains, choice, strict=True):
        if c is not None:
            routes.append(PlannedRoute(t.id, c.stops, c.segments, c.revenue))
    position = {t.id: n for n, t in enumerate(trains)}
    routes.sort(key=lambda r: position[r.train])
    if progress is not None:
        progress(1.0, total)
    stats["seconds"] = time.perf_counter() - t0
    revenue = sum(r.revenue for r in routes)
    return Result(tuple(routes), revenue, complete, stats, total - revenue)
