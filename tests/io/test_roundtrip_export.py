"""Export and import again: the 18xx.games export of a game reads back to the same state.

Every shared 18xx.games fixture, and 50 seeded random games per title (1867 split
between the column and the grid market), are written by our exporter
(`desk18xx.io.transfer.export_text`) and read back by our importer
(`save_from_export`); the state digest (`desk18xx.engine.digest.state_digest`)
must be the one of the game exported.  To keep the test near 30 s the random games
are cut short: each plays a different number of actions (a few dozen to ~700;
some 1867 games to their end), so openings, early operating rounds and, for some,
the middle game are covered;
whole random games are exported by the differential harness
(tools/differential/), which also replays them in 18xx.games.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from desk18xx.engine.actions import Pass
from desk18xx.engine.digest import state_digest
from desk18xx.engine.game import Game, GameSetup
from desk18xx.engine.log import RawAction
from desk18xx.io.savefile import SavedPlayer, SaveHeader
from desk18xx.io.study import IMPORT_OPTIONS
from desk18xx.io.transfer import export_text, save_from_export
from desk18xx.titles import find_title

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
GAMES_PER_TITLE = 50
SPECS = [("1867", ()), ("1867", ("grid_market",)), ("1822CA", ()), ("1822CA-ERS", ()),
         ("1822CA-WRS", ())]


def fixtures() -> list[Path]:
    found = sorted(FIXTURES.glob("*/*.json"))
    assert found, f"no 18xx.games fixtures under {FIXTURES}"
    return found


def round_trip(header: SaveHeader, actions: list[RawAction], game: Game, out: Path) -> str:
    """Export `game` (reached by `actions`) to `out`, import it again, return its digest."""
    out.write_text(export_text(header, actions, game), encoding="utf-8")
    again = save_from_export(out)
    assert again.replayed.failure is None
    assert [dict(a) for a in again.actions] == [dict(a) for a in actions]
    return state_digest(again.replayed.game)


@pytest.mark.parametrize("fixture", fixtures(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_fixture_reads_back_to_the_same_state(fixture: Path, tmp_path: Path) -> None:
    converted = save_from_export(fixture)
    game = converted.replayed.game
    recorded = json.loads(fixture.read_text(encoding="utf-8"))
    assert game.finished and game.result() == recorded["result"]
    digest = round_trip(converted.header, list(converted.actions), game, tmp_path / "x.json")
    assert digest == state_digest(game)


def random_game(title: str, options: tuple[str, ...], seed: int,
                actions: int) -> tuple[SaveHeader, list[RawAction], Game]:
    """A random legal game under the import rules, `actions` long (or to its end),
    logged as the app logs a move (`Action.to_dict` and an ``id``)."""
    rng = random.Random(seed)
    spec = find_title(title)
    players = rng.randint(spec.min_players, spec.max_players)
    opts = options + IMPORT_OPTIONS
    header = SaveHeader(title, tuple(SavedPlayer(str(i + 1), f"P{i + 1}")
                                     for i in range(players)), seed, None, opts)
    game = spec.new_game(GameSetup(title, tuple((p.id, p.name) for p in header.players),
                                   seed, opts))
    log: list[RawAction] = []
    while not game.finished and len(log) < actions:
        moves = game.legal_moves(rng)
        assert moves, f"{title} seed {seed}: no legal move after {len(log)} actions"
        others = [m for m in moves if not isinstance(m, Pass)]
        passes = [m for m in moves if isinstance(m, Pass)]
        move = rng.choice(others) if others and (not passes or rng.random() > 0.25) \
            else rng.choice(passes or moves)
        game.process(move)
        entry = move.to_dict()
        entry["id"] = len(log) + 1
        log.append(entry)
    return header, log, game


def lengths(spec: int, title: str) -> list[int]:
    """Actions per game: mostly short, every tenth game long (1867, cheaper to play:
    every fifth, up to a whole game)."""
    rng = random.Random(1000 + spec)
    every, longest = (5, 1600) if title == "1867" else (10, 700)
    return [rng.randint(400, longest) if i % every == every - 1 else rng.randint(15, 120)
            for i in range(GAMES_PER_TITLE)]


@pytest.mark.parametrize(("title", "options"), SPECS,
                         ids=["1867", "1867-grid", "1822CA", "1822CA-ERS", "1822CA-WRS"])
def test_random_games_read_back_to_the_same_state(title: str, options: tuple[str, ...],
                                                   tmp_path: Path) -> None:
    spec = SPECS.index((title, options))
    count = GAMES_PER_TITLE // 2 if title == "1867" else GAMES_PER_TITLE
    bad = []
    for i, actions in enumerate(lengths(spec, title)[:count]):
        seed = 20_000 + 100 * spec + i
        header, log, game = random_game(title, options, seed, actions)
        digest = round_trip(header, log, game, tmp_path / f"{seed}.json")
        if digest != state_digest(game):
            bad.append(f"seed {seed} ({len(log)} actions)")
    assert not bad, f"{title} {options}: export and import give another state: {bad}"
