"""Rulebook points of issue 16 (docs/rules-notes.md, 1822CA table), both modes."""

from __future__ import annotations

import pytest

from desk18xx.engine.actions import DiscardTrain, HexToken, LayTile, PlaceToken
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import GameSetup
from desk18xx.engine.state import BANK
from desk18xx.titles.g1822ca import rules as R
from desk18xx.titles.g1822ca.game import G1822CA
from desk18xx.titles.g1822ca.rounds import OperatingRound, StockRound
from desk18xx.titles.g1822ca.steps.operating import DestinationToken, SpecialTrack, TrackStep

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


def _big_city_turn(compat: bool, company: str) -> tuple[G1822CA, OperatingRound, SpecialTrack,
                                                          list[str]]:
    """GT floated, owning ``company``, at the start of its OR turn; tile lays are recorded."""
    game = _game(compat)
    _float(game, "GT", 100)
    game.shares["GT_0"].owner = "100"
    game.companies[company].owner = "GT"
    game.corps["GT"].companies.append(company)
    laid: list[str] = []
    game.lay_tile = lambda corp, hex_id, *a, **k: laid.append(hex_id)  # type: ignore[method-assign]
    orr = OperatingRound(game, 1)
    special = next(s for s in orr.steps if isinstance(s, SpecialTrack))
    return game, orr, special, laid


@pytest.mark.parametrize("compat", [False, True])
@pytest.mark.parametrize("company", sorted(R.BIG_CITY_COMPANIES))
def test_a_private_may_not_upgrade_a_hex_laid_this_turn(compat: bool, company: str) -> None:
    """RB 5.7.38: a tile is never placed and upgraded in one tile-laying step, a private's
    lay included (P16 green Montreal after the normal yellow lay on AF12)."""
    game, orr, special, laid = _big_city_turn(compat, company)
    hex_id = R.BIG_CITY_COMPANIES[company]
    orr.laid_hexes.append(hex_id)  # the normal lay went there
    orr.num_laid_track = 1
    with pytest.raises(IllegalAction, match=f"{hex_id} was laid this turn.*RB 5.7.38"):
        special.process(game, LayTile(company, entity_type="company", hex=hex_id,
                                      tile="X1-0"))
    assert laid == []


@pytest.mark.parametrize("compat", [False, True])
@pytest.mark.parametrize("company", sorted(R.BIG_CITY_COMPANIES))
def test_a_big_city_private_lays_its_own_city_tiles_only(compat: bool, company: str) -> None:
    """Supplement §6.1 (P14-P18 upgrade their own city; 18xx.games' ability ``tiles``): a
    Winnipeg tile is refused on Montreal even where its track fits (differential seed
    33000, ERS: P16 laid W3 on AF12 and the reference refused the game)."""
    game, _orr, special, laid = _big_city_turn(compat, company)
    hex_id = R.BIG_CITY_COMPANIES[company]
    foreign = "M3" if company == "P18" else "W3"
    with pytest.raises(IllegalAction, match=f"{company} lays only tiles .*not {foreign}"):
        special.process(game, LayTile(company, entity_type="company", hex=hex_id,
                                      tile=f"{foreign}-0"))
    own = sorted(R.ABILITY_TILES[company])[0]
    special.process(game, LayTile(company, entity_type="company", hex=hex_id, tile=f"{own}-0"))
    assert laid == [hex_id]


@pytest.mark.parametrize("company", sorted(R.MOUNTAIN_PASS_COMPANIES))
def test_a_mountain_pass_private_lays_on_its_pass_only(company: str) -> None:
    """Supplement §6.1 P19/P20: the pass's own hex (differential 1822CA seed 33000: P20
    laid a 9 on AE11, the reference refused it)."""
    game, _orr, special, laid = _big_city_turn(False, company)
    with pytest.raises(IllegalAction, match=f"{company} lays only on "
                                            f"{R.MOUNTAIN_PASS_COMPANIES[company]}"):
        special.process(game, LayTile(company, entity_type="company", hex="AE11",
                                      tile="9-0"))
    assert laid == []


