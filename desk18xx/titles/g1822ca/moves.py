"""Concrete legal actions for whoever acts now (random playouts, hints for a UI).

Each generator builds actions the steps accept; large spaces (tile lays,
routes, bids) are sampled with the caller's random generator.  Routes are
found by a bounded walk over the track graph and validated by the 1822CA
route rules (``revenue.price_routes``).
"""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import TYPE_CHECKING

from desk18xx.engine.actions import (
    AcquireCompany as AcquireCompanyAction,
)
from desk18xx.engine.actions import (
    Action,
    Bid,
    BuyShares,
    BuyTrain,
    Choose,
    ChooseAbility,
    DiscardTrain,
    Dividend,
    HexToken,
    LayTile,
    Merge,
    Par,
    Pass,
    PayoffPlayerDebt,
    PlaceToken,
    Route,
    RunRoutes,
    SellShares,
)
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.map.graph import TrackGraph, graph_for
from desk18xx.engine.map.hexgrid import opposite
from desk18xx.engine.map.tiles import NODE
from desk18xx.engine.map.upgrades import legal_rotations, legal_tiles
from desk18xx.engine.state import DEPOT, POOL
from desk18xx.engine.tiledef import Color, NodeKind
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
    TokenStep,
    TrackStep,
)
from desk18xx.titles.g1822ca.steps.stock import BuySellParShares, ChooseDouble
from desk18xx.titles.g1822ca.steps.stock import DiscardTrain as DiscardStep
from desk18xx.titles.g1822ca.steps.trains import (
    BuyTrainStep,
    depot_offer,
    must_buy_train,
    sale_percent,
    sellable_shares,
)

if TYPE_CHECKING:
    from desk18xx.engine.round import Step
    from desk18xx.titles.g1822ca.game import G1822CA

Node = tuple[str, int]


TILE_HEX_PROBES = 8
"""Reached hexes a random track lay looks at, in random order."""
TILE_HEXES_OFFERED = 2
"""Hexes with a legal tile offered per track decision."""
TILES_PER_HEX = 3
"""Legal tiles looked for on a hex without a city."""

def candidate_moves(game: G1822CA, rng: random.Random,
                    types: Collection[str] | None = None) -> list[Action]:
    """Legal actions of the entity that must act now (empty when the game is over).

    With ``types``, moves of other types may be left out (a run's routes are
    then not searched for unless ``run_routes`` is asked for).
    """
    r = game.round
    if r is None or game.finished:
        return []
    step = r.active_step(game)
    if step is None:
        return []
    entity = step.current_entity(game)
    if entity is None:
        return []
    if isinstance(step, BuyTrainStep) and must_buy_train(game, entity):
        player = game.president(entity)
        if player is not None and not _affordable(game, entity):
            return [*_forced_train(game, entity, player, step.corporations_sold),
                    *_winnipeg_tokens(game, entity)]
    return _step_moves(game, step, entity, rng, types)


def _kind(game: G1822CA, entity: str) -> str:
    return "player" if game.is_player(entity) else "corporation"


def _step_moves(game: G1822CA, step: Step, entity: str, rng: random.Random,
                types: Collection[str] | None = None) -> list[Action]:
    out = _step_offers(game, step, entity, rng, types)
    refused = getattr(game.round, "refused", None)
    if refused:
        # a deal the other player refused this turn is not put again
        out = [a for a in out if a.type == "pass" or deal_key(a) not in refused]
    return out


