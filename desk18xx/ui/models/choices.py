"""What the entity that must act may do, as concrete choices for the action panel.

The engine says who acts and which action types are open
(:meth:`Game.legal_actions`); this module turns each type into buttons and
small forms with the values the state allows (bid ranges in $5 steps, par
prices, shares on offer, trains and prices).  The engine still validates
every submitted action and its refusal reason is shown to the player.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from desk18xx.engine.actions import (
    AcquireCompany,
    Action,
    Bid,
    BuyCompany,
    BuyShares,
    BuyTrain,
    Choose,
    Convert,
    Dividend,
    Merge,
    Par,
    Pass,
    PayoffLoan,
    RunRoutes,
    SellShares,
    TakeLoan,
)
from desk18xx.engine.bidding import BidBoxView
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game, LegalActions
from desk18xx.engine.market import CellType
from desk18xx.engine.offers import Offer, ParOffer, ShareOffer, match_offer
from desk18xx.engine.state import DEPOT, POOL, CorpKind

#: 1867: smallest opening bid for a minor in a stock round (card: "SR Minors").
MIN_MINOR_BID = 100
BID_STEP = 5


@dataclass(frozen=True, slots=True)
class Choice:
    """One button, optionally with a number or an option list.

    ``make`` builds the action from the chosen value (the spin box value or
    the option key); ``None`` when the choice needs no value.
    """

    label: str
    make: Callable[[int | str | None], Action]
    group: str = ""
    """Heading the panel shows the choice under."""
    spin: tuple[int, int, int, int] | None = None
    """(minimum, maximum, step, default) of a number to choose."""
    options: tuple[tuple[str, str], ...] = ()
    """(key, label) pairs to choose from."""
    hint: str = ""
    disabled: str = ""
    """Why the choice is not open now (shown greyed with this tooltip); empty if it is."""
    disabled_options: tuple[tuple[str, str], ...] = ()
    """(key, reason) of options shown but not open now."""


@dataclass(frozen=True, slots=True)
class TurnInfo:
    """Who acts, in which round and step, and what they may do."""

    entity: str | None
    entity_name: str
    round_label: str
    step_label: str
    types: tuple[str, ...]
    choices: tuple[Choice, ...] = ()
    details: dict[str, object] = field(default_factory=dict)
    map_types: tuple[str, ...] = ()
    """Types done on the map (``lay_tile``, ``place_token``, ``run_routes``)."""


_STEP_NAMES = {
    "PrivateAuction": "Bid or pass",
    "FirstTurnHousekeeping": "Buy an L-train before the first run (optional)",
    "BuySellParShares": "Buy, sell or start",
    "HomeToken": "Place the home token",
    "Track": "Lay track",
    "TokenStep": "Place a token",
    "RouteStep": "Run trains",
    "DividendStep": "Pay dividends",
    "BuyTrainStep": "Buy trains",
    "DiscardTrains": "Discard a train",
    "MajorTrainless": "Trainless major",
    "BuyCompanyStep": "Buy a private",
    "BuyCompanyBlocking": "Buy a private",
    "RedeemShares": "Redeem shares",
    "LoanOperations": "Loans",
    "MergeStep": "Convert or merge",
    "ReduceTokens": "Remove tokens",
    "PostMergerShares": "Merger shares",
}
MAP_TYPES = ("lay_tile", "place_token", "run_routes")


def step_name(step: str) -> str:
    """Readable name of an engine step class (``"TrackStep"`` -> ``"Track"``)."""
    if step in _STEP_NAMES:
        return _STEP_NAMES[step]
    base = step.removesuffix("Step") or step
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", base).split()
    return " ".join([words[0]] + [w.lower() for w in words[1:]]) if words else step


def _step_label(step: str, details: dict[str, object]) -> str:
    """The step's name; with the bids left in a 1822CA stock turn once one is placed."""
    made, most = details.get("bids_this_turn"), details.get("bids_per_turn")
    if isinstance(made, int) and isinstance(most, int) and made > 0:
        left = most - made
        return f"{left} more bid{'' if left == 1 else 's'} this turn, or end your turn"
    if details.get("must_buy") is True:
        return f"{step_name(step)}: a company without a train must buy one"
    return step_name(step)


