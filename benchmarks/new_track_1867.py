"""Time 1867's new-track check on every candidate lay of a late position.

Run: ``.venv/bin/python benchmarks/new_track_1867.py [--repeat N]``.  Replays
``21268.json`` up to three of its last tile lays and, for the company about to
lay, asks ``titles.g1867.board.gives_new_track`` about every tile and rotation that passes
the other lay rules on every hex its network reaches (what the map view asks
when it lists buildable hexes and their tiles).  Prints per position the
candidate count and the best CPU time of all the checks, in total and per hex
(the answers kept per board state are dropped before each run).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from desk18xx.engine.actions import action_from_dict
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import GameSetup
from desk18xx.engine.map.board import Board
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title
from desk18xx.titles.g1867 import board as B
from desk18xx.titles.g1867.steps.track import Track

FIXTURE = (Path(__file__).resolve().parents[1].parent / "shared" / "fixtures" / "18xx.games"
           / "1867" / "21268.json")


def bench(back: int, repeat: int) -> dict[str, object]:
    """Best-of-``repeat`` time of the checks before the ``back``-th last lay."""
    imported = load_export(FIXTURE)
    setup = GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                      imported.seed, tuple(imported.optional_rules) + ("compat_18xxgames",))
    actions = [action_from_dict(raw) for raw in imported.actions]
    cut = [i for i, a in enumerate(actions) if a.type == "lay_tile"][-back]
    game = find_title(imported.title).new_game(setup)
    for action in actions[:cut]:
        game.process(action)
    step = game.round.active_step(game) if game.round else None
    board = game.board
    assert isinstance(step, Track) and isinstance(board, Board)
    entity = actions[cut].entity
    edges = step.connected_edges(game, entity)
    hexes = step.details(game, entity)["hexes"]
    lays = []
    for hex_id in hexes:
        for name, entry in board.manifest.items():
            copy = B.free_copy(board, name)
            if copy is None:
                continue
            for rotation in range(6):
                try:
                    step.check_lay(game, entity, hex_id, copy, rotation, edges=edges,
                                   new_track=False)
                except IllegalAction:
                    continue
                lays.append((hex_id, entry.tile, copy, rotation))
    best = float("inf")
    for _ in range(repeat):
        B._NEW_TRACK.clear()
        cpu = time.process_time()
        answers = [B.gives_new_track(board, entity, h, t, c, r) for h, t, c, r in lays]
        best = min(best, time.process_time() - cpu)
    return {"lay": f"-{back}", "company": entity, "hexes": len(hexes), "candidates": len(lays),
            "new_track": sum(answers), "cpu_ms": round(best * 1000, 1),
            "cpu_ms_per_hex": round(best * 1000 / max(1, len(hexes)), 2)}


def main() -> None:
    """Benchmark three late positions."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for back in (3, 10, 20):
        print(json.dumps(bench(back, args.repeat)))


if __name__ == "__main__":
    main()
