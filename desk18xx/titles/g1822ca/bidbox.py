"""Bid boxes: which companies are offered, the open bids, and end-of-SR resolution.

RB 4.2 and 4.11; supplement §9; 18xx ``G1822::Game#bidbox_*``,
``G1822::Step::BidboxAuction`` and ``G1822::Round::Stock#finish_round``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from desk18xx.engine.bidding import BidBoxView, BidderView, BoxBid, BoxedCompany
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.state import BANK
from desk18xx.titles.g1822ca import rules as R

if TYPE_CHECKING:
    from desk18xx.titles.g1822ca.game import G1822CA

BOX_MINORS = 4
BOX_CONCESSIONS = 3
BOX_PRIVATES = 3


@dataclass
class OpenBid:
    """One player's bid on one company."""

    player: str
    price: int


class BidBoxes:
    """The boxes and the bids on them for the current stock round."""

    def __init__(self, game: G1822CA) -> None:
        self.game = game
        self.minor_cache: list[str] = []
        """Minors shown in the minor boxes; refreshed only at both ends of an SR."""
        self.bids: dict[str, list[OpenBid]] = {}

    # -- what is offered -----------------------------------------------------------------
    def bank_companies(self, prefix: str) -> list[str]:
        """Companies of a stack still with the bank, in stack order."""
        g = self.game
        return [c for c in g.company_order if c.startswith(prefix)
                and g.companies[c].owner in (None, BANK) and not g.companies[c].closed]

    def minors(self) -> list[str]:
        """The minor boxes (18xx ``bidbox_minors``)."""
        return [c for c in self.bank_companies("M")[:BOX_MINORS] if c in self.minor_cache]

    def concessions(self) -> list[str]:
        """The concession boxes."""
        return self.bank_companies("C")[:BOX_CONCESSIONS]

    def privates(self) -> list[str]:
        """The private boxes."""
        return self.bank_companies("P")[:BOX_PRIVATES]

    def offered(self) -> list[str]:
        """Every company a player may bid on now (:meth:`minors`, :meth:`concessions`,
        :meth:`privates`), in one pass over the stacks."""
        g = self.game
        sizes = {"M": BOX_MINORS, "C": BOX_CONCESSIONS, "P": BOX_PRIVATES}
        boxed: dict[str, list[str]] = {"M": [], "C": [], "P": []}
        for c in g.company_order:
            box = boxed.get(c[:1])
            if box is None or len(box) >= sizes[c[:1]]:
                continue
            company = g.companies[c]
            if company.owner in (None, BANK) and not company.closed:
                box.append(c)
        return [c for c in boxed["M"] if c in self.minor_cache] + boxed["C"] + boxed["P"]

    def refill_minors(self) -> None:
        """Refresh the minor boxes (18xx ``bidbox_minors_refill!``)."""
        self.minor_cache = self.bank_companies("M")[:BOX_MINORS]

    def setup(self) -> None:
        """Start of an SR: fill the boxes; boxed companies belong to the bank."""
        self.refill_minors()
        for c in self.offered():
            self.game.companies[c].owner = BANK
        self.bids = {}
        self.game.double_cash_choice = None

    # -- bids ----------------------------------------------------------------------------
    def highest(self, company: str) -> OpenBid | None:
        """The winning bid on ``company`` (the first of equal prices)."""
        bids = self.bids.get(company)
        if not bids:
            return None
        best = bids[0]
        for b in bids[1:]:
            if b.price > best.price:
                best = b
        return best

    def player_bids(self, player: str, committed_only: bool = False) -> list[tuple[str, int]]:
        """(company, price) of a player's bids; ``committed_only``: those now winning."""
        out = []
        for company, bids in self.bids.items():
            if committed_only:
                top = self.highest(company)
                if top is not None and top.player == player:
                    out.append((company, top.price))
            else:
                for b in bids:
                    if b.player == player:
                        out.append((company, b.price))
                        break
        return out

    def committed_cash(self, player: str) -> int:
        """Cash tied up in the player's winning bids (RB 4.2.9)."""
        return sum(p for _c, p in self.player_bids(player, committed_only=True))

    def min_bid(self, company: str) -> int:
        """Opening minimum or the high bid + $5."""
        top = self.highest(company)
        if top is not None:
            return top.price + 5
        return 0 if company.startswith("P") else 100

    def tokens_left(self, player: str) -> int:
        """Unused bidding tokens (RB 4.2.5)."""
        return self.game.bidding_tokens - len(self.player_bids(player))

    def check_bid(self, player: str, company: str, price: int) -> None:
        """Raise unless ``player`` may bid ``price`` on ``company`` now (RB 4.2.5-4.2.9)."""
        offered = self.offered()
        if company not in offered:
            raise IllegalAction(f"{company} is not in a bid box")
        if price < self.min_bid(company):
            raise IllegalAction(f"the minimum bid on {company} is ${self.min_bid(company)}")
        base = 0 if company.startswith("P") else 100
        if (price - base) % 5:
            raise IllegalAction("bids go in steps of $5")
        problem = self.problem(player, company, price, offered, self.room(player))
        if problem is not None:
            raise IllegalAction(problem)

    def bid_problem(self, player: str, company: str, price: int | None = None) -> str | None:
        """Why ``player`` may not bid ``price`` (default: the minimum) on ``company``,
        or None; the amount's own step is not checked (RB 4.2.5-4.2.9)."""
        return self.problem(player, company, price, self.offered(), self.room(player))

    def room(self, player: str) -> tuple[int, int, int]:
        """A player's unused bidding tokens, uncommitted cash, and certificates
        counting the bids he is winning."""
        g = self.game
        winning = self.player_bids(player, committed_only=True)
        return (self.tokens_left(player), g.cash[player] - sum(p for _c, p in winning),
                g.num_certs(player) + len(winning))

    def problem(self, player: str, company: str, price: int | None, offered: list[str],
                 room: tuple[int, int, int]) -> str | None:
        """:meth:`bid_problem` with the boxes and the player's :meth:`room` at hand."""
        if company not in offered:
            return f"{company} is not in a bid box"
        top = self.highest(company)
        if top is not None and top.player == player:
            return f"already the highest bidder on {company}"
        tokens, free_cash, certs = room
        mine = any(b.player == player for b in self.bids.get(company, []))
        if not mine and tokens <= 0:
            return "no bidding tokens left"
        amount = self.min_bid(company) if price is None else price
        if amount > free_cash:
            return "not enough uncommitted cash"
        if certs >= self.game.cert_limit:
            return "certificate limit"
        return None

    def view(self, acting: str | None) -> BidBoxView:
        """The boxes, the bids and the bidders for a user interface; ``acting`` is the
        player who may bid now (each box then carries why they cannot, if so)."""
        g = self.game
        boxes = []
        kinds = {"M": "minor", "C": "concession", "P": "private"}
        offered = self.offered()
        room = None if acting is None else self.room(acting)
        for company in offered:
            c = g.companies[company]
            top = self.highest(company)
            bids = tuple(BoxBid(b.player, b.price, b is top)
                         for b in sorted(self.bids.get(company, []), key=lambda b: -b.price))
            boxes.append(BoxedCompany(
                company, kinds.get(company[:1], "private"), c.name,
                c.value if company.startswith("P") else 0, self.min_bid(company), bids,
                None if acting is None or room is None
                else self.problem(acting, company, None, offered, room)))
        bidders = tuple(BidderView(p.id, g.cash[p.id], self.committed_cash(p.id),
                                   self.tokens_left(p.id), g.bidding_tokens)
                        for p in g.players)
        return BidBoxView(tuple(boxes), bidders, acting)

    def add_bid(self, player: str, company: str, price: int) -> None:
        """Record a bid; a player's new bid on a company replaces his older one."""
        bids = self.bids.setdefault(company, [])
        bids[:] = [b for b in bids if b.player != player]
        bids.append(OpenBid(player, price))

    # -- end of the stock round ----------------------------------------------------------
    def resolve(self) -> None:
        """Award bids, float minors, export trains, refill (supplement §9 steps 2-8)."""
        g = self.game
        to_float: list[tuple[OpenBid, int, str]] = []
        no_bid = 0
        remove_minor: str | None = None
        boxed = self.minors()
        for index, minor in enumerate(boxed):
            top = self.highest(minor)
            if top is not None:
                to_float.append((top, index, minor))
            else:
                g.companies[minor].owner = None
                no_bid += 1
                if index == 0:
                    remove_minor = minor
        for company in self.concessions() + self.privates():
            top = self.highest(company)
            if top is None:
                g.companies[company].owner = None
                continue
            g.companies[company].owner = top.player
            if top.price:
                g.transfer(top.player, BANK, top.price)
        count = len(boxed)
        to_float.sort(key=lambda x: (x[0].price, count - x[1]), reverse=True)
        for bid, _index, minor in to_float:
            self.float_minor(bid, minor)
        if no_bid:
            self._export_l_trains(no_bid)
        if remove_minor is not None:
            train = g.upcoming()
            if train is not None:
                g.remove_train(train)
                g.train_bought(train)
            corp = g.corp_of_company(remove_minor)
            self._close_minor(corp)
            g.close_company(remove_minor)
            g.company_order.remove(remove_minor)
        self.refill_minors()
        g.add_interest_player_loans()
        self.bids = {}

    def _export_l_trains(self, count: int) -> None:
        g = self.game
        first = g.upcoming()
        if first is None or g.train_base[first.id] != "L":
            return
        while count > 0:
            t = g.upcoming()
            if t is None or g.train_base[t.id] != "L":
                break
            g.remove_train(t)
            count -= 1

    def _close_minor(self, corp: str) -> None:
        g = self.game
        c = g.corps[corp]
        c.closed = True
        for hex_id in g.corp_defs[corp].home_hexes:
            g.clear_reservation(hex_id, corp)

    def float_minor(self, bid: OpenBid, company: str) -> None:
        """The winner floats the minor (RB 4.11; supplement §4 start price and treasury)."""
        g = self.game
        minor = g.corp_of_company(company)
        corp = g.corps[minor]
        par = self.minor_start_price(bid.price)
        cell = next(c for c in g.market.cells.values() if c.price == par)
        g.market.place(minor, cell.coord)
        corp.par_price = par
        presidency = par * 2
        share = g.shares[f"{minor}_0"]
        g.transfer(bid.player, minor, presidency)
        share.owner = bid.player
        corp.ipoed = True
        corp.floated = True
        g.transfer(minor, BANK, g.cash[minor])
        treasury = presidency if g.phase_num < 3 else bid.price
        excess = bid.price - presidency
        if excess:
            g.transfer(bid.player, BANK, excess)
        g.transfer(BANK, minor, treasury)
        g.companies[company].owner = None
        g.companies[company].closed = True
        g.company_order.remove(company)

    def minor_start_price(self, bid: int) -> int:
        """Phase 1: $50; later the highest start price not above bid/2 (max $100)."""
        g = self.game
        if g.phase_num == 1:
            return R.MINOR_START_PAR_PRICE
        target = min(bid // 2, 100)
        pars = sorted((c.price for c in g.market.cells.values()
                       if c.types and c.price <= target), reverse=True)
        return pars[0]
