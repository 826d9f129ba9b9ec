"""Write the old-save corpus (tests/io/old_saves/) with the desk18xx it runs from.

Run it from a checkout of the release whose files the corpus should hold, e.g.
``git worktree add /tmp/rel REV && PYTHONPATH=/tmp/rel python tools/make_old_saves.py OUT``
(this file may be copied there; it uses only long-standing public functions).
It writes, for both titles and the scenarios: finished games imported from the
fixtures, the same games cut mid-way, a study file with a branch, names and
notes, and a 1867 game with a programmed order.  ``tests/io/test_old_saves.py``
then records, with the current build, the position each opens to.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import desk18xx
from desk18xx.engine.actions import Pass, ProgramSharePass, action_from_dict
from desk18xx.engine.programs import run_programs
from desk18xx.engine.round import RoundKind
from desk18xx.engine.study import Study
from desk18xx.io.replaying import digest_of, new_game
from desk18xx.io.savefile import SavedPlayer, SaveHeader, save_game
from desk18xx.io.study import game_setup, save_study
from desk18xx.io.transfer import save_from_export

FIXTURES = Path(__file__).resolve().parents[1].parent / "shared" / "fixtures" / "18xx.games"
GAMES = {
    "1867": FIXTURES / "1867" / "21268.json",
    "1867-small": FIXTURES / "1867" / "hs_ahjzadkh_19792.json",
    "1822CA": FIXTURES / "1822CA" / "1822CA_game_end_bank.json",
    "1822CA-small": FIXTURES / "1822CA" / "1.json",
    "1822CA-ERS": FIXTURES / "1822CAERS" / "1822CAERS_game_end_bank.json",
    "1822CA-WRS": FIXTURES / "1822CAWRS" / "1822CAWRS_game_end_bank.json",
}


def _cut(header: SaveHeader, actions: list[dict[str, Any]], out: Path) -> None:
    """Save the first live actions of a game, about two fifths of it."""
    game = new_game(header)
    kept: list[dict[str, Any]] = []
    stop = len(actions) * 2 // 5
    for entry in actions:
        if len(kept) >= stop and entry.get("type") not in ("undo", "redo"):
            break
        kept.append(entry)
    from desk18xx.engine.log import filter_log

    for live in filter_log(kept).actions:
        game.process(action_from_dict(live))
    save_game(out, header, kept, digest_of(game))


def _study(header: SaveHeader, actions: list[dict[str, Any]], out: Path) -> None:
    """A study: 60 actions of the game, then a branch of another move at action 50."""
    setup = game_setup(header)
    study = Study(setup, factory=lambda s: new_game(header))
    from desk18xx.engine.log import filter_log

    live = filter_log(actions).actions
    for entry in live[:60]:
        study.play(entry)
    for _ in range(10):
        study.undo()
    rng = random.Random(3)
    node = None
    for _ in range(6):
        moves = study.game.legal_moves(rng)
        if not moves:
            break
        node = study.play(rng.choice(moves).to_dict())
    tree = study.tree
    if node is not None:
        for name, method in (("name", "set_name"), ("note", "set_note")):
            if hasattr(tree, method):
                getattr(tree, method)(node, f"my {name} for this line")
        if hasattr(tree, "set_marks"):
            tree.set_marks(node, ["interesting"])
    save_study(out, header, tree, digest_of(study.game_at(tree.main_line()[-1])),
               notes={header.players[0].id: "plan: buy the 5"})


def _programmed(out: Path) -> None:
    """1867 to the end of the first stock round, the third player on auto-pass."""
    header = SaveHeader("1867", (SavedPlayer("1", "Ann"), SavedPlayer("2", "Bob"),
                                 SavedPlayer("3", "Cy")), seed=5)
    rng = random.Random(1)
    game = new_game(header)
    raw: list[dict[str, Any]] = []

    def act(action: Any) -> None:
        done = run_programs(game, action)
        entry = done.to_dict()
        entry["id"] = len(raw) + 1
        raw.append(entry)

    while game.round is not None and game.round.kind is not RoundKind.STOCK:
        act(rng.choice(game.legal_moves(rng)))
    act(ProgramSharePass("3", unconditional=True))
    while game.round is not None and game.round.kind is RoundKind.STOCK:
        if game.round.current_entity(game) == "3":
            act(Pass("3"))
        else:
            act(rng.choice(game.legal_moves(rng)))
    save_game(out, header, raw, digest_of(game))


def main() -> int:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    version = desk18xx.__version__
    for name, path in GAMES.items():
        converted = save_from_export(path)
        save_game(out / f"{name}-finished.d18xx", converted.header, list(converted.actions),
                  digest_of(converted.replayed.game))
        _cut(converted.header, list(converted.actions), out / f"{name}-midgame.d18xx")
        if name in ("1867-small", "1822CA-small"):
            _study(converted.header, list(converted.actions), out / f"{name}-study.d18xx")
    _programmed(out / "1867-programmed.d18xx")
    print(f"written with desk18xx {version}: {len(list(out.glob('*.d18xx')))} files")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
