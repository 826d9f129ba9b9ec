"""The route search on hand-built positions whose best routes are known."""

from __future__ import annotations

import random

import pytest
from optimizer_helpers import (
    brute_force,
    problem,
    revenue_1867_by_combinations,
    stop,
    train,
)

from desk18xx.engine.optimizer.model import Problem, Stop, TrainSpec
from desk18xx.engine.optimizer.scoring import Scoring1867, TitleScoring
from desk18xx.engine.optimizer.search import CancelToken, solve

S1867 = Scoring1867()


def line() -> list[Stop]:
    """A(token, 20) - t(10) - B(30) - C(40) - off(50)."""
    return [
        stop(0, "city", 20, token=True),
        stop(1, "town", 10),
        stop(2, "city", 30),
        stop(3, "city", 40),
        stop(4, "offboard", 50),
    ]


LINE = [(0, 1), (1, 2), (2, 3), (3, 4)]


def test_two_train_skips_the_town_and_counts_two_cities() -> None:
    p = problem(line(), LINE, [train("2", 2)])
    r = solve(p, S1867)
    # A-t-B (20+30): cities are counted, the town is passed; B-C-off has no token
    assert r.revenue == 50
    assert r.complete
    assert r.routes[0].stops in ((0, 1, 2),)


def test_town_fills_a_free_place() -> None:
    p = problem(line()[:3], LINE[:2], [train("3", 3)])
    assert solve(p, S1867).revenue == 60  # A + t + B


def test_longer_train_reaches_the_offboard() -> None:
    p = problem(line(), LINE, [train("4", 4)])
    # A, B, C, off = 140; the town would need a fifth place
    assert solve(p, S1867).revenue == 140
    p5 = problem(line(), LINE, [train("5", 5)])
    assert solve(p5, S1867).revenue == 150


def test_offboard_and_full_city_end_a_route() -> None:
    stops = line()
    stops[2] = stop(2, "city", 30, passable=False)  # full of other tokens
    p = problem(stops, LINE, [train("5", 5)])
    assert solve(p, S1867).revenue == 60  # A-t-B, cannot pass B
    stops2 = [stop(0, "offboard", 50), stop(1, "city", 20, token=True), stop(2, "offboard", 60),
              stop(3, "city", 100)]
    p2 = problem(stops2, [(0, 1), (1, 2), (2, 3)], [train("4", 4)])
    assert solve(p2, S1867).revenue == 130  # off-A-off; the 100 lies beyond an off-board


def test_double_train_doubles() -> None:
    p = problem(line(), LINE, [train("2+2", 2, mult=2)])
    assert solve(p, S1867).revenue == 100


def test_trains_do_not_share_track() -> None:
    # star around the token city A: three arms
    stops = [stop(0, "city", 10, token=True), stop(1, "city", 50), stop(2, "city", 40),
             stop(3, "city", 30)]
    links = [(0, 1), (0, 2), (0, 3)]
    trains = [train("2", 2, n=0), train("2", 2, n=1), train("3", 3)]
    p = problem(stops, links, trains)
    r = solve(p, S1867)
    # one arm each: A-1 60, A-2 50, A-3 40 (a 3-train on two arms leaves one train idle)
    assert r.revenue == 150
    used = [set(x.segments) for x in r.routes]
    for i in range(len(used)):
        for j in range(i + 1, len(used)):
            assert not used[i] & used[j]
    assert brute_force(p, S1867) == 150


def test_shared_track_piece_between_two_segments() -> None:
    stops = [stop(0, "city", 10, token=True), stop(1, "city", 50), stop(2, "city", 40)]
    p = problem(stops, [(0, 1), (0, 2)], [train("2", 2, n=0), train("2", 2, n=1)],
                shared={1: 0})
    assert solve(p, S1867).revenue == 60  # the two segments share a piece: one train


def test_parallel_track_lets_two_trains_run_between_the_same_cities() -> None:
    stops = [stop(0, "city", 10, token=True), stop(1, "city", 50)]
    p = problem(stops, [(0, 1), (0, 1, 1)], [train("2", 2, n=0), train("2", 2, n=1)])
    assert solve(p, S1867).revenue == 120


def test_one_stop_per_hex() -> None:
    # Toronto: two cities in one hex (hex number 1)
    stops = [stop(0, "city", 20, token=True), stop(1, "city", 40, hex_id="F16", hex_no=1),
             stop(2, "city", 40, hex_id="F16", hex_no=1), stop(3, "city", 30)]
    p = problem(stops, [(0, 1), (1, 2), (2, 3)], [train("4", 4)])
    assert solve(p, S1867).revenue == 60  # A-F16 only; F16 twice is illegal


