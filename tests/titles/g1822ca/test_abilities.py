"""Minor acquisitions with each payment and token form, destinations, special trains and
private abilities as exercised by the recorded games (RB 5.8.6, 5.9, 5.14, 6)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from desk18xx.engine.actions import RunRoutes, action_from_dict
from desk18xx.engine.game import GameSetup
from desk18xx.engine.state import BANK
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles.g1822ca.game import G1822CA
from desk18xx.titles.g1822ca.rounds import OperatingRound

FIXTURES = Path(__file__).resolve().parents[3].parent / "shared" / "fixtures" / "18xx.games"
ERS = FIXTURES / "1822CAERS" / "1822CAERS_game_end_bank.json"
WRS = FIXTURES / "1822CAWRS" / "1822CAWRS_game_end_bank.json"
FULL = FIXTURES / "1822CA" / "1822CA_game_end_bank.json"
ONE = FIXTURES / "1822CA" / "1.json"


def new_game() -> G1822CA:
    ids = tuple((str(100 + i), f"P{i}") for i in range(4))
    return G1822CA(GameSetup("1822CA", ids, 337421161, ("compat_18xxgames",)))


def setup_pair(g: G1822CA, major_price: int = 100, minor_price: int = 60) -> OperatingRound:
    """GT floated (owner 100) and minor 12 in Toronto city 0 (owner 101)."""
    cells = {c.price: c.coord for c in g.market.cells.values()}
    g.market.place("GT", cells[major_price])
    g.corps["GT"].ipoed = g.corps["GT"].floated = True
    g.shares["GT_0"].owner = "100"
    g.market.place("12", cells[minor_price])
    g.corps["12"].floated = True
    g.shares["12_0"].owner = "101"
    g.transfer(BANK, "12", 30)
    g.place_token("12", "AC21", 0, 0)
    g.place_token("GT", "AC21", 1, 0)
    return OperatingRound.__new__(OperatingRound)


@pytest.mark.parametrize(("form", "shares", "gt_cash", "owner_cash"), [
    ("money", 0, 500 - 120 + 30, 525 + 120),
    ("one_share", 1, 500 - 20 + 30, 525 + 20),
    ("two_shares", 2, 500 + 80 + 30, 525 - 80),
])
def test_minor_acquisition_payment_forms(form: str, shares: int, gt_cash: int,
                                         owner_cash: int) -> None:
    g = new_game()
    orr = setup_pair(g)
    g.transfer(BANK, "GT", 500)
    g.acquire_minor("GT", "12", shares, "exchange", orr)
    assert g.cash["GT"] == gt_cash and g.cash["101"] == owner_cash
    assert g.percent_of("101", "GT") == 10 * shares
    assert g.corps["12"].closed and not g.map.tokens_of("12")
    assert g.exchange_tokens["GT"] == 2 and g.corps["GT"].tokens[-1].price == 100


def test_minor_token_replaced_by_an_exchange_token() -> None:
    g = new_game()
    orr = setup_pair(g)
    g.transfer(BANK, "GT", 500)
    g.acquire_minor("GT", "12", 0, "replace", orr)
    assert sorted(g.map.tokens_of("GT")) == [("AC21", 0), ("AC21", 1)]
    assert g.exchange_tokens["GT"] == 2


def test_destination_city_follows_the_printed_exit() -> None:
    g = new_game()
    assert g.destination_city("GNWR", "N16") == 1  # Winnipeg through edge 3
    g.place_destination("GNWR", "N16", None)
    assert "GNWR" in g.destinated
    assert any(t.kind == "destination" and t.corp == "GNWR"
               for t in g.map.hex("N16").tokens[1] if t is not None)


def _replay(path: Path) -> tuple[G1822CA, Counter[str]]:
    imported = load_export(path)
    game = G1822CA(GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                             imported.seed, ("compat_18xxgames",)))
    seen: Counter[str] = Counter()
    for raw in imported.actions:
        action = action_from_dict(raw)
        for a in (action, *action.auto_actions):
            seen[a.type] += 1
            if isinstance(a, RunRoutes):
                for r in a.routes:
                    name = game.trains[r.train].name
                    seen[f"train:{name}"] += 1
                    if "($" in (r.revenue_str or ""):
                        seen["destination_bonus"] += 1
                    if "Grain" in (r.revenue_str or "") or "Port" in (r.revenue_str or ""):
                        seen["grain_or_port"] += 1
        game.process(action)
    return game, seen


@pytest.fixture(scope="module")
def ers() -> tuple[G1822CA, Counter[str]]:
    return _replay(ERS)


def test_special_trains_and_bonuses_are_priced_exactly(ers: tuple[G1822CA, Counter[str]]
                                                       ) -> None:
    game, seen = ers
    assert game.route_problems == []
    for kind in ("train:E", "train:2P", "train:5", "destination_bonus", "choose"):
        assert seen[kind] > 0, kind  # the fixture exercises it


def test_private_abilities_used_in_the_eastern_scenario(ers: tuple[G1822CA, Counter[str]]
                                                        ) -> None:
    game, seen = ers
    # P28 token swap, P29 town removal, P12 advanced lay were used and closed
    assert game.companies["P28"].closed and game.companies["P29"].closed
    assert seen["choose_ability"] == 1  # the P28 choice
    # P8 paid its purse to the company that acquired it
    assert game.companies["P8"].closed and game.cash["purse:P8"] == 0


def test_winnipeg_station_and_sawmill_in_full_games() -> None:
    game, seen = _replay(ONE)
    assert game.route_problems == []
    game, seen = _replay(FULL)
    assert game.companies["P10"].closed  # an exchange token went to Winnipeg
    assert seen["assign"] == 1 and game.sawmill_hex is not None and game.sawmill_bonus > 0
    assert seen["choose"] > 0 and seen["grain_or_port"] > 0  # Pullman/grain attachments


@pytest.mark.parametrize(("compat", "haven_pays"), [(True, True), (False, False)])
def test_tax_haven_buys_a_share(compat: bool, haven_pays: bool) -> None:
    from desk18xx.engine.actions import ChooseAbility

    ids = tuple((str(100 + i), f"P{i}") for i in range(4))
    g = G1822CA(GameSetup("1822CA", ids, 337421161, ("compat_18xxgames",) if compat else ()))
    setup_pair(g)
    g.companies["P11"].owner = "100"
    g.process(ChooseAbility("P11", entity_type="company", choice="GT_ipo"))
    assert g.shares["GT_1"].owner == "P11~haven"
    assert g.cash["100"] == 525 - 100 and g.cash["GT"] == 100
    # GT_0 (20%) plus the haven's 10% count for P11's owner
    assert g.player_value("100") == 525 - 100 + 200 + 100
    # a later purchase (next SR) is paid by the haven in 18xx.games mode only
    g.tax_haven_bought = False
    g.transfer(BANK, "P11~haven", 100)
    g.market.place("CPR", next(c.coord for c in g.market.cells.values() if c.price == 100))
    g.corps["CPR"].ipoed = g.corps["CPR"].floated = True
    from desk18xx.titles.g1822ca.steps.stock import BuySellParShares

    step = g.round.steps[-1] if g.round is not None else None
    assert isinstance(step, BuySellParShares)
    step.passed = False
    step.bought = False
    player = g.round.entities[g.round.entity_index] if g.round is not None else ""
    g.companies["P11"].owner = player
    cash = g.cash[player]
    g.process(ChooseAbility("P11", entity_type="company", choice="CPR_ipo"))
    assert (g.cash[player] == cash) is haven_pays


@pytest.mark.parametrize("compat", [True, False])
def test_p10_may_instead_free_an_exchange_token_in_rulebook_mode(compat: bool) -> None:
    from desk18xx.engine.errors import IllegalAction

    ids = tuple((str(100 + i), f"P{i}") for i in range(4))
    g = G1822CA(GameSetup("1822CA", ids, 337421161, ("compat_18xxgames",) if compat else ()))
    setup_pair(g)
    g.companies["P10"].owner = "GT"
    if compat:
        with pytest.raises(IllegalAction):
            g.winnipeg_exchange("GT")
        g.winnipeg_token("GT", g.map.city_id("N16", 0), None)
        assert ("N16", 0) in g.map.tokens_of("GT")
        assert g.map.hex("N16").free_slots(0) == 0  # its reserved slots stay, token is extra
    else:
        g.winnipeg_exchange("GT")
        assert g.exchange_tokens["GT"] == 2 and g.corps["GT"].tokens[-1].price == 100
    assert g.companies["P10"].closed


def test_p12_lays_a_plain_tile_one_colour_ahead() -> None:
    from desk18xx.engine.errors import IllegalAction
    from desk18xx.engine.tiledef import Color

    g = new_game()  # phase 1: yellow is the newest colour
    with pytest.raises(IllegalAction):
        g._advanced_colour("AF14", "82", Color.GREEN)  # still white
    g.map.lay_tile("AF14", "9-0", 0)
    assert g._advanced_colour("AF14", "82", Color.GREEN) is Color.GREEN
    with pytest.raises(IllegalAction):
        g._advanced_colour("AF14", "14", Color.GREEN)  # a city tile
    with pytest.raises(IllegalAction):
        g._advanced_colour("AF14", "544", Color.BROWN)  # two colours ahead


_P10_CASE = Path(__file__).resolve().parents[2] / "golden" / "divergences" \
    / "d22_1822ca_acquired_home_beside_p10_token.json"


def _p10_game(order: list[int | dict[str, str]]) -> G1822CA:
    """The d22 playout to CPR's turn with P10 (its action 343), then ``order``."""
    import json

    data = json.loads(_P10_CASE.read_text(encoding="utf-8"))
    acts = data["actions"]
    game = G1822CA(GameSetup("1822CA", tuple((str(p["id"]), p["name"]) for p in data["players"]),
                             data["settings"]["seed"], ("compat_18xxgames",)))
    game.loading = True
    for raw in acts[:343]:
        game.process(action_from_dict(raw))
    for x in order:
        raw = acts[x] if isinstance(x, int) else x
        game.process(action_from_dict({k: v for k, v in raw.items() if k != "id"}))
    return game


