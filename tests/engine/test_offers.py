"""Typed offers and `match_offer` (issue 15): immutable values, refusals naming the field."""

from __future__ import annotations

import dataclasses

import pytest

from desk18xx.engine.actions import (
    Bid,
    BuyCompany,
    BuyShares,
    BuyTrain,
    Convert,
    DiscardTrain,
    Dividend,
    LayTile,
    Merge,
    Par,
    Pass,
    RemoveToken,
    Route,
    RunRoutes,
    SellShares,
)
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.offers import (
    BidOffer,
    ChooseOffer,
    CompanyOffer,
    ConvertOffer,
    DiscardOffer,
    DividendOffer,
    MergeOffer,
    ParCell,
    ParOffer,
    PassOffer,
    RemoveTokenOffer,
    RouteOffer,
    ShareOffer,
    TileLayOffer,
    TrainOffer,
    match_offer,
    pick_move,
    sample_moves,
    tile_name,
)

ISSUE = ShareOffer(kind="issue", corporation="GT", shares=("GT_1", "GT_2", "GT_3"),
                   percent=30, price=90, total=270, source="GT", rule="RB 5.19",
                   fungible=frozenset({"GT_1", "GT_2", "GT_3", "GT_4"}))


def _issue(**fields: object) -> SellShares:
    base = SellShares(entity="GT", entity_type="corporation",
                      shares=("GT_1", "GT_2", "GT_3"), percent=30)
    return dataclasses.replace(base, **fields)  # type: ignore[arg-type]


def test_offers_are_immutable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        ISSUE.price = 1000  # type: ignore[misc]
    assert ISSUE.allowed and ISSUE.types == ("sell_shares",)


def test_an_issue_at_its_own_price_is_refused_naming_the_field_and_the_rule() -> None:
    with pytest.raises(IllegalAction, match=r"^share_price: GT's issue price is \$90, "
                                            r"not \$1,000 \(RB 5\.19\)$"):
        match_offer([ISSUE], _issue(share_price=1000))


def test_the_matched_offer_carries_the_price_the_engine_pays() -> None:
    assert match_offer([ISSUE], _issue()) is ISSUE
    assert match_offer([ISSUE], _issue(share_price=90)) is ISSUE


def test_equal_certificates_may_stand_in_for_one_another() -> None:
    assert match_offer([ISSUE], _issue(shares=("GT_4", "GT_2", "GT_3"))) is ISSUE
    with pytest.raises(IllegalAction, match="not one of the moves"):
        match_offer([ISSUE], _issue(shares=("GT_1", "GT_2")))  # another bundle
    with pytest.raises(IllegalAction, match="not one of the moves"):
        match_offer([ISSUE], _issue(shares=("GT_0", "GT_2", "GT_3")))  # not offered


def test_a_wrong_percent_is_named() -> None:
    with pytest.raises(IllegalAction, match=r"^percent: this GT bundle is 30%, not 40%"):
        match_offer([ISSUE], _issue(percent=40))


def test_a_disallowed_offer_gives_its_reason() -> None:
    full = dataclasses.replace(ISSUE, why_not="the pool would hold more than 50%")
    with pytest.raises(IllegalAction, match="the pool would hold more than 50%"):
        match_offer([full], _issue())
    assert not full.allowed and full.moves("GT", "corporation") == ()


def test_of_two_offers_of_one_bundle_the_one_with_its_percent_matches() -> None:
    whole = ShareOffer(kind="sell", corporation="CPR", shares=("CPR_1", "CPR_0"), percent=30,
                       price=100, total=300, source="1")
    part = dataclasses.replace(whole, percent=20, total=200)
    sale = SellShares(entity="1", shares=("CPR_1", "CPR_0"))
    assert match_offer([whole, part], sale) is whole
    assert match_offer([whole, part], dataclasses.replace(sale, percent=20)) is part


