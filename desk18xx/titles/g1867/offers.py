"""1867's offers: what an entity may do now, as typed values (`desk18xx.engine.offers`).

Read-only: every function here looks at the game and never changes it.  The
door in `desk18xx.engine.game.Game` processes an action of a type in `COVERED`
(every kind of move 1867 has) only when it matches an allowed offer of the step
that would take it: share prices and percents (card: "SR Buy/sell shares", "OR
Redeem"), start prices ("SR Majors"), bids ("SR Minors", the private auction),
train prices ("OR Buy trains"), private prices ("OR Buy privates"), token costs
and cities ("OR Tokens", home tokens), lays ("OR Lay track"), the trains of a
run ("OR Run trains"), the dividend kinds ("OR Pay dividends"), discards, the
token reduction, mergers, conversions and the consents of the merger round, and
passes, come from here, never from the action.  Random play draws from the same
offers (`random_offers`: the lays of a few hexes only).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import TYPE_CHECKING

from desk18xx.engine.actions import (
    Action,
    Bid,
    BuyCompany,
    BuyShares,
    BuyTrain,
    Choose,
    Convert,
    DiscardTrain,
    Dividend,
    LayTile,
    Merge,
    Par,
    Pass,
    PlaceToken,
    RemoveToken,
    RunRoutes,
    SellShares,
)
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.map.tiles import geometry
from desk18xx.engine.market import CellType
from desk18xx.engine.offers import (
    BidOffer,
    ChooseOffer,
    CompanyOffer,
    ConvertOffer,
    DiscardOffer,
    DividendOffer,
    MergeOffer,
    Offer,
    ParCell,
    ParOffer,
    PassOffer,
    RemoveTokenOffer,
    RouteOffer,
    ShareOffer,
    TileLayOffer,
    TokenOffer,
    TrainOffer,
    focus_of,
)
from desk18xx.engine.state import POOL, CorpKind, Share
from desk18xx.engine.steps.discard import DiscardTrains
from desk18xx.titles.g1867 import board as B
from desk18xx.titles.g1867 import rules as R
from desk18xx.titles.g1867.board import stop_counts
from desk18xx.titles.g1867.randomroutes import random_run
from desk18xx.titles.g1867.steps.auction import INCREMENT, PrivateAuction
from desk18xx.titles.g1867.steps.merger import (
    MergeStep,
    PostMergerShares,
    ReduceTokens,
    treasury,
)
from desk18xx.titles.g1867.steps.operating import (
    BuyCompanyBlocking,
    BuyCompanyStep,
    DividendStep,
    RedeemShares,
    RouteStep,
)
from desk18xx.titles.g1867.steps.stock import BuySellParShares, HomeToken, MajorTrainless
from desk18xx.titles.g1867.steps.track import TokenStep, Track
from desk18xx.titles.g1867.steps.trains import BuyTrainStep

if TYPE_CHECKING:
    from desk18xx.engine.round import Step
    from desk18xx.engine.tiledef import TileDef
    from desk18xx.titles.g1867.game import G1867

_CLASSES: dict[str, type[Action]] = {c.type: c for c in (
    BuyShares, SellShares, Par, Bid, BuyTrain, PlaceToken, LayTile, Pass, BuyCompany,
    RunRoutes, Dividend, DiscardTrain, RemoveToken, Merge, Convert, Choose)}
COVERED = frozenset(_CLASSES)
"""The action types whose legality these offers decide: every move of 1867."""

CARD_SHARES = "the card, SR Buy/sell shares"


def target_step(gm: G1867, entity: str, cls: type[Action]) -> Step | None:
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


def _builder(step: Step, action_type: str) -> _Builder | None:
    if action_type == Pass.type:
        return _passes
    return _BUILDERS.get((type(step), action_type))


def deciding_offers(gm: G1867, entity: str, action_type: str,
                    focus: str | None = None) -> tuple[Offer, ...] | None:
    """The offers that decide an action of ``action_type`` by ``entity`` (only those
    about ``focus``, a corporation, company, train, city or hex, when given); None
    for a type these offers do not decide."""
    return _deciding(gm, entity, action_type, focus)[0]


def _deciding(gm: G1867, entity: str, action_type: str, focus: str | None
              ) -> tuple[tuple[Offer, ...] | None, Step | None]:
    """`deciding_offers`, and the step that would take the action (None: none)."""
    cls = _CLASSES.get(action_type)
    if cls is None:
        return None, None
    step = target_step(gm, entity, cls)
    if step is None:
        return (), None
    build = _builder(step, action_type)
    if build is None:
        return (), step
    return tuple(build(gm, step, entity, focus)), step


def action_offers(gm: G1867, action: Action) -> tuple[Offer, ...] | None:
    """`deciding_offers` for ``action``, about what it names only."""
    return action_door(gm, action)[0]


def action_door(gm: G1867, action: Action) -> tuple[tuple[Offer, ...] | None, Step | None]:
    """`action_offers`, and the step that would take ``action`` (`Game.door`)."""
    return _deciding(gm, action.entity, action.type, focus_of(gm.shares, action))


def _open_steps(gm: G1867, entity: str, wanted: Collection[str]) -> list[tuple[Step, str]]:
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


def offers(gm: G1867, entity: str, types: Collection[str] | None = None) -> tuple[Offer, ...]:
    """Every offer of ``entity`` now (of ``types`` only, when given)."""
    wanted = COVERED if types is None else frozenset(types) & COVERED
    out: list[Offer] = []
    for step, action_type in _open_steps(gm, entity, wanted):
        build = _builder(step, action_type)
        if build is not None:
            out.extend(build(gm, step, entity, None))
    return tuple(out)


def random_offers(gm: G1867, entity: str, rng: random.Random,
                  types: Collection[str] | None = None) -> tuple[Offer, ...]:
    """The offers random play draws from: `offers`, with the lays of a few hexes
    drawn with ``rng`` instead of every hex (listing every lay of every hex would
    make a random game several times slower)."""
    wanted = COVERED if types is None else frozenset(types) & COVERED
    out: list[Offer] = []
    for step, action_type in _open_steps(gm, entity, wanted):
        if action_type == LayTile.type:
            assert isinstance(step, Track)
            out.extend(sample_lays(gm, step, entity, rng))
            continue
        build = _builder(step, action_type)
        if build is not None:
            out.extend(build(gm, step, entity, None))
    return tuple(out)


def _by_number(shares: Iterable[Share]) -> list[Share]:
    return sorted(shares, key=lambda s: int(s.id.rsplit("_", 1)[1]))


# -- every step: a pass, and the steps of the stock and merger rounds ----------------------
def _passes(gm: G1867, step: Step, entity: str, focus: str | None = None) -> list[Offer]:
    """End the step or the turn (the step takes a pass from ``entity`` now)."""
    return [PassOffer()]


def _city_id(gm: G1867, hex_id: str, city: int) -> str | None:
    """The id players' actions name city ``city`` of ``hex_id`` by (None: none)."""
    assert gm.board is not None
    st = gm.board.hex(hex_id)
    names = [f"{st.tile_id}-{city}"]
    if city < len(st.geo.city_nodes):
        names.insert(0, f"{st.tile_id}-{st.geo.city_nodes[city]}")
    for name in names:
        try:
            if gm.token_city(name) == (hex_id, city):
                return name
        except IllegalAction:
            continue
    return None


