"""Differential testing against the 18xx.games engine (see README.md beside this file).

Generates seeded random games (`generate.py`), exports them with our exporter,
re-imports them (digests must be equal) and, with ``--reference DIR`` (a
tobymao/18xx checkout) and ``ruby`` on the PATH, replays every export in one
long-running Ruby process (``driver.rb``) in loading mode and in live mode.
Prints the agreement table (result and end reason equal) per title family and
mode, and the first divergence of each game (refused action, or first action
after which players' cash or share prices differ).

    .venv/bin/python tools/differential/differential.py --games 10 --out /tmp/diff \\
        [--reference /tmp/ref18xx] [--titles 1867,1822CA] [--seed 1000]
    .venv/bin/python tools/differential/differential.py --table /tmp/diff/report.jsonl ...
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from generate import BIASES, Generated, export, play, save_trace  # noqa: E402

SPECS: dict[str, tuple[str, tuple[str, ...], int, int]] = {
    "1867": ("1867", (), 2, 6),
    "1867-grid": ("1867", ("grid_market",), 2, 6),
    "1822CA": ("1822CA", (), 2, 7),
    "1822CA-ERS": ("1822CA-ERS", (), 2, 5),
    "1822CA-WRS": ("1822CA-WRS", (), 2, 5),
}
"""Spec name -> (title, options, fewest players, most players)."""
MODES = ("load", "live")


class Reference:
    """The 18xx.games engine in one long-running Ruby process (``driver.rb``)."""

    def __init__(self, checkout: Path, ruby: str = "ruby") -> None:
        self.checkout = checkout
        self.ruby = ruby
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> None:
        """Start (or restart) the Ruby process and wait until it has loaded the engine."""
        self.stop()
        env = dict(os.environ, ENGINE_LOG_LEVEL="4")  # its debug log triples its time
        # `nice` once: under an already niced harness a second `nice` would put the
        # reference at 19, below everything else on a shared machine
        nice = ["nice"] if os.nice(0) == 0 else []
        self.process = subprocess.Popen(
            [*nice, self.ruby, "-I", str(HERE), "-r", "require_all", str(HERE / "driver.rb"),
             str(self.checkout)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, env=env)
        ready = self._read(600)
        if ready is None or not ready.get("ready"):
            raise RuntimeError(f"the reference driver did not start: {ready}")

    def stop(self) -> None:
        """End the Ruby process (ours, by its handle)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def _read(self, seconds: float) -> dict[str, Any] | None:
        assert self.process is not None and self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], seconds)
        if not ready:
            return None
        line = self.process.stdout.readline()
        return json.loads(line) if line else None

    def replay(self, path: Path, mode: str, seconds: float,
               fix_city_ids: bool = False) -> dict[str, Any]:
        """One export in one mode; a dead or stuck process is restarted."""
        if self.process is None:
            self.start()
        assert self.process is not None and self.process.stdin is not None
        request = {"file": str(path), "mode": mode, "timeout": seconds,
                   "fix_city_ids": fix_city_ids}
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            answer = self._read(seconds + 60)
        except (BrokenPipeError, json.JSONDecodeError) as error:
            answer = {"error": f"driver failed: {error}"}
        if answer is None:
            self.stop()
            answer = {"error": "driver gave no answer in time", "timeout": True}
        return answer