def test_a_buy_offer_refuses_a_redemption_type_mismatch_and_a_wrong_total() -> None:
    buy = ShareOffer(kind="buy", corporation="CPR", shares=("CPR_3",), percent=10, price=80,
                     total=80, source="pool")
    action = BuyShares(entity="1", shares=("CPR_3",), percent=10)
    assert match_offer([buy], action) is buy
    with pytest.raises(IllegalAction, match=r"^total_price: the bundle costs \$80, not \$8$"):
        match_offer([buy], dataclasses.replace(action, total_price=8))
    with pytest.raises(IllegalAction, match="not one of the moves"):
        match_offer([buy], SellShares(entity="1", shares=("CPR_3",)))


def test_bids_are_bounded_and_stepped() -> None:
    offer = BidOffer(company="P1", minimum=20, maximum=100, step=5, rule="RB 4.2")
    bid = Bid(entity="1", company="P1", price=25)
    assert match_offer([offer], bid) is offer
    with pytest.raises(IllegalAction, match=r"^price: the minimum bid on P1 is \$20"):
        match_offer([offer], dataclasses.replace(bid, price=15))
    with pytest.raises(IllegalAction, match="multiples of \\$5"):
        match_offer([offer], dataclasses.replace(bid, price=27))
    with pytest.raises(IllegalAction, match=r"cannot afford \$105"):
        match_offer([offer], dataclasses.replace(bid, price=105))
    assert [b.price for b in offer.moves("1", "player")] == [20, 100]  # type: ignore[attr-defined]


def test_a_minor_bid_names_the_corporation_field() -> None:
    offer = BidOffer(company="7", minimum=100, maximum=102, step=5, target="corporation")
    (move,) = offer.moves("1", "player")
    assert isinstance(move, Bid) and move.corporation == "7" and move.company is None
    assert match_offer([offer], move) is offer


def test_train_prices_fixed_or_in_a_range() -> None:
    new = TrainOffer(train="3-0", name="3", seller="depot", price=180, rule="RB 5.10")
    used = TrainOffer(train="2-1", name="2", seller="CPR", min_price=1, max_price=50)
    buy = BuyTrain(entity="GT", entity_type="corporation", train="3-0", price=180)
    assert match_offer([new, used], buy) is new
    with pytest.raises(IllegalAction, match=r"^price: the 3 train costs \$180, not \$1 "):
        match_offer([new, used], dataclasses.replace(buy, price=1))
    other = BuyTrain(entity="GT", entity_type="corporation", train="2-1", price=51)
    with pytest.raises(IllegalAction, match=r"costs \$1 to \$50, not \$51"):
        match_offer([new, used], other)
    assert match_offer([new, used], dataclasses.replace(other, price=50)) is used


def test_a_train_offer_may_be_named_by_an_alias() -> None:
    first_l = TrainOffer(train="L-3", name="L", seller="depot", price=60,
                         aliases=frozenset({"L-0"}))
    assert match_offer([first_l], BuyTrain(entity="7", train="L-0", price=60)) is first_l


def test_par_cells_are_checked() -> None:
    offer = ParOffer(corporation="GT", cells=(
        ParCell(share_price="100,0,6", price=100, cost=200),
        ParCell(share_price="90,0,5", price=90, cost=180, why_not="costs $180; $150 free")))
    par = Par(entity="1", corporation="GT", share_price="100,0,6")
    assert match_offer([offer], par) is offer
    with pytest.raises(IllegalAction, match="^share_price: GT at \\$90: costs"):
        match_offer([offer], dataclasses.replace(par, share_price="90,0,5"))
    with pytest.raises(IllegalAction, match="^share_price: '1000,0,6' is not a start price"):
        match_offer([offer], dataclasses.replace(par, share_price="1000,0,6"))
    assert [m.share_price for m in offer.moves("1", "player")] == ["100,0,6"]  # type: ignore[attr-defined]


def test_nothing_offered_is_refused() -> None:
    with pytest.raises(IllegalAction, match="^pass by 1: not one of the moves open now$"):
        match_offer([], Pass(entity="1"))
    assert match_offer([PassOffer()], Pass(entity="1")) == PassOffer()


OTTAWA = TileLayOffer(hex="J12", label="Ottawa (J12)", tiles=(("202", (0, 3)),), cost=20,
                      costs=(("202", 3, 100),), copies=(("202", "202-1"),),
                      refused=(("5", "Ottawa (J12) takes only its Y tiles: 202"),),
                      rule="the card, OR Lay track")


