"""1822CA rule areas: loans, dividends, mail, acquisitions, special trains, tokens, track.

Most tests set up a small position on a fresh game; the fixture-based ones
replay a prefix of a recorded 18xx.games game and check the state there.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from desk18xx.engine.actions import AcquireCompany, LayTile, action_from_dict
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import GameSetup
from desk18xx.engine.state import BANK, DEPOT
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles.g1822ca.game import G1822CA
from desk18xx.titles.g1822ca.rounds import OperatingRound
from desk18xx.titles.g1822ca.steps.acquisition import MinorAcquisition, acquirable_privates

FIXTURES = Path(__file__).resolve().parents[3].parent / "shared" / "fixtures" / "18xx.games"
ERS = FIXTURES / "1822CAERS" / "1822CAERS_game_end_bank.json"
SEED = 337421161


def new_game(compat: bool = True, players: int = 4) -> G1822CA:
    ids = tuple((str(100 + i), f"P{i}") for i in range(players))
    return G1822CA(GameSetup("1822CA", ids, SEED, ("compat_18xxgames",) if compat else ()))


def replay_prefix(path: Path, count: int) -> G1822CA:
    imported = load_export(path)
    game = G1822CA(GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                             imported.seed, ("compat_18xxgames",)))
    for raw in imported.actions[:count]:
        game.process(action_from_dict(raw))
    return game


def float_major(g: G1822CA, corp: str, price: int, owner: str) -> None:
    cell = next(c for c in g.market.cells.values() if c.price == price)
    g.market.place(corp, cell.coord)
    g.corps[corp].ipoed = g.corps[corp].floated = True
    g.shares[f"{corp}_0"].owner = owner


# -- player loans (RB 5.15.6) ------------------------------------------------------------
def test_player_loan_costs_half_again_and_grows_each_stock_round() -> None:
    g = new_game()
    money = g.total_money()
    g.take_player_loan("100", 101)
    assert g.cash["100"] == 525 + 101 and g.debt["100"] == 152  # 101 × 1.5 rounded up
    g.add_interest_player_loans()
    assert g.debt["100"] == 228
    g.payoff_player_loan("100", 28)
    assert g.debt["100"] == 200
    with pytest.raises(IllegalAction):
        g.payoff_player_loan("100", 10_000)
    assert g.total_money() == money
    assert g.player_value("100") == 525 + 101 - 28 - 200


# -- dividends (RB 5.11; supplement §7.2, §7.4) ------------------------------------------
def _or_with_revenue(g: G1822CA, corp: str, revenues: dict[str, int]) -> OperatingRound:
    orr = OperatingRound.__new__(OperatingRound)
    orr.routes_revenue = dict(revenues)
    orr.route_nodes = {t: () for t in revenues}
    orr.extra_choice = None
    orr.recorded_subsidy = None
    return orr


def test_major_half_pay_keeps_half_rounded_down_to_ten_and_moves_price() -> None:
    g = new_game()
    float_major(g, "GT", 70, "100")
    g.trains["3-0"].owner = DEPOT
    g.give_train(g.trains["3-0"], "GT")
    before = g.cash["100"]
    g.pay_dividend("GT", "half", _or_with_revenue(g, "GT", {"3-0": 150}))
    assert g.cash["GT"] == 70 + 64      # 150 / 2 = 75 → 70 kept; 8 treasury shares × 8
    assert g.cash["100"] == before + 16  # 80 / 10 per share × 2 shares (20%)
    assert g.price("GT") == 80          # 80 paid ≥ 70: one step right


def test_major_payout_of_twice_the_price_moves_two_steps() -> None:
    g = new_game()
    float_major(g, "GT", 60, "100")
    g.pay_dividend("GT", "payout", _or_with_revenue(g, "GT", {"3-0": 120}))
    assert g.price("GT") == 80


def test_withhold_moves_left_and_minor_half_pays_the_owner() -> None:
    g = new_game()
    float_major(g, "GT", 60, "100")
    g.pay_dividend("GT", "withhold", _or_with_revenue(g, "GT", {"3-0": 50}))
    assert g.price("GT") == 50 and g.cash["GT"] == 50
    g.market.place("7", next(c.coord for c in g.market.cells.values() if c.price == 50))
    g.corps["7"].floated = True
    g.shares["7_0"].owner = "101"
    before = g.cash["101"]
    g.pay_dividend("7", "half", _or_with_revenue(g, "7", {"L-0": 35}))
    assert g.cash["7"] == 17 and g.cash["101"] == before + 18 and g.price("7") == 60


def test_special_train_revenue_can_be_paid_separately() -> None:
    g = new_game()
    float_major(g, "GT", 100, "100")
    for tid in ("2P-0", "3-0"):
        g.trains[tid].owner = DEPOT
        g.give_train(g.trains[tid], "GT")
    orr = _or_with_revenue(g, "GT", {"2P-0": 40, "3-0": 100})
    assert g.find_extra_train("GT", orr) == "2P-0"
    orr.extra_choice = "withhold"
    g.pay_dividend("GT", "payout", orr)
    assert g.cash["GT"] == 40 + 80  # the 2P's 40 kept; the treasury's 8 shares × 10
    assert g.price("GT") == 110  # 100 paid ≥ price: one step


# -- mail contracts (supplement §6.1 P22-P25) --------------------------------------------
def test_mail_subsidies_match_every_recorded_value_in_the_ers_game() -> None:
    g = replay_prefix(ERS, 944)
    assert g.finished  # the recorded subsidies were compared along the way (see game.py)


# -- private acquisitions (RB 5.3; supplement §6) ----------------------------------------
def test_acquirable_privates_follow_colour_and_phase() -> None:
    g = new_game()
    float_major(g, "GT", 60, "100")
    for cid in ("P1", "P2", "P8"):
        g.companies[cid].owner = "101"
    assert acquirable_privates(g, "GT") == ["P2"]  # P1 needs phase 5, P8 phase 2
    g.phase_index = 1
    assert sorted(acquirable_privates(g, "GT")) == ["P2", "P8"]


def test_acquiring_p8_hands_over_its_purse_and_closes_it() -> None:
    g = new_game()
    float_major(g, "GT", 60, "100")
    g.companies["P8"].owner = "101"
    g.transfer(BANK, "purse:P8", 40)
    g.acquire_private("GT", "P8")
    assert g.cash["GT"] == 40 and g.companies["P8"].closed


def test_acquiring_p3_gives_a_permanent_two_train_outside_the_limit() -> None:
    g = new_game()
    float_major(g, "GT", 60, "100")
    g.companies["P3"].owner = "101"
    g.acquire_private("GT", "P3")
    assert g.corps["GT"].trains == ["2P-0"] and g.companies["P3"].closed
    assert g.real_trains("GT") == []


def test_acquire_company_action_is_refused_for_a_blue_private() -> None:
    g = replay_prefix(ERS, 252)  # the first OR of turn 3 starts
    g.companies["P11"].owner = "45"
    with pytest.raises(IllegalAction):
        g.process(AcquireCompany("11", entity_type="corporation", company="P11"))


# -- minor acquisition payment forms (RB 5.14) -------------------------------------------
def test_minor_acquisition_payment_choices() -> None:
    g = new_game()
    float_major(g, "GT", 100, "100")
    g.cash["GT"] = 0
    g.market.place("7", next(c.coord for c in g.market.cells.values() if c.price == 60))
    g.corps["7"].floated = True
    g.shares["7_0"].owner = "101"
    step = MinorAcquisition.__new__(MinorAcquisition)
    # value 120: one share (100) + $20 from GT (has none), two shares (200) - $80 from owner
    assert step.pay_choices(g, "GT", "7") == ["two_shares"]
    g.transfer(BANK, "GT", 120)
    assert step.pay_choices(g, "GT", "7") == ["money", "one_share", "two_shares"]


def test_bid_box_m13_token_needs_the_twenty_dollars_after_the_price(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # RB 7.1.4: the major pays $200 for M13, then $20 for its rondel token; a random
    # playout (1822CA seed 7004) chose "replace" with $200 and could not pay the $20
    g = new_game()
    float_major(g, "GT", 100, "100")
    step = MinorAcquisition.__new__(MinorAcquisition)
    assert g.president("13") is None and g.exchange_tokens["GT"] > 0
    monkeypatch.setattr(g, "reaches_city", lambda corp, hex_id, city: True)
    g.cash["GT"] = 219
    assert step.token_choices(g, "GT", "13") == ["exchange"]
    g.transfer(BANK, "GT", 1)
    assert step.token_choices(g, "GT", "13") == ["replace", "exchange"]
    # another bid-box minor's token is free: $200 is enough
    g.cash["GT"] = 200
    assert step.token_choices(g, "GT", "7") == ["replace", "exchange"]
    g.exchange_tokens["GT"] = 0
    assert step.token_choices(g, "GT", "13") == ["remove"]


def test_bid_box_m13_token_needs_a_route_to_a_toronto_city_without_the_major() -> None:
    # RB 7.1.4 "must have a route to city slot it wishes to occupy": GT's home token in
    # Toronto city 1 reaches only that city, where it may not add a second token
    g = new_game()
    float_major(g, "GT", 100, "100")
    g.place_token("GT", "AC21", 1, 0)
    step = MinorAcquisition.__new__(MinorAcquisition)
    g.cash["GT"] = 1000
    assert [g.reaches_city("GT", "AC21", c) for c in (0, 1)] == [False, True]
    assert step.token_choices(g, "GT", "13") == ["exchange"]
    assert g.pending_token_needs_route("GT", 20) and not g.pending_token_needs_route("13", 20)


# -- exchange tokens and P28 (supplement §6.1 P28) ---------------------------------------
def test_token_swap_moves_exchange_tokens() -> None:
    g = new_game()
    float_major(g, "GT", 60, "100")
    g.companies["P28"].owner = "GT"
    assert g.token_swap_choices("GT") == ["exchange"]
    g.token_swap("GT", "exchange")
    assert g.exchange_tokens["GT"] == 2 and len(g.corps["GT"].tokens) == 3
    assert g.companies["P28"].closed


# -- track (RB 5.7) ----------------------------------------------------------------------
def test_illegal_tile_lays_are_refused() -> None:
    g = replay_prefix(ERS, 115)  # minor 11 is about to lay AB24 5-0 rotation 3
    with pytest.raises(IllegalAction):
        g.process(LayTile("11", entity_type="corporation", hex="AB24", tile="5-0",
                          rotation=0))
    g.process(LayTile("11", entity_type="corporation", hex="AB24", tile="5-0", rotation=3))


# -- rulebook mode (docs/rules-notes.md) -------------------------------------------------
def test_two_players_only_with_compat() -> None:
    with pytest.raises(IllegalAction):
        new_game(compat=False, players=2)
    assert new_game(compat=True, players=2).bidding_tokens == 7


def test_second_e_train_must_be_discarded_in_rulebook_mode() -> None:
    for compat, crowded in ((True, False), (False, True)):
        g = new_game(compat=compat)
        float_major(g, "GT", 60, "100")
        for tid in ("7-0", "7-1"):  # buying 7-0 puts 7-1 in the depot
            g.set_variant(g.trains[tid], "E")
            g.give_train(g.trains[tid], "GT")
        assert g.crowded("GT") is crowded


def test_special_train_half_pay_rounding_by_mode() -> None:
    for compat, kept in ((True, 20), (False, 30)):
        g = new_game(compat=compat)
        float_major(g, "GT", 100, "100")
        for s in g.ipo_shares("GT"):
            s.owner = "101"  # no treasury dividends in this test
        for tid in ("2P-0", "3-0"):
            g.trains[tid].owner = DEPOT
            g.give_train(g.trains[tid], "GT")
        orr = _or_with_revenue(g, "GT", {"2P-0": 35, "3-0": 35})
        orr.extra_choice = "half"
        g.pay_dividend("GT", "half", orr)
        # 18xx.games halves 35 and 35 apart (10 + 10 kept); RB p.33 adds them first (30)
        assert g.cash["GT"] == kept


def test_first_turn_l_from_the_pool_in_rulebook_mode() -> None:
    import dataclasses

    from desk18xx.engine.state import POOL
    from desk18xx.titles.g1822ca.steps.operating import FirstTurnHousekeeping

    g = replay_prefix(ERS, 114)  # minor 11 opens OR 1 with its first-turn purchase
    assert g.round is not None
    step = next(s for s in g.round.steps if isinstance(s, FirstTurnHousekeeping))
    pool_l = g.trains["L-13"]
    g.depot.remove(pool_l.id)
    pool_l.owner = POOL
    assert [t.id for t in step.offers(g)] == ["L-0"]
    g.config = dataclasses.replace(g.config, compat_18xxgames=False)
    assert [t.id for t in step.offers(g)] == ["L-0", "L-13"]


# -- starting majors (RB 4.7, 4.8; supplement §5, §7.5) ----------------------------------
def test_concession_conversion_pays_twice_the_price_less_the_concession() -> None:
    from desk18xx.titles.g1822ca.shares import par_major

    g = new_game()
    g.phase_index = 1
    g.companies["C4"].owner = "100"
    par_major(g, "100", "GT", "80,0,12")
    assert g.cash["100"] == 525 - 60 and g.cash["GT"] == 160
    assert g.corps["GT"].floated and g.companies["C4"].closed
    g.companies["C2"].owner = "101"
    par_major(g, "101", "CPR", "70,0,11")
    assert g.cash["101"] == 525 and g.cash["CPR"] == 70  # CPR: director's 10% free
    assert g.corps["CPR"].floated


def test_direct_start_from_phase_5_floats_at_half_and_full_cap_from_phase_6() -> None:
    from desk18xx.titles.g1822ca.shares import buy_share, par_major

    g = new_game()
    g.phase_index = 4
    g._on_phase("5")
    par_major(g, "100", "GT", "100,0,14")
    assert not g.corps["GT"].floated and g.cash["GT"] == 200
    for i in (1, 2, 3):
        buy_share(g, "101", (f"GT_{i}",))
    assert g.corps["GT"].floated and g.cash["GT"] == 500  # 50% sold: floats
    g.phase_index = 5
    g._on_phase("6")
    par_major(g, "102", "GWR", "60,0,10")
    for i in (1, 2, 3):
        buy_share(g, "103", (f"GWR_{i}",))
    assert g.corps["GWR"].floated
    assert g.cash["GWR"] == 600  # returns what it collected, receives 10 × $60
    assert g.percent_of("pool", "GWR") == 50


def test_snapshot_copy_replays_on_independently() -> None:
    imported = load_export(ERS)
    actions = [action_from_dict(a) for a in imported.actions]
    g = replay_prefix(ERS, 500)
    snap = g.copy()
    for a in actions[500:]:
        snap.process(a)
    assert snap.finished and not g.finished
    for a in actions[500:]:
        g.process(a)
    assert g.result() == snap.result() == {str(k): v for k, v in (imported.result or {}).items()}