def _home_tokens(gm: G1867, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """A new company's home token in a city of its home hexes, free of tokens for a
    minor (and for a major by the card; 18xx.games: a free slot), at no cost."""
    assert isinstance(step, HomeToken)
    pending = gm.pending_tokens
    if not pending or pending[0][0] != corp or gm.board is None:
        return []
    cid, hexes = pending[0]
    board = gm.board
    cities: list[tuple[str, int, str]] = []
    if focus is not None:
        try:
            hex_id, city = gm.token_city(focus)
        except IllegalAction:
            return []
        cities.append((hex_id, city, focus))
    else:
        for hex_id in hexes:
            for city in range(len(board.hex(hex_id).tokens)):
                city_id = _city_id(gm, hex_id, city)
                if city_id is not None:
                    cities.append((hex_id, city, city_id))
    minor = gm.is_minor(cid)
    rule = "the card, SR Minors" if minor else "the card, SR Majors"
    out: list[Offer] = []
    for hex_id, city, city_id in cities:
        slots = B.slots(board, hex_id, city)
        free = tuple(i for i, s in enumerate(slots) if s is None)
        why: str | None = None
        if hex_id not in hexes:
            why = f"{cid}'s home token goes on {' or '.join(hexes)}, not {hex_id}"
        elif minor and len(free) < len(slots):
            why = "a minor's home must be a city with no token"
        elif not minor and not gm.config.compat_18xxgames and len(free) < len(slots):
            why = "a major's home must be an unoccupied city"
        elif not free:
            why = f"no free token slot in {hex_id}"
        out.append(TokenOffer(hex=hex_id, city=city_id, index=city, slots=free, cost=0,
                              why_not=why, rule=rule))
    return out


def _nationalize(gm: G1867, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """A trainless major's president may nationalise it (card: Nationalization)."""
    assert isinstance(step, MajorTrainless)
    if corp not in gm.trainless_major or focus not in (None, "nationalize"):
        return []
    skip = ("18xx.games would then hold the round until an undo (divergence D15)"
            if step.keeps_turn(gm, corp) else None)
    return [ChooseOffer(choice="nationalize", label=f"Nationalize {corp}",
                        rule="the card, Nationalization", playout_skip=skip)]


def _discards(gm: G1867, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """One train of a company over its train limit goes to the pool."""
    assert isinstance(step, DiscardTrains)
    if corp not in gm.crowded_corps():
        return []
    return [DiscardOffer(train=tid, name=gm.trains[tid].name, rule="the card, Train limit")
            for tid in gm.corps[corp].trains if focus in (None, tid)]


def _post_merger_buys(gm: G1867, step: Step, player: str,
                      focus: str | None = None) -> list[Offer]:
    """After a merger or a conversion: one 10% treasury share of the new major at
    its price (card: Mergers)."""
    assert isinstance(step, PostMergerShares)
    sid = step.buyable(gm, player)
    if sid is None:
        return []
    cid = step.corporation()
    if focus not in (None, cid):
        return []
    price = gm.price(cid)
    equal = frozenset(s for s in treasury(gm, cid)[:2] if gm.shares[s].percent == 10)
    return [ShareOffer(kind="buy", corporation=cid, shares=(sid,), percent=10, price=price,
                       total=price, source=cid, fungible=equal | {sid},
                       rule="the card, Mergers")]


def _removals(gm: G1867, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """A merged major takes tokens off down to two, in different hexes (card: Mergers)."""
    assert isinstance(step, ReduceTokens)
    if corp != step.current_entity(gm) or gm.board is None:
        return []
    at: tuple[str, int] | None = None
    if focus is not None:
        try:
            at = gm.token_city(focus)
        except IllegalAction:
            return []
    out: list[Offer] = []
    for token in gm.corps[corp].tokens:
        if token.hex is None or token.city is None:
            continue
        if at is not None and at != (token.hex, token.city):
            continue
        slots = B.slots(gm.board, token.hex, token.city)
        city_id = focus if focus is not None else _city_id(gm, token.hex, token.city)
        if corp not in slots or city_id is None:
            continue
        why = None if step.removal_ok(gm, corp, token) \
            else f"{corp} must keep two tokens in different hexes"
        out.append(RemoveTokenOffer(hex=token.hex, city=city_id, slot=slots.index(corp),
                                    why_not=why, rule="the card, Mergers"))
    return out


def _merges(gm: G1867, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """A minor names a connected minor to merge with, or the major its conversion or
    merger forms (card: Mergers)."""
    assert isinstance(step, MergeStep)
    if step.consent is not None or corp != step.current_entity(gm):
        return []
    rule = "the card, Mergers"
    if step.converting or step.merge_major:
        why: str | None = None
        if step.merge_major and not step.feasible(gm):
            why = "merge impossible: no player can become president"
        return [MergeOffer(corporation=m, role="major", why_not=why, rule=rule)
                for m in step.majors_available(gm) if focus in (None, m)]
    owner = gm.owner(corp)
    out: list[Offer] = []
    for other in step.candidates(gm, corp):
        if focus not in (None, other):
            continue
        # by 18xx.games' rules a merge without president stays broken: random play
        # merges only one owner's minors there (by the card it is undone)
        skip = ("18xx.games keeps a merge without president broken"
                if gm.config.compat_18xxgames and gm.owner(other) != owner else None)
        out.append(MergeOffer(corporation=other, rule=rule, playout_skip=skip))
    return out


def _converts(gm: G1867, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """A minor priced $100-165 converts into a major (card: Mergers)."""
    assert isinstance(step, MergeStep)
    if corp != step.current_entity(gm) or step.merging is not None:
        return []
    why = None if step.can_convert(gm, corp) else f"{corp} cannot convert at its price"
    return [ConvertOffer(why_not=why, rule="the card, Mergers")]


def _consents(gm: G1867, step: Step, player: str, focus: str | None = None) -> list[Offer]:
    """The owner of a minor asked to merge consents or refuses (card: "all owners
    willing")."""
    assert isinstance(step, MergeStep)
    if step.consent is None or player != step.consent[1]:
        return []
    minor = step.consent[0]
    return [ChooseOffer(choice=c, label=f"{c.capitalize()} ({minor})",
                        rule="the card, Mergers")
            for c in ("consent", "refuse") if focus in (None, c)]


# -- operating round: privates, runs, dividends -------------------------------------------
def _companies(gm: G1867, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """A private from a player, $1 up to its face value and the company's cash."""
    assert isinstance(step, BuyCompanyStep)
    if not step.can_buy(gm, corp):
        return []
    cash = gm.cash[corp]
    out: list[Offer] = []
    for cid in step.purchasable(gm):
        if focus not in (None, cid):
            continue
        company = gm.companies[cid]
        assert company.owner is not None
        out.append(CompanyOffer(company=cid, seller=company.owner, min_price=1,
                                max_price=min(company.value, cash),
                                rule="the card, OR Buy privates"))
    return out


def _runs(gm: G1867, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """The trains that have not run this round (the revenue is recomputed from the
    routes, card: OR Run trains)."""
    assert isinstance(step, RouteStep)
    if corp != step.current_entity(gm):
        return []
    trains = tuple(t for t in gm.corps[corp].trains if not gm.trains[t].operated)
    return [RouteOffer(trains=trains, rule="the card, OR Run trains",
                       find=functools.partial(random_run, gm, corp))]


def _dividends(gm: G1867, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """Pay out, half pay or withhold the run's revenue (card: OR Pay dividends)."""
    assert isinstance(step, DividendStep)
    if corp != step.current_entity(gm):
        return []
    revenue = step.revenue(gm)
    return [DividendOffer(kind=k, revenue=revenue, kept=step.kept(gm, corp, k, revenue),
                          rule="the card, OR Pay dividends")
            for k in step.KINDS if focus in (None, k)]


# -- stock round -------------------------------------------------------------------------
def _sr_buys(gm: G1867, step: Step, player: str, focus: str | None = None) -> list[Offer]:
    """One share of a major from its treasury or the pool."""
    assert isinstance(step, BuySellParShares)
    if player != step.current_entity(gm) or step.auctioning is not None:
        return []
    out: list[Offer] = []
    bought = step.bought()
    for cid, corp in gm.corps.items():
        if corp.kind is not CorpKind.MAJOR or not corp.ipoed or corp.closed \
                or focus not in (None, cid):
            continue
        price = gm.price(cid)
        for holder in (cid, POOL):
            certs = _by_number(s for s in gm.shares_of(holder, cid) if not s.president)
            if not certs:
                continue
            first = certs[0]
            total = price * first.percent // 10
            why: str | None = None
            if bought:
                why = "one purchase per turn"
            elif step.players_sold.get(player, {}).get(cid):
                why = f"{cid} was sold this round"
            elif gm.percent_of(player, cid) + first.percent > corp.max_ownership:
                why = f"over the {corp.max_ownership}% holding limit"
            elif gm.num_certs(player) >= gm.cert_limit:
                why = "over the certificate limit"
            elif total > gm.cash[player]:
                why = "not enough cash"
            out.append(ShareOffer(
                kind="buy", corporation=cid, shares=(first.id,), percent=first.percent,
                price=price, total=total, source=holder, why_not=why, rule=CARD_SHARES,
                fungible=frozenset(s.id for s in certs if s.percent == first.percent)))
    return out


def _sr_sells(gm: G1867, step: Step, player: str, focus: str | None = None) -> list[Offer]:
    """Bundles of one major: ordinary certificates, or the president's certificate
    with them, in part when another player takes the presidency (18xx partial
    bundles)."""
    assert isinstance(step, BuySellParShares)
    if player != step.current_entity(gm) or step.auctioning is not None:
        return []
    out: list[Offer] = []
    for cid in sorted({s.corp for s in gm.shares.values() if s.owner == player}):
        corp = gm.corps[cid]
        if corp.kind is not CorpKind.MAJOR or focus not in (None, cid):
            continue
        price = gm.price(cid)
        held = gm.shares_in_arrival_order(player, cid)
        ordinary = [s for s in held if not s.president]
        pres = next((s for s in held if s.president), None)
        fungible = frozenset(s.id for s in ordinary)
        bundles: list[tuple[tuple[str, ...], int]] = []
        for k in range(1, len(ordinary) + 1):
            part = ordinary[:k]
            bundles.append((tuple(s.id for s in part), sum(s.percent for s in part)))
        if pres is not None:
            # the president's certificate goes last, with every ordinary one (18xx
            # ``bundles_for_corporation``), in part when its whole would not be sold
            ids = tuple(s.id for s in [*ordinary, pres])
            full = sum(s.percent for s in held)
            for pct in range(full, full - pres.percent, -10):
                if pct > 0:
                    bundles.append((ids, pct))
        for ids, pct in bundles:
            why: str | None = None
            if not step.can_sell_bundle(gm, player, cid, pct):
                why = _sale_reason(gm, step, player, cid, pct)
            out.append(ShareOffer(
                kind="sell", corporation=cid, shares=ids, percent=pct, price=price,
                total=price * pct // 10, source=player, why_not=why, rule=CARD_SHARES,
                fungible=fungible))
    return out


def _sale_reason(gm: G1867, step: BuySellParShares, player: str, cid: str, pct: int) -> str:
    """Why `BuySellParShares.can_sell_bundle` refuses, in a player's words."""
    if not gm.corps[cid].operated:
        return f"{cid} has not operated yet"
    if step.bought():
        return "no sale after a purchase"
    if gm.percent_of(POOL, cid) + pct > R.MARKET_SHARE_LIMIT:
        return f"the pool would hold more than {R.MARKET_SHARE_LIMIT}%"
    return f"no other player can take {cid}'s presidency"


def _pars(gm: G1867, step: Step, player: str, focus: str | None = None) -> list[Offer]:
    """Start a major at a major start price, paying for two shares (card: SR Majors)."""
    assert isinstance(step, BuySellParShares)
    if player != step.current_entity(gm) or step.auctioning is not None:
        return []
    cells = gm.market.cells_with((CellType.PAR, CellType.PAR_2))
    cash = gm.cash[player]
    par_cells = tuple(ParCell(share_price=c.id, price=c.price, cost=2 * c.price,
                              why_not=None if 2 * c.price <= cash
                              else f"costs ${2 * c.price}; ${cash} in hand")
                      for c in cells)
    out: list[Offer] = []
    for cid in gm.available:
        if not gm.is_major(cid) or gm.corps[cid].ipoed or focus not in (None, cid):
            continue
        why = None if gm.home_token_locations(cid) else "no home token location is available"
        out.append(ParOffer(corporation=cid, cells=par_cells, why_not=why,
                            rule="the card, SR Majors"))
    return out


def _sr_bids(gm: G1867, step: Step, player: str, focus: str | None = None) -> list[Offer]:
    """Start a minor's auction, or raise the bid on the minor being auctioned."""
    assert isinstance(step, BuySellParShares)
    if player != step.current_entity(gm):
        return []
    cash = gm.cash[player]
    if step.auctioning is not None:
        minimum = max(step.bids.values()) + INCREMENT
        return [BidOffer(company=step.auctioning, minimum=minimum, maximum=cash,
                         step=INCREMENT, target="corporation", rule="the card, SR Minors",
                         spread=0)]
    out: list[Offer] = []
    for cid in gm.available:
        if not gm.is_minor(cid) or gm.corps[cid].ipoed or focus not in (None, cid):
            continue
        why = None if gm.home_token_locations(cid) else "no city is free for a minor's home token"
        out.append(BidOffer(company=cid, minimum=R.MIN_MINOR_BID, maximum=cash,
                            step=INCREMENT, target="corporation", why_not=why,
                            rule="the card, SR Minors",
                            spread=(300 - R.MIN_MINOR_BID) // INCREMENT))
    return out


def _private_bids(gm: G1867, step: Step, player: str, focus: str | None = None) -> list[Offer]:
    """The private being auctioned (card: "Private auction")."""
    assert isinstance(step, PrivateAuction)
    if player != step.current_entity(gm) or step.auctioning is None:
        return []
    return [BidOffer(company=step.auctioning, minimum=step._min_bid(gm),
                     maximum=gm.cash[player], step=INCREMENT, rule="the card, Privates")]


# -- operating round ---------------------------------------------------------------------
def _redeems(gm: G1867, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """Buy k pool shares back at the current price (card: OR Redeem)."""
    assert isinstance(step, RedeemShares)
    if corp != step.current_entity(gm) or not gm.is_major(corp):
        return []
    pool = _by_number(gm.shares_of(POOL, corp))
    fungible = frozenset(s.id for s in pool)
    price = gm.price(corp)
    out: list[Offer] = []
    for k in range(1, len(pool) + 1):
        part = pool[:k]
        total = price * k
        out.append(ShareOffer(
            kind="redeem", corporation=corp, shares=tuple(s.id for s in part),
            percent=sum(s.percent for s in part), price=price, total=total, source=POOL,
            why_not="not enough cash" if total > gm.cash[corp] else None,
            rule="the card, OR Redeem", fungible=fungible))
    return out


def _trains(gm: G1867, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """The bank's trains at their price, other companies' for $1 up to the cash,
    and in phase 8 the trade-ins (card: OR Buy trains)."""
    assert isinstance(step, BuyTrainStep)
    if corp != step.current_entity(gm) or corp not in gm.corps:
        return []
    cash = gm.cash[corp]
    forced = step.must_buy(gm, corp)
    full = None if step.room(gm, corp) else f"{corp} is at its train limit"
    rule = "the card, OR Buy trains"
    power = step.power(gm, corp)
    out: list[Offer] = []
    for t in gm.depot_trains():
        if focus not in (None, t.id):
            continue
        why = full
        if why is None and t.price > cash and not forced:
            why = f"{corp} cannot take a loan for this train"
        elif why is None and t.price > power:
            why = f"{corp} cannot raise ${t.price}, even with loans"
        out.append(TrainOffer(train=t.id, name=t.name, seller=t.owner, price=t.price,
                              why_not=why, rule=rule))
        if gm.phase.name == "8" and t.name in R.TRADE_FOR:
            for own in gm.corp_trains(corp):
                if own.name in t.discount:
                    net = t.price - t.discount[own.name]
                    out.append(TrainOffer(
                        train=t.id, name=t.name, seller=t.owner, price=net, exchange=own.id,
                        why_not="the price must be at least $1" if net < 1 else (
                            None if net <= cash or forced and net <= power
                            else f"{corp} cannot pay ${net} for this trade-in"),
                        rule=rule))
    for tid in step.other_trains(gm, corp):
        if focus not in (None, tid):
            continue
        t = gm.trains[tid]
        out.append(TrainOffer(train=tid, name=t.name, seller=t.owner, min_price=1,
                              max_price=cash, list_price=t.price,
                              why_not=full or ("not enough cash" if cash < 1 else None),
                              rule=rule))
    if forced and focus is None:
        out.append(PassOffer(why_not=f"{corp} has no train and must buy one", rule=rule))
    return out


def _tokens(gm: G1867, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """A token in a reached city with a free slot, in a hex without one of the
    company's, for its price per hex from the nearest token (card: OR Tokens)."""
    assert isinstance(step, TokenStep)
    if corp != step.current_entity(gm) or not gm.is_major(corp):
        return []
    token = gm.corps[corp].next_token()
    if token is None or gm.board is None:
        return []
    cities: list[tuple[str, int, str]] = []
    if focus is not None:
        try:
            hex_id, city = gm.token_city(focus)
        except IllegalAction:
            return []
        cities.append((hex_id, city, focus))
    else:
        for hex_id, city in step.tokenable(gm, corp):
            city_id = f"{gm.board.hex(hex_id).tile_id}-{city}"
            try:
                if gm.token_city(city_id) == (hex_id, city):
                    cities.append((hex_id, city, city_id))
            except IllegalAction:
                continue
    out: list[Offer] = []
    for hex_id, city, city_id in cities:
        cost = gm.token_distance_cost(corp, hex_id, token)
        why: str | None = None
        if not step.can_token(gm, corp, hex_id, city):
            why = f"{corp} cannot place a token on {hex_id}"
        elif cost > gm.cash[corp]:
            why = "not enough cash"
        out.append(TokenOffer(hex=hex_id, city=city_id, index=city, cost=cost, why_not=why,
                              rule="the card, OR Tokens"))
    return out


LAY_RULE = "the card, OR Lay track"


def _lays(gm: G1867, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """Where and what ``corp`` may lay now: one offer per hex its network reaches
    with the tiles that fit there (card: OR Lay track; 18xx.games'
    ``:semi_restrictive`` new-track rule).  ``focus`` is a hex, or ``"HEX/TILE"``
    (the door: that tile only, the other tiles of the hex are not asked about)."""
    assert isinstance(step, Track)
    if corp != step.current_entity(gm) or step.tile_lay() is None or gm.board is None:
        return []
    edges = step.connected_edges(gm, corp)
    if focus is not None:
        hex_id, rest = focus.partition("/")[::2]
        tile, _, turn = rest.partition("/")
        rotation = int(turn) % 6 if tile and turn.lstrip("-").isdigit() else None
        return [lay_offer(gm, step, corp, hex_id, edges, tile or None, rotation)]
    out: list[Offer] = []
    for hex_id in sorted(edges):
        if step.hex_problem(gm, hex_id) is not None:
            continue
        offer = lay_offer(gm, step, corp, hex_id, edges)
        if offer.tiles or offer.why_not is not None:
            out.append(offer)
    return out


def _open_tracks(gm: G1867, entity: str) -> Iterator[tuple[Track, dict[str, set[int]]]]:
    """Each track step open to ``entity`` now with a lay left, and the edges its
    network reaches."""
    for step, _type in _open_steps(gm, entity, (LayTile.type,)):
        if not isinstance(step, Track) or entity != step.current_entity(gm) \
                or step.tile_lay() is None or gm.board is None:
            continue
        yield step, step.connected_edges(gm, entity)


def lay_hexes(gm: G1867, entity: str) -> frozenset[str]:
    """The hexes on which ``entity`` may lay some tile now: the hexes of `_lays`'s
    offers that list a tile, asked with an early exit: each hex stops at the first
    tile `lay_offer` lets on it (its ``first``: the same checks) instead of
    every tile's rotations and refusals (the map's outlines; issue 18)."""
    out: set[str] = set()
    for step, edges in _open_tracks(gm, entity):
        out.update(h for h in sorted(edges) if step.hex_problem(gm, h) is None
                   and lay_offer(gm, step, entity, h, edges, first=True).tiles)
    return frozenset(out)


def lay_tiles(gm: G1867, entity: str) -> frozenset[str]:
    """The tiles ``entity`` may lay on some hex now: those `_lays`'s offers list (the
    tile tray; issue 18), from `lay_choices`' one walk."""
    return lay_choices(gm, entity)[1]


def lay_choices(gm: G1867, entity: str) -> tuple[frozenset[str], frozenset[str]]:
    """(`lay_hexes`, `lay_tiles`) in one walk of the hexes: a hex where only tiles
    found already fit is asked about those tiles alone."""
    hexes: set[str] = set()
    found: set[str] = set()
    for step, edges in _open_tracks(gm, entity):
        assert gm.board is not None
        names = list(gm.board.manifest)
        for hex_id in sorted(edges):
            if step.hex_problem(gm, hex_id) is not None:
                continue
            while True:
                offer = lay_offer(gm, step, entity, hex_id, edges, first=True, skip=found)
                if not offer.tiles:
                    break
                hexes.add(hex_id)
                found.add(offer.tiles[0][0])
            if offer.why_not is None and hex_id not in hexes and found:
                known = set(found)
                if lay_offer(gm, step, entity, hex_id, edges, first=True,
                             skip=[n for n in names if n not in known]).tiles:
                    hexes.add(hex_id)
    return frozenset(hexes), frozenset(found)


def lay_offer(gm: G1867, step: Track, corp: str, hex_id: str,
              edges: dict[str, set[int]], only: str | None = None,
              turn: int | None = None, *, first: bool = False,
              skip: Collection[str] = ()) -> TileLayOffer:
    """The offer of a lay on ``hex_id`` (of tile ``only``, when given): each tile of
    the supply with its rotations and cost, or the rule that keeps it off.  With
    ``turn`` (the door's lay) that rotation is asked first, and when it fits the
    offer lists it alone.  With ``first`` (`lay_hexes`' early exit) the offer's only
    tile is the first that passes every check (`_first_passes`), no refusal listed,
    the tiles in ``skip`` not asked (`lay_tiles`: known to fit some hex already)."""
    board = gm.board
    assert board is not None
    lay = step.tile_lay()
    assert lay is not None
    hd = board.hex_def(hex_id) if hex_id in board else None
    where = f"{hd.location_name} ({hex_id})" if hd is not None and hd.location_name else hex_id
    make = functools.partial(TileLayOffer, hex=hex_id, rule=LAY_RULE,
                             second_lay=step.laid > 0, label=where, by=corp)
    why = step.hex_problem(gm, hex_id)
    if why is None and hex_id not in edges:
        why = f"{corp}'s network does not reach {where}"
    if why is not None:
        return make(why_not=why)
    old = board.hex(hex_id)
    names = [only] if only is not None else list(board.manifest)
    refused: list[tuple[str, str]] = []
    fitting: dict[str, list[tuple[int, int]]] = {}
    copies: dict[str, str] = {}
    turned: list[tuple[str, int, str]] = []
    for name in names:
        if first and name in skip:
            continue
        entry = board.manifest.get(name)
        if entry is None:
            refused.append((name, f"tile {name} is not in 1867"))
            continue
        if entry.tile.color.value not in ("yellow", "green", "brown", "gray"):
            continue
        copy = B.free_copy(board, name)
        if copy is None:
            refused.append((name, f"no tile {name} is left"))
            continue
        problem = step.tile_problem(gm, hex_id, copy)
        if problem is not None:
            refused.append((name, problem))
            continue
        rotations: list[tuple[int, int]] = []
        problems: list[str] = []
        order = range(6) if turn is None else [turn, *(r for r in range(6) if r != turn)]
        for rot in order:
            try:
                _tile, cost = step.check_lay(gm, corp, hex_id, copy, rot, max_exits=False,
                                             edges=edges, new_track=False)
            except IllegalAction as exc:
                problems.append(str(exc))
                if "cannot pay" in str(exc):
                    turned.append((name, rot, _cash_words(gm, corp, str(exc))))
                elif rot == turn:
                    turned.append((name, rot, str(exc)))  # the door's lay: its own reason
                continue
            rotations.append((rot, cost))
            if turn is not None:
                break  # the door's lay fits: the other rotations are not asked
        if rotations:
            if first:
                if _first_passes(gm, step, corp, hex_id, edges, copy, entry.tile, rotations):
                    return make(tiles=((name, tuple(r for r, _c in rotations)),))
                continue
            fitting[name] = rotations
            copies[name] = copy
        else:
            money = [p for p in problems if "cannot pay" in p]
            refused.append((name, _cash_words(gm, corp, money[0]) if money else problems[0]))
    if first:
        return make()
    if fitting and stop_counts(old.tile)[0]:
        # card: "When upgrading a city to brown, use a 6 exit tile if possible"
        color = board.manifest[next(iter(fitting))].tile.color
        best = step._max_exits(gm, corp, hex_id, color, edges)
        for name in [n for n in fitting if len(board.manifest[n].tile.exits) < best]:
            del fitting[name]
            refused.append((name, f"a city upgrade takes a tile with {best} exits where "
                                  f"one fits ({hex_id})"))
    if not gm.loading:
        for name in list(fitting):
            tile = board.manifest[name].tile
            kept: list[tuple[int, int]] = []
            why_not = ""
            seen: list[tuple[frozenset[tuple[int, int]], str | None]] = []
            for r, c in fitting[name]:
                # a rotation that lays the same track as one asked already (a
                # symmetric tile) has its answer: the walk is not made again
                placed = frozenset((min(a, b), max(a, b)) for a, b in geometry(tile, r).ends)
                problem = next((p for s, p in seen if s == placed), "?")
                if problem == "?":
                    try:
                        step._check_new_track(gm, corp, hex_id, copies[name], tile, r)
                        problem = None
                    except IllegalAction as exc:
                        problem = str(exc)
                    seen.append((placed, problem))
                if problem is not None:
                    why_not = problem
                    if r == turn:
                        turned.append((name, r, problem))
                    continue
                kept.append((r, c))
            if kept:
                fitting[name] = kept
            else:
                del fitting[name]
                refused.append((name, why_not))
    if not fitting:
        return make(refused=tuple(refused))
    cheapest = min(c for rots in fitting.values() for _r, c in rots)
    return make(
        tiles=tuple((n, tuple(r for r, _c in rots)) for n, rots in fitting.items()),
        cost=cheapest,
        costs=tuple((n, r, c) for n, rots in fitting.items() for r, c in rots if c != cheapest),
        refused=tuple(refused), turned=tuple(turned), copies=tuple(copies.items()))


def _first_passes(gm: G1867, step: Track, corp: str, hex_id: str, edges: dict[str, set[int]],
                  copy: str, tile: TileDef, rotations: list[tuple[int, int]]) -> bool:
    """True when tile ``copy``, fitting ``hex_id`` at ``rotations``, passes the checks
    `lay_offer` makes after its loop: a city upgrade's most exits, and (not loading)
    the new track at some rotation (`lay_offer`'s ``first``)."""
    board = gm.board
    assert board is not None
    if stop_counts(board.hex(hex_id).tile)[0] \
            and len(tile.exits) < step._max_exits(gm, corp, hex_id, tile.color, edges):
        return False
    if gm.loading:
        return True
    for r, _c in rotations:
        try:
            step._check_new_track(gm, corp, hex_id, copy, tile, r)
        except IllegalAction:
            continue
        return True
    return False


def sample_lays(gm: G1867, step: Track, corp: str, rng: random.Random, want: int = 2,
                budget: int = 4) -> list[Offer]:
    """The lay offers of up to ``budget`` hexes drawn with ``rng`` from those ``corp``
    reaches, stopping at ``want`` hexes where some tile fits (random play)."""
    if corp != step.current_entity(gm) or step.tile_lay() is None or gm.board is None:
        return []
    edges = step.connected_edges(gm, corp)
    hexes = sorted(edges)
    rng.shuffle(hexes)
    out: list[Offer] = []
    tried = 0
    for hex_id in hexes:
        if step.hex_problem(gm, hex_id) is not None:
            continue
        tried += 1
        offer = lay_offer(gm, step, corp, hex_id, edges)
        if offer.tiles:
            out.append(offer)
        if len(out) >= want or tried >= budget:
            break
    return out


def _cash_words(gm: G1867, corp: str, problem: str) -> str:
    """"$20 needed, BO has $5" for a lay the company cannot pay, even with loans."""
    amount = problem.split("$", 1)[1].split(" ", 1)[0] if "$" in problem else "?"
    return (f"${amount} needed, {corp} has ${gm.cash[corp]} and cannot raise the rest "
            f"with loans ({LAY_RULE})")


_Builder = Callable[["G1867", "Step", str, "str | None"], list[Offer]]

_BUILDERS: dict[tuple[type[Step], str], _Builder] = {
    (BuySellParShares, BuyShares.type): _sr_buys,
    (BuySellParShares, SellShares.type): _sr_sells,
    (BuySellParShares, Par.type): _pars,
    (BuySellParShares, Bid.type): _sr_bids,
    (PrivateAuction, Bid.type): _private_bids,
    (RedeemShares, BuyShares.type): _redeems,
    (BuyTrainStep, BuyTrain.type): _trains,
    (TokenStep, PlaceToken.type): _tokens,
    (Track, LayTile.type): _lays,
    (HomeToken, PlaceToken.type): _home_tokens,
    (MajorTrainless, Choose.type): _nationalize,
    (DiscardTrains, DiscardTrain.type): _discards,
    (PostMergerShares, BuyShares.type): _post_merger_buys,
    (ReduceTokens, RemoveToken.type): _removals,
    (MergeStep, Merge.type): _merges,
    (MergeStep, Convert.type): _converts,
    (MergeStep, Choose.type): _consents,
    (BuyCompanyStep, BuyCompany.type): _companies,
    (BuyCompanyBlocking, BuyCompany.type): _companies,
    (RouteStep, RunRoutes.type): _runs,
    (DividendStep, Dividend.type): _dividends,
}
"""(step, action type) -> the offers of that step for that type (a pass: `_passes`)."""