def _lay(tile: str, rotation: int, hex_id: str = "J12") -> LayTile:
    return LayTile(entity="CV", entity_type="corporation", hex=hex_id, tile=tile,
                   rotation=rotation)


def test_a_lay_matches_its_tile_and_rotation_and_pays_the_offer_cost() -> None:
    assert match_offer([OTTAWA], _lay("202-4", 0)) is OTTAWA
    assert OTTAWA.cost_of("202", 0) == 20 and OTTAWA.cost_of("202", 3) == 100
    assert OTTAWA.moves("CV", "corporation") == (_lay("202-1", 0), _lay("202-1", 3))


def test_a_refused_tile_names_the_rule() -> None:
    with pytest.raises(IllegalAction, match=r"^tile: Ottawa \(J12\) takes only its Y tiles: "
                                            r"202 \(the card, OR Lay track\)$"):
        match_offer([OTTAWA], _lay("5-0", 0))
    assert OTTAWA.refusal("5") == "Ottawa (J12) takes only its Y tiles: 202"
    assert OTTAWA.refusal("202") is None
    assert OTTAWA.refusal("9") == "tile 9 does not fit Ottawa (J12)"


def test_a_wrong_rotation_names_the_rotations_that_fit() -> None:
    with pytest.raises(IllegalAction, match=r"^rotation: tile 202 on Ottawa \(J12\) fits "
                                            r"turned 0, 3, not 1"):
        match_offer([OTTAWA], _lay("202-0", 1))


def test_a_hex_closed_to_lays_gives_its_reason_and_other_hexes_are_not_offered() -> None:
    closed = TileLayOffer(hex="F16", why_not="F16 was laid this turn (RB 5.7.38)")
    with pytest.raises(IllegalAction, match=r"^F16 was laid this turn \(RB 5\.7\.38\)$"):
        match_offer([closed, OTTAWA], _lay("120-0", 1, "F16"))
    with pytest.raises(IllegalAction, match="not one of the moves open now"):
        match_offer([closed, OTTAWA], _lay("8-0", 1, "G15"))
    assert closed.moves("CV", "corporation") == ()


def test_tile_names_drop_only_the_copy_number() -> None:
    assert [tile_name(t) for t in ("57-1", "X1-0", "639", "B-5-2")] == ["57", "X1", "639", "B-5"]


# -- random play draws from offers (Offer.sample, sample_moves, pick_move) ------------------
def test_a_drawn_move_is_one_the_offer_accepts_and_the_draw_is_deterministic() -> None:
    import random

    bid = BidOffer(company="P1", minimum=20, maximum=100, step=5, spread=4)
    used = TrainOffer(train="2-1", name="2", seller="CPR", min_price=1, max_price=500,
                      list_price=80)
    offers = (bid, used, OTTAWA, ISSUE, PassOffer())
    for seed in range(40):
        moves = sample_moves(offers, "1", "player", random.Random(seed))
        assert moves == sample_moves(offers, "1", "player", random.Random(seed))
        assert [type(m) for m in moves] == [Bid, BuyTrain, LayTile, SellShares, Pass]
        for offer, move in zip(offers, moves, strict=True):
            assert match_offer([offer], move) is offer
        b, t = moves[0], moves[1]
        assert isinstance(b, Bid) and 20 <= b.price <= 40 and b.price % 5 == 0
        assert isinstance(t, BuyTrain) and 1 <= t.price <= 80  # never above the list price


def test_a_bid_draw_keeps_to_the_step_counted_from_its_base() -> None:
    import random

    offer = BidOffer(company="P1", minimum=23, maximum=40, step=5, step_from=20, spread=9)
    prices = {offer.sample("1", "player", random.Random(s)).price  # type: ignore[union-attr]
              for s in range(60)}
    assert prices == {25, 30, 35, 40}
    assert BidOffer(company="P1", minimum=23, maximum=24, step=5, step_from=20).sample(
        "1", "player", random.Random(0)) is None


