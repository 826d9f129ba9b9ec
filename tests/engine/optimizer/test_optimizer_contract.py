"""E-trains' contracted graph (:mod:`desk18xx.engine.optimizer.contract`) against plain enumeration.

:func:`contract.links` drops partial ways already beaten, at every city they could
still reach, by a kept link, and walks nothing from the last city; the E-train
walk reads the links as bit sets per pair (:class:`contract.LinkTables`).  Random
boards bigger than the brute force tests' (parallel track, terminal segments,
exclusive groups, shared hexes) where those cuts fire: the subset-minimal links
must be those of listing every way, and the E-train's best run that of the
brute force.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from optimizer_helpers import brute_force, problem, stop

from desk18xx.engine.optimizer import Problem, TrainSpec, contract, solve
from desk18xx.engine.optimizer.scoring_1822ca import Scoring1822CA, Train1822
from desk18xx.engine.optimizer.search import _reachable

SEEDS = 150


def board(seed: int, terminal: float = 0.2, through_stops: bool = True) -> Problem:
    """A random board: 9-12 stops, 3-4 of them tokened cities (passable: the company's
    own token is there), plenty of cycles."""
    rng = random.Random(7000 + seed)
    n = rng.randint(9, 12)
    tokens = set(rng.sample(range(n), rng.randint(3, 4)))
    stops = []
    for i in range(n):
        kind = "city" if i in tokens else rng.choice(["city", "city", "town", "offboard"])
        s = stop(i, kind, rng.choice([10, 20, 30]), token=i in tokens,
                 passable=i in tokens or (kind != "offboard" and rng.random() > 0.1),
                 hex_no=i if rng.random() > 0.25 else max(0, i - 1))
        if rng.random() < 0.2:
            s = replace(s, groups=("G",))
        stops.append(s)
    links: list[tuple[int, int] | tuple[int, int, int]] = [(rng.randrange(i), i)
                                                           for i in range(1, n)]
    for _ in range(n):
        a, b = rng.sample(range(n), 2)
        links.append((a, b))
    shared = {k: rng.randrange(len(links)) for k in range(len(links)) if rng.random() < 0.1}
    p = problem(stops, links, [TrainSpec("E-0", "E", 99, 2, "E")], shared=shared)
    # terminal segments; track passing through hexes (a stop's among them)
    def passed() -> int:
        if rng.random() >= 0.15:
            return 0
        return rng.choice(stops).hex_bit if through_stops else 1 << (20 + rng.randrange(3))

    segs = tuple(replace(sg, terminal_a=rng.random() < terminal,
                         terminal_b=rng.random() < terminal, passed=passed())
                 for sg in p.segments)
    return Problem(p.corp, p.stops, segs, p.trains, p.hex_ids).finish()


def every_way(p: Problem, nodes: list[int]) -> dict[tuple[int, int], set[int]]:
    """Per pair of cities, the packed resources of every way between them (``links``'
    rules, no cuts), reduced to the subset-minimal ones."""
    stops, segs = p.stops, p.segments
    hb, tb = contract._widths(p)
    gbits = contract._group_bits(p)
    out: dict[tuple[int, int], set[int]] = {}

    def go(a: int, cur: int, hexes: int, track: int, groups: int, first: bool | None) -> None:
        for si in p.adjacency[cur]:
            sg = segs[si]
            if sg.track & track or (cur != a and sg.terminal_at(cur)):
                continue
            o = sg.other(cur)
            if o == a or stops[o].hex_bit & (hexes | stops[a].hex_bit) \
                    or sg.passed & (hexes | stops[a].hex_bit | stops[o].hex_bit):
                continue
            f = sg.terminal_at(a) if first is None else first
            if o in nodes:
                if o > a:
                    lk = contract.Link(a, o, (), (), hexes | sg.passed, track | sg.track,
                                       groups, f, sg.terminal_at(o))
                    out.setdefault((a, o), set()).add(contract._packed(lk, hb, tb))
                continue
            if not stops[o].passable or sg.terminal_at(o) or gbits[o] & groups:
                continue
            go(a, o, hexes | sg.passed | stops[o].hex_bit, track | sg.track,
               groups | gbits[o], f)

    for a in nodes:
        go(a, a, 0, 0, 0, None)
    return {pair: {r for r in found if not any(q != r and not q & ~r for q in found)}
            for pair, found in out.items()}


@pytest.mark.parametrize("seed", range(SEEDS))
def test_links_are_the_minimal_ways(seed: int) -> None:
    p = board(seed)
    nodes = contract.token_nodes(p, _reachable(p))
    hb, tb = contract._widths(p)
    got: dict[tuple[int, int], set[int]] = {}
    for lk in contract.links(p, nodes, lambda: None):
        got.setdefault((lk.a, lk.b), set()).add(contract._packed(lk, hb, tb))
    assert got == every_way(p, nodes)


def test_the_boards_have_what_the_cuts_are_for() -> None:
    # the cuts must have something to do: ways beaten by a kept link, many ways per pair
    beaten = many = 0
    for seed in range(SEEDS):
        p = board(seed)
        nodes = contract.token_nodes(p, _reachable(p))
        minimal = every_way(p, nodes)
        many += any(len(v) >= 3 for v in minimal.values())
        beaten += len(minimal) >= 2
    assert many >= 50 and beaten >= 100


@pytest.mark.parametrize("seed", range(SEEDS))
@pytest.mark.parametrize("through_stops", [False, True])
def test_e_train_on_the_links_matches_the_brute_force(seed: int, through_stops: bool) -> None:
    # through stops, some segments pass a hex of their own ends (a chain never does
    # on a real board): no route may take them, whichever way round it runs
    p = board(seed, 0.2, through_stops=through_stops)
    rng = random.Random(seed)
    tokened = [s for s in p.stops if s.tokened]
    kw: dict[str, object] = {}
    if rng.random() < 0.5:
        kw = {"home": (tokened[0].hex, 0), "destination": (rng.choice(p.stops).hex, 0)}
    sc = Scoring1822CA(trains={"E-0": Train1822(parts=None, e_train=True)}, major=True,
                       **kw)  # type: ignore[arg-type]
    got = solve(p, sc)
    assert got.complete
    assert got.revenue == brute_force(p, Scoring1822CA(
        trains={"E-0": Train1822(parts=None, e_train=True)}, major=True,
        **kw))  # type: ignore[arg-type]
