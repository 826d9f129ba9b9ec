"""1867 city ids on printed tiles: the ids 18xx.games gives them, in our moves and exports.

18xx.games names a printed tile ``"<hex>-<n>"``, ``n`` the hex's place in its
group of the title's hex list (``Game::Base#init_hexes``: ``Tile.from_code(...,
index: index)``; g_1867/map.rb ``%w[D8 F8 E13 E15 C17 I15 N12]`` gives ``E15-3``),
and a city ``"<tile id>-<part>"``.  desk18xx 0.1.0 wrote ``"<hex>-0-<part>"``:
18xx.games could not load such an export (issue 16).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from desk18xx.engine.actions import Pass, PlaceToken
from desk18xx.engine.digest import state_digest
from desk18xx.engine.game import GameSetup
from desk18xx.engine.log import RawAction
from desk18xx.io.savefile import SavedPlayer, SaveHeader
from desk18xx.io.study import IMPORT_OPTIONS
from desk18xx.io.transfer import export_document, export_text, save_from_export
from desk18xx.titles.g1867.game import G1867

FIXTURE = (Path(__file__).resolve().parents[3].parent / "shared" / "fixtures" / "18xx.games"
           / "1867" / "21268.json")

REFERENCE_PRINTED = {"D8": "D8-0", "F8": "F8-1", "E13": "E13-2", "E15": "E15-3",
                     "C17": "C17-4", "I15": "I15-5", "N12": "N12-6", "E17": "E17-0",
                     "D16": "D16-1", "O7": "O7-2", "G15": "G15-0", "J12": "J12-0",
                     "M9": "M9-0", "L12": "L12-0", "F16": "F16-0", "D2": "D2-0"}
"""g_1867/map.rb's groups: the index is the hex's place in its ``%w[...]`` list."""


def _game(seed: int = 5) -> tuple[SaveHeader, G1867]:
    players = (SavedPlayer("1", "P1"), SavedPlayer("2", "P2"), SavedPlayer("3", "P3"))
    header = SaveHeader("1867", players, seed, None, IMPORT_OPTIONS)
    return header, G1867(GameSetup("1867", tuple((p.id, p.name) for p in players), seed,
                                   IMPORT_OPTIONS))


def test_printed_tiles_carry_the_reference_ids() -> None:
    _header, game = _game()
    assert game.board is not None
    got = {h: game.board.hex(h).tile_id for h in REFERENCE_PRINTED}
    assert got == REFERENCE_PRINTED


def test_recorded_ids_of_printed_cities_are_ours() -> None:
    """Every city on a printed tile that a recorded game names is the id we give it."""
    _header, game = _game()
    assert game.board is not None
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))
    printed = {a["city"] for a in recorded["actions"]
               if a.get("type") == "place_token" and a["city"].split("-")[0] in game.board}
    assert len(printed) >= 10
    for city in printed:
        hex_id = city.split("-")[0]
        part = int(city.rpartition("-")[2])
        assert f"{game.board.hex(hex_id).tile_id}-{part}" == city


def _random_until_printed_token(seed: int) -> tuple[SaveHeader, list[RawAction], G1867]:
    header, game = _game(seed)
    assert game.board is not None
    rng = random.Random(seed)
    log: list[RawAction] = []
    seen = 0
    while len(log) < 400 and seen < 3:
        moves = game.legal_moves(rng)
        others = [m for m in moves if not isinstance(m, Pass)]
        move = rng.choice(others or moves)
        game.process(move)
        entry = move.to_dict()
        entry["id"] = len(log) + 1
        log.append(entry)
        if isinstance(move, PlaceToken) and move.city.split("-")[0] in game.board:
            seen += 1
    assert seen, "no token on a printed city in 400 random actions"
    return header, log, game


def test_random_tokens_on_printed_cities_use_reference_ids(tmp_path: Path) -> None:
    header, log, game = _random_until_printed_token(11)
    printed = [a["city"] for a in log if a["type"] == "place_token"
               and str(a["city"]).split("-")[0] in REFERENCE_PRINTED]
    assert printed
    for city in printed:
        hex_id, _, _ = str(city).partition("-")
        assert str(city).startswith(REFERENCE_PRINTED[hex_id] + "-"), city
    out = tmp_path / "g.json"
    out.write_text(export_text(header, log, game), encoding="utf-8")
    again = save_from_export(out)
    assert again.replayed.failure is None
    assert state_digest(again.replayed.game) == state_digest(game)


def test_export_rewrites_ids_of_old_saves(tmp_path: Path) -> None:
    """A 0.1.0 save names E15's city ``E15-0-0``: the export writes ``E15-3-0``, and
    the export reads back to the same state."""
    header, log, game = _random_until_printed_token(11)
    old: list[RawAction] = []
    for entry in log:
        entry = dict(entry)
        city = entry.get("city")
        if isinstance(city, str) and city.split("-")[0] in REFERENCE_PRINTED:
            hex_id = city.split("-")[0]
            entry["city"] = f"{hex_id}-0-{city.rpartition('-')[2]}"
        old.append(entry)
    assert any(o != n for o, n in zip(old, log, strict=True))
    document = export_document(header, old, game)
    assert [a.get("city") for a in document["actions"]] == [a.get("city") for a in log]
    out = tmp_path / "old.json"
    out.write_text(export_text(header, old, game), encoding="utf-8")
    again = save_from_export(out)
    assert again.replayed.failure is None
    assert state_digest(again.replayed.game) == state_digest(game)
