"""Programmed actions: a player's standing orders (18xx.games ``program_*``).

A player gives an order with an ordinary log entry and cancels it with
``program_disable`` (18xx ``lib/engine/step/program.rb``):

- ``program_share_pass``: pass in the stock round whenever it is my turn
  (not to answer a bid in an auction); conditional (the default) until,
  in this stock round, another player starts a corporation, sells, buys
  into one of my corporations that is not secure (I hold under 50%),
  or outbids me in a bid box (1822CA); then the order cancels itself
  with a ``program_disable`` naming why (18xx.games' reasons).
  ``unconditional`` passes regardless; ``indefinite`` keeps the order for
  later stock rounds too.
- ``program_merger_pass`` (1867): pass for my minors listed under
  ``corporations_by_round["MR"]`` in the merger round; with the option
  ``disable_others`` the order cancels itself at one of my minors' turns
  once a minor converted or merged in this merger round, unless the order
  was the last entry (18xx ``ProgrammerMergerPass``: ``others_acted?``).
- ``program_buy_shares``: at my turn buys one share of ``corporation``
  (from the IPO, or the market with ``from_market``) until its condition
  is met (the corporation floated, or I hold ``until_condition`` shares),
  then cancels itself (and gives a share pass if ``auto_pass_after``); it
  stops when no share can be bought or on the share pass's conditions
  (a sale, a buy into my unsecure corporation, being outbid).

A conditional share pass and a buy order also stop when the player must sell
(over the certificate limit; 18xx ``should_stop_applying_program``). Both
titles then offer only a sale, as 18xx.games does, so this is a safeguard.

One order per player is in force: a new one replaces the previous one
(18xx.games ``ALLOW_MULTIPLE_PROGRAMS = false``). At every round change
the orders whose round is over are dropped (18xx ``check_programmed_actions``):
a share pass outside stock rounds unless indefinite, a merger pass outside
merger rounds, a buy order outside stock rounds.

Orders act through `run_programs`: after an action a user takes, it asks
`programmed_actions` what the orders make the next entity do, processes
that too, and returns the action with what it generated in its
``auto_actions`` (as 18xx.games ``process_action(add_auto_actions: true)``
does). The log records them there, so a replay applies exactly those and
generates nothing: deterministic, identical in every copy of a play-by-e-mail
game, and an 18xx.games export (whose server did the same) replays alike.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from desk18xx.engine.actions import (
    Action,
    Bid,
    BuyShares,
    Par,
    Pass,
    ProgramBuyShares,
    ProgramDisable,
    ProgramMergerPass,
    ProgramSharePass,
    SellShares,
)
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.round import RoundKind
from desk18xx.engine.state import POOL

if TYPE_CHECKING:
    from desk18xx.engine.game import Game

PROGRAM_TYPES: Final = frozenset({"program_share_pass", "program_buy_shares",
                                  "program_merger_pass", "program_disable"})
"""Log entries that give or cancel an order."""

MERGER_ROUND_NAME: Final = "MR"
"""18xx.games' short name of the 1867 merger round (key of ``corporations_by_round``)."""

OTHERS_ACTED: Final = "Other players have acted and requested to stop"
"""Why a merger pass with ``disable_others`` stops (18xx.games' words)."""

#: Most actions one user action may set off (a guard; a stock round of passes is far fewer).
MAX_GENERATED: Final = 200


@dataclass(frozen=True, slots=True)
class Program:
    """An order in force."""

    action: Action
    """The ``program_*`` entry that gave it."""
    started: tuple[str, ...] = ()
    """Corporations started when it was given (or when this round began)."""
    since: int = 0
    """Length of the round's share history (`Game.share_history`) when it was given
    (or 0 from the start of a later round): what came before does not count."""
    winning: tuple[str, ...] = ()
    """Bid boxes the player was winning when it was given or at their last turn."""
    given_at: int = -1
    """`Game.entries` when it was given: while unchanged, the order is the last
    entry (18xx ``@game.actions.last == program``)."""

    def describe(self) -> str:
        """The order in words (18xx.games ``to_s``)."""
        return describe_program(self.action)


