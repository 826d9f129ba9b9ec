"""Rulebook points of issue 16 (docs/rules-notes.md, 1822CA table), both modes."""

from __future__ import annotations

import pytest

from desk18xx.engine.actions import DiscardTrain
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import GameSetup
from desk18xx.titles.g1822ca.game import G1822CA

SEED = 337421161


def _game(compat: bool, title: str = "1822CA") -> G1822CA:
    ids = tuple((str(100 + i), f"P{i}") for i in range(4))
    options = ("compat_18xxgames",) if compat else ()
    return G1822CA(GameSetup(title, ids, SEED, options))


def _float(game: G1822CA, corp: str, price: int) -> None:
    cells = {c.price: c.coord for c in game.market.cells.values()}
    game.market.place(corp, cells[price])
    game.corps[corp].ipoed = game.corps[corp].floated = True


def _crowd(game: G1822CA, corp: str) -> None:
    """Give ``corp`` five plain trains: over the phase-1 major limit of four."""
    for _ in range(5):
        tid = next(t for t in game.depot if game.train_base[t] in ("3", "4"))
        game.give_train(game.trains[tid], corp)


def _two_crowded(compat: bool) -> G1822CA:
    game = _game(compat)
    _float(game, "CNoR", 70)   # first in company order, the lower price
    _float(game, "GWR", 100)   # the higher price
    _crowd(game, "CNoR")
    _crowd(game, "GWR")
    assert game.crowded_corps() == ["CNoR", "GWR"]
    return game


def _discard(game: G1822CA, corp: str) -> None:
    train = game.corps[corp].trains[-1]
    game.process(DiscardTrain(entity=corp, entity_type="corporation", train=train))


def test_rulebook_discards_in_descending_share_price_order() -> None:
    """RB 2.1.5: several companies over the limit decide in descending share price order."""
    game = _two_crowded(compat=False)
    with pytest.raises(IllegalAction, match="waits for GWR"):
        _discard(game, "CNoR")
    _discard(game, "GWR")
    assert not game.crowded("GWR")
    _discard(game, "CNoR")
    assert game.crowded_corps() == []


def test_compat_any_crowded_company_discards_first() -> None:
    """18xx.games (``Step::DiscardTrain#actions``): every crowded company may discard, in any
    order (the one shown first is the first in company order)."""
    game = _two_crowded(compat=True)
    _discard(game, "GWR")   # the buyer in the recorded games, not first in company order
    assert game.crowded_corps() == ["CNoR"]
    _discard(game, "CNoR")
    assert game.crowded_corps() == []

