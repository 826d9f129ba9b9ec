"""1822CA mail contracts in the route search (supplement §6.1 P22-P25, RB 5.11.28)."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest
from optimizer_helpers import brute_force, problem, stop, train

from desk18xx.engine.optimizer.model import TrainSpec
from desk18xx.engine.optimizer.scoring_1822ca import ANY, Scoring1822CA, Train1822, mail_income
from desk18xx.engine.optimizer.search import solve
from desk18xx.titles.g1822ca.game import G1822CA

L_PARTS = ((frozenset({"city"}), 1), (frozenset({"town"}), 1))


def scoring(trains: dict[str, Train1822], **kw: Any) -> Scoring1822CA:
    return Scoring1822CA(trains=trains, major=True, **kw)


def test_large_mail_prefers_a_shorter_route_with_better_ends() -> None:
    # A (token, 20) - B (60) - town C (10): a 3-train earns most on A-B-C (90), but a
    # large contract pays half of the ends: A-B 80 + 40 beats A-B-C 90 + 15
    stops = [stop(0, "city", 20, token=True), stop(1, "city", 60), stop(2, "town", 10)]
    p = problem(stops, [(0, 1), (1, 2)], [train("3", 3)])
    plain = solve(p, scoring({"3-0": Train1822(parts=None)}))
    assert (plain.revenue, plain.subsidy) == (90, 0)
    mail = solve(p, scoring({"3-0": Train1822(parts=None)}, mail_large=1))
    assert (mail.revenue, mail.subsidy) == (80, 40)
    assert sorted(mail.routes[0].stops) == [0, 1]
    assert brute_force(p, scoring({"3-0": Train1822(parts=None)}, mail_large=1)) == 120


def test_small_mail_pays_once_per_contract_and_route() -> None:
    stops = [stop(0, "city", 20, token=True), stop(1, "city", 30), stop(2, "city", 40)]
    trains = [train("2", 2, n=0), train("2", 2, n=1)]
    p = problem(stops, [(0, 1), (0, 2)], trains)
    infos = {t.id: Train1822(parts=None) for t in trains}
    one = solve(p, scoring(infos, mail_small=1, mail_small_value=30))
    assert (one.revenue, one.subsidy) == (110, 30)  # two routes, one contract
    two = solve(p, scoring(infos, mail_small=2, mail_small_value=30))
    assert (two.revenue, two.subsidy) == (110, 60)


def test_l_trains_take_small_contracts_but_not_large_ones() -> None:
    stops = [stop(0, "city", 30, token=True), stop(1, "town", 20)]
    p = problem(stops, [(0, 1)], [train("L", 2)])
    infos = {"L-0": Train1822(parts=L_PARTS, local=True)}
    large = solve(p, scoring(infos, mail_large=1))
    assert (large.revenue, large.subsidy) == (50, 0)
    small = solve(p, scoring(infos, mail_small=1, mail_small_value=20))
    assert (small.revenue, small.subsidy) == (50, 20)


def test_one_route_takes_the_better_of_a_large_and_a_small_contract() -> None:
    stops = [stop(0, "city", 100, token=True), stop(1, "city", 60)]
    p = problem(stops, [(0, 1)], [train("2", 2)])
    sc = scoring({"2-0": Train1822(parts=None)}, mail_large=1, mail_small=1,
                 mail_small_value=40)
    got = solve(p, sc)
    assert (got.revenue, got.subsidy) == (160, 80)


@pytest.mark.parametrize(("seed", "keep"), [(s, 128) for s in range(40)]
                         + [(s, 1 + s % 2) for s in range(40, 70)])
def test_random_mail_positions_match_brute_force(seed: int, keep: int) -> None:
    """``keep`` 1 or 2: the first pass keeps almost nothing, so the greedy start
    re-prices kept routes without a taken bonus and the proof pass does the rest."""
    rng = random.Random(7000 + seed)
    n = rng.randint(5, 7)
    kinds = ["city"] * 5 + ["town"] * 3 + ["offboard"]
    stops = []
    for i in range(n):
        kind = rng.choice(kinds)
        stops.append(stop(i, kind, rng.choice([10, 20, 30, 40, 60]),
                          token=kind == "city" and rng.random() < 0.4,
                          passable=(kind != "offboard") and rng.random() > 0.1))
    links: list[tuple[int, int] | tuple[int, int, int]] = [(rng.randrange(i), i)
                                                           for i in range(1, n)]
    for _ in range(n // 2):
        a, b = rng.sample(range(n), 2)
        links.append((a, b))
    menu = [
        (TrainSpec("E-0", "E", 99, 2, "E"), Train1822(parts=None, e_train=True)),
        (TrainSpec("L-0", "L", 2, 1, "local"), Train1822(parts=L_PARTS, local=True)),
        (TrainSpec("2-0", "2", 2, 1, "normal"), Train1822(parts=None)),
        (TrainSpec("2-1", "2", 2, 1, "normal"), Train1822(parts=None)),
        (TrainSpec("3-0", "3", 3, 1, "normal"), Train1822(parts=None)),
        (TrainSpec("2P-0", "2P", 2, 1, "normal+pullman"),
         Train1822(parts=((frozenset({"town"}), 4), (ANY, 2)), pullman=True)),
    ]
    picks = rng.sample(menu, k=rng.randint(1, 3))
    kw: dict[str, Any] = {"mail_large": rng.randint(0, 2), "mail_small": rng.randint(0, 2),
                          "mail_small_value": rng.choice([20, 30, 40])}
    tokened = [s for s in stops if s.tokened]
    if len(tokened) >= 2 and rng.random() < 0.4:
        kw.update(home=(tokened[0].hex, 0), destination=(tokened[1].hex, 0))
    sc = scoring({t.id: info for t, info in picks}, **kw)
    p = problem(stops, links, [t for t, _i in picks])
    got = solve(p, sc, keep=keep)
    assert got.complete
    assert got.revenue + got.subsidy == brute_force(p, sc)
    assert got.subsidy == sc.run_bonus([sc.mail_value(next(t for t in p.trains
                                                           if t.id == r.train),
                                                      [p.stops[i] for i in r.stops])
                                        for r in got.routes])


def _engine_mail(large_n: int, small_n: int, small_value: int,
                 runs: list[tuple[str, list[int]]]) -> int:
    """``G1822CA.mail_subsidy`` on a stand-in game: one stop value per node signature."""
    companies = ["P22", "P23"][:large_n] + ["P24", "P25"][:small_n]
    values: dict[str, int] = {}
    nodes: dict[str, tuple[str, ...]] = {}
    names: dict[str, Any] = {}
    for n, (name, stop_values) in enumerate(runs):
        tid = f"{name}-{n}"
        names[tid] = SimpleNamespace(name=name)
        sigs = []
        for k, v in enumerate(stop_values):
            sig = f"H{n}{k}-0"
            values[sig] = v
            sigs.append(sig)
        nodes[tid] = tuple(sigs)
    fake: Any = SimpleNamespace(
        corps={"X": SimpleNamespace(companies=companies)}, trains=names,
        stop_base_revenue=values.__getitem__,
        rules=SimpleNamespace(small_mail_subsidy={"5": small_value}),
        phase=SimpleNamespace(name="5"),
    )
    return int(G1822CA.mail_subsidy(fake, "X", SimpleNamespace(route_nodes=nodes)))


@pytest.mark.parametrize("seed", range(200))
def test_mail_income_is_the_engines_mail_subsidy(seed: int) -> None:
    rng = random.Random(seed)
    large_n, small_n = rng.randint(0, 2), rng.randint(0, 2)
    value = rng.choice([0, 20, 30, 40])
    runs = []
    for _ in range(rng.randint(0, 4)):
        name = rng.choice(["2", "5", "E", "L", "LP", "2P"])
        runs.append((name, [rng.choice([10, 20, 30, 50, 80, 120])
                            for _ in range(rng.choice([1, 2, 3, 5]))]))
    ours = [None if name.startswith("L") or len(v) < 2 else (v[0] + v[-1]) // 2
            for name, v in runs]
    assert mail_income(large_n, small_n, value, ours) == _engine_mail(large_n, small_n, value,
                                                                      runs)


def test_a_0_route_is_run_when_a_small_mail_contract_pays_for_it() -> None:
    # a token in a white city (Prince George, $0 until laid) and an unlaid town: the
    # route earns nothing but a small contract pays per route run (G1822CA.mail_subsidy)
    stops = [stop(0, "city", 0, token=True), stop(1, "town", 0)]
    p = problem(stops, [(0, 1)], [train("2", 2)])
    infos = {"2-0": Train1822(parts=None)}
    small = solve(p, scoring(infos, mail_small=1, mail_small_value=30))
    assert (small.revenue, small.subsidy) == (0, 30)
    assert [r.stops for r in small.routes] == [(0, 1)]
    assert brute_force(p, scoring(infos, mail_small=1, mail_small_value=30)) == 30
    for kw in ({}, {"mail_large": 1}):  # nothing to earn: no route
        plain = solve(p, scoring(infos, **kw))
        assert (plain.revenue, plain.subsidy, plain.routes) == (0, 0, ())


def test_a_second_train_runs_a_0_route_for_the_second_small_contract() -> None:
    # A (token, 40) - B (30) for one train; C (token, $0) - town D ($0) for the other
    stops = [stop(0, "city", 40, token=True), stop(1, "city", 30),
             stop(2, "city", 0, token=True), stop(3, "town", 0)]
    trains = [train("2", 2, n=0), train("2", 2, n=1)]
    p = problem(stops, [(0, 1), (2, 3)], trains)
    infos = {t.id: Train1822(parts=None) for t in trains}
    got = solve(p, scoring(infos, mail_small=2, mail_small_value=20))
    assert (got.revenue, got.subsidy) == (70, 40)
    assert sorted(r.revenue for r in got.routes) == [0, 70]
    one = solve(p, scoring(infos, mail_small=1, mail_small_value=20))
    assert (one.revenue, one.subsidy) == (70, 20)


@pytest.mark.parametrize("seed", range(30))
def test_random_positions_with_0_stops_match_brute_force(seed: int) -> None:
    """Unlaid towns and white cities are worth $0: the search still finds the best run
    with small and large contracts."""
    rng = random.Random(9100 + seed)
    n = rng.randint(4, 6)
    stops = []
    for i in range(n):
        kind = rng.choice(["city", "city", "town", "town"])
        stops.append(stop(i, kind, rng.choice([0, 0, 0, 10, 20]),
                          token=kind == "city" and rng.random() < 0.5))
    links: list[tuple[int, int] | tuple[int, int, int]] = [(rng.randrange(i), i)
                                                           for i in range(1, n)]
    trains = [train("2", 2, n=0), train("2", 2, n=1), train("L", 2)][:rng.randint(1, 3)]
    infos = {t.id: (Train1822(parts=L_PARTS, local=True) if t.name == "L"
                    else Train1822(parts=None)) for t in trains}
    sc = scoring(infos, mail_large=rng.randint(0, 1), mail_small=rng.randint(1, 2),
                 mail_small_value=rng.choice([10, 20]))
    p = problem(stops, links, trains)
    got = solve(p, sc)
    assert got.complete
    assert got.revenue + got.subsidy == brute_force(p, sc)