def round_label(game: Game) -> str:
    """``"Stock round 3"``, ``"Operating round 2.1"``…"""
    r = game.view().round()
    if r.finished:
        return "Game over"
    if r.kind is None:
        return ""
    if r.kind == "operating":
        return f"Operating round {r.turn}.{r.number}"
    if r.kind == "merger":
        return f"Merger round {r.turn}.{r.number}"
    if r.kind == "auction":
        return "Private auction"
    return f"Stock round {r.turn}"


def entity_name(game: Game, entity: str | None) -> str:
    """Display name of a player or company id."""
    if entity is None:
        return ""
    if game.is_player(entity):
        return game.name_of(entity)
    corp = game.view().corporation(entity)
    if corp is not None:
        label = f"Minor {entity}" if entity.isdigit() else entity
        return f"{label} ({game.name_of(corp.owner)})" if corp.owner else label
    return entity


def turn_info(game: Game) -> TurnInfo:
    """The acting entity and its choices now."""
    legal = _legal_actions(game)
    entity = legal.entity
    step = legal.step or ""
    info = TurnInfo(entity, entity_name(game, entity), round_label(game),
                    _step_label(step, legal.details), legal.types, (), dict(legal.details),
                    tuple(t for t in legal.types if t in _map_types(game)))
    if entity is None:
        return info
    choices: list[Choice] = []
    for kind in legal.types:
        maker = _MAKERS.get(kind)
        if maker is not None:
            choices.extend(maker(game, entity, legal.details))
    choices = _only_legal(game, choices)
    choices += _from_moves(game, entity, legal.types, choices)
    step_label = info.step_label
    consent = pending_consent(game)
    if consent is not None and consent[0] == entity:  # whose consent, asked by whom
        step_label = (f"{entity_name(game, consent[1].entity)} asks "
                      f"{info.entity_name}'s consent")
    return TurnInfo(info.entity, info.entity_name, info.round_label, step_label,
                    info.types, tuple(choices), info.details, info.map_types)


def pending_consent(game: Game) -> tuple[str, Action] | None:
    """(player, proposed deal) waiting for that player's consent (1822CA rulebook mode:
    a deal with another player's private, minor or train), or None."""
    pending = game.view().pending_consent()
    return None if pending is None else (pending.player, pending.deal)


def deal_text(game: Game, deal: Action) -> str:
    """A proposed deal in words: ``"GT (Ann) takes over P2 (…) from Bob"``."""
    corp = entity_name(game, deal.entity)
    view = game.view()
    c = view.private(deal.company) if isinstance(deal, AcquireCompany) else None
    if isinstance(deal, AcquireCompany) and c is not None:
        owner = f" from {game.name_of(c.owner)}" if c.owner else ""
        name = short_company_name(deal.company, c.name)
        return f"{corp} takes over {deal.company} ({name}){owner}"
    t = view.train(deal.train) if isinstance(deal, BuyTrain) else None
    if isinstance(deal, BuyTrain) and t is not None:
        return f"{corp} buys {entity_name(game, t.owner)}'s {t.name}-train for ${deal.price}"
    if isinstance(deal, Merge) and deal.corporation:
        return f"{corp} acquires {entity_name(game, deal.corporation)}"
    from desk18xx.ui.models.log import describe

    return describe(deal, corp)


#: Button labels of named choices (``choose``); others are shown capitalised.
_CHOICE_LABELS = {
    "consent": "Consent to the deal",
    "refuse": "Refuse the deal",
    "money": "Pay in money",
    "one_share": "Pay with one share",
    "two_shares": "Pay with two shares",
    "exchange": "Exchange the token",
    "replace": "Replace the token",
    "payout": "Pay out",
    "half": "Half pay",
    "withhold": "Withhold",
    "None": "None",
}


def choice_label(choice: str) -> str:
    """The button label of the named choice ``choice``."""
    return _CHOICE_LABELS.get(choice) or choice.replace("_", " ").capitalize()


#: The game (and its action count) the two answers below were asked of.
_ASKED: list[object] = [None, -1, None, None]


