"""1867: setup, loans, nationalisation, phases and events, round order, end and score.

Rule comments cite the summary card (``seeds/1867-summary-card.txt``) and
``rules/1867.md``; exact behaviour follows 18xx ``g_1867/game.rb``.
"""

from __future__ import annotations

from collections.abc import Collection
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from desk18xx.engine.actions import Action, LayTile
from desk18xx.engine.data import load_title
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game, GameSetup, PhaseDef
from desk18xx.engine.map.hexgrid import distance, parse_hex
from desk18xx.engine.market import Market
from desk18xx.engine.round import RoundKind
from desk18xx.engine.state import (
    BANK,
    DEPOT,
    POOL,
    Company,
    CorpKind,
    Corporation,
    Share,
    Token,
    Train,
)
from desk18xx.engine.tiledef import NodeKind
from desk18xx.titles.g1867 import board as B
from desk18xx.titles.g1867 import checks, nationalization
from desk18xx.titles.g1867 import rules as R
from desk18xx.titles.g1867.events import EVENTS, Event
from desk18xx.titles.g1867.rules import RulesConfig

if TYPE_CHECKING:
    from desk18xx.engine.offers import Offer
    from desk18xx.engine.round import Step
    from desk18xx.titles.g1867.routing import Routing1867
    from desk18xx.titles.g1867.view import View1867

NATIONAL = "CN"


_TRAINS = attrgetter("trains")


