"""GUI timings against the "Hot-seat" targets.

Run ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/gui.py [EXPORT]``.
Prints one line per measure:

* launch -> interactive window: wall time from starting a fresh Python process
  (``desk18xx.ui.app.run_app``, no file, as a user launches it) to the first
  turn of its event loop after the window is shown (target < 1.5 s);
* full map redraw: rendering the whole map scene into a 1600x1000 image;
* action -> updated window: a late-game 1822CA position (the export replayed to
  :data:`LATE_OFFSET` actions before its end), then its next actions submitted
  one by one through the session with the whole window attached, each timed up
  to the window having processed its events (target p95 < 100 ms); the part
  spent by the window itself (``MainWindow.refreshed``) is shown too;
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

_LAUNCH_CHILD = """
import sys, time
from PySide6.QtCore import QTimer
from desk18xx.ui import app as app_module
app = app_module._application([sys.argv[0]])
def shown():
    app.processEvents()
    print("SHOWN", flush=True)
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


def measure_launch() -> float:
    """Seconds from spawning the app process to its window taking events."""
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, XDG_DATA_HOME=home, XDG_CONFIG_HOME=home,
                   PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
        t = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", _LAUNCH_CHILD], env=env, cwd=ROOT,
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("SHOWN"):
                elapsed = time.perf_counter() - t
                break
        else:
            raise RuntimeError("the app never showed its window")
        proc.wait()
    return elapsed


def main(argv: list[str]) -> int:
    """Measure and print."""
    launch = measure_launch()
    print(f"launch -> interactive window: {launch * 1000:.0f} ms")

    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtWidgets import QApplication

    from desk18xx.engine.actions import action_from_dict
    from desk18xx.engine.game import GameSetup
    from desk18xx.io.import_18xxgames import load_export
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
    app.processEvents()

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
    todo = [action_from_dict(raw) for raw in imported.actions[late:late + TIMED_ACTIONS]]
    prof = None
    if os.environ.get("PROFILE"):
        import cProfile

        prof = cProfile.Profile()
        prof.enable()
    times: list[float] = []
    for action in todo:
        t = time.perf_counter()
        ok = session.submit(action)
        app.processEvents()
        if not ok:
            break
        times.append(time.perf_counter() - t)
    if prof is not None:
        import pstats

        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
    if times:
        print(f"action -> updated window ({len(times)} actions of {path.name} from action "
              f"{late}): median {statistics.median(times) * 1000:.0f} ms, "
              f"p95 {_percentile(times, 0.95) * 1000:.0f} ms, "
              f"max {max(times) * 1000:.0f} ms")
    if refreshes:
        print(f"  of which window refresh: median {statistics.median(refreshes) * 1000:.0f} ms, "
              f"p95 {_percentile(refreshes, 0.95) * 1000:.0f} ms")
    t = time.perf_counter()
    session.undo()
    app.processEvents()
    print(f"undo one action: {(time.perf_counter() - t) * 1000:.0f} ms")
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