def _step_offers(game: G1822CA, step: Step, entity: str, rng: random.Random,
                 types: Collection[str] | None = None) -> list[Action]:
    kind = _kind(game, entity)
    legal = step.legal(game, entity)
    out: list[Action] = []
    if Pass in legal:
        out.append(Pass(entity=entity, entity_type=kind))
    match step:
        case Consent():
            out.extend(Choose(entity=entity, entity_type=kind, choice=c)
                       for c in ("consent", "refuse"))
        case BuySellParShares():
            out.extend(_stock(game, step, entity, rng))
        case ChooseDouble():
            out.append(Choose(entity=entity, entity_type=kind, choice="double"))
        case DiscardStep():
            out.extend(DiscardTrain(entity=entity, entity_type=kind, train=t.id)
                       for t in game.discardable(entity))
        case PendingToken():
            out.extend(_pending_tokens(game, step, entity))
        case FirstTurnHousekeeping():
            up = game.upcoming()
            if up is not None and BuyTrain in legal:
                out.append(BuyTrain(entity=entity, entity_type=kind, train=up.id,
                                    price=up.price, variant="L"))
        case AssignSawmill():
            if step.state == "assigned":
                out.extend(Choose(entity=R.SAWMILL, entity_type="company", choice=c)
                           for c in ("open", "closed"))
        case AcquireCompany():
            out.extend(AcquireCompanyAction(entity=entity, entity_type=kind, company=c)
                       for c in acquirable_privates(game, entity))
        case TrackStep():
            if step.lay_options(game) is not None:
                # an upgrade never goes on a hex laid earlier in the turn (a company's
                # special lay included; TrackStep refuses it)
                out.extend(_tile_lays(game, entity, rng, step.lay_options(game),
                                      later=step.orr().laid_hexes))
            out.extend(_company_lays(game, step, entity, rng))
            out.extend(ChooseAbility(entity=R.TOKEN_SWAP, entity_type="company", choice=c)
                       for c in game.token_swap_choices(entity))
        case AcquisitionTrack():
            # RB 5.17.13: not a hex laid or upgraded earlier in the turn
            out.extend(_tile_lays(game, entity, rng, (True, True), step.orr().laid_hexes))
        case DestinationToken():
            # RB 5.8.3: once connected the token goes down (not deferred)
            connected = game.destination_connected(entity)
            dest = game.corp_defs[entity].destination
            if not connected or dest is None:
                out.append(Pass(entity=entity, entity_type=kind))
            elif len(connected) == 1 and len(game.destination_cities(entity)) == 1:
                out = [HexToken(entity=entity, entity_type=kind, hex=dest.hex,
                                token_type="destination")]
            else:
                # 18xx.games finds the destination token by the action's token_type
                out = [PlaceToken(entity=entity, entity_type=kind,
                                  city=game.map.city_id(dest.hex, c), token_type="destination")
                       for c in connected]
        case TokenStep():
            # only where the step itself offers a placement: with compat_18xxgames it
            # stays shut for a city in a hex the company is in already (D32), and
            # while 18xx.games' cached "cannot token" holds (issue 16)
            if PlaceToken in legal:
                out.extend(_tokens(game, entity))
        case RouteStep():
            out = _attachments(game, entity, kind)
            if types is None or RunRoutes.type in types:
                out.append(_routes(game, entity, rng))
        case DividendStep():
            out.extend(Dividend(entity=entity, entity_type=kind, kind=k)
                       for k in ("payout", "half", "withhold"))
        case BuyTrainStep():
            out.extend(_trains(game, entity, rng))
        case MinorAcquisition():
            out.extend(_acquisitions(game, step, entity))
        case IssueShares():
            out.extend(_issue(game, entity, legal))
    out.extend(_winnipeg_tokens(game, entity))
    return out


def _winnipeg_tokens(game: G1822CA, corp: str) -> list[Action]:
    """P10's Winnipeg token, open at any time of its owner's turn once no earlier step
    blocks (18xx.games ``SpecialToken``, ``when: owning_corp_or_turn``)."""
    r = game.round
    if r is None or not game.winnipeg_token_open(corp, R.WINNIPEG_TOKEN) \
            or PlaceToken not in r.legal_for(game, R.WINNIPEG_TOKEN):
        return []
    st = game.map.hex("N16")
    return [PlaceToken(entity=R.WINNIPEG_TOKEN, entity_type="company",
                       city=game.map.city_id("N16", c), slot=None, tokener=corp)
            for c in range(len(st.tokens))
            if not any(t is not None and t.corp == corp for t in st.tokens[c])]


# -- stock round -------------------------------------------------------------------------
def _stock(game: G1822CA, step: BuySellParShares, player: str,
           rng: random.Random) -> list[Action]:
    out: list[Action] = []
    legal = step.legal(game, player)
    if step.must_sell(game, player):
        return _forced_sales(game, step, player)
    if PayoffPlayerDebt in legal:
        out.append(PayoffPlayerDebt(entity=player))
    if Bid in legal:
        for company in game.boxes.offered():
            price = game.boxes.min_bid(company) + 5 * rng.randint(0, 3)
            try:
                game.boxes.check_bid(player, company, price)
            except IllegalAction:
                continue
            out.append(Bid(entity=player, company=company, price=price))
    if Par in legal:
        out.extend(_pars(game, player, rng))
    if BuyShares in legal:
        for corp, c in game.corps.items():
            if not game.is_major(corp) or not c.ipoed or corp in step.sold_now:
                continue
            if corp in step._sold_this_round(game, player):
                continue
            if game.percent_of(player, corp) + 10 > 60:
                continue
            if game.num_certs(player) + len(game.boxes.player_bids(player, True)) \
                    >= game.cert_limit:
                continue
            for holder in (corp, POOL):
                shares = sorted((s for s in game.shares.values() if s.corp == corp
                                 and s.owner == holder and not s.president),
                                key=lambda s: int(s.id.rsplit("_", 1)[1]))
                if shares and game.cash[player] - game.boxes.committed_cash(player) \
                        >= game.price(corp):
                    out.append(BuyShares(entity=player, shares=(shares[0].id,), percent=10))
    return out


