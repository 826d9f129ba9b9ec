"""GUI timings against the "Hot-seat" targets.

Run ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/gui.py [EXPORT]``.
Prints one line per measure:

* launch -> interactive window: wall time from starting a fresh Python process
  (``desk18xx.ui.app.run_app``, no file, as a user launches it) to the first
  turn of its event loop after the window is shown (target < 1.5 s).  Timed
  as installed, with the modules' bytecode cached (a first, untimed launch
  writes it to a temporary ``PYTHONPYCACHEPREFIX``); the median of
  :data:`LAUNCHES` launches, with the child's CPU time beside it (steadier
  on a busy machine); the first launch, compiling every module, is shown too.
  The first frame shows hexes plain (colour and outline); the time until the
  map is drawn in full, shapely imported just after that frame, is shown too;
* full map redraw: rendering the whole map scene into a 1600x1000 image;
* action -> updated window: a late-game 1822CA position (the export replayed to
  :data:`LATE_OFFSET` actions before its end), then its next actions submitted
  one by one through the session with the whole window attached, each timed up
  to the window having processed its events (target p95 < 100 ms), in wall
  and in CPU time.  Each is split into the engine (until the session's
  ``action_applied``), the window update (every listener of the session's
  ``state_changed``) and painting (the events processed after), for the
  median and for the slowest 5 %, to show what dominates.  The window has
  what ``run_app`` gives it (autosave, :class:`~desk18xx.ui.idlegc.IdleCollector`)
  and runs its event loop untimed for :data:`PAUSE` before each action, as
  during a player's pause (the idle-time work: tray pictures, autosave,
  garbage, study digests, the lay question of the positions one click away:
  :mod:`desk18xx.ui.mapview.layguess`; the lay positions outlined from such a
  guess are counted and printed);
* undo: :data:`UNDOS` undos in a row from there, each after a pause.

Every figure is given on three clocks: wall, the process's CPU (every thread: the
route workers' searches count when they run inside an action) and the GUI
thread's CPU (what the player waits for).  The machine may be busy: CPU time is
the steadier measure.

``gui.py --against OLD_TREE [EXPORT]``: paired before/after figures, the launch and
the window of ``OLD_TREE`` (e.g. ``git archive <commit> | tar -x -C /tmp/old``) and
of this tree (or ``$DESK18XX_ROOT``) measured in turns, :data:`PAIRED_ROUNDS` rounds,
so that both see the same load.  ``NO_LAUNCH=1`` skips the launches of a plain run;
``PROFILE=1`` profiles the timed actions, ``PROFILE=undo`` the undos (``PROFILE_SORT``
orders the table, ``PROFILE_OUT`` names a file for the raw stats).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(os.environ.get("DESK18XX_ROOT") or Path(__file__).resolve().parents[1]).resolve()
"""The tree measured: this one, or ``$DESK18XX_ROOT`` (a paired run's other tree)."""
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

DEFAULT_EXPORT = (ROOT / ".." / "shared" / "fixtures" / "18xx.games" / "1822CA"
                  / "1822CA_game_end_bank.json")
#: the late position: this many actions before the export's end
LATE_OFFSET = 120
#: how many of the following actions are submitted and timed
TIMED_ACTIONS = 100
#: timed launches (after one untimed launch that writes the bytecode)
LAUNCHES = 3
#: seconds the window runs its event loop untimed between two actions (a player's
#: pause, in which its idle-time work is done: autosave, garbage, study digests)
PAUSE = 0.6

_LAUNCH_CHILD = """
import sys, time
from PySide6.QtCore import QTimer
from desk18xx.ui import app as app_module
app = app_module._application([sys.argv[0]])
def shown():
    app.processEvents()
    print("SHOWN", time.process_time(), flush=True)
    drawn()
def drawn():
    from desk18xx.ui.map.items import drawn_in_full
    if not drawn_in_full():
        QTimer.singleShot(5, drawn)
        return
    app.processEvents()
    print("DRAWN", time.process_time(), flush=True)
    app.exit(0)
QTimer.singleShot(0, shown)  # runs on the first turn of run_app's event loop
class _NoDialog:  # run_app's own deferred calls (the New game dialog) are not run
    @staticmethod
    def singleShot(*args, **kwargs):
        pass
app_module.QTimer = _NoDialog
sys.exit(app_module.run_app(None))
"""


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def measure_launch(pycache: str) -> tuple[float, float, float]:
    """Seconds from spawning the app process to its window taking events, the
    child's CPU seconds until then, and seconds until its map is drawn in full
    (the layout imported after the first frame); bytecode is read from and
    written to ``pycache``."""
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, XDG_DATA_HOME=home, XDG_CONFIG_HOME=home,
                   PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen",
                   PYTHONPYCACHEPREFIX=pycache)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        t = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", _LAUNCH_CHILD], env=env, cwd=ROOT,
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        elapsed = cpu = drawn = -1.0
        for line in proc.stdout:
            if line.startswith("SHOWN"):
                elapsed = time.perf_counter() - t
                cpu = float(line.split()[1])
            elif line.startswith("DRAWN"):
                drawn = time.perf_counter() - t
        proc.wait()
        if elapsed < 0 or drawn < 0:
            raise RuntimeError("the app never showed its window, or never drew its map")
    return elapsed, cpu, drawn


