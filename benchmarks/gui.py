"""GUI timings: launch to an interactive window, a full map redraw, action to update.

Run ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/gui.py [EXPORT]``.
Prints one line per measure; the action timings submit the export's actions
one by one through the session with the whole window attached.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

START = time.perf_counter()
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

DEFAULT_EXPORT = (Path(__file__).resolve().parents[1] / ".." / "shared" / "fixtures"
                  / "18xx.games" / "1867" / "21268.json")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main(argv: list[str]) -> int:
    """Measure and print."""
    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtWidgets import QApplication

    from desk18xx.engine.actions import action_from_dict
    from desk18xx.engine.game import GameSetup
    from desk18xx.io.import_18xxgames import load_export
    from desk18xx.ui.mainwindow import MainWindow
    from desk18xx.ui.session import IMPORT_OPTIONS, GameSession

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "/tmp")
    app = QApplication.instance() or QApplication([])
    session = GameSession()
    session.new_game(GameSetup("1867", (("1", "A"), ("2", "B"), ("3", "C"), ("4", "D")), 1))
    window = MainWindow(session, restore_layout=False)
    window.resize(1600, 1000)
    window.show()
    app.processEvents()
    launch = time.perf_counter() - START
    print(f"launch -> interactive window: {launch * 1000:.0f} ms")

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
    print(f"full map redraw (1600x1000): median {statistics.median(redraws) * 1000:.0f} ms")

    path = Path(argv[0]) if argv else DEFAULT_EXPORT
    imported = load_export(path)
    session.new_game(GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                               imported.seed, tuple(imported.optional_rules) + IMPORT_OPTIONS))
    app.processEvents()
    times: list[float] = []
    if os.environ.get("PROFILE"):
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.enable()
        for raw in imported.actions[:150]:
            session.submit(action_from_dict(raw))
            app.processEvents()
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
        return 0
    for raw in imported.actions:
        action = action_from_dict(raw)
        t = time.perf_counter()
        ok = session.submit(action)
        app.processEvents()
        if not ok:
            break
        times.append(time.perf_counter() - t)
    if times:
        print(f"action -> updated window ({len(times)} actions of {path.name}): "
              f"median {statistics.median(times) * 1000:.0f} ms, "
              f"p95 {_percentile(times, 0.95) * 1000:.0f} ms, "
              f"max {max(times) * 1000:.0f} ms")
    t = time.perf_counter()
    session.undo()
    app.processEvents()
    print(f"undo one action ({len(times)} live; replay from the latest snapshot): "
          f"{(time.perf_counter() - t) * 1000:.0f} ms")
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