def _asked(game: Game) -> list[object]:
    """The memo of :func:`_legal_actions` and :func:`_legal_moves`, cleared when
    ``game`` is another object or has processed an action since (one turn's
    choices ask the engine once each, not once per form)."""
    serial = game.view().round().serial
    if _ASKED[0] is not game or _ASKED[1] != serial:
        _ASKED[:] = [game, serial, None, None]
    return _ASKED


def _legal_actions(game: Game) -> LegalActions:
    memo = _asked(game)
    if memo[2] is None:
        memo[2] = game.legal_actions()
    legal = memo[2]
    assert isinstance(legal, LegalActions)
    return legal


def _legal_moves(game: Game, types: Collection[str] | None = None) -> list[Action]:
    """``game.legal_moves`` (only those of ``types`` if given, which spares the
    engine moves nobody looks at) with the fixed seed the panel samples with."""
    memo = _asked(game)
    if memo[3] is None:
        memo[3] = {}
    known = memo[3]
    assert isinstance(known, dict)
    key = None if types is None else frozenset(types)
    moves = known.get(key)
    if moves is None:
        moves = known[key] = (game.legal_moves(random.Random(0)) if key is None
                              else game.legal_moves_of(random.Random(0), key))
    assert isinstance(moves, list)
    return moves


#: Action types whose concrete moves the engine lists completely (no sampling).
_EXACT = ("buy_shares", "sell_shares", "buy_train")


def _key(action: Action) -> tuple[object, ...]:
    match action:
        case BuyShares():
            return (action.type, action.shares)
        case SellShares():
            corp = action.shares[0].rpartition("_")[0] if action.shares else ""
            return (action.type, corp)
        case BuyTrain():
            return (action.type, action.train, action.exchange)
    return (action.type,)


def _only_legal(game: Game, choices: list[Choice]) -> list[Choice]:
    """Drop share and train choices the engine would refuse: by its offers where
    they decide the action at the engine's door (`desk18xx.engine.offers`), else
    by the title's move list.

    Titles that list no moves (``legal_moves`` returns nothing) keep every
    choice; the engine still refuses an illegal one when it is submitted.
    """
    samples = [_sample(c) for c in choices]
    if not any(a is not None and a.type in _EXACT for a in samples):
        return choices  # nothing to check: do not ask for (possibly costly) moves
    decided = _by_offers(game, choices, samples)
    undecided = [c for c, d in zip(choices, decided, strict=True) if d is _UNDECIDED]
    by_moves = iter(_by_moves(game, undecided) if undecided else [])
    out: list[Choice] = []
    for d in decided:
        kept = next(by_moves) if d is _UNDECIDED else d
        if isinstance(kept, Choice):
            out.append(kept)
    return out


_UNDECIDED = object()
"""A choice no offer decides (`_by_offers`): the title's move list does."""


def _decided(game: Game, sample: Action | None) -> tuple[Offer, ...] | None:
    """The offers that decide ``sample`` at the engine's door, or None where the
    title leaves it to its steps (then the move list decides)."""
    if sample is None or sample.type not in game.offered_types():
        return None
    return game.deciding_offers(sample)


def _by_offers(game: Game, choices: list[Choice], samples: list[Action | None]
               ) -> list[object]:
    """For each choice: itself (its spin fitted) when an allowed offer contains it,
    None when the offers that decide it do not, `_UNDECIDED` when no offer decides it."""
    out: list[object] = []
    for c, sample in zip(choices, samples, strict=True):
        offers = None if sample is None or sample.type not in _EXACT or c.disabled \
            else _decided(game, sample)
        if sample is None or offers is None:
            out.append(_UNDECIDED)
            continue
        if isinstance(sample, SellShares) and c.spin is not None:
            corp = sample.shares[0].rpartition("_")[0]
            sizes = [len(o.shares) for o in offers
                     if isinstance(o, ShareOffer) and o.allowed and o.kind == "sell"
                     and o.corporation == corp and set(o.shares) <= o.fungible]
            lo, _hi, step, default = c.spin
            out.append(dataclasses.replace(c, spin=(lo, max(sizes), step,
                                                    min(default, max(sizes))))
                       if sizes else None)
            continue
        try:
            match_offer(offers, sample)
        except IllegalAction:
            out.append(None)
            continue
        out.append(c)
    return out