#: Idle-time work of the window: (module, class, method) run by timers after a change.
IDLE_WORK = (("desk18xx.ui.files", "FileActions", "autosave"),
             ("desk18xx.ui.idlegc", "IdleCollector", "settle"),
             ("desk18xx.ui.studysession", "StudySession", "digest_current"),
             ("desk18xx.ui.docks.company_sheet", "CompanySheet", "_read_one"),
             ("desk18xx.ui.session", "GameSession", "idle_snapshot"),
             ("desk18xx.ui.mapview.layguess", "LayGuesses", "guess"))


#: The clocks an action is timed by: wall, the process's CPU (every thread, the
#: route workers too) and the GUI thread's CPU (what the player waits for).
CLOCKS = (time.perf_counter, time.process_time, time.thread_time)
CLOCK_NAMES = ("wall", "CPU", "GUI thread CPU")


def _track_idle_work(spent: list[float]) -> None:
    """Add the seconds of every :data:`IDLE_WORK` call to ``spent`` (per :data:`CLOCKS`)
    (patched before the window connects to them)."""
    import importlib

    for module, cls, name in IDLE_WORK:
        try:
            klass = getattr(importlib.import_module(module), cls)
            original = getattr(klass, name)
        except (ImportError, AttributeError):  # not in an older tree (paired runs)
            continue

        def timed(self: Any, *args: Any, _original: Any = original) -> Any:
            before = [c() for c in CLOCKS]
            try:
                return _original(self, *args)
            finally:
                for k, c in enumerate(CLOCKS):
                    spent[k] += c() - before[k]

        setattr(klass, name, timed)


