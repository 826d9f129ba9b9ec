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
from desk18xx.engine.game import Game, LegalActions, StepFacts
from desk18xx.engine.offers import (
    BidOffer,
    CompanyOffer,
    DividendOffer,
    Offer,
    ParOffer,
    ShareOffer,
    TrainOffer,
)
from desk18xx.engine.state import DEPOT, POOL

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
    facts: StepFacts = field(default_factory=StepFacts)
    """What the step says besides its offers (the engine's declared `StepFacts`)."""
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


def _step_label(step: str, facts: StepFacts) -> str:
    """The step's name; with the bids left in a 1822CA stock turn once one is placed."""
    made, most = facts.bids_this_turn, facts.bids_per_turn
    if made is not None and most is not None and made > 0:
        left = most - made
        return f"{left} more bid{'' if left == 1 else 's'} this turn, or end your turn"
    if facts.must_buy:
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
    facts = legal.facts
    info = TurnInfo(entity, entity_name(game, entity), round_label(game),
                    _step_label(step, facts), legal.types, (), facts,
                    tuple(t for t in legal.types if t in _map_types(game)))
    if entity is None:
        return info
    choices: list[Choice] = []
    for kind in legal.types:
        maker = _MAKERS.get(kind)
        if maker is not None:
            choices.extend(maker(game, entity, facts))
    choices += _from_moves(game, entity, legal.types, choices)
    step_label = info.step_label
    consent = pending_consent(game)
    if consent is not None and consent[0] == entity:  # whose consent, asked by whom
        step_label = (f"{entity_name(game, consent[1].entity)} asks "
                      f"{info.entity_name}'s consent")
    return TurnInfo(info.entity, info.entity_name, info.round_label, step_label,
                    info.types, tuple(choices), info.facts, info.map_types)


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
        what = move.company or move.corporation or move.minor or ""
        offer = next((o for o in _offers_of(game, entity, Bid.type)
                      if isinstance(o, BidOffer) and o.concerns(move)), None)
        if offer is None:
            return Choice(f"Bid on {what} (${move.price})", _fixed(move), group)
        hi = max(move.price, offer.maximum - (offer.maximum - move.price) % max(1, offer.step))
        return Choice(f"Bid on {what}", _price_of(move), group,
                      spin=(move.price, hi, max(1, offer.step), move.price))
    if isinstance(move, BuyCompany):
        offer_c = next((o for o in _offers_of(game, entity, BuyCompany.type)
                        if isinstance(o, CompanyOffer) and o.company == move.company), None)
        if offer_c is not None:
            return _company_choice(game, entity, offer_c)
        private = game.view().private(move.company or "")
        name = private.name if private is not None else move.company
        return Choice(f"Buy {name} for ${move.price}", _fixed(move), "Buy a private")
    if isinstance(move, Par) and move.corporation:
        pars = game.par_options(entity, move.corporation)
        if pars:
            prices = tuple((p.share_price, f"${p.price} (costs ${p.cost})") for p in pars)
            closed = tuple((p.share_price, p.problem) for p in pars if p.problem)
            first = next((p.share_price for p in pars if not p.problem), move.share_price)
            return Choice(f"Start {move.corporation}",
                          _par_at(entity, move.corporation, first), "Start a major",
                          options=prices, hint=entity_name(game, move.corporation),
                          disabled_options=closed)
    if isinstance(move, Merge) and move.corporation and game.view().acquires_minors():
        target = move.corporation  # 1822CA: a major acquires a minor, not a merger
        return Choice(f"Acquire {entity_name(game, target)}", _fixed(move), "Acquire a minor",
                      hint=f"{entity_name(game, entity)} acquires {entity_name(game, target)}")
    c = game.view().private(move.company) if isinstance(move, AcquireCompany) else None
    if isinstance(move, AcquireCompany) and c is not None:
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
        text = legal.facts.label_of(move.choice)  # e.g. 1822CA's Pullman: train names
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


def _etype(game: Game, entity: str) -> str:
    return "player" if game.is_player(entity) else "corporation"


Value = int | str | None


def _fixed(action: Action) -> Callable[[Value], Action]:
    def make(_value: Value) -> Action:
        return action
    return make


def _par_at(entity: str, corp: str, default: str) -> Callable[[Value], Action]:
    def make(value: Value) -> Action:
        return Par(entity=entity, corporation=corp, share_price=str(value or default))
    return make


def _train_at(entity: str, etype: str, train: str,
              variant: str | None = None) -> Callable[[Value], Action]:
    def make(value: Value) -> Action:
        return BuyTrain(entity=entity, entity_type=etype, train=train, price=int(value or 1),
                        variant=variant)
    return make


