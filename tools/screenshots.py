"""Screenshots of the main window for a look at the layout (issue 18).

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/screenshots.py --out /tmp/shots

For each title (a recorded game of ``../shared/fixtures/18xx.games``) it opens the
window at 1280x800 and 1920x1080 and saves three positions: the start, the first
operating round's third action and a late position (20 actions before the end):
``TITLE_POSITION_WIDTHxHEIGHT.png``.  Look at them: nothing here judges a picture.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT.parent / "shared" / "fixtures" / "18xx.games"
GAMES = {"1867": FIXTURES / "1867" / "21268.json",
         "1822CA": FIXTURES / "1822CA" / "1822CA_game_end_bank.json"}
SIZES = ((1280, 800), (1920, 1080))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("shots"))
    parser.add_argument("--titles", default=",".join(GAMES))
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(ROOT))
    from PySide6.QtWidgets import QApplication

    from desk18xx.ui.mainwindow import MainWindow
    from desk18xx.ui.session import GameSession

    app = QApplication.instance() or QApplication([])
    args.out.mkdir(parents=True, exist_ok=True)
    for title in args.titles.split(","):
        path = GAMES[title]
        if not path.exists():
            print(f"{title}: {path} is missing", file=sys.stderr)
            return 1
        session = GameSession()
        session.load(path)
        end = len(session.actions())
        first_or = next((n for n, key in enumerate(session.rounds())
                         if key.kind == "operating"), 0)
        positions = {"start": 0, "or": min(end, first_or + 3), "late": max(0, end - 20)}
        for width, height in SIZES:
            win = MainWindow(session, restore_layout=False)
            win.resize(width, height)
            win.show()
            for name, count in positions.items():
                session.redo(end)
                session.undo_to(count)
                for _ in range(20):
                    app.processEvents()
                target = args.out / f"{title}_{name}_{width}x{height}.png"
                win.grab().save(str(target))
                print(f"{target}: {len(session.actions())} of {end} actions")
            win.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
