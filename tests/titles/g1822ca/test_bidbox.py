"""Bid boxes, bids and end-of-SR resolution (RB 4.2, 4.11; supplement §9)."""

from __future__ import annotations

import pytest

from desk18xx.engine.actions import Bid, Pass
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import GameSetup
from desk18xx.titles.g1822ca.game import G1822CA

SEED = 337421161


def new_game(players: int = 4, title: str = "1822CA") -> G1822CA:
    ids = tuple((str(100 + i), f"P{i}") for i in range(players))
    return G1822CA(GameSetup(title, ids, SEED))


def test_first_boxes_follow_the_seeded_stacks() -> None:
    g = new_game()
    assert g.boxes.minors() == ["M6", "M22", "M21", "M28"]
    assert g.boxes.concessions() == ["C2", "C10", "C6"]
    assert g.boxes.privates() == ["P1", "P6", "P20"]


def test_bid_rules_minimum_steps_and_commitment() -> None:
    g = new_game()
    with pytest.raises(IllegalAction):
        g.process(Bid("100", company="M6", price=95))
    with pytest.raises(IllegalAction):
        g.process(Bid("100", company="M6", price=102))
    g.process(Bid("100", company="M6", price=500))
    assert g.boxes.committed_cash("100") == 500
    with pytest.raises(IllegalAction):
        g.process(Bid("100", company="M22", price=100))
    with pytest.raises(IllegalAction):
        g.process(Bid("100", company="M9", price=100))


def test_three_bids_end_the_turn() -> None:
    g = new_game()
    for company in ("P1", "P6", "P20"):
        g.process(Bid("100", company=company, price=0))
    assert g.round is not None
    assert g.round.current_entity(g) == "101"


def test_unbid_first_minor_closes_and_removes_a_train() -> None:
    g = new_game()
    g.process(Bid("100", company="M22", price=120))
    for pid in ("100", "101", "102", "103", "100"):
        g.process(Pass(pid))
    # M22 floated (phase 1: $50 price, $100 treasury); M6 had no bid: closed, train removed
    assert g.corps["22"].floated and g.cash["22"] == 100 and g.price("22") == 50
    assert g.cash["100"] == 525 - 120
    assert g.corps["6"].closed
    assert "M6" not in g.company_order
    # three unbid minors export L-trains (L-0..L-2), box 1 removes one more (L-3)
    assert g.upcoming() is not None and g.upcoming().id == "L-4"  # type: ignore[union-attr]


def test_winner_of_a_concession_pays_the_bank() -> None:
    g = new_game()
    g.process(Bid("100", company="C2", price=150))
    for pid in ("100", "101", "102", "103", "100"):
        g.process(Pass(pid))
    assert g.companies["C2"].owner == "100"
    assert g.cash["100"] == 525 - 150 + 10  # the concession pays $10 in the first OR


def test_hotseat_player_ids_do_not_clash_with_minor_ids() -> None:
    g = G1822CA(GameSetup("1822CA", (("0", "A"), ("1", "B"), ("2", "C")), SEED))
    assert g.cash["1"] == 0  # minor 1's treasury
    assert set(g.result()) == {"0", "1", "2"}
    g.process(Bid("0", company="C2", price=100))
    g.process(Pass("0"))
    g.process(Bid("1", company="C10", price=100))
    assert g.boxes.committed_cash("player:1") == 100


def test_nothing_bought_in_the_first_stock_round_ends_the_full_game_only() -> None:
    for title, ended in (("1822CA", True), ("1822CA-ERS", False)):
        g = new_game(4, title)
        for pid in ("100", "101", "102", "103"):
            g.process(Pass(pid))
        assert g.finished is ended
        if ended:
            assert g.end_reason == "dnf"


@pytest.mark.parametrize(("phase", "bid", "price", "treasury"), [
    (0, 130, 50, 100),   # phase 1: $50 and $100 whatever the bid
    (1, 150, 70, 140),   # phase 2: price = bid / 2 down to a start price, treasury 2 × price
    (2, 150, 70, 150),   # phase 3+: the whole bid
    (2, 260, 100, 260),  # capped at $100
])
def test_minor_start_price_and_treasury(phase: int, bid: int, price: int, treasury: int) -> None:
    from desk18xx.titles.g1822ca.bidbox import OpenBid

    g = new_game()
    g.phase_index = phase
    cash = g.cash["100"]
    g.boxes.float_minor(OpenBid("100", bid), "M22")
    assert g.price("22") == price and g.cash["22"] == treasury
    assert g.cash["100"] == cash - bid and g.shares["22_0"].owner == "100"