def describe_program(action: Action) -> str:
    """A ``program_*`` action in words."""
    match action:
        case ProgramSharePass():
            return ("Pass in stock rounds" + (", unconditionally" if action.unconditional else "")
                    + (", indefinitely" if action.indefinite else ""))
        case ProgramMergerPass():
            rounds = dict(action.corporations_by_round)
            corps = ", ".join(str(c) for c in rounds.get(MERGER_ROUND_NAME) or ()) or "none"
            return (f"Pass on mergers in the merger round ({corps})"
                    + (", unless someone else acts" if "disable_others" in action.options
                       else ""))
        case ProgramBuyShares():
            source = "market" if action.from_market else "IPO"
            until = ("floated" if action.until_condition == "float"
                     else f"{action.until_condition} shares")
            return f"Buy {action.corporation} from {source} until {until}"
        case ProgramDisable():
            return f"Stop the programmed action ({action.reason or 'by hand'})"
    return action.type


def programs(game: Game) -> dict[str, list[Program]]:
    """Player id -> the orders in force (read only)."""
    return game.programs_in_force


# --- giving and cancelling orders --------------------------------------------------------

def record(game: Game, action: Action) -> None:
    """Apply a ``program_*`` entry: give, replace or cancel an order.

    Raises:
        IllegalAction: not a player, or a buy order without its corporation or condition.
    """
    if not game.is_player(action.entity):
        raise IllegalAction(f"{action.type}: only a player can program actions, "
                            f"not {action.entity}")
    if isinstance(action, ProgramBuyShares) and (action.corporation is None
                                                 or action.until_condition is None):
        raise IllegalAction("program_buy_shares needs a corporation and a condition")
    orders = game.programs_in_force.setdefault(action.entity, [])
    if orders:  # one order per player: a new order or a cancel replaces the last one
        orders.pop()  # (18xx ``remove_programmed_action``, ALLOW_MULTIPLE_PROGRAMS false)
    if not isinstance(action, ProgramDisable):
        orders.append(Program(action, _started(game),
                              since=len(game.share_history),
                              winning=_winning(game, action.entity),
                              given_at=game.entries))
    if not orders:
        del game.programs_in_force[action.entity]


def drop_stale(game: Game) -> None:
    """At a round change: drop the orders whose round is over (18xx ``disable?``);
    the others start the new round with a clean history."""
    kind = game.round.kind if game.round is not None else None
    started = _started(game)
    for player in list(game.programs_in_force):
        kept = [dataclasses.replace(p, since=0, started=started)
                for p in game.programs_in_force[player] if not _stale(p.action, kind)]
        if kept:
            game.programs_in_force[player] = kept
        else:
            del game.programs_in_force[player]


def _stale(action: Action, kind: RoundKind | None) -> bool:
    match action:
        case ProgramSharePass():
            return kind is not RoundKind.STOCK and not action.indefinite
        case ProgramMergerPass():
            return kind is not RoundKind.MERGER
        case ProgramBuyShares():
            return kind is not RoundKind.STOCK
    return True


TRACKED: Final = frozenset({"buy_shares", "sell_shares", "par", "bid"})
"""Stock round actions a conditional share pass watches (18xx ``track_action``)."""


def observe(game: Game, action: Action) -> None:
    """Note a processed stock round action (called by `Game` for every action): the
    round's share history (18xx ``track_action``), and the bids a programmed player
    is winning after their own turn."""
    if game.round is None or game.round.kind is not RoundKind.STOCK:
        return
    actor = _player_of(game, action.entity)
    if action.type in TRACKED:
        game.share_history.append((actor, _target(game, action), action))
    orders = game.programs_in_force.get(actor or "")
    if orders:
        winning = _winning(game, str(actor))
        orders[:] = [dataclasses.replace(p, winning=winning) for p in orders]


def _player_of(game: Game, entity: str) -> str | None:
    if game.is_player(entity):
        return entity
    if entity in game.corps:
        return game.owner(entity)
    company = game.companies.get(entity)
    return company.owner if company is not None else None