def test_express_counts_offboards_then_best_stops_doubled() -> None:
    stops = [stop(0, "offboard", 50), stop(1, "city", 10, token=True), stop(2, "city", 40),
             stop(3, "town", 30), stop(4, "city", 20), stop(5, "city", 60),
             stop(6, "offboard", 70)]
    links = [(i, i + 1) for i in range(6)]
    p = problem(stops, links, [train("5+5E", 5, mult=2, kind="express")])
    # off 50 + off 70 mandatory; best three others with a token: A(10) must be in
    # 60 + 40 + 10 -> (50+70+60+40+10) * 2
    assert solve(p, S1867).revenue == 460


def test_express_needs_a_counted_token() -> None:
    stops = [stop(0, "city", 0, token=True), stop(1, "city", 40), stop(2, "city", 40)]
    p = problem(stops, [(0, 1), (1, 2)], [train("5+5E", 5, mult=2, kind="express")])
    assert solve(p, S1867).revenue == 160


def test_timmins_with_a_capital() -> None:
    stops = [stop(0, "city", 40, hex_id="D2", token=True), stop(1, "city", 30, hex_id="F16"),
             stop(2, "city", 50)]
    p = problem(stops, [(0, 1), (0, 2)], [train("2", 2)])
    # D2+F16 = 70 + 40 bonus beats D2 + 50
    assert solve(p, S1867).revenue == 110
    p2 = problem(stops, [(0, 1), (0, 2)], [train("2+2", 2, mult=2)])
    assert solve(p2, S1867).revenue == 220


def test_timmins_pair_on_an_express_train() -> None:
    stops = [stop(0, "city", 40, hex_id="D2"), stop(1, "city", 10, hex_id="L12"),
             stop(2, "city", 45, token=True), stop(3, "city", 45), stop(4, "city", 45),
             stop(5, "city", 45), stop(6, "city", 45)]
    links = [(i, i + 1) for i in range(6)]
    p = problem(stops, links, [train("5+5E", 5, mult=2, kind="express")])
    # five 45s = 225 (*2 = 450); D2 + L12 + three 45s = 185 + 40 = 225 -> 450 too;
    # four 45s + D2 = 220 -> 440.  Tie at 450.
    assert solve(p, S1867).revenue == 450
    t = p.trains[0]
    assert revenue_1867_by_combinations(t, list(stops)) == 450


def test_private_bonus_is_not_doubled() -> None:
    stops = [stop(0, "city", 20, token=True), stop(1, "city", 30, hex_id="L12")]
    p = problem(stops, [(0, 1)], [train("2+2", 2, mult=2)])
    assert solve(p, Scoring1867(hex_bonus={"L12": 10})).revenue == 110


def test_route_needs_a_token() -> None:
    stops = [stop(0, "city", 20, token=True), stop(1, "city", 30, passable=False),
             stop(2, "city", 90), stop(3, "city", 90)]
    p = problem(stops, [(0, 1), (1, 2), (2, 3)], [train("2", 2)])
    assert solve(p, S1867).revenue == 50


def test_terminal_segment_ends_the_route() -> None:
    from dataclasses import replace

    stops = [stop(0, "city", 20, token=True), stop(1, "city", 30), stop(2, "city", 60)]
    p = problem(stops, [(0, 1), (1, 2)], [train("3", 3)])
    segs = list(p.segments)
    segs[0] = replace(segs[0], terminal_b=True)  # may end at 1 coming from 0
    p2 = Problem(p.corp, p.stops, tuple(segs), p.trains, p.hex_ids).finish()
    assert solve(p, S1867).revenue == 110
    assert solve(p2, S1867).revenue == 50
    assert brute_force(p2, S1867) == 50


def test_no_trains_or_no_token() -> None:
    p = problem(line(), LINE, [])
    assert solve(p, S1867).revenue == 0
    stops = [stop(i, "city", 10) for i in range(3)]
    p2 = problem(stops, [(0, 1), (1, 2)], [train("2", 2)])
    r = solve(p2, S1867)
    assert r.revenue == 0 and r.routes == ()