# -- makers per action type ------------------------------------------------------------
def _pass(game: Game, entity: str, facts: StepFacts) -> list[Choice]:
    label = "Pass"
    step = _legal_actions(game).step or ""
    if step == "Track":
        label = "Done laying track"
    elif step == "TokenStep":
        label = "Skip the token"
    elif step == "BuyTrainStep":
        label = "Done buying trains"
    elif facts.auction_item is not None:
        label = "Pass (no bid)"  # an auction; in a stock round a pass ends the turn
    elif facts.acted_this_turn:
        label = "End my turn"
    et = _etype(game, entity)
    return [Choice(label, lambda _v: Pass(entity=entity, entity_type=et), "Pass")]


def _box_bids(game: Game, entity: str, view: BidBoxView) -> list[Choice]:
    """One bid form per boxed company, greyed with the reason when it is closed to
    ``entity`` (1822CA rules 4.2); amounts run from the minimum to the most the bid
    offer allows (the free cash)."""
    if view.acting != entity:
        return []
    offers = {o.company: o for o in _offers_of(game, entity, Bid.type)
              if isinstance(o, BidOffer)}
    out = []
    for box in view.boxes:
        lo = box.min_bid
        offer = offers.get(box.company)
        hi = lo if offer is None else max(lo, offer.maximum - (offer.maximum - lo) % view.step)
        name = short_company_name(box.company, box.name)
        top = next((b for b in box.bids if b.winning), None)
        hint = f"{box.company}: {name}"
        if top is not None:
            hint += f"; high bid ${top.price} by {game.name_of(top.player)}"
        out.append(Choice(f"Bid on {box.company} ({name})",
                          _box_bid(entity, box.company, lo), "Bid boxes",
                          spin=(lo, hi, view.step, lo), hint=hint,
                          disabled=box.problem or (offer.why_not if offer is not None
                                                   else "") or ""))
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


def _offers_of(game: Game, entity: str, kind: str) -> tuple[Offer, ...]:
    """The engine's offers of action type ``kind`` to ``entity`` now, as its door
    decides them (empty where the title leaves the step to its own checks: the
    panel then shows the engine's moves, `_from_moves`)."""
    if kind not in game.offered_types():
        return ()
    return game.offers(entity, (kind,))


def _bid(game: Game, entity: str, facts: StepFacts) -> list[Choice]:
    """A bid form per bid offer: the amounts run from the offer's minimum to its
    maximum in its steps; greyed with the reason when it is closed."""
    view = game.bid_boxes()
    if view is not None:
        return _box_bids(game, entity, view)
    auction = facts.auction_item is not None
    out = []
    for offer in _offers_of(game, entity, Bid.type):
        if not isinstance(offer, BidOffer):
            continue
        lo, step = offer.minimum, max(1, offer.step)
        base = lo if offer.step_from is None else offer.step_from
        hi = max(lo, offer.maximum - (offer.maximum - base) % step)
        why = offer.why_not or _short_of(game, entity, lo, offer.maximum)
        what = offer.company
        on_corp = offer.target == "corporation"
        make = _bid_on(entity, what, on_corp, lo)
        private = game.view().private(what)
        if on_corp and not auction:
            corp = game.view().corporation(what)
            name = corp.name if corp is not None else what
            out.append(Choice(f"Auction {what} ({name})", make, "Start a minor",
                              spin=(lo, hi, step, lo), hint=name, disabled=why))
            continue
        label = private.name if private is not None else what
        out.append(Choice(f"Bid on {label}", make, "Auction", spin=(lo, hi, step, lo),
                          hint=f"value ${private.value}" if private is not None else "",
                          disabled=why))
    return out


def _bid_on(entity: str, what: str, on_corp: bool, lo: int) -> Callable[[Value], Action]:
    def make(value: Value) -> Action:
        price = int(value or lo)
        return Bid(entity=entity, price=price, company=None if on_corp else what,
                   corporation=what if on_corp else None)
    return make


def _where(game: Game, offer: ShareOffer) -> str:
    if offer.source == offer.corporation:
        return "treasury"
    if offer.source == POOL:
        return "market"
    return game.name_of(offer.source)