def _pause(app: Any, seconds: float) -> None:
    """Run the event loop for ``seconds`` (timers fire, nothing is timed)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.005)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


#: The parts of an action: between submitting and the engine having applied it,
#: then until every listener of the session has updated, then the events processed.
PARTS = ("engine", "window update", "painting")


def _print_parts(label: str, marks: list[tuple[float, float, float, float]]) -> None:
    """Median, p95 and max of one clock, and what the median action and the slowest
    5 % (what the p95 is made of) spend in each part, naming the largest."""
    totals = [end - start for start, _, _, end in marks]
    print(f"  {label}: median {_ms(statistics.median(totals))}, "
          f"p95 {_ms(_percentile(totals, 0.95))}, max {_ms(max(totals))}")
    parts = [(applied - start, handled - applied, end - handled)
             for start, applied, handled, end in marks]
    order = sorted(range(len(totals)), key=lambda i: totals[i])
    for name, rows in (("median action", [order[len(order) // 2]]),
                       ("slowest 5 %", order[-max(1, len(order) // 20):])):
        means = [statistics.mean(parts[i][k] for i in rows) for k in range(len(PARTS))]
        top = max(range(len(PARTS)), key=lambda k: means[k])
        print(f"    {name}: " + ", ".join(f"{n} {_ms(m)}" for n, m in zip(PARTS, means,
                                                                          strict=True))
              + f" -> {PARTS[top]} dominates")


def measure_launches() -> dict[str, float]:
    """Launch timings (seconds): median wall and CPU to the interactive window, the map
    drawn in full, and the first launch compiling the modules."""
    with tempfile.TemporaryDirectory() as pycache:
        first, first_cpu, _ = measure_launch(pycache)
        launches = [measure_launch(pycache) for _ in range(LAUNCHES)]
    return {"wall": statistics.median(w for w, _, _ in launches),
            "cpu": statistics.median(c for _, c, _ in launches),
            "drawn": statistics.median(d for _, _, d in launches),
            "first": first, "first_cpu": first_cpu}


def print_launches(launch: dict[str, float]) -> None:
    """The launch lines."""
    print(f"launch -> interactive window: {_ms(launch['wall'])} (median of {LAUNCHES}, "
          f"bytecode cached; CPU {_ms(launch['cpu'])}); first launch compiling the modules: "
          f"{_ms(launch['first'])} (CPU {_ms(launch['first_cpu'])})")
    print(f"  map drawn in full (hex layout imported after the first frame): "
          f"{_ms(launch['drawn'])}")


#: Undos timed after the actions, one after the other.
UNDOS = 5


def measure_window(path: Path, quiet: bool = False) -> dict[str, Any]:
    """Open the late position of ``path`` in the window, time :data:`TIMED_ACTIONS`
    actions and :data:`UNDOS` undos; print the figures unless ``quiet``.

    Returns:
        ``marks``: per clock, (start, applied, handled, end) of each action;
        ``idle``: per clock, idle-time work that came due inside each action;
        ``undo``: per clock, the seconds of each undo.
    """
    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtWidgets import QApplication

    from desk18xx.engine.actions import action_from_dict
    from desk18xx.engine.game import GameSetup
    from desk18xx.io.autosave import AutosaveSession
    from desk18xx.io.import_18xxgames import load_export
    from desk18xx.ui.idlegc import IdleCollector
    from desk18xx.ui.mainwindow import MainWindow
    from desk18xx.ui.session import IMPORT_OPTIONS, GameSession

    try:
        from desk18xx.ui.routeworker import install_attachment_hints
    except ImportError:  # an older tree (paired before/after runs)

        def install_attachment_hints(*_args: Any) -> None:
            return None

    idle_spent = [0.0] * len(CLOCKS)
    _track_idle_work(idle_spent)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope,
                      tempfile.mkdtemp())
    app = QApplication.instance() or QApplication([])
    imported = load_export(path)
    late = max(0, len(imported.actions) - LATE_OFFSET)
    session = GameSession()
    session.new_game(GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                               imported.seed, tuple(imported.optional_rules) + IMPORT_OPTIONS),
                     [dict(a) for a in imported.actions[:late]])
    window = MainWindow(session, restore_layout=False)
    window.resize(1600, 1000)
    window.show()
    IdleCollector(session, window)  # as run_app installs them
    install_attachment_hints(session, window)
    window.files.set_autosave(AutosaveSession(Path(tempfile.mkdtemp()) / "autosave"))
    app.processEvents()
    while window.action_panel.tray.warming:  # the player looks at the loaded game first:
        _pause(app, PAUSE)                   # the idle-time work is done meanwhile
    _pause(app, PAUSE)

    scene = window.map_view.map_scene
    assert scene is not None
    redraws = []
    for _ in range(5):
        image = QImage(1600, 1000, QImage.Format.Format_ARGB32)
        t = time.perf_counter()
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        scene.render(painter)
        painter.end()
        redraws.append(time.perf_counter() - t)
    if not quiet:
        print(f"full map redraw (1600x1000, {imported.title} at action {late}): "
              f"median {statistics.median(redraws) * 1000:.0f} ms")

    clocks = CLOCKS
    applied: list[tuple[float, ...]] = []
    session.action_applied.connect(lambda _n: applied.append(tuple(c() for c in clocks)))
    todo = [action_from_dict(raw) for raw in imported.actions[late:late + TIMED_ACTIONS]]
    prof = None
    if os.environ.get("PROFILE") and os.environ["PROFILE"] != "undo":
        import cProfile

        prof = cProfile.Profile()
    marks: list[list[tuple[float, float, float, float]]] = [[] for _ in clocks]
    idle_inside: list[list[float]] = [[] for _ in clocks]  # idle work that came due meanwhile
    lays = 0  # positions where the window outlines lay hexes
    for action in todo:
        _pause(app, PAUSE)  # what the window does in the player's pause, untimed
        idle_before = list(idle_spent)
        if prof is not None:
            prof.enable()
        start = tuple(c() for c in clocks)
        ok = session.submit(action)
        handled = tuple(c() for c in clocks)
        app.processEvents()
        end = tuple(c() for c in clocks)
        if prof is not None:
            prof.disable()
        if not ok:
            break
        if window.controller.track is not None:
            lays += 1
        for k in range(len(clocks)):
            marks[k].append((start[k], applied[-1][k], handled[k], end[k]))
            idle_inside[k].append(idle_spent[k] - idle_before[k])
    if prof is not None:
        import pstats

        if os.environ.get("PROFILE_OUT"):  # for pstats queries (callers, callees)
            prof.dump_stats(os.environ["PROFILE_OUT"])
        pstats.Stats(prof).sort_stats(os.environ.get("PROFILE_SORT", "cumulative")).print_stats(60)
    undos: list[list[float]] = [[] for _ in clocks]
    uprof = None
    if os.environ.get("PROFILE") == "undo":
        import cProfile

        uprof = cProfile.Profile()
    for _ in range(UNDOS):
        _pause(app, PAUSE)
        if uprof is not None:
            uprof.enable()
        start = tuple(c() for c in clocks)
        session.undo()
        app.processEvents()
        end = tuple(c() for c in clocks)
        if uprof is not None:
            uprof.disable()
        for k in range(len(clocks)):
            undos[k].append(end[k] - start[k])
    if uprof is not None:
        import pstats

        if os.environ.get("PROFILE_OUT"):
            uprof.dump_stats(os.environ["PROFILE_OUT"])
        pstats.Stats(uprof).sort_stats(os.environ.get("PROFILE_SORT", "cumulative")).print_stats(60)
    guesses = getattr(window.controller, "guesses", None)  # none in an older tree
    window.close()
    result = {"marks": marks, "idle": idle_inside, "undo": undos, "name": path.name,
              "late": late, "lays": lays, "guessed": guesses.used if guesses else 0}
    if not quiet:
        print_window(result)
    return result


def print_window(result: dict[str, Any]) -> None:
    """The action and undo lines of :func:`measure_window`."""
    marks, idle_inside = result["marks"], result["idle"]
    if marks[0]:
        print(f"action -> updated window ({len(marks[0])} actions of {result['name']} from "
              f"action {result['late']}):")
        for k, label in enumerate(CLOCK_NAMES):
            _print_parts(label, marks[k])
        for k, label in enumerate(CLOCK_NAMES):
            inside = [x for x in idle_inside[k] if x > 0]
            if inside:
                without = [m[3] - m[0] - x for m, x in zip(marks[k], idle_inside[k],
                                                            strict=True)]
                print(f"  idle-time work that came due inside {len(inside)} actions "
                      f"({label} {_ms(sum(inside) / len(inside))} each: a timer of "
                      f"{', '.join(c for _, c, _ in IDLE_WORK)} outlasted by a slow "
                      f"action); without it: median {_ms(statistics.median(without))}, "
                      f"p95 {_ms(_percentile(without, 0.95))}")
    if marks[0]:
        print(f"  lay positions: {result['lays']}, of which {result['guessed']} outlined from "
              "the lay question asked in the pause before (LayGuesses: the action was a "
              "one-click choice tried then)")
    for k, label in enumerate(CLOCK_NAMES):
        undo = result["undo"][k]
        print(f"undo one action ({len(undo)} in a row, {label}): median "
              f"{_ms(statistics.median(undo))}, max {_ms(max(undo))}")


#: Rounds of a paired run (each measures the other tree, then this one).
PAIRED_ROUNDS = 2


def _child(root: Path, export: Path, what: str) -> dict[str, Any]:
    """Run this benchmark on ``root``'s tree in a fresh process; its JSON answer."""
    import json

    env = dict(os.environ, DESK18XX_ROOT=str(root), QT_QPA_PLATFORM="offscreen")
    env.pop("PROFILE", None)
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), f"--json-{what}",
                          str(export)], env=env, capture_output=True, text=True, check=True)
    line = [x for x in out.stdout.splitlines() if x.startswith("{")][-1]
    answer: dict[str, Any] = json.loads(line)
    return answer


