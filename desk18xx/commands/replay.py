"""``desk18xx replay FILE [--check]``: replay an 18xx.games export and print one JSON line.

Every declared route is validated and its revenue recomputed (a stored
revenue that differs from ours is a failure).  With ``--check`` the exit
status is 0 only when the final result and end reason equal the recorded ones.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from typing import Any

from desk18xx.engine.actions import Action, action_from_dict
from desk18xx.engine.game import Game, GameSetup
from desk18xx.io.replaying import ENGINE_ERRORS


@dataclass
class ReplayOutcome:
    """What a replay reached."""

    game: Game | None
    applied: int
    failure: dict[str, Any] | None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Command-line options."""
    parser.add_argument("file", help="an 18xx.games export (.json) or a desk18xx save (.yaml)")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 unless the recorded result and end reason are reached")


def import_setup(imported: Any) -> GameSetup:
    """The setup of an imported game; it plays by 18xx.games' rules (``compat_18xxgames``)."""
    return GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                     imported.seed, tuple(imported.optional_rules) + ("compat_18xxgames",))


def replay_export(path: str) -> tuple[Any, ReplayOutcome]:
    """Load ``path`` and replay it; never raises for a rules failure."""
    from desk18xx.io.import_18xxgames import load_export
    from desk18xx.titles import find_title

    imported = load_export(path)
    title = find_title(imported.title)
    setup = import_setup(imported)
    game = title.new_game(setup)
    applied = 0
    for index, raw in enumerate(imported.actions):
        try:
            action: Action = action_from_dict(raw)
            game.process(action)
        except ENGINE_ERRORS as exc:
            return imported, ReplayOutcome(game, applied, {
                "index": index, "id": raw.get("id"), "type": str(raw.get("type")),
                "entity": str(raw.get("entity")), "reason": f"{type(exc).__name__}: {exc}"})
        applied += 1
    return imported, ReplayOutcome(game, applied, None)


def refuse(command: str, source: str, problem: str) -> int:
    """Print a refusal of the whole file (``desk18xx replay: FILE: (file): …``); 1."""
    print(f"desk18xx {command}: {source}: (file): {problem}", file=sys.stderr)
    return 1


def run(args: argparse.Namespace) -> int:
    """Replay and report.

    ``actions`` counts the live rules actions applied (after undo/redo filtering,
    chat excluded); ``messages`` the chat lines; ``file_actions`` every entry of
    the file's action array.
    """
    from desk18xx.io.filereader import FileKind, FileRefused, kind_of
    from desk18xx.io.import_18xxgames import ExportFormatError

    try:
        kind = kind_of(args.file)  # the detection the app uses
    except FileRefused as error:
        return refuse("replay", args.file, error.problem)
    if kind is not FileKind.EXPORT:  # a desk18xx save (YAML), or says why it is not one
        from desk18xx.commands.verify import replay_save

        return replay_save(args)
    try:
        imported, outcome = replay_export(args.file)
    except ExportFormatError as error:
        print(f"desk18xx replay: {error}", file=sys.stderr)
        return 1
    except KeyError as error:  # a title whose rules this build lacks
        return refuse("replay", args.file, f"its title cannot be played here ({error})")
    game = outcome.game
    result = {} if game is None else {k: v for k, v in game.result().items()}
    out: dict[str, Any] = {
        "title": imported.title,
        "actions": outcome.applied,
        "messages": len(imported.messages),
        "file_actions": imported.raw_action_count,
        "finished": bool(game and game.finished),
        "end_reason": None if game is None else game.end_reason,
        "players": [{"id": int(p.id) if p.id.isdigit() else p.id, "name": p.name}
                    for p in imported.players],
        "result": result,
    }
    if outcome.failure:
        out["failure"] = outcome.failure
    ok = outcome.failure is None
    if args.check and ok:
        expected = {str(k): v for k, v in (imported.result or {}).items()}
        if result != expected or out["end_reason"] != imported.game_end_reason:
            ok = False
            out["difference"] = {"expected_result": expected,
                                 "expected_end_reason": imported.game_end_reason}
    print(json.dumps(out))
    if args.check and not ok:
        if outcome.failure:
            f = outcome.failure
            print(f"{args.file}: action id {f['id']}: first failing action: index "
                  f"{f['index']} (id {f['id']}) {f['type']} by {f['entity']}: {f['reason']}",
                  file=sys.stderr)
        else:
            print(f"{args.file}: result: final difference: {out.get('difference')}",
                  file=sys.stderr)
        return 1
    return 0