class G1867(Game):
    """A game of 1867."""

    title_id = "1867"

    def __init__(self, setup: GameSetup, config: RulesConfig | None = None) -> None:
        super().__init__(setup)
        self.config = config or RulesConfig(
            grid_market="grid_market" in setup.options,
            compat_18xxgames="compat_18xxgames" in setup.options)
        n = len(self.players)
        low = 2 if self.config.compat_18xxgames else 3  # card: 3-6 players
        if not low <= n <= 6:
            hint = " (2 players: 18xx.games' variant, option compat_18xxgames)" \
                if n == 2 else ""
            raise IllegalAction(f"1867 is for {low}-6 players, not {n}{hint}")
        self.cash[BANK] = R.BANK_CASH
        for p in self.players:
            self.transfer(BANK, p.id, R.STARTING_CASH[n])
        self.cert_limit = R.CERT_LIMIT[n]
        self.bank_broken = False
        self.token_graph: dict[str, bool] = {}
        """``compat_18xxgames`` only: 18xx.games' cached ``Graph#can_token?`` answers,
        per company, as its token step found them; cleared by a tile lay or a token
        placement only, not when a nationalisation takes tokens off the board."""
        self.loans_left = R.LOAN_COUNT
        self.loans_cancelled = 0
        self.interest: dict[str, int] = {}
        self.trainless_major: list[str] = []
        self.trainless_nationalization = False
        self.stale_trainless: dict[str, tuple[int, int, int, int, str]] = {}
        """``compat_18xxgames`` (D31): majors nationalised while the first 8's minors
        close, with their operating-order key then; 18xx.games keeps their replaced
        objects and lists them among the trainless majors (`post_train_buy`)."""
        self.pending_tokens: list[tuple[str, tuple[str, ...]]] = []
        """(corporation, hexes) that must place a home token now."""
        self.game_end_trigger: tuple[str, str] | None = None
        self.final_turn: int | None = None
        self.operating_rounds = 2
        self.final_operating_rounds: int | None = None
        self.show_majors = False
        self.national_reservations = ["L12"]
        self.minors_can_start = True
        self.export_count = 0
        self.phases = tuple(
            PhaseDef(name, tiles, {"minor": mn, "major": mj}, 2, None, status)
            for name, tiles, mn, mj, status in R.PHASES
        )
        # companies (1867 card: Privates)
        for cid, name, value, revenue, hexes in R.COMPANIES:
            # minimum bid = face - face/3 (card: Privates table)
            self.companies[cid] = Company(cid, name, value, revenue, discount=value // 3,
                                          bonus_hexes=hexes, bonus_amount=10 if hexes else 0)
        # corporations
        for cid, name in R.MAJORS:
            self._new_corp(cid, name, CorpKind.MAJOR)
        for cid, name in R.MINORS:
            self._new_corp(cid, name, CorpKind.MINOR)
        cn = Corporation(NATIONAL, "Canadian National", CorpKind.NATIONAL, (0,) * 8)
        cn.tokens = [Token(0) for _ in range(8)]
        cn.ipoed = True
        self.corps[NATIONAL] = cn
        self.cash[NATIONAL] = 0
        self.available: list[str] = [c for c, _ in R.MINORS if c not in R.GREEN_MINORS]
        """Corporations that can be started now (18xx ``@corporations``, not floated ones)."""
        # trains
        for name, dist, price, count, rusts, _events, mult, avail in R.TRAINS:
            for i in range(count if count is not None else 1):
                tid = f"{name}-{i}"
                self.trains[tid] = Train(
                    tid, name, dist, price, mult, DEPOT, rusts,
                    dict(R.TRADE_IN) if name in R.TRADE_FOR else {}, avail,
                    express=name == "5+5E")
                self.depot.append(tid)
        self.unlimited = {name for name, *_r in R.TRAINS if _r[2] is None}
        # market
        rows = R.GRID_MARKET if self.config.grid_market else R.COLUMN_MARKET
        self.market = Market.from_rows(rows)
        # board
        data = load_title("1867")
        self.board = B.new_board(data.hexes, data.tiles)
        for hex_id, hd in data.hexes.items():
            for tok in hd.tokens:
                if tok.type != "neutral":
                    cn.tokens[0].hex, cn.tokens[0].city = hex_id, tok.city
        self.green_tokens_removed = False
        if n == 2:
            self._setup_two_players()
        from desk18xx.titles.g1867.rounds import AuctionRound

        self.round = AuctionRound(self)
        self.round.start(self)
        self.after_action()

    def _new_corp(self, cid: str, name: str, kind: CorpKind) -> None:
        if kind is CorpKind.MAJOR:
            corp = Corporation(cid, name, kind, (0, 20, 40))
            corp.tokens = [Token(0), Token(20), Token(40)]
            pcts = [20] + [10] * 8
        else:
            corp = Corporation(cid, name, kind, (0,), max_ownership=100)
            corp.tokens = [Token(0)]
            pcts = [100]
        if kind is CorpKind.MAJOR and len(self.players) == 2:
            corp.max_ownership = 70
        self.corps[cid] = corp
        self.cash[cid] = 0
        for i, pct in enumerate(pcts):
            sid = f"{cid}_{i}"
            self.shares[sid] = Share(sid, cid, pct, i == 0, cid)
        self._share_index = None

    def _setup_two_players(self) -> None:
        """18xx.games only: 2-player game (rules/1867.md §14)."""
        from desk18xx.engine.rng import Rng

        remove = {"2": 3, "3": 2, "4": 1, "5": 1, "6": 1, "7": 1}
        for name, count in remove.items():
            ids = [t for t in self.depot if self.trains[t].name == name][::-1][:count]
            for tid in ids:
                self.depot.remove(tid)
                del self.trains[tid]
        rng = Rng(self.setup.seed)
        for company in rng.sort_by_rand(list(self.companies))[:2]:
            del self.companies[company]

    # -- helpers -------------------------------------------------------------------------
    def is_minor(self, cid: str) -> bool:
        """True for a minor."""
        c = self.corps.get(cid)
        return c is not None and c.kind is CorpKind.MINOR

    def is_major(self, cid: str) -> bool:
        """True for a major."""
        c = self.corps.get(cid)
        return c is not None and c.kind is CorpKind.MAJOR

    def price(self, cid: str) -> int:
        """Share price."""
        return self.market.price(cid)

    def move_price(self, cid: str, direction: str, times: int = 1) -> None:
        """Move a share price (1867 market rules via :class:`Market`)."""
        for _ in range(times):
            self.market.move(cid, self.is_minor(cid), direction)

    def total_shares(self, cid: str) -> int:
        """2 for a minor, 10 for a major."""
        return 2 if self.is_minor(cid) else 10

    def num_shares_of(self, holder: str, cid: str) -> int:
        """Shares held (a minor's certificate is 2)."""
        return self.percent_of(holder, cid) * self.total_shares(cid) // 100

    def train_limit(self, cid: str) -> int:
        """Train limit of the current phase."""
        return self.phase.train_limit["minor" if self.is_minor(cid) else "major"]

    def crowded_corps(self) -> list[str]:
        """Corporations over the train limit, in game order."""
        limits = self.phase.train_limit
        minor, major = limits["minor"], limits["major"]
        # asked before every step is offered: first a test at C speed, mostly false
        if max(map(len, map(_TRAINS, self.corps.values())), default=0) <= min(minor, major):
            return []
        minor_kind = CorpKind.MINOR
        return [cid for cid, corp in self.corps.items()
                if len(corp.trains) > (minor if corp.kind is minor_kind else major)
                and not corp.closed and corp.kind is not CorpKind.NATIONAL]

    def live_corps(self) -> list[str]:
        """Floated corporations and startable ones, in definition order (18xx ``@corporations``)."""
        available = set(self.available)
        national = CorpKind.NATIONAL
        return [cid for cid, corp in self.corps.items()
                if corp.kind is not national and not corp.closed
                and (corp.floated or cid in available)]

    def operating_order(self) -> list[str]:
        """Floated minors by price, then floated majors (1867 card: OR)."""
        floated = [c for c in self.live_corps() if self.corps[c].floated]
        floated.sort(key=lambda c: self.market.order_key(c, c))
        return [c for c in floated if self.is_minor(c)] + [c for c in floated if self.is_major(c)]

    def max_loans(self, cid: str) -> int:
        """1867 card: "A minor may owe 2, a major 5"."""
        return 5 if self.is_major(cid) else 2

    def can_take_loan(self, cid: str) -> bool:
        """Room for one more loan."""
        return self.corps[cid].loans < self.max_loans(cid) and self.loans_left > 0

    def take_loan(self, cid: str) -> None:
        """Take one loan: $50 owed, $45 received (card: "$5 interest paid at once")."""
        if not self.can_take_loan(cid):
            raise IllegalAction(f"{cid} cannot take more loans")
        self.transfer(BANK, cid, R.LOAN_VALUE - 5)
        self.corps[cid].loans += 1
        self.loans_left -= 1

    def repay_loan(self, cid: str) -> None:
        """Repay one loan for $50."""
        self.transfer(cid, BANK, R.LOAN_VALUE)
        self.corps[cid].loans -= 1
        self.loans_left += 1

    def take_loans_for(self, cid: str, cost: int) -> None:
        """Take as many loans as needed to pay ``cost`` (18xx ``AutomaticLoan``)."""
        if cost <= 0:
            return
        while self.cash[cid] < cost and self.can_take_loan(cid):
            self.take_loan(cid)

    def buying_power(self, cid: str, full: bool = False) -> int:
        """Cash, plus $45 per loan still possible when ``full``."""
        cash = self.cash.get(cid, 0)
        if not full or cid not in self.corps:
            return cash
        return cash + (self.max_loans(cid) - self.corps[cid].loans) * (R.LOAN_VALUE - 5)

    def transfer(self, src: str, dst: str, amount: int) -> None:
        """Move money; the bank breaks when it would go below zero."""
        if src == BANK and self.cash[BANK] - amount < 0:
            self.bank_broken = True
        super().transfer(src, dst, amount)

    # -- home tokens ---------------------------------------------------------------------
    def home_token_locations(self, cid: str) -> list[str]:
        """Hexes where ``cid`` may put its home (1867 card: SR Minors / SR Majors)."""
        assert self.board is not None
        out: list[str] = []
        minor = self.is_minor(cid)
        for hex_id, cities in B.all_slots(self.board):
            if self.board.hex(hex_id).tile.color.value in ("red", "blue"):
                continue
            if minor:
                if any(all(s is None for s in slots) for slots in cities):
                    out.append(hex_id)
            elif not self.config.compat_18xxgames:
                # card: "an unconnected city—or, if none, any unoccupied city"
                if any(all(s is None for s in slots) for slots in cities):
                    out.append(hex_id)
            else:
                # 18xx.games: no hex with a normal token (so never Toronto, CN's)
                free = any(any(s is None for s in slots) for slots in cities)
                normal = any(s not in (None, B.NEUTRAL) for slots in cities for s in slots)
                if free and not normal:
                    out.append(hex_id)
        if minor:
            return out
        unconnected = [h for h in out if not B.node_connected_elsewhere(self.board, h)]
        return unconnected or out

    def place_home_token(self, cid: str) -> None:
        """Ask for the home token (HOME_TOKEN_TIMING ``par``)."""
        corp = self.corps[cid]
        if corp.tokens[0].used:
            return
        if any(p == cid for p, _h in self.pending_tokens):
            return
        hexes = tuple(self.home_token_locations(cid))
        if hexes:
            self.pending_tokens.append((cid, hexes))

    def token_city(self, city_id: str) -> tuple[str, int]:
        """Hex and city number of a city id ``"<tile id>-<part>"``."""
        assert self.board is not None
        return B.find_city(self.board, city_id)

    def city_id(self, hex_id: str, city: int) -> str:
        """1867 names a city ``"<tile id>-<city number>"`` (:meth:`token_city`)."""
        assert self.board is not None
        return f"{self.board.hex(hex_id).tile_id}-{city}"

    def reference_city_id(self, city_id: str) -> str:
        """desk18xx 0.1.0 named a city on a printed tile ``"E15-0-0"``; 18xx.games
        names it ``"E15-3-0"`` (:func:`board.reference_city_id`)."""
        assert self.board is not None
        return B.reference_city_id(self.board, city_id)

    def put_token(self, cid: str, hex_id: str, city: int, slot: int | None,
                  token: Token) -> None:
        """Put ``token`` into a free slot of a city."""
        assert self.board is not None
        slots = B.slots(self.board, hex_id, city)
        index = slot if slot is not None and 0 <= slot < len(slots) and slots[slot] is None \
            else None
        if index is None:
            free = [i for i, s in enumerate(slots) if s is None]
            if not free:
                raise IllegalAction(f"no free token slot in {hex_id}")
            index = free[0]
        B.set_slot(self.board, hex_id, city, index, cid)
        token.hex, token.city = hex_id, city
        self.token_graph.clear()  # 18xx ``Tokener#place_token`` clears the graph

    def resync_tokens(self, hex_id: str) -> None:
        """After an upgrade, point every token on ``hex_id`` at the city it moved to."""
        assert self.board is not None
        for cid, corp in self.corps.items():
            mine = [t for t in corp.tokens if t.hex == hex_id]
            if not mine:
                continue
            spots = [ci for ci, slots in enumerate(B.hex_slots(self.board, hex_id))
                     for s in slots if s == cid]
            for token, ci in zip(mine, spots, strict=False):
                token.city = ci

    def token_distance_cost(self, cid: str, hex_id: str, token: Token) -> int:
        """1867 card: "$20 / $40 per hex ... as the crow flies" from the nearest token."""
        corp = self.corps[cid]
        used = [t.hex for t in corp.tokens if t.hex is not None]
        if not used:
            return 0
        target = parse_hex(hex_id)
        return token.price * min(distance(parse_hex(h), target) for h in used)

    # -- trains and phases ---------------------------------------------------------------
    def next_depot_train(self) -> Train | None:
        """The next new train."""
        return self.trains[self.depot[0]] if self.depot else None

    def remove_from_depot(self, tid: str) -> None:
        """Take a train out of the depot; an unlimited type gets its next copy."""
        train = self.trains[tid]
        if tid in self.depot:
            index = self.depot.index(tid)
            self.depot.remove(tid)
            if train.name in self.unlimited:
                n = sum(1 for t in self.trains.values() if t.name == train.name)
                new_id = f"{train.name}-{n}"
                self.trains[new_id] = Train(new_id, train.name, train.distance, train.price,
                                            train.multiplier, DEPOT, None, dict(train.discount),
                                            train.available_on, express=train.express)
                self.depot.insert(index, new_id)

    def buy_train(self, cid: str, tid: str, price: int) -> None:
        """Pay for and take a train; phase changes follow."""
        train = self.trains[tid]
        source = train.owner
        payee = BANK if source in (DEPOT, POOL) else source
        if price:
            self.transfer(cid, payee, price)
        if source == DEPOT:
            self.remove_from_depot(tid)
        elif source in self.corps:
            self.corps[source].trains.remove(tid)
        train.owner = cid
        self.corps[cid].trains.append(tid)
        if source in (DEPOT, POOL) or source == DEPOT:
            self.train_bought(train)

    def train_bought(self, train: Train) -> None:
        """Phase change and rusting after a depot purchase or export."""
        names = [p.name for p in self.phases]
        if train.name in names and names.index(train.name) > self.phase_index:
            self.change_phase(names.index(train.name), train)
        else:
            self.rust_on(train.name)

    def change_phase(self, index: int, train: Train) -> None:
        """Start phase ``index`` (events of its first train)."""
        events: list[str] = []
        for entry in R.TRAINS:
            if entry[0] == train.name:
                events = list(entry[5])
        self.phase_index = index
        self.rust_on(train.name)
        for ev in events:
            EVENTS[Event(ev)](self)

    def rust_on(self, name: str) -> None:
        """Rust every train whose ``rusts_on`` is ``name``."""
        for t in self.trains.values():
            if t.rusts_on == name and not t.rusted and t.owner != DEPOT:
                t.rusted = True
                if t.owner in self.corps:
                    self.corps[t.owner].trains.remove(t.id)
                t.owner = "rusted"
            elif t.rusts_on == name and t.owner == DEPOT:
                t.rusted = True

    def export_train(self) -> None:
        """Card: "it exports the cheapest train in the bank"; 18xx.games: the next new
        train (``export!``), never a pool train."""
        train = self.next_depot_train()
        if not self.config.compat_18xxgames:
            offered = sorted(self.depot_trains(), key=lambda t: (t.price, t.owner != DEPOT))
            train = offered[0] if offered else None
        if train is None:
            return
        if train.owner == POOL:
            train.owner = "exported"
            self.export_count += 1
            return
        self.remove_from_depot(train.id)
        train.owner = "exported"
        self.export_count += 1
        self.train_bought(train)

    # -- events (events.py) ---------------------------------------------------------------

    def post_train_buy(self) -> None:
        """Trainless nationalisation after a rust (18xx ``postevent_trainless_...``)."""
        if not self.trainless_nationalization:
            return
        trainless = [c for c in self.live_corps()
                     if self.corps[c].operated and not self.corps[c].trains]
        trainless.sort(key=lambda c: self.market.order_key(c, c))
        self.trainless_major = []
        for c in trainless:
            if self.is_major(c):
                self.trainless_major.append(c)
            else:
                self.nationalize(c)
        stale, self.stale_trainless = self.stale_trainless, {}
        self.trainless_major.extend(c for c in stale if c not in self.trainless_major)
        self.trainless_major.sort(
            key=lambda c: stale[c] if c in stale else self.market.order_key(c, c))
        self.trainless_nationalization = False

    # -- nationalisation (nationalization.py) ---------------------------------------------
    def nationalize(self, cid: str, move_on: bool = True) -> None:
        """Nationalise ``cid`` (card: Nationalization); ``move_on``: end its turn if operating."""
        nationalization.nationalize(self, cid, move_on)

    def close_corporation(self, cid: str, force: bool = True) -> None:
        """A minor closes."""
        nationalization.close_corporation(self, cid, force)

    def reset_corporation(self, cid: str) -> None:
        """A nationalised major becomes an unstarted major again."""
        nationalization.reset_corporation(self, cid)

    def place_639_token(self, hex_id: str) -> None:
        """18xx.games: the CN's reserved Montreal token goes on grey tile 639."""
        nationalization.place_639_token(self, hex_id)

    # -- privates ------------------------------------------------------------------------
    def payout_companies(self) -> None:
        """1867 card: "Privates pay" at the start of every OR (18xx ``payout_companies``)."""
        order = [p.id for p in self.players]

        def key(c: Company) -> tuple[Any, ...]:
            owner = c.owner or ""
            if owner in order:
                return ((0, order.index(owner)), c.revenue, c.name)
            return ((1, owner), c.revenue, c.name)

        for company in sorted((c for c in self.companies.values()
                               if c.owner and not c.closed and c.revenue > 0), key=key):
            assert company.owner is not None
            self.transfer(BANK, company.owner, company.revenue)

    # -- rounds ---------------------------------------------------------------------------
    def next_round(self) -> None:
        """18xx ``G1867::Game#next_round!`` with the base game-end handling."""
        from desk18xx.titles.g1867 import rounds

        r = self.round
        assert r is not None
        for p in self.players:
            p.passed = False
        reason, after = self.game_end_trigger or (None, None)
        if after is not None and self._end_now(after):
            self.end_game(reason or "")
            return
        self.interest_paid: dict[str, int] = {}
        if r.kind is RoundKind.STOCK:
            self.operating_rounds = self.final_operating_rounds or self.phase.operating_rounds
            self._reorder_players()
            self._new_or(1)
        elif r.kind is RoundKind.OPERATING:
            self._or_round_finished()
            if int(self.phase.name) < 3 or int(self.phase.name) >= 8:
                self._new_or_or_sr(r.round_num)
            else:
                self.round = rounds.MergerRound(self, r.round_num)
                self.round.start(self)
        elif r.kind is RoundKind.MERGER:
            self._new_or_or_sr(r.round_num)
        else:
            self._reorder_players()
            self.round = rounds.StockRound(self)
            self.round.start(self)

    def _end_now(self, after: str) -> bool:
        r = self.round
        assert r is not None
        if after == "immediate":
            return True
        if after == "current_or" and r.kind is RoundKind.MERGER \
                and not self.config.compat_18xxgames:
            return True  # card: "The bank breaking: finish the round, plus one OR if it is an SR"
        if r.kind is not RoundKind.OPERATING:
            return False
        if after == "current_or":
            return True
        final_in_set = r.round_num == self.operating_rounds
        if final_in_set and after == "one_more_full_or_set":
            return self.turn == self.final_turn
        return final_in_set

    def _new_or_or_sr(self, round_num: int) -> None:
        from desk18xx.titles.g1867 import rounds

        if round_num < self.operating_rounds:
            self._new_or(round_num + 1)
        else:
            self.turn += 1
            self.round = rounds.StockRound(self)
            self.round.start(self)

    def _new_or(self, num: int) -> None:
        from desk18xx.titles.g1867 import rounds

        self.interest = {c: self.corps[c].loans for c in self.corps}
        self.round = rounds.OperatingRound(self, num)
        self.round.start(self)

    def _or_round_finished(self) -> None:
        if "export_train" in self.phase.status:
            self.export_train()
            self.post_train_buy()
            self.game_end_check()

    def _reorder_players(self) -> None:
        """Priority to the player after the last to act (``:after_last_to_act``)."""
        r = self.round
        assert r is not None
        if not r.entities:
            return
        pid = r.entities[r.entity_index % len(r.entities)]
        ids = [p.id for p in self.players]
        if pid in ids:
            i = ids.index(pid)
            self.players = self.players[i:] + self.players[:i]

    # -- game end (1867 card: Endgame) ---------------------------------------------------
    def game_end_check(self) -> None:
        """Bank broken -> end of the current OR; first 8 -> one more full OR set."""
        priority = ["one_more_full_or_set", "current_or"]
        checks = [("bank", "current_or", self.bank_broken),
                  ("final_phase", "one_more_full_or_set",
                   self.phase_index == len(self.phases) - 1)]
        for reason, after, hit in checks:
            if not hit:
                continue
            if self.game_end_trigger and priority.index(after) >= priority.index(
                    self.game_end_trigger[1]):
                continue
            self.game_end_trigger = (reason, after)
            break
        if self.game_end_trigger:
            self.final_operating_rounds = 3
            if self.final_turn is None:
                self.final_turn = self.turn + 1

    def end_game(self, reason: str) -> None:
        """Loans are "paid off" by moving the price left once per loan."""
        if self.finished:
            return
        for cid, corp in self.corps.items():
            if corp.kind is CorpKind.NATIONAL or not corp.loans:
                continue
            self.move_price(cid, "left", corp.loans)
            self.loans_left += corp.loans
            corp.loans = 0
        super().end_game(reason)

    def offers(self, entity: str, types: Collection[str] | None = None) -> tuple[Offer, ...]:
        """What ``entity`` may do now (`.offers`)."""
        from desk18xx.titles.g1867.offers import offers

        return offers(self, entity, types)

    def lay_hexes(self, entity: str) -> frozenset[str]:
        """The hexes where ``entity`` may lay some tile now, with an early exit (`.offers`)."""
        from desk18xx.titles.g1867.offers import lay_hexes

        return lay_hexes(self, entity)

    def lay_tiles(self, entity: str) -> frozenset[str]:
        """The tiles ``entity`` may lay on some hex now, with an early exit (`.offers`)."""
        from desk18xx.titles.g1867.offers import lay_tiles

        return lay_tiles(self, entity)

    def lay_choices(self, entity: str) -> tuple[frozenset[str], frozenset[str]]:
        """(lay_hexes, lay_tiles) in one walk of the hexes (`.offers`)."""
        from desk18xx.titles.g1867.offers import lay_choices

        return lay_choices(self, entity)

    def deciding_offers(self, action: Action) -> tuple[Offer, ...] | None:
        """The offers that decide ``action`` at the door (`.offers`)."""
        from desk18xx.titles.g1867.offers import action_offers

        return action_offers(self, action)

    def door(self, action: Action) -> tuple[tuple[Offer, ...] | None, Step | None]:
        """`deciding_offers`, and the step that would take ``action`` (`.offers`)."""
        from desk18xx.titles.g1867.offers import action_door

        return action_door(self, action)

    def offered_types(self) -> frozenset[str]:
        """Every kind of move (`.offers.COVERED`)."""
        from desk18xx.titles.g1867.offers import COVERED

        return COVERED

    def random_offers(self, entity: str, rng: Any,
                      types: Collection[str] | None = None) -> tuple[Offer, ...]:
        """The offers random play draws from: the lays of a few hexes (`.offers`)."""
        from desk18xx.titles.g1867.offers import random_offers

        return random_offers(self, entity, rng, types)

    def sandbox_lay(self, lay: LayTile) -> None:
        """Study mode's off-turn lay by this title's track rules (`.sandbox`)."""
        from desk18xx.titles.g1867.sandbox import lay_anyway

        lay_anyway(self, lay)

    def sandbox_lay_offers(self, corp: str, hex_id: str | None = None) -> tuple[Offer, ...]:
        """What :meth:`sandbox_lay` accepts for ``corp`` (`.sandbox`)."""
        from desk18xx.titles.g1867.sandbox import lay_offers

        return lay_offers(self, corp, hex_id)

    def view(self) -> View1867:
        """The UI's read-only view of this game (`.view`)."""
        from desk18xx.titles.g1867.view import View1867

        return View1867(self)

    def routing(self) -> Routing1867:
        """The route optimizer's questions about this game (`.routing`)."""
        from desk18xx.titles.g1867.routing import Routing1867

        return Routing1867(self)

    def position_extra(self) -> dict[str, Any]:
        """This title's declared part of the position (`.position`)."""
        from desk18xx.titles.g1867.position import position_extra

        return position_extra(self)

    def player_value(self, pid: str) -> int:
        """Cash + privates at face + shares at price (price after loans) (card: Endgame)."""
        value = self.cash[pid]
        value += sum(c.value for c in self.companies.values() if c.owner == pid and not c.closed)
        for s in self.shares.values():
            if s.owner != pid:
                continue
            corp = self.corps[s.corp]
            if not corp.ipoed or s.corp not in self.market.where:
                continue
            price = self.price(s.corp)
            if corp.loans:
                price = self.market.relative(s.corp, corp.is_minor,
                                             ["left"] * corp.loans).price
            value += price * s.percent * self.total_shares(s.corp) // 100
        return value

    def position_board(self) -> dict[str, Any] | None:
        """The board in the position as 1867 has always declared it: laid tiles with
        rotations, and per hex with a token its cities' slots (company ids,
        ``"~neutral"`` for a placeholder)."""
        assert self.board is not None
        return B.summary(self.board)

    # -- revenue ---------------------------------------------------------------------------
    def stop_kind(self, hex_id: str, node: int) -> NodeKind:
        """Kind of a node on the current tile."""
        assert self.board is not None
        return B.node_kind(self.board, hex_id, node)

    # -- playouts and checks -------------------------------------------------------------
    def title_violations(self) -> list[str]:
        """1867-specific invariants (checks.py)."""
        return checks.violations(self)
