"""Programmed actions: standing orders carried out by the engine, recorded as auto actions."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from desk18xx.commands.replay import import_setup
from desk18xx.engine.actions import (
    Action,
    Bid,
    BuyShares,
    Pass,
    ProgramBuyShares,
    ProgramDisable,
    ProgramMergerPass,
    ProgramSharePass,
    SellShares,
    action_from_dict,
)
from desk18xx.engine.digest import state_digest
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game, GameSetup
from desk18xx.engine.programs import OTHERS_ACTED, describe_program, run_programs
from desk18xx.engine.round import RoundKind
from desk18xx.engine.state import CorpKind
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
SETUP = GameSetup("1867", (("1", "Ann"), ("2", "Bob"), ("3", "Cy")), seed=5)


def to_stock_round(rng: random.Random) -> tuple[Game, list[Action]]:
    """A new 1867 game played at random to its first stock round; the actions played."""
    game = find_title("1867").new_game(SETUP)
    played: list[Action] = []
    while game.round is not None and game.round.kind is not RoundKind.STOCK:
        played.append(run_programs(game, rng.choice(game.legal_moves(rng))))
    return game, played


def current(game: Game) -> str | None:
    assert game.round is not None
    return game.round.current_entity(game)


def test_an_unconditional_share_pass_passes_for_its_player_all_stock_round() -> None:
    rng = random.Random(2)  # a seed where Cy is not first in the stock round
    game, played = to_stock_round(rng)
    cy = "3"
    assert current(game) != cy
    order = run_programs(game, ProgramSharePass(cy, unconditional=True))
    assert order.auto_actions == ()  # not Cy's turn yet
    assert "unconditionally" in describe_program(order)
    played.append(order)
    auto_passes = 0
    while game.round is not None and game.round.kind is RoundKind.STOCK:
        step = game.round.active_step(game)
        if current(game) == cy:  # only to answer a bid in a minor's auction
            assert step is not None and not step.is_normal_pass(game, cy)
            done = run_programs(game, Pass(cy))
        else:
            done = run_programs(game, rng.choice(game.legal_moves(rng)))
        auto_passes += sum(1 for a in done.auto_actions if a == Pass(cy))
        played.append(done)
    assert auto_passes >= 1
    assert game.programs_in_force == {}  # a stock round order ends with the stock round
    # the replay applies the recorded passes and generates nothing: the same game
    fresh = find_title("1867").new_game(SETUP)
    for action in played:
        fresh.process(action_from_dict(action.to_dict()))
    assert state_digest(fresh) == state_digest(game)


def test_a_conditional_share_pass_waits_in_an_auction_and_stops_after_a_change() -> None:
    rng = random.Random(3)
    game, _ = to_stock_round(rng)
    players = [p.id for p in game.players]
    first = current(game)
    assert first is not None
    waiting = players[(players.index(first) + 2) % len(players)]  # asked in the auction
    run_programs(game, ProgramSharePass(waiting))
    bid = next(m for m in game.legal_moves(rng) if isinstance(m, Bid))
    done = run_programs(game, bid)  # a minor is auctioned: its bidders decide themselves
    auction_turns = 0
    for _ in range(50):
        who = current(game)
        assert game.round is not None
        step = game.round.active_step(game)
        assert step is not None and who is not None
        if who == waiting and step.is_normal_pass(game, who):
            break
        if who == waiting:
            auction_turns += 1  # the order does not answer a bid
            assert done.auto_actions == ()
        moves = game.legal_moves(rng)
        done = run_programs(game, next((m for m in moves if isinstance(m, Pass)), moves[0]))
    assert auction_turns == 1
    # the minor was started and its shares changed hands: the order stops itself
    assert current(game) == waiting
    assert [type(a) for a in done.auto_actions] == [ProgramDisable]
    assert done.auto_actions[0].entity == waiting
    assert game.programs_in_force == {}


def test_a_share_pass_with_no_change_passes_at_once() -> None:
    rng = random.Random(4)
    game, _ = to_stock_round(rng)
    me = current(game)
    assert me is not None
    order = run_programs(game, ProgramSharePass(me))  # my turn: the pass rides along
    assert order.auto_actions[:1] == (Pass(me),)
    assert current(game) != me
    assert me in game.programs_in_force  # still in force for my next turn


def test_an_indefinite_share_pass_outlives_the_stock_round() -> None:
    rng = random.Random(5)
    game, _ = to_stock_round(rng)
    run_programs(game, ProgramSharePass("2", unconditional=True, indefinite=True))
    while game.round is not None and game.round.kind is RoundKind.STOCK:
        run_programs(game, rng.choice(game.legal_moves(rng)))
    assert [p.action.type for p in game.programs_in_force["2"]] == ["program_share_pass"]


def test_a_disable_cancels_and_a_new_order_replaces_the_last() -> None:
    game = find_title("1867").new_game(SETUP)
    run_programs(game, ProgramSharePass("1"))
    run_programs(game, ProgramBuyShares("1", corporation="CNR", until_condition=3))
    assert [p.action.type for p in game.programs_in_force["1"]] == ["program_buy_shares"]
    run_programs(game, ProgramDisable("1", reason="by hand"))
    assert game.programs_in_force == {}
    with pytest.raises(IllegalAction, match="only a player"):
        game.process(ProgramSharePass("CNR", entity_type="corporation"))
    with pytest.raises(IllegalAction, match="corporation and a condition"):
        game.process(ProgramBuyShares("1"))
    assert game.programs_in_force == {}  # a refused order changes nothing


def merger_round_game() -> tuple[Game, str, str]:
    """The 1867 fixture replayed to its first merger round with a minor to decide:
    the game, the minor and its owner."""
    imported = load_export(FIXTURES / "1867" / "hs_ahjzadkh_19792.json")
    game = find_title(imported.title).new_game(import_setup(imported))
    for raw in imported.actions:
        game.process(action_from_dict(raw))
        r = game.round
        if r is not None and r.kind is RoundKind.MERGER:
            minor = r.current_entity(game)
            owner = game.owner(minor) if minor is not None else None
            if minor is not None and owner is not None and Pass in r.legal_for(game, minor):
                return game, minor, owner
    raise AssertionError("no merger round in the fixture")


def test_a_merger_pass_passes_for_the_listed_minors_in_the_merger_round() -> None:
    game, minor, owner = merger_round_game()
    mine = sorted(c for c in game.corps if game.owner(c) == owner)
    order = ProgramMergerPass(owner, corporations_by_round=(("MR", tuple(mine)),))
    done = run_programs(game, order)
    assert done.auto_actions[0] == Pass(minor, entity_type="corporation")
    assert all(a.entity in mine for a in done.auto_actions)
    r = game.round
    assert r is None or r.kind is not RoundKind.MERGER or current(game) not in mine
    assert done.to_dict()["corporations_by_round"] == {"MR": mine}
    assert "Pass on mergers" in describe_program(order)


def test_a_merger_pass_skips_minors_not_listed() -> None:
    game, minor, owner = merger_round_game()
    done = run_programs(game, ProgramMergerPass(owner, corporations_by_round=(("MR", ()),)))
    assert done.auto_actions == () and current(game) == minor


@pytest.mark.parametrize("fixture", ["1822CA/1822CA_game_end_bank.json",
                                     "1822CAERS/1822CAERS_game_end_bank.json",
                                     "1822CAWRS/1822CAWRS_game_end_bank.json"])
def test_imported_programs_are_honoured_as_18xx_games_did(fixture: str) -> None:
    """Every pass, buy, cancel or share-pass order 18xx.games' server generated from
    the players' programmed actions is generated again here from the same programs, in
    the same order, for the same players, the same certificates; and nothing where the
    server generated nothing while orders were in force. The reasons of the cancels
    agree too, but for one cancel in the ERS game where 18xx.games names another bid
    box it had seen outbid (both say the program stops)."""
    imported = load_export(FIXTURES / fixture)
    game = find_title(imported.title).new_game(import_setup(imported))
    compared, same_reasons, generated = 0, 0, 0
    for raw in imported.actions:
        action = action_from_dict(raw)
        recorded = [(a.type, a.entity, _reason(a)) for a in action.auto_actions]
        if game.programs_in_force and all(
                kind in ("pass", "program_disable", "program_share_pass", "buy_shares")
                for kind, _, _ in recorded):  # also where the orders did nothing
            trial = game.copy()
            again = [(a.type, a.entity, _reason(a)) for a in
                     run_programs(trial, dataclasses.replace(action, auto_actions=())).auto_actions]
            assert [a[:2] for a in again] == [a[:2] for a in recorded], f"id {raw.get('id')}"
            compared += 1
            generated += bool(recorded)
            same_reasons += again == recorded
        game.process(action)
    assert generated >= 20
    assert same_reasons >= compared - 1


def _reason(action: Action) -> str | tuple[str, ...] | None:
    """A cancel's reason, without the player's name (the fixtures' names are scrubbed);
    the certificates a buy takes."""
    if isinstance(action, BuyShares):
        return action.shares
    if not isinstance(action, ProgramDisable) or action.reason is None:
        return None
    reason = action.reason
    return reason[reason.index(" bought on "):] if " bought on " in reason else reason


def test_a_buy_order_buys_at_its_players_turn_until_its_condition() -> None:
    imported = load_export(FIXTURES / "1867" / "21268.json")
    game = find_title(imported.title).new_game(import_setup(imported))
    rng = random.Random(0)
    for raw in imported.actions:  # to a stock round turn where a share can be bought
        r = game.round
        player = current(game) if r is not None else None
        if r is not None and r.kind is RoundKind.STOCK and player in game.player_ids:
            buys = [m for m in game.legal_moves(rng) if isinstance(m, BuyShares)
                    and game.shares[m.shares[0]].owner == game.shares[m.shares[0]].corp]
            if buys:
                break
        game.process(action_from_dict(raw))
    assert player is not None
    corp = game.shares[buys[0].shares[0]].corp
    have = game.num_shares_of(player, corp)
    order = ProgramBuyShares(player, corporation=corp, until_condition=have + 1,
                             auto_pass_after=True)
    done = run_programs(game, order)
    assert isinstance(done.auto_actions[0], BuyShares)
    assert done.auto_actions[0].entity == player
    assert game.num_shares_of(player, corp) == have + 1
    assert "Buy" in describe_program(order) and "until 1 shares" not in describe_program(order)
    # at the player's next turn the condition is met: the order ends in a share pass
    ended: Action | None = None
    while ended is None and game.round is not None and game.round.kind is RoundKind.STOCK:
        moves = game.legal_moves(rng)
        done = run_programs(game, next((m for m in moves if isinstance(m, Pass)), moves[0]))
        if any(isinstance(a, ProgramDisable) for a in done.auto_actions):
            ended = done
    assert ended is not None
    assert [(a.type, a.entity) for a in ended.auto_actions][:3] == [
        ("program_disable", player), ("program_share_pass", player), ("pass", player)]
    assert ended.auto_actions[0] == ProgramDisable(
        player, reason=f"{have + 1} share(s) bought in {corp}, end condition met")


def stock_turn_with_a_sale(fixture: str) -> tuple[Game, str]:
    """A fixture replayed to a stock round turn where the player to act could sell and
    pass: the game and that player."""
    imported = load_export(FIXTURES / fixture)
    game = find_title(imported.title).new_game(import_setup(imported))
    for raw in imported.actions:
        game.process(action_from_dict(raw))
        r = game.round
        player = current(game) if r is not None else None
        if r is not None and r.kind is RoundKind.STOCK and player in game.player_ids:
            assert player is not None
            legal = r.legal_for(game, player)
            if SellShares in legal and Pass in legal:
                return game, player
    raise AssertionError("no stock round turn with a sale in the fixture")


def over_the_limit(fixture: str) -> tuple[Game, str]:
    """As `stock_turn_with_a_sale`, with the certificate limit one under the player's
    certificates: the player must sell."""
    game, player = stock_turn_with_a_sale(fixture)
    limited: Any = game
    limited.cert_limit = game.num_certs(player) - 1
    return game, player


@pytest.mark.parametrize("fixture", ["1822CA/1822CA_game_end_bank.json", "1867/21268.json"])
def test_a_player_over_the_certificate_limit_only_sells_and_no_order_passes(
        fixture: str) -> None:
    """18xx ``must_sell?``: only a sale is offered, so neither a conditional nor an
    unconditional share pass passes; the order stays for the turn after the sale."""
    for unconditional in (False, True):
        game, player = over_the_limit(fixture)
        assert game.round is not None
        assert game.round.legal_for(game, player) == (SellShares,)
        done = run_programs(game, ProgramSharePass(player, unconditional=unconditional))
        assert done.auto_actions == ()
        assert current(game) == player
        assert [p.action.type for p in game.programs_in_force[player]] == ["program_share_pass"]


def test_an_order_stops_when_its_player_must_sell_shares(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Should a step still offer a pass to a player who must sell, a conditional share
    pass stops with 18xx.games' reason (``should_stop_applying_program``) rather than
    passing; an unconditional one passes."""
    game, player = over_the_limit("1822CA/1822CA_game_end_bank.json")
    assert game.round is not None
    step = game.round.active_step(game)
    assert step is not None and step.must_sell(game, player)
    monkeypatch.setattr(step, "legal", lambda game, entity: (SellShares, Pass))
    trial = game.copy()
    done = run_programs(game, ProgramSharePass(player))
    assert done.auto_actions == (
        ProgramDisable(player, reason=f"{game.name_of(player)} must sell shares"),)
    assert player not in game.programs_in_force and current(game) == player
    trial_step = trial.round.active_step(trial) if trial.round is not None else None
    assert trial_step is not None
    monkeypatch.setattr(trial_step, "legal", lambda game, entity: (SellShares, Pass))
    done = run_programs(trial, ProgramSharePass(player, unconditional=True))
    assert done.auto_actions[:1] == (Pass(player),)


def merger_round_after_a_conversion() -> tuple[Game, Action, str, tuple[str, ...]]:
    """The 1867 fixture 21268 replayed into a merger round where NYC was formed, to a
    minor's turn: the game, the fixture's next action (that minor passes), and the
    owner of the next minors with those minors."""
    imported = load_export(FIXTURES / "1867" / "21268.json")
    game = find_title(imported.title).new_game(import_setup(imported))
    actions = [action_from_dict(raw) for raw in imported.actions]
    for index, action in enumerate(actions):
        game.process(action)
        r: Any = game.round
        minor = current(game)
        if r is not None and r.kind is RoundKind.MERGER \
                and any(game.corps[e].kind is CorpKind.MAJOR for e in r.entities) \
                and minor in game.corps and Pass in r.legal_for(game, minor):
            following = actions[index + 1]
            assert (following.type, following.entity) == ("pass", minor)
            trial = game.copy()
            trial.process(following)
            owner = trial.owner(str(current(trial)))
            assert owner is not None and owner != game.owner(minor)
            mine = tuple(sorted(c for c in game.corps if game.owner(c) == owner
                                and game.corps[c].kind is CorpKind.MINOR))
            return game, following, owner, mine
    raise AssertionError("no merger round after a conversion in the fixture")


def test_a_merger_pass_with_disable_others_stops_once_a_minor_converted_or_merged() -> None:
    """18xx ``ProgrammerMergerPass``: at the next turn of one of the player's minors
    after the order, a conversion or merger in this round stops it with 18xx.games'
    reason; without the option the order passes for the listed minors."""
    game, following, owner, mine = merger_round_after_a_conversion()
    plain = game.copy()
    order = ProgramMergerPass(owner, corporations_by_round=(("MR", mine),),
                              options=("disable_others",))
    assert run_programs(game, order).auto_actions == ()  # not the owner's turn yet
    done = run_programs(game, following)
    assert done.auto_actions == (ProgramDisable(owner, reason=OTHERS_ACTED),)
    assert owner not in game.programs_in_force and current(game) in mine
    run_programs(plain, dataclasses.replace(order, options=()))
    done = run_programs(plain, following)
    assert done.auto_actions and all(
        isinstance(a, Pass) and a.entity in mine for a in done.auto_actions)


def test_a_merger_pass_given_at_the_minors_turn_passes_even_after_a_conversion() -> None:
    """While the order is the last entry it is not stopped (18xx
    ``@game.actions.last != program``): its passes ride along with it."""
    game, following, owner, mine = merger_round_after_a_conversion()
    game.process(following)
    minor = current(game)
    assert minor in mine
    done = run_programs(game, ProgramMergerPass(owner, corporations_by_round=(("MR", mine),),
                                                options=("disable_others",)))
    assert done.auto_actions[:1] == (Pass(str(minor), entity_type="corporation"),)
    assert not any(isinstance(a, ProgramDisable) for a in done.auto_actions)
