"""``desk18xx routes-audit FILE``: our best routes against the declared ones, turn by turn.

Replays an 18xx.games export; before every ``run_routes`` action the route
optimizer computes the best revenue for the operating company and compares
it with the declared routes (priced by the engine).  What is compared is what
the run earns the company: the routes' revenue plus, in 1822CA, the mail
contracts' subsidy (which may favour a lower revenue, RB 5.11.28), for ours
and for the declared routes alike.  Prints one JSON line:
``calls``, ``higher``/``equal``/``lower`` (our optimum vs the declared
revenue, over the runs whose declared routes the engine accepts), ``rejected``
(runs whose declared routes the engine rejects: they say nothing about the
optimizer, so they are counted apart, each listed under ``declared_rejected``
with the recorded revenue beside ours), and ``median``/``p90``/``p99``/``max``
seconds per call (wall clock; ``cpu_median``, ``cpu_p90``, ``cpu_p99``,
``cpu_max``: CPU seconds, steadier on a busy machine; every call is timed,
rejected runs too).  ``lower`` must be 0: otherwise we missed a route.  Exit
status 1 when ``lower`` is not 0 or the engine disagrees with our pricing; 2
when the replay stops early (the runs before are still audited).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Command-line options."""
    parser.add_argument("file", help="an 18xx.games export (.json)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print one line per call (and every higher or lower one) to stderr")


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, int(round(q * (len(ordered) - 1)))))
    return ordered[index]


def audit(path: str, verbose: bool = False) -> dict[str, Any]:
    """Replay ``path`` and audit every run; the summary as plain data."""
    from desk18xx.commands.replay import import_setup
    from desk18xx.engine.actions import RunRoutes, action_from_dict
    from desk18xx.engine.errors import IllegalAction
    from desk18xx.engine.optimizer import (
        Mismatch,
        Unsupported,
        best_routes,
        engine_revenues,
        engine_subsidy,
    )
    from desk18xx.io.import_18xxgames import load_export
    from desk18xx.io.replaying import ENGINE_ERRORS
    from desk18xx.titles import find_title

    imported = load_export(path)
    out: dict[str, Any] = {"file": path, "title": imported.title}
    counts = {"calls": 0, "higher": 0, "equal": 0, "lower": 0, "rejected": 0}
    times: list[float] = []
    cpu_times: list[float] = []
    problems: list[dict[str, Any]] = []
    rejected: list[dict[str, Any]] = []
    try:
        title = find_title(imported.title)
    except KeyError as exc:
        out.update(counts, error=str(exc))
        return out
    setup = import_setup(imported)
    game = title.new_game(setup)
    for index, raw in enumerate(imported.actions):
        try:
            action = action_from_dict(raw)
        except ENGINE_ERRORS as exc:  # a malformed action: the replay stops here
            out["replay_failure"] = {"index": index, "id": raw.get("id"),
                                     "type": str(raw.get("type")),
                                     "reason": f"{type(exc).__name__}: {exc}"}
            break
        if isinstance(action, RunRoutes):
            corp = action.entity
            recorded = sum(r.revenue or 0 for r in action.routes)
            refused: str | None = None
            try:
                declared = sum(engine_revenues(game, corp, action.routes))
                declared += engine_subsidy(game, corp, action.routes)
            except IllegalAction as exc:
                # the engine rejects the declared run: not a comparison (listed apart)
                declared = recorded
                refused = str(exc)
            except Unsupported as exc:
                out["error"] = str(exc)
                break
            counts["calls"] += 1
            try:
                start, cpu_start = time.perf_counter(), time.process_time()
                solution = best_routes(game, corp)
                elapsed = time.perf_counter() - start
                cpu = time.process_time() - cpu_start
            except (Mismatch, IllegalAction) as exc:
                problems.append({"index": index, "id": raw.get("id"), "corp": corp,
                                 "reason": f"{type(exc).__name__}: {exc}"})
                solution = None
            if solution is None:
                pass
            else:
                times.append(elapsed)
                cpu_times.append(cpu)
                ours = solution.revenue + solution.subsidy
                if refused is not None:
                    rejected.append({"id": raw.get("id"), "corp": corp, "reason": refused,
                                     "recorded": recorded, "ours": ours})
                    counts["rejected"] += 1
                    if verbose:
                        print(f"action {raw.get('id')} {corp}: ours {ours}, declared "
                              f"{recorded} rejected: {refused}", file=sys.stderr)
                    kind = "rejected"
                else:
                    kind = ("higher" if ours > declared else "equal" if ours == declared
                            else "lower")
                    counts[kind] += 1
                if verbose and kind != "rejected":
                    print(f"action {raw.get('id')} {corp}: ours {ours} declared "
                          f"{declared} ({kind}) {elapsed * 1000:.1f} ms", file=sys.stderr)
                    if kind != "equal":
                        print("  ours:     " + json.dumps([r.to_dict() for r in solution.routes]),
                              file=sys.stderr)
                        print("  declared: " + json.dumps([r.to_dict() for r in action.routes]),
                              file=sys.stderr)
                if kind == "lower":
                    problems.append({"index": index, "id": raw.get("id"), "corp": corp,
                                     "ours": ours, "declared": declared})
        try:
            game.process(action)
        except ENGINE_ERRORS as exc:
            out["replay_failure"] = {"index": index, "id": raw.get("id"), "type": action.type,
                                     "reason": f"{type(exc).__name__}: {exc}"}
            break
    out.update(counts)
    out["median"] = round(_percentile(times, 0.5), 4)
    out["p90"] = round(_percentile(times, 0.9), 4)
    out["p99"] = round(_percentile(times, 0.99), 4)
    out["max"] = round(max(times, default=0.0), 4)
    out["cpu_median"] = round(_percentile(cpu_times, 0.5), 4)
    out["cpu_p90"] = round(_percentile(cpu_times, 0.9), 4)
    out["cpu_p99"] = round(_percentile(cpu_times, 0.99), 4)
    out["cpu_max"] = round(max(cpu_times, default=0.0), 4)
    if problems:
        out["problems"] = problems
    if rejected:
        out["declared_rejected"] = rejected
    return out


def run(args: argparse.Namespace) -> int:
    """Audit and print the summary; a file that is not a readable export: 1 and its message."""
    from desk18xx.io.import_18xxgames import ExportFormatError

    try:
        summary = audit(args.file, verbose=args.verbose)
    except ExportFormatError as error:
        print(f"desk18xx routes-audit: {error}", file=sys.stderr)
        return 1
    print(json.dumps(summary))
    if summary["lower"] or summary.get("problems"):
        return 1
    return 2 if summary.get("replay_failure") or summary.get("error") else 0