def test_a_private_lays_in_the_tile_laying_step_only() -> None:
    """Supplement §6.1: a private's lay "happens during the company's tile laying step"
    (18xx.games: the ability's ``when: track``); not while it runs trains or buys them."""
    game, orr, special, _laid = _big_city_turn(False, "P16")
    game.round = orr
    track = next(s for s in orr.steps if isinstance(s, TrackStep))
    assert orr.active_step(game) is track
    assert special.legal(game, "P16") == (LayTile,)
    track.pass_(game)
    assert orr.active_step(game) is not track
    assert special.legal(game, "P16") == ()


def test_a_grant_lay_may_not_go_on_a_hex_laid_this_turn() -> None:
    game, orr, special, laid = _big_city_turn(False, "P21")
    orr.laid_hexes.append("AF14")
    with pytest.raises(IllegalAction, match="RB 5.7.38"):
        special.process(game, LayTile("P21", entity_type="company", hex="AF14", tile="8-0"))
    special.process(game, LayTile("P21", entity_type="company", hex="AF16", tile="8-0"))
    assert laid == ["AF16"]


@pytest.mark.parametrize("compat", [False, True])
@pytest.mark.parametrize("choice", ["exchange", "replace"])
def test_an_acquired_minor_gives_back_the_slot_a_token_added(compat: bool, choice: str) -> None:
    """A token put in a full city adds a slot; when the minor there is acquired and its token
    leaves the map (``exchange``, or ``replace`` where the major already is), the added slot
    goes (18xx.games ``G1822::Step::MinorAcquisition#remove_minor_token``)."""
    game = _game(compat)
    _float(game, "GT", 100)
    _float(game, "12", 60)
    game.shares["GT_0"].owner = "100"
    game.shares["12_0"].owner = "101"
    game.transfer(BANK, "GT", 500)
    game.place_token("12", "AC21", 0, 0)
    game.place_token("GT", "AC21", 1, 0)
    # a destination-style added slot; for "replace" GT's own, so no token replaces 12's
    game.map.place_token("AC21", 0, "GT" if choice == "replace" else "CNoR", cheater=True)
    assert len(game.map.hex("AC21").tokens[0]) == 2
    orr = OperatingRound.__new__(OperatingRound)
    before = [t.corp for t in game.map.hex("AC21").tokens[0] if t is not None]
    game.acquire_minor("GT", "12", 0, choice, orr)
    slots = game.map.hex("AC21").tokens[0]
    left = [t.corp for t in slots if t is not None]
    assert left == [c for c in before if c != "12"]
    assert len(slots) == max(1, len(left))
    assert None not in slots


def _icr_destination_step(compat: bool) -> tuple[G1822CA, DestinationToken,
                                                  list[tuple[str, int | None]]]:
    """ICR floated, at its destination-token step; placements are recorded."""
    game = _game(compat)
    _float(game, "ICR", 100)
    orr = OperatingRound(game, 1)
    step = next(s for s in orr.steps if isinstance(s, DestinationToken))
    step.corp = lambda: "ICR"  # type: ignore[method-assign]
    placed: list[tuple[str, int | None]] = []
    game.place_destination = lambda corp, h, c: placed.append((h, c))  # type: ignore[method-assign,assignment]
    return game, step, placed


@pytest.mark.parametrize("compat", [False, True])
def test_a_destination_hex_token_into_a_hex_of_several_destination_cities_is_refused(
        compat: bool) -> None:
    """Where ICR's destination exits reach two Quebec cities the token names one
    (``place_token``), even when only one is connected: 18xx.games' client always sends
    ``place_token`` there and its ``place_destination_token`` crashes on a ``hex_token``
    (differential 1822CA seed 31006).  A destination hex of one city takes hex_token."""
    game, step, placed = _icr_destination_step(compat)
    game.destination_connected = lambda corp: [0]  # type: ignore[method-assign]
    game.destination_cities = lambda corp: [0, 1]  # type: ignore[method-assign]
    with pytest.raises(IllegalAction, match="AH8 has 2 cities on ICR's destination: name"):
        step.process(game, HexToken(entity="ICR", entity_type="corporation", hex="AH8",
                                    token_type="destination"))
    assert placed == []
    step.process(game, PlaceToken(entity="ICR", entity_type="corporation",
                                  city=game.map.city_id("AH8", 0), token_type="destination"))
    assert placed == [("AH8", 0)]


