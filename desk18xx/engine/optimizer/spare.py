"""Segments no best answer needs: dropped before a search.

Of two segments between the same two stops a route takes at most one (it
visits each stop once), and a segment ``s`` can stand in for another,
``t``, when it is terminal only where ``t`` is, passes only hexes ``t``
passes, and meets (shares a track piece with) only segments ``t`` meets:
in any set of routes, the one with ``s`` instead of ``t`` visits the same
stops, earns the same and clashes with nothing new.  Such a ``t`` is spare.
"""

from __future__ import annotations

from desk18xx.engine.optimizer.model import Problem


def spare_segments(problem: Problem, alone: bool = False) -> frozenset[int]:
    """The spare segments of ``problem`` (of equal ones the first stays).

    ``s`` must meet no segment ``t`` does not: ``s`` itself included, so ``s``
    and ``t`` share a piece (else one train may run ``s`` while another runs
    ``t``).  ``alone``: for one train whose track clashes with no other
    train's (1822CA E-train): then the segments between the same two stops
    are left out of the comparison (one route never takes two of them).

    Dropping a segment may make others spare: the rule is applied until
    nothing changes.
    """
    segs = problem.segments
    spare: set[int] = set()
    by_pair: dict[tuple[int, int], list[int]] = {}
    for sg in segs:
        by_pair.setdefault((min(sg.a, sg.b), max(sg.a, sg.b)), []).append(sg.index)
    groups = [ids for ids in by_pair.values() if len(ids) > 1]
    # per segment, its terminal flags at the lower and the higher stop
    flags = [(sg.terminal_a, sg.terminal_b) if sg.a <= sg.b else (sg.terminal_b, sg.terminal_a)
             for sg in segs]
    users: dict[int, int] = {}
    """Per track piece, the segments (not spare) using it, as a bit set."""
    for sg in segs:
        t = sg.track
        while t:
            low = t & -t
            users[low] = users.get(low, 0) | 1 << sg.index
            t ^= low
    changed = True
    while changed and groups:
        changed = False
        for ids in groups:
            live = [i for i in ids if i not in spare]
            if len(live) < 2:
                continue
            pair_mask = 0
            for i in live:
                pair_mask |= 1 << i
            meets: dict[int, int] = {}
            for i in live:
                m = 0
                t = segs[i].track
                while t:
                    low = t & -t
                    m |= users[low]
                    t ^= low
                meets[i] = m & ~pair_mask if alone else m
            for i in live:
                ti, pi, mi = flags[i], segs[i].passed, meets[i]
                for j in live:
                    if j == i or j in spare:
                        continue
                    tj, pj, mj = flags[j], segs[j].passed, meets[j]
                    if tj[0] > ti[0] or tj[1] > ti[1] or pj & ~pi or mj & ~mi:
                        continue
                    if j > i and (tj, pj, mj) == (ti, pi, mi):
                        continue  # equal: the first stays
                    spare.add(i)
                    changed = True
                    t = segs[i].track
                    while t:
                        low = t & -t
                        users[low] &= ~(1 << i)
                        t ^= low
                    break
    return frozenset(spare)


def one_route(problem: Problem) -> Problem:
    """``problem`` as one route sees it: without the track pieces that only segments
    between the same two stops use (a route takes one of those segments at most, so
    such a piece never clashes).  Same stops and segments, numbered the same; only
    for a train whose track clashes with no other train's (1822CA E-train)."""
    from dataclasses import replace

    pairs: dict[int, tuple[int, int] | None] = {}
    for sg in problem.segments:
        pair = (min(sg.a, sg.b), max(sg.a, sg.b))
        t = sg.track
        while t:
            low = t & -t
            if pairs.get(low, pair) != pair:
                pairs[low] = None
            else:
                pairs[low] = pair
            t ^= low
    private = 0
    for piece, only in pairs.items():
        if only is not None:
            private |= piece
    if not private:
        return problem
    return Problem(problem.corp, problem.stops,
                   tuple(replace(sg, track=sg.track & ~private) for sg in problem.segments),
                   problem.trains, problem.hex_ids, info=problem.info,
                   n_track=problem.n_track).finish()