def compare(generated: Generated, answer: dict[str, Any]) -> dict[str, Any]:
    """Our game against the reference's replay of its export."""
    out: dict[str, Any] = {"seconds": answer.get("seconds"),
                           "client_auto": answer.get("client_auto") or []}
    if "error" in answer:
        out.update(agree=False, verdict="driver error", divergence=answer["error"])
        return out
    theirs = answer.get("trace") or []
    first: dict[str, Any] | None = None
    for index, (mine, ref) in enumerate(zip(generated.trace, theirs, strict=False)):
        if ref is None:
            continue  # an action the live client played by itself with the one before
        cash, prices = mine[0], mine[1]
        ref_cash, ref_prices = ref[0], ref[1]
        if cash != ref_cash or prices != ref_prices:
            first = {"index": index, **_what(generated.actions[index]),
                     "cash": _delta(cash, ref_cash), "prices": _delta(prices, ref_prices),
                     "next": _next_acting(generated.trace, theirs, index)}
            break
    refused = answer.get("refused")
    same_end = (generated.finished and bool(answer.get("finished"))
                and generated.result == answer.get("result")
                and generated.end_reason == answer.get("end_reason"))
    out["agree"] = same_end
    out["result"] = answer.get("result")
    out["end_reason"] = answer.get("end_reason")
    if first is not None and (refused is None or first["index"] < refused["index"]):
        out["verdict"] = "state differs"
        out["divergence"] = first
    elif answer.get("timeout"):
        # traces equal as far as the reference came (a state difference wins above)
        out["verdict"] = "reference time limit"
        out["divergence"] = {"index": len(theirs)}
    elif refused is not None:
        out["verdict"] = "refused"
        out["divergence"] = refused
    elif not generated.finished:
        out["verdict"] = "unfinished, traces equal" if len(theirs) == len(generated.trace) \
            else "unfinished, trace lengths differ"
    elif same_end:
        out["verdict"] = "agree"
    else:
        out["verdict"] = "end differs"
        out["divergence"] = {"ours": [generated.end_reason, generated.result],
                             "reference": [answer.get("end_reason"), answer.get("result"),
                                           answer.get("finished")]}
    return out


def _next_acting(ours: Sequence[Sequence[Any]], theirs: Sequence[Any], index: int
                 ) -> dict[str, list[Any]]:
    """Who acts after the action before `index` and after `index`, ours and theirs
    (``entity/step``; step names are each engine's own)."""
    out: dict[str, list[Any]] = {}
    for i in (index - 1, index):
        if 0 <= i < len(ours) and i < len(theirs):
            mine = ours[i][2] if len(ours[i]) > 2 else None
            ref = theirs[i][2] if theirs[i] is not None and len(theirs[i]) > 2 else None
            out[f"after {i}"] = [mine, ref]
    return out


def _what(action: Mapping[str, Any]) -> dict[str, Any]:
    keep = ("type", "entity", "hex", "tile", "rotation", "city", "train", "price", "shares",
            "corporation", "company", "kind", "choice")
    return {k: action[k] for k in keep if k in action}


def _delta(ours: dict[str, int], theirs: dict[str, int]) -> dict[str, list[int | None]]:
    return {k: [ours.get(k), theirs.get(k)] for k in sorted(set(ours) | set(theirs))
            if ours.get(k) != theirs.get(k)}


