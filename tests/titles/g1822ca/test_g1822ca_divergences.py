"""Rules where we differed from 18xx.games or the rulebook (docs/divergences.md).

D4 was found by differential testing; the L-train check by reading the optimizer.

Positions are set up on a fresh game; the generated cases that reproduce them
in full live in tests/golden/test_divergences.py.
"""

from __future__ import annotations

import pytest

from desk18xx.engine.game import GameSetup
from desk18xx.engine.state import BANK
from desk18xx.titles.g1822ca.game import G1822CA
from desk18xx.titles.g1822ca.shares import sell_shares

SEED = 337421161


def _game(players: int = 4) -> G1822CA:
    ids = tuple((str(100 + i), f"P{i}") for i in range(players))
    return G1822CA(GameSetup("1822CA", ids, SEED, ("compat_18xxgames",)))


def _floated_cpr(game: G1822CA) -> None:
    """CPR at $100, operated once, all certificates still in its treasury."""
    cell = next(c for c in game.market.cells.values() if c.price == 100)
    game.market.place("CPR", cell.coord)
    game.corps["CPR"].par_price = 100
    game.corps["CPR"].ipoed = True
    game.operating_history["CPR"] = 1


def test_d4_a_tie_after_a_sale_keeps_the_sitting_director() -> None:
    game = _game()
    _floated_cpr(game)
    p0, p1, _, p3 = (p.id for p in game.players)
    owners = {"CPR_0": p3, "CPR_4": p3, "CPR_1": p1, "CPR_2": p1, "CPR_3": p0}
    for sid, owner in owners.items():
        game.shares[sid].owner = owner
    assert game.president("CPR") == p3
    before = game.cash[BANK]
    # p0 sells: p1 (20%) ties the director p3 (20%) and sits nearer after p0
    sell_shares(game, p0, ("CPR_3",))
    assert game.cash[BANK] < before
    # 18xx share_pool.rb transfer_shares: a tie never moves the directorship
    assert game.president("CPR") == p3
    assert game.shares["CPR_0"].owner == game.shares["CPR_4"].owner == p3
    assert game.shares["CPR_1"].owner == game.shares["CPR_2"].owner == p1


def test_d14_a_director_who_stays_director_sells_an_ordinary_certificate() -> None:
    from desk18xx.engine.errors import IllegalAction
    from desk18xx.titles.g1822ca.steps.trains import sellable_shares

    game = _game()
    _floated_cpr(game)
    game.operating_history["CPR"] = 2
    p0, p1, _, p3 = (p.id for p in game.players)
    # CPR's director's certificate is 10% (RB 3.3.2); p3 holds it and CPR_4, p1 CPR_2
    for sid, owner in {"CPR_0": p3, "CPR_4": p3, "CPR_2": p1}.items():
        game.shares[sid].owner = owner
    # selling either leaves p3 tied with p1, so p3 stays director (RB 3.3.3)
    assert sellable_shares(game, p3, "1") == ["CPR_4"]
    with pytest.raises(IllegalAction, match="stays director"):
        sell_shares(game, p3, ("CPR_0",))
    sell_shares(game, p3, ("CPR_4",))
    assert game.president("CPR") == p3 and game.shares["CPR_2"].owner == p1
    # with nothing else left, the director's certificate goes over to p1
    assert sellable_shares(game, p3, "1") == ["CPR_0"]
    sell_shares(game, p3, ("CPR_0",))
    assert game.president("CPR") == p1


def test_d21_ordinary_certificates_are_sold_before_the_directors() -> None:
    from desk18xx.engine.errors import IllegalAction
    from desk18xx.titles.g1822ca.steps.trains import sellable_shares

    game = _game()
    _floated_cpr(game)
    game.operating_history["CPR"] = 2
    p0, p1, _, p3 = (p.id for p in game.players)
    owners = {"CPR_0": p3, "CPR_4": p3, "CPR_1": p1, "CPR_2": p1, "CPR_3": p1}
    for sid, owner in owners.items():
        game.shares[sid].owner = owner
    # p3 would lose the directorship either way; 18xx.games sells CPR_4 first
    assert sellable_shares(game, p3, "1") == ["CPR_4"]
    with pytest.raises(IllegalAction, match="before the director's certificate"):
        sell_shares(game, p3, ("CPR_0",))
    sell_shares(game, p3, ("CPR_0", "CPR_4"))
    assert game.president("CPR") == p1