def _buy_shares(game: Game, entity: str, facts: StepFacts) -> list[Choice]:
    """A button per share offer (a purchase, or a company's redemption), greyed with
    the engine's reason where it is closed."""
    et = _etype(game, entity)
    out: list[Choice] = []
    for o in _offers_of(game, entity, BuyShares.type):
        if not isinstance(o, ShareOffer) or o.kind not in ("buy", "redeem"):
            continue
        action = BuyShares(entity=entity, entity_type=et, shares=o.shares, percent=o.percent)
        size = "" if o.percent == 10 else f" {o.percent}%"
        left = len(o.fungible) or len(o.shares)
        if o.kind == "redeem":
            out.append(Choice(f"Redeem {o.corporation}{size} from the {_where(game, o)} "
                              f"(${o.total})", _fixed(action), "Redeem shares",
                              hint=f"{left} left", disabled=o.why_not or ""))
            continue
        out.append(Choice(f"Buy {o.corporation}{size} from the {_where(game, o)} (${o.total})",
                          _fixed(action), "Buy a share", hint=f"{left} left",
                          disabled=o.why_not or ""))
    return out


def _sell_shares(game: Game, entity: str, facts: StepFacts) -> list[Choice]:
    """Per company, a count of plain certificates to sell (or issue) from the share
    offers; a bundle with a director's certificate is a button of its own; greyed
    with the engine's reason where no sale is open."""
    et = _etype(game, entity)
    by_corp: dict[str, list[ShareOffer]] = {}
    for o in _offers_of(game, entity, SellShares.type):
        if isinstance(o, ShareOffer) and o.kind in ("sell", "issue"):
            by_corp.setdefault(o.corporation, []).append(o)
    out: list[Choice] = []
    for cid, offers in by_corp.items():
        issue = offers[0].kind == "issue"
        verb, group = ("Issue", "Issue shares") if issue else ("Sell", "Sell shares")
        plain = {len(o.shares): o for o in offers if o.allowed
                 and set(o.shares) <= (o.fungible or set(o.shares))
                 and o.percent == 10 * len(o.shares)}
        price = offers[0].price
        counts = sorted(plain)
        if counts:
            bundles = tuple(plain[n].shares for n in counts)
            out.append(Choice(f"{verb} {cid} (${price} each)", _sell_of(entity, et, bundles),
                              group, spin=(counts[0], counts[-1], 1, counts[0])))
        else:
            closed = next((o for o in offers if o.why_not), None)
            if closed is not None:
                out.append(Choice(f"{verb} {cid} (${price} each)",
                                  _fixed(SellShares(entity=entity, entity_type=et,
                                                    shares=closed.shares,
                                                    percent=closed.percent)),
                                  group, disabled=closed.why_not or ""))
        for o in offers:
            if not o.allowed or len(o.shares) in plain and plain[len(o.shares)] is o:
                continue
            out.append(Choice(f"{verb} {o.percent}% of {cid} (${o.total})",
                              _fixed(SellShares(entity=entity, entity_type=et,
                                                shares=o.shares, percent=o.percent)),
                              group, hint="hands over the director's certificate"))
    return out


def _sell_of(entity: str, et: str, bundles: tuple[tuple[str, ...], ...]
             ) -> Callable[[Value], Action]:
    """The bundle of the chosen size (``bundles`` by rising size, from the offers)."""
    def make(value: Value) -> Action:
        n = int(value or len(bundles[0]))
        ids = next((b for b in bundles if len(b) == n), bundles[0])
        return SellShares(entity=entity, entity_type=et, shares=ids, percent=10 * len(ids))
    return make


def _par(game: Game, entity: str, facts: StepFacts) -> list[Choice]:
    """Start choices from the engine's start offers (`desk18xx.engine.offers.ParOffer`):
    each start price with its cost, greyed with the reason where it is closed."""
    out: list[Choice] = []
    for offer in _offers_of(game, entity, Par.type):
        if not isinstance(offer, ParOffer) or not offer.allowed:
            continue
        open_ = [c.share_price for c in offer.cells if c.why_not is None]
        if not open_:
            continue
        corp = game.view().corporation(offer.corporation)
        out.append(Choice(
            f"Start {offer.corporation}", _par_at(entity, offer.corporation, open_[0]),
            "Start a major",
            options=tuple((c.share_price, f"${c.price} (costs ${c.cost})")
                          for c in offer.cells),
            hint=corp.name if corp is not None else offer.corporation,
            disabled_options=tuple((c.share_price, c.why_not) for c in offer.cells
                                   if c.why_not is not None)))
    return out


def _buy_company(game: Game, entity: str, facts: StepFacts) -> list[Choice]:
    """A price field per private on offer (`desk18xx.engine.offers.CompanyOffer`)."""
    return [_company_choice(game, entity, o) for o in _offers_of(game, entity, BuyCompany.type)
            if isinstance(o, CompanyOffer)]