def _started(game: Game) -> tuple[str, ...]:
    return tuple(sorted(c.id for c in game.corps.values() if c.ipoed))


def _winning(game: Game, player: str) -> tuple[str, ...]:
    return game.winning_bids(player) or ()


def _shenanigan(game: Game, player: str, program: Program,
                buying: tuple[str, int] | None = None) -> str | None:
    """Why a conditional share pass or a buy order must stop (18xx
    ``should_stop_applying_program`` and ``action_is_shenanigan?``), or None.

    Args:
        buying: the corporation and percent a buy order is about to take.
    """
    step = game.round.active_step(game) if game.round is not None else None
    if step is not None and step.must_sell(game, player):  # no auto pass over the limit
        return f"{game.name_of(player)} must sell shares"
    for actor, action in _by_actor_and_target(game, program.since):
        if actor == player:
            continue
        match action:
            case Par():
                if buying is None:
                    return f"Corporation {action.corporation} parred"
            case BuyShares():
                corp = _share_corp(game, action.shares)
                if corp is None:
                    continue
                if action.entity == corp:
                    return f"{corp} redeemed a share."
                if game.owner(corp) != player or game.percent_of(player, corp) >= 50:
                    continue
                if buying is not None and buying[0] == corp \
                        and game.percent_of(player, corp) + buying[1] > 50:
                    continue  # the share bought now makes it secure
                return (f"{game.name_of(str(_player_of(game, action.entity)))} bought on "
                        f"corporation {corp} and is unsecure")
            case SellShares():
                return "Shares were sold"
            case Bid():
                target = action.company or action.minor or action.corporation
                if target is not None and target in program.winning:
                    return f"No longer winning bid on {target}"
    new = sorted(set(_started(game)) - set(program.started))
    if new and buying is None and game.winning_bids(player) is None:  # 1867: a minor won at auction
        return f"Corporation {new[0]} parred"
    return None


def _target(game: Game, action: Action) -> str | None:
    match action:
        case BuyShares() | SellShares():
            return _share_corp(game, action.shares)
        case Par():
            return action.corporation
        case Bid():
            return action.company or action.minor or action.corporation
    return None


def _by_actor_and_target(game: Game, since: int) -> list[tuple[str | None, Action]]:
    """The round's share history from `since` on, grouped as 18xx.games'
    ``players_history`` iterates it: by player, then by corporation or company,
    each in the order it first appeared in the round."""
    groups: dict[str | None, dict[str | None, list[tuple[int, Action]]]] = {}
    for index, (actor, target, action) in enumerate(game.share_history):
        groups.setdefault(actor, {}).setdefault(target, []).append((index, action))
    return [(actor, action) for actor, targets in groups.items()
            for entries in targets.values() for index, action in entries if index >= since]


def _share_corp(game: Game, shares: tuple[str, ...]) -> str | None:
    share = game.shares.get(shares[0]) if shares else None
    return share.corp if share is not None else None


# --- carrying them out ----------------------------------------------------------------------

def programmed_actions(game: Game) -> list[Action]:
    """What the orders make the entity to act do now (empty: nothing)."""
    if game.finished or game.round is None or not game.programs_in_force:
        return []
    entity = game.round.current_entity(game)
    if entity is None:
        return []
    player = entity if game.is_player(entity) else game.owner(entity)
    if player is None:
        return []
    out: list[Action] = []
    for program in list(game.programs_in_force.get(player, ())):
        out += _activate(game, entity, player, program)
    return out


