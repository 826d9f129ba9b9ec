"""1822CA scoring in the search: special trains and bonuses on hand-built positions."""

from __future__ import annotations

import random

import pytest
from optimizer_helpers import brute_force, problem, stop, train

from desk18xx.engine.optimizer.model import TrainSpec
from desk18xx.engine.optimizer.scoring_1822ca import ANY, Scoring1822CA, Train1822
from desk18xx.engine.optimizer.search import solve

L_PARTS = ((frozenset({"city"}), 1), (frozenset({"town"}), 1))


def scoring(trains: dict[str, Train1822], **kw: object) -> Scoring1822CA:
    return Scoring1822CA(trains=trains, major=bool(kw.pop("major", True)), **kw)  # type: ignore[arg-type]


def plain(*ids: str) -> dict[str, Train1822]:
    return {i: Train1822(parts=None) for i in ids}


def test_n_train_counts_every_stop_including_towns() -> None:
    stops = [stop(0, "city", 20, token=True), stop(1, "town", 10), stop(2, "city", 30),
             stop(3, "city", 40)]
    p = problem(stops, [(0, 1), (1, 2), (2, 3)], [train("3", 3)])
    # town counts: A-t-B = 60 beats nothing longer (3 stops)
    assert solve(p, scoring(plain("3-0"))).revenue == 60


def test_l_train_city_and_town_or_local_run() -> None:
    stops = [stop(0, "city", 30, token=True), stop(1, "town", 20), stop(2, "city", 50)]
    p = problem(stops, [(0, 1), (0, 2)], [train("L", 2)])
    sc = scoring({"L-0": Train1822(parts=L_PARTS, local=True)})
    # city + town (50); city + city is not an L route; a local run earns 30
    assert solve(p, sc).revenue == 50
    p2 = problem(stops[:1] + [stop(1, "city", 50)], [(0, 1)], [train("L", 2)])
    r = solve(p2, scoring({"L-0": Train1822(parts=L_PARTS, local=True)}))
    assert r.revenue == 30 and r.routes[0].stops == (0,)
    assert r.routes[0].connections(p2) == [["local", "H0"]]


def test_two_l_trains_use_a_city_once() -> None:
    stops = [stop(0, "city", 30, token=True), stop(1, "town", 20), stop(2, "town", 10)]
    trains = [train("L", 2, n=0), train("L", 2, n=1)]
    p = problem(stops, [(0, 1), (0, 2)], trains)
    sc = scoring({t.id: Train1822(parts=L_PARTS, local=True) for t in trains})
    # each city once among L-trains: one runs A-t1 (50), the other cannot use A again
    assert solve(p, sc).revenue == 50
    assert brute_force(p, sc) == 50


def test_e_train_earns_doubled_tokened_cities_and_shares_track() -> None:
    stops = [stop(0, "city", 40, token=True), stop(1, "city", 100), stop(2, "city", 30,
                                                                          token=True)]
    trains = [TrainSpec("E-0", "E", 99, 2, "E"), train("2", 2)]
    p = problem(stops, [(0, 1), (1, 2)], trains)
    sc = scoring({"E-0": Train1822(parts=None, e_train=True), "2-0": Train1822(parts=None)})
    # E: A..C through the 100 city (not tokened: 0) = (40+30)*2 = 140; the 2-train
    # runs A-B (140) on the same track (E-trains have their own track group)
    r = solve(p, sc)
    assert r.revenue == 280
    assert brute_force(p, sc) == 280


def test_e_train_must_end_at_tokened_cities() -> None:
    stops = [stop(0, "city", 40, token=True), stop(1, "city", 30, token=True),
             stop(2, "city", 90)]
    p = problem(stops, [(0, 1), (1, 2)], [TrainSpec("E-0", "E", 99, 2, "E")])
    sc = scoring({"E-0": Train1822(parts=None, e_train=True)})
    assert solve(p, sc).revenue == 140


def test_pullman_makes_towns_free() -> None:
    stops = [stop(0, "city", 20, token=True), stop(1, "town", 10), stop(2, "town", 10),
             stop(3, "city", 30)]
    p = problem(stops, [(0, 1), (1, 2), (2, 3)], [train("2", 2)])
    parts = ((frozenset({"town"}), 4), (ANY, 2))
    sc = scoring({"2-0": Train1822(parts=parts, pullman=True)})
    assert solve(p, sc).revenue == 70
    assert solve(p, scoring(plain("2-0"))).revenue == 30  # A-t without the Pullman