def test_two_l_trains_may_not_run_in_the_same_city() -> None:
    from desk18xx.engine.actions import Route
    from desk18xx.engine.errors import IllegalAction
    from desk18xx.titles.g1822ca.revenue import price_routes

    game = _game()
    home = game.corp_defs["1"].home_hexes[0]
    l_trains = [t.id for t in game.trains.values() if t.name == "L"][:2]
    for tid in l_trains:
        game.give_train(game.take_train(tid), "1")
    game.map.place_token(home, 0, "1")
    node = game.map.hex(home).geo.city_nodes[0]
    runs = [Route(train=tid, connections=(("local", home),), hexes=(home,), revenue=0,
                  revenue_str=home, nodes=(f"{home}-{node}",)) for tid in l_trains]
    assert len(price_routes(game, "1", runs[:1])) == 1
    # RB 5.11.10 "Only one L-train may operate on each station token";
    # 18xx g_1822/game.rb check_local_cities
    with pytest.raises(IllegalAction, match="Local train"):
        price_routes(game, "1", runs)


def test_d28_qmoo_reserves_the_whole_of_quebec_while_two_cities_are_open() -> None:
    """18xx G1822CA ``update_home``: after a lay in Quebec, QMOO (not yet operated)
    reserves the one city with an open slot, else the whole hex; a city slot kept for
    QMOO on a two-city Q1 would refuse its home token there (recorded game, action 903)."""
    game = _game()
    before = game.map.hex("AH8")
    assert before.reserved == (("5",), ("QMOO",))
    game.map.lay_tile("AH8", "Q1-0", 0)
    game.update_qmoo_home("AH8")
    st = game.map.hex("AH8")
    assert st.hex_reservations == ("QMOO",)
    assert all("QMOO" not in r for r in st.reserved)
    assert [st.free_slots(c) for c in range(len(st.tokens))] == [1, 1]
    # a station token in the two-slot city leaves one open city: QMOO reserves it
    game.map.place_token("AH8", 0, "CPR")
    game.update_qmoo_home("AH8", tile_trigger=False)
    st = game.map.hex("AH8")
    assert st.hex_reservations == ()
    assert st.reserved[1] == ("QMOO",)


@pytest.mark.parametrize("compat", [True, False])
def test_d35_a_fully_capitalised_major_is_paid_by_the_bank_only_when_it_floats(
        compat: bool) -> None:
    """D35: 18xx.games (``capitalization = :full``) pays certificates bought from the
    treasury of a not yet floated, fully capitalised major into the bank; the rulebook
    (RB 4.8.2) into the treasury. Either way the major has ten times its start price
    once it floats (RB 4.8.4), and the bank's cash differs only before that."""
    from desk18xx.titles.g1822ca.shares import buy_share

    ids = tuple((str(100 + i), f"P{i}") for i in range(4))
    game = G1822CA(GameSetup("1822CA", ids, SEED, ("compat_18xxgames",) if compat else ()))
    _floated_cpr(game)
    cell = next(c for c in game.market.cells.values() if c.price == 80)
    game.market.place("GT", cell.coord)
    game.corps["GT"].par_price = 80
    game.corps["GT"].ipoed = True
    game.float_percent["GT"] = 50
    game.full_capitalisation.add("GT")
    p0, p1 = game.players[0].id, game.players[1].id
    game.shares["GT_0"].owner = p0
    for p in (p0, p1):
        game.transfer(BANK, p, 1000)
    bank = game.cash[BANK]
    buy_share(game, p1, ("GT_1",))
    assert game.cash["GT"] == (0 if compat else 80)
    assert game.cash[BANK] == bank + (80 if compat else 0)
    buy_share(game, p1, ("GT_2",))
    buy_share(game, p0, ("GT_3",))
    assert game.corps["GT"].floated
    assert game.cash["GT"] == 800
    assert game.cash[BANK] == bank + 3 * 80 - 800
