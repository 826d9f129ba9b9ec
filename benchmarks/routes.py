"""Time the route optimizer on every run of every fixture (one company per call).

Run: ``.venv/bin/python benchmarks/routes.py [--repeat N] [FILE ...]``.  Replays
each 18xx.games fixture, and at every ``run_routes`` times one call of
:func:`best_routes` for the operating company (reading the position, the
search, and pricing the answer with the engine's scorer), best of
``--repeat``.  Prints one JSON line per fixture and one for all:
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

from desk18xx.commands.replay import import_setup
from desk18xx.engine.actions import RunRoutes, action_from_dict
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.optimizer import Unsupported, best_routes
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title

FIXTURES = Path(__file__).resolve().parents[1].parent / "shared" / "fixtures" / "18xx.games"


def bench(path: Path, repeat: int) -> tuple[list[float], list[float], str | None]:
    """Best-of-``repeat`` wall and CPU seconds of each run's call, and why the replay stopped."""
    imported = load_export(path)
    try:
        title = find_title(imported.title)
    except KeyError as exc:
        return [], [], str(exc)
    game = title.new_game(import_setup(imported))  # 18xx.games' rules, as replay does
    walls: list[float] = []
    cpus: list[float] = []
    for raw in imported.actions:
        action = action_from_dict(raw)
        if isinstance(action, RunRoutes) and action.routes:
            wall = cpu = float("inf")
            for _ in range(repeat):
                w0, c0 = time.perf_counter(), time.process_time()
                try:
                    best_routes(game, action.entity)
                except Unsupported as exc:
                    return walls, cpus, str(exc)
                wall = min(wall, time.perf_counter() - w0)
                cpu = min(cpu, time.process_time() - c0)
            walls.append(wall)
            cpus.append(cpu)
        try:
            game.process(action)
        except (IllegalAction, KeyError, ValueError, AssertionError, StopIteration) as exc:
            return walls, cpus, f"replay stopped at action {raw.get('id')}: {exc}"
    return walls, cpus, None


def _stats(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    if not ordered:
        return {"median": 0.0, "p90": 0.0, "max": 0.0}

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]

    return {"median": round(at(0.5), 4), "p90": round(at(0.9), 4), "max": round(ordered[-1], 4)}


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
        walls, cpus, stopped = bench(path, args.repeat)
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
