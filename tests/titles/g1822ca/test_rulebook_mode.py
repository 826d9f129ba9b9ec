"""Rulebook mode against ``compat_18xxgames`` (docs/rules-notes.md, 1822CA table)."""

from __future__ import annotations

import dataclasses
import random
from typing import TypeVar

import pytest

from desk18xx.engine.actions import AcquireCompany as AcquireCompanyAction
from desk18xx.engine.actions import Action, BuyTrain, Choose, LayTile, Merge, Pass
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import GameSetup
from desk18xx.engine.round import Step
from desk18xx.engine.state import BANK, DEPOT
from desk18xx.titles.g1822ca.game import G1822CA
from desk18xx.titles.g1822ca.rounds import OperatingRound
from desk18xx.titles.g1822ca.steps.acquisition import MinorAcquisition
from desk18xx.titles.g1822ca.steps.operating import SpecialTrack, TrackStep
from desk18xx.titles.g1822ca.steps.trains import BuyTrainStep

SEED = 337421161
S = TypeVar("S", bound=Step)


def _game(title: str, compat: bool) -> G1822CA:
    ids = tuple((str(100 + i), f"P{i}") for i in range(4))
    options = ("compat_18xxgames",) if compat else ()
    return G1822CA(GameSetup(title, ids, SEED, options))


def _depot_sevens(game: G1822CA) -> list[str]:
    return [tid for tid in game.depot if game.train_base[tid] == "7"]


@pytest.mark.parametrize("title", ["1822CA-ERS", "1822CA-WRS"])
@pytest.mark.parametrize("compat", [False, True])
def test_scenario_seven_e_supply(title: str, compat: bool) -> None:
    """RB §9: unlimited 7/E-trains; 18xx.games stocks 20 (row 9)."""
    game = _game(title, compat)
    bought = 0
    while _depot_sevens(game) and bought < 30:
        game.give_train(game.trains[_depot_sevens(game)[0]], "CPR")
        bought += 1
    if compat:
        assert bought == 20 and not _depot_sevens(game)
    else:
        assert bought == 30 and len(_depot_sevens(game)) == 1
        assert all(game.trains[t].owner == "CPR" for t in game.corps["CPR"].trains)
        assert len(set(game.corps["CPR"].trains)) == 30


def test_a_removed_depot_seven_is_replaced_in_rulebook_mode() -> None:
    game = _game("1822CA-ERS", False)
    first = _depot_sevens(game)[0]
    game.remove_train(game.trains[first])
    assert game.trains[first].owner != DEPOT
    assert len(_depot_sevens(game)) == 1 and _depot_sevens(game)[0] != first


def _grant_turn(compat: bool) -> tuple[G1822CA, OperatingRound, SpecialTrack, TrackStep,
                                        list[str]]:
    """GT floated, owning P21, at the start of its OR turn; tile lays are recorded
    (their placement rules are tested elsewhere)."""
    game = _game("1822CA", compat)
    cells = {c.price: c.coord for c in game.market.cells.values()}
    game.market.place("GT", cells[100])
    game.corps["GT"].ipoed = game.corps["GT"].floated = True
    game.shares["GT_0"].owner = "100"
    game.companies["P21"].owner = "GT"
    game.corps["GT"].companies.append("P21")
    laid: list[str] = []
    game.lay_tile = lambda corp, hex_id, *a, **k: laid.append(hex_id)  # type: ignore[method-assign]
    orr = OperatingRound(game, 1)
    special = next(s for s in orr.steps if isinstance(s, SpecialTrack))
    track = next(s for s in orr.steps if isinstance(s, TrackStep))
    return game, orr, special, track, laid


def _grant_lay(game: G1822CA, special: SpecialTrack, hex_id: str) -> None:
    special.process(game, LayTile("P21", entity_type="company", hex=hex_id, tile="8-0"))


def test_p21_keeps_unused_grant_lays_in_rulebook_mode() -> None:
    """The card: "may close this company to place three yellow tiles" (row 12)."""
    game, orr, special, track, laid = _grant_turn(compat=False)
    _grant_lay(game, special, "AF14")
    track.process(game, Pass("GT", entity_type="corporation"))
    p21 = game.companies["P21"]
    assert not p21.closed and "P21" in game.corps["GT"].companies
    orr.reset_turn()  # a later turn: the two remaining lays are still there
    assert track.ability_blocks(game, "GT")
    _grant_lay(game, special, "AF16")
    assert not p21.closed
    _grant_lay(game, special, "AG15")
    assert p21.closed and "P21" not in game.corps["GT"].companies
    assert laid == ["AF14", "AF16", "AG15"]
    assert not track.ability_blocks(game, "GT")


def test_p21_loses_unused_grant_lays_with_compat() -> None:
    """18xx.games: once one is used, P21 closes when the track step ends."""
    game, _, special, track, laid = _grant_turn(compat=True)
    _grant_lay(game, special, "AF14")
    assert not game.companies["P21"].closed
    track.process(game, Pass("GT", entity_type="corporation"))
    assert game.companies["P21"].closed and laid == ["AF14"]


@pytest.mark.parametrize("compat", [False, True])
def test_p21_refuses_a_fourth_grant_lay(compat: bool) -> None:
    game, _, special, _, laid = _grant_turn(compat)
    for hex_id in ("AF14", "AF16", "AG15"):
        _grant_lay(game, special, hex_id)
    if not compat:
        assert game.companies["P21"].closed
        assert special.legal(game, "P21") == ()
    with pytest.raises(IllegalAction, match="no grant lay left"):
        _grant_lay(game, special, "AG17")
    assert len(laid) == 3


