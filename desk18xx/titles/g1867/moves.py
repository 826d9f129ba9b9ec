"""Concrete legal actions for the entity to act now (random playouts, hints for a UI).

Each step's generator builds only actions its own checks accept; where the
space is large (tile lays, routes, bids) it returns a sample drawn with the
caller's random generator.
"""

from __future__ import annotations

import random
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
    Route,
    RunRoutes,
    SellShares,
)
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.market import CellType
from desk18xx.engine.state import DEPOT, POOL
from desk18xx.engine.tiledef import NodeKind
from desk18xx.titles.g1867 import rules as R
from desk18xx.titles.g1867.revenue import check_routes
from desk18xx.titles.g1867.steps.auction import PrivateAuction
from desk18xx.titles.g1867.steps.merger import (
    MergeStep,
    PostMergerShares,
    ReduceTokens,
    treasury,
)
from desk18xx.titles.g1867.steps.operating import (
    BuyCompanyStep,
    BuyTrainStep,
    DividendStep,
    RedeemShares,
    RouteStep,
    TokenStep,
    Track,
)
from desk18xx.titles.g1867.steps.stock import (
    BuySellParShares,
    DiscardTrains,
    HomeToken,
    MajorTrainless,
)

if TYPE_CHECKING:
    from desk18xx.engine.round import Step
    from desk18xx.titles.g1867.game import G1867


def candidate_moves(game: G1867, rng: random.Random) -> list[Action]:
    """Legal actions of the entity that must act now (empty when the game is over)."""
    r = game.round
    if r is None or game.finished:
        return []
    step = r.active_step(game)
    if step is None:
        return []
    entity = step.current_entity(game)
    if entity is None:
        return []
    kind = "player" if game.is_player(entity) else "corporation"
    out: list[Action] = []
    # non-blocking steps earlier in the round (buying privates) are open too
    for s in r.steps:
        if s is step:
            break
        if s.is_active(game) and not s.blocks and isinstance(s, BuyCompanyStep):
            out.extend(_buy_company(game, s, entity, kind, rng))
    out.extend(_step_moves(game, step, entity, kind, rng))
    return out