def test_a_destination_hex_token_into_a_one_city_destination_is_taken() -> None:
    game, step, placed = _icr_destination_step(False)
    game.destination_connected = lambda corp: [1]  # type: ignore[method-assign]
    game.destination_cities = lambda corp: [1]  # type: ignore[method-assign]
    step.process(game, HexToken(entity="ICR", entity_type="corporation", hex="AH8",
                                token_type="destination"))
    assert placed == [("AH8", None)]


def _phase_three_at_stock_round_end(compat: bool) -> G1822CA:
    """Phase 3 starts at the end of the first stock round (the exports take the last
    L/2-trains); the game then goes on to its operating rounds."""
    game = _game(compat)
    assert isinstance(game.round, StockRound) and game.phase_num == 1
    for train in ("2", "3"):
        game.train_bought(game.trains[game.depot[0]], train)
    assert game.phase_num == 3 and game.phase.operating_rounds == 2
    while not isinstance(game.round, OperatingRound):
        game.next_round()
    return game


def test_two_operating_rounds_only_after_the_following_stock_round() -> None:
    """RB 2.1.2: the step to two operating rounds applies only after the following stock
    round; phase 3 reached by the stock round's exports leaves this set at one."""
    game = _phase_three_at_stock_round_end(compat=False)
    assert game.operating_rounds == 1
    game.next_round()
    assert isinstance(game.round, StockRound)
    while not isinstance(game.round, OperatingRound):
        game.next_round()
    assert game.operating_rounds == 2


def test_compat_two_operating_rounds_at_once() -> None:
    """18xx.games ``G1822::Game#next_round!`` reads the phase after the Choices round."""
    assert _phase_three_at_stock_round_end(compat=True).operating_rounds == 2


@pytest.mark.parametrize("compat", [False, True])
def test_a_redemption_of_two_shares_costs_twice_the_price(compat: bool) -> None:
    """RB 5.19.4: "the current price must be paid ... for each share that is redeemed";
    the price does not move. (A trace "2 shares at $40 cost $60" was not reproduced: in
    random games every redemption paid price times count; an action's whole cash change
    also holds the income paid when the redemption ends the round; docs/rules-notes.md.)"""
    from desk18xx.engine.state import POOL
    from desk18xx.titles.g1822ca.shares import redeem_shares

    game = _game(compat)
    _float(game, "GT", 40)
    game.shares["GT_1"].owner = game.shares["GT_2"].owner = POOL
    game.transfer(BANK, "GT", 100)
    before = dict(game.cash)
    redeem_shares(game, "GT", ("GT_1", "GT_2"), None)
    assert game.cash["GT"] == before["GT"] - 80 and game.cash[BANK] == before[BANK] + 80
    assert game.price("GT") == 40
    assert game.shares["GT_1"].owner == game.shares["GT_2"].owner == "GT"


def _gwr_beside_minor_14(compat: bool) -> G1822CA:
    """GWR (Barrie, AB24) reaches only its own city and minor 14's full one-slot city
    (AA25): no city to token until the minor's token goes."""
    from desk18xx.engine.map.graph import graph_for

    game = _game(compat)
    _float(game, "GWR", 100)
    game.shares["GWR_0"].owner = "100"
    cells = {c.price: c.coord for c in game.market.cells.values()}
    game.market.place("14", cells[60])
    game.corps["14"].floated = True
    game.shares["14_0"].owner = "101"
    board = game.map
    board.lay_tile("AA25", board.next_copy("57"), 1)
    board.lay_tile("AB24", board.next_copy("5"), 0)
    game.place_token("14", "AA25", 0, 0, home=True)
    game.place_token("GWR", "AB24", 0, 0, home=True)
    game.transfer(BANK, "GWR", 500)
    assert sorted(graph_for(board).reach("GWR").nodes) == [("AA25", 0), ("AB24", 0)]
    assert not game.can_token_now("GWR")  # its token step found no city
    game.exchange_tokens["GWR"] = 0
    game.acquire_minor("GWR", "14", 0, "remove", OperatingRound.__new__(OperatingRound))
    assert game.map.hex("AA25").tokens == ((None,),)
    assert game.can_token_somewhere("GWR")  # the freed city, by the board as it is
    return game


