"""Stock rounds (card: "SR Buy/sell shares", "SR Minors", "SR Majors", "Column market")."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from g1867_helpers import finish_auction, give_major, pool_percent, start_minor

from desk18xx.engine.actions import Bid, BuyShares, Par, Pass, SellShares
from desk18xx.engine.errors import IllegalAction
from desk18xx.titles.g1867.events import EVENTS, Event
from desk18xx.titles.g1867.game import G1867


@pytest.fixture
def sr(new_game: Callable[..., G1867]) -> G1867:
    game = new_game(4)
    finish_auction(game)
    return game


def test_minor_price_is_half_the_bid_rounded_down_to_a_space(sr: G1867) -> None:
    player = sr.legal_actions().entity
    assert player is not None
    cash = sr.cash[player]
    start_minor(sr, player, "BO", 150, "M9-0-0")
    assert sr.price("BO") == 70  # 150 / 2 = 75 -> 70
    assert sr.cash["BO"] == 150 and sr.cash[player] == cash - 150
    assert sr.percent_of(player, "BO") == 100
    ids = [p.id for p in sr.players]
    assert sr.legal_actions().entity == ids[(ids.index(player) + 1) % 4]


def test_minor_home_must_be_an_empty_city_and_is_placed_first(sr: G1867) -> None:
    player = sr.legal_actions().entity
    assert player is not None
    sr.process(Bid(entity=player, corporation="BO", price=100))
    la = sr.legal_actions()
    assert la.entity == "BO" and la.types == ("place_token",)
    with pytest.raises(IllegalAction):
        # Toronto city 0 holds the CN token
        from desk18xx.engine.actions import PlaceToken

        sr.process(PlaceToken(entity="BO", entity_type="corporation", city="F16-0-0", slot=0))


def test_minor_bids_rise_in_fives_and_the_high_bidder_wins(sr: G1867) -> None:
    ids = [p.id for p in sr.players]
    first = ids[0]
    from desk18xx.engine.actions import PlaceToken

    sr.process(Bid(entity=first, corporation="CV", price=100))
    sr.process(PlaceToken(entity="CV", entity_type="corporation", city="M9-0-0", slot=0))
    with pytest.raises(IllegalAction):
        sr.process(Bid(entity=ids[1], corporation="CV", price=102))
    sr.process(Bid(entity=ids[1], corporation="CV", price=105))
    sr.process(Pass(entity=ids[2]))
    sr.process(Pass(entity=ids[3]))
    sr.process(Pass(entity=first))
    assert sr.percent_of(ids[1], "CV") == 100 and sr.cash["CV"] == 105


def test_one_purchase_per_turn_and_the_sixty_percent_limit(sr: G1867) -> None:
    ids = [p.id for p in sr.players]
    me = ids[0]
    give_major(sr, "CPR", me, 50, (0, 10))
    sr.cash[me] += 1000
    sr.cash["bank"] -= 1000
    sr.process(BuyShares(entity=me, shares=("CPR_4",), percent=10))
    assert sr.percent_of(me, "CPR") == 60
    nxt = ids[1]
    assert sr.legal_actions().entity == nxt  # the turn ended with the purchase
    sr.process(Pass(entity=nxt))
    sr.process(Pass(entity=ids[2]))
    sr.process(Pass(entity=ids[3]))
    with pytest.raises(IllegalAction):
        sr.process(BuyShares(entity=me, shares=("CPR_5",), percent=10))


def test_selling_rules(sr: G1867) -> None:
    ids = [p.id for p in sr.players]
    me, other = ids[0], ids[1]
    give_major(sr, "CPR", me, 40, (0, 19))
    for i in (4, 5, 6):
        sr.shares[f"CPR_{i}"].owner = other
    with pytest.raises(IllegalAction, match="not possible"):
        sr.process(SellShares(entity=me, shares=("CPR_1",), percent=10))  # not operated
    sr.corps["CPR"].operated = True
    price = sr.price("CPR")
    cash = sr.cash[me]
    sr.process(SellShares(entity=me, shares=("CPR_1",), percent=10))
    assert sr.cash[me] == cash + price
    assert sr.price("CPR") == 220  # a president's sale: one space left, however many
    assert pool_percent(sr, "CPR") == 10


def test_non_president_sale_does_not_move_and_pool_holds_at_most_half(sr: G1867) -> None:
    ids = [p.id for p in sr.players]
    me, other = ids[0], ids[1]
    give_major(sr, "CPR", other, 30, (0, 19))
    for i in range(2, 8):
        sr.shares[f"CPR_{i}"].owner = me
    sr.corps["CPR"].operated = True
    for i in range(8, 9):
        sr.shares[f"CPR_{i}"].owner = "pool"
    sr.process(SellShares(entity=me, shares=("CPR_2", "CPR_3", "CPR_4", "CPR_5"), percent=40))
    assert sr.price("CPR") == 245 and pool_percent(sr, "CPR") == 50
    assert sr.president("CPR") == other


def test_majors_start_from_phase_four_at_a_major_start_price(sr: G1867) -> None:
    me = sr.legal_actions().entity
    assert me is not None
    assert "par" not in sr.legal_actions().types
    sr.phase_index = 2
    EVENTS[Event.GREEN_MINORS_AVAILABLE](sr)
    assert "par" in sr.legal_actions().types
    with pytest.raises(IllegalAction, match="start price"):
        sr.process(Par(entity=me, corporation="CPR", share_price="50,0,3"))
    sr.process(Par(entity=me, corporation="CPR", share_price="100,0,10"))
    assert sr.cash["CPR"] == 200 and sr.corps["CPR"].floated
    assert sr.legal_actions().entity == "CPR"  # home token next


def test_president_sells_into_his_certificate_when_another_can_take_it(sr: G1867) -> None:
    ids = [p.id for p in sr.players]
    me, other = ids[0], ids[1]
    give_major(sr, "CPR", me, 40, (0, 19))  # 20% certificate + 2 x 10%
    for i in (3, 4, 5):
        sr.shares[f"CPR_{i}"].owner = other  # 30%
    sr.corps["CPR"].operated = True
    cash = sr.cash[me]
    sr.process(SellShares(entity=me, shares=("CPR_1", "CPR_2", "CPR_0"), percent=30))
    assert sr.president(other) is None and sr.president("CPR") == other
    assert sr.percent_of(me, "CPR") == 10 and sr.percent_of(other, "CPR") == 30
    assert pool_percent(sr, "CPR") == 30 and sr.cash[me] == cash + 3 * 245
    assert sr.price("CPR") == 220
