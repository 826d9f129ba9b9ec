"""1867's offers: what an entity may do now, as typed values (`desk18xx.engine.offers`).

Read-only: every function here looks at the game and never changes it.  The
door in `desk18xx.engine.game.Game` processes an action of a type in `COVERED`
only when it matches an allowed offer of the step that would take it, so share
prices and percents (card: "SR Buy/sell shares", "OR Redeem"), start prices
("SR Majors"), bids ("SR Minors", the private auction) and train prices ("OR
Buy trains") come from here, never from the action.  Steps not listed in
`_BUILDERS` (the merger round's share purchases) are left to their own checks.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterable
from typing import TYPE_CHECKING

from desk18xx.engine.actions import (
    Action,
    Bid,
    BuyShares,
    BuyTrain,
    LayTile,
    Par,
    PlaceToken,
    SellShares,
)
from desk18xx.engine.board_lite import TileShape, shape, stop_counts
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.market import CellType
from desk18xx.engine.offers import (
    BidOffer,
    Offer,
    ParCell,
    ParOffer,
    ShareOffer,
    TileLayOffer,
    TokenOffer,
    TrainOffer,
    focus_of,
)
from desk18xx.engine.state import POOL, CorpKind, Share
from desk18xx.titles.g1867 import rules as R
from desk18xx.titles.g1867.steps.auction import INCREMENT, PrivateAuction
from desk18xx.titles.g1867.steps.operating import RedeemShares
from desk18xx.titles.g1867.steps.stock import BuySellParShares
from desk18xx.titles.g1867.steps.track import TokenStep, Track
from desk18xx.titles.g1867.steps.trains import BuyTrainStep

if TYPE_CHECKING:
    from desk18xx.engine.round import Step
    from desk18xx.titles.g1867.game import G1867

_CLASSES: dict[str, type[Action]] = {c.type: c for c in (BuyShares, SellShares, Par, Bid,
                                                         BuyTrain, PlaceToken, LayTile)}
COVERED = frozenset(_CLASSES)
"""The action types whose legality these offers decide (where `_BUILDERS` has the step)."""

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


def deciding_offers(gm: G1867, entity: str, action_type: str,
                    focus: str | None = None) -> tuple[Offer, ...] | None:
    """The offers that decide an action of ``action_type`` by ``entity`` (only those
    about ``focus``, a corporation, company or train id, when given); None when the
    step that would take it is not covered yet (its own checks decide)."""
    cls = _CLASSES.get(action_type)
    if cls is None:
        return None
    step = target_step(gm, entity, cls)
    if step is None:
        return ()
    build = _BUILDERS.get((type(step), action_type))
    if build is None:
        return None
    return tuple(build(gm, step, entity, focus))


def action_offers(gm: G1867, action: Action) -> tuple[Offer, ...] | None:
    """`deciding_offers` for ``action``, about what it names only."""
    return deciding_offers(gm, action.entity, action.type, focus_of(gm.shares, action))


def offers(gm: G1867, entity: str, types: Collection[str] | None = None) -> tuple[Offer, ...]:
    """Every covered offer of ``entity`` now (of ``types`` only, when given)."""
    out: list[Offer] = []
    for action_type in sorted(COVERED if types is None else set(types) & COVERED):
        found = deciding_offers(gm, entity, action_type)
        if found:
            out.extend(found)
    return tuple(out)


def _by_number(shares: Iterable[Share]) -> list[Share]:
    return sorted(shares, key=lambda s: int(s.id.rsplit("_", 1)[1]))


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
                         step=INCREMENT, target="corporation", rule="the card, SR Minors")]
    out: list[Offer] = []
    for cid in gm.available:
        if not gm.is_minor(cid) or gm.corps[cid].ipoed or focus not in (None, cid):
            continue
        why = None if gm.home_token_locations(cid) else "no city is free for a minor's home token"
        out.append(BidOffer(company=cid, minimum=R.MIN_MINOR_BID, maximum=cash,
                            step=INCREMENT, target="corporation", why_not=why,
                            rule="the card, SR Minors"))
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
                              max_price=cash,
                              why_not=full or ("not enough cash" if cash < 1 else None),
                              rule=rule))
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
            city_id = f"{gm.board.placed[hex_id].tile_id}-{city}"
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


def lay_offer(gm: G1867, step: Track, corp: str, hex_id: str,
              edges: dict[str, set[int]], only: str | None = None,
              turn: int | None = None) -> TileLayOffer:
    """The offer of a lay on ``hex_id`` (of tile ``only``, when given): each tile of
    the supply with its rotations and cost, or the rule that keeps it off.  With
    ``turn`` (the door's lay) that rotation is asked first, and when it fits the
    offer lists it alone."""
    board = gm.board
    assert board is not None
    lay = step.tile_lay()
    assert lay is not None
    hd = board.hexdefs.get(hex_id)
    where = f"{hd.location_name} ({hex_id})" if hd is not None and hd.location_name else hex_id
    make = functools.partial(TileLayOffer, hex=hex_id, rule=LAY_RULE,
                             second_lay=step.laid > 0, label=where, by=corp)
    why = step.hex_problem(gm, hex_id)
    if why is None and hex_id not in edges:
        why = f"{corp}'s network does not reach {where}"
    if why is not None:
        return make(why_not=why)
    old = board.placed[hex_id]
    names = [only] if only is not None else list(board.manifest)
    refused: list[tuple[str, str]] = []
    fitting: dict[str, list[tuple[int, int]]] = {}
    copies: dict[str, str] = {}
    turned: list[tuple[str, int, str]] = []
    for name in names:
        entry = board.manifest.get(name)
        if entry is None:
            refused.append((name, f"tile {name} is not in 1867"))
            continue
        if entry.tile.color.value not in ("yellow", "green", "brown", "gray"):
            continue
        copy = board.free_copy(name)
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
            fitting[name] = rotations
            copies[name] = copy
        else:
            money = [p for p in problems if "cannot pay" in p]
            refused.append((name, _cash_words(gm, corp, money[0]) if money else problems[0]))
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
            seen: list[tuple[TileShape, str | None]] = []
            for r, c in fitting[name]:
                # a rotation that lays the same track as one asked already (a
                # symmetric tile) has its answer: the walk is not made again
                placed = shape(tile, r)
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
}
"""(step, action type) -> the offers of that step for that type."""