def _activate(game: Game, entity: str, player: str, program: Program) -> list[Action]:
    assert game.round is not None
    legal = game.round.legal_for(game, entity)
    match program.action:
        case ProgramSharePass() as order:
            if game.round.kind is not RoundKind.STOCK or entity != player or Pass not in legal:
                return []
            step = game.round.active_step(game)
            if step is None or not step.share_programs or not step.is_normal_pass(game, player):
                return []  # another step, or a bid in an auction: the player's own call
            reason = None if order.unconditional else _shenanigan(game, player, program)
            if reason is not None:
                return [ProgramDisable(player, reason=reason)]
            return [Pass(player)]
        case ProgramBuyShares() as order:
            step = game.round.active_step(game)
            if game.round.kind is not RoundKind.STOCK or entity != player or step is None \
                    or not step.share_programs:
                return []
            reason = _bought_enough(game, player, order)
            if reason is not None:
                out: list[Action] = [ProgramDisable(player, reason=reason)]
                if order.auto_pass_after:
                    out.append(ProgramSharePass(player))
                return out
            if BuyShares in legal:
                return _buy(game, player, program, order)
            return []
        case ProgramMergerPass() as order:
            step = game.round.active_step(game)
            if game.round.kind is not RoundKind.MERGER or entity == player or step is None \
                    or not step.merger_programs:
                return []
            if "disable_others" in order.options and game.entries != program.given_at \
                    and step.others_acted(game):
                return [ProgramDisable(player, reason=OTHERS_ACTED)]
            if not step.is_normal_pass(game, entity) or Pass not in legal:
                return []
            listed = dict(order.corporations_by_round).get(MERGER_ROUND_NAME) or ()
            if entity not in listed:
                return []
            return [Pass(entity, entity_type="corporation")]
    return []


def _buy(game: Game, player: str, program: Program, order: ProgramBuyShares) -> list[Action]:
    """The next share a buy order takes, or its cancel (18xx ``activate_program_buy_shares``)."""
    corp = str(order.corporation)
    holder = POOL if order.from_market else corp
    source = "market" if order.from_market else "IPO"
    buys = [m for m in game.legal_moves_of(random.Random(0), ("buy_shares",))
            if isinstance(m, BuyShares) and m.entity == player and m.shares
            and m.shares[0] in game.shares and game.shares[m.shares[0]].corp == corp
            and game.shares[m.shares[0]].owner == holder]
    if not buys:
        return [ProgramDisable(player, reason=f"Cannot buy {corp} from {source}")]
    if len({game.shares[m.shares[0]].percent for m in buys}) > 1:
        return [ProgramDisable(player, reason="Shares of different sizes exist, cannot auto "
                                              f"buy {corp} from {source}")]
    share = game.shares[buys[0].shares[0]]
    reason = _shenanigan(game, player, program, buying=(corp, share.percent))
    if reason is not None:
        return [ProgramDisable(player, reason=reason)]
    return [buys[0]]


def _bought_enough(game: Game, player: str, order: ProgramBuyShares) -> str | None:
    """The end condition of a buy order, in 18xx.games' words, once it is met."""
    corp = game.corps.get(str(order.corporation))
    if corp is None:
        return None
    if order.until_condition == "float":
        return f"{corp.id} is floated" if corp.floated else None
    wanted = order.until_condition
    if isinstance(wanted, int) and game.num_shares_of(player, corp.id) >= wanted:
        return f"{wanted} share(s) bought in {corp.id}, end condition met"
    return None


def run_programs(game: Game, action: Action) -> Action:
    """Process `action`, then whatever the orders make the next entities do.

    Returns:
        `action` with the generated actions in its ``auto_actions`` (record this one).

    Raises:
        IllegalAction: `action` itself is refused (as `Game.process`).
    """
    game.process(action)
    if action.auto_actions or not game.programs_in_force:
        return action  # a recorded action keeps what it carries
    generated: list[Action] = []
    while len(generated) < MAX_GENERATED:
        todo = programmed_actions(game)
        if not todo:
            break
        before = game.actions_applied
        for auto in todo:
            try:
                game.process_auto(auto)
            except IllegalAction:  # validated before any change: the order just stops here
                return _with(action, generated)
            generated.append(auto)
        if game.actions_applied == before and not any(a.type in PROGRAM_TYPES for a in todo):
            break  # nothing moved: do not loop
    return _with(action, generated)


def _with(action: Action, generated: list[Action]) -> Action:
    return dataclasses.replace(action, auto_actions=tuple(generated)) if generated else action


__all__ = ["MERGER_ROUND_NAME", "OTHERS_ACTED", "PROGRAM_TYPES", "TRACKED", "Program",
           "describe_program", "drop_stale", "observe", "programmed_actions", "programs",
           "record", "run_programs"]