def classify(generated_actions: Sequence[Mapping[str, Any]], mode: str,
             verdict: dict[str, Any], stop: str | None = None) -> str | None:
    """A likely cause of a divergence, from signatures seen before (a hint, not proof);
    ``stop`` is why our side stopped early, if it did."""
    kind = verdict.get("verdict")
    div = verdict.get("divergence")
    if kind == "reference time limit":
        return "no divergence seen: the reference's time limit ran out before the end " \
               "(rerun with a longer --reference-time-limit)"
    if kind == "unfinished, traces equal" and stop and "in MajorTrainless" in stop:
        return "both stop at the reference's dead end: a major nationalised at the first 8 " \
               "is still listed among the trainless majors (D31)"
    if isinstance(kind, str) and kind.startswith("unfinished"):
        return "no divergence seen: our side stopped at a limit (" + \
            ("traces equal" if kind.endswith("equal") else "trace lengths differ") + ")"
    if kind == "agree" or not isinstance(div, dict):
        return None
    message = str(div.get("message", ""))
    index = div.get("index")
    recent = generated_actions[max(0, index - 15):index] if isinstance(index, int) else []
    nationalised = any(a.get("choice") == "nationalize" for a in recent)
    nxt = div.get("next", {}).get(f"after {index}", [None, None]) if kind == "state differs" \
        else [None, None]
    if "h_to_args() returned nil :city" in message:
        return "a city id the reference does not know (printed-tile ids, issue 16)"
    if "place_token' for [" in message:
        return "hex_token into a multi-city hex (Quebec; issue 16: place_token needed)"
    if div.get("type") == "sell_shares" and "comparison of Integer with nil" in message:
        return "reference crash in SharePool#distance: P11's tax haven ties for a " \
               "presidency (it has no seat; its shares never count for directorship, " \
               "supplement §6.1 P11)"
    if "Bid, convert concession or buy/sell shares cannot process" in message \
            or "still needs to sell shares before a loan" in message:
        return "the reference counts P11's tax haven as a player who could become " \
               "director: a lone director's certificate counts as sellable (a turn kept " \
               "open, a loan refused until it is sold; supplement §6.1 P11)"
    if "cheater" in message:
        return "reference crash in G1822#remove_cheater_slot! (a token removed from a " \
               "city with an added slot)"
    if mode == "live" and div.get("accepted_after_graph_clear") and nationalised:
        return "live only: after a nationalisation the reference's cached graph is stale " \
               "(issue 16; accepted with the graph cleared)"
    if mode == "live" and div.get("accepted_after_graph_clear") \
            and any(a.get("choice") == "remove" for a in recent):
        return "live only: after a minor's token is removed (acquisition) the reference's " \
               "cached graph is stale (issue 16; accepted with the graph cleared)"
    if mode == "live" and div.get("accepted_after_graph_clear"):
        return "live only: the reference's cached route graph is stale (D41 family)"
    if mode == "live" and isinstance(nxt[1], str) and nxt[1].endswith("/Route") \
            and nxt[0] != nxt[1]:
        return "live only: the reference waits for a run we skip (D41 stale route cache)"
    if mode == "load" and isinstance(nxt[1], str) and nxt[1].endswith("/Route") \
            and nxt[0] != nxt[1]:
        return "the reference waits for a run we skip: its route cache keeps a company " \
               "that could run once (D41; `Graph#clear` keeps `route_train_purchase`)"
    if message.startswith("Cannot process action") and div.get("type") != "message":
        return "the reference has ended the game before this action (D47: after turn 100 " \
               "it ends as dnf)"
    if "Blocking step Run Routes" in message and len(recent) >= 2 \
            and recent[-1].get("type") == "buy_train" and recent[-2].get("type") == "lay_tile" \
            and recent[-1].get("entity") == recent[-2].get("entity"):
        return "a lay on a destination hex left the reference's token, route and dividend " \
               "steps open; the train bought next runs (D46)"
    if nationalised and "Blocking step Run Routes" in message:
        return "after a nationalisation the reference skips the token step (issue 16)"
    if nationalised and "Blocking step Buy Trains" in message:
        return "after a nationalisation the reference still sells its trains (issue 16)"
    return None


def plan(specs: Sequence[str], games: int, seed: int, biases: Sequence[str]
         ) -> Iterable[tuple[str, int, int, str]]:
    """(spec, seed, players, bias) of each game, game by game across the specs."""
    for i in range(games):
        for spec in specs:
            _title, _options, lo, hi = SPECS[spec]
            players = random.Random(f"{spec}:{seed + i}").randint(lo, hi)
            yield spec, seed + i, players, biases[i % len(biases)]


