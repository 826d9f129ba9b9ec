"""Points where the summary card and 18xx.games differ (issue 16): the card's rule by
default, 18xx.games' under ``compat_18xxgames``.  docs/rules-notes.md lists them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from conftest import make_game
from g1867_helpers import finish_auction, replay_prefix

from desk18xx.engine.actions import Bid, Pass, PlaceToken, action_from_dict
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.round import RoundKind
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles.g1867 import board as B
from desk18xx.titles.g1867.game import G1867
from desk18xx.titles.g1867.steps.merger import MergeStep
from desk18xx.titles.g1867.steps.stock import HomeToken, minor_start_cell

FIXTURE = (Path(__file__).resolve().parents[3].parent / "shared" / "fixtures" / "18xx.games"
           / "1867" / "21268.json")


def _game(compat: bool, *options: str) -> G1867:
    return make_game(3, *options, *(("compat_18xxgames",) if compat else ()))


# -- merge price: card "Price lowest + highest"; 18xx.games clamps to $100-$200 -----------
@pytest.mark.parametrize(("compat", "prices", "expected"), [
    (False, [135, 165], 300), (True, [135, 165], 200),
    (False, [35, 40], 70), (True, [35, 40], 100),
    (False, [60, 55], 110), (True, [60, 55], 110),
    (False, [100, 110], 200), (False, [120, 135], 245),
])
def test_merge_price(compat: bool, prices: list[int], expected: int) -> None:
    game = _game(compat)
    step = object.__new__(MergeStep)  # _merge_cell reads only the game
    assert game.market.cells[step._merge_cell(game, prices)].price == expected


def test_merge_price_on_the_grid_goes_on_along_the_200_row() -> None:
    game = _game(False, "grid_market")
    step = object.__new__(MergeStep)
    cell = game.market.cells[step._merge_cell(game, [165, 165])]
    top = game.market.cells[step._par_cell(game, 200)]
    assert cell.price == 330 and cell.row == top.row


# -- a minor's price: card "half the bid, rounded down to a market space" ----------------
@pytest.mark.parametrize(("compat", "grid", "bid", "expected"), [
    (False, False, 400, 200), (True, False, 400, 135), (False, False, 300, 150),
    (False, False, 230, 110), (True, False, 230, 110), (False, True, 400, 135),
])
def test_minor_start_price(compat: bool, grid: bool, bid: int, expected: int) -> None:
    game = _game(compat, *(("grid_market",) if grid else ()))
    assert minor_start_cell(game, bid).price == expected


@pytest.mark.parametrize(("compat", "expected"), [(False, 150), (True, 135)])
def test_a_300_minor_auction(compat: bool, expected: int) -> None:
    game = _game(compat)
    finish_auction(game)
    player = game.legal_actions().entity
    assert player is not None and game.cash[player] >= 300
    game.process(Bid(entity=player, corporation="BO", price=300))
    game.process(PlaceToken(entity="BO", entity_type="corporation", city="E15-3-0", slot=0))
    while not game.corps["BO"].floated:
        nxt = game.legal_actions().entity
        assert nxt is not None
        game.process(Pass(entity=nxt))
    assert game.price("BO") == expected
    assert game.cash["BO"] == 300


# -- the private auction after the price drops: the card does not say it reopens ---------
@pytest.mark.parametrize("compat", [False, True])
def test_after_the_drop_the_private_is_take_it_or_leave_it(compat: bool) -> None:
    game = _game(compat)
    for p in ("1", "2", "3"):
        game.process(Pass(entity=p))
    assert game.companies["C&SL"].min_bid == 15
    game.process(Bid(entity="1", company="C&SL", price=15))
    assert game.companies["C&SL"].owner == "1"
    assert game.cash["1"] == 420 - 15


@pytest.mark.parametrize("compat", [False, True])
def test_at_zero_the_opener_takes_it_free(compat: bool) -> None:
    game = _game(compat)
    while game.companies["C&SL"].owner is None:
        nxt = game.legal_actions().entity
        assert nxt is not None
        game.process(Pass(entity=nxt))
    assert game.companies["C&SL"].owner == "1"
    assert game.cash["1"] == 420


# -- a major's home: card "an unconnected city—or, if none, any unoccupied city" ---------
def _major(game: G1867) -> str:
    return next(c for c in game.corps if not game.is_minor(c) and c != "CN")


@pytest.mark.parametrize(("compat", "toronto"), [(False, True), (True, False)])
def test_toronto_free_city_is_a_major_home(compat: bool, toronto: bool) -> None:
    game = _game(compat)
    assert ("F16" in game.home_token_locations(_major(game))) is toronto


def test_a_major_home_must_be_an_unoccupied_city() -> None:
    game = _game(False)
    major = _major(game)
    game.pending_tokens.append((major, ("F16",)))
    assert game.round is not None
    step = HomeToken(game.round)
    with pytest.raises(IllegalAction, match="unoccupied"):
        step.process(game, PlaceToken(entity=major, entity_type="corporation",
                                      city="F16-0-0", slot=0))
    step.process(game, PlaceToken(entity=major, entity_type="corporation",
                                  city="F16-0-1", slot=0))
    assert game.board is not None and B.hex_slots(game.board, "F16")[1] == [major]


# -- the bank broken in a merger round: card "finish the round, plus one OR if it is an SR"
def _merger_round(compat: bool) -> G1867:
    game = replay_prefix("21268.json", 0)
    for raw in load_export(FIXTURE).actions:
        game.process(action_from_dict(raw))
        if game.round is not None and game.round.kind is RoundKind.MERGER:
            game.config = replace(game.config, compat_18xxgames=compat)
            return game
    raise AssertionError("no merger round in 21268.json")


@pytest.mark.parametrize(("compat", "ends"), [(False, True), (True, False)])
def test_bank_broken_in_a_merger_round(compat: bool, ends: bool) -> None:
    game = _merger_round(compat)
    game.bank_broken = True
    game.game_end_check()
    game.next_round()
    assert game.finished is ends
    if not ends:
        assert game.round is not None and game.round.kind is RoundKind.OPERATING
