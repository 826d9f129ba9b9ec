"""Private auction (card: "Private auction")."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from desk18xx.engine.actions import Bid, Pass
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.round import RoundKind
from desk18xx.titles.g1867.game import G1867


def bid(game: G1867, player: str, company: str, price: int) -> None:
    game.process(Bid(entity=player, company=company, price=price))


def test_first_private_is_opened_by_priority_and_bids_are_checked(
        new_game: Callable[..., G1867]) -> None:
    game = new_game(4)
    la = game.legal_actions()
    assert la.entity == "1" and la.details["company"] == "C&SL"
    assert la.details["min_bid"] == 20
    with pytest.raises(IllegalAction, match="minimum"):
        bid(game, "1", "C&SL", 15)
    with pytest.raises(IllegalAction, match="multiples"):
        bid(game, "1", "C&SL", 22)
    with pytest.raises(IllegalAction):
        bid(game, "2", "C&SL", 20)  # not player 2's turn


def test_winner_pays_and_the_next_private_opens_left_of_the_winner(
        new_game: Callable[..., G1867]) -> None:
    game = new_game(4)
    bid(game, "1", "C&SL", 20)
    game.process(Pass(entity="2"))
    bid(game, "3", "C&SL", 25)
    game.process(Pass(entity="4"))
    game.process(Pass(entity="1"))
    assert game.companies["C&SL"].owner == "3"
    assert game.cash["3"] == 315 - 25
    la = game.legal_actions()
    assert la.entity == "4" and la.details["company"] == "NFB"


def test_declined_private_drops_in_price_and_is_free_at_zero(
        new_game: Callable[..., G1867]) -> None:
    game = new_game(3)
    for p in ("1", "2", "3"):
        game.process(Pass(entity=p))
    assert game.companies["C&SL"].min_bid == 15
    # dutch mode: a pass leaves the price level; a full round lowers it again
    for _ in range(3):
        for p in ("1", "2", "3"):
            game.process(Pass(entity=p))
    assert game.companies["C&SL"].owner == "1"  # $0: the first player takes it free
    assert game.cash["1"] == 420


def test_auction_ends_and_priority_goes_left_of_the_last_winner(
        new_game: Callable[..., G1867]) -> None:
    game = new_game(3)
    order = [("C&SL", 20), ("NFB", 30), ("MB", 40), ("QB", 50), ("SCT", 60)]
    for company, price in order:
        player = game.legal_actions().entity
        assert player is not None
        bid(game, player, company, price)
        while game.companies[company].owner is None:
            nxt = game.legal_actions().entity
            assert nxt is not None
            game.process(Pass(entity=nxt))
    assert game.round is not None and game.round.kind is RoundKind.STOCK
    last = game.companies["SCT"].owner
    ids = [p.id for p in game.players]
    assert ids[0] == str(int(last or "0") % 3 + 1)