def commit_of(folder: Path) -> str:
    """The git commit the games are played by (``?`` outside a checkout)."""
    try:
        out = subprocess.run(["git", "-C", str(folder), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, check=True)
        dirty = subprocess.run(["git", "-C", str(folder), "status", "--porcelain",
                                "--untracked-files=no", "--", "desk18xx"],
                               capture_output=True, text=True, check=True).stdout.strip()
        return out.stdout.strip() + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "?"


def table(rows: Sequence[dict[str, Any]]) -> str:
    """The agreement table and the first divergence of every game that does not agree."""
    families = sorted({r["family"] for r in rows})
    modes = [m for m in MODES if any(m in r.get("reference", {}) for r in rows)]
    lines = ["| family | games | finished | re-import equal |"
             + "".join(f" {m}: result+end equal |" for m in modes),
             "| --- | --- | --- | --- |" + " --- |" * len(modes)]
    for fam in families + ["all"]:
        sel = [r for r in rows if fam in ("all", r["family"])]
        cells = [str(len(sel)), str(sum(r["finished"] for r in sel)),
                 str(sum(r["roundtrip"] == "equal" for r in sel))]
        for m in modes:
            judged = [r for r in sel if m in r.get("reference", {})]
            cells.append(f"{sum(r['reference'][m]['agree'] for r in judged)}/{len(judged)}")
        lines.append(f"| {fam} | " + " | ".join(cells) + " |")
    verdicts: dict[str, int] = defaultdict(int)
    for r in rows:
        for m, v in r.get("reference", {}).items():
            verdicts[f"{r['family']} {m}: {v['verdict']}"] += 1
            if v["verdict"] != "agree":
                verdicts[f"{r['family']} {m}: likely {v.get('likely') or 'not classified'}"] += 1
            if v.get("client_auto"):
                verdicts[f"{r['family']} {m}: games where the client plays a move by "
                         f"itself that our log asks for"] += 1
    lines.append("")
    lines.extend(f"- {k}: {n}" for k, n in sorted(verdicts.items()))
    lines.append("")
    for r in rows:
        notes = []
        if r["roundtrip"] != "equal":
            notes.append(f"round trip: {r['roundtrip']}")
        if r["stop"]:
            notes.append(f"stopped: {r['stop']}")
        for m, v in r.get("reference", {}).items():
            if v["verdict"] != "agree":
                notes.append(f"{m}: {v['verdict']} {json.dumps(v.get('divergence'))[:400]}")
                notes.append(f"{m}: likely: {v.get('likely') or 'not classified'}")
            for auto in v.get("client_auto", [])[:3]:
                notes.append(f"{m}: the client plays by itself {json.dumps(auto)[:300]}")
        if notes:
            lines.append(f"{r['key']} ({r['actions']} actions, {r['commit']}):")
            lines.extend(f"    {n}" for n in notes)
    return "\n".join(lines)


def fixtures_through_reference(folder: Path, reference: Reference, out: Path,
                               modes: Sequence[str], seconds: float) -> int:
    """Import each recorded 18xx.games game in `folder`, export it with our exporter
    and replay that export in the reference: it must reach the recorded result."""
    from desk18xx.io.transfer import export_text, save_from_export

    status = 0
    for fixture in sorted(folder.glob("*/*.json")):
        recorded = json.loads(fixture.read_text(encoding="utf-8"))
        converted = save_from_export(fixture)
        path = out / f"fixture-{fixture.parent.name}-{fixture.name}"
        path.write_text(export_text(converted.header, converted.actions,
                                    converted.replayed.game), encoding="utf-8")
        for mode in modes:
            answer = reference.replay(path, mode, seconds)
            same = (answer.get("result") == {str(k): v for k, v in recorded["result"].items()}
                    and answer.get("end_reason") == recorded.get("game_end_reason"))
            status |= not same
            print(f"{fixture.parent.name}/{fixture.name} {mode}: "
                  f"{'same result and end reason' if same else 'DIFFERS'}"
                  f" (reference: {answer.get('end_reason')}, refused {answer.get('refused')}, "
                  f"{answer.get('error', '')})", flush=True)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Generate, export, re-import and (with a reference) replay; print the table."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10, help="games per title spec")
    parser.add_argument("--seed", type=int, default=1000, help="first seed")
    parser.add_argument("--titles", default=",".join(SPECS),
                        help=f"comma-separated specs (default: all of {', '.join(SPECS)})")
    parser.add_argument("--biases", default=",".join(BIASES),
                        help=f"biases, used in turn (default: {', '.join(BIASES)})")
    parser.add_argument("--out", type=Path, help="folder for exports and report")
    parser.add_argument("--reference", type=Path, help="a tobymao/18xx checkout (holds lib/)")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--ruby", default="ruby")
    parser.add_argument("--cap", type=int, default=4000, help="most actions per game")
    parser.add_argument("--time-limit", type=float, default=120.0,
                        help="seconds per game to generate it (our engine)")
    parser.add_argument("--reference-time-limit", type=float, default=300.0,
                        help="seconds per game and mode in the reference")
    parser.add_argument("--fix-city-ids", action="store_true",
                        help="let the reference read our pre-issue-16 ids of cities on "
                        "printed tiles (E15-0-0); a preview aid, off by default")
    parser.add_argument("--fixtures", type=Path,
                        help="instead of random games: export every recorded game under this "
                        "folder (TITLE/*.json) with our exporter and replay it in the reference")
    parser.add_argument("--commit", help="the commit to name in the report (default: git's HEAD "
                        "of the tree this file is in, +dirty when desk18xx/ has changes)")
    parser.add_argument("--table", type=Path, nargs="*",
                        help="only print the table of these report.jsonl files")
    args = parser.parse_args(argv)

    if args.table:
        done = [json.loads(line) for p in args.table for line in p.read_text().splitlines()
                if line.strip()]
        for row in done:  # classify again with today's signatures
            file = Path(row.get("file") or "")
            if file.is_file() and any(v["verdict"] != "agree"
                                      for v in row.get("reference", {}).values()):
                actions = json.loads(file.read_text(encoding="utf-8"))["actions"]
                for mode, verdict in row["reference"].items():
                    verdict["likely"] = classify(actions, mode, verdict, row.get("stop"))
        print(table(done))
        return 0
    if args.out is None:
        parser.error("--out is needed (except with --table)")
    specs = [s for s in args.titles.split(",") if s]
    biases = [b for b in args.biases.split(",") if b]
    for s in specs:
        if s not in SPECS:
            parser.error(f"unknown title spec {s!r} (known: {', '.join(SPECS)})")
    for b in biases:
        if b not in BIASES:
            parser.error(f"unknown bias {b!r} (known: {', '.join(BIASES)})")
    modes = [m for m in args.modes.split(",") if m]
    reference: Reference | None = None
    if args.reference is not None:
        if shutil.which(args.ruby) is None:
            parser.error(f"{args.ruby} is not on the PATH")
        if not (args.reference / "lib" / "engine.rb").is_file():
            parser.error(f"{args.reference} has no lib/engine.rb")
        reference = Reference(args.reference, args.ruby)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.fixtures is not None:
        if reference is None:
            parser.error("--fixtures needs --reference")
        try:
            # loading mode only: a recorded log holds undo, redo and chat, which the
            # live mode (made for our logs) does not replay
            return fixtures_through_reference(args.fixtures, reference, args.out, ["load"],
                                              args.reference_time_limit)
        finally:
            reference.stop()
    import desk18xx

    commit = args.commit or commit_of(HERE.parent.parent)
    print(f"commit {commit}, desk18xx from {Path(desk18xx.__file__).parent}", flush=True)
    report = args.out / "report.jsonl"
    rows: list[dict[str, Any]] = []
    # a `kill` must stop the Ruby process too (the `finally` below)
    signal.signal(signal.SIGTERM, lambda _signum, _frame: sys.exit(143))
    try:
        for spec, seed, players, bias in plan(specs, args.games, args.seed, biases):
            title, options, _lo, _hi = SPECS[spec]
            gen = play(title, seed, players, options, BIASES[bias], args.cap, args.time_limit)
            path = export(gen, args.out)
            save_trace(gen, args.out)
            row = {**gen.summary(), "family": gen.family(), "commit": commit, "reference": {}}
            if reference is not None:
                for mode in modes:
                    answer = reference.replay(path, mode, args.reference_time_limit,
                                              args.fix_city_ids)
                    row["reference"][mode] = compare(gen, answer)
                    row["reference"][mode]["likely"] = classify(gen.actions, mode,
                                                                row["reference"][mode],
                                                                gen.stop)
            rows.append(row)
            with report.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(row) + "\n")
            verdicts = " ".join(f"{m}={v['verdict']}" for m, v in row["reference"].items())
            print(f"{time.strftime('%H:%M:%S')} {gen.key()}: {len(gen.actions)} actions, "
                  f"{gen.end_reason or gen.stop}, round trip {gen.roundtrip} {verdicts}",
                  flush=True)
    finally:
        if reference is not None:
            reference.stop()
    print()
    print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