def _by_moves(game: Game, choices: list[Choice]) -> list[Choice | None]:
    """:func:`_only_legal` by the title's move list, for what no offer decides: each
    choice, or None where it is dropped."""
    moves = _legal_moves(game, _EXACT)
    if not moves and not _legal_moves(game):
        return list(choices)
    sell_max: dict[tuple[object, ...], int] = {}
    keys = set()
    for m in moves:
        keys.add(_key(m))
        if isinstance(m, SellShares):
            k = _key(m)
            sell_max[k] = max(sell_max.get(k, 0), len(m.shares))
    out: list[Choice | None] = []
    for c in choices:
        sample = _sample(c)
        if sample is None or sample.type not in _EXACT or c.disabled:
            out.append(c)  # a greyed choice says why it is closed: keep it
            continue
        if isinstance(sample, BuyTrain) and game.trains[sample.train].owner not in (DEPOT,
                                                                                   POOL):
            out.append(c)  # company-to-company prices are sampled by the engine
            continue
        key = _key(sample)
        if key not in keys:
            out.append(None)
            continue
        if isinstance(sample, SellShares) and c.spin is not None:
            lo, _hi, step, default = c.spin
            c = dataclasses.replace(c, spin=(lo, sell_max[key], step, default))
        out.append(c)
    return out


def _map_types(game: Game) -> tuple[str, ...]:
    """Action types done on the map for this game (routes only where they can be built)."""
    from desk18xx.ui.models.routes import can_build

    return MAP_TYPES if can_build(game) else tuple(t for t in MAP_TYPES if t != "run_routes")


def _sample(c: Choice) -> Action | None:
    try:
        return c.make(c.spin[3] if c.spin else (c.options[0][0] if c.options else None))
    except (ValueError, IndexError):
        return None


def _from_moves(game: Game, entity: str, types: tuple[str, ...],
                made: list[Choice]) -> list[Choice]:
    """Buttons for the engine's own moves of types no form above covers (1822CA)."""
    covered = {a.type for a in (_sample(c) for c in made) if a is not None}
    on_map = _map_types(game)
    missing = [t for t in types if t not in covered and t not in on_map]
    if not missing:
        return []
    from desk18xx.ui.models.log import describe

    name = entity_name(game, entity)
    out: list[Choice] = []
    seen: set[str] = set()
    moves = _legal_moves(game, missing)
    # the lowest sampled bid first, so the amount field starts at the lowest legal bid
    moves.sort(key=lambda m: m.price if isinstance(m, Bid) else 0)
    for move in moves:
        choice = _move_choice(game, entity, move, describe(move, name))
        if choice.label in seen:
            continue  # one button per target; the amount is chosen in the form
        seen.add(choice.label)
        out.append(choice)
    return out


