"""RB §12 "Easy to Miss Rules": one test per bullet (issue 16).

Bullets tested elsewhere (named here so the list is complete):
- acquisition payments, two times the minor's price in money, one or two shares:
  ``test_abilities.py::test_minor_acquisition_payment_forms``,
  ``test_rules.py::test_minor_acquisition_payment_choices``;
- the exchange token replaces the minor's or becomes available:
  ``test_abilities.py::test_minor_token_replaced_by_an_exchange_token``;
- only one L-train on each token: ``test_g1822ca_divergences.py::
  test_two_l_trains_may_not_run_in_the_same_city``;
- a minor's first-turn L: ``test_rules.py::test_first_turn_l_from_the_pool_in_rulebook_mode``;
- red privates for majors only: ``test_rules.py::test_acquirable_privates_follow_colour_and_phase``;
- E-train and Pullman runs in recorded games: ``test_abilities.py::
  test_special_trains_and_bonuses_are_priced_exactly`` (the synthetic runs below fix the rule).
"""

from __future__ import annotations

import pytest

from desk18xx.engine.actions import LayTile, Pass
from desk18xx.engine.game import GameSetup
from desk18xx.engine.ids import HexId
from desk18xx.engine.map import upgrades as U
from desk18xx.engine.map.routes import Route, RouteContext, Stop, Train
from desk18xx.engine.state import BANK, DEPOT
from desk18xx.engine.tiledef import NodeKind
from desk18xx.titles.g1822ca import rules as R
from desk18xx.titles.g1822ca.game import G1822CA
from desk18xx.titles.g1822ca.revenue import Rules1822CA, route_train
from desk18xx.titles.g1822ca.rounds import OperatingRound
from desk18xx.titles.g1822ca.steps.acquisition import AcquisitionTrack, MinorAcquisition
from desk18xx.titles.g1822ca.steps.operating import TrackStep

SEED = 337421161


def _game(compat: bool = False) -> G1822CA:
    ids = tuple((str(100 + i), f"P{i}") for i in range(4))
    return G1822CA(GameSetup("1822CA", ids, SEED, ("compat_18xxgames",) if compat else ()))


def _float(game: G1822CA, corp: str, price: int, owner: str = "100") -> None:
    cells = {c.price: c.coord for c in game.market.cells.values()}
    game.market.place(corp, cells[price])
    game.corps[corp].ipoed = game.corps[corp].floated = True
    game.shares[f"{corp}_0"].owner = owner


# -- Setup and Map -----------------------------------------------------------------------
@pytest.mark.parametrize("compat", [False, True])
def test_each_side_of_a_river_costs_its_own_fee(compat: bool) -> None:
    """RB 5.7.26: "building into each side of a river costs $20 or $40"."""
    game = _game(compat)
    board, rules = game.board, game.track_rules
    assert U.lay_cost(board, "AA13", board.tile_def("9"), 0, rules).total == 20  # edges 0, 3
    assert U.lay_cost(board, "AA13", board.tile_def("9"), 2, rules).total == 0   # away from it
    U.lay_tile(board, "AA13", board.next_copy("9"), 0, rules)
    # the hex across the river (AA15, edge 3) pays its own side: $40 for the crossing
    rot = next(r for r in range(6)
               if U.rotation_problem(board, "AA15", board.tile_def("57"), r, rules) is None
               and 3 in U.geometry(board.tile_def("57"), r).exits)
    assert U.lay_cost(board, "AA15", board.tile_def("57"), rot, rules).total == 20


@pytest.mark.parametrize("compat", [False, True])
def test_big_city_lays_cost_20_40_60_80(compat: bool) -> None:
    """RB 5.7.30: Montreal, Ottawa, Quebec, Toronto, Winnipeg cost $20/$40/$60/$80 by colour
    (the green Montreal here also points at its river: $20 more, RB 5.7.26)."""
    game = _game(compat)
    board, rules = game.board, game.track_rules
    for name, rotation, upgrade, river in (("M1", 0, 20, 0), ("M2", 0, 40, 20),
                                           ("M4", 0, 60, 0), ("M7", 1, 80, 0)):
        tile = board.tile_def(name)
        assert U.upgrade_problem(board, "AF12", tile, rules) is None
        assert U.rotation_problem(board, "AF12", tile, rotation, rules) is None
        cost = U.lay_cost(board, "AF12", tile, rotation, rules)
        assert [u.cost for u in cost.terrain] == [upgrade], name
        assert sum(b.cost for b in cost.borders) == river, name
        U.lay_tile(board, "AF12", board.next_copy(name), rotation, rules)