def test_compat_keeps_the_cached_cannot_token_after_a_remove_acquisition() -> None:
    """18xx.games caches ``Graph#can_token?`` per company and a ``remove`` acquisition does
    not clear it (``G1822CA::Step::MinorAcquisition#after_acquire_entity_minor`` clears
    only on ``exchange``): a recorded game skips the token step until a tile is laid."""
    game = _gwr_beside_minor_14(compat=True)
    assert not game.can_token_now("GWR")
    # a home token leaves it; another company's token (18xx ``Tokener#place_token``)
    # clears it, and the next ask sees the freed city
    game.place_token("CPR", "AF12", 1, 0, home=True)
    assert not game.can_token_now("GWR")
    game.place_token("GT", "AC21", 1, 0)
    assert game.can_token_now("GWR")


def test_rulebook_sees_the_freed_city_after_a_remove_acquisition() -> None:
    """RB 5.8: the token step looks at the board as it is."""
    game = _gwr_beside_minor_14(compat=False)
    assert game.can_token_now("GWR")


@pytest.mark.parametrize("compat", [False, True])
def test_the_token_offers_hold_the_freed_city_only_where_the_token_step_is_open(
        compat: bool) -> None:
    """The token offers name the freed city; they are asked (`offers._open_steps`)
    only when the token step takes a placement: under compat the cached "cannot token"
    shuts it (and D32's same-hex rule), so random play and the door see none."""
    from desk18xx.engine.actions import PlaceToken
    from desk18xx.titles.g1822ca import offers as O
    from desk18xx.titles.g1822ca.steps.operating import TokenStep

    game = _gwr_beside_minor_14(compat)
    orr = OperatingRound.__new__(OperatingRound)
    orr.tokened = False
    step = TokenStep.__new__(TokenStep)
    step.is_current = lambda entity: entity == "GWR"  # type: ignore[method-assign]
    step.orr = lambda: orr  # type: ignore[method-assign]
    found = O._tokens(game, step, "GWR")
    assert found is not None
    assert [o.city for o in found if isinstance(o, O.TokenOffer) and o.allowed] == [
        game.map.city_id("AA25", 0)]
    assert (PlaceToken in step.legal(game, "GWR")) is not compat


def test_a_recorded_run_the_stale_route_cache_allowed_stops_with_a_clear_refusal() -> None:
    """D41: a live 18xx.games game may hold a run for a company whose Run Routes we (and
    the reloading reference) skip. Such a recorded action stops the replay there with a
    refusal naming the action and the step that waits; the actions before it stand."""
    from pathlib import Path

    from desk18xx.engine.actions import action_from_dict
    from desk18xx.engine.errors import IllegalAction
    from desk18xx.io.import_18xxgames import load_export

    path = Path(__file__).resolve().parents[3].parent / "shared" / "fixtures" / \
        "18xx.games" / "1822CAERS" / "1822CAERS_game_end_bank.json"
    imported = load_export(path)
    game = G1822CA(GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                             imported.seed, ("compat_18xxgames",)))
    runs = [i for i, a in enumerate(imported.actions) if a["type"] == "run_routes" and i > 200]
    first = runs[0]
    other = next(j for j in runs if imported.actions[j]["entity"]
                 != imported.actions[first]["entity"])
    for raw in imported.actions[:first + 1]:
        game.process(action_from_dict(raw))
    stale = dict(imported.actions[other], routes=[])
    with pytest.raises(IllegalAction, match=rf"^run_routes by {stale['entity']} is not "
                                            r"possible now: \w+ waits for "):
        game.process(action_from_dict(stale))
    assert game.round is not None  # the game stands where it was