def _deal_turn(compat: bool) -> tuple[G1822CA, OperatingRound]:
    """Phase 3; GT (director 100) operates; minor 12 (director 101) owns a 3-train."""
    game = _game("1822CA", compat)
    cells = {c.price: c.coord for c in game.market.cells.values()}
    for corp, price, owner in (("GT", 100, "100"), ("12", 60, "101")):
        game.market.place(corp, cells[price])
        game.corps[corp].ipoed = game.corps[corp].floated = True
        game.shares[f"{corp}_0"].owner = owner
        game.operating_history[corp] = 2
    game.place_token("12", "AC21", 0, 0)
    game.place_token("GT", "AC21", 1, 0)
    game.transfer(BANK, "GT", 500)
    for train in ("2", "3"):  # the first 2- and 3-trains: phase 3 (RB 5.12)
        game.train_bought(game.trains[game.depot[0]], train)
    assert game.phase_num == 3
    three = next(t for t in game.trains.values() if t.name == "3" and t.owner == DEPOT)
    game.give_train(three, "12")
    game.companies["P2"].owner = "101"
    game.connects_to_minor = lambda corp, minor: True  # type: ignore[method-assign]
    orr = OperatingRound(game, 1)
    orr.entity_index = orr.entities.index("GT")
    return game, orr


def _step(orr: OperatingRound, cls: type[S]) -> S:
    return next(s for s in orr.steps if isinstance(s, cls))


def _answer(game: G1822CA, orr: OperatingRound, choice: str) -> None:
    orr.process(game, Choose(entity="101", entity_type="player", choice=choice))


@pytest.mark.parametrize("answer", ["consent", "refuse"])
def test_deals_with_another_player_wait_for_consent_in_rulebook_mode(answer: str) -> None:
    """RB 5.6.1 (privates), 5.13.3 (train sales), 5.16.4 (minors): row 8."""
    game, orr = _deal_turn(compat=False)
    agreed = answer == "consent"
    orr.process(game, AcquireCompanyAction(entity="GT", entity_type="corporation",
                                           company="P2"))
    assert orr.consent is not None and orr.current_entity(game) == "101"
    assert game.companies["P2"].owner == "101"
    with pytest.raises(IllegalAction):
        orr.process(game, Pass("GT", entity_type="corporation"))
    _answer(game, orr, answer)
    assert orr.consent is None and orr.current_entity(game) == "GT"
    assert game.companies["P2"].owner == ("GT" if agreed else "101")

    three = game.corps["12"].trains[0]
    _step(orr, BuyTrainStep).process(game, BuyTrain(entity="GT", entity_type="corporation",
                                                    train=three, price=50))
    assert game.trains[three].owner == "12" and game.cash["12"] == 0
    _answer(game, orr, answer)
    assert game.trains[three].owner == ("GT" if agreed else "12")
    assert game.cash["12"] == (50 if agreed else 0)

    merge = _step(orr, MinorAcquisition)
    merge.process(game, Merge(entity="GT", entity_type="corporation", corporation="12"))
    assert merge.state == "select" and orr.consent is not None
    _answer(game, orr, answer)
    assert merge.state == ("pay" if agreed else "select")


def test_deals_need_no_consent_with_compat() -> None:
    game, orr = _deal_turn(compat=True)
    orr.process(game, AcquireCompanyAction(entity="GT", entity_type="corporation",
                                           company="P2"))
    assert game.companies["P2"].owner == "GT" and orr.consent is None
    three = game.corps["12"].trains[0]
    _step(orr, BuyTrainStep).process(game, BuyTrain(entity="GT", entity_type="corporation",
                                                    train=three, price=50))
    assert game.trains[three].owner == "GT" and orr.consent is None
    merge = _step(orr, MinorAcquisition)
    merge.process(game, Merge(entity="GT", entity_type="corporation", corporation="12"))
    assert merge.state == "pay" and orr.consent is None


def test_a_deal_between_ones_own_companies_needs_no_consent() -> None:
    game, orr = _deal_turn(compat=False)
    game.shares["12_0"].owner = "100"
    three = game.corps["12"].trains[0]
    _step(orr, BuyTrainStep).process(game, BuyTrain(entity="GT", entity_type="corporation",
                                                    train=three, price=50))
    assert game.trains[three].owner == "GT" and orr.consent is None


def test_a_refused_deal_is_not_put_again_in_the_same_turn() -> None:
    """Row 8: once the other player refuses, the same private, minor or train cannot be
    asked for again this turn (random play does not offer it either); another turn may."""
    game, orr = _deal_turn(compat=False)
    ask = AcquireCompanyAction(entity="GT", entity_type="corporation", company="P2")
    orr.process(game, ask)
    _answer(game, orr, "refuse")
    with pytest.raises(IllegalAction, match="refused"):
        orr.process(game, ask)
    assert orr.consent is None and game.companies["P2"].owner == "101"
    moves = game_moves(game, orr)
    assert not any(m.type == "acquire_company" and getattr(m, "company", None) == "P2"
                   for m in moves)
    three = game.corps["12"].trains[0]
    buy = BuyTrain(entity="GT", entity_type="corporation", train=three, price=50)
    _step(orr, BuyTrainStep).process(game, buy)
    _answer(game, orr, "refuse")
    with pytest.raises(IllegalAction, match="refused"):
        _step(orr, BuyTrainStep).process(game, dataclasses.replace(buy, price=60))
    orr.reset_turn()
    _step(orr, BuyTrainStep).process(game, buy)
    assert orr.consent is not None


def game_moves(game: G1822CA, orr: OperatingRound) -> list[Action]:
    """Random play's moves (drawn from the offers) with ``orr`` the round."""
    game.round = orr
    assert orr.active_step(game) is not None
    return game.legal_moves(random.Random(0))
