"""kill -9 while actions come every 20-50 ms: the autosave holds all but at most 1 s of them.

A child process runs the real autosave (`desk18xx.ui.files.FileActions` with an
`AutosaveSession`, its deadline timer and its writer thread) and plays a random
legal action every 20 to 50 ms, printing the action count and the time after
each. The test kills it with SIGKILL at a random moment, opens the autosave it
left and measures how long before the kill the first action it lacks was
played. Over 20 kills that is never more than a second.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from desk18xx.io.replaying import open_save

pytestmark = [pytest.mark.gui, pytest.mark.slow]

KILLS = 20
MAX_LOST_S = 1.0

CHILD = """
import random, sys, time
from pathlib import Path
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication([])
from desk18xx.engine.game import GameSetup
from desk18xx.io.autosave import AutosaveSession
from desk18xx.ui.files import FileActions
from desk18xx.ui.session import GameSession
folder, seed = Path(sys.argv[1]), int(sys.argv[2])
session = GameSession()
window = QMainWindow()
files = FileActions(session, window, data=folder)
session.new_game(GameSetup("1867", (("1", "Ann"), ("2", "Bob"), ("3", "Cy")), seed=seed))
files.set_autosave(AutosaveSession(folder / "autosave"))
assert files.autosave_session is not None and files.autosave_session.flush(10)
rng = random.Random(seed)

def step():
    moves = session.game.legal_moves(rng)
    if session.game.finished or not moves:
        print("END", flush=True)
        return
    assert session.submit(moves[0] if len(moves) == 1 else rng.choice(moves))
    print(len(session.actions()), time.monotonic(), flush=True)
    QTimer.singleShot(rng.randint(20, 50), step)

print("READY", time.monotonic(), flush=True)
QTimer.singleShot(0, step)
app.exec()
"""


def _one_kill(folder: Path, seed: int, after: float) -> tuple[int, int, float]:
    """Play in a child, SIGKILL it `after` seconds into the play.

    Returns:
        (actions played, actions in the autosave, seconds between the first
        action missing from the autosave and the kill; 0.0 when none is missing).
    """
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    folder.mkdir(parents=True)
    errors = (folder / "stderr.txt").open("w")
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(folder), str(seed)], env=env,
                             stdout=subprocess.PIPE, stderr=errors, text=True)
    assert child.stdout is not None
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.append(line)
            if line.startswith("READY"):
                ready.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        start = time.monotonic()
        while not ready.wait(0.1):
            assert child.poll() is None and time.monotonic() - start < 120, \
                "the child did not start: " + (folder / "stderr.txt").read_text()
        time.sleep(after)
        killed_at = time.monotonic()
        child.send_signal(signal.SIGKILL)
    finally:
        child.kill()
        child.wait(10)
    reader.join(10)
    errors.close()
    played = {int(n): float(t) for n, t in (line.split() for line in lines  # whole lines only:
                                           if line[0].isdigit() and line.endswith("\n")
                                           and len(line.split()) == 2)}  # a kill cuts one
    assert "END\n" not in lines, "the game ended before the kill: play a longer title"
    saves = list((folder / "autosave").glob("*.yaml"))
    assert len(saves) == 1, saves
    saved = open_save(saves[0]).replayed.applied
    count = max(played, default=0)
    assert saved <= count
    lost = killed_at - played[saved + 1] if saved < count else 0.0
    return count, saved, lost


def test_a_kill_loses_at_most_a_second_of_actions(tmp_path: Path) -> None:
    if not hasattr(signal, "SIGKILL"):
        pytest.fail("this test needs SIGKILL")
    rng = random.Random(14)
    results: list[tuple[int, int, float]] = []
    for kill in range(KILLS):
        results.append(_one_kill(tmp_path / f"kill{kill}", 100 + kill, rng.uniform(0.3, 1.5)))
    lines = [f"kill {i:2}: played {played:3}, autosaved {saved:3}, lost {played - saved} "
             f"actions, first lost {lost * 1000:4.0f} ms before the kill"
             for i, (played, saved, lost) in enumerate(results)]
    worst = max(lost for _p, _s, lost in results)
    summary = (f"{KILLS} kills: {sum(p - s for p, s, _l in results)} actions lost in all, "
               f"at most {max(p - s for p, s, _l in results)} per kill; the oldest lost "
               f"action was {worst * 1000:.0f} ms old (limit {MAX_LOST_S * 1000:.0f} ms)")
    print("\n".join([*lines, summary]))
    assert all(played > 5 for played, _s, _l in results)  # actions really came in bursts
    assert worst <= MAX_LOST_S, summary