@pytest.mark.parametrize("compat", [False, True])
def test_a_yellow_zone_minor_does_not_count_against_the_limit(compat: bool) -> None:
    """RB 4.2.3: a company's certificates in the yellow zone do not count, minors
    included (18xx.games ``counts_for_limit`` of the market cell; differential
    1822CA-WRS seed 31020: minor 30 at $35)."""
    game = _game(compat)
    _float(game, "30", 35)
    _float(game, "12", 60)
    game.shares["30_0"].owner = "100"
    game.shares["12_0"].owner = "100"
    assert game.num_certs("100") == 1  # minor 12 at $60 only
    game.move_price("12", "down", 2)
    assert game.price("12") < 50 and game.num_certs("100") == 0


def test_a_destination_city_move_carries_its_token_type() -> None:
    """18xx.games finds the destination token by the ``place_token``'s ``token_type``
    ("Corporation does not have a destination token unused" without it: differential
    1822CA seed 31006 at fcf145d); the moves offered for a multi-city destination name it."""
    from desk18xx.engine.actions import HexToken
    from desk18xx.titles.g1822ca import offers as O

    game = _game(False)
    _float(game, "ICR", 100)
    orr = OperatingRound(game, 1)
    step = next(s for s in orr.steps if isinstance(s, DestinationToken))
    step.corp = lambda: "ICR"  # type: ignore[method-assign]
    step.is_current = lambda entity: entity == "ICR"  # type: ignore[method-assign]
    game.destination_connected = lambda corp: [0, 1]  # type: ignore[method-assign]
    game.destination_cities = lambda corp: [0, 1]  # type: ignore[method-assign]
    out = [m for o in O._city_destinations(game, step, "ICR")
           for m in o.moves("ICR", "corporation")]
    assert out and all(isinstance(m, PlaceToken) and m.token_type == "destination"
                       for m in out)
    assert sorted(m.city for m in out if isinstance(m, PlaceToken)) == sorted(
        game.map.city_id("AH8", c) for c in (0, 1))
    by_hex = O._hex_destinations(game, step, "ICR")
    assert len(by_hex) == 1 and "name the city" in (by_hex[0].why_not or "")
    assert not by_hex[0].moves("ICR", "corporation")
    assert not any(isinstance(m, HexToken) for m in out)


def test_the_sawmill_goes_to_a_hex_of_the_scenario_map() -> None:
    """P13 (supplement §6.1): the Eastern scenario's map has no D16; 18xx.games cannot
    read an assignment there (differential 1822CA-ERS seed 33008)."""
    game = _game(False, "1822CA-ERS")
    assert "D16" in R.SAWMILL_HEXES and "D16" not in game.map
    assert not game.sawmill_place("D16")
    assert any(game.sawmill_place(h) for h in R.SAWMILL_HEXES)


def test_an_emergency_sale_raises_no_more_than_needed() -> None:
    """RB 5.15.3, 5.15.5: the director "may not sell more shares than are needed" for a
    forced train (18xx.games ``selling_minimum_shares?``; differential 1822CA seed
    33004: three GNWR shares sold where one raised enough, refused by the reference)."""
    from desk18xx.engine.offers import ShareOffer
    from desk18xx.titles.g1822ca.steps.trains import BuyTrainStep, min_depot_price

    game = _game(False)
    _float(game, "GT", 100)
    _float(game, "CPR", 100)
    game.shares["GT_0"].owner = "100"
    game.shares["CPR_0"].owner = "101"
    for n in range(1, 4):
        game.shares[f"CPR_{n}"].owner = "100"
    game.operating_history["CPR"] = 2
    game.cash["100"] = game.cash["GT"] = 0
    orr = OperatingRound(game, 1)
    game.round = orr
    assert orr.current() == "GT"
    for step in orr.steps:
        if isinstance(step, BuyTrainStep):
            break
        step.pass_(game)
    assert isinstance(orr.active_step(game), BuyTrainStep)
    need = min_depot_price(game)
    assert need is not None and 0 < need <= 100  # one CPR share at $100 is enough
    sales = {len(o.shares): o for o in game.offers("100", ("sell_shares",))
             if isinstance(o, ShareOffer) and o.corporation == "CPR"}
    assert sales[1].why_not is None
    assert sales[2].why_not is not None and "more than needed" in sales[2].why_not
    assert sales[3].why_not is not None and "RB 5.15.5" in sales[3].why_not