def _grid(rng: random.Random, n: int) -> tuple[list[Stop], list[tuple[int, int]]]:
    kinds = ["city"] * 5 + ["town"] * 3 + ["offboard"]
    stops = []
    for i in range(n):
        kind = rng.choice(kinds)
        stops.append(stop(i, kind, rng.choice([10, 20, 30, 40, 50]), token=False,
                          passable=(kind != "offboard") and rng.random() > 0.1,
                          hex_id=rng.choice([("D2", "F16", "L12")[i], f"H{i}"]) if i < 3
                          else None))
    for t in rng.sample(range(n), k=2):
        if stops[t].kind == "city":
            s = stops[t]
            stops[t] = stop(t, "city", s.revenue, token=True, hex_id=s.hex)
    links: list[tuple[int, int]] = []
    for i in range(1, n):
        links.append((rng.randrange(i), i))
    for _ in range(n // 2):
        a, b = rng.sample(range(n), 2)
        links.append((a, b))
    return stops, links


@pytest.mark.parametrize("seed", range(60))
def test_random_positions_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    stops, links = _grid(rng, rng.randint(5, 8))
    menu = [train("2", 2), train("3", 3), train("4", 4), train("2+2", 2, mult=2),
            train("5+5E", 5, mult=2, kind="express"), train("6", 6)]
    picks = rng.sample(menu, k=rng.randint(1, 3))
    trains = [TrainSpec(f"{t.name}-{i}", t.name, t.distance, t.multiplier, t.kind)
              for i, t in enumerate(picks)]
    if rng.random() < 0.3:
        trains.append(TrainSpec(f"{trains[0].name}-9", trains[0].name, trains[0].distance,
                                trains[0].multiplier, trains[0].kind))
    bonus = {"F16": 10} if seed % 3 == 0 else {}
    scoring = Scoring1867(hex_bonus=bonus)
    p = problem(stops, links, trains)
    got = solve(p, scoring)
    assert got.complete

    class ByCombinations(TitleScoring):
        def distance(self, t: TrainSpec):  # type: ignore[no-untyped-def]
            return scoring.distance(t)

        def revenue(self, t: TrainSpec, visited):  # type: ignore[no-untyped-def]
            return revenue_1867_by_combinations(t, visited, bonus)

    assert got.revenue == brute_force(p, ByCombinations())
    assert got.revenue == sum(r.revenue for r in got.routes)
    # the same answer every time
    again = solve(p, scoring)
    assert again.routes == got.routes


def test_generic_scoring_counts_every_stop() -> None:
    p = problem(line(), LINE, [train("3", 3)])
    assert solve(p, TitleScoring()).revenue == 60  # A + t + B


def test_progress_and_cancel() -> None:
    rng = random.Random(7)
    stops = [stop(i, "city", rng.choice([10, 20, 30]), token=(i == 0)) for i in range(14)]
    links = [(a, b) for a in range(14) for b in range(a + 1, 14) if rng.random() < 0.3]
    p = problem(stops, links, [train("8", 8, n=0), train("8", 8, n=1)])
    seen: list[tuple[float, int]] = []
    token = CancelToken()

    def progress(fraction: float, best: int) -> None:
        seen.append((fraction, best))
        token.cancel()

    r = solve(p, S1867, progress=progress, cancel=token)
    assert not r.complete
    assert seen and all(0.0 <= f <= 1.0 for f, _ in seen)
    assert r.revenue == sum(x.revenue for x in r.routes)
    full = solve(p, S1867)
    assert full.complete and full.revenue >= r.revenue


@pytest.mark.parametrize("seed", range(60, 100))
def test_short_first_lists_match_brute_force(seed: int) -> None:
    """``keep`` 1 or 2: the phantoms stand for almost everything, so the proof pass lists
    again, its greedy start and consistency filter (:func:`search._consistent`) run,
    and the answer is still the brute force's."""
    rng = random.Random(seed)
    stops, links = _grid(rng, rng.randint(6, 8))
    menu = [train("2", 2), train("3", 3), train("4", 4), train("2+2", 2, mult=2), train("6", 6)]
    picks = rng.sample(menu, k=rng.randint(2, 3))
    trains = [TrainSpec(f"{t.name}-{i}", t.name, t.distance, t.multiplier, t.kind)
              for i, t in enumerate(picks)]
    if seed % 4 == 0:
        trains.append(TrainSpec(f"{trains[0].name}-9", trains[0].name, trains[0].distance,
                                trains[0].multiplier, trains[0].kind))
    p = problem(stops, links, trains)
    got = solve(p, S1867, keep=1 + seed % 2)
    assert got.complete
    assert got.revenue == brute_force(p, S1867)
    assert got.revenue == solve(p, S1867).revenue
