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
  garbage, study digests);
* undo one action from there.
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

ROOT = Path(__file__).resolve().parents[1]
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
             ("desk18xx.ui.studysession", "StudySession", "digest_current"))


def _track_idle_work(spent: list[float]) -> None:
    """Add the wall and CPU seconds of every :data:`IDLE_WORK` call to ``spent``
    (patched before the window connects to them)."""
    import importlib

    for module, cls, name in IDLE_WORK:
        klass = getattr(importlib.import_module(module), cls)
        original = getattr(klass, name)

        def timed(self: Any, *args: Any, _original: Any = original) -> Any:
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                return _original(self, *args)
            finally:
                spent[0] += time.perf_counter() - wall
                spent[1] += time.process_time() - cpu

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


def main(argv: list[str]) -> int:
    """Measure and print."""
    if not os.environ.get("NO_LAUNCH"):
        with tempfile.TemporaryDirectory() as pycache:
            first, first_cpu, _ = measure_launch(pycache)
            launches = [measure_launch(pycache) for _ in range(LAUNCHES)]
        wall = statistics.median(w for w, _, _ in launches)
        cpu = statistics.median(c for _, c, _ in launches)
        drawn = statistics.median(d for _, _, d in launches)
        print(f"launch -> interactive window: {_ms(wall)} (median of {LAUNCHES}, bytecode "
              f"cached; CPU {_ms(cpu)}); first launch compiling the modules: {_ms(first)} "
              f"(CPU {_ms(first_cpu)})")
        print(f"  map drawn in full (hex layout imported after the first frame): {_ms(drawn)}")

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

    idle_spent = [0.0, 0.0]
    _track_idle_work(idle_spent)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope,
                      tempfile.mkdtemp())
    app = QApplication.instance() or QApplication([])
    path = Path(argv[0]) if argv else DEFAULT_EXPORT
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
    print(f"full map redraw (1600x1000, {imported.title} at action {late}): "
          f"median {statistics.median(redraws) * 1000:.0f} ms")

    clocks = (time.perf_counter, time.process_time)
    applied: list[tuple[float, float]] = []
    session.action_applied.connect(lambda _n: applied.append((clocks[0](), clocks[1]())))
    todo = [action_from_dict(raw) for raw in imported.actions[late:late + TIMED_ACTIONS]]
    prof = None
    if os.environ.get("PROFILE"):
        import cProfile

        prof = cProfile.Profile()
    marks: tuple[list[tuple[float, float, float, float]], ...] = ([], [])
    idle_inside: tuple[list[float], ...] = ([], [])  # idle-time work that came due meanwhile
    for action in todo:
        _pause(app, PAUSE)  # what the window does in the player's pause, untimed
        idle_before = list(idle_spent)
        if prof is not None:
            prof.enable()
        start = (clocks[0](), clocks[1]())
        ok = session.submit(action)
        handled = (clocks[0](), clocks[1]())
        app.processEvents()
        end = (clocks[0](), clocks[1]())
        if prof is not None:
            prof.disable()
        if not ok:
            break
        for k in (0, 1):
            marks[k].append((start[k], applied[-1][k], handled[k], end[k]))
            idle_inside[k].append(idle_spent[k] - idle_before[k])
    if prof is not None:
        import pstats

        pstats.Stats(prof).sort_stats(os.environ.get("PROFILE_SORT", "cumulative")).print_stats(60)
    if marks[0]:
        print(f"action -> updated window ({len(marks[0])} actions of {path.name} from "
              f"action {late}):")
        _print_parts("wall", marks[0])
        _print_parts("CPU", marks[1])
        for label, k in (("wall", 0), ("CPU", 1)):
            inside = [x for x in idle_inside[k] if x > 0]
            if inside:
                without = [m[3] - m[0] - x for m, x in zip(marks[k], idle_inside[k],
                                                            strict=True)]
                print(f"  idle-time work that came due inside {len(inside)} actions "
                      f"({label} {_ms(sum(inside) / len(inside))} each: a timer of "
                      f"{', '.join(c for _, c, _ in IDLE_WORK)} outlasted by a slow "
                      f"action); without it: median {_ms(statistics.median(without))}, "
                      f"p95 {_ms(_percentile(without, 0.95))}")
    t = time.perf_counter()
    session.undo()
    app.processEvents()
    print(f"undo one action: {(time.perf_counter() - t) * 1000:.0f} ms")
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
