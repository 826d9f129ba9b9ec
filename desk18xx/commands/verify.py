"""``desk18xx verify SAVE``: check a save file completely; exit 0 only if it is intact.

Intact means: readable, valid schema and version, the hash chain holds, every
action is legal when replayed through the engine, and the replay reaches the
state digest recorded in the file. One line is printed either way; a failure
names the place (``actions[41]``) and the reason.

`replay_save` is what ``desk18xx replay`` runs for a save file instead of an
18xx.games export.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Command-line options."""
    parser.add_argument("file", help="a desk18xx save (.yaml)")


def run(args: argparse.Namespace) -> int:
    """Verify and report; 0 intact, 1 refused.

    Checks what the app checks when it opens the file: the file itself, the
    schema, the hash chain, every action, the state digest and the ``study``
    section (the variation tree of a study file or an autosave).
    """
    from desk18xx.io.replaying import open_save
    from desk18xx.io.savefile import SaveFormatError
    from desk18xx.io.study import study_of

    start = time.perf_counter()
    from desk18xx.io.pbem import PbemError, check_file_signatures

    try:
        opened = open_save(args.file)
        study_of(opened.saved, args.file, check_line=True)
        if opened.saved.signatures is not None:  # a signed e-mail move, on its own
            check_file_signatures(args.file)
    except (SaveFormatError, PbemError) as error:
        print(f"desk18xx verify: REFUSED {error}", file=sys.stderr)
        return 1
    saved, game = opened.saved, opened.game
    state = f"finished ({game.end_reason})" if game.finished else "in progress"
    print(f"{args.file}: OK: {saved.header.title}, {len(saved.header.players)} players, "
          f"{len(saved.actions)} actions ({opened.replayed.applied} live), game {state}, "
          f"state digest {saved.state_digest[:12]} reached "
          f"({time.perf_counter() - start:.2f} s)")
    return 0


def replay_save(args: argparse.Namespace) -> int:
    """``desk18xx replay SAVE [--check]``: the replay's JSON line for a save file.

    With ``--check`` the exit status is 0 only when the file is intact and the
    replay reaches its recorded state digest (as ``verify``).
    """
    from desk18xx.io.replaying import IllegalSaveError, open_save
    from desk18xx.io.savefile import SaveFormatError
    from desk18xx.io.study import study_of

    try:  # what the app opens: a save our rules stop at opens up to that action
        opened = open_save(args.file, partial=True)
        study_of(opened.saved, args.file, check_line=True)
    except SaveFormatError as error:
        print(f"desk18xx replay: {error}", file=sys.stderr)
        return 1
    saved, replayed, game = opened.saved, opened.replayed, opened.game
    out: dict[str, Any] = {
        "title": saved.header.title,
        "actions": replayed.applied,
        "finished": game.finished,
        "end_reason": game.end_reason,
        "players": [{"id": int(p.id) if p.id.isdigit() else p.id, "name": p.name}
                    for p in saved.header.players],
        "result": game.result(),
    }
    problem: SaveFormatError | None = None
    failure = replayed.failure
    if failure is not None:
        out["failure"] = {"index": failure.index, "id": failure.id, "type": failure.type,
                          "entity": failure.entity, "reason": failure.reason}
        problem = IllegalSaveError(args.file, f"actions[{failure.index}]", failure.describe(),
                                   failure.index)
    elif not opened.digest_checked:
        try:  # the verdict of ``verify`` (a legacy digest passes, another position not)
            open_save(args.file)
        except SaveFormatError as error:
            out["difference"] = {"expected_state_digest": saved.state_digest,
                                 "reason": error.problem}
            problem = error
    print(json.dumps(out))
    if args.check and problem is not None:
        print(str(problem), file=sys.stderr)
        return 1
    return 0