@pytest.mark.parametrize("compat", [False, True])
def test_the_tax_haven_takes_the_first_certificate_by_arrival_under_compat(
        compat: bool) -> None:
    """18xx.games' P11 takes ``ipo_shares.first``, the treasury's longest-held certificate
    (a redeemed share comes last; differential 1822CA-WRS seed 33002); the rulebook does
    not say, so rulebook mode keeps the lowest number."""
    from desk18xx.titles.g1822ca.steps.stock import BuySellParShares

    game = _game(compat)
    _float(game, "GT", 100)
    game.shares["GT_1"].owner = "pool"
    game.shares["GT_1"].owner = "GT"   # issued and redeemed: the newest in the treasury
    step = next(s for s in StockRound(game).steps if isinstance(s, BuySellParShares))
    step._tax_haven(game, "GT_ipo")
    held = [s.id for s in game.shares.values() if s.owner == R.TAX_HAVEN]
    assert held == (["GT_2"] if compat else ["GT_1"])


def test_the_grant_builds_nowhere_near_a_big_city_or_a_120_mountain() -> None:
    """Supplement §6.1 P21: "may not be used to build on hexes with mountainous terrain
    costing $120 or in Montréal, Ottawa, Québec, Toronto or Winnipeg" (differential
    1822CA seed 33002: the grant laid a 9 on E13)."""
    game, _orr, special, laid = _big_city_turn(False, "P21")
    for hex_id in ("E13", "AF12"):
        with pytest.raises(IllegalAction, match="P21 may not build .*supplement §6.1 P21"):
            special.process(game, LayTile("P21", entity_type="company", hex=hex_id,
                                          tile="9-0"))
    assert laid == []
    assert game.grant_hex_problem("AF16") is None


def test_a_forced_purchase_on_a_tie_of_prices_is_the_next_new_train() -> None:
    """RB 5.14.3: a forced purchase is "the cheapest train from the bank (including any
    trains in the bank pool)"; on a tie the rulebook is silent, and 18xx.games takes the
    first cheapest of the depot's list, the next new train before the pool's
    (``check_for_cheapest_train``; differential 1822CA seed 36005: PGE's $500 pool 5P
    beside a new $500 5, refused by the reference)."""
    from desk18xx.engine.actions import BuyTrain
    from desk18xx.engine.offers import TrainOffer
    from desk18xx.engine.state import POOL
    from desk18xx.titles.g1822ca.steps.trains import BuyTrainStep

    game = _game(False)
    _float(game, "GT", 100)
    game.shares["GT_0"].owner = "100"
    game.cash["100"] = game.cash["GT"] = 0
    fives = [t for t in game.depot if game.train_base[t] == "5"]
    game.depot[:] = fives + [t for t in game.depot if t not in fives]  # a new 5 is next
    spare = game.trains["5P-0"]
    spare.owner, spare.pooled = POOL, 1
    orr = OperatingRound(game, 1)
    game.round = orr
    assert orr.current() == "GT"
    for step in orr.steps:
        if isinstance(step, BuyTrainStep):
            break
        step.pass_(game)
    assert isinstance(orr.active_step(game), BuyTrainStep)
    offers = {o.train: o for o in game.offers("GT", ("buy_train",)) if isinstance(o, TrainOffer)}
    assert game.trains[fives[0]].price == spare.price == 500
    assert offers[fives[0]].why_not is None
    why = offers["5P-0"].why_not
    assert why is not None and "RB 5.14.3" in why and "the 5 at $500" in why
    with pytest.raises(IllegalAction, match="cheapest train"):
        game.process(BuyTrain(entity="GT", entity_type="corporation", train="5P-0", price=500,
                              variant="5P"))
    game.process(BuyTrain(entity="GT", entity_type="corporation", train=fives[0], price=500,
                          variant="5"))
    assert game.trains[fives[0]].owner == "GT"