def _move_choice(game: Game, entity: str, move: Action, label: str) -> Choice:
    """A button for one engine move; bids and private purchases get an amount field."""
    group = move.type.replace("_", " ").capitalize()
    if isinstance(move, Bid):
        cash = game.cash.get(entity, 0)
        lo = move.price
        hi = lo + max(0, cash - lo) // BID_STEP * BID_STEP
        what = move.company or move.corporation or move.minor or ""
        return Choice(f"Bid on {what}", _price_of(move), group, spin=(lo, hi, BID_STEP, lo))
    if isinstance(move, BuyCompany) and move.company in game.companies:
        company = game.companies[move.company]
        hi = max(1, min(company.value, game.cash.get(entity, 0)))
        seller = game.name_of(company.owner) if company.owner else "the bank"
        return Choice(f"Buy {company.name} from {seller}", _price_of(move), "Buy a private",
                      spin=(1, hi, 1, hi), hint=f"face value ${company.value}")
    if isinstance(move, Par) and move.corporation:
        pars = game.par_options(entity, move.corporation)
        if pars:
            prices = tuple((p.share_price, f"${p.price} (costs ${p.cost})") for p in pars)
            closed = tuple((p.share_price, p.problem) for p in pars if p.problem)
            first = next((p.share_price for p in pars if not p.problem), move.share_price)
            return Choice(f"Start {move.corporation}",
                          _par_at(entity, move.corporation, first), "Start a major",
                          options=prices, hint=game.corps[move.corporation].name,
                          disabled_options=closed)
    if isinstance(move, Merge) and move.corporation and game.view().acquires_minors():
        target = move.corporation  # 1822CA: a major acquires a minor, not a merger
        return Choice(f"Acquire {entity_name(game, target)}", _fixed(move), "Acquire a minor",
                      hint=f"{entity_name(game, entity)} acquires {entity_name(game, target)}")
    if isinstance(move, AcquireCompany) and move.company in game.companies:
        c = game.companies[move.company]
        owner = f" from {game.name_of(c.owner)}" if c.owner else ""
        name = short_company_name(move.company, c.name)
        return Choice(f"Take over {move.company} ({name}){owner}", _fixed(move),
                      "Acquire a private", hint=c.name)
    if isinstance(move, Choose):  # one button per choice, not one per "choose"
        consent = pending_consent(game)
        if consent is not None and consent[0] == entity:
            return Choice(choice_label(move.choice), _fixed(move),
                          f"{entity_name(game, entity)}'s answer",
                          hint=deal_text(game, consent[1]))
        legal = _legal_actions(game)
        named = legal.details.get("choice_labels")  # e.g. 1822CA's Pullman: train names
        text = named.get(move.choice) if isinstance(named, dict) else None
        return Choice(str(text) if text else choice_label(move.choice), _fixed(move),
                      step_name(legal.step or "") or "Choose",
                      hint=_attachment_hint(game, entity, move.choice) if text else "")
    if isinstance(move, RunRoutes):
        total = sum(r.revenue or 0 for r in move.routes)
        trains = ", ".join(r.train for r in move.routes) or "no trains"
        return Choice(f"Run {trains}" + (f" for ${total}" if total else ""), _fixed(move),
                      "Run trains", hint="the engine's suggested routes")
    return Choice(label, _fixed(move), group)


_ATTACH_RUNS: list[object] = [None, -1, {}]
"""Memo of :func:`_attachment_hint`: game, actions applied, runs per choice."""


def _attachment_hint(game: Game, entity: str, choice: str) -> str:
    """The best run found with this attachment choice, and whether it is the best."""
    from desk18xx.ui.models.routes import attachment_runs

    serial = game.view().round().serial
    if _ATTACH_RUNS[0] is not game or _ATTACH_RUNS[1] != serial:
        _ATTACH_RUNS[:] = [game, serial, attachment_runs(game, entity)]
    runs = _ATTACH_RUNS[2]
    assert isinstance(runs, dict)
    if choice not in runs:
        return ""
    value, complete = runs[choice]
    top = max(v for v, _done in runs.values())
    found = "best run" if complete else "best run found so far"
    return f"{found} with this choice: ${value}" + (
        " (the most of these choices)" if value == top else "")


def _price_of(move: Bid | BuyCompany) -> Callable[[Value], Action]:
    def make(value: Value) -> Action:
        return dataclasses.replace(move, price=int(value or move.price))
    return make


def _startable(game: Game) -> tuple[str, ...]:
    """Corporations that may be started now (1867 ``available``; empty elsewhere)."""
    return game.view().startable()


def _etype(game: Game, entity: str) -> str:
    return "player" if game.is_player(entity) else "corporation"


Value = int | str | None


def _fixed(action: Action) -> Callable[[Value], Action]:
    def make(_value: Value) -> Action:
        return action
    return make


def _minor_bid(entity: str, corp: str) -> Callable[[Value], Action]:
    def make(value: Value) -> Action:
        return Bid(entity=entity, price=int(value or MIN_MINOR_BID), corporation=corp)
    return make


def _sell(entity: str, ids: tuple[str, ...]) -> Callable[[Value], Action]:
    def make(value: Value) -> Action:
        n = int(value or 1)
        return SellShares(entity=entity, shares=ids[:n], percent=10 * n)
    return make


def _par_at(entity: str, corp: str, default: str) -> Callable[[Value], Action]:
    def make(value: Value) -> Action:
        return Par(entity=entity, corporation=corp, share_price=str(value or default))
    return make


def _train_at(entity: str, etype: str, train: str) -> Callable[[Value], Action]:
    def make(value: Value) -> Action:
        return BuyTrain(entity=entity, entity_type=etype, train=train, price=int(value or 1))
    return make


