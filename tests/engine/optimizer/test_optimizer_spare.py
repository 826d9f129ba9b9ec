"""Segments and links no best answer needs (:mod:`desk18xx.engine.optimizer.spare`,
:func:`desk18xx.engine.optimizer.contract.spare_links`).

Hand-made boards where each condition of a rule keeps a segment (or link) the best
answer needs, and random boards with parallel and shared track where the brute
force must earn as much without the spare segments as with them.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from optimizer_helpers import brute_force, problem, stop, train

from desk18xx.engine.optimizer import Problem, TrainSpec, contract, solve
from desk18xx.engine.optimizer.scoring import Scoring1867
from desk18xx.engine.optimizer.scoring_1822ca import Scoring1822CA, Train1822
from desk18xx.engine.optimizer.search import _reachable
from desk18xx.engine.optimizer.spare import one_route, spare_segments

S1867 = Scoring1867()


def e_scoring(**kw: object) -> Scoring1822CA:
    return Scoring1822CA(trains={"E-0": Train1822(parts=None, e_train=True)}, major=True,
                         **kw)  # type: ignore[arg-type]


def without(p: Problem, spare: frozenset[int]) -> Problem:
    """``p`` without the ``spare`` segments (numbered again)."""
    kept = [replace(sg, index=n) for n, sg in enumerate(
        sg for sg in p.segments if sg.index not in spare)]
    return Problem(p.corp, p.stops, tuple(kept), p.trains, p.hex_ids,
                   n_track=p.n_track).finish()


def test_two_trains_keep_both_of_two_parallel_segments() -> None:
    # A(token) = B twice over separate track: each 2-train runs A-B over its own
    stops = [stop(0, "city", 20, token=True), stop(1, "city", 30)]
    p = problem(stops, [(0, 1), (0, 1, 1)], [train("2", 2, n=0), train("2", 2, n=1)])
    assert spare_segments(p) == frozenset()
    assert spare_segments(p, alone=True) == frozenset({1})  # one route takes one of them
    assert solve(p, S1867).revenue == 100 == brute_force(p, S1867)


def test_a_segment_on_a_subset_of_the_others_track_is_enough() -> None:
    # segment 1 uses segment 0's track and more: no set of routes needs it
    stops = [stop(0, "city", 20, token=True), stop(1, "city", 30), stop(2, "city", 10)]
    p = problem(stops, [(0, 1), (0, 1, 1), (1, 2)], [train("2", 2, n=0), train("2", 2, n=1)],
                shared={1: 0})
    assert spare_segments(p) == frozenset({1})
    got = solve(p, S1867)
    assert got.revenue == brute_force(p, S1867) == 50
    assert all(1 not in r.segments for r in got.routes)


def test_a_parallel_segment_sharing_track_elsewhere_stays() -> None:
    # X(token) - A = Y(token) - Z(token): the E-train runs X-A-Y-Z; of the two A-Y
    # segments the first shares a piece with Y-Z, so only the second does
    stops = [stop(0, "city", 20, token=True), stop(1, "town", 10),
             stop(2, "city", 30, token=True), stop(3, "city", 40, token=True)]
    p = problem(stops, [(0, 1), (1, 2), (1, 2, 1), (2, 3)], [TrainSpec("E-0", "E", 99, 2, "E")],
                shared={3: 1})
    assert spare_segments(p, alone=True) == frozenset({1})
    assert spare_segments(p) == frozenset()
    got = solve(p, e_scoring())
    assert got.revenue == brute_force(p, e_scoring()) == 180
    assert got.routes[0].segments == (0, 2, 3)


def test_a_terminal_segment_does_not_stand_in_for_a_through_one() -> None:
    # A(token) - B, twice over the same track, the first only to end at B: the second
    # stands in for it, not the other way round (the 3-train goes on to C)
    stops = [stop(0, "city", 20, token=True), stop(1, "city", 30), stop(2, "city", 40)]
    p = problem(stops, [(0, 1), (0, 1, 1), (1, 2)], [train("3", 3)], shared={1: 0})
    p = Problem(p.corp, p.stops, (replace(p.segments[0], terminal_b=True), *p.segments[1:]),
                p.trains, p.hex_ids).finish()
    assert spare_segments(p) == frozenset({0})
    assert solve(p, S1867).revenue == brute_force(p, S1867) == 90


def test_a_segment_passing_a_hex_does_not_stand_in_for_one_that_does_not() -> None:
    # the first A-B segment passes C's hex (1867: no hex twice), the second, on the same
    # track, does not: the 3-train visits C
    stops = [stop(0, "city", 20, token=True), stop(1, "city", 30), stop(2, "city", 40)]
    p = problem(stops, [(0, 1), (0, 1, 1), (1, 2)], [train("3", 3)], shared={1: 0})
    p = Problem(p.corp, p.stops, (replace(p.segments[0], passed=stops[2].hex_bit),
                                  *p.segments[1:]), p.trains, p.hex_ids).finish()
    assert spare_segments(p) == frozenset({0})
    assert solve(p, S1867).revenue == brute_force(p, S1867) == 90


def _board(seed: int) -> Problem:
    """6-8 stops, one or two tokens, much parallel and shared track, some of it terminal
    or passing a hex; two or three trains."""
    rng = random.Random(9100 + seed)
    n = rng.randint(6, 8)
    tokens = set(rng.sample(range(n), rng.randint(1, 2)))
    stops = [stop(i, "city" if i in tokens else rng.choice(["city", "town", "offboard"]),
                  rng.choice([10, 20, 30]), token=i in tokens) for i in range(n)]
    links: list[tuple[int, int] | tuple[int, int, int]] = [(rng.randrange(i), i)
                                                           for i in range(1, n)]
    shared: dict[int, int] = {}
    for _ in range(n):
        if rng.random() < 0.4:
            a, b = rng.sample(range(n), 2)
        else:
            # parallel to another, often on some of its track
            j = rng.randrange(len(links))
            a, b = links[j][:2]
            if rng.random() < 0.6:
                shared[len(links)] = j
        links.append((a, b, len(links)))
    for k in range(len(links)):
        if k not in shared and rng.random() < 0.2:
            shared[k] = rng.randrange(len(links))
    picks = rng.sample([2, 2, 3, 4], rng.randint(2, 3))
    trains = [train(str(d), d, n=i) for i, d in enumerate(picks)]
    p = problem(stops, links, trains, shared=shared)

    def passed(a: int, b: int) -> int:
        if rng.random() >= 0.15:
            return 0
        return rng.choice(stops).hex_bit & ~(stops[a].hex_bit | stops[b].hex_bit)

    segs = tuple(replace(sg, terminal_a=rng.random() < 0.15, terminal_b=rng.random() < 0.15,
                         passed=passed(sg.a, sg.b)) for sg in p.segments)
    return Problem(p.corp, p.stops, segs, p.trains, p.hex_ids).finish()


@pytest.mark.parametrize("seed", range(80))
def test_spare_segments_leave_the_brute_force_optimum(seed: int) -> None:
    p = _board(seed)
    spare = spare_segments(p)
    assert brute_force(without(p, spare), S1867) == brute_force(p, S1867)
    assert solve(p, S1867).revenue == brute_force(p, S1867)


def test_the_random_boards_have_spare_segments() -> None:
    assert sum(bool(spare_segments(_board(seed))) for seed in range(80)) >= 40


def test_a_link_through_a_needed_stop_stays() -> None:
    # home X(token) - Y(token) straight, or through the destination D on track that
    # Y - Z(token) needs too: without D the straight link would do all the other does
    stops = [stop(0, "city", 20, token=True), stop(1, "town", 30),
             stop(2, "city", 30, token=True), stop(3, "city", 10, token=True)]
    p = problem(stops, [(0, 2), (0, 1), (1, 2), (2, 3)], [TrainSpec("E-0", "E", 99, 2, "E")],
                shared={3: 2})
    nodes = contract.token_nodes(p, _reachable(p))
    lks = contract.links(p, nodes, lambda: None)
    assert [lk.stops for lk in lks] == [(0, 2), (0, 1, 2), (2, 3)]
    assert [lk.stops for lk in contract.spare_links(p, lks, nodes)] == [(0, 2), (2, 3)]
    assert [lk.stops for lk in contract.spare_links(p, lks, nodes, frozenset({1}))] == [
        (0, 2), (0, 1, 2), (2, 3)]
    # X-D-Y earns the destination's value (doubled) besides: more than X-Y-Z
    got = solve(p, e_scoring(home=("H0", 0), destination=("H1", 0)))
    assert got.revenue == brute_force(p, e_scoring(home=("H0", 0), destination=("H1", 0)))
    assert got.revenue == 100 + 60
    assert got.routes[0].stops == (0, 1, 2)


def test_one_route_forgets_pieces_only_one_pair_of_stops_uses() -> None:
    stops = [stop(0, "city", 20, token=True), stop(1, "city", 30), stop(2, "city", 10)]
    p = problem(stops, [(0, 1), (0, 1, 1), (1, 2)], [train("2", 2)], shared={1: 0, 2: 1})
    alone = one_route(p)
    # piece 0: segments 0 and 1 (both A-B); piece 1: segments 1 and 2 (B-C too);
    # piece 2: segment 2 only
    assert [sg.track for sg in alone.segments] == [0, 0b10, 0b10]
    assert [sg.index for sg in alone.segments] == [0, 1, 2]


def test_a_link_through_a_needed_stop_is_not_beaten_by_a_smaller_one() -> None:
    # X(token) - D - Y(token) or X - Q - Y, Q in D's hex: the way through Q uses a
    # subset of what the way through D uses, but only D is the destination
    stops = [stop(0, "city", 20, token=True), stop(1, "town", 30),
             stop(2, "city", 30, token=True), stop(3, "town", 10, hex_no=1)]
    p = problem(stops, [(0, 3), (3, 2), (0, 1), (1, 2)], [TrainSpec("E-0", "E", 99, 2, "E")],
                shared={2: 0, 3: 1})
    nodes = contract.token_nodes(p, _reachable(p))
    assert [lk.stops for lk in contract.links(p, nodes, lambda: None)] == [(0, 3, 2)]
    assert [lk.stops for lk in contract.links(p, nodes, lambda: None, needed=frozenset({1}))
            ] == [(0, 3, 2), (0, 1, 2)]
    sc = e_scoring(home=("H0", 0), destination=("H1", 0))
    got = solve(p, sc)
    assert got.revenue == brute_force(p, e_scoring(home=("H0", 0), destination=("H1", 0)))
    assert got.revenue == 100 + 60
