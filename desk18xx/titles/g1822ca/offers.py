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
from desk18xx.engine.errors import IllegalAction
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
from desk18xx.engine.state import DEPOT, POOL, Share
from desk18xx.engine.tiledef import COLOR_ORDER, HexDef
from desk18xx.titles.g1822ca import rules as R
from desk18xx.titles.g1822ca.steps.acquisition import AcquisitionTrack
from desk18xx.titles.g1822ca.steps.operating import (
    FirstTurnHousekeeping,
    IssueShares,
    SpecialTrack,
    TokenStep,
    TrackStep,
    grant_lays_left,
)
from desk18xx.titles.g1822ca.steps.stock import BuySellParShares
from desk18xx.titles.g1822ca.steps.trains import (
    BuyTrainStep,
    depot_offer,
    l_upgrade_price,
    min_depot_price,
    must_buy_train,
    other_trains,
    sellable_shares,
)

if TYPE_CHECKING:
    from desk18xx.engine.round import Step
    from desk18xx.titles.g1822ca.game import G1822CA

_CLASSES: dict[str, type[Action]] = {c.type: c for c in (BuyShares, SellShares, Par, Bid,
                                                         BuyTrain, PlaceToken, LayTile)}
COVERED = frozenset(_CLASSES)
"""The action types whose legality these offers decide (where `_BUILDERS` has the step)."""

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
    cls = _CLASSES.get(action_type)
    if cls is None:
        return None
    step = target_step(gm, entity, cls)
    if step is None:
        return ()
    build = _BUILDERS.get((type(step), action_type))
    if build is None:
        return None
    found = build(gm, step, entity, focus)
    return None if found is None else tuple(found)


def action_offers(gm: G1822CA, action: Action) -> tuple[Offer, ...] | None:
    """`deciding_offers` for ``action``, about what it names only."""
    return deciding_offers(gm, action.entity, action.type, focus_of(gm.shares, action))