# -- makers per action type ------------------------------------------------------------
def _pass(game: Game, entity: str, details: dict[str, object]) -> list[Choice]:
    label = "Pass"
    step = _legal_actions(game).step or ""
    if step == "Track":
        label = "Done laying track"
    elif step == "TokenStep":
        label = "Skip the token"
    elif step == "BuyTrainStep":
        label = "Done buying trains"
    elif "min_bid" in details and ("company" in details or "corporation" in details):
        label = "Pass (no bid)"  # an auction; in a stock round a pass ends the turn
    elif details.get("acted_this_turn"):
        label = "End my turn"
    et = _etype(game, entity)
    return [Choice(label, lambda _v: Pass(entity=entity, entity_type=et), "Pass")]


def _box_bids(game: Game, entity: str, view: BidBoxView) -> list[Choice]:
    """One bid form per boxed company, greyed with the reason when it is closed to
    ``entity`` (1822CA rules 4.2); amounts run from the minimum to the free cash."""
    if view.acting != entity:
        return []
    me = view.bidder(entity)
    free = me.available if me is not None else game.cash.get(entity, 0)
    out = []
    for box in view.boxes:
        lo = box.min_bid
        hi = lo + max(0, free - lo) // view.step * view.step
        name = short_company_name(box.company, box.name)
        top = next((b for b in box.bids if b.winning), None)
        hint = f"{box.company}: {name}"
        if top is not None:
            hint += f"; high bid ${top.price} by {game.name_of(top.player)}"
        out.append(Choice(f"Bid on {box.company} ({name})",
                          _box_bid(entity, box.company, lo), "Bid boxes",
                          spin=(lo, hi, view.step, lo), hint=hint,
                          disabled=box.problem or ""))
    return out


def short_company_name(company: str, name: str) -> str:
    """``"MINOR: 6. Champlain & St Lawrence"`` -> ``"Champlain & St Lawrence"``,
    ``"P1 (5-Train)"`` -> ``"5-Train"``, ``"CONCESSION: CPR"`` -> ``"CPR"``."""
    name = name.removeprefix("MINOR: ").removeprefix("CONCESSION: ")
    name = re.sub(r"^\d+\.\s*", "", name)
    if name.startswith(company + " "):
        name = name[len(company) + 1:].strip()
        if name.startswith("(") and name.endswith(")"):
            name = name[1:-1]
    return name or company


def _box_bid(entity: str, company: str, lo: int) -> Callable[[Value], Action]:
    def make(value: Value) -> Action:
        return Bid(entity=entity, price=lo if value is None else int(value), company=company)
    return make


def _short_of(game: Game, entity: str, lo: int, most: int) -> str:
    """Why a bid of at least ``lo`` is closed when ``most`` may be bid (else "")."""
    if most >= lo:
        return ""
    return f"the lowest bid is ${lo}; {game.name_of(entity)} can bid at most ${most}"


def _bid(game: Game, entity: str, details: dict[str, object]) -> list[Choice]:
    view = game.bid_boxes()
    if view is not None:
        return _box_bids(game, entity, view)
    cash = game.cash.get(entity, 0)
    company = details.get("company")
    if isinstance(company, str):
        lo = int(str(details.get("min_bid", 0)))
        top = int(str(details.get("max_bid", cash)))
        hi = lo + (max(top, lo) - lo) // BID_STEP * BID_STEP
        name = game.companies[company].name if company in game.companies else company
        return [Choice(f"Bid on {name}", lambda v: Bid(entity=entity, price=int(v or lo),
                                                        company=company),
                       "Auction", spin=(lo, hi, BID_STEP, lo),
                       hint=f"value ${game.companies[company].value}"
                       if company in game.companies else "",
                       disabled=_short_of(game, entity, lo, top))]
    corp = details.get("corporation")
    if isinstance(corp, str):
        lo = int(str(details.get("min_bid", 0)))
        hi = lo + (max(cash, lo) - lo) // BID_STEP * BID_STEP
        return [Choice(f"Bid on {corp}", lambda v: Bid(entity=entity, price=int(v or lo),
                                                        corporation=corp),
                       "Auction", spin=(lo, hi, BID_STEP, lo),
                       disabled=_short_of(game, entity, lo, cash))]
    minors = [c for c, k in game.corps.items()
              if k.kind is CorpKind.MINOR and not k.ipoed and not k.closed
              and c in _startable(game)]
    hi = MIN_MINOR_BID + (max(cash, MIN_MINOR_BID) - MIN_MINOR_BID) // BID_STEP * BID_STEP
    out = []
    for cid in minors:
        out.append(Choice(f"Auction {cid} ({game.corps[cid].name})",
            _minor_bid(entity, cid),
            "Start a minor", spin=(MIN_MINOR_BID, hi, BID_STEP, MIN_MINOR_BID),
            hint=game.corps[cid].name,
            disabled="" if cash >= MIN_MINOR_BID else
            f"the opening bid is ${MIN_MINOR_BID}; {game.name_of(entity)} has ${cash}"))
    return out


