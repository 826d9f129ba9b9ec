"""1822CA's offers: what an entity may do now, as typed values (`desk18xx.engine.offers`).

Read-only: every function here looks at the game and never changes it.  The
door in `desk18xx.engine.game.Game` processes an action of a type in `COVERED`
only when it matches an allowed offer of the step that would take it, so the
prices, percents and totals of share actions (RB 4.3, 4.4, 5.15, 5.19), the
start prices of a major (RB 4.7), bids (RB 4.2) and train prices (RB 5.10)
come from here, never from the action.  Steps not listed in `_BUILDERS` are
left to their own checks (`deciding_offers` answers None).
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from desk18xx.engine.actions import (
    ACTION_TYPES,
    STATE_NEUTRAL,
    Action,
    Assign,
    Bid,
    BuyShares,
    BuyTrain,
    Choose,
    ChooseAbility,
    Dividend,
    HexToken,
    LayTile,
    Merge,
    Par,
    Pass,
    PayoffPlayerDebt,
    PayoffPlayerDebtPartial,
    PlaceToken,
    RunRoutes,
    SellShares,
)
from desk18xx.engine.actions import AcquireCompany as AcquireCompanyAction
from desk18xx.engine.actions import DiscardTrain as DiscardTrainAction
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.offers import (
    BidOffer,
    ChooseOffer,
    DiscardOffer,
    DividendOffer,
    MergeOffer,
    Offer,
    ParCell,
    ParOffer,
    PassOffer,
    RouteOffer,
    ShareOffer,
    TileLayOffer,
    TokenOffer,
    TrainOffer,
    focus_of,
)
from desk18xx.engine.state import DEPOT, POOL, Share
from desk18xx.engine.tiledef import COLOR_ORDER, HexDef
from desk18xx.titles.g1822ca import rules as R
from desk18xx.titles.g1822ca.steps.acquisition import (
    AcquireCompany,
    AcquisitionTrack,
    Consent,
    MinorAcquisition,
    acquirable_privates,
    deal_key,
)
from desk18xx.titles.g1822ca.steps.operating import (
    AssignSawmill,
    DestinationToken,
    DividendStep,
    FirstTurnHousekeeping,
    IssueShares,
    PendingToken,
    RouteStep,
    SpecialToken,
    SpecialTrack,
    TokenStep,
    TrackStep,
    grant_lays_left,
)
from desk18xx.titles.g1822ca.steps.stock import BuySellParShares, ChooseDouble
from desk18xx.titles.g1822ca.steps.stock import DiscardTrain as DiscardStep
from desk18xx.titles.g1822ca.steps.trains import (
    BuyTrainStep,
    depot_offer,
    e_train_problem,
    forced_problem,
    l_upgrade_price,
    min_depot_price,
    must_buy_train,
    other_trains,
    sellable_shares,
)

if TYPE_CHECKING:
    from desk18xx.engine.round import Step
    from desk18xx.titles.g1822ca.game import G1822CA

_CLASSES: dict[str, type[Action]] = {
    t: c for t, c in ACTION_TYPES.items()
    if t not in STATE_NEUTRAL and t not in ("end_game", "undo", "redo")}
COVERED = frozenset(_CLASSES)
"""The action types whose legality these offers decide: every move kind (a move no
step takes now is refused, with the step's reason where it has one)."""

POOL_LIMIT = 50
"""Most of a company the bank pool may hold (RB 4.4.2, 5.19.2)."""


def target_step(gm: G1822CA, entity: str, cls: type[Action]) -> Step | None:
    """The step that would take an action of class ``cls`` by ``entity`` now, as
    `desk18xx.engine.round.Round.process` picks it (None: no step would)."""
    r = gm.round
    if r is None or gm.finished:
        return None
    for step in r.steps:
        if not step.is_active(gm):
            continue
        if cls in step.legal(gm, entity):
            return step
        if step.is_blocking(gm):
            return None
    return None


def deciding_offers(gm: G1822CA, entity: str, action_type: str,
                    focus: str | None = None) -> tuple[Offer, ...] | None:
    """The offers that decide an action of ``action_type`` by ``entity`` (only those
    about ``focus``, a corporation, company or train id, when given); None when the
    step that would take it is not covered yet (its own checks decide)."""
    return _deciding(gm, entity, action_type, focus)[0]


def _deciding(gm: G1822CA, entity: str, action_type: str, focus: str | None
              ) -> tuple[tuple[Offer, ...] | None, Step | None]:
    """`deciding_offers`, and the step that would take the action (None: none)."""
    cls = _CLASSES.get(action_type)
    if cls is None:
        return None, None
    step = target_step(gm, entity, cls)
    if step is None:
        return (), None
    build = _BUILDERS.get((type(step), action_type))
    if build is None:
        return None, step
    found = build(gm, step, entity, focus)
    return (None if found is None else tuple(found)), step


def action_offers(gm: G1822CA, action: Action) -> tuple[Offer, ...] | None:
    """`deciding_offers` for ``action``, about what it names only."""
    return action_door(gm, action)[0]


def action_door(gm: G1822CA, action: Action
                ) -> tuple[tuple[Offer, ...] | None, Step | None]:
    """`action_offers`, and the step that would take ``action`` (`Game.door`)."""
    return _deciding(gm, action.entity, action.type, focus_of(gm.shares, action))


def _open_steps(gm: G1822CA, entity: str, wanted: Collection[str]) -> list[tuple[Step, str]]:
    """(the step that would take it, action type) for each type of ``wanted`` that
    ``entity`` may act with now: `target_step` for all of them in one walk."""
    r = gm.round
    if r is None or gm.finished:
        return []
    out: list[tuple[Step, str]] = []
    claimed: set[str] = set()
    for step in r.steps:
        if not step.is_active(gm):
            continue
        for cls in step.legal(gm, entity):
            if cls.type in wanted and cls.type not in claimed:
                claimed.add(cls.type)
                out.append((step, cls.type))
        if step.is_blocking(gm):
            break
    return sorted(out, key=lambda pair: pair[1])


def offers(gm: G1822CA, entity: str, types: Collection[str] | None = None) -> tuple[Offer, ...]:
    """Every offer of ``entity`` now (of ``types`` only, when given)."""
    wanted = COVERED if types is None else frozenset(types) & COVERED
    out: list[Offer] = []
    for step, action_type in _open_steps(gm, entity, wanted):
        build = _BUILDERS.get((type(step), action_type))
        if build is not None:
            out.extend(build(gm, step, entity, None) or ())
    return tuple(out)


def random_offers(gm: G1822CA, entity: str, rng: random.Random,
                  types: Collection[str] | None = None) -> tuple[Offer, ...]:
    """The offers random play draws from: `offers`, with the lays of a few hexes drawn
    with ``rng`` instead of every hex (listing every lay of every hex would make a
    random game several times slower), and a deal refused this turn not put again."""
    wanted = COVERED if types is None else frozenset(types) & COVERED
    out: list[Offer] = []
    for step, action_type in _open_steps(gm, entity, wanted):
        if action_type == LayTile.type and type(step) in _LAY_KINDS:
            out.extend(_lays_of(gm, _LAY_KINDS[type(step)](gm, step, entity), None, rng))
            continue
        build = _BUILDERS.get((type(step), action_type))
        if build is not None:
            out.extend(build(gm, step, entity, None) or ())
    return tuple(out)


def acting_entities(gm: G1822CA) -> tuple[str, ...]:
    """Everyone who may act now: the entity the round waits for, the privates that act
    for it (P10's token, P28's swap, a private's lay, P11's tax haven, P13's sawmill),
    and a director raising money for a forced train (RB 5.15.5)."""
    r = gm.round
    if r is None or gm.finished:
        return ()
    step = r.active_step(gm)
    entity = None if step is None else step.current_entity(gm)
    if entity is None:
        return ()
    out = [entity]
    out.extend(cid for cid, c in sorted(gm.companies.items())
               if c.owner == entity and not c.closed)
    if entity in gm.corps and isinstance(step, BuyTrainStep) and must_buy_train(gm, entity):
        president = gm.president(entity)
        if president is not None:
            out.append(president)
    return tuple(out)


# -- shares ------------------------------------------------------------------------------
def _by_number(shares: Iterable[Share]) -> list[Share]:
    return sorted(shares, key=lambda s: int(s.id.rsplit("_", 1)[1]))


def _sr_buys(gm: G1822CA, step: Step, player: str, focus: str | None = None) -> list[Offer]:
    """One certificate from the treasury or the pool (RB 4.3)."""
    assert isinstance(step, BuySellParShares)
    if player != step._player():
        return []
    out: list[Offer] = []
    sold = step._sold_this_round(gm, player)
    bids = len(gm.boxes.player_bids(player, committed_only=True))
    free = step.available(gm)
    for corp, c in gm.corps.items():
        if not gm.is_major(corp) or not c.ipoed or focus not in (None, corp):
            continue
        price = gm.price(corp)
        for holder in (corp, POOL):
            certs = _by_number(s for s in gm.shares_of(holder, corp) if not s.president)
            if not certs:
                continue
            first = certs[0]
            total = price * first.percent // 10
            why: str | None = None
            if corp in sold:
                why = f"{corp} was sold this round"
            elif gm.percent_of(player, corp) + first.percent > c.max_ownership:
                why = f"over the {c.max_ownership}% holding limit"
            elif price >= 50 and gm.num_certs(player) + bids >= gm.cert_limit:
                why = "over the certificate limit"
            elif total > free:
                why = "not enough cash beside the committed bids"
            out.append(ShareOffer(
                kind="buy", corporation=corp, shares=(first.id,), percent=first.percent,
                price=price, total=total, source=holder, why_not=why, rule="RB 4.3",
                fungible=frozenset(s.id for s in certs if s.percent == first.percent)))
    return out


def _bundles(gm: G1822CA, player: str, corp: str) -> list[tuple[tuple[str, ...],
                                                                 frozenset[str], int, bool]]:
    """The bundles ``player`` could sell of ``corp``: (certificates, fungible ones,
    percent, whether the director's certificate goes); ordinary certificates go
    first, the director's only with all of them (RB 4.4.7; 18xx.games D21)."""
    held = gm.shares_in_arrival_order(player, corp)
    ordinary = [s for s in held if not s.president]
    pres = next((s for s in held if s.president), None)
    fungible = frozenset(s.id for s in ordinary)
    out: list[tuple[tuple[str, ...], frozenset[str], int, bool]] = []
    for k in range(1, len(ordinary) + 1):
        part = ordinary[:k]
        out.append((tuple(s.id for s in part), fungible, sum(s.percent for s in part), False))
    if pres is not None:
        ids = tuple(s.id for s in [*ordinary, pres])
        full = sum(s.percent for s in held)
        for pct in range(full, full - pres.percent, -10):
            if pct > 0:
                out.append((ids, fungible, pct, True))
    return out


def _sale_problem(gm: G1822CA, player: str, corp: str, pct: int, pres: bool) -> str | None:
    """Why this sale is not allowed whatever the step (RB 4.4), or None."""
    if gm.operating_history.get(corp, 0) < 1:
        return f"{corp} has not operated yet"
    if gm.percent_of(POOL, corp) + pct > POOL_LIMIT:
        return f"the pool would hold more than {POOL_LIMIT}%"
    if pres:
        pres_pct = gm.shares[f"{corp}_0"].percent
        others = max((gm.percent_of(p.id, corp) for p in gm.players if p.id != player),
                     default=0)
        if gm.percent_of(player, corp) - pct >= others:
            return f"still the director of {corp}: sell ordinary certificates (RB 3.3.3)"
        if others < pres_pct:
            return "no other player can take the director's certificate"
    return None


def _sales(gm: G1822CA, player: str, why_company: Callable[[str], str | None],
           rule: str, focus: str | None = None) -> list[Offer]:
    out: list[Offer] = []
    corps = sorted({s.corp for s in gm.shares.values() if s.owner == player})
    for corp in corps:
        if not gm.is_major(corp) or focus not in (None, corp):
            continue
        price = gm.price(corp)
        general = why_company(corp)
        for ids, fungible, pct, pres in _bundles(gm, player, corp):
            why = general or _sale_problem(gm, player, corp, pct, pres)
            out.append(ShareOffer(
                kind="sell", corporation=corp, shares=ids, percent=pct, price=price,
                total=price * pct // 10, source=player, why_not=why, rule=rule,
                fungible=fungible))
    return out


def _sr_sells(gm: G1822CA, step: Step, player: str, focus: str | None = None) -> list[Offer]:
    assert isinstance(step, BuySellParShares)
    if player != step._player():
        return []

    def why(corp: str) -> str | None:
        if corp in step.sold_now:
            return "all shares of a company go in one sale (RB 4.4.3)"
        return None

    return _sales(gm, player, why, "RB 4.4", focus)


def _emergency_sells(gm: G1822CA, step: Step, player: str, focus: str | None = None) -> list[Offer]:
    """The director raises money for a forced train purchase (RB 5.15.5)."""
    assert isinstance(step, BuyTrainStep)
    corp = step.corp()
    if player != gm.president(corp):
        return []

    def why(sold: str) -> str | None:
        if sold in step.corporations_sold:
            return f"one sale of {sold} per emergency (RB 5.15.5)"
        if sold == corp and gm.operating_history.get(corp, 0) < 2:
            return f"{corp} has not completed an operating turn"
        return None

    out = _sales(gm, player, why, "RB 5.15", focus)
    cheapest = min_depot_price(gm)
    short = (cheapest or 0) - gm.cash[player] - gm.cash[corp]
    keep: list[Offer] = []
    for offer in out:
        assert isinstance(offer, ShareOffer)
        if offer.why_not is None and offer.corporation == corp and gm.percent_of(
                player, corp) - offer.percent < max(gm.percent_of(p.id, corp)
                                                    for p in gm.players if p.id != player):
            offer = dataclasses.replace(
                offer, why_not="the director may not lose the operating company")
        if offer.why_not is None:
            # RB 5.15.3/5.15.5: no more shares than needed (18xx.games
            # ``selling_minimum_shares?``: one share fewer would not raise enough)
            least = min(gm.shares[s].percent for s in offer.shares)
            fewer = offer.total - offer.price * least // 10
            if fewer >= short:
                offer = dataclasses.replace(offer, why_not=(
                    f"more than needed: {player} is ${max(short, 0)} short and one share "
                    f"fewer raises ${fewer} (RB 5.15.5)"))
        keep.append(offer)
    return keep


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class IssueOffer(ShareOffer):
    """An issue whose moves name the price the company receives, as 18xx.games writes
    it (``reduced_bundle_price_for_market_drop``): an exported game replays the same."""

    def moves(self, entity: str, entity_type: str) -> tuple[Action, ...]:
        if self.why_not:
            return ()
        return (SellShares(entity=entity, entity_type=entity_type, shares=self.shares,
                           percent=self.percent, share_price=self.price),)


def _issues(gm: G1822CA, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """Issue k treasury shares at the price after k steps left (RB 5.19.2)."""
    assert isinstance(step, IssueShares)
    if not step.is_current(corp):
        return []
    treasury = [s for s in gm.ipo_shares(corp) if not s.president]
    fungible = frozenset(s.id for s in treasury)
    pool = gm.percent_of(POOL, corp)
    # compat_18xxgames, reloading only: 18xx.games' G1822CA IssueShares#process_sell_shares
    # pays the recorded share_price unchecked (docs/rules-notes.md, "Issue price")
    as_recorded = gm.config.compat_18xxgames and gm.loading
    out: list[Offer] = []
    for k in range(1, len(treasury) + 1):
        part = treasury[:k]
        pct = sum(s.percent for s in part)
        price = gm.market.relative(corp, False, ["left"] * k).price
        why = (f"the pool would hold more than {POOL_LIMIT}%" if pool + pct > POOL_LIMIT
               else None)
        out.append(IssueOffer(
            kind="issue", corporation=corp, shares=tuple(s.id for s in part), percent=pct,
            price=price, total=price * k, source=corp, why_not=why, rule="RB 5.19",
            fungible=fungible, price_as_recorded=as_recorded))
    return out


def _redeems(gm: G1822CA, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """Buy k shares back from the pool at the market price (RB 5.19.4)."""
    assert isinstance(step, IssueShares)
    if not step.is_current(corp):
        return []
    pool = _by_number(s for s in gm.shares_of(POOL, corp) if not s.president)
    fungible = frozenset(s.id for s in pool)
    price = gm.price(corp)
    out: list[Offer] = []
    for k in range(1, len(pool) + 1):
        part = pool[:k]
        total = price * k
        why = "not enough cash" if total > gm.cash[corp] else None
        out.append(ShareOffer(
            kind="redeem", corporation=corp, shares=tuple(s.id for s in part),
            percent=sum(s.percent for s in part), price=price, total=total, source=POOL,
            why_not=why, rule="RB 5.19", fungible=fungible))
    return out


# -- starting a major, bids --------------------------------------------------------------
def _pars(gm: G1822CA, step: Step, player: str, focus: str | None = None) -> list[Offer]:
    """Convert a concession (phases 2-4) or, from phase 5, start any major (RB 4.7)."""
    assert isinstance(step, BuySellParShares)
    if player != step._player():
        return []
    out: list[Offer] = []
    bids = len(gm.boxes.player_bids(player, committed_only=True))
    for corp, c in gm.corps.items():
        if not gm.is_major(corp) or c.ipoed or focus not in (None, corp):
            continue
        concession = gm.concession_of(corp)
        why: str | None = None
        if concession is not None:
            if gm.companies[concession].owner != player:
                why = f"needs the {concession} concession"
            elif not gm.has_status("can_convert_concessions"):
                why = "concessions convert in phases 2-4 only"
        elif not gm.has_status("can_par"):
            why = f"{corp} needs its concession before phase 5"
        elif gm.num_certs(player) + bids >= gm.cert_limit:
            why = "over the certificate limit"
        cells = tuple(ParCell(share_price=o.share_price, price=o.price, cost=o.cost,
                              why_not=o.problem) for o in gm.par_options(player, corp))
        out.append(ParOffer(corporation=corp, cells=cells, why_not=why, rule="RB 4.7"))
    return out


def _bids(gm: G1822CA, step: Step, player: str, focus: str | None = None) -> list[Offer]:
    """A bid on a company in a bid box (RB 4.2.5-4.2.9)."""
    assert isinstance(step, BuySellParShares)
    if player != step._player():
        return []
    boxes = gm.boxes
    offered = boxes.offered()
    room = boxes.room(player)
    free = room[1]
    out: list[Offer] = []
    for company in offered:
        if focus not in (None, company):
            continue
        out.append(BidOffer(company=company, minimum=boxes.min_bid(company),
                            maximum=free, step=5,
                            step_from=0 if company.startswith("P") else 100,
                            why_not=boxes.problem(player, company, None, offered, room),
                            rule="RB 4.2"))
    return out


# -- trains ------------------------------------------------------------------------------
def _trains(gm: G1822CA, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """New trains (either side of a double card), the pool's, other companies'
    from phase 3, and an L flipped to a 2 (RB 5.10)."""
    assert isinstance(step, BuyTrainStep)
    if corp != step.corp():
        return []
    cash = gm.cash[corp]
    forced = must_buy_train(gm, corp)
    room = len(gm.real_trains(corp)) < gm.train_limit(corp)
    full = None if room else f"{corp} is at its train limit"
    president = gm.president(corp)

    def short(price: int, name: str) -> str | None:
        """Why ``price`` for a ``name`` train is beyond the company (RB 5.15.6), or None."""
        if price <= cash:
            return None
        if not forced:
            return "not enough cash"
        if why := forced_problem(gm, name):
            return why
        if president is not None and price - cash > gm.cash[president] \
                and sellable_shares(gm, president, corp, step.corporations_sold):
            return f"{president} must sell shares before borrowing (RB 5.15.6)"
        return None

    out: list[Offer] = []
    for t in depot_offer(gm):
        if focus not in (None, t.id):
            continue
        if t.owner == DEPOT:
            for side, (_d, price, _r, _m) in gm.train_variants[gm.train_base[t.id]].items():
                why = full or e_train_problem(gm, corp, side) or short(price, side)
                out.append(TrainOffer(train=t.id, name=t.name, seller=DEPOT, price=price,
                                      variant=side, why_not=why, rule="RB 5.10"))
        else:
            why = full or e_train_problem(gm, corp, t.name) or short(t.price, t.name)
            out.append(TrainOffer(train=t.id, name=t.name, seller=POOL, price=t.price,
                                  variant=t.name, why_not=why, rule="RB 5.10"))
    between = None if gm.has_status("can_buy_trains") else \
        "trains change hands between companies from phase 3"
    refused: set[tuple[str, str]] = getattr(step.round, "refused", set())
    for t in other_trains(gm, corp):
        if focus not in (None, t.id):
            continue
        out.append(TrainOffer(train=t.id, name=t.name, seller=t.owner, min_price=1,
                              max_price=cash, why_not=between or full
                              or e_train_problem(gm, corp, t.name) or (
                                  "not enough cash" if cash < 1 else None) or (
                                  f"{gm.president(t.owner)} refused this deal this turn"
                                  if (BuyTrain.type, t.id) in refused else None),
                              list_price=t.price, rule="RB 5.10.4"))
    flip = l_upgrade_price(gm)
    for t in gm.corp_trains(corp):
        if t.name == "L":
            # the variant is named: 18xx.games sets the upgraded train's variant from
            # the action (none would leave an L bought for the 2's price)
            out.append(TrainOffer(train=t.id, name="2", seller=DEPOT, price=flip,
                                  variant="2", exchange=t.id, why_not=None if flip <= cash
                                  else "not enough cash", rule="RB 5.10.3"))
    return out


def _first_l(gm: G1822CA, step: Step, minor: str, focus: str | None = None) -> list[Offer]:
    """A minor's first turn: the next L-train (RB 5.5.3), named as 18xx.games names it."""
    assert isinstance(step, FirstTurnHousekeeping)
    if not step.is_current(minor):
        return []
    out: list[Offer] = []
    found = step.offers(gm)
    pooled = {t.id for t in found if t.owner == POOL}
    ls = frozenset(tid for tid, base in gm.train_base.items() if base == "L") - pooled
    for t in found:
        out.append(TrainOffer(train=t.id, name=t.name, seller=t.owner, price=t.price,
                              aliases=frozenset() if t.owner == POOL else ls,
                              rule="RB 5.5.3"))
    return out


def _tokens(gm: G1822CA, step: Step, corp: str,
            focus: str | None = None) -> list[Offer] | None:
    """A station token in a city the company reaches with a slot for it, at the
    token's price (RB 5.8); P10's Winnipeg token (`_winnipeg_tokens`)."""
    assert isinstance(step, TokenStep)
    if corp == R.WINNIPEG_TOKEN:
        return _winnipeg_tokens(gm, step, corp, focus)
    if not step.is_current(corp):
        return []
    tok = gm.corps[corp].next_token()
    if tok is None:
        return []
    cities: list[tuple[str, int, str]] = []
    if focus is not None:
        try:
            parsed, city = gm.map.parse_city_id(focus)
        except IllegalAction:
            return []
        cities.append((str(parsed), city, focus))
    else:
        from desk18xx.engine.map.graph import graph_for

        for hid, node in sorted(graph_for(gm.map).reach(corp).nodes):
            st = gm.map.hex(hid)
            if node in st.geo.city_nodes:
                city = st.geo.city_nodes.index(node)
                cities.append((hid, city, gm.map.city_id(hid, city)))
    cash = gm.cash[corp]
    out: list[Offer] = []
    for hex_id, city, city_id in cities:
        why: str | None = None
        if step.orr().tokened:
            why = "one token per turn (RB 5.8)"
        elif not gm.can_token_in(corp, hex_id, city):
            why = f"{corp} cannot reach an open slot in {hex_id}"
        elif tok.price > cash:
            why = "not enough cash"
        if focus is None and why is not None and not step.orr().tokened \
                and tok.price <= cash:
            continue  # not a city to offer at all
        out.append(TokenOffer(hex=str(hex_id), city=city_id, index=city, cost=tok.price,
                              why_not=why, rule="RB 5.8"))
    return out


# -- track -------------------------------------------------------------------------------
LAY_RULE = "RB 5.7"
TILE_HEX_PROBES = 8
"""Reached hexes a random lay looks at, in random order (`random_offers`)."""
TILE_HEXES_OFFERED = 2
"""Hexes with a lay offered to random play per track decision."""


@dataclasses.dataclass(frozen=True, slots=True)
class _LayKind:
    """What one lay may be: the company paying, the kinds of tile, the ability."""

    corp: str
    may_yellow: bool = True
    may_upgrade: bool = True
    second: bool = False
    special: bool = False
    remove_town: bool = False
    ahead: bool = False
    free: bool = False
    only_hex: str | None = None
    """A private that lays on one hex only (P14-P18: its city; P19/P20: its pass)."""
    tiles: frozenset[str] | None = None
    """The only tiles this lay may use (a private's, `rules.ABILITY_TILES`)."""
    grant: bool = False
    """P21's grant: not on a $120 mountain nor in a big city (`G1822CA.grant_hex_problem`)."""
    blocked_hexes: tuple[tuple[str, str], ...] = ()
    """(hex, why not) for hexes this lay may not use (laid this turn)."""
    why_not: str | None = None
    rule: str = LAY_RULE


def _lays_of(gm: G1822CA, kind: _LayKind | None, focus: str | None,
             rng: random.Random | None = None) -> list[Offer]:
    """One offer per hex ``kind.corp`` reaches (the focused hex only, and that tile
    only, when ``focus`` is ``"HEX"`` or ``"HEX/TILE"``; with ``rng``, random play's
    few: `TILE_HEX_PROBES` hexes drawn, the first `TILE_HEXES_OFFERED` with a lay)."""
    from desk18xx.engine.map.graph import graph_for

    if kind is None:
        return []
    reach = graph_for(gm.map).reach(kind.corp)
    if focus is not None:
        hex_id, tile, turn = _focus_parts(focus)
        edges = reach.connected_edges(hex_id)
        # the company's token hexes matter only for a hex its track does not reach
        tokened = set() if edges is not None else {
            str(h) for h, _c in gm.map.tokens_of(kind.corp)}
        return [_hex_lay(gm, kind, hex_id, edges, tokened, tile, turn)]
    token_hexes = {str(h) for h, _c in gm.map.tokens_of(kind.corp)}
    hexes = sorted({str(h) for h in reach.edges} | token_hexes)
    if kind.only_hex is not None:
        hexes = [h for h in hexes if h == kind.only_hex] or [kind.only_hex]
    if rng is not None:
        if kind.why_not is not None:
            return []
        blocked = dict(kind.blocked_hexes)
        hexes = [h for h in hexes if h not in blocked and h in gm.map]
        rng.shuffle(hexes)
        hexes = hexes[:TILE_HEX_PROBES]
    out: list[Offer] = []
    for hex_id in hexes:
        offer = _hex_lay(gm, kind, hex_id, reach.connected_edges(hex_id), token_hexes)
        if offer.tiles:
            out.append(offer)
            if rng is not None and len(out) >= TILE_HEXES_OFFERED:
                break
    return out


def _open_lay_kinds(gm: G1822CA, entity: str) -> Iterator[tuple[_LayKind, Any, set[str]]]:
    """Each lay ``entity`` may make now (its allowed lay kind), with the reach of the
    company whose network it uses and that company's token hexes."""
    from desk18xx.engine.map.graph import graph_for

    for step, _type in _open_steps(gm, entity, (LayTile.type,)):
        make_kind = _LAY_KINDS.get(type(step))
        kind = None if make_kind is None else make_kind(gm, step, entity)
        if kind is None or kind.why_not is not None:
            continue
        reach = graph_for(gm.map).reach(kind.corp)
        yield kind, reach, {str(h) for h, _c in gm.map.tokens_of(kind.corp)}


def lay_hexes(gm: G1822CA, entity: str) -> frozenset[str]:
    """The hexes on which ``entity`` may lay some tile now: the hexes of its allowed
    lay offers that list a tile (`offers` for ``"lay_tile"``), asked with an early
    exit: each hex stops at the first tile `_hex_lay` lets on it (its ``first``: the
    same checks, one tile at a time), instead of every tile's rotations and
    refusals (the map's outlines; issue 18)."""
    out: set[str] = set()
    for kind, reach, token_hexes in _open_lay_kinds(gm, entity):
        out.update(h for h in _lay_hexes_to_ask(gm, kind, reach, token_hexes)
                   if _hex_lay(gm, kind, h, reach.connected_edges(h), token_hexes,
                               first=True).tiles)
    return frozenset(out)


def lay_tiles(gm: G1822CA, entity: str) -> frozenset[str]:
    """The tiles ``entity`` may lay on some hex now: those its allowed lay offers list
    (the tile tray; issue 18), from `lay_choices`' one walk."""
    return lay_choices(gm, entity)[1]


def lay_choices(gm: G1822CA, entity: str) -> tuple[frozenset[str], frozenset[str]]:
    """(`lay_hexes`, `lay_tiles`) in one walk of the hexes: a hex where only tiles
    found already fit is asked about those tiles alone."""
    hexes: set[str] = set()
    found: set[str] = set()
    for kind, reach, token_hexes in _open_lay_kinds(gm, entity):
        names = gm.map.available_names()
        order = {n: i for i, n in enumerate(names)}
        for hex_id in _lay_hexes_to_ask(gm, kind, reach, token_hexes):
            edges = reach.connected_edges(hex_id)
            asked = set(found)
            while True:
                offer = _hex_lay(gm, kind, hex_id, edges, token_hexes, first=True,
                                 skip=asked, supply=names)
                if not offer.tiles:
                    break
                hexes.add(hex_id)
                found.add(offer.tiles[0][0])
                # the tiles before it were asked on this hex and refused
                asked.update(names[:order[offer.tiles[0][0]] + 1])
            if offer.why_not is None and hex_id not in hexes and found:
                known = set(found)
                if _hex_lay(gm, kind, hex_id, edges, token_hexes, first=True, supply=names,
                            skip=[n for n in names if n not in known]).tiles:
                    hexes.add(hex_id)
    return frozenset(hexes), frozenset(found)


def _lay_hexes_to_ask(gm: G1822CA, kind: _LayKind, reach: Any,
                      token_hexes: set[str]) -> list[str]:
    """The hexes `_lays_of` builds an offer for (no focus, no random draw)."""
    hexes = sorted({str(h) for h in reach.edges} | token_hexes)
    if kind.only_hex is not None:
        hexes = [h for h in hexes if h == kind.only_hex] or [kind.only_hex]
    return hexes


def _focus_parts(focus: str) -> tuple[str, str | None, int | None]:
    """``"HEX"``, ``"HEX/TILE"`` or ``"HEX/TILE/ROTATION"`` (the door's lay)."""
    hex_id, _, rest = focus.partition("/")
    tile, _, turn = rest.partition("/")
    rotation = int(turn) % 6 if tile and turn.lstrip("-").isdigit() else None
    return hex_id, tile or None, rotation


def _turns(turn: int | None) -> list[int]:
    """The rotations to ask, the door's own first."""
    return list(range(6)) if turn is None else [turn, *(r for r in range(6) if r != turn)]


def _hex_lay(gm: G1822CA, kind: _LayKind, hex_id: str, edges: frozenset[int] | None,
             token_hexes: set[str], only: str | None = None,
             turn: int | None = None, *, first: bool = False,
             skip: Collection[str] = (), supply: list[str] | None = None) -> TileLayOffer:
    """The offer of ``kind``'s lay on ``hex_id`` (tile ``only``, when given), as
    `G1822CA.lay_tile` and the step would check it (RB 5.7; supplement §6.1).

    With ``first`` (`lay_hexes`' early exit) the tiles are asked one by one and the
    first that passes every check (the per-tile ones after the loop too: most exits,
    cost) is the offer's only tile; no refusal is listed; the tiles in ``skip`` are
    not asked (`lay_tiles`: known to fit some hex already); ``supply`` is
    ``board.available_names()`` when the caller has it already."""
    from desk18xx.engine.map.upgrades import (
        lay_cost,
        rotation_problem,
        upgrade_problem,
    )

    board = gm.map
    corp = kind.corp
    try:
        hd: HexDef | None = board.hex_def(hex_id)
    except KeyError:
        hd = None
    where = f"{hd.location_name} ({hex_id})" if hd is not None and hd.location_name else hex_id
    make = functools.partial(TileLayOffer, hex=hex_id, rule=kind.rule,
                             second_lay=kind.second, label=where, by=corp)
    why = kind.why_not
    if why is None and hd is None:
        why = f"no hex {hex_id}"
    if why is None:
        why = dict(kind.blocked_hexes).get(hex_id)
    if why is None and kind.only_hex is not None and hex_id != kind.only_hex:
        why = f"this private lays only on {kind.only_hex}"
    if why is None and kind.grant:
        why = gm.grant_hex_problem(hex_id)
    if why is None and edges is None and hex_id not in token_hexes:
        why = f"{corp}'s network does not reach {where}"
    st = board.hex(hex_id) if why is None else None
    if why is None and st is not None:
        others = [b for b in st.blockers if b != corp]
        if others:
            why = f"{where} is blocked by {others[0]}"
    if why is not None or st is None:
        return make(why_not=why)
    upgrade = st.geo.tile.color.value != "white"
    if upgrade and not kind.may_upgrade:
        return make(why_not="the second lay must be a yellow tile (RB 5.7.3)")
    if kind.remove_town:
        # P29/P30: plain track on a single-town hex, never the sawmill's (the cards)
        if st.geo.city_nodes or len(st.geo.town_nodes) != 1:
            return make(why_not=f"{where} has no single town to remove "
                                f"(supplement §6.1 P29/P30)")
        if gm.sawmill_hex == hex_id:
            return make(why_not=f"the sawmill's town on {where} stays "
                                f"(supplement §6.1 P29/P30)")
    rules = gm.track_rules
    phase = list(gm.phase_colors())
    names = [only] if only is not None else \
        supply if supply is not None else board.available_names()
    refused: list[tuple[str, str]] = []
    fitting: dict[str, tuple[int, ...]] = {}
    old = st.geo.tile
    # a tile of another colour than the next never fits, but where the printed hex
    # takes named tiles only (as `upgrade_problem` says, without asking it)
    any_colour = st.printed and hex_id in rules.replace_only
    next_colour = COLOR_ORDER.index(old.color) + 1 if old.color in COLOR_ORDER else -9
    what = hex_id if st.printed else f"tile {old.name} on {hex_id}"
    for name in names:
        if first and name in skip:
            continue
        try:
            tile = board.tile_def(name)
        except IllegalAction:
            refused.append((name, f"there is no tile {name} in this game"))
            continue
        if only is not None and board.remaining(tile.name) == 0:
            refused.append((name, f"no tile {name} is left"))
            continue
        if kind.tiles is not None and tile.name not in kind.tiles:
            refused.append((name, f"this private lays only tiles "
                                  f"{', '.join(sorted(kind.tiles))} (supplement §6.1)"))
            continue
        if kind.remove_town and name not in rules.plain_tiles:
            refused.append((name, f"the town goes: a plain track tile, not {name} "
                                  f"(supplement §6.1 P29/P30)"))
            continue
        if not any_colour and COLOR_ORDER.index(tile.color) != next_colour:
            refused.append((name, f"A {tile.color} tile cannot replace the {old.color} {what}"))
            continue
        colors = list(phase)
        if kind.ahead:
            try:
                colors.append(gm._advanced_colour(hex_id, tile.name, tile.color))
            except IllegalAction as exc:
                refused.append((name, str(exc)))
                continue
        why = None
        if gm.is_minor(corp) and tile.color.value in ("brown", "gray"):
            why = "minors never lay brown or grey tiles (RB 5.7.9)"
        elif tile.color not in colors:
            why = f"{tile.color.value} tiles come in a later phase"
        elif tile.color.value == "yellow" and not kind.may_yellow:
            why = "no yellow tile on this lay"
        else:
            why = upgrade_problem(board, hex_id, tile, rules, special=kind.special,
                                  remove_town=kind.remove_town)
            if why is not None and not first and "it needs a tile with label " in why:
                why = _label_words(gm, where, tile.color, why.rsplit(" ", 1)[1])
        if why is not None:
            refused.append((name, why))
            continue
        rots: list[int] = []
        problem_1: str | None = None
        for rot in _turns(turn):
            problem = rotation_problem(board, hex_id, tile, rot, rules, edges,
                                       remove_town=kind.remove_town)
            if problem is None:
                rots.append(rot)
                if turn is not None:
                    break  # the door's lay fits: the other rotations are not asked
            elif problem_1 is None:
                problem_1 = problem
        if rots:
            fitting[name] = tuple(rots)
            if first:
                if _tile_passes(gm, kind, hex_id, edges, name, tuple(rots)):
                    return make(tiles=((name, tuple(rots)),))
                del fitting[name]
        else:
            refused.append((name, problem_1 or f"tile {name} does not fit {where}"))
    if first:
        return make()
    if fitting and not kind.special:
        _most_exits(gm, hex_id, edges, fitting, refused)
    costs: dict[tuple[str, int], int] = {}
    turned: list[tuple[str, int, str]] = []
    cash = gm.cash.get(corp, 0)
    for name, fits in list(fitting.items()):
        tile = board.tile_def(name)
        kept: list[int] = []
        problem = ""
        for rot in fits:
            cost = 0 if kind.free else lay_cost(board, hex_id, tile, rot, rules).total
            if cost <= cash:
                kept.append(rot)
                costs[(name, rot)] = cost
            else:
                problem = f"${cost} needed, {corp} has ${cash} ({LAY_RULE})"
                turned.append((name, rot, problem))
        if kept:
            fitting[name] = tuple(kept)
        else:
            del fitting[name]
            refused.append((name, problem))
    if not fitting:
        return make(refused=tuple(refused))
    cheapest = min(costs.values())
    return make(tiles=tuple(fitting.items()), cost=cheapest,
                costs=tuple((n, r, c) for (n, r), c in costs.items() if c != cheapest),
                refused=tuple(refused), turned=tuple(turned),
                copies=tuple((n, str(board.next_copy(n))) for n in fitting))


def _tile_passes(gm: G1822CA, kind: _LayKind, hex_id: str, edges: frozenset[int] | None,
                 name: str, rots: tuple[int, ...]) -> bool:
    """True when tile ``name``, fitting ``hex_id`` at ``rots``, passes the per-tile
    checks `_hex_lay` makes after its loop: most exits, and a rotation the company
    can pay for (`_hex_lay`'s ``first``)."""
    from desk18xx.engine.map.upgrades import lay_cost

    one = {name: rots}
    if not kind.special:
        _most_exits(gm, hex_id, edges, one, [])
    if not one:
        return False
    board = gm.map
    tile = board.tile_def(name)
    cash = gm.cash.get(kind.corp, 0)
    return any((0 if kind.free else lay_cost(board, hex_id, tile, rot, gm.track_rules).total)
               <= cash for rot in rots)


def _label_words(gm: G1822CA, where: str, color: object, label: str) -> str:
    """"Bytown (Ottawa) (AE15) takes only its O tiles: ..." for a tile of the wrong label."""
    fits = sorted((n for n in gm.map.available_names()
                   if gm.map.tile_def(n).label == label and gm.map.tile_def(n).color == color),
                  key=lambda n: (len(n), n))
    listed = f": {', '.join(fits)}" if fits else ""
    return f"{where} takes only its {label} tiles{listed}"


def _most_exits(gm: G1822CA, hex_id: str, edges: frozenset[int] | None,
                fitting: dict[str, tuple[int, ...]], refused: list[tuple[str, str]]) -> None:
    """RB 5.7.34-5.7.35: where the most-exits rule applies to a tile, it must be one
    of `upgrades.legal_tiles` (as `upgrades.check_tile_lay` asks)."""
    from desk18xx.engine.map.upgrades import _max_exits_applies, _more_exits_fit, legal_tiles

    board = gm.map
    st = board.hex(hex_id)
    legal: dict[object, dict[str, tuple[int, ...]]] = {}
    for name in list(fitting):
        tile = board.tile_def(name)
        if not _max_exits_applies(st, gm.track_rules, tile) \
                or not _more_exits_fit(board, hex_id, tile, gm.track_rules, edges):
            continue
        if tile.color not in legal:
            legal[tile.color] = legal_tiles(board, hex_id, [tile.color], gm.track_rules, edges)
        if name not in legal[tile.color]:
            del fitting[name]
            better = ", ".join(sorted(legal[tile.color]))
            refused.append((name, f"a tile with more exits must be laid on {hex_id} "
                                  f"({better}; RB 5.7.34)"))


def sandbox_lays(gm: G1822CA, corp: str, hex_id: str | None = None) -> list[Offer]:
    """Study mode's lays for ``corp`` whoever acts (`G1822CA.lay_tile`'s own checks:
    reach, colours, upgrade path, most exits, cost)."""
    return _lays_of(gm, _LayKind(corp=corp), hex_id)


def _track_kind(gm: G1822CA, step: Step, corp: str) -> _LayKind | None:
    """The operating company's lay: one, or a major's yellow second lay from phase 3
    (RB 5.7.3); never twice on one hex."""
    assert isinstance(step, TrackStep)
    if not step.is_current(corp) or corp not in gm.corps:
        return None
    opts = step.lay_options(gm)
    orr = step.orr()
    laid = tuple((h, f"{h} was laid this turn (RB 5.7.38)") for h in orr.laid_hexes)
    if opts is None:
        return _LayKind(corp=corp, why_not=f"{corp} has no tile lay left (RB 5.7.3)")
    return _LayKind(corp=corp, may_yellow=opts[0], may_upgrade=opts[1],
                    second=orr.num_laid_track > 0, blocked_hexes=laid)


def _special_kind(gm: G1822CA, step: Step, company: str) -> _LayKind | None:
    """A private's lay for its owner (supplement §6.1: P12, P14-P21, P29, P30)."""
    assert isinstance(step, SpecialTrack)
    corp = step.corp()
    orr = step.orr()
    consume = company in R.MOUNTAIN_PASS_COMPANIES or company in R.REMOVE_TOWN \
        or company == R.ADVANCED_TILE_LAY
    why: str | None = None
    if consume and orr.num_laid_track > 0:
        why = f"{company} replaces the normal track lay, already used this turn"
    elif company == R.TILE_GRANT and grant_lays_left(gm, orr) == 0:
        why = f"{company} has no grant lay left"
    trusted = gm.config.compat_18xxgames and gm.loading
    laid = () if trusted else tuple(
        (h, f"{h} was laid this turn: {company} may not upgrade it now (RB 5.7.38)")
        for h in orr.laid_hexes)
    return _LayKind(
        corp=corp, special=company in R.SPECIAL_LAYS, remove_town=company in R.REMOVE_TOWN,
        ahead=company == R.ADVANCED_TILE_LAY,
        free=company in R.BIG_CITY_COMPANIES or company in R.MOUNTAIN_PASS_COMPANIES
        or company == R.TILE_GRANT,
        only_hex=R.PRIVATE_LAY_HEXES.get(company), tiles=R.ABILITY_TILES.get(company),
        grant=company == R.TILE_GRANT, blocked_hexes=laid, why_not=why,
        rule="supplement §6.1")


def _bonus_kind(gm: G1822CA, step: Step, corp: str) -> _LayKind | None:
    """The acquiring major's bonus lay (RB 5.17.13): not on a hex laid this turn."""
    assert isinstance(step, AcquisitionTrack)
    if not step.is_current(corp) or step.orr().acquiring_major != corp:
        return None
    laid = tuple((h, f"{h} was already laid or upgraded this turn (RB 5.17.13)")
                 for h in step.orr().laid_hexes)
    return _LayKind(corp=corp, blocked_hexes=laid, rule="RB 5.17.13", second=True)


_LAY_KINDS: dict[type[Step], Callable[[G1822CA, Step, str], _LayKind | None]] = {
    TrackStep: _track_kind, SpecialTrack: _special_kind, AcquisitionTrack: _bonus_kind}
"""The steps that lay track, and the lay each allows an entity now."""


def _lays(gm: G1822CA, step: Step, entity: str, focus: str | None = None) -> list[Offer]:
    """The lays of the step (`_LAY_KINDS`), one offer per hex."""
    return _lays_of(gm, _LAY_KINDS[type(step)](gm, step, entity), focus)


# -- every other move kind ---------------------------------------------------------------
@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class MoveOffer(Offer):
    """One move named by its action type and the fields that say which it is, for the
    kinds no richer offer describes (a dividend kind, a train to discard, a private to
    take over, a minor to merge, an ability's choice, a debt to pay off).

    ``fields`` are (name, value) the action must carry; ``ranges`` (name, lowest,
    highest) a number the player chooses (an amount)."""

    action: str
    """The action type (``"dividend"``)."""
    fields: tuple[tuple[str, object], ...] = ()
    ranges: tuple[tuple[str, int, int], ...] = ()
    label: str = ""
    """The move in players' words."""

    @property
    def types(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.action,)

    def concerns(self, action: Action) -> bool:
        return action.type == self.action and all(
            getattr(action, name, None) == value for name, value in self.fields)

    def moves(self, entity: str, entity_type: str) -> tuple[Action, ...]:
        if self.why_not:
            return ()
        cls = ACTION_TYPES[self.action]
        base: dict[str, Any] = dict(self.fields)
        if not self.ranges:
            return (cls(entity=entity, entity_type=entity_type, **base),)
        name, low, high = self.ranges[0]
        return tuple(cls(entity=entity, entity_type=entity_type, **{**base, name: v})
                     for v in sorted({low, high}))

    def mismatch(self, action: Action) -> str | None:
        for name, low, high in self.ranges:
            value = getattr(action, name, None)
            if not isinstance(value, int) or not low <= value <= high:
                return self._cite(f"{name}: {self.label or self.action} takes "
                                  f"${low:,} to ${high:,}, not {value}")
        return None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class DestinationOffer(TokenOffer):
    """The destination token (RB 5.8.6), named by hex (``by_hex``) or by city; its
    moves carry ``token_type`` destination, as 18xx.games needs."""

    by_hex: bool = False

    def concerns(self, action: Action) -> bool:
        if self.by_hex:
            return isinstance(action, HexToken) and action.hex == self.hex
        return isinstance(action, PlaceToken) and action.city == self.city

    def moves(self, entity: str, entity_type: str) -> tuple[Action, ...]:
        if self.why_not:
            return ()
        if self.by_hex:
            return (HexToken(entity=entity, entity_type=entity_type, hex=self.hex,
                             token_type="destination"),)
        return (PlaceToken(entity=entity, entity_type=entity_type, city=self.city,
                           token_type="destination"),)


def _passes(gm: G1822CA, step: Step, entity: str, focus: str | None = None) -> list[Offer]:
    """End the step (its `legal` has Pass for ``entity``)."""
    why: str | None = None
    if isinstance(step, DestinationToken) and not gm.loading \
            and gm.destination_connected(entity):
        why = f"{entity} must place its destination token now"
    elif isinstance(step, BuyTrainStep) and must_buy_train(gm, entity):
        why = f"{entity} must buy a train"
    return [PassOffer(why_not=why, rule=_PASS_RULES.get(type(step), ""))]


def _debt_payoffs(gm: G1822CA, step: Step, player: str,
                  focus: str | None = None) -> list[Offer]:
    """Repay the whole debt the cash allows (RB 5.15.6)."""
    assert isinstance(step, BuySellParShares)
    if player != step._player():
        return []
    debt, cash = gm.debt[player], gm.cash[player]
    why = None if debt > 0 and cash > 0 else "no debt to repay" if debt <= 0 else "no cash"
    return [MoveOffer(action=PayoffPlayerDebt.type, why_not=why, rule="RB 5.15.6",
                      label="repay the debt")]


def _debt_partials(gm: G1822CA, step: Step, player: str,
                   focus: str | None = None) -> list[Offer]:
    """Repay part of the debt: $1 up to the debt or the cash (RB 5.15.6)."""
    assert isinstance(step, BuySellParShares)
    if player != step._player():
        return []
    top = min(gm.debt[player], gm.cash[player])
    return [MoveOffer(action=PayoffPlayerDebtPartial.type, ranges=(("amount", 1, top),),
                      why_not=None if top > 0 else "nothing to repay", rule="RB 5.15.6",
                      label="a repayment")]


def _tax_haven(gm: G1822CA, step: Step, company: str,
               focus: str | None = None) -> list[Offer]:
    """P11 buys one share of a major into the tax haven (supplement §6.1 P11)."""
    assert isinstance(step, BuySellParShares)
    out: list[Offer] = []
    player = step._player()
    sold = step._sold_this_round(gm, player)
    # who pays: RB 6.1.2 the owner; 18xx.games the haven once it holds anything
    haven = gm.cash[R.TAX_HAVEN] + gm.holdings_value(R.TAX_HAVEN)
    if gm.config.compat_18xxgames and haven > 0:
        payer, free = "the tax haven", gm.cash[R.TAX_HAVEN]
    else:
        payer, free = player, gm.cash[player] - gm.boxes.committed_cash(player)
    for corp, c in gm.corps.items():
        if not gm.is_major(corp) or not c.ipoed:
            continue
        for source, holder in (("ipo", corp), ("market", POOL)):
            if not any(not s.president for s in gm.shares_of(holder, corp)):
                continue
            why: str | None = None
            if gm.num_shares_of(R.TAX_HAVEN, corp):
                why = f"the tax haven already holds {corp}"
            elif corp in sold:
                why = f"{corp} was sold this round"
            elif gm.price(corp) > free:
                why = f"{gm.name_of(payer)} has not ${gm.price(corp)} beside the committed bids"
            out.append(MoveOffer(action=ChooseAbility.type,
                                 fields=(("choice", f"{corp}_{source}"),), why_not=why,
                                 rule="supplement §6.1 P11",
                                 label=f"a {corp} share from the {source} into the tax haven"))
    return out


def _doubles(gm: G1822CA, step: Step, player: str, focus: str | None = None) -> list[Offer]:
    """P7: double the cash for the player order (RB 4.11.13)."""
    return [ChooseOffer(choice="double", label="Double your cash for the order",
                        rule="RB 4.11.13")]


def _discards(gm: G1822CA, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """A crowded company returns one of the trains over its limit (RB 5.10.6)."""
    return [DiscardOffer(train=t.id, name=t.name, rule="RB 5.10.6")
            for t in gm.discardable(corp)]


def _pending_tokens(gm: G1822CA, step: Step, corp: str,
                    focus: str | None = None) -> list[Offer]:
    """A token that must go down now, in one of its hexes (RB 7.1.4)."""
    assert isinstance(step, PendingToken)
    pend = step.orr().pending_tokens
    if not pend or pend[0][0] != corp:
        return []
    _c, hexes, price = pend[0]
    routed = gm.pending_token_needs_route(corp, price)
    out: list[Offer] = []
    for hex_id in hexes:
        st = gm.map.hex(hex_id)
        for city in range(len(st.tokens)):
            city_id = gm.map.city_id(hex_id, city)
            if focus is not None and focus != city_id:
                continue
            why: str | None = None
            if corp == "QMOO" and hex_id == gm.corp_defs[corp].home_hexes[0] \
                    and st.free_slots(city) == 0:
                why = f"QMOO's home token needs an open slot in {city_id}"
            elif routed and not gm.reaches_city(corp, hex_id, city):
                why = f"{corp} has no route to {city_id}"
            else:
                why = gm.own_token_problem(corp, hex_id, city)
            out.append(TokenOffer(hex=hex_id, city=city_id, index=city, cost=price,
                                  why_not=why, rule="RB 7.1.4"))
    return out


def _sawmill_places(gm: G1822CA, step: Step, company: str,
                    focus: str | None = None) -> list[Offer]:
    """P13: the sawmill goes to one of its hexes on this map that still has a town
    or a city (supplement §6.1 P13; a scenario's map lacks some)."""
    return [MoveOffer(action=Assign.type, fields=(("target", h),), label=f"the sawmill to {h}",
                      rule="supplement §6.1 P13") for h in sorted(R.SAWMILL_HEXES)
            if gm.sawmill_place(h)]


def _sawmill_kinds(gm: G1822CA, step: Step, entity: str,
                   focus: str | None = None) -> list[Offer]:
    """P13: the sawmill open ($20 to all) or closed ($10, its owner only)."""
    return [ChooseOffer(choice="open", label="Open sawmill", rule="supplement §6.1 P13"),
            ChooseOffer(choice="closed", label="Closed sawmill", rule="supplement §6.1 P13")]


def _winnipeg_tokens(gm: G1822CA, step: Step, company: str,
                     focus: str | None = None) -> list[Offer]:
    """P10: an exchange token into a Winnipeg city free of the owner's tokens, free
    (RB 6.1.1)."""
    corp = step.corp()  # type: ignore[attr-defined]
    if not gm.winnipeg_token_open(corp, company):
        return []
    st = gm.map.hex(_WINNIPEG)
    out: list[Offer] = []
    for city in range(len(st.tokens)):
        mine = any(t is not None and t.corp == corp for t in st.tokens[city])
        out.append(TokenOffer(hex=_WINNIPEG, city=gm.map.city_id(_WINNIPEG, city),
                              index=city, cost=0, rule="RB 6.1.1",
                              why_not=f"{corp} already has a token in that city" if mine
                              else None))
    return out


def _winnipeg_exchange(gm: G1822CA, step: Step, company: str,
                       focus: str | None = None) -> list[Offer]:
    """P10, rulebook mode: an exchange token becomes available instead (RB 6.1.1)."""
    return [MoveOffer(action=ChooseAbility.type, fields=(("choice", "available"),),
                      rule="RB 6.1.1", label="make an exchange token available",
                      why_not="18xx.games offers P10's Winnipeg token only"
                      if gm.config.compat_18xxgames else None)]


def _token_swaps(gm: G1822CA, step: Step, company: str,
                 focus: str | None = None) -> list[Offer]:
    """P28: an exchange token becomes available, or the reverse (supplement §6.1 P28)."""
    corp = step.corp()  # type: ignore[attr-defined]
    return [MoveOffer(action=ChooseAbility.type, fields=(("choice", c),),
                      rule="supplement §6.1 P28", label=f"P28: {c}")
            for c in gm.token_swap_choices(corp)]


def _destinations(gm: G1822CA, step: Step, corp: str,
                  focus: str | None = None) -> list[Offer]:
    """The destination token, once home and destination connect (RB 5.8.3, 5.8.6): by
    hex where the destination has one city, by city where it has several.  Reloading an
    18xx.games game (``loading``) the connection is not asked, as 18xx.games does not."""
    assert isinstance(step, DestinationToken)
    dest = gm.corp_defs[corp].destination
    if dest is None:
        return []
    live = not gm.loading
    connected = gm.destination_connected(corp) if live else None
    cities = gm.destination_cities(corp)
    none = f"{corp} is not connected to its destination"
    out: list[Offer] = [DestinationOffer(
        hex=dest.hex, city=dest.hex, index=-1, cost=0, rule="RB 5.8.6", by_hex=True,
        why_not=(none if live and not connected else
                 f"{dest.hex} has {len(cities)} cities on {corp}'s destination: name the "
                 f"city for its destination token" if live and len(cities) > 1 else None))]
    st = gm.map.hex(dest.hex)
    # random play names a one-city destination by its hex, as 18xx.games' client does
    skip = "named by hex" if len(cities) == 1 and out[0].allowed else None
    for city in range(len(st.tokens)):
        why = None if connected is None or city in connected else \
            f"{corp} is not connected to {gm.map.city_id(dest.hex, city)}"
        out.append(DestinationOffer(hex=dest.hex, city=gm.map.city_id(dest.hex, city),
                                    index=city, cost=0, why_not=why, rule="RB 5.8.3",
                                    playout_skip=skip))
    return out


def _hex_destinations(gm: G1822CA, step: Step, corp: str,
                      focus: str | None = None) -> list[Offer]:
    """The destination token named by hex (`_destinations`' first offer)."""
    return _destinations(gm, step, corp)[:1]


def _city_destinations(gm: G1822CA, step: Step, corp: str,
                       focus: str | None = None) -> list[Offer]:
    """The destination token named by city (`_destinations` but the first)."""
    return _destinations(gm, step, corp)[1:]


def _runs(gm: G1822CA, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """The trains that run this turn (RB 5.9): not the Pullman or the grain train, not
    one that ran already."""
    assert isinstance(step, RouteStep)
    if not step.is_current(corp):
        return []
    from desk18xx.titles.g1822ca.randomroutes import random_run

    ran = step.orr().routes_revenue
    return [RouteOffer(trains=tuple(t.id for t in gm.route_trains(corp) if t.id not in ran),
                       rule="RB 5.9", find=functools.partial(random_run, gm, corp))]


def _attachments(gm: G1822CA, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """Attach the Pullman, then the grain train, to a train, or run without (RB 5.9)."""
    return [ChooseOffer(choice=c, label=label, rule="RB 5.9")
            for c, label in gm.attach_labels(corp).items()]


_DIVIDEND_WORDS = {"payout": "Pay out", "half": "Half pay", "withhold": "Withhold"}


def _dividends(gm: G1822CA, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """Pay out, pay half or withhold (RB 5.11)."""
    assert isinstance(step, DividendStep)
    revenue = sum(step.orr().routes_revenue.values())
    kept = {"payout": 0, "half": revenue - revenue // 2, "withhold": revenue}
    return [DividendOffer(kind=k, revenue=revenue, kept=kept[k], rule="RB 5.11")
            for k in _DIVIDEND_WORDS]


def _extra_splits(gm: G1822CA, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """How the permanent 2P/LP train's revenue is paid, apart (supplement §7.4)."""
    return [ChooseOffer(choice=k, label=w, rule="supplement §7.4")
            for k, w in _DIVIDEND_WORDS.items()]


def _consents(gm: G1822CA, step: Step, player: str, focus: str | None = None) -> list[Offer]:
    """Answer a deal the operating company proposes (rulebook mode)."""
    return [ChooseOffer(choice="consent", label="Consent", rule="RB 5.6.1"),
            ChooseOffer(choice="refuse", label="Refuse", rule="RB 5.6.1")]


def _refused(step: Step, action: Action) -> str | None:
    """Why a deal is not put again: its other player refused it this turn."""
    refused: set[tuple[str, str]] = getattr(step.round, "refused", set())
    return "the other player refused this deal this turn" if deal_key(action) in refused \
        else None


def _private_takeovers(gm: G1822CA, step: Step, corp: str,
                       focus: str | None = None) -> list[Offer]:
    """Take over a player's private (RB 5.3; supplement §6)."""
    out: list[Offer] = []
    for cid in acquirable_privates(gm, corp):
        why = _refused(step, AcquireCompanyAction(entity=corp, company=cid))
        out.append(MoveOffer(action=AcquireCompanyAction.type, fields=(("company", cid),),
                             label=f"take over {cid}", why_not=why, rule="RB 5.3"))
    return out


def _merges(gm: G1822CA, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """Acquire a minor the major connects to (RB 5.14)."""
    assert isinstance(step, MinorAcquisition)
    out: list[Offer] = []
    for minor in step.candidates(gm, corp):
        if focus is not None and focus != minor:
            continue
        why = None if gm.connects_to_minor(corp, minor) else \
            f"{corp} is not connected to {minor}"
        why = why or _refused(step, Merge(entity=corp, corporation=minor))
        out.append(MergeOffer(corporation=minor, why_not=why, rule="RB 5.14.3"))
    return out


def _acquisition_choices(gm: G1822CA, step: Step, corp: str,
                         focus: str | None = None) -> list[Offer]:
    """How to pay for the minor, then what becomes of its token (RB 5.14)."""
    assert isinstance(step, MinorAcquisition)
    if step.minor is None:
        return []
    found = step.pay_choices(gm, corp, step.minor) if step.state == "pay" \
        else step.token_choices(gm, corp, step.minor)
    return [ChooseOffer(choice=c, label=c.replace("_", " "), rule="RB 5.14") for c in found]


_PASS_RULES: dict[type[Step], str] = {DestinationToken: "RB 5.8.3", BuyTrainStep: "RB 5.15"}
_WINNIPEG = "N16"
"""P10's hex (RB 6.1.1)."""


_Builder = Callable[["G1822CA", "Step", str, "str | None"], "list[Offer] | None"]

_BUILDERS: dict[tuple[type[Step], str], _Builder] = {
    (BuySellParShares, BuyShares.type): _sr_buys,
    (BuySellParShares, SellShares.type): _sr_sells,
    (BuySellParShares, Par.type): _pars,
    (BuySellParShares, Bid.type): _bids,
    (BuyTrainStep, BuyTrain.type): _trains,
    (BuyTrainStep, SellShares.type): _emergency_sells,
    (IssueShares, SellShares.type): _issues,
    (IssueShares, BuyShares.type): _redeems,
    (FirstTurnHousekeeping, BuyTrain.type): _first_l,
    (TokenStep, PlaceToken.type): _tokens,
    (TrackStep, LayTile.type): _lays,
    (SpecialTrack, LayTile.type): _lays,
    (AcquisitionTrack, LayTile.type): _lays,
    **{(step, Pass.type): _passes for step in (
        BuySellParShares, ChooseDouble, FirstTurnHousekeeping, TrackStep, DestinationToken,
        TokenStep, IssueShares, BuyTrainStep, AcquireCompany, MinorAcquisition,
        AcquisitionTrack)},
    (BuySellParShares, PayoffPlayerDebt.type): _debt_payoffs,
    (BuySellParShares, PayoffPlayerDebtPartial.type): _debt_partials,
    (BuySellParShares, ChooseAbility.type): _tax_haven,
    (ChooseDouble, Choose.type): _doubles,
    (DiscardStep, DiscardTrainAction.type): _discards,
    (PendingToken, PlaceToken.type): _pending_tokens,
    (AssignSawmill, Assign.type): _sawmill_places,
    (AssignSawmill, Choose.type): _sawmill_kinds,
    (SpecialToken, PlaceToken.type): _winnipeg_tokens,
    (SpecialToken, ChooseAbility.type): _winnipeg_exchange,
    (TrackStep, ChooseAbility.type): _token_swaps,
    (TokenStep, ChooseAbility.type): _token_swaps,
    (DestinationToken, HexToken.type): _hex_destinations,
    (DestinationToken, PlaceToken.type): _city_destinations,
    (RouteStep, RunRoutes.type): _runs,
    (RouteStep, Choose.type): _attachments,
    (DividendStep, Dividend.type): _dividends,
    (DividendStep, Choose.type): _extra_splits,
    (Consent, Choose.type): _consents,
    (AcquireCompany, AcquireCompanyAction.type): _private_takeovers,
    (MinorAcquisition, Merge.type): _merges,
    (MinorAcquisition, Choose.type): _acquisition_choices,
}
"""(step, action type) -> the offers of that step for that type."""