@pytest.mark.parametrize("compat", [False, True])
def test_m13s_rondel_space_stays_open_when_its_token_leaves(compat: bool) -> None:
    """RB 7.1.3: a major acquiring M13 that moves an exchange token to its charter leaves
    "the space vacated by the M13 token" open for another company's station (18xx.games
    ``min_city_slots``: Toronto's M13 city keeps one slot more; differential 1822CA seed
    36011: GWR's token in that space refused to us, offered by the reference)."""
    game = _game(compat)
    _float(game, "GWR", 100)
    _float(game, "13", 60)
    game.shares["GWR_0"].owner = "100"
    game.shares["13_0"].owner = "101"
    game.transfer(BANK, "GWR", 500)
    # M13's home token goes beside M12's reserved space: the rondel adds a slot
    game.map.place_token("AC21", 0, "13", cheater=True)
    assert len(game.map.hex("AC21").tokens[0]) == 2
    orr = OperatingRound.__new__(OperatingRound)
    game.acquire_minor("GWR", "13", 0, "exchange", orr)
    st = game.map.hex("AC21")
    assert st.tokens[0] == (None, None)  # M12's reserved space and the open rondel space
    assert st.reserved[0][0] == "12" and st.reserved[0][1] is None


def test_a_pending_token_is_not_offered_in_a_city_the_major_is_in() -> None:
    """RB 5.8.3 (one token of a major per city) also holds for the token a major places
    on acquiring M13 from the bid boxes (RB 7.1.4): the offers grey GT's own Toronto
    city with the rule, as the placement refuses it (playout 1822CA-ERS seed 40065 had
    drawn that offer and been refused)."""
    from desk18xx.engine.actions import PlaceToken
    from desk18xx.engine.offers import TokenOffer

    game = _game(False)
    _float(game, "GT", 100)
    game.shares["GT_0"].owner = "100"
    game.transfer(BANK, "GT", 500)
    game.place_token("GT", "AC21", 1, 0)
    orr = OperatingRound(game, 1)
    game.round = orr
    orr.pending_tokens.append(("GT", ("AC21",), 0))  # no route needed at no cost
    offers = {o.city: o for o in game.offers("GT", (PlaceToken.type,))
              if isinstance(o, TokenOffer)}
    own = offers[game.map.city_id("AC21", 1)]
    assert own.why_not is not None and "RB 5.8.3" in own.why_not
    assert offers[game.map.city_id("AC21", 0)].why_not is None
    with pytest.raises(IllegalAction, match="RB 5.8.3"):
        game.process(PlaceToken(entity="GT", entity_type="corporation",
                                city=game.map.city_id("AC21", 1)))


@pytest.mark.parametrize("compat", [False, True])
def test_two_shares_for_a_minor_past_the_limit_only_from_a_yellow_zone_major(
        compat: bool) -> None:
    """RB 5.17.3: a minor's owner at the certificate limit may take one share, not two,
    "unless the major company is in the yellow zone of the stock market" (18xx.games
    ``pay_choices``: ``!entity.counts_for_limit``).  Differential 1822CA-ERS seed
    37059: ICR at $5 could pay minor 17's owner two shares; we had skipped the step."""
    from desk18xx.titles.g1822ca.steps.acquisition import MinorAcquisition

    game = _game(compat)
    _float(game, "GT", 40)
    _float(game, "12", 40)
    game.shares["GT_0"].owner = "101"
    game.shares["12_0"].owner = "100"
    game.cert_limit = game.num_certs("100")  # the minor's owner is at the limit
    step = MinorAcquisition.__new__(MinorAcquisition)
    assert "two_shares" in step.pay_choices(game, "GT", "12")  # GT in the yellow zone
    game.move_price("GT", "up", 2)
    assert game.counts_for_limit("GT")
    assert "two_shares" not in step.pay_choices(game, "GT", "12")