def _forced_sales(game: G1822CA, step: BuySellParShares, player: str) -> list[Action]:
    """Over the certificate limit only a sale is legal (RB 4.2.6): one certificate of
    each company that may be sold, the director's certificate only when nothing else
    of that company is held."""
    out: list[Action] = []
    for corp in sorted({s.corp for s in game.shares.values() if s.owner == player}):
        if not game.is_major(corp) or corp in step.sold_now:
            continue
        held = game.shares_of(player, corp)
        plain = [s for s in held if not s.president]
        cert = (plain or held)[0]
        sale = SellShares(entity=player, shares=(cert.id,), percent=cert.percent)
        if game.why_illegal(sale) is None:
            out.append(sale)
    return out


def _pars(game: G1822CA, player: str, rng: random.Random) -> list[Action]:
    out: list[Action] = []
    prices = [c for c in game.market.cells.values() if c.price in (60, 70, 80, 90, 100)]
    at_limit = game.num_certs(player) + len(game.boxes.player_bids(player, True)) \
        >= game.cert_limit
    for corp, c in game.corps.items():
        if not game.is_major(corp) or c.ipoed:
            continue
        concession = game.concession_of(corp)
        if concession is not None:
            if game.companies[concession].owner != player \
                    or not game.has_status("can_convert_concessions"):
                continue
        elif not game.has_status("can_par") or at_limit:
            continue
        mult = game.shares[f"{corp}_0"].percent // 10
        cell = rng.choice(prices)
        cost = cell.price * mult - (100 if concession else 0)
        if cost <= game.cash[player] - game.boxes.committed_cash(player):
            out.append(Par(entity=player, corporation=corp, share_price=cell.id))
    return out


# -- operating round ---------------------------------------------------------------------
def _pending_tokens(game: G1822CA, step: PendingToken, corp: str) -> list[Action]:
    pend = step.orr().pending_tokens
    if not pend:
        return []
    _c, hexes, price = pend[0]
    routed = game.pending_token_needs_route(corp, price)
    out: list[Action] = []
    for hex_id in hexes:
        st = game.map.hex(hex_id)
        for city in range(len(st.tokens)):
            if any(t.corp == corp for t in st.city_tokens(city)):
                continue
            if routed and not game.reaches_city(corp, hex_id, city):
                continue
            if corp == "QMOO" and hex_id == game.corp_defs[corp].home_hexes[0] \
                    and st.free_slots(city) == 0:
                continue
            out.append(PlaceToken(entity=corp, entity_type="corporation",
                                  city=game.map.city_id(hex_id, city), slot=0))
    return out


def _company_lays(game: G1822CA, step: TrackStep, corp: str,
                  rng: random.Random) -> list[Action]:
    """Big-city upgrades (P14-P18) and mountain passes (P19/P20) by their owner."""
    out: list[Action] = []
    orr = step.orr()
    reach = graph_for(game.map).reach(corp)
    colors = list(game.phase_colors())
    if game.is_minor(corp):
        colors = [c for c in colors if c.value in ("yellow", "green")]
    for cid in list(game.corps[corp].companies):
        c = game.companies[cid]
        if c.closed:
            continue
        if cid in R.BIG_CITY_COMPANIES and cid not in orr.big_city_used \
                and R.BIG_CITY_COMPANIES[cid] not in orr.laid_hexes:  # RB 5.7.38
            hexes = [R.BIG_CITY_COMPANIES[cid]]
        elif cid in R.MOUNTAIN_PASS_COMPANIES and orr.num_laid_track == 0:
            hexes = [R.MOUNTAIN_PASS_COMPANIES[cid]]
            colors = [col for col in colors if col.value == "yellow"]
        else:
            continue
        for hex_id in hexes:
            if hex_id not in game.map or reach.connected_edges(hex_id) is None:
                continue
            tiles = legal_tiles(game.map, hex_id, colors, game.track_rules,
                                reach.connected_edges(hex_id))
            for name, rotations in sorted(tiles.items())[:3]:
                out.append(LayTile(entity=cid, entity_type="company", hex=hex_id,
                                   tile=game.map.next_copy(name),
                                   rotation=rng.choice(rotations)))
    return out


