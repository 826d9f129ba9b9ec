"""No file crashes or hangs a tool: the generated hostile corpus through verify, replay, import.

Each file of `hostile_corpus.build_corpus` (empty, truncated, binary, wrong
types, YAML tags and NaN, huge and nested, FIFOs, directories, device links,
symbolic link loops, edited and re-chained files, malformed study sections) is
run through ``desk18xx verify``, ``desk18xx replay --check`` and ``desk18xx
import`` (the command line's `main`, in this process, each call under a time
limit). Counted: tracebacks (an exception out of `main`), hangs (a call over
the limit), files changed (every entry of the corpus hashed before and after),
refusals that do not name the file and the place, and files written by a
refused import. All must be 0; the three good controls must be accepted.
"""

from __future__ import annotations

import contextlib
import io
import re
import signal
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from hostile_corpus import CALL_LIMIT_S, Case, Hang, build_corpus, fingerprint, time_limit

from desk18xx.cli import main

COMMANDS = ("verify", "replay", "import")

ACCEPTED = {("good.d18xx", "verify"), ("good.d18xx", "replay"),
            ("good-study.d18xx", "verify"), ("good-study.d18xx", "replay"),
            ("good.json", "import")}
"""The control runs that must succeed (exit 0); every other run must be refused (exit 1),
except the signed e-mail moves (group ``pbem``): valid saves that only the receive path
can refuse (tests/io/test_pbem_signing.py, tests/ui/test_hostile_open.py); here they must
be read or refused cleanly."""


def located(path: Path, message: str) -> bool:
    """The refusal names the file and a place in it (``(file)``, ``line 3 column 5``,
    ``setup.players[0].name``, ``action id 4``, …) and then says why."""
    place = r"(\(file\)|\(top level\)|line \d+ column \d+|action id \S+|[A-Za-z_][\w.\[\]-]*)"
    return re.search(re.escape(str(path)) + ": " + place + r": \S", message) is not None


def run_cli(args: list[str]) -> tuple[int | None, str, str]:
    """`main(args)` with its output captured: (exit code or None on a hang, out, err).

    Raises:
        Exception: whatever `main` let out (a traceback for a user).
    """
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            with time_limit(CALL_LIMIT_S):
                code = main(args)
        except Hang:
            return None, out.getvalue(), err.getvalue()
    return code, out.getvalue(), err.getvalue()


def command_line(case: Case, command: str, out: Path) -> list[str]:
    if command == "verify":
        return ["verify", str(case.path)]
    if command == "replay":
        return ["replay", str(case.path), "--check"]
    return ["import", str(case.path), "--out", str(out / f"{case.name}.d18xx")]


@pytest.mark.slow
@pytest.mark.timeout(1200, method="thread")
def test_no_file_crashes_hangs_or_changes_anything(tmp_path: Path) -> None:
    if not hasattr(signal, "setitimer"):
        pytest.fail("this test needs POSIX signals (setitimer)")
    folder, out = tmp_path / "corpus", tmp_path / "out"
    out.mkdir()
    cases = build_corpus(folder)
    before = fingerprint(folder)
    counts: Counter[str] = Counter()
    problems: list[str] = []
    slowest = (0.0, "")
    for case in cases:
        for command in COMMANDS:
            args = command_line(case, command, out)
            start = time.perf_counter()
            try:
                code, _stdout, stderr = run_cli(args)
            except Exception as error:  # noqa: BLE001 - counted: a traceback for a user
                counts["tracebacks"] += 1
                problems.append(f"{case.name} {command}: traceback {type(error).__name__}: "
                                f"{error!s:.200}")
                continue
            elapsed = time.perf_counter() - start
            slowest = max(slowest, (elapsed, f"{case.name} {command}"))
            counts["runs"] += 1
            if code is None:
                counts["hangs"] += 1
                problems.append(f"{case.name} {command}: no answer in {CALL_LIMIT_S} s")
                continue
            if "Traceback" in stderr:
                counts["tracebacks"] += 1
                problems.append(f"{case.name} {command}: traceback printed: {stderr:.300}")
            must_accept = (case.name, command) in ACCEPTED
            if code == 0:
                counts["accepted"] += 1
                if not must_accept and case.group != "pbem":
                    problems.append(f"{case.name} {command}: accepted a bad file")
                continue
            counts["refused"] += 1
            if must_accept or code != 1:
                problems.append(f"{case.name} {command}: exit {code}: {stderr:.300}")
            if not located(case.path, stderr):
                counts["unlocated"] += 1
                problems.append(f"{case.name} {command}: refusal without a place: "
                                f"{stderr:.300}")
            if command == "import" and (out / f"{case.name}.d18xx").exists():
                counts["written"] += 1
                problems.append(f"{case.name} import: refused, but wrote its --out file")
    after = fingerprint(folder)
    changed = sorted(name for name in before.keys() | after.keys()
                     if before.get(name) != after.get(name))
    counts["changed"] = len(changed)
    counts["files"] = len(cases)
    summary = (f"{counts['files']} files ({dict(Counter(c.group for c in cases))}), "
               f"{counts['runs']} runs: {counts['refused']} refused, {counts['accepted']} "
               f"accepted; tracebacks {counts['tracebacks']}, hangs {counts['hangs']}, "
               f"files changed {counts['changed']}, refusals without a place "
               f"{counts['unlocated']}, refused imports that wrote {counts['written']}; "
               f"slowest run {slowest[0]:.2f} s ({slowest[1]})")
    print(summary, file=sys.stderr)
    assert len(cases) >= 80
    assert not changed, changed
    assert not problems, "\n".join([summary, *problems])