def test_grain_train_elevators_and_port() -> None:
    stops = [stop(0, "city", 20, token=True), stop(1, "town", 10, hex_id="G1"),
             stop(2, "town", 10, hex_id="G2"), stop(3, "offboard", 40, hex_id="PORT")]
    p = problem(stops, [(0, 1), (1, 2), (2, 3)], [train("2", 2)])
    parts = ((frozenset({"grain_elevator"}), 12), (ANY, 2))
    kw = {"grain_elevators": frozenset({"G1", "G2"}), "east_ports": frozenset({"PORT"})}
    grain = scoring({"2-0": Train1822(parts=parts, grain=True)}, **kw)
    # elevators free: A + G1 + G2 + port = 80, + 20 for the port on a grain train
    assert solve(p, grain).revenue == 100
    normal = scoring(plain("2-0"), **kw)
    # a 2-train: A-G1 (30) + 10 per elevator = 40
    assert solve(p, normal).revenue == 40


def test_destination_bonus_goes_to_one_route() -> None:
    stops = [stop(0, "city", 20, token=True), stop(1, "city", 50, token=True),
             stop(2, "city", 10)]
    trains = [train("2", 2, n=0), train("3", 3, n=1)]
    p = problem(stops, [(0, 1), (0, 1, 1), (1, 2)], trains)
    sc = scoring(plain("2-0", "3-1"), home=("H0", 0), destination=("H1", 0))
    # both trains join home and destination; only one earns the destination again:
    # 2: A-B 70, 3: A-B-C 80; +50 once = 200
    assert solve(p, sc).revenue == 200
    assert brute_force(p, sc) == 200


def test_sawmill_bonus_once() -> None:
    stops = [stop(0, "city", 20, token=True), stop(1, "town", 10, hex_id="SAW")]
    trains = [train("2", 2, n=0), train("2", 2, n=1)]
    p = problem(stops, [(0, 1), (0, 1, 1)], trains)
    sc = scoring(plain("2-0", "2-1"), sawmill_hex="SAW", sawmill_bonus=20)
    assert solve(p, sc).revenue == 80  # 30 + 30 + 20 once


@pytest.mark.parametrize("seed", range(40))
def test_random_1822_positions_match_brute_force(seed: int) -> None:
    rng = random.Random(1000 + seed)
    n = rng.randint(5, 7)
    kinds = ["city"] * 5 + ["town"] * 3 + ["offboard"]
    stops = []
    for i in range(n):
        kind = rng.choice(kinds)
        stops.append(stop(i, kind, rng.choice([10, 20, 30, 40]),
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
        (TrainSpec("L-1", "L", 2, 1, "local"), Train1822(parts=L_PARTS, local=True)),
        (TrainSpec("2-0", "2", 2, 1, "normal"), Train1822(parts=None)),
        (TrainSpec("3-0", "3", 3, 1, "normal"), Train1822(parts=None)),
        (TrainSpec("2P-0", "2P", 2, 1, "normal+pullman"),
         Train1822(parts=((frozenset({"town"}), 4), (ANY, 2)), pullman=True)),
    ]
    picks = rng.sample(menu, k=rng.randint(1, 3))
    tokened = [s for s in stops if s.tokened]
    kw: dict[str, object] = {}
    if len(tokened) >= 2 and rng.random() < 0.5:
        kw = {"home": (tokened[0].hex, 0), "destination": (tokened[1].hex, 0)}
    sc = scoring({t.id: info for t, info in picks}, **kw)
    p = problem(stops, links, [t for t, _i in picks])
    got = solve(p, sc)
    assert got.complete
    assert got.revenue == brute_force(p, sc)


@pytest.mark.parametrize("seed", range(30))
def test_random_e_train_positions_match_brute_force(seed: int) -> None:
    """E-trains search a contracted graph of tokened cities (links with dominance)."""
    from dataclasses import replace

    rng = random.Random(5000 + seed)
    n = rng.randint(6, 8)
    stops = []
    for i in range(n):
        kind = rng.choice(["city"] * 4 + ["town", "offboard"])
        s = stop(i, kind, rng.choice([10, 20, 30, 40]),
                 token=kind == "city" and rng.random() < 0.5,
                 passable=(kind != "offboard") and rng.random() > 0.1,
                 hex_no=i if rng.random() > 0.15 else max(0, i - 1))
        if rng.random() < 0.25:
            s = replace(s, groups=("G",))
        stops.append(s)
    links: list[tuple[int, int] | tuple[int, int, int]] = [(rng.randrange(i), i)
                                                           for i in range(1, n)]
    for _ in range(n // 2 + 1):
        a, b = rng.sample(range(n), 2)
        links.append((a, b))
    trains = [TrainSpec("E-0", "E", 99, 2, "E")]
    infos = {"E-0": Train1822(parts=None, e_train=True)}
    if rng.random() < 0.5:
        trains.append(TrainSpec("3-0", "3", 3, 1, "normal"))
        infos["3-0"] = Train1822(parts=None)
    tokened = [s for s in stops if s.tokened]
    kw: dict[str, object] = {}
    if len(tokened) >= 2 and rng.random() < 0.5:
        kw = {"home": (tokened[0].hex, 0), "destination": (tokened[-1].hex, 0)}
    sc = scoring(infos, **kw)
    p = problem(stops, links, trains)
    got = solve(p, sc)
    assert got.complete
    assert got.revenue == brute_force(p, sc)