def _p10_state(game: G1822CA) -> tuple[object, ...]:
    return (sorted(game.map.tokens_of("CPR")), dict(game.cash), dict(game.exchange_tokens),
            game.companies["P10"].closed, game.legal_actions())


def test_p10_token_at_any_time_of_the_owners_turn() -> None:
    """18xx.games ``SpecialToken`` (``when: owning_corp_or_turn``): CPR may place P10's
    token in its track or train step too, with the same result as in its token step."""
    from desk18xx.engine.actions import PlaceToken
    from desk18xx.engine.errors import IllegalAction

    cpr_pass = {"type": "pass", "entity": "CPR", "entity_type": "corporation"}
    # recorded: acquire P10, pass, lay, pass, P10 token (token step), sell, train, next
    recorded = _p10_game([343, 344, 345, 346, 347, 348, 349, 350])
    assert ("N16", 2) in recorded.map.tokens_of("CPR") and recorded.companies["P10"].closed
    before_lay = _p10_game([343, 344])
    assert before_lay.legal_actions().step == "TrackStep"
    offered = [m for m in before_lay.legal_moves(random.Random(0))
               if isinstance(m, PlaceToken) and m.entity == "P10"]
    assert {m.city for m in offered} >= {"N16-0-2"}
    in_track = _p10_game([343, 344, 347, 345, 346, 348, 349, 350])
    assert _p10_state(in_track) == _p10_state(recorded)
    # token step passed: still open while buying a train
    at_train = _p10_game([343, 344, 345, 346, cpr_pass, 348])
    assert at_train.legal_actions().step == "BuyTrainStep"
    assert any(isinstance(m, PlaceToken) and m.entity == "P10"
               for m in at_train.legal_moves(random.Random(0)))
    in_train = _p10_game([343, 344, 345, 346, cpr_pass, 348, 347, 349, 350])
    assert _p10_state(in_train) == _p10_state(recorded)
    # not once CPR's turn is over
    with pytest.raises(IllegalAction):
        _p10_game([343, 344, 345, 346, cpr_pass, 348, 349, 347])