@pytest.mark.parametrize("compat", [False, True])
def test_m13_home_costs_twenty_dollars_and_is_its_track_lay(compat: bool) -> None:
    """RB §12, 7.1.4: M13 starts in Toronto and pays $20 for its home token; this counts
    as its track lay (no lay in that first turn)."""
    game = _game(compat)
    game.corps["13"].floated = True
    assert game.corps["13"].tokens[0].price == R.MINOR_13_TOKEN_PRICE == 20
    orr = OperatingRound.__new__(OperatingRound)
    orr.pending_tokens = []
    game.start_turn("13", orr)
    assert orr.pending_tokens == [("13", ("AC21",), 20)]
    assert not game.map.tokens_of("13")  # M13 chooses the Toronto city
    step = TrackStep.__new__(TrackStep)
    step.is_current = lambda entity: True  # type: ignore[method-assign]
    step.lay_options = lambda game: (True, True)  # type: ignore[method-assign]
    assert step.legal(game, "13") == ()
    game.operating_history["13"] = 1
    assert LayTile in step.legal(game, "13")


@pytest.mark.parametrize("compat", [False, True])
def test_cpr_has_montreal_and_vancouver_stations(compat: bool) -> None:
    """RB §12, 5.8.6: the CPR has two home stations, Montreal and Vancouver; the Vancouver
    token is its destination token (its bonus needs a route joining the two)."""
    game = _game(compat)
    _float(game, "CPR", 100)
    orr = OperatingRound.__new__(OperatingRound)
    orr.pending_tokens = []
    game.start_turn("CPR", orr)
    assert game.map.tokens_of("CPR") == [("AF12", 1), ("C15", 0)]
    vancouver = [t for t in game.map.hex("C15").tokens[0] if t is not None]
    assert [(t.corp, t.kind) for t in vancouver] == [("CPR", "destination")]
    assert game.destination_at["CPR"] == ("C15", 0)


# -- Minor acquisition -------------------------------------------------------------------
def _pair(game: G1822CA) -> None:
    _float(game, "GT", 100, "100")
    cells = {c.price: c.coord for c in game.market.cells.values()}
    game.market.place("12", cells[60])
    game.corps["12"].floated = True
    game.shares["12_0"].owner = "101"
    game.place_token("12", "AC21", 0, 0)
    game.place_token("GT", "AC21", 1, 0)


@pytest.mark.parametrize("compat", [False, True])
def test_acquisition_never_takes_the_owner_past_the_certificate_limit(compat: bool) -> None:
    """RB §12: the shares paid "may not cause a player to exceed their certificate limit":
    two shares for the one minor certificate add one; one share for it adds none."""
    game = _game(compat)
    _pair(game)
    game.transfer(BANK, "GT", 500)
    step = MinorAcquisition.__new__(MinorAcquisition)
    assert step.pay_choices(game, "GT", "12") == ["money", "one_share", "two_shares"]
    spare = [c for c in game.companies.values() if c.owner is None and not c.closed]
    while game.num_certs("101") < game.cert_limit:
        spare.pop().owner = "101"
    assert step.pay_choices(game, "GT", "12") == ["money", "one_share"]