def _tile_lays(game: G1822CA, corp: str, rng: random.Random,
               options_now: tuple[bool, bool] | None,
               laid: list[str] | None = None, later: list[str] | None = None) -> list[Action]:
    if options_now is None:
        return []
    reach = graph_for(game.map).reach(corp)
    colors = list(game.phase_colors())
    if game.is_minor(corp):
        colors = [c for c in colors if c.value in ("yellow", "green")]
    if not options_now[1]:
        colors = [c for c in colors if c.value == "yellow"]
    out: list[Action] = []
    # a random sample of the reached hexes, not all of them: legal_tiles over the whole
    # reach was most of a playout's time (the lay itself is still checked in full)
    hexes = sorted(h for h in reach.edges if h in game.map and h not in (laid or ())
                   and all(b == corp for b in game.map.hex(h).blockers))
    rng.shuffle(hexes)
    if later:  # left out after the shuffle, so other random games stay as they were
        hexes = [h for h in hexes if h not in later]
    found = 0
    for hex_id in hexes[:TILE_HEX_PROBES]:
        tiles = _some_tiles(game, hex_id, colors, reach.edges[hex_id], rng)
        if not tiles:
            continue
        found += 1
        if found > TILE_HEXES_OFFERED:
            break
        for name, rotations in sorted(tiles.items()):
            tile_id = game.map.next_copy(name)
            rotation = rng.choice(rotations)
            if _lay_cost(game, hex_id, tile_id, rotation) <= game.cash[corp]:
                out.append(LayTile(entity=corp, entity_type="corporation", hex=hex_id,
                                   tile=tile_id, rotation=rotation))
    return out


def _some_tiles(game: G1822CA, hex_id: str, colors: list[Color], edges: frozenset[int],
                rng: random.Random) -> dict[str, tuple[int, ...]]:
    """A few legal tiles for ``hex_id``: all of them on a city (the most-exits rule
    compares them), else the first legal ones of the supply in random order."""
    board = game.map
    if board.hex(hex_id).geo.city_nodes:
        return legal_tiles(board, hex_id, colors, game.track_rules, edges)
    names = [n for n in board.available_names() if board.tile_def(n).color in colors]
    rng.shuffle(names)
    out: dict[str, tuple[int, ...]] = {}
    for name in names:
        rotations = legal_rotations(board, hex_id, board.tile_def(name), game.track_rules, edges)
        if rotations:
            out[name] = rotations
            if len(out) >= TILES_PER_HEX:
                break
    ruled = [c for c in colors if c in game.track_rules.max_exits_plain]
    if ruled and not board.hex(hex_id).geo.town_nodes:
        # rulebook mode, RB 5.7.35: a plain grey tile only with the most exits that fit
        best = legal_tiles(board, hex_id, ruled, game.track_rules, edges)
        out = {n: r for n, r in out.items() if board.tile_def(n).color not in ruled or n in best}
    return out


def _lay_cost(game: G1822CA, hex_id: str, tile_id: str, rotation: int) -> int:
    from desk18xx.engine.map.upgrades import lay_cost

    return lay_cost(game.map, hex_id, game.map.tile_def(tile_id), rotation,
                    game.track_rules).total


def _tokens(game: G1822CA, corp: str) -> list[Action]:
    tok = game.corps[corp].next_token()
    if tok is None or game.cash[corp] < tok.price:
        return []
    reach = graph_for(game.map).reach(corp)
    out: list[Action] = []
    for hid, node in sorted(reach.nodes):
        st = game.map.hex(hid)
        if node not in st.geo.city_nodes:
            continue
        city = st.geo.city_nodes.index(node)
        if st.free_slots(city) > 0 and game.can_token_in(corp, hid, city):
            out.append(PlaceToken(entity=corp, entity_type="corporation",
                                  city=game.map.city_id(hid, city), slot=None))
    return out[:5]