def _summary(values: list[float]) -> str:
    return (f"median {_ms(statistics.median(values))}, p95 {_ms(_percentile(values, 0.95))}, "
            f"max {_ms(max(values))}")


def paired(old: Path, export: Path) -> int:
    """Before/after: the launch and window figures of the ``old`` tree and of this
    one, measured in turns (old, new, old, new…) so that both see the same load."""
    trees = (("before", old.resolve()), ("after", ROOT))
    runs: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
    launches: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
    for _ in range(PAIRED_ROUNDS):
        for label, root in trees:
            launches[label].append(_child(root, export, "launch"))
            runs[label].append(_child(root, export, "window"))
    for label, root in trees:
        print(f"{label}: {root}")
        ls = launches[label]
        print(f"  launch -> interactive: wall {_ms(statistics.median(x['wall'] for x in ls))}, "
              f"CPU {_ms(statistics.median(x['cpu'] for x in ls))}; map drawn in full "
              f"{_ms(statistics.median(x['drawn'] for x in ls))}")
        for k, name in enumerate(CLOCK_NAMES):
            totals = [m[3] - m[0] for r in runs[label] for m in r["marks"][k]]
            undo = [u for r in runs[label] for u in r["undo"][k]]
            print(f"  action ({name}, {len(totals)} actions): {_summary(totals)}; "
                  f"undo {_summary(undo)}")
        print(f"  lay positions {sum(r.get('lays', 0) for r in runs[label])}, outlined from "
              f"a guess of the pause {sum(r.get('guessed', 0) for r in runs[label])}")
    return 0


def main(argv: list[str]) -> int:
    """Measure and print (``--against OLD_TREE``: paired before/after figures)."""
    import json

    if argv and argv[0] in ("--json-launch", "--json-window"):
        export = Path(argv[1]) if len(argv) > 1 else DEFAULT_EXPORT
        if argv[0] == "--json-launch":
            print(json.dumps(measure_launches()))
        else:
            print(json.dumps(measure_window(export, quiet=True)))
        return 0
    if argv and argv[0] == "--against":
        if len(argv) < 2:
            print("usage: gui.py --against OLD_TREE [EXPORT]", file=sys.stderr)
            return 2
        return paired(Path(argv[1]), Path(argv[2]) if len(argv) > 2 else DEFAULT_EXPORT)
    if not os.environ.get("NO_LAUNCH"):
        print_launches(measure_launches())
    measure_window(Path(argv[0]) if argv else DEFAULT_EXPORT)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
