"""Time the route optimizer on every run of every fixture (one company per call).

Run: ``.venv/bin/python benchmarks/routes.py [--repeat N] [FILE ...]``.  Replays
each 18xx.games fixture, and at every ``run_routes`` solves the operating
company's routes (the position is read once; each solve is timed alone,
best of ``--repeat``).  Prints one JSON line per fixture and one for all:
``calls`` and ``median``/``p90``/``max`` seconds per call, wall clock and CPU
(``cpu_*``, less sensitive to a busy machine).  Targets: median < 10 ms,
p90 < 100 ms, max < 1 s.  Titles the optimizer does not know yet are skipped.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from desk18xx.engine.actions import RunRoutes, action_from_dict
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import GameSetup
from desk18xx.engine.optimizer import Unsupported, problem_for, solve
from desk18xx.engine.optimizer.model import Problem
from desk18xx.engine.optimizer.scoring import TitleScoring
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title

FIXTURES = Path(__file__).resolve().parents[1].parent / "shared" / "fixtures" / "18xx.games"


def positions(path: Path) -> tuple[list[tuple[Problem, TitleScoring]], str | None]:
    """The routing problem before every ``run_routes`` of an export (and why it stopped)."""
    imported = load_export(path)
    try:
        title = find_title(imported.title)
    except KeyError as exc:
        return [], str(exc)
    setup = GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                      imported.seed, tuple(imported.optional_rules))
    game = title.new_game(setup)
    out: list[tuple[Problem, TitleScoring]] = []
    for raw in imported.actions:
        action = action_from_dict(raw)
        if isinstance(action, RunRoutes) and action.routes:
            try:
                out.append(problem_for(game, action.entity))
            except Unsupported as exc:
                return out, str(exc)
        try:
            game.process(action)
        except (IllegalAction, KeyError, ValueError, AssertionError, StopIteration) as exc:
            return out, f"replay stopped at action {raw.get('id')}: {exc}"
    return out, None


def _stats(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    if not ordered:
        return {"median": 0.0, "p90": 0.0, "max": 0.0}

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]

    return {"median": round(at(0.5), 4), "p90": round(at(0.9), 4), "max": round(ordered[-1], 4)}


def bench(problems: list[tuple[Problem, TitleScoring]], repeat: int) -> tuple[list[float],
                                                                               list[float]]:
    """Best-of-``repeat`` wall and CPU seconds of each solve."""
    walls: list[float] = []
    cpus: list[float] = []
    for problem, scoring in problems:
        wall = cpu = float("inf")
        for _ in range(repeat):
            w0, c0 = time.perf_counter(), time.process_time()
            solve(problem, scoring)
            wall = min(wall, time.perf_counter() - w0)
            cpu = min(cpu, time.process_time() - c0)
        walls.append(wall)
        cpus.append(cpu)
    return walls, cpus


def main() -> None:
    """Benchmark and print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    files = args.files or sorted(FIXTURES.glob("*/*.json"))
    all_walls: list[float] = []
    all_cpus: list[float] = []
    for path in files:
        problems, stopped = positions(path)
        walls, cpus = bench(problems, args.repeat)
        all_walls += walls
        all_cpus += cpus
        line: dict[str, Any] = {"fixture": f"{path.parent.name}/{path.name}", "calls": len(walls),
                                **_stats(walls)}
        line.update({f"cpu_{k}": v for k, v in _stats(cpus).items()})
        if stopped:
            line["stopped"] = stopped
        print(json.dumps(line), flush=True)
    total: dict[str, Any] = {"fixture": "all", "calls": len(all_walls), **_stats(all_walls)}
    total.update({f"cpu_{k}": v for k, v in _stats(all_cpus).items()})
    print(json.dumps(total))


if __name__ == "__main__":
    main()