def _step_moves(game: G1867, step: Step, entity: str, kind: str,
                rng: random.Random) -> list[Action]:
    legal = step.legal(game, entity)
    out: list[Action] = []
    if Pass in legal:
        out.append(Pass(entity=entity, entity_type=kind))
    match step:
        case PrivateAuction():
            d = step.details(game, entity)
            lo, hi = d["min_bid"], d["max_bid"]
            if hi >= lo:
                price = lo + 5 * rng.randint(0, min(4, (hi - lo) // 5))
                out.append(Bid(entity=entity, entity_type=kind, company=d["company"],
                               price=price))
        case BuySellParShares():
            out.extend(_stock(game, step, entity, kind, rng))
        case HomeToken():
            out.extend(_home_tokens(game, entity))
        case MajorTrainless():
            # 18xx.games would then hold the round until an undo (D15): random play
            # leaves such an operator in play
            if Choose in legal and not step.keeps_turn(game, entity):
                out.append(Choose(entity=entity, entity_type=kind, choice="nationalize"))
        case DiscardTrains():
            out.extend(DiscardTrain(entity=entity, entity_type=kind, train=t)
                       for t in game.corps[entity].trains)
        case BuyCompanyStep():
            out.extend(_buy_company(game, step, entity, kind, rng))
        case RedeemShares():
            out.extend(BuyShares(entity=entity, entity_type=kind, shares=(sid,), percent=10)
                       for sid in step.redeemable(game, entity)[:1])
        case Track():
            out.extend(_tile_lays(game, step, entity, kind, rng))
        case TokenStep():
            out.extend(_tokens(game, step, entity, kind))
        case RouteStep():
            out.append(_routes(game, entity, kind, rng))
        case DividendStep():
            out.extend(Dividend(entity=entity, entity_type=kind, kind=k)
                       for k in ("payout", "half", "withhold"))
        case BuyTrainStep():
            out.extend(_trains(game, step, entity, kind, rng))
        case ReduceTokens():
            for t in game.corps[entity].tokens:
                if t.hex is not None and t.city is not None and step.removal_ok(game, entity, t):
                    assert game.board is not None
                    slot = game.board.tokens[t.hex][t.city].index(entity)
                    out.append(RemoveToken(entity=entity, entity_type=kind,
                                           city=_city_id(game, t.hex, t.city), slot=slot))
        case PostMergerShares():
            sid = step.buyable(game, entity)
            if sid is not None:
                out.append(BuyShares(entity=entity, entity_type=kind, shares=(sid,),
                                     percent=10))
        case MergeStep():
            out.extend(_merges(game, step, entity, kind))
    return [a for a in out if type(a) in legal or isinstance(a, Pass) and Pass in legal]


def _city_id(game: G1867, hex_id: str, city: int) -> str:
    assert game.board is not None
    placed = game.board.placed[hex_id]
    tile_id = placed.tile_id
    return f"{tile_id}-{placed.city_nodes[city]}"


def _stock(game: G1867, step: BuySellParShares, entity: str, kind: str,
           rng: random.Random) -> list[Action]:
    out: list[Action] = []
    if step.auctioning is not None:
        lo = max(step.bids.values()) + 5
        if game.cash[entity] >= lo:
            out.append(Bid(entity=entity, entity_type=kind, corporation=step.auctioning,
                           price=lo))
        return out
    legal = step.legal(game, entity)
    if BuyShares in legal:
        seen: set[tuple[str, str]] = set()
        for s in sorted(game.shares.values(), key=lambda s: s.id):
            if (s.corp, s.owner) in seen or s.owner not in (s.corp, POOL):
                continue
            if step.can_buy_share(game, entity, s.id):
                seen.add((s.corp, s.owner))
                out.append(BuyShares(entity=entity, entity_type=kind, shares=(s.id,),
                                     percent=s.percent))
    if SellShares in legal:
        for cid in game.live_corps():
            own = [s for s in game.shares_of(entity, cid) if not s.president]
            pres = [s for s in game.shares_of(entity, cid) if s.president]
            held = game.percent_of(entity, cid)
            for pct in range(10, held + 1, 10):
                if not step.can_sell_bundle(game, entity, cid, pct):
                    continue
                n = pct // 10
                ids = tuple(s.id for s in own[:n]) if n <= len(own) else \
                    tuple(s.id for s in own + pres)
                out.append(SellShares(entity=entity, entity_type=kind, shares=ids,
                                      percent=pct))
    if Par in legal:
        majors = [c for c in game.available if game.is_major(c) and not game.corps[c].ipoed]
        if majors and game.home_token_locations(majors[0]):
            cells = [c for c in game.market.cells_with((CellType.PAR, CellType.PAR_2))
                     if 2 * c.price <= game.cash[entity]]
            for cell in cells:
                out.append(Par(entity=entity, entity_type=kind, corporation=rng.choice(majors),
                               share_price=cell.id))
    if Bid in legal:
        minors = [c for c in game.available if game.is_minor(c) and not game.corps[c].ipoed]
        if minors and game.home_token_locations(minors[0]):
            top = min(game.cash[entity], 300)
            price = 100 + 5 * rng.randint(0, max(0, (top - 100) // 5))
            out.append(Bid(entity=entity, entity_type=kind, corporation=rng.choice(minors),
                           price=price))
    return out


def _home_tokens(game: G1867, corp: str) -> list[Action]:
    assert game.board is not None
    out: list[Action] = []
    for cid, hexes in game.pending_tokens[:1]:
        for h in hexes:
            for ci, slots in enumerate(game.board.tokens[h]):
                ok = all(s is None for s in slots) \
                    if game.is_minor(cid) or not game.config.compat_18xxgames else None in slots
                if ok:
                    out.append(PlaceToken(entity=cid, entity_type="corporation",
                                          city=_city_id(game, h, ci), slot=slots.index(None)))
    return out


def _buy_company(game: G1867, step: BuyCompanyStep, entity: str, kind: str,
                 rng: random.Random) -> list[Action]:
    if not step.can_buy(game, entity):
        return []
    out: list[Action] = []
    for cid in step.purchasable(game):
        top = min(game.companies[cid].value, game.cash[entity])
        if top >= 1:
            out.append(BuyCompany(entity=entity, entity_type=kind, company=cid,
                                  price=rng.randint(1, top)))
    return out


_CANDIDATES: dict[tuple[str, object], list[str]] = {}


def _tile_lays(game: G1867, step: Track, entity: str, kind: str,
               rng: random.Random, want: int = 4) -> list[Action]:
    from desk18xx.engine.board_lite import shape, stop_counts
    from desk18xx.engine.tiledef import COLOR_ORDER

    assert game.board is not None
    board = game.board
    edges = step.connected_edges(game, entity)
    hexes = sorted(edges)
    rng.shuffle(hexes)
    out: list[Action] = []
    checks = 0
    for h in hexes:
        if h not in board.placed or h in step.laid_hexes or h in board.blocked:
            continue
        old = board.placed[h]
        if old.tile.color.value in ("red", "blue", "gray"):
            continue
        nxt = COLOR_ORDER[COLOR_ORDER.index(old.tile.color) + 1] \
            if old.tile.color in COLOR_ORDER[:-1] else None
        if nxt is None or nxt.value not in game.phase.tiles:
            continue
        key = (old.tile.name, nxt)
        names = _CANDIDATES.get(key)
        if names is None:
            oc, ot = stop_counts(old.tile)
            names = [n for n, e in board.manifest.items()
                     if e.tile.color is nxt and stop_counts(e.tile)[1] == ot
                     and bool(stop_counts(e.tile)[0]) == bool(oc)]
            _CANDIDATES[key] = names
        names = list(names)
        rng.shuffle(names)
        old_exits = old.shape.exits
        reach = edges.get(h, set())
        for name in names:
            copy = board.free_copy(name)
            if copy is None:
                continue
            tile = board.manifest[name].tile
            for rot in rng.sample(range(6), 6):
                sh = shape(tile, rot)
                if not old_exits <= sh.exits or not sh.exits & reach:
                    continue
                checks += 1
                try:
                    step.check_lay(game, entity, h, copy, rot, edges=edges)
                except IllegalAction:
                    continue
                out.append(LayTile(entity=entity, entity_type=kind, hex=h, tile=copy,
                                   rotation=rot))
                break
            if len(out) >= want or checks > 60:
                return out
    return out


def _tokens(game: G1867, step: TokenStep, entity: str, kind: str) -> list[Action]:
    assert game.board is not None
    out: list[Action] = []
    token = game.corps[entity].next_token()
    if token is None:
        return out
    for h, ci in step.tokenable(game, entity):
        if game.token_distance_cost(entity, h, token) <= game.cash[entity]:
            slot = game.board.tokens[h][ci].index(None)
            out.append(PlaceToken(entity=entity, entity_type=kind, city=_city_id(game, h, ci),
                                  slot=slot))
    return out


def _routes(game: G1867, corp: str, kind: str, rng: random.Random) -> Action:
    routes: list[Route] = []
    for tid in game.corps[corp].trains:
        if game.trains[tid].operated:
            continue  # bought from a company that already ran it this round
        route = _find_route(game, corp, tid, rng)
        if route is None:
            continue
        try:
            check_routes(game, corp, tuple(routes + [route]))
        except IllegalAction:
            continue
        routes.append(route)
    return RunRoutes(entity=corp, entity_type=kind, routes=tuple(routes))


def _find_route(game: G1867, corp: str, tid: str, rng: random.Random) -> Route | None:
    """A random simple route from one of the company's stations."""
    assert game.board is not None
    board = game.board
    train = game.trains[tid]
    starts = [(h, board.placed[h].city_nodes[c]) for h, c, _s in board.corp_tokens(corp)]
    if not starts:
        return None
    h0, n0 = rng.choice(starts)
    chains: list[tuple[str, ...]] = []
    visited = {h0}
    cur_hex, cur_node = h0, n0
    counted = 1
    for _ in range(12):
        sh = board.placed[cur_hex].shape
        options = sorted(sh.node_edges[cur_node])
        rng.shuffle(options)
        advanced = False
        for e in options:
            chain = [cur_hex]
            h, edge = cur_hex, e
            stop: tuple[str, int] | None = None
            seen = set(visited)
            while True:
                nxt = board.neighbour_enterable(h, edge)
                if nxt is None:
                    break
                h2, back = nxt
                if h2 in seen:
                    break
                chain.append(h2)
                seen.add(h2)
                psh = board.placed[h2].shape
                nodes = psh.edge_nodes.get(back)
                if nodes:
                    stop = (h2, min(nodes))
                    break
                onward = sorted(psh.edge_edges.get(back, ()))
                if not onward:
                    break
                h, edge = h2, rng.choice(onward)
            if stop is None:
                continue
            chains.append(tuple(chain))
            visited.update(chain)
            cur_hex, cur_node = stop
            kind = board.placed[cur_hex].tile.nodes[cur_node].kind
            if kind is not NodeKind.TOWN:
                counted += 1
            advanced = True
            break
        if not advanced:
            break
        kind = board.placed[cur_hex].tile.nodes[cur_node].kind
        if kind is NodeKind.OFFBOARD or (not train.express and counted >= train.distance):
            break
        placed = board.placed[cur_hex]
        if kind is NodeKind.CITY and board.city_full_for(
                cur_hex, placed.city_nodes.index(cur_node), corp):
            break
        if rng.random() < 0.3:
            break
    if not chains:
        return None
    return Route(train=tid, connections=tuple(chains))


def _trains(game: G1867, step: BuyTrainStep, entity: str, kind: str,
            rng: random.Random) -> list[Action]:
    out: list[Action] = []
    must = step.must_buy(game, entity)
    power = step.power(game, entity)
    room = step.room(game, entity)
    for t in game.depot_trains():
        if room and t.price <= power:
            out.append(BuyTrain(entity=entity, entity_type=kind, train=t.id, price=t.price,
                                variant=t.name if t.owner == DEPOT else None))
        if game.phase.name == "8" and t.name in R.TRADE_FOR:
            for own in game.corp_trains(entity):
                net = t.price - t.discount.get(own.name, t.price)
                if own.name in t.discount and 1 <= net <= game.cash[entity]:
                    out.append(BuyTrain(entity=entity, entity_type=kind, train=t.id,
                                        price=t.price - t.discount[own.name],
                                        exchange=own.id))
    if room and game.cash[entity] >= 1:
        others = step.other_trains(game, entity)
        for tid in rng.sample(others, min(2, len(others))):
            price = rng.randint(1, min(game.cash[entity], game.trains[tid].price))
            out.append(BuyTrain(entity=entity, entity_type=kind, train=tid, price=price))
    if must:
        out = [a for a in out if not (isinstance(a, BuyTrain) and a.price > game.cash[entity]
                                      and game.trains[a.train].owner not in (DEPOT, POOL))]
    return out


def _merges(game: G1867, step: MergeStep, entity: str, kind: str) -> list[Action]:
    out: list[Action] = []
    if step.consent is not None:
        return [Choose(entity=entity, entity_type=kind, choice=c) for c in ("consent", "refuse")]
    if step.merge_major and not step.feasible(game):
        return out
    if step.converting or step.merge_major:
        for major in step.majors_available(game)[:3]:
            out.append(Merge(entity=entity, entity_type=kind, corporation=major))
        return out
    # by 18xx.games' rules a merge without president stays broken, so random play merges
    # only one owner's minors there; by the card it is undone, so anything goes
    owner = game.owner(entity)
    for c in step.candidates(game, entity):
        if game.owner(c) == owner or not game.config.compat_18xxgames:
            out.append(Merge(entity=entity, entity_type=kind, corporation=c))
    if step.merging is None and step.can_convert(game, entity) and step.majors_available(game):
        out.append(Convert(entity=entity, entity_type=kind))
    return out


def treasury_ids(game: G1867, cid: str) -> list[str]:
    """Treasury shares (re-exported for tests)."""
    return treasury(game, cid)