def offers(gm: G1822CA, entity: str, types: Collection[str] | None = None) -> tuple[Offer, ...]:
    """Every covered offer of ``entity`` now (of ``types`` only, when given)."""
    out: list[Offer] = []
    for action_type in sorted(COVERED if types is None else set(types) & COVERED):
        found = deciding_offers(gm, entity, action_type)
        if found:
            out.extend(found)
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
    keep: list[Offer] = []
    for offer in out:
        assert isinstance(offer, ShareOffer)
        if offer.why_not is None and offer.corporation == corp and gm.percent_of(
                player, corp) - offer.percent < max(gm.percent_of(p.id, corp)
                                                    for p in gm.players if p.id != player):
            offer = dataclasses.replace(
                offer, why_not="the director may not lose the operating company")
        keep.append(offer)
    return keep


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
        out.append(ShareOffer(
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
    free = gm.cash[player] - gm.boxes.committed_cash(player)
    out: list[Offer] = []
    for company in gm.boxes.offered():
        if focus not in (None, company):
            continue
        out.append(BidOffer(company=company, minimum=gm.boxes.min_bid(company),
                            maximum=free, step=5,
                            step_from=0 if company.startswith("P") else 100,
                            why_not=gm.boxes.bid_problem(player, company), rule="RB 4.2"))
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
    has_e = any(t.name == R.E_TRAIN for t in gm.corp_trains(corp))
    full = None if room else f"{corp} is at its train limit"
    cheapest = min_depot_price(gm)
    president = gm.president(corp)

    def short(price: int) -> str | None:
        """Why ``price`` is beyond the company (RB 5.15.6), or None."""
        if price <= cash:
            return None
        if not forced:
            return "not enough cash"
        if cheapest is not None and price > cheapest:
            return f"a forced purchase is the cheapest train (${cheapest})"
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
                why = full
                if why is None and side == R.E_TRAIN and has_e:
                    why = f"{corp} may own only one E-train (RB 5.17.7)"
                if why is None:
                    why = short(price)
                out.append(TrainOffer(train=t.id, name=t.name, seller=DEPOT, price=price,
                                      variant=side, why_not=why, rule="RB 5.10"))
        else:
            why = full or short(t.price)
            out.append(TrainOffer(train=t.id, name=t.name, seller=POOL, price=t.price,
                                  variant=t.name, why_not=why, rule="RB 5.10"))
    between = None if gm.has_status("can_buy_trains") else \
        "trains change hands between companies from phase 3"
    for t in other_trains(gm, corp):
        if focus not in (None, t.id):
            continue
        out.append(TrainOffer(train=t.id, name=t.name, seller=t.owner, min_price=1,
                              max_price=cash, why_not=between or full or (
                                  "not enough cash" if cash < 1 else None),
                              rule="RB 5.10.4"))
    flip = l_upgrade_price(gm)
    for t in gm.corp_trains(corp):
        if t.name == "L":
            out.append(TrainOffer(train=t.id, name="2", seller=DEPOT, price=flip,
                                  exchange=t.id, why_not=None if flip <= cash
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
    token's price (RB 5.8); P10's Winnipeg token is left to the step."""
    assert isinstance(step, TokenStep)
    if corp in (R.WINNIPEG_TOKEN, R.TOKEN_SWAP):
        return None
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
    """A private that lays on one hex only (P14-P17, RB: its city)."""
    blocked_hexes: tuple[tuple[str, str], ...] = ()
    """(hex, why not) for hexes this lay may not use (laid this turn)."""
    why_not: str | None = None
    rule: str = LAY_RULE


def _lays_of(gm: G1822CA, kind: _LayKind, focus: str | None) -> list[Offer]:
    """One offer per hex ``kind.corp`` reaches (the focused hex only, and that tile
    only, when ``focus`` is ``"HEX"`` or ``"HEX/TILE"``)."""
    from desk18xx.engine.map.graph import graph_for

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
    out: list[Offer] = []
    for hex_id in hexes:
        offer = _hex_lay(gm, kind, hex_id, reach.connected_edges(hex_id), token_hexes)
        if offer.tiles:
            out.append(offer)
    return out


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
             turn: int | None = None) -> TileLayOffer:
    """The offer of ``kind``'s lay on ``hex_id`` (tile ``only``, when given), as
    `G1822CA.lay_tile` and the step would check it (RB 5.7; supplement §6.1)."""
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
    rules = gm.track_rules
    phase = list(gm.phase_colors())
    names = [only] if only is not None else board.available_names()
    refused: list[tuple[str, str]] = []
    fitting: dict[str, tuple[int, ...]] = {}
    old = st.geo.tile
    # a tile of another colour than the next never fits, but where the printed hex
    # takes named tiles only (as `upgrade_problem` says, without asking it)
    any_colour = st.printed and hex_id in rules.replace_only
    next_colour = COLOR_ORDER.index(old.color) + 1 if old.color in COLOR_ORDER else -9
    what = hex_id if st.printed else f"tile {old.name} on {hex_id}"
    for name in names:
        try:
            tile = board.tile_def(name)
        except IllegalAction:
            refused.append((name, f"there is no tile {name} in this game"))
            continue
        if only is not None and board.remaining(tile.name) == 0:
            refused.append((name, f"no tile {name} is left"))
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
            if why is not None and "it needs a tile with label " in why:
                why = _label_words(gm, where, tile.color, why.rsplit(" ", 1)[1])
        if why is not None:
            refused.append((name, why))
            continue
        rots: list[int] = []
        first: str | None = None
        for rot in _turns(turn):
            problem = rotation_problem(board, hex_id, tile, rot, rules, edges,
                                       remove_town=kind.remove_town)
            if problem is None:
                rots.append(rot)
                if turn is not None:
                    break  # the door's lay fits: the other rotations are not asked
            elif first is None:
                first = problem
        if rots:
            fitting[name] = tuple(rots)
        else:
            refused.append((name, first or f"tile {name} does not fit {where}"))
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


def _track_lays(gm: G1822CA, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """The operating company's lays: one, or a major's yellow second lay from phase 3
    (RB 5.7.3); never twice on one hex."""
    assert isinstance(step, TrackStep)
    if not step.is_current(corp) or corp not in gm.corps:
        return []
    opts = step.lay_options(gm)
    orr = step.orr()
    laid = tuple((h, f"{h} was laid this turn (RB 5.7.38)") for h in orr.laid_hexes)
    if opts is None:
        kind = _LayKind(corp=corp, why_not=f"{corp} has no tile lay left (RB 5.7.3)")
    else:
        kind = _LayKind(corp=corp, may_yellow=opts[0], may_upgrade=opts[1],
                        second=orr.num_laid_track > 0, blocked_hexes=laid)
    return _lays_of(gm, kind, focus)


def _special_lays(gm: G1822CA, step: Step, company: str,
                  focus: str | None = None) -> list[Offer]:
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
    kind = _LayKind(
        corp=corp, special=True, remove_town=company in R.REMOVE_TOWN,
        ahead=company == R.ADVANCED_TILE_LAY,
        free=company in R.BIG_CITY_COMPANIES or company in R.MOUNTAIN_PASS_COMPANIES
        or company == R.TILE_GRANT,
        only_hex=R.BIG_CITY_COMPANIES.get(company), blocked_hexes=laid, why_not=why,
        rule="supplement §6.1")
    return _lays_of(gm, kind, focus)


def _bonus_lays(gm: G1822CA, step: Step, corp: str, focus: str | None = None) -> list[Offer]:
    """The acquiring major's bonus lay (RB 5.17.13): not on a hex laid this turn."""
    assert isinstance(step, AcquisitionTrack)
    if not step.is_current(corp) or step.orr().acquiring_major != corp:
        return []
    laid = tuple((h, f"{h} was already laid or upgraded this turn (RB 5.17.13)")
                 for h in step.orr().laid_hexes)
    return _lays_of(gm, _LayKind(corp=corp, blocked_hexes=laid, rule="RB 5.17.13",
                                 second=True), focus)


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
    (TrackStep, LayTile.type): _track_lays,
    (SpecialTrack, LayTile.type): _special_lays,
    (AcquisitionTrack, LayTile.type): _bonus_lays,
}
"""(step, action type) -> the offers of that step for that type."""