def _trains(game: G1822CA, corp: str, rng: random.Random) -> list[Action]:
    out: list[Action] = []
    cash = game.cash[corp]
    room = len(game.real_trains(corp)) < game.train_limit(corp)
    for t in depot_offer(game):
        if not room:
            break
        base = game.train_base[t.id]
        for variant, (_d, price, _r, _m) in game.train_variants[base].items():
            if t.owner != DEPOT and variant != t.name:
                continue
            if variant == R.E_TRAIN and any(x.name == R.E_TRAIN for x in game.corp_trains(corp)):
                continue
            if price <= cash or must_buy_train(game, corp) and price <= cash:
                out.append(BuyTrain(entity=corp, entity_type="corporation", train=t.id,
                                    price=price if t.owner == DEPOT else t.price,
                                    variant=variant))
    for t in game.corp_trains(corp):
        if t.name == "L" and cash >= 80:
            from desk18xx.titles.g1822ca.steps.trains import l_upgrade_price

            out.append(BuyTrain(entity=corp, entity_type="corporation", train=t.id,
                                price=l_upgrade_price(game), variant="2", exchange=t.id))
    return out


def _affordable(game: G1822CA, corp: str) -> bool:
    prices = [t.price for t in depot_offer(game)]
    return bool(prices) and min(prices) <= game.cash[corp]


def _forced_train(game: G1822CA, corp: str, player: str,
                  sold: list[str]) -> list[Action]:
    """The cheapest train; the director pays the rest, borrowing if he must."""
    offer = depot_offer(game)
    cheapest = min(offer, key=lambda t: min(v[1] for v in game.train_variants[
        game.train_base[t.id]].values()) if t.owner == DEPOT else t.price)
    base = game.train_base[cheapest.id]
    variant, price = min(((v, d[1]) for v, d in game.train_variants[base].items()),
                         key=lambda x: x[1])
    if cheapest.owner != DEPOT:
        variant, price = cheapest.name, cheapest.price
    if game.cash[corp] + game.cash[player] < price:
        sellable = sellable_shares(game, player, corp, sold)
        if sellable:
            return [SellShares(entity=player, shares=(sellable[0],),
                               percent=sale_percent(game, player, sellable[0]))]
    return [BuyTrain(entity=corp, entity_type="corporation", train=cheapest.id, price=price,
                     variant=variant)]


def _acquisitions(game: G1822CA, step: MinorAcquisition, corp: str) -> list[Action]:
    if step.state == "select":
        merges: list[Action] = [Merge(entity=corp, entity_type="corporation", corporation=m)
                                for m in step.candidates(game, corp)
                                if game.connects_to_minor(corp, m)]
        return merges[:3]
    if step.state == "pay":
        assert step.minor is not None
        return [Choose(entity=corp, entity_type="corporation", choice=c)
                for c in step.pay_choices(game, corp, step.minor)]
    assert step.minor is not None
    return [Choose(entity=corp, entity_type="corporation", choice=c)
            for c in step.token_choices(game, corp, step.minor)]


def _issue(game: G1822CA, corp: str, legal: tuple[type[Action], ...]) -> list[Action]:
    out: list[Action] = []
    if SellShares in legal:
        share = game.ipo_shares(corp)
        share = [s for s in share if not s.president]
        if share:
            # the dropped price, as 18xx.games writes it (reduced_bundle_price_for_market_drop)
            price = game.market.relative(corp, False, ["left"]).price
            out.append(SellShares(entity=corp, entity_type="corporation",
                                  shares=(share[0].id,), percent=10, share_price=price))
    if BuyShares in legal:
        pool = sorted((s for s in game.shares.values() if s.corp == corp and s.owner == POOL),
                      key=lambda s: int(s.id.rsplit("_", 1)[1]))
        if pool:
            out.append(BuyShares(entity=corp, entity_type="corporation",
                                 shares=(pool[0].id,), percent=10))
    return out


# -- routes ------------------------------------------------------------------------------
def _attachments(game: G1822CA, corp: str, kind: str) -> list[Action]:
    """Attach the Pullman, then the grain train, to each train it may go with, or run
    without it (RB 5.9; 18xx G1822CA ``Route#choices``)."""
    return [Choose(entity=corp, entity_type=kind, choice=c)
            for c in game.attach_labels(corp)]


