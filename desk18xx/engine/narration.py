"""What an action did, in the players' words: the consequences the engine applied.

An action's own sentence (`desk18xx.engine.describe.describe`) says what a player
chose; this module says what followed from it: who won an auction and for how
much, a private's lowered price, every share price move with its cause, the
money each holder received or paid, loans taken and repaid, trains bought by
the bank or rusted, a new phase, closed companies, tokens that appeared or went,
the end of the game.  It compares two cheap glances of the declared state
(before and after the action, `Glance`), so every title's consequences are
covered by the same code, whatever step applied them.

`Game.process` records the lines in `Game.events` when `Game.narrating` is on
(the application; plain replays leave it off and pay nothing).  The log dock,
the e-mail summary and the mail text read them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from desk18xx.engine.state import BANK, DEPOT, POOL

if TYPE_CHECKING:
    from desk18xx.engine.actions import Action
    from desk18xx.engine.game import Game


@dataclass(frozen=True, slots=True)
class Glance:
    """The part of the state whose changes the log reports."""

    cash: Mapping[str, int]
    prices: Mapping[str, int]
    loans: Mapping[str, int]
    trains: Mapping[str, tuple[str, bool]]
    """Train id -> (owner, rusted)."""
    phase: str
    privates: Mapping[str, tuple[str | None, bool, int]]
    """Private id -> (owner, closed, minimum bid)."""
    closed: frozenset[str]
    floated: frozenset[str]
    tokens: Mapping[str, tuple[tuple[str, int | None], ...]]
    """Corporation -> the (hex, city) of its tokens on the map."""
    bids: Mapping[str, tuple[str, int]]
    """Company in a bid box -> its winning bidder and bid (titles with bid boxes, stock
    rounds)."""
    presidents: Mapping[str, str]
    """Corporation -> the holder of its president's certificate (players only)."""
    round: tuple[str, int] | None
    """(kind, number) of the round, None between rounds."""
    finished: bool
    end_reason: str | None


def glance(game: Game) -> Glance:
    """A `Glance` of ``game`` now (cheap: a few dictionaries)."""
    return Glance(
        cash=dict(game.cash),
        prices={c: game.market.price(c) for c in game.market.where},
        loans={c.id: c.loans for c in game.corps.values()},
        trains={t.id: (t.owner, t.rusted) for t in game.trains.values()},
        phase=game.phase.name if game.phases else "",
        privates={c.id: (c.owner, c.closed, c.min_bid) for c in game.companies.values()},
        closed=frozenset(c.id for c in game.corps.values() if c.closed),
        floated=frozenset(c.id for c in game.corps.values() if c.floated),
        tokens={c.id: tuple((t.hex, t.city) for t in c.tokens if t.hex is not None)
                for c in game.corps.values()},
        bids=_winning_bids(game),
        presidents={s.corp: s.owner for s in game.shares.values()
                    if s.president and s.owner in game.player_ids},
        round=None if game.round is None else (game.round.kind.value, game.round.round_num),
        finished=game.finished,
        end_reason=game.end_reason,
    )


def _winning_bids(game: Game) -> dict[str, tuple[str, int]]:
    if game.round is None or game.round.kind.value != "stock":
        return {}
    view = game.bid_boxes()
    if view is None:
        return {}
    return {box.company: (bid.player, bid.price) for box in view.boxes for bid in box.bids
            if bid.winning}


@lru_cache(maxsize=8)
def _place_names(title: str) -> Mapping[str, str]:
    from desk18xx.engine.data import load_title

    try:
        data = load_title(title)
    except Exception:  # noqa: BLE001 - names are cosmetic; ids stay readable
        return {}
    return {h: d.location_name for h, d in data.hexes.items() if d.location_name}


def place(game: Game, hex_id: str | None) -> str:
    """``"Ottawa (J12)"``, or the hex id where the map gives no name."""
    if hex_id is None:
        return "?"
    name = _place_names(game.title_id.split("-")[0]).get(hex_id) or \
        _place_names(game.title_id).get(hex_id)
    return f"{name} ({hex_id})" if name else hex_id


