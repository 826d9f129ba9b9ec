"""Benchmark: jumping to any node of a 1,200-action study (target: p95 under 100 ms).

    .venv/bin/python benchmarks/study.py [--fixture EXPORT] [--actions 1200] [--jumps 600]

The study is built from a recorded 18xx.games game (by default the 1867 game
21268: 736 live actions) as the main line; while it holds fewer than
``--actions`` actions, variations are added the way a player studies: at a
random point of the main line a player passes instead of the recorded move,
then the recorded moves that are still legal are played on (a pass where
none is), up to 40 actions per variation. Every action is checked by the
1867 rules engine.

Then the study is saved and loaded again (as a user would open it), and
``--jumps`` random nodes are jumped to (`Study.go_to` + the node's game),
timing each jump. Prints one JSON line; exit status 1 when p95 >= 100 ms.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from desk18xx.engine.digest import state_digest  # noqa: E402
from desk18xx.engine.errors import IllegalAction  # noqa: E402
from desk18xx.engine.study import Study  # noqa: E402
from desk18xx.io.study import (  # noqa: E402
    game_setup,
    load_study,
    save_study,
    study_from_export,
)

DEFAULT_FIXTURE = ROOT.parent / "shared" / "fixtures" / "18xx.games" / "1867" / "21268.json"
_ERRORS = (IllegalAction, KeyError, ValueError, AssertionError, StopIteration, IndexError,
           TypeError, AttributeError)


def grow(study: Study, target: int, rng: random.Random) -> int:
    """Add variations until the tree holds `target` actions; the number added."""
    main = study.tree.main_line()
    recorded = [n.action for n in main if n.action is not None]
    added = 0
    while len(study.tree) - 1 < target:
        start = rng.randrange(len(main) - 1)
        study.go_to(main[start])
        legal = study.game.legal_actions()
        entity = legal.entity
        if entity is None or "pass" not in legal.types or main[start + 1].type == "pass":
            continue
        entity_type = "player" if study.game.is_player(entity) else "corporation"
        moves: list[dict[str, Any]] = [{"type": "pass", "entity": entity,
                                        "entity_type": entity_type}]
        cursor = start + 1
        for _ in range(40):
            if len(study.tree) - 1 >= target or not moves:
                break
            before = len(study.tree)
            try:
                study.play(moves.pop(0))
            except _ERRORS:
                break
            added += len(study.tree) - before
            # next: the first of the next few recorded moves that is legal, else a pass
            for index in range(cursor, min(cursor + 6, len(recorded))):
                candidate = {k: v for k, v in recorded[index].items() if k != "id"}
                if study.game.legal_actions().entity == str(candidate.get("entity")):
                    moves.append(candidate)
                    cursor = index + 1
                    break
            else:
                legal = study.game.legal_actions()
                if legal.entity is None or "pass" not in legal.types:
                    break
                moves.append({"type": "pass", "entity": legal.entity,
                              "entity_type": "player" if study.game.is_player(legal.entity)
                              else "corporation"})
    return added


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixture", default=str(DEFAULT_FIXTURE))
    parser.add_argument("--actions", type=int, default=1200)
    parser.add_argument("--jumps", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1867)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    began = time.perf_counter()
    header, tree = study_from_export(args.fixture)
    setup = game_setup(header)
    study = Study(setup, tree)
    study.go_to(tree.main_line()[-1])
    _ = study.game
    built = time.perf_counter() - began
    variations = grow(study, args.actions, rng)
    grown = time.perf_counter() - began - built

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "study.yaml"
        end = tree.main_line()[-1]
        save_study(path, header, tree, end.digest or state_digest(study.game_at(end)))
        size = path.stat().st_size
        began = time.perf_counter()
        loaded = load_study(path)
        study = Study(setup, loaded.tree)
        warmed = study.cache.warm()
        opened = time.perf_counter() - began

    nodes = list(study.tree.nodes())
    times: list[float] = []
    for _ in range(args.jumps):
        node = rng.choice(nodes)
        t0 = time.perf_counter()
        study.go_to(node)
        _ = study.game
        times.append(time.perf_counter() - t0)
    ms = [t * 1000 for t in times]
    p95 = percentile(ms, 95)
    out = {
        "fixture": Path(args.fixture).name,
        "actions_in_tree": len(nodes) - 1,
        "main_line": len(study.tree.main_line()),
        "variation_actions": variations,
        "leaves": len(study.tree.leaves()),
        "jumps": args.jumps,
        "jump_ms": {"p50": round(percentile(ms, 50), 2), "p95": round(p95, 2),
                    "p99": round(percentile(ms, 99), 2), "max": round(max(ms), 2),
                    "mean": round(statistics.fmean(ms), 2)},
        "snapshots": len(study.cache),
        "snapshot_mb": round(study.cache.snapshot_bytes() / 1e6, 1),
        "import_and_replay_s": round(built, 1),
        "grow_variations_s": round(grown, 1),
        "open_and_warm_s": round(opened, 1),
        "warmed_lines": warmed,
        "study_file_kb": round(size / 1024),
        "target_p95_ms": 100,
        "ok": p95 < 100 and len(nodes) - 1 >= args.actions,
    }
    print(json.dumps(out))
    return 0 if out["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
