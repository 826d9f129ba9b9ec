"""Time the route optimizer on every run of every fixture and of the stress corpus.

Run: ``.venv/bin/python benchmarks/routes.py [--repeat N] [--stress] [--no-fixtures]
[--cache DIR] [--slowest K] [FILE ...]``.  Replays each 18xx.games fixture, and
at every ``run_routes`` times one call of :func:`best_routes` for the operating
company (reading the position, the search, and pricing the answer with the
engine's scorer), best of ``--repeat``, in CPU seconds (``time.process_time``:
the machine is shared) and wall clock.  ``--stress`` adds every route decision of
the stress corpus (``benchmarks/stress_routes.py``, replayed from its cache or
played first).  Prints one JSON line per fixture or stress game, one per title
(``p50``/``p90``/``p99``/``max`` CPU seconds, ``wall_*`` the same in wall
clock), and one for all; ``--slowest K`` lists the K slowest positions.  Each
stress game's line says how many positions it replayed of how many its cache
holds; a cached game that stops short (the rules changed since it was played)
is named on stderr and the exit status is 2 (``--allow-stale``: 0).
Targets per title: max <= 0.5 s, p99 <= 0.1 s, p90 <= 20 ms.  A declared route
the engine rejects is counted under ``rejected`` (the position is still timed).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from desk18xx.commands.replay import import_setup
from desk18xx.engine.actions import RunRoutes, action_from_dict
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game
from desk18xx.engine.optimizer import Unsupported, best_routes, engine_revenues
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title

FIXTURES = Path(__file__).resolve().parents[1].parent / "shared" / "fixtures" / "18xx.games"
TARGETS = {"max": 0.5, "p99": 0.1, "p90": 0.02}

Sample = tuple[float, float, str]
"""(CPU seconds, wall seconds, where)."""


def fixture_positions(path: Path, stopped: list[str], rejected: list[str]
                      ) -> Iterator[tuple[Game, str, str]]:
    """(game, company, where) at each declared run of a fixture."""
    imported = load_export(path)
    try:
        title = find_title(imported.title)
    except KeyError as exc:
        stopped.append(str(exc))
        return
    game = title.new_game(import_setup(imported))  # 18xx.games' rules, as replay does
    for raw in imported.actions:
        action = action_from_dict(raw)
        if isinstance(action, RunRoutes) and action.routes:
            try:
                engine_revenues(game, action.entity, action.routes)
            except IllegalAction:
                rejected.append(f"action {raw.get('id')} {action.entity}")
            yield game, action.entity, f"{path.name}#{raw.get('id')} {action.entity}"
        try:
            game.process(action)
        except (IllegalAction, KeyError, ValueError, AssertionError, StopIteration) as exc:
            stopped.append(f"replay stopped at action {raw.get('id')}: {exc}")
            return


def time_call(game: Game, corp: str, repeat: int) -> tuple[float, float]:
    """Best-of-``repeat`` CPU and wall seconds of one :func:`best_routes` call."""
    wall = cpu = float("inf")
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        best_routes(game, corp)
        wall = min(wall, time.perf_counter() - w0)
        cpu = min(cpu, time.process_time() - c0)
    return cpu, wall


def stats(values: list[float]) -> dict[str, float]:
    """p50/p90/p99/max (nearest rank)."""
    ordered = sorted(values)
    if not ordered:
        return {"p50": 0.0, "p90": 0.0, "p99": 0.0, "max": 0.0}

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]

    return {"p50": round(at(0.5), 4), "p90": round(at(0.9), 4), "p99": round(at(0.99), 4),
            "max": round(ordered[-1], 4)}


def summary(name: str, samples: list[Sample], **extra: Any) -> dict[str, Any]:
    """One JSON line: CPU stats, wall stats, whether the targets are met."""
    cpu = [s[0] for s in samples]
    line: dict[str, Any] = {"name": name, "calls": len(samples), **stats(cpu)}
    line.update({f"wall_{k}": v for k, v in stats([s[1] for s in samples]).items()})
    if samples:
        line["targets_met"] = all(line[k] <= v for k, v in TARGETS.items())
    line.update(extra)
    return line


def main() -> None:
    """Benchmark and print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--stress", action="store_true", help="also the stress corpus")
    parser.add_argument("--no-fixtures", action="store_true", help="only the stress corpus")
    parser.add_argument("--cache", type=Path, default=None,
                        help="stress corpus cache (default: stress_routes.DEFAULT_CACHE)")
    parser.add_argument("--titles", nargs="*", default=None, help="stress titles")
    parser.add_argument("--slowest", type=int, default=0)
    parser.add_argument("--allow-stale", action="store_true",
                        help="exit 0 even when cached stress games stop short of their end")
    args = parser.parse_args()
    per_title: dict[str, list[Sample]] = {}
    everything: list[Sample] = []
    rejected_all = 0
    expected_per_title: dict[str, int] = {}
    """Stress positions the cache holds per title (a stale cache replays fewer)."""
    replayed_per_title: dict[str, int] = {}
    short: list[str] = []
    files = [] if args.no_fixtures else (args.files or sorted(FIXTURES.glob("*/*.json")))
    for path in files:
        stopped: list[str] = []
        rejected: list[str] = []
        samples: list[Sample] = []
        title = path.parent.name
        try:
            for game, corp, where in fixture_positions(path, stopped, rejected):
                cpu, wall = time_call(game, corp, args.repeat)
                samples.append((cpu, wall, where))
        except Unsupported as exc:
            stopped.append(str(exc))
        rejected_all += len(rejected)
        extra: dict[str, Any] = {"rejected": len(rejected)}
        if stopped:
            extra["stopped"] = stopped[0]
        print(json.dumps(summary(f"{title}/{path.name}", samples, **extra)), flush=True)
        key = {"1822CAERS": "1822CA-ERS", "1822CAWRS": "1822CA-WRS"}.get(title, title)
        per_title.setdefault(key, []).extend(samples)
        everything += samples
    if args.stress or args.no_fixtures:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import stress_routes

        cache = args.cache or stress_routes.DEFAULT_CACHE
        titles = tuple(args.titles) if args.titles else stress_routes.TITLES
        for title_id, seed in stress_routes.corpus(titles):
            samples = []
            actions = stress_routes.cached(title_id, seed, cache)
            expected = stress_routes.expected_runs(actions)
            expected_per_title[title_id] = expected_per_title.get(title_id, 0) + expected
            before = len(per_title.get(title_id, []))
            for pos in stress_routes.replay(title_id, seed, actions):
                cpu, wall = time_call(pos.game, pos.corp, args.repeat)
                samples.append((cpu, wall, f"stress {title_id} seed {seed} #{pos.index} "
                                           f"{pos.corp}"))
            extra = {"positions": len(samples), "expected": expected}
            if stress_routes.STOPPED and \
                    stress_routes.STOPPED[-1].startswith(f"{title_id} seed {seed} "):
                extra["stopped"] = stress_routes.STOPPED[-1]
            if len(samples) < expected:
                short.append(f"stress {title_id} seed {seed}: {len(samples)} of {expected} "
                             f"positions ({extra.get('stopped', 'replay ended early')})")
            print(json.dumps(summary(f"stress {title_id} seed {seed}", samples, **extra)),
                  flush=True)
            per_title.setdefault(title_id, []).extend(samples)
            replayed_per_title[title_id] = replayed_per_title.get(title_id, 0) + \
                len(per_title[title_id]) - before
            everything += samples
    for title_id in sorted(per_title):
        extra = {}
        if title_id in expected_per_title:
            extra["stress_positions"] = replayed_per_title.get(title_id, 0)
            extra["stress_expected"] = expected_per_title[title_id]
        print(json.dumps(summary(f"title {title_id}", per_title[title_id], **extra)), flush=True)
    print(json.dumps(summary("all", everything, rejected=rejected_all)), flush=True)
    if args.slowest:
        for cpu, wall, where in sorted(everything, reverse=True)[:args.slowest]:
            print(json.dumps({"slow": where, "cpu": round(cpu, 4), "wall": round(wall, 4)}))
    if short:
        # a stale cache (the rules changed since it was played) times a truncated corpus
        for line in short:
            print(f"STALE CACHE: {line}", file=sys.stderr)
        print("STALE CACHE: the figures above are for a truncated corpus; bump "
              "stress_routes.VERSION (or delete the cache) to play the games again, or "
              "pass --allow-stale", file=sys.stderr)
        if not args.allow_stale:
            sys.exit(2)


if __name__ == "__main__":
    main()