def money(amount: int) -> str:
    """``$40``, ``-$40``."""
    return f"-${-amount}" if amount < 0 else f"${amount}"


def who(game: Game, entity: str) -> str:
    """A player's name, ``Minor 6`` for a numbered minor, a corporation's id."""
    if entity == BANK:
        return "the bank"
    if entity == POOL:
        return "the market"
    name = game.name_of(entity)
    if entity in game.corps and entity.isdigit():
        return f"Minor {entity}"
    return name


def _train_kind(game: Game, tid: str) -> str:
    train = game.trains.get(tid)
    return train.name if train is not None else tid.split("-")[0]


_DIRECT = frozenset({"bid", "par", "buy_shares", "sell_shares", "buy_company", "buy_train",
                     "lay_tile", "place_token", "hex_token", "take_loan", "payoff_loan"})
"""Actions whose own sentence says what the acting entity paid."""

_CAUSE = {
    "run_routes": "operating", "dividend": "dividend", "sell_shares": "shares sold",
    "buy_shares": "shares bought", "pass": "end of turn", "par": "start",
    "take_loan": "loan", "payoff_loan": "repayment", "merge": "merger",
}


def consequences(game: Game, action: Action, before: Glance, after: Glance) -> list[str]:
    """The lines of what ``action`` changed beyond its own sentence, in a stable order."""
    lines: list[str] = []
    actor = action.entity
    if after.phase != before.phase:  # first: what follows happens because of it
        lines.append(f"Phase {after.phase} begins")
    # privates: auctions won, sales, closures, lowered prices
    winners: set[str] = set()
    settled = {cid for cid in before.bids if cid not in after.bids
               and after.privates.get(cid) != before.privates.get(cid)}
    for cid in sorted(settled):  # a bid box won (1822CA RB 4.2)
        bidder, price = before.bids[cid]
        lines.append(f"{who(game, bidder)} wins {cid} for {money(price)}")
        winners.add(bidder)
    for cid, (owner, shut, low) in sorted(after.privates.items()):
        old = before.privates.get(cid)
        if old is None or cid in settled:
            continue
        old_owner, was_shut, old_low = old
        if owner != old_owner and owner is not None and _is_holder(game, owner) \
                and not shut and not (action.type == "buy_company" and owner == actor):
            paid = before.cash.get(owner, 0) - after.cash.get(owner, 0)
            fresh = old_owner is None or not _is_holder(game, old_owner)
            verb = "wins" if action.type in ("bid", "pass") and fresh else "gets"
            for_ = f" for {money(paid)}" if paid > 0 else ""
            lines.append(f"{who(game, owner)} {verb} {cid}{for_}")
            winners.add(owner)
        if shut and not was_shut:
            lines.append(f"{cid} closes")
        if owner == old_owner and not _is_holder(game, owner) and low != old_low and not shut:
            lines.append(f"{cid}'s price drops to {money(low)}")
    # presidents: auctions and purchases that start a company, changes of president
    named: set[str] = set()
    for corp, president in sorted(after.presidents.items()):
        old_president = before.presidents.get(corp)
        if president == old_president:
            continue
        if old_president is None:
            cost = before.cash.get(president, 0) - after.cash.get(president, 0)
            if president in winners:
                named.update({president, corp})  # said with the company it came from
            elif action.type in ("bid", "pass") and cost > 0:
                lines.append(f"{who(game, president)} wins {who(game, corp)} for {money(cost)}")
                named.update({president, corp})
            elif action.type != "par":
                lines.append(f"{who(game, president)} is president of {who(game, corp)}")
        else:
            lines.append(f"{who(game, president)} becomes president of {who(game, corp)} "
                         f"(was {who(game, old_president)})")
    # money: who received or paid what (beyond what the lines above and the action say)
    involved = ({actor} | _direct_other(action)) if action.type in _DIRECT else set()
    if action.type == "buy_train":  # the seller's payment is the train's price
        involved.add(before.trains.get(str(getattr(action, "train", "")), ("", False))[0])
    involved |= named | winners
    involved |= {c for c, n in after.loans.items() if n != before.loans.get(c, n)}
    changes = []
    for holder in sorted(set(after.cash) | set(before.cash)):
        delta = after.cash.get(holder, 0) - before.cash.get(holder, 0)
        if delta == 0 or not _is_holder(game, holder) or holder in involved:
            continue
        changes.append((holder, delta))
    if changes:
        cause = _money_cause(action, before, after, changes)
        received = [(h, d) for h, d in changes if d > 0]
        outgoing = [(h, d) for h, d in changes if d < 0]
        if received:
            text = ", ".join(f"{who(game, h)} {money(d)}" for h, d in received)
            lines.append(f"Receives: {text}" + (f" ({cause})" if cause else ""))
        if outgoing:
            text = ", ".join(f"{who(game, h)} {money(-d)}" for h, d in outgoing)
            lines.append(f"Pays: {text}" + (f" ({cause})" if cause else ""))
    # share prices
    for corp in sorted(set(after.prices) | set(before.prices)):
        old_price, new_price = before.prices.get(corp), after.prices.get(corp)
        if old_price is None and new_price is not None:
            if action.type != "par":
                lines.append(f"{who(game, corp)} enters the market at {money(new_price)}")
        elif new_price is not None and old_price != new_price and old_price is not None:
            way = "rises" if new_price > old_price else "falls"
            cause = _price_cause(action, before, after, corp, new_price > old_price)
            lines.append(f"{who(game, corp)}'s share price {way} from {money(old_price)} "
                         f"to {money(new_price)}" + (f" ({cause})" if cause else ""))
    # loans
    for corp in sorted(after.loans):
        delta = after.loans[corp] - before.loans.get(corp, 0)
        if delta > 0 and action.type != "take_loan":
            many = "a loan" if delta == 1 else f"{delta} loans"
            lines.append(f"{who(game, corp)} takes {many} (now {after.loans[corp]})")
        elif delta < 0 and action.type != "payoff_loan":
            many = "a loan" if delta == -1 else f"{-delta} loans"
            lines.append(f"{who(game, corp)} repays {many} (now {after.loans[corp]})")
    # trains: rusted, exported, moved without a purchase of them
    rusted = [t for t, (_o, r) in after.trains.items()
              if r and not before.trains.get(t, ("", r))[1]]
    if rusted:
        by_kind: dict[str, list[str]] = {}
        for tid in sorted(rusted):
            by_kind.setdefault(_train_kind(game, tid), []).append(tid)
        for kind, tids in sorted(by_kind.items()):
            owners = sorted({who(game, before.trains[t][0]) for t in tids
                             if _is_holder(game, before.trains[t][0])})
            whose = f": {', '.join(owners)} lose theirs" if owners else ""
            lines.append(f"The {kind}-trains rust{whose}")
    bought = getattr(action, "train", None)
    bank_side = {DEPOT, BANK, POOL}
    for tid, (holder, rust) in sorted(after.trains.items()):
        was_holder = before.trains.get(tid, (holder, rust))[0]
        owner = holder if _is_entity(game, holder) else BANK
        old_owner = was_holder if _is_entity(game, was_holder) or was_holder in bank_side \
            else BANK
        if owner == old_owner or rust or tid == bought or (
                action.type == "buy_train" and owner == actor):
            continue
        if owner in (DEPOT, BANK, POOL) and old_owner == DEPOT:
            lines.append(f"The bank exports a {_train_kind(game, tid)}-train")
        elif owner in (DEPOT, POOL) and old_owner not in (DEPOT, BANK, POOL):
            lines.append(f"{who(game, old_owner)} discards its {_train_kind(game, tid)}-train")
        elif owner not in (DEPOT, BANK, POOL):
            lines.append(f"{who(game, owner)} gets a {_train_kind(game, tid)}-train"
                         + (f" from {who(game, old_owner)}" if old_owner != DEPOT else ""))
    # companies started, closed; tokens that appeared or went
    for corp in sorted(after.floated - before.floated):
        lines.append(f"{who(game, corp)} floats")
    gone = sorted(after.closed - before.closed)
    if len(gone) > 2:
        lines.append("Close: " + ", ".join(who(game, c) for c in gone))
    else:
        lines.extend(f"{who(game, corp)} closes" for corp in gone)
    placed_by_action = action.type in ("place_token", "hex_token")
    added = {corp: sorted(set(after.tokens[corp]) - set(before.tokens.get(corp, ())), key=str)
             for corp in sorted(after.tokens)}
    removed = {corp: sorted(set(before.tokens.get(corp, ())) - set(after.tokens[corp]),
                            key=str) for corp in sorted(after.tokens)}
    taken: set[tuple[str, str]] = set()
    for corp, hexes in added.items():
        for hex_id, _city in hexes:
            if placed_by_action and corp == actor:
                continue
            previous = next((c for c, old in removed.items() if c != corp
                             and any(h == hex_id for h, _c in old)), None)
            if previous is not None:
                taken.add((previous, hex_id))
                lines.append(f"{who(game, corp)} takes over {who(game, previous)}'s token "
                             f"in {place(game, hex_id)}")
            else:
                lines.append(f"{who(game, corp)}'s token goes to {place(game, hex_id)}")
    for corp, hexes in removed.items():
        for hex_id, _city in hexes:
            if (corp, hex_id) not in taken:
                lines.append(f"{who(game, corp)}'s token in {place(game, hex_id)} is removed")
    if after.finished and not before.finished:
        reason = (after.end_reason or "").replace("_", " ")
        lines.append(f"The game ends ({reason})" if reason else "The game ends")
    return lines