@pytest.mark.parametrize("compat", [False, True])
def test_a_bonus_lay_follows_an_acquisition(compat: bool) -> None:
    """RB 5.17.13: after the acquisition the major gets a bonus track action."""
    game = _game(compat)
    _pair(game)
    game.transfer(BANK, "GT", 500)
    orr = OperatingRound.__new__(OperatingRound)
    orr.acquiring_major = None
    step = AcquisitionTrack.__new__(AcquisitionTrack)
    step.is_current = lambda entity: True  # type: ignore[method-assign]
    step.orr = lambda: orr  # type: ignore[method-assign]
    assert step.legal(game, "GT") == ()
    game.acquire_minor("GT", "12", 0, "exchange", orr)
    orr.acquiring_major = "GT"  # MinorAcquisition.process sets it so
    assert step.legal(game, "GT") == (LayTile, Pass)


# -- Trains ------------------------------------------------------------------------------
def _stop(hex_id: str, revenue: int, corps: tuple[str, ...] = (),
          kind: NodeKind = NodeKind.CITY) -> Stop:
    return Stop(HexId(hex_id), 0, kind, revenue, 0, (), corps)


def _e_run(game: G1822CA, visits: tuple[Stop, ...]) -> tuple[Rules1822CA, RouteContext, Route]:
    rules = Rules1822CA(game, "GT")
    train = Train("E-0", R.E_TRAIN, 99, 2)
    route = Route(train, "GT", (), visits)
    ctx = RouteContext(game.map, None, "GT", (), [route])  # type: ignore[arg-type]
    return rules, ctx, route


def test_e_train_counts_only_its_own_tokens_doubled() -> None:
    """RB 5.11 / §12: an E-train includes every token of its company on the route, skips
    every other stop, and doubles each tokened station."""
    game = _game()
    visits = (_stop("A1", 30, ("GT",)), _stop("A2", 50, ("CPR",)),
              _stop("A3", 10, (), NodeKind.TOWN), _stop("A4", 40, ("GT", "CPR")))
    rules, ctx, route = _e_run(game, visits)
    rules.check_route(ctx, route)
    stops = rules.select_stops(ctx, route)
    assert [s.hex for s in stops] == ["A1", "A4"]
    assert rules.revenue(ctx, route, stops) == (30 + 40) * 2


def test_e_train_destination_is_quadrupled_from_home() -> None:
    """RB §12: "destination stations are quadrupled if running from home to the destination"."""
    game = _game()
    visits = (_stop("H1", 40, ("GT",)), _stop("X1", 20, ("GT",)), _stop("D1", 30, ("GT",)))
    rules, ctx, route = _e_run(game, visits)
    rules.home, rules.destination = ("H1", 0), ("D1", 0)
    stops = rules.select_stops(ctx, route)
    assert rules.revenue(ctx, route, stops) == 40 * 2 + 20 * 2 + 30 * 4


def test_pullman_towns_do_not_count_against_the_train() -> None:
    """RB §12: a Pullman lets a train include towns without counting them: a 3-train with
    the Pullman still visits three cities, and towns besides."""
    game = _game()
    tid = next(t for t in game.depot if game.train_base[t] == "3")
    plain = route_train(game, tid)
    assert plain.distance == 3
    game.train_with_pullman = tid
    dist = route_train(game, tid).distance
    assert not isinstance(dist, int)
    towns = next(p for p in dist if p.nodes == frozenset({"town"}))
    cities = next(p for p in dist if "city" in p.nodes)
    assert cities.pay == cities.visit == 3 and towns.visit >= 3


@pytest.mark.parametrize("compat", [False, True])
def test_p1_five_train_may_be_taken_at_the_train_limit(compat: bool) -> None:
    """RB §12: P1's 5-train may go to a company that already has its limit of trains; the
    company then discards a train."""
    game = _game(compat)
    _float(game, "GT", 100)
    limit = game.train_limit("GT")
    for _ in range(limit):
        tid = next(t for t in game.depot if game.train_base[t] in ("3", "4"))
        game.give_train(game.trains[tid], "GT")
    assert not game.crowded("GT")
    game.companies["P1"].owner = "100"
    game.acquire_private("GT", "P1")
    assert game.trains[R.PRIVATE_TRAINS["P1"]].owner == "GT"
    assert game.trains[R.PRIVATE_TRAINS["P1"]].owner != DEPOT
    assert game.crowded("GT") and "GT" in game.crowded_corps()
