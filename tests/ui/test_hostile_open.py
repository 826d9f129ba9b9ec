"""No file crashes or hangs the app: the hostile corpus through every Open path (pytest-qt).

Every file of tests/io/hostile_corpus.py goes through the window's Open
(`MainWindow.open_path`), Open e-mail move (`FileActions.open_email_move`) and
Import from 18xx.games (`FileActions.import_export`), each call under a time
limit. A bad file must be refused with one dialog that names the file and the
place in it, and nothing may open half-way: the game on screen stays the same
object with the same actions. A save that this version's rules stop at an
action may instead be offered at its last legal action (the question names the
action); here the user declines. The signed e-mail moves (group ``pbem``) reach Ann,
whose data folder (her key, her copy, the keys she pinned) is generated with them:
through Open e-mail move each is refused naming the action and the player, except the
good one (opened from a copy of her folder); through Open they are ordinary saves. A
save whose actions are all legal but reach
another position than recorded opens with a note (`NOTED`); an e-mail move is
read without its study section (only its ``actions`` are used). The good
controls must open. Counted as in
tests/io/test_hostile_files.py: tracebacks, hangs, files changed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "io"))

from hostile_corpus import CALL_LIMIT_S, Hang, build_corpus, fingerprint, time_limit  # noqa: E402

from desk18xx.engine.game import GameSetup  # noqa: E402
from desk18xx.ui.session import GameSession  # noqa: E402

pytestmark = [pytest.mark.gui, pytest.mark.slow,
              pytest.mark.qt_log_ignore("propagateSizeHints")]

PATHS = ("open", "email", "import")
MUST_OPEN = {("good.d18xx", "open"), ("good-study.d18xx", "open"), ("good.json", "open"),
             ("good.json", "import"), ("good.d18xx", "email"), ("pbem-good.d18xx", "email")}
"""The control opens that must succeed; every other open must be refused."""

NOTED = {("rechain-price.d18xx", "open")}
"""Opens allowed with a note in the status bar: every action is legal but the position
differs from the recorded one (re-chained after an edit, or saved under other rules:
the window opens it and says so; ``verify`` refuses it)."""

PLACE = re.compile(r"(\(file\)|\(top level\)|line \d+ column \d+|actions?\[\d+\]|action \d+|"
                   r"[A-Za-z_][\w.\[\]-]*): \S")


@pytest.mark.timeout(1800, method="thread")
def test_no_file_crashes_hangs_or_half_opens_the_app(
        qtbot: Any, show_window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dialogs: list[tuple[str, str]] = []

    def warning(_parent: Any, title: str, text: str, *_a: Any, **_k: Any) -> Any:
        dialogs.append(("warning", f"{title}: {text}"))
        return QMessageBox.StandardButton.Ok

    def question(_parent: Any, title: str, text: str, *_a: Any, **_k: Any) -> Any:
        dialogs.append(("question", f"{title}: {text}"))
        return QMessageBox.StandardButton.Cancel  # do not open a stopped save

    monkeypatch.setattr(QMessageBox, "warning", staticmethod(warning))
    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    folder, out = tmp_path / "corpus", tmp_path / "out"
    out.mkdir()
    cases = build_corpus(folder)
    before = fingerprint(folder)
    session = GameSession()
    session.new_game(GameSetup("1867", (("1", "Ann"), ("2", "Bob"), ("3", "Cy")), seed=9))
    window = show_window(session)
    files = window.files
    own_data = files.data
    counts: Counter[str] = Counter()
    problems: list[str] = []
    for case in cases:
        for how in PATHS:
            game, actions, source = session.game, len(session.actions()), session.source
            dialogs.clear()
            target = out / f"{case.name}.d18xx"
            files.data = own_data
            if how == "email" and case.receiver is not None:
                files.data = case.receiver
                if case.valid:  # accepting writes Ann's copy: use a copy of her folder
                    files.data = tmp_path / f"accept-{case.name}"
                    shutil.copytree(case.receiver, files.data, dirs_exist_ok=True)
            try:
                with time_limit(CALL_LIMIT_S):
                    if how == "open":
                        opened = window.open_path(str(case.path))
                    elif how == "email":
                        opened = files.open_email_move(str(case.path), confirm=False) \
                            is not None
                    else:
                        opened = files.import_export(str(case.path), str(target))
            except Hang:
                counts["hangs"] += 1
                problems.append(f"{case.name} {how}: no answer in {CALL_LIMIT_S} s")
                continue
            except Exception as error:  # noqa: BLE001 - counted: a crash of the app
                counts["tracebacks"] += 1
                problems.append(f"{case.name} {how}: {type(error).__name__}: {error!s:.200}")
                continue
            counts["runs"] += 1
            if opened:
                counts["opened"] += 1
                note = window.statusBar().currentMessage()
                if (case.name, how) in NOTED and "another position" in note:
                    counts["opened with a note"] += 1
                elif how == "email" and case.group in ("study", "control"):
                    counts["e-mail moves read without their study section"] += 1
                elif how == "open" and case.group == "pbem":
                    counts["signed e-mail moves opened as saves"] += 1
                elif (case.name, how) not in MUST_OPEN:
                    problems.append(f"{case.name} {how}: opened a bad file ({dialogs}, {note})")
                continue
            counts["refused"] += 1
            if (case.name, how) in MUST_OPEN:
                problems.append(f"{case.name} {how}: refused a good file: {dialogs}")
            if len(dialogs) != 1:
                problems.append(f"{case.name} {how}: {len(dialogs)} dialogs: {dialogs}")
            elif case.name not in dialogs[0][1] or not PLACE.search(dialogs[0][1]):
                counts["unlocated"] += 1
                problems.append(f"{case.name} {how}: the dialog names no place: {dialogs[0]}")
            if dialogs and dialogs[0][0] == "question":
                counts["offered at the last legal action"] += 1
            if how == "email" and case.group == "pbem":
                counts["e-mail moves refused"] += 1
                if dialogs and not re.search(r"action \d+ \(.+\)|signatures|seal of \w+",
                                             dialogs[0][1]):
                    problems.append(f"{case.name} email: the refusal names no action: "
                                    f"{dialogs[0]}")
            if session.game is not game or len(session.actions()) != actions \
                    or session.source != source:
                counts["half-open"] += 1
                problems.append(f"{case.name} {how}: refused, but the game on screen changed")
            if how == "import" and target.exists():
                problems.append(f"{case.name} import: refused, but wrote {target.name}")
    after = fingerprint(folder)
    changed = sorted(name for name in before.keys() | after.keys()
                     if before.get(name) != after.get(name))
    summary = (f"{len(cases)} files, {counts['runs']} opens: {counts['refused']} refused "
               f"({counts['offered at the last legal action']} of them offered at the last "
               f"legal action), {counts['opened']} opened ({counts['opened with a note']} "
               "with a note that the position differs, "
               f"{counts['e-mail moves read without their study section']} e-mail moves read "
               f"without their study section, {counts['signed e-mail moves opened as saves']} "
               f"signed e-mail moves opened as saves), {counts['e-mail moves refused']} hostile "
               f"e-mail moves refused; tracebacks {counts['tracebacks']}, "
               f"hangs {counts['hangs']}, half-open {counts['half-open']}, dialogs without a "
               f"place {counts['unlocated']}, files changed {len(changed)}")
    print(summary, file=sys.stderr)
    assert not changed, changed
    assert not problems, "\n".join([summary, *problems])


def test_a_huge_player_name_cannot_hang_the_screenshot(tmp_path: Path) -> None:
    """``desk18xx SAVE --screenshot`` with a 2 MB player name: refused at once with the place."""
    folder = tmp_path / "corpus"
    case = next(c for c in build_corpus(folder) if c.name == "name-2mb.d18xx")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", DESK18XX_DATA=str(tmp_path / "data"))
    done = subprocess.run([sys.executable, "-m", "desk18xx", str(case.path), "--screenshot",
                           str(tmp_path / "shot.png")], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 4, done
    assert "setup.players[0].name is a string of 2097152 characters" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "shot.png").exists()
