"""The optimizer against a brute force on small positions of the stress generator.

``benchmarks/stress_routes.py`` plays network-building games; its first route
decisions are small enough to enumerate every walk and every combination
(``optimizer_helpers.brute_force``).  Each title's first 60 route decisions of
two games: over 400 positions in all, every one with equal optima.  A bigger
run: ``benchmarks/stress_routes.py --brute N``.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

import stress_routes  # noqa: E402

RUNS = 60
SEEDS = (1, 2)
"""Two games per title: one game's early decisions may be too big for the brute force
(ERS seed 1: 47 of 60 small enough)."""


@pytest.mark.parametrize("title_id", stress_routes.TITLES)
def test_small_stress_positions_match_the_brute_force(title_id: str) -> None:
    checked = multi = 0
    mismatches = []
    # lazily: a position's game moves on with the replay
    for pos in itertools.chain.from_iterable(
            stress_routes.small_positions(title_id, seed, RUNS) for seed in SEEDS):
        pair = stress_routes.brute_check(pos)
        if pair is None:
            continue
        checked += 1
        multi += len(pos.game.corps[pos.corp].trains) > 1
        if pair[0] != pair[1]:
            mismatches.append((pos.index, pos.corp, pair))
    assert not mismatches
    # enough positions, some with several trains (the combination search)
    assert checked >= 80  # of 120: some positions are too big for the brute force
    assert multi >= 9


def test_stress_positions_replay_from_their_actions(tmp_path: Path) -> None:
    # a cached game replays to the same route decisions as the played one
    games = [("1867", 3)]
    actions = stress_routes.play("1867", 3, optimize=False, stop_after=5)
    (tmp_path / f"v{stress_routes.VERSION}-1867-3.json").write_text(
        __import__("json").dumps(actions))
    cached = [(p.index, p.corp) for p in stress_routes.positions(games, tmp_path)]
    played = [(p.index, p.corp) for p in stress_routes.replay("1867", 3, actions)]
    assert cached == played and len(played) == 5


def test_merged_interchangeable_routes_keep_the_brute_force_optimum(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the small positions' lists are below the merge's threshold: merge them all the same
    # (ERS: its early positions have several trains on shared track; the others merge none)
    from desk18xx.engine.optimizer import search

    monkeypatch.setattr(search, "DEDUPE_FROM", 0)
    merged = [0]
    real = search._interchangeable

    def counting(*args: object, **kwargs: object) -> list[list[search.Candidate]]:
        out = real(*args, **kwargs)  # type: ignore[arg-type]
        merged[0] += sum(len(a) - len(b) for a, b in zip(args[1], out, strict=True))  # type: ignore[arg-type]
        return out

    monkeypatch.setattr(search, "_interchangeable", counting)
    checked = 0
    mismatches = []
    for pos in itertools.chain.from_iterable(
            stress_routes.small_positions("1822CA-ERS", seed, 40) for seed in (3, 4)):
        pair = stress_routes.brute_check(pos)
        if pair is None:
            continue
        checked += 1
        if pair[0] != pair[1]:
            mismatches.append((pos.index, pos.corp, pair))
    assert not mismatches
    assert checked >= 40
    assert merged[0] > 0  # some routes were merged
