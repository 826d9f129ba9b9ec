"""The early-exit questions "on which hexes may this company lay a tile now" and
"which tiles may it lay somewhere" (`Game.lay_hexes`, `Game.lay_tiles`; issue 18)
answer what the offers say: at many positions of the 18xx.games fixtures and of
random games of 1822CA and 1867, for everyone who may act,
``game.lay_hexes(e) == {o.hex for o in offers if o.allowed and o.tiles}`` and
``game.lay_tiles(e)`` is the union of those offers' tiles (`Game.lay_choices`:
both at once)
(`desk18xx.engine.offers.lay_hexes_of`, `lay_tiles_of` of
``game.offers(e, ("lay_tile",))``)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from desk18xx.commands.playout import draw_moves
from desk18xx.commands.replay import import_setup
from desk18xx.engine.actions import STATE_NEUTRAL, LayTile, action_from_dict
from desk18xx.engine.game import Game, GameSetup
from desk18xx.engine.offers import lay_hexes_of, lay_tiles_of
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
FILES = sorted(FIXTURES.glob("1822CA*/*.json")) + sorted(FIXTURES.glob("1867*/*.json"))
LAY_STRIDE = 3
"""Every how many positions with a lay open the two answers are compared."""
_SKIP = STATE_NEUTRAL | {"undo", "redo", "end_game"}


class Tally:
    def __init__(self) -> None:
        self.positions = self.hexes = 0


def _agree(game: Game, where: str, tally: Tally) -> None:
    for entity in game.acting_entities():
        offers = game.offers(entity, (LayTile.type,))
        for query, of in ((game.lay_hexes, lay_hexes_of), (game.lay_tiles, lay_tiles_of)):
            got, want = query(entity), of(offers)
            assert got == want, (f"{where}: {entity}: {query.__name__} says {sorted(got)}, "
                                 f"the offers {sorted(want)} (only query "
                                 f"{sorted(got - want)}, only offers {sorted(want - got)})")
        both = (lay_hexes_of(offers), lay_tiles_of(offers))
        assert game.lay_choices(entity) == both, f"{where}: {entity}: lay_choices"
        tally.positions += 1
        tally.hexes += len(lay_hexes_of(offers))


def _lay_open(game: Game) -> bool:
    """True when the entity the round waits for may lay a tile (the privates acting
    for it are asked too, at such positions)."""
    return LayTile.type in game.legal_actions().types


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fixture_lay_hexes_are_the_offers_hexes(path: Path) -> None:
    imported = load_export(path)
    game = find_title(imported.title).new_game(import_setup(imported))
    alias = getattr(game, "_alias", lambda a: a)
    tally = Tally()
    seen = 0
    for index, raw in enumerate(imported.actions):
        action = alias(action_from_dict(raw))
        if not game.finished and action.type not in _SKIP and _lay_open(game):
            seen += 1
            if seen % LAY_STRIDE == 0:
                _agree(game, f"{path.name}[{index}]", tally)
        game.process(action)
    assert tally.positions > 10 and tally.hexes > 20, vars(tally)


@pytest.mark.parametrize(("title_id", "seed", "options"), [
    ("1822CA", 1522, ()), ("1822CA", 1523, ("compat_18xxgames",)),
    ("1822CA-ERS", 1524, ()), ("1867", 15, ()), ("1867", 17, ("compat_18xxgames",))])
def test_random_game_lay_hexes_are_the_offers_hexes(title_id: str, seed: int,
                                                    options: tuple[str, ...]) -> None:
    title = find_title(title_id)
    rng = random.Random(seed)
    players = tuple((str(i + 1), f"Player {i + 1}") for i in range(4))
    game = title.new_game(GameSetup(title.id, players, seed, options))
    tally = Tally()
    for index in range(500):
        if game.finished:
            break
        if _lay_open(game):
            _agree(game, f"{title_id} random {seed}[{index}]", tally)
        moves = draw_moves(game, rng)
        assert moves, f"{title_id} random {seed}[{index}]: no move"
        game.process(rng.choice(moves))
    assert tally.positions > 20 and tally.hexes > 40, vars(tally)
