"""1867 stock round: sell, then buy one share, start a major, or auction a minor.

Card: "SR Buy/sell shares", "SR Minors", "SR Majors"; 18xx
``g_1867/step/buy_sell_par_shares.rb`` over ``buy_sell_par_shares_via_bid.rb``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, cast

from desk18xx.engine.actions import (
    Action,
    Bid,
    BuyShares,
    Choose,
    Par,
    Pass,
    PlaceToken,
    SellShares,
    Undo,
)
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.market import Cell, CellType
from desk18xx.engine.round import Step
from desk18xx.engine.steps.discard import DiscardTrains

__all__ = ["BuySellParShares", "DiscardTrains", "HomeToken", "MajorTrainless", "g"]
from desk18xx.engine.state import BANK, POOL, CorpKind, Share
from desk18xx.titles.g1867 import board as B
from desk18xx.titles.g1867 import rules as R
from desk18xx.titles.g1867.steps.auction import INCREMENT, check_bid_amount

if TYPE_CHECKING:
    from desk18xx.engine.game import Game
    from desk18xx.titles.g1867.game import G1867


def g(game: Game) -> G1867:
    """The game as a 1867 game (steps of this title only run in 1867 games)."""
    return cast("G1867", game)


class MajorTrainless(Step):
    """A trainless major's president may nationalise it (card: Nationalization).

    ``compat_18xxgames``: 18xx.games ends a nationalised operator's turn only when
    no other trainless major is still to choose (``nationalize!`` compares the
    operator with the step's next entity).  So when the operator is nationalised
    while others wait, the reset major keeps the turn after the last choice and
    the round waits for good: 18xx.games accepts no action from it (the recorded
    entity names the restarted company), so players must undo (divergence D15).
    ``held`` is that major; only ``undo`` is open then.

    ``compat_18xxgames`` (D31): a major nationalised while the first 8's minors
    close stays listed among the trainless majors (18xx.games' replaced object,
    `G1867.stale_trainless`); when its turn to choose comes, 18xx.games accepts no
    action either, so only ``undo`` is open (`stale_head`).
    """

    def __init__(self, round_: Any) -> None:
        super().__init__(round_)
        self.held: str | None = None

    def is_active(self, game: Game) -> bool:
        return bool(g(game).trainless_major) or self.held is not None

    def active_entities(self, game: Game) -> list[str]:
        trainless = g(game).trainless_major
        if trainless or self.held is None:
            return trainless[:1]
        return [self.held]

    def stale_head(self, game: Game) -> str | None:
        """The first trainless major when it is one already nationalised (D31)."""
        trainless = g(game).trainless_major
        if trainless and not g(game).corps[trainless[0]].floated:
            return trainless[0]
        return None

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        trainless = g(game).trainless_major
        stale = self.stale_head(game)
        if stale is not None:
            return (Undo,) if entity == stale else ()
        if entity in trainless:
            return (Pass, Choose)
        return (Undo,) if entity == self.held and not trainless else ()

    def details(self, game: Game, entity: str) -> dict[str, Any]:
        if entity == self.held and not g(game).trainless_major:
            return {"held": entity}
        if entity == self.stale_head(game):
            return {"held": entity}
        return {"choices": ["nationalize"]}

    def keeps_turn(self, game: Game, entity: str) -> bool:
        """18xx.games: nationalising ``entity`` now would leave it the turn (see above)."""
        trainless = g(game).trainless_major
        return (g(game).config.compat_18xxgames and self.round.operator() == entity
                and any(c != entity for c in trainless))

    def process(self, game: Game, action: Action) -> None:
        gm = g(game)
        if self.held is not None and not gm.trainless_major:
            raise IllegalAction(f"18xx.games accepts no action from the nationalised "
                                f"{self.held} that kept the turn; undo the nationalisation")
        stale = self.stale_head(game)
        if stale is not None:
            raise IllegalAction(f"18xx.games accepts no action while the nationalised "
                                f"{stale} is still listed among the trainless majors (D31); "
                                f"undo to before the first 8")
        match action:
            case Pass():
                gm.trainless_major.remove(action.entity)
            case Choose(choice="nationalize"):
                keep = self.keeps_turn(game, action.entity)
                gm.trainless_major.remove(action.entity)
                gm.nationalize(action.entity, move_on=not keep)
                if keep:
                    self.held = action.entity
            case _:
                raise IllegalAction(f"{action.type} is not a trainless-major decision")


class HomeToken(Step):
    """A newly started company places its home token (accepted from the company)."""

    def is_active(self, game: Game) -> bool:
        return bool(g(game).pending_tokens)

    def current_entity(self, game: Game) -> str | None:
        pending = g(game).pending_tokens
        return pending[0][0] if pending else None

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        pending = g(game).pending_tokens
        return (PlaceToken,) if pending and pending[0][0] == entity else ()

    def details(self, game: Game, entity: str) -> dict[str, Any]:
        pending = g(game).pending_tokens
        return {"hexes": list(pending[0][1])} if pending else {}

    def process(self, game: Game, action: Action) -> None:
        gm = g(game)
        if not isinstance(action, PlaceToken):
            raise IllegalAction("place the home token first")
        cid, hexes = gm.pending_tokens[0]
        hex_id, city = gm.token_city(action.city)
        if hex_id not in hexes:
            raise IllegalAction(f"{cid} cannot put its home token on {hex_id}")
        assert gm.board is not None
        slots = B.slots(gm.board, hex_id, city)
        if gm.is_minor(cid) and any(s is not None for s in slots):
            raise IllegalAction("a minor's home must be a city with no token")
        if not gm.config.compat_18xxgames and any(s is not None for s in slots):
            raise IllegalAction("a major's home must be an unoccupied city (the card, SR Majors)")
        gm.put_token(cid, hex_id, city, action.slot, gm.corps[cid].tokens[0])
        gm.pending_tokens.pop(0)


class BuySellParShares(Step):
    """Sell, then one purchase: a share, a major's start, or a minor auction."""

    share_programs: ClassVar[bool] = True

    def __init__(self, round_: Any) -> None:
        super().__init__(round_)
        self.players_sold: dict[str, dict[str, str]] = {}
        self.current_actions: list[Action] = []
        self.bids: dict[str, int] = {}
        self.order: list[str] = []
        self.active: list[str] = []
        self.auctioning: str | None = None

    def setup(self, game: Game) -> None:
        for corps in self.players_sold.values():
            for c in corps:
                corps[c] = "prev"
        self.current_actions = []

    # -- state queries -------------------------------------------------------------------
    def bought(self) -> bool:
        """A purchase (share, par, minor won) happened this turn."""
        return any(isinstance(a, BuyShares | Par) for a in self.current_actions)

    def active_entities(self, game: Game) -> list[str]:
        if self.auctioning is not None:
            high = self._highest()
            assert high is not None
            return [self.active[(self.active.index(high) + 1) % len(self.active)]]
        return super().active_entities(game)

    def _highest(self) -> str | None:
        if not self.bids:
            return None
        top = max(self.bids.values())
        return next(p for p in self.order if self.bids.get(p) == top)

    def can_gain(self, game: Game, player: str, cid: str, percent: int) -> bool:
        """Holding limit and certificate limit (card: "A player may hold 60%")."""
        gm = g(game)
        corp = gm.corps[cid]
        if gm.percent_of(player, cid) + percent > corp.max_ownership:
            return False
        return gm.num_certs(player) < gm.cert_limit

    def can_buy_share(self, game: Game, player: str, sid: str) -> bool:
        """Share ``sid`` may be bought by ``player`` now."""
        gm = g(game)
        share = gm.shares[sid]
        corp = gm.corps[share.corp]
        if share.owner not in (share.corp, POOL) or share.president or not corp.ipoed:
            return False
        if corp.kind is not CorpKind.MAJOR or self.bought():
            return False
        if self.players_sold.get(player, {}).get(share.corp):
            return False
        price = gm.price(share.corp) * share.percent // 10
        return game.cash[player] >= price and self.can_gain(game, player, share.corp,
                                                            share.percent)

    def can_buy_any(self, game: Game, player: str) -> bool:
        """Some share can be bought."""
        gm = g(game)
        if self.bought() or gm.num_certs(player) >= gm.cert_limit:
            return False  # can_buy_share refuses every share (counted once here)
        seen: set[tuple[str, str]] = set()
        for s in game.shares.values():
            key = (s.corp, s.owner)
            if key in seen:
                continue
            if s.owner in (s.corp, POOL) and not s.president:
                seen.add(key)
                if self.can_buy_share(game, player, s.id):
                    return True
        return False

    def can_sell_bundle(self, game: Game, player: str, cid: str, percent: int) -> bool:
        """A sale of ``percent`` of ``cid`` is allowed (card: no selling before operating).

        The president may sell into his certificate only when another player holds 20%
        or more and takes the presidency (18xx partial bundles, ``can_dump?``).
        """
        gm = g(game)
        corp = gm.corps[cid]
        if corp.kind is not CorpKind.MAJOR or not corp.operated or self.bought():
            return False
        if percent <= 0 or percent % 10:
            return False
        if gm.percent_of(POOL, cid) + percent > R.MARKET_SHARE_LIMIT:
            return False
        held = gm.percent_of(player, cid)
        if percent > held:
            return False
        ordinary = sum(s.percent for s in gm.shares_of(player, cid) if not s.president)
        if percent > ordinary or (gm.president(cid) == player and held - percent < 20):
            others = max((gm.percent_of(p.id, cid) for p in gm.players if p.id != player),
                         default=0)
            if others < 20:
                return False
        return True

    def can_sell_any(self, game: Game, player: str) -> bool:
        """Some sale is possible."""
        return any(self.can_sell_bundle(game, player, cid, 10)
                   for cid in g(game).live_corps() if game.percent_of(player, cid))

    def must_sell(self, game: Game, entity: str) -> bool:
        """Over the certificate limit with a sale possible (18xx ``must_sell?``)."""
        gm = g(game)
        return gm.num_certs(entity) > gm.cert_limit and self.can_sell_any(game, entity)

    def can_bid_any(self, game: Game, player: str) -> bool:
        """A minor auction can be started."""
        gm = g(game)
        if game.cash[player] < R.MIN_MINOR_BID or self.bought() or not gm.minors_can_start:
            return False
        if gm.num_certs(player) >= gm.cert_limit:
            return False
        return any(gm.is_minor(c) and not gm.corps[c].ipoed for c in gm.available)

    def can_par_any(self, game: Game, player: str) -> bool:
        """A major can be started (phase 4+)."""
        gm = g(game)
        if int(gm.phase.name) < R.MAJOR_PHASE or self.bought():
            return False
        # 18xx can_ipo_any?: can_buy? of the president's certificate (two shares) at the
        # major's min_price, the lowest start price of any kind, minors' included
        # (g_1867 init_corporations: stock_market.par_prices.min); a home location
        # and an affordable major start price are checked by the Par itself
        cheapest = min(c.price for c in gm.market.cells_with(
            (CellType.PAR, CellType.PAR_1, CellType.PAR_2)))
        if game.cash[player] < 2 * cheapest or gm.num_certs(player) >= gm.cert_limit:
            return False
        return any(gm.is_major(c) and not gm.corps[c].ipoed for c in gm.available)

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        if entity != self.current_entity(game):
            return ()
        if self.auctioning is not None:
            return (Bid, Pass)
        out: list[type[Action]] = []
        if self.must_sell(game, entity):
            return (SellShares,)
        if self.can_buy_any(game, entity):
            out.append(BuyShares)
        if self.can_par_any(game, entity):
            out.append(Par)
        if self.can_sell_any(game, entity):
            out.append(SellShares)
        if self.can_bid_any(game, entity):
            out.append(Bid)
        if out:
            out.append(Pass)
        return tuple(out)

    # -- processing ----------------------------------------------------------------------
    def process(self, game: Game, action: Action) -> None:
        match action:
            case Pass():
                self.pass_(game)
            case BuyShares():
                self._buy(game, action)
            case SellShares():
                self._sell(game, action)
            case Par():
                self._par(game, action)
            case Bid():
                self._bid(game, action)
            case _:
                raise IllegalAction(f"{action.type} is not possible in a stock round")

    def pass_(self, game: Game) -> None:
        if self.auctioning is not None:
            entity = self.current_entity(game)
            assert entity is not None
            self._drop(entity)
            self._resolve(game)
            return
        entity = self.current_entity(game)
        self.passed = True
        if entity is None:
            return
        player = game.player(entity)
        player.passed = not self.current_actions

    def _buy(self, game: Game, action: BuyShares) -> None:
        gm = g(game)
        if len(action.shares) != 1:
            raise IllegalAction("buy one share at a time")
        sid = action.shares[0]
        if sid not in gm.shares:
            raise IllegalAction(f"no share {sid}")
        if not self.can_buy_share(game, action.entity, sid):
            raise IllegalAction(f"{game.name_of(action.entity)} cannot buy {sid} now")
        share = gm.shares[sid]
        price = gm.price(share.corp) * share.percent // 10
        seller = share.owner
        previous = gm.president(share.corp)
        # incremental capitalisation: treasury shares pay the company (card: SR Majors)
        gm.transfer(action.entity, share.corp if seller == share.corp else BANK, price)
        share.owner = action.entity
        gm.check_president(share.corp, previous)
        self.current_actions.append(action)

    def _sell(self, game: Game, action: SellShares) -> None:
        gm = g(game)
        seller = action.entity
        shares = [gm.shares[s] for s in action.shares if s in gm.shares]
        if not shares or len(shares) != len(action.shares) or any(
                s.owner != seller for s in shares):
            raise IllegalAction("you can only sell your own shares")
        cid = shares[0].corp
        if any(s.corp != cid for s in shares):
            raise IllegalAction("sell shares of one company at a time")
        full = sum(s.percent for s in shares)
        percent = action.percent if action.percent is not None else full
        has_pres = any(s.president for s in shares)
        if percent > full or (not has_pres and percent != full):
            raise IllegalAction(f"{percent}% does not match the certificates sold")
        if not self.can_sell_bundle(game, seller, cid, percent):
            raise IllegalAction(f"cannot sell {percent}% of {cid} now")
        if has_pres:
            self._check_dump(gm, seller, cid, shares, percent)
        was_president = gm.president(cid) == seller
        gm.transfer(BANK, seller, gm.price(cid) * percent // 10)
        if has_pres:
            self._dump_presidency(game, seller, cid, shares, percent)
        else:
            sitting = gm.president(cid)
            for sh in shares:
                sh.owner = POOL
            # 18xx share_pool.rb: a tie never takes the presidency from the sitting one
            gm.check_president(cid, sitting)
        self.players_sold.setdefault(seller, {})[cid] = "now"
        # card: "Only a president's sale moves the price: one space"
        if was_president:
            gm.move_price(cid, "down")
        self.current_actions.append(action)

    @staticmethod
    def _check_dump(gm: G1867, seller: str, cid: str, shares: list[Share],
                    percent: int) -> None:
        """Refuse a sale with the president's certificate that `_dump_presidency`
        cannot settle: what is not sold must come back from the pool."""
        pres = next(sh for sh in shares if sh.president)
        full = sum(sh.percent for sh in shares)
        swap_to_seller = gm.percent_of(seller, cid) - full >= pres.percent
        pool = sum(sh.percent for sh in gm.shares_in_arrival_order(POOL, cid))
        pool += full - pres.percent + (0 if swap_to_seller else pres.percent)
        if full - percent > pool:
            raise IllegalAction(
                f"{gm.name_of(seller)} cannot sell {percent}% of {cid} with the president's "
                f"certificate: sell {cid}'s ordinary shares")

    def _dump_presidency(self, game: Game, seller: str, cid: str, shares: list[Share],
                         percent: int) -> None:
        """The president sells into his certificate (18xx ``SharePool#transfer_shares``).

        The certificates sold go to the pool; the next player (in seat order) with the
        most shares takes the president's certificate and hands his longest-held
        ordinary certificates over (to the seller if he still holds 20%, else to the
        pool); the pool returns what was not sold, longest-held first.
        """
        gm = g(game)
        for sh in shares:
            sh.owner = POOL
        ids = [p.id for p in gm.players]
        k = ids.index(seller)
        others = ids[k + 1:] + ids[:k]
        best = max(gm.percent_of(p, cid) for p in others)
        new = next(p for p in others if gm.percent_of(p, cid) == best)
        pres = next(sh for sh in shares if sh.president)
        swap_to = seller if gm.percent_of(seller, cid) >= pres.percent else POOL
        need = pres.percent
        for sh in gm.shares_in_arrival_order(new, cid):
            if need <= 0:
                break
            sh.owner = swap_to
            need -= sh.percent
        pres.owner = new
        back = sum(sh.percent for sh in shares) - percent
        while back > 0:
            sh = gm.shares_in_arrival_order(POOL, cid)[0]
            sh.owner = seller
            back -= sh.percent

    def _par(self, game: Game, action: Par) -> None:
        gm = g(game)
        cid = action.corporation
        if cid not in gm.available or not gm.is_major(cid) or gm.corps[cid].ipoed:
            raise IllegalAction(f"{cid} cannot be started")
        if Par not in self.legal(game, action.entity):
            raise IllegalAction("a major cannot be started now")
        if not gm.home_token_locations(cid):
            raise IllegalAction("no home token location is available")
        try:
            cell = gm.market.by_id(action.share_price)
        except (KeyError, ValueError):
            raise IllegalAction(f"no market space {action.share_price}") from None
        if not cell.types & {CellType.PAR, CellType.PAR_2}:
            raise IllegalAction(f"${cell.price} is not a major start price")
        if game.cash[action.entity] < 2 * cell.price:
            raise IllegalAction(f"starting at ${cell.price} costs ${2 * cell.price}")
        self.start_company(game, action.entity, cid, cell.coord)
        self.current_actions.append(action)

    def start_company(self, game: Game, player: str, cid: str, coord: tuple[int, int]) -> None:
        """Par: market marker, president's certificate bought, floats, home token."""
        gm = g(game)
        corp = gm.corps[cid]
        cell = gm.market.cells[coord]
        gm.market.place(cid, coord)
        corp.par_price = cell.price
        corp.ipoed = True
        pres = next(s for s in gm.shares.values() if s.corp == cid and s.president)
        gm.transfer(player, cid, cell.price * pres.percent * gm.total_shares(cid) // 100)
        pres.owner = player
        corp.floated = True
        gm.place_home_token(cid)

    def _bid(self, game: Game, action: Bid) -> None:
        gm = g(game)
        cid = action.corporation
        if cid is None:
            raise IllegalAction("bid on a minor company")
        if self.auctioning is None:
            if Bid not in self.legal(game, action.entity):
                raise IllegalAction("you cannot start an auction now")
            if cid not in gm.available or not gm.is_minor(cid) or gm.corps[cid].ipoed:
                raise IllegalAction(f"{cid} cannot be auctioned")
            if not gm.home_token_locations(cid):
                # card: the auctioneer puts the home in an unoccupied city; 18xx.games
                # takes the bid and then waits for a home no one can place (D26)
                raise IllegalAction("no city is free for a minor's home token")
            check_bid_amount(game, action.entity, action.price, R.MIN_MINOR_BID, cid)
            gm.place_home_token(cid)
            self.auctioning = cid
            self.bids = {action.entity: action.price}
            self.order = [action.entity]
            minimum = action.price + INCREMENT
            self.active = [p for p in self.round.entities
                           if p == action.entity or (game.cash[p] >= minimum
                                                     and self.can_gain(game, p, cid, 100))]
            self._resolve(game)
            return
        if cid != self.auctioning:
            raise IllegalAction(f"{self.auctioning} is being auctioned")
        check_bid_amount(game, action.entity, action.price,
                         max(self.bids.values()) + INCREMENT, cid)
        self.bids[action.entity] = action.price
        if action.entity in self.order:
            self.order.remove(action.entity)
        self.order.append(action.entity)
        minimum = action.price + INCREMENT
        for p in list(self.active):
            if p != action.entity and game.cash[p] < minimum:
                self._drop(p)
        self._resolve(game)

    def _drop(self, player: str) -> None:
        if player in self.active:
            self.active.remove(player)
        self.bids.pop(player, None)
        if player in self.order:
            self.order.remove(player)

    def _resolve(self, game: Game) -> None:
        if self.auctioning is None or len(self.active) != 1 or not self.bids:
            return
        winner = self.order[0]
        price = self.bids[winner]
        cid = self.auctioning
        self.bids, self.order, self.active, self.auctioning = {}, [], [], None
        gm = g(game)
        # card: "The whole bid is its treasury, and its price is half the bid, rounded
        # down to a market space"
        cell = minor_start_cell(gm, price)
        gm.transfer(BANK, winner, 2 * cell.price)
        self.start_company(game, winner, cid, cell.coord)
        gm.transfer(cid, BANK, gm.cash[cid])
        gm.transfer(winner, cid, price)
        self.current_actions.append(Par(entity=winner, corporation=cid, share_price=cell.id))
        ents = self.round.entities
        self.round.entity_index = ents.index(winner)
        self.passed = True
        game.player(winner).passed = False

    def is_normal_pass(self, game: Game, entity: str) -> bool:
        """Not while a minor is auctioned (18xx ``BuySellParSharesViaBid#normal_pass?``)."""
        return self.auctioning is None

    def details(self, game: Game, entity: str) -> dict[str, Any]:
        if self.auctioning is not None:
            return {"corporation": self.auctioning,
                    "min_bid": max(self.bids.values()) + INCREMENT,
                    "max_bid": game.cash[entity]}
        gm = g(game)
        # a pass after a sale or a purchase ends the turn, not the round for the player
        out: dict[str, Any] = {"cert_limit": gm.cert_limit,
                               "acted_this_turn": bool(self.current_actions)}
        legal = self.legal(game, entity)
        if BuyShares in legal:
            out["buyable"] = sorted(s.id for s in gm.shares.values()
                                    if s.owner in (s.corp, POOL) and not s.president
                                    and self.can_buy_share(game, entity, s.id))
        if Par in legal:
            out["par_prices"] = [c.id for c in gm.market.cells_with((CellType.PAR,
                                                                     CellType.PAR_2))
                                 if 2 * c.price <= game.cash[entity]]
            out["majors"] = [c for c in gm.available
                             if gm.is_major(c) and not gm.corps[c].ipoed]
        if Bid in legal:
            out["minors"] = [c for c in gm.available
                             if gm.is_minor(c) and not gm.corps[c].ipoed
                             and gm.home_token_locations(c)]
            out["min_bid"], out["max_bid"] = R.MIN_MINOR_BID, game.cash[entity]
        return out


def minor_start_cell(gm: G1867, bid: int) -> Cell:
    """The market cell a minor won for ``bid`` starts on.

    The card: "its price is half the bid, rounded down to a market space" (on the
    column market any space: a $400 bid gives $200).  18xx.games
    (``compat_18xxgames``), and the grid market in both modes (its minor start
    cells, each price once, end at $135): the start cells, half the bid capped at $135.
    """
    if not gm.config.compat_18xxgames and not gm.config.grid_market:
        cells = sorted(gm.market.cells.values(), key=lambda c: (-c.price, c.row, c.col))
        return next(c for c in cells if c.price <= bid // 2)
    par = min(bid // 2, R.MAX_MINOR_PAR)
    return next(c for c in gm.market.cells_with((CellType.PAR_1, CellType.PAR))
                if c.price <= par)