def _routes(game: G1822CA, corp: str, rng: random.Random) -> Action:
    """A run: each train's best found route, kept only while the whole run validates."""
    from desk18xx.titles.g1822ca.revenue import price_routes

    chosen: list[Route] = []
    used: set[tuple[str, int]] = set()
    for t in game.route_trains(corp):
        if t.name == R.E_TRAIN:
            continue
        candidates = _train_routes(game, corp, t.id, t.name, t.distance, used, rng)
        for _value, route, paths in candidates[:4]:
            try:
                revenues = price_routes(game, corp, [*chosen, route])
            except IllegalAction:
                continue
            priced = [Route(train=r.train, connections=r.connections, hexes=r.hexes,
                            revenue=v, revenue_str=r.revenue_str, nodes=r.nodes)
                      for r, v in zip([*chosen, route], revenues, strict=True)]
            chosen = priced
            used |= paths
            break
    return RunRoutes(entity=corp, entity_type="corporation", routes=tuple(chosen))


def _train_routes(game: G1822CA, corp: str, tid: str, name: str, distance: int,
                  used: set[tuple[str, int]], rng: random.Random
                  ) -> list[tuple[int, Route, set[tuple[str, int]]]]:
    """Candidate routes for one train, best estimated value first."""
    board = game.map
    graph = graph_for(board)
    colors = game.phase_colors()
    starts: list[Node] = []
    for token_hex, city in board.tokens_of(corp):
        starts.append((str(token_hex), board.hex(token_hex).geo.city_nodes[city]))
    if name in R.LOCAL_TRAINS:
        out: list[tuple[int, Route, set[tuple[str, int]]]] = []
        for start_hex, node in starts:
            value = board.hex(start_hex).geo.tile.nodes[node].revenue.value(colors)
            out.append((value, Route(train=tid, connections=(("local", start_hex),),
                                     hexes=(start_hex,), revenue=value, revenue_str=start_hex,
                                     nodes=(f"{start_hex}-{node}",)), set()))
        out.sort(key=lambda x: -x[0])
        return out
    stops_max = distance if distance < 20 else 6
    found: list[tuple[int, Route, set[tuple[str, int]]]] = []
    budget = [2000]

    def value_of(node: Node) -> int:
        return board.hex(node[0]).geo.tile.nodes[node[1]].revenue.value(colors)

    def dfs(path_nodes: list[Node], chains: list[tuple[str, ...]], paths: set[tuple[str, int]],
            hexes_seen: set[str]) -> None:
        budget[0] -= 1
        if budget[0] <= 0:
            return
        if len(path_nodes) >= 2:
            value = sum(value_of(n) for n in path_nodes)
            found.append((value, Route(
                train=tid, connections=tuple(chains), hexes=tuple(n[0] for n in path_nodes),
                revenue=value, revenue_str="-".join(n[0] for n in path_nodes),
                nodes=tuple(f"{h}-{n}" for h, n in path_nodes)), set(paths)))
        if len(path_nodes) >= stops_max:
            return
        here = path_nodes[-1]
        if len(path_nodes) > 1 and graph.blocks(here[0], here[1], corp):
            return
        for end, chain, seg in _segments(graph, here):
            if end in path_nodes or seg & paths or seg & used:
                continue
            new_hexes = set(chain[1:]) if chain[0] == here[0] else set(chain)
            if (new_hexes - {here[0]}) & hexes_seen:
                continue
            dfs(path_nodes + [end], chains + [chain], paths | seg,
                hexes_seen | new_hexes)

    for start in starts:
        dfs([start], [], set(), {start[0]})
    found.sort(key=lambda x: -x[0])
    return found


Segment = tuple[Node, tuple[str, ...], set[tuple[str, int]]]


def _segments(graph: TrackGraph, start: Node) -> list[Segment]:
    """Track from a stop to each next stop: (end node, hexes, paths)."""
    out: list[Segment] = []
    hid, node = start
    geo = graph.state(hid).geo

    def walk(h: str, p: int, came: int, hexes: list[str], paths: set[tuple[str, int]]) -> None:
        if (h, p) in paths or len(paths) > 40:
            return
        paths = paths | {(h, p)}
        g = graph.state(h).geo
        a, b = g.ends[p]
        other = b if a == came else a
        if other >= NODE:
            n = other - NODE
            if g.kinds[n] is NodeKind.JUNCTION:
                for q in g.node_paths[n]:
                    if q != p:
                        walk(h, q, other, hexes, paths)
                return
            if (h, n) != start:
                out.append(((h, n), tuple(hexes), paths))
            return
        for nid, q in graph.links(h, other):
            walk(nid, q, opposite(other), hexes + [nid] if hexes[-1] != nid else hexes, paths)

    for p in geo.node_paths[node]:
        walk(hid, p, NODE + node, [hid], set())
    return out
