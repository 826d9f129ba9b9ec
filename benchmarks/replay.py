"""Time full replays of every 18xx.games fixture (every route validated and re-priced).

Run: ``.venv/bin/python benchmarks/replay.py [--repeat N]``.  Prints per fixture
the live action count and the best wall and CPU time of a replay (game creation
plus all actions; loading the export is excluded).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from desk18xx.engine.actions import action_from_dict
from desk18xx.engine.game import GameSetup
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title

FIXTURES = Path(__file__).resolve().parents[1].parent / "shared" / "fixtures" / "18xx.games"


def bench(path: Path, repeat: int) -> dict[str, object]:
    """Best-of-``repeat`` replay time of one export."""
    imported = load_export(path)
    actions = [action_from_dict(raw) for raw in imported.actions]
    title = find_title(imported.title)
    setup = GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                      imported.seed, tuple(imported.optional_rules) + ("compat_18xxgames",))
    title.new_game(setup)  # warm caches (tile data, shapes)
    best = best_cpu = float("inf")
    ok = False
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        game = title.new_game(setup)
        for action in actions:
            game.process(action)
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        ok = game.result() == {str(k): v for k, v in (imported.result or {}).items()}
    return {"fixture": path.name, "actions": len(actions), "seconds": round(best, 4),
            "cpu_seconds": round(best_cpu, 4), "result_ok": ok}


def main() -> None:
    """Benchmark every fixture of every title."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for path in sorted(FIXTURES.glob("*/*.json")):
        print(json.dumps(bench(path, args.repeat)))


if __name__ == "__main__":
    main()