def test_disallowed_and_shunned_offers_give_no_move() -> None:
    import random

    rng = random.Random(0)
    shunned = ChooseOffer(choice="nationalize", playout_skip="would stall the round")
    closed = ChooseOffer(choice="nationalize", why_not="not trainless")
    assert shunned.allowed and shunned.sample("GT", "corporation", rng) is not None
    assert sample_moves((shunned, closed), "GT", "corporation", rng) == []
    assert closed.sample("GT", "corporation", rng) is None


def test_pick_move_prefers_others_to_a_pass() -> None:
    import random

    rng = random.Random(1)
    moves = [Pass(entity="1"), Bid(entity="1", company="P1", price=20)]
    picks = [pick_move(moves, rng, 0.25).type for _ in range(400)]
    assert 50 < picks.count("pass") < 150
    assert pick_move([Pass(entity="1")], rng).type == "pass"


def test_a_run_is_checked_against_its_trains_and_draws_its_routes() -> None:
    import random

    found = (Route(train="2-0", connections=(("A1", "A2"),)),)
    offer = RouteOffer(trains=("2-0", "3-1"), rule="the card, OR Run trains",
                       find=lambda rng: found)
    run = offer.sample("CPR", "corporation", random.Random(0))
    assert run == RunRoutes(entity="CPR", entity_type="corporation", routes=found)
    assert match_offer([offer], run) is offer
    with pytest.raises(IllegalAction, match=r"^routes: train 4-0 cannot run now \(trains to "
                                            r"run: 2-0, 3-1\) \(the card, OR Run trains\)$"):
        match_offer([offer], RunRoutes(entity="CPR", routes=(Route(train="4-0"),)))
    with pytest.raises(IllegalAction, match="^routes: train 2-0 runs twice"):
        match_offer([offer], RunRoutes(entity="CPR", routes=found + found))
    with pytest.raises(IllegalAction, match=r"^extra_revenue: this run adds \$0, not \$50"):
        match_offer([offer], RunRoutes(entity="CPR", routes=found, extra_revenue=50))
    assert RouteOffer(trains=()).sample("CPR", "corporation", random.Random(0)) == RunRoutes(
        entity="CPR", entity_type="corporation")


def test_dividend_private_discard_token_and_merger_offers_check_their_fields() -> None:
    half = DividendOffer(kind="half", revenue=120, kept=60, rule="R")
    assert match_offer([half], Dividend(entity="GT", kind="half")) is half
    with pytest.raises(IllegalAction, match="not one of the moves"):
        match_offer([half], Dividend(entity="GT", kind="payout"))
    with pytest.raises(IllegalAction, match=r"^amount: a half of \$120 names none, not \$7"):
        match_offer([half], Dividend(entity="GT", kind="half", amount=7))
    private = CompanyOffer(company="P2", seller="1", min_price=1, max_price=40)
    assert match_offer([private], BuyCompany(entity="GT", company="P2", price=40)) is private
    with pytest.raises(IllegalAction, match=r"^price: P2 costs \$1 to \$40, not \$41$"):
        match_offer([private], BuyCompany(entity="GT", company="P2", price=41))
    assert [m.price for m in private.moves("GT", "corporation")] == [1, 40]  # type: ignore[attr-defined]
    discard = DiscardOffer(train="2-0")
    assert match_offer([discard], DiscardTrain(entity="GT", train="2-0")) is discard
    with pytest.raises(IllegalAction, match="not one of the moves"):
        match_offer([discard], DiscardTrain(entity="GT", train="2-1"))
    token = RemoveTokenOffer(hex="F16", city="57-0-0", slot=1)
    with pytest.raises(IllegalAction, match=r"^slot: the token in F16 is in slot 1, not 0"):
        match_offer([token], RemoveToken(entity="GT", city="57-0-0", slot=0))
    merge = MergeOffer(corporation="BBG")
    assert match_offer([merge], Merge(entity="LPS", corporation="BBG")) is merge
    with pytest.raises(IllegalAction, match="^minor: a merge names BBG only"):
        match_offer([merge], Merge(entity="LPS", corporation="BBG", minor="KP"))
    assert ConvertOffer().moves("LPS", "corporation") == (Convert(entity="LPS",
                                                                  entity_type="corporation"),)