def _buy_shares(game: Game, entity: str, details: dict[str, object]) -> list[Choice]:
    out: list[Choice] = []
    for cid, corp in game.corps.items():
        if corp.kind is not CorpKind.MAJOR or not corp.ipoed or corp.closed:
            continue
        price = game.market.price(cid) if cid in game.market.where else 0
        for source, where in ((cid, "treasury"), (POOL, "market")):
            shares = sorted((s for s in game.shares.values()
                             if s.corp == cid and s.owner == source and not s.president),
                            key=lambda s: s.id)
            if not shares or game.cash.get(entity, 0) < price:
                continue
            sid = shares[0].id
            out.append(Choice(f"Buy {cid} from the {where} (${price})",
                              _fixed(BuyShares(entity=entity, shares=(sid,), percent=10)),
                              "Buy a share", hint=f"{len(shares)} left"))
    return out


def _sell_shares(game: Game, entity: str, details: dict[str, object]) -> list[Choice]:
    out: list[Choice] = []
    for cid, corp in game.corps.items():
        if corp.kind is not CorpKind.MAJOR or not corp.operated:
            continue
        own = sorted((s for s in game.shares.values()
                      if s.corp == cid and s.owner == entity and not s.president),
                     key=lambda s: s.id)
        if not own:
            continue
        price = game.market.price(cid) if cid in game.market.where else 0
        ids = tuple(s.id for s in own)
        out.append(Choice(f"Sell {cid} (${price} each)",
                          _sell(entity, ids),
                          "Sell shares", spin=(1, len(ids), 1, 1)))
    return out


def _par(game: Game, entity: str, details: dict[str, object]) -> list[Choice]:
    offered = _par_offers(game, entity)
    if offered is not None:
        return offered
    cells = [c for c in game.market.cells.values()
             if c.types & {CellType.PAR, CellType.PAR_2}]
    cells.sort(key=lambda c: -c.price)
    cash = game.cash.get(entity, 0)
    prices = tuple((c.id, f"${c.price} (costs ${2 * c.price})") for c in cells)
    closed = tuple((c.id, f"costs ${2 * c.price}; {game.name_of(entity)} has ${cash}")
                   for c in cells if 2 * c.price > cash)
    open_ = [key for key, _text in prices if key not in dict(closed)]
    out = []
    for cid, corp in game.corps.items():
        if corp.kind is not CorpKind.MAJOR or corp.ipoed or corp.closed:
            continue
        if cid not in _startable(game):
            continue
        if not open_:
            continue
        out.append(Choice(f"Start {cid}", _par_at(entity, cid, open_[0]),
            "Start a major", options=prices, hint=corp.name, disabled_options=closed))
    return out


def _par_offers(game: Game, entity: str) -> list[Choice] | None:
    """Start choices from the engine's start offers (`desk18xx.engine.offers.ParOffer`):
    each start price with its cost, greyed with the reason where it is closed; None
    where the title's offers do not decide starts now."""
    if Par.type not in game.offered_types():
        return None
    offers = game.deciding_offers(Par(entity=entity))
    if offers is None:
        return None
    out: list[Choice] = []
    for offer in offers:
        if not isinstance(offer, ParOffer) or not offer.allowed:
            continue
        open_ = [c.share_price for c in offer.cells if c.why_not is None]
        if not open_:
            continue
        corp = game.corps[offer.corporation]
        out.append(Choice(
            f"Start {offer.corporation}", _par_at(entity, offer.corporation, open_[0]),
            "Start a major",
            options=tuple((c.share_price, f"${c.price} (costs ${c.cost})")
                          for c in offer.cells),
            hint=corp.name,
            disabled_options=tuple((c.share_price, c.why_not) for c in offer.cells
                                   if c.why_not is not None)))
    return out