def _is_holder(game: Game, holder: str | None) -> bool:
    """A player or a corporation (not the bank, the pool, a purse or the depot)."""
    return holder is not None and (holder in game.corps or holder in game.player_ids)


def _is_entity(game: Game, holder: str) -> bool:
    return holder in game.corps or holder in game.player_ids or holder in (DEPOT, POOL)


def _won_privates(before: Glance, after: Glance) -> set[str]:
    """Players who got a private by this action (their payment is in that line)."""
    return {owner for cid, (owner, _s, _l) in after.privates.items()
            if owner is not None and before.privates.get(cid, (owner, False, 0))[0] != owner}


def _money_cause(action: Action, before: Glance, after: Glance,
                 changes: list[tuple[str, int]]) -> str | None:
    if after.closed - before.closed:
        return "for the companies that close"
    if after.round != before.round and after.round is not None \
            and after.round[0] == "operating" and all(d > 0 for _h, d in changes):
        return "private income"
    kind = before.round[0] if before.round is not None else None
    if kind == "operating":
        if all(h in after.loans and d < 0 and before.loans.get(h, 0) > 0 for h, d in changes):
            return "interest"
        if all(h in after.loans and d > 0 for h, d in changes):
            return "revenue kept"
        if any(d > 0 and h not in after.loans for h, d in changes):
            return "dividends"
    if action.type == "buy_company":
        return "sale of a private"
    return _CAUSE.get(action.type) if action.type != "pass" else None


def _price_cause(action: Action, before: Glance, after: Glance, corp: str,
                 up: bool) -> str | None:
    kind = before.round[0] if before.round is not None else None
    if action.type == "sell_shares":
        return "shares sold"
    if kind == "operating" and action.entity == corp or action.type in ("run_routes",
                                                                          "dividend"):
        return "dividend paid" if up else "no dividend"
    if kind == "stock" and after.round != before.round:
        return "sold out at the end of the stock round" if up else "end of the stock round"
    return _CAUSE.get(action.type) if action.type != "pass" else None


def _direct_other(action: Action) -> set[str]:
    """The counterparty an action's own sentence names (a train's seller)."""
    other = set()
    for name in ("corporation", "minor"):
        value = getattr(action, name, None)
        if isinstance(value, str):
            other.add(value)
    return other


__all__ = ["Glance", "consequences", "glance", "money", "place", "who"]