def _company_choice(game: Game, entity: str, offer: CompanyOffer) -> Choice:
    private = game.view().private(offer.company)
    name = private.name if private is not None else offer.company
    seller = game.name_of(offer.seller) if offer.seller else "the bank"
    lo, hi = offer.min_price, max(offer.min_price, offer.max_price)
    et = _etype(game, entity)

    def make(value: Value) -> Action:
        return BuyCompany(entity=entity, entity_type=et, company=offer.company,
                          price=int(value or hi))
    return Choice(f"Buy {name} from {seller}", make, "Buy a private", spin=(lo, hi, 1, hi),
                  hint=f"face value ${private.value}" if private is not None else "",
                  disabled=offer.why_not or "")


_DIVIDEND_LABELS = {"payout": "Pay out", "half": "Half pay", "withhold": "Withhold"}


def _dividend(game: Game, entity: str, facts: StepFacts) -> list[Choice]:
    """A button per dividend offer, greyed with the reason where it is closed (where
    the title's offers do not decide dividends yet: the three kinds, the engine
    refusing one it does not allow)."""
    et = _etype(game, entity)
    offers = [o for o in _offers_of(game, entity, Dividend.type) if isinstance(o, DividendOffer)]
    if not offers:
        return [Choice(label, _fixed(Dividend(entity=entity, entity_type=et, kind=kind)),
                       "Dividend") for kind, label in _DIVIDEND_LABELS.items()]
    return [Choice(_DIVIDEND_LABELS.get(o.kind, choice_label(o.kind)),
                   _fixed(Dividend(entity=entity, entity_type=et, kind=o.kind, amount=o.amount)),
                   "Dividend", disabled=o.why_not or "") for o in offers]


def _buy_train(game: Game, entity: str, facts: StepFacts) -> list[Choice]:
    """A button per train offer at its price (a trade-in names the train given), a
    price field for a train from another company; greyed with the engine's reason."""
    et = _etype(game, entity)
    view = game.view()
    out: list[Choice] = []
    for o in _offers_of(game, entity, BuyTrain.type):
        if not isinstance(o, TrainOffer):
            continue
        name = o.variant or o.name
        why = o.why_not or ""
        if o.price is not None:
            action = BuyTrain(entity=entity, entity_type=et, train=o.train, price=o.price,
                              variant=o.variant, exchange=o.exchange)
            if o.exchange is not None:
                given = view.train(o.exchange)
                own = given.name if given is not None else o.exchange
                out.append(Choice(f"Trade in {own} for a {name} (${o.price})", _fixed(action),
                                  "Trade in a train", disabled=why))
                continue
            source = "the bank pool" if o.seller == POOL else (
                "the bank" if o.seller == DEPOT else entity_name(game, o.seller))
            out.append(Choice(f"Buy {_article(name)} {name} from {source} (${o.price})",
                              _fixed(action), "Buy a train", disabled=why))
            continue
        lo, hi = o.min_price, max(o.min_price, o.max_price)
        listed = o.list_price if o.list_price is not None else hi
        label = f"Buy {entity_name(game, o.seller)}'s {name}"
        if any(c.label == label for c in out):
            continue  # a second train alike from the same company: one choice buys either
        out.append(Choice(label,
                          _train_at(entity, et, o.train, o.variant), "Buy from a company",
                          spin=(lo, hi, 1, max(lo, min(hi, listed))),
                          hint=f"train {o.train}; any price from ${lo} to ${hi}",
                          disabled=why))
    return out


def _article(train: str) -> str:
    """``"an"`` before a train name read with a vowel sound (L, E, 8), else ``"a"``."""
    return "an" if train[:1] in tuple("AEFHILMNORSX8") or train in ("11", "18") else "a"


def _simple(cls: type[Action], label: str, group: str) -> Callable[
        [Game, str, StepFacts], list[Choice]]:
    def maker(game: Game, entity: str, facts: StepFacts) -> list[Choice]:
        et = _etype(game, entity)
        return [Choice(label, _fixed(cls(entity=entity, entity_type=et)), group)]
    return maker


_MAKERS: dict[str, Callable[[Game, str, StepFacts], list[Choice]]] = {
    "pass": _pass,
    "bid": _bid,
    "buy_shares": _buy_shares,
    "sell_shares": _sell_shares,
    "par": _par,
    "dividend": _dividend,
    "buy_train": _buy_train,
    "buy_company": _buy_company,
    "take_loan": _simple(TakeLoan, "Take a loan", "Loans"),
    "payoff_loan": _simple(PayoffLoan, "Repay a loan", "Loans"),
    "convert": _simple(Convert, "Convert to a major", "Merger"),
}
