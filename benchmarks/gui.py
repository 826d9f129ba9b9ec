"""GUI timings against the "Hot-seat" targets.

Run ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/gui.py [EXPORT]``.
Prints one line per measure:

* launch -> interactive window: wall time from starting a fresh Python process
  (``desk18xx.ui.app.run_app``, no file, as a user launches it) to the first
  turn of its event loop after the window is shown (target < 1.5 s).  Timed
  as installed, with the modules' bytecode cached (a first, untimed launch
  writes it to a temporary ``PYTHONPYCACHEPREFIX``); the median of
  :data:`LAUNCHES` launches, with the child's CPU time beside it (steadier
  on a busy machine); the first launch, compiling every module, is shown too;
* full map redraw: rendering the whole map scene into a 1600x1000 image;
* action -> updated window: a late-game 1822CA position (the export replayed to
  :data:`LATE_OFFSET` actions before its end), then its next actions submitted
  one by one through the session with the whole window attached, each timed up
  to the window having processed its events (target p95 < 100 ms).  Each is
  split into the engine and other listeners (``session.submit`` less the main
  window's handler), the main window refresh (``MainWindow.refreshed``) and
  painting (the events processed after),
  for the median and for the slowest 5 %, to show what dominates.  Between
  two actions the window's idle-time work runs untimed, as during a player's
  pause (:class:`~desk18xx.ui.idlegc.IdleCollector`, as ``run_app`` installs it);
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

_LAUNCH_CHILD = """
import sys, time
from PySide6.QtCore import QTimer
from desk18xx.ui import app as app_module
app = app_module._application([sys.argv[0]])
def shown():
    app.processEvents()
    print("SHOWN", time.process_time(), flush=True)
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


def measure_launch(pycache: str) -> tuple[float, float]:
    """Seconds from spawning the app process to its window taking events, and the
    child's CPU seconds until then; bytecode is read from and written to ``pycache``."""
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, XDG_DATA_HOME=home, XDG_CONFIG_HOME=home,
                   PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen",
                   PYTHONPYCACHEPREFIX=pycache)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        t = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", _LAUNCH_CHILD], env=env, cwd=ROOT,
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("SHOWN"):
                elapsed = time.perf_counter() - t
                cpu = float(line.split()[1])
                break
        else:
            raise RuntimeError("the app never showed its window")
        proc.wait()
    return elapsed, cpu


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def _print_parts(times: list[float], handled: list[float], refreshes: list[float]) -> None:
    """Engine, window refresh and painting: per action at the median, and on average
    over the slowest 5 % (what the p95 is made of), naming the largest."""
    parts = [(h - r, r, t - h) for t, h, r in zip(times, handled, refreshes, strict=True)]
    names = ("engine and other listeners", "main window refresh", "painting")
    order = sorted(range(len(times)), key=lambda i: times[i])
    slow = order[-max(1, len(order) // 20):]
    for label, rows in (("median action", [order[len(order) // 2]]),
                        ("slowest 5 %", slow)):
        means = [statistics.mean(parts[i][k] for i in rows) for k in range(3)]
        top = max(range(3), key=lambda k: means[k])
        print(f"  {label}: " + ", ".join(f"{n} {_ms(m)}" for n, m in zip(names, means,
                                                                           strict=True))
              + f" -> {names[top]} dominates")


def main(argv: list[str]) -> int:
    """Measure and print."""
    with tempfile.TemporaryDirectory() as pycache:
        first, first_cpu = measure_launch(pycache)
        launches = [measure_launch(pycache) for _ in range(LAUNCHES)]
    wall = statistics.median(w for w, _ in launches)
    cpu = statistics.median(c for _, c in launches)
    print(f"launch -> interactive window: {_ms(wall)} (median of {LAUNCHES}, bytecode "
          f"cached; CPU {_ms(cpu)}); first launch compiling the modules: {_ms(first)} "
          f"(CPU {_ms(first_cpu)})")

    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtWidgets import QApplication

    from desk18xx.engine.actions import action_from_dict
    from desk18xx.engine.game import GameSetup
    from desk18xx.io.import_18xxgames import load_export
    from desk18xx.ui.idlegc import IdleCollector
    from desk18xx.ui.mainwindow import MainWindow
    from desk18xx.ui.session import IMPORT_OPTIONS, GameSession

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
    idle = IdleCollector(session, window)
    app.processEvents()
    idle.settle()  # the player looks at the loaded game before the first move

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

    refreshes: list[float] = []
    window.refreshed.connect(refreshes.append)
    handled: list[float] = []  # seconds in session.submit: engine and window handler
    todo = [action_from_dict(raw) for raw in imported.actions[late:late + TIMED_ACTIONS]]
    prof = None
    if os.environ.get("PROFILE"):
        import cProfile

        prof = cProfile.Profile()
        prof.enable()
    times: list[float] = []
    for action in todo:
        if idle.pending:
            idle.settle()  # what the window does in the player's pause, untimed
        t = time.perf_counter()
        ok = session.submit(action)
        submitted = time.perf_counter()
        app.processEvents()
        if not ok:
            break
        times.append(time.perf_counter() - t)
        handled.append(submitted - t)
    if prof is not None:
        import pstats

        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
    if times:
        print(f"action -> updated window ({len(times)} actions of {path.name} from action "
              f"{late}): median {_ms(statistics.median(times))}, "
              f"p95 {_ms(_percentile(times, 0.95))}, max {_ms(max(times))}")
    if times and len(refreshes) >= len(times):
        _print_parts(times, handled, refreshes[-len(times):])
    t = time.perf_counter()
    session.undo()
    app.processEvents()
    print(f"undo one action: {(time.perf_counter() - t) * 1000:.0f} ms")
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