def _dividend(game: Game, entity: str, details: dict[str, object]) -> list[Choice]:
    et = _etype(game, entity)
    return [Choice(label, _fixed(Dividend(entity=entity, entity_type=et, kind=kind)),
                   "Dividend")
            for kind, label in (("payout", "Pay out"), ("half", "Half pay"),
                                ("withhold", "Withhold"))]


def _buy_train(game: Game, entity: str, details: dict[str, object]) -> list[Choice]:
    et = _etype(game, entity)
    out: list[Choice] = []
    power = details.get("buying_power")
    for t in game.depot_trains():
        source = "the bank pool" if t.owner == POOL else "the bank"
        short = (f"{entity_name(game, entity)} has ${power} to spend"
                 if isinstance(power, int) and power < t.price else "")
        out.append(Choice(f"Buy {_article(t.name)} {t.name} from {source} (${t.price})",
                          _fixed(BuyTrain(entity=entity, entity_type=et, train=t.id,
                                          price=t.price)),
                          "Buy a train", disabled=short))
        for own in (game.trains[tid] for tid in game.corps[entity].trains):
            if own.name in t.discount:
                net = t.price - t.discount[own.name]
                out.append(Choice(f"Trade in {own.name} for a {t.name} (${net})",
                                  _fixed(BuyTrain(entity=entity, entity_type=et, train=t.id,
                                                  price=net, exchange=own.id)),
                                  "Trade in a train"))
    others = details.get("others")
    if isinstance(others, list):  # 1867: any company's train, for $1 up to the cash
        for entry in others:
            if not isinstance(entry, dict):
                continue
            tid, seller = str(entry.get("train", "")), str(entry.get("owner", ""))
            if tid not in game.trains:
                continue
            t = game.trains[tid]
            hi = max(1, int(str(entry.get("max_price", game.cash.get(entity, 0)))))
            out.append(Choice(f"Buy {entity_name(game, seller)}'s {t.name}",
                              _train_at(entity, et, tid), "Buy from a company",
                              spin=(1, hi, 1, min(hi, t.price)),
                              hint=f"train {tid}; any price from $1 to ${hi}"))
        return out
    owner = game.owner(entity)
    for cid, corp in game.corps.items():
        if cid == entity or corp.closed or corp.kind is CorpKind.NATIONAL:
            continue
        if owner is None or game.owner(cid) != owner:
            continue
        for tid in corp.trains:
            t = game.trains[tid]
            if t.owner == DEPOT:
                continue
            hi = max(1, game.cash.get(entity, 0))
            out.append(Choice(f"Buy {entity_name(game, cid)}'s {t.name}",
                              _train_at(entity, et, tid),
                              "Buy from a company", spin=(1, hi, 1, min(hi, t.price))))
    return out


def _article(train: str) -> str:
    """``"an"`` before a train name read with a vowel sound (L, E, 8), else ``"a"``."""
    return "an" if train[:1] in tuple("AEFHILMNORSX8") or train in ("11", "18") else "a"


def _simple(cls: type[Action], label: str, group: str) -> Callable[
        [Game, str, dict[str, object]], list[Choice]]:
    def maker(game: Game, entity: str, details: dict[str, object]) -> list[Choice]:
        et = _etype(game, entity)
        return [Choice(label, _fixed(cls(entity=entity, entity_type=et)), group)]
    return maker


_MAKERS: dict[str, Callable[[Game, str, dict[str, object]], list[Choice]]] = {
    "pass": _pass,
    "bid": _bid,
    "buy_shares": _buy_shares,
    "sell_shares": _sell_shares,
    "par": _par,
    "dividend": _dividend,
    "buy_train": _buy_train,
    "take_loan": _simple(TakeLoan, "Take a loan", "Loans"),
    "payoff_loan": _simple(PayoffLoan, "Repay a loan", "Loans"),
    "convert": _simple(Convert, "Convert to a major", "Merger"),
}
