"""1822CA (and its ERS/WRS scenarios): setup, money holders, trains, phases, end and score.

Rule comments cite the rulebook (``RB``) and the supplement; exact behaviour
follows 18xx.games ``g_1822/game.rb`` and ``g_1822_ca/game.rb``.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import os
from collections.abc import Collection
from typing import TYPE_CHECKING, Any, Final

from desk18xx.engine.actions import Action, LayTile, Route
from desk18xx.engine.bidding import BidBoxView, ParOption
from desk18xx.engine.data import TitleData, load_title
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game, GameSetup, PhaseDef
from desk18xx.engine.ids import HexId
from desk18xx.engine.map.board import Board, HexState
from desk18xx.engine.map.upgrades import TrackRules
from desk18xx.engine.market import Market
from desk18xx.engine.state import (
    BANK,
    DEPOT,
    Company,
    CorpKind,
    Corporation,
    Share,
    Token,
    Train,
)
from desk18xx.engine.tiledef import Color
from desk18xx.titles.g1822ca import rules as R
from desk18xx.titles.g1822ca.bidbox import BidBoxes
from desk18xx.titles.g1822ca.rules import RulesConfig, config_for
from desk18xx.titles.g1822ca.stacks import company_stacks, starting_companies

if TYPE_CHECKING:
    from desk18xx.engine.offers import Offer
    from desk18xx.engine.round import Step
    from desk18xx.titles.g1822ca.rounds import OperatingRound
    from desk18xx.titles.g1822ca.routing import Routing1822CA
    from desk18xx.titles.g1822ca.view import View1822CA

_MARKET_LETTERS = {"par": "p", "par_1": "x"}
RESERVED = "reserved"
"""Train owner of private-company trains not yet acquired."""
REMOVED = "removed"
"""Train owner of trains taken out of the game."""
_DESTINATION_WALKS: dict[tuple[int, int, str, str], tuple[int, ...]] = {}
"""`G1822CA.destination_connected` by (board serial, board version, corporation,
home hex): what the walk found, for that board as it was then."""


def normalize_title(title: str) -> str:
    """``"1822CA ERS"`` → ``"1822CA-ERS"``."""
    return title.replace(" ", "-")


class G1822CA(Game):
    """A game of 1822CA or one of its regional scenarios."""

    title_id = "1822CA"

    def __init__(self, setup: GameSetup, config: RulesConfig | None = None) -> None:
        clash = {str(n) for n in range(1, 31)}
        self.player_alias: dict[str, str] = {
            pid: (f"player:{pid}" if pid in clash else pid) for pid, _name in setup.players}
        """Export player id -> our holder id (hotseat ids ``1``-``30`` clash with minors)."""
        self.player_unalias = {v: k for k, v in self.player_alias.items()}
        super().__init__(setup)
        for p in self.players:
            p.id = self.player_alias[p.id]
        self.player_ids = frozenset(p.id for p in self.players)
        self.bank_broke = False
        title = normalize_title(setup.title)
        self.title_id = title
        self.config = config or config_for(title, "compat_18xxgames" in setup.options)
        self.data: TitleData = load_title(title)
        cfg = self.data.config
        n = len(self.players)
        if n not in cfg.starting_cash or (n == 2 and not self.config.compat_18xxgames):
            raise IllegalAction(f"{title} is not for {n} players (RB 1.7.2; 2 players only "
                                "with compat_18xxgames)")
        self.cash[BANK] = cfg.bank_cash
        for p in self.players:
            self.transfer(BANK, p.id, cfg.starting_cash[n])
        self.cert_limit = cfg.cert_limit[n]
        g = cfg.g1822ca
        assert g is not None
        self.rules = g
        self.bidding_tokens = g.bidding_tokens[n]
        self.debt: dict[str, int] = {p.id: 0 for p in self.players}
        self.nothing_sold_in_sr = True
        self.double_cash_choice: str | None = None
        self.destinated: set[str] = set()
        self.operating_history: dict[str, int] = {}
        self.exchange_tokens: dict[str, int] = {}
        self.sawmill_hex: str | None = None
        self.sawmill_owner: str | None = None
        self.sawmill_bonus = 0
        self.tax_haven_bought = False
        self.grant_lays_placed = 0
        """P21 grant lays placed over the game; rulebook mode closes P21 at the third."""
        self.end_trigger: tuple[str, str] | None = None
        self.operating_rounds = 1
        self.or_turn = 0
        self.cash[R.TAX_HAVEN] = 0
        for pid in R.PRIVATE_PHASE_REVENUE:
            self.cash[R.PURSE_PREFIX + pid] = 0
        self._setup_phases()
        self._setup_companies()
        self._setup_corporations()
        self._setup_trains()
        self._setup_market()
        self.board = Board(self.data.hexes, self.data.tiles)
        self.boxes = BidBoxes(self)
        self.train_with_pullman: str | None = None
        self.train_with_grain: str | None = None
        self._pullman_skipped = False
        self._grain_skipped = False
        self.destination_at: dict[str, tuple[str, int]] = {}
        self.route_problems: list[str] = []
        """Recorded routes that our route model rejects or prices differently."""
        self.token_graph: dict[str, bool] = {}
        """``compat_18xxgames`` only: 18xx.games' cached ``Graph#can_token?`` answers, per
        company, as its token step found them; cleared where the reference clears its
        graph (a tile lay, a token by a step, a destination token, the Detroit-Duluth
        opening, a bank minor's token replaced, an ``exchange`` acquisition), not by a
        home token or when a ``remove`` or ``replace`` acquisition of a player's minor
        takes a token off the board (issue 16; `can_token_now`)."""
        self.track_rules = TrackRules(
            max_exits="unlabeled_cities", border_costs="each_side",
            # RB 5.7.35: grey plain track too (#60 before #169); 18xx.games: cities only.
            max_exits_plain=frozenset() if self.config.compat_18xxgames
            else frozenset({Color.GRAY}),
            fixed_rotations=dict(self.rules.big_city_rotations),
            forbidden_upgrades={k: frozenset({v})
                                for k, v in self.rules.big_city_illegal_upgrades.items()},
            label_exemptions={h: frozenset(self.rules.mountain_pass_tiles)
                              for h in self.rules.mountain_pass_hexes},
            replace_only={h: frozenset(v) for h, v in self.rules.white_hex_upgrades.items()},
            town_tiles=frozenset(self.data.config.const_strs("TRACK_TOWN")),
            plain_tiles=frozenset(self.data.config.const_strs("TRACK_PLAIN")))
        from desk18xx.titles.g1822ca.rounds import StockRound

        self.round = StockRound(self)
        self.round.start(self)
        self.after_action()

    # -- setup ---------------------------------------------------------------------------
    def _setup_phases(self) -> None:
        self.phases = tuple(
            PhaseDef(p.name, tuple(str(c) for c in p.tiles), dict(p.train_limit),
                     p.operating_rounds, p.on[0] if p.on else None, p.status)
            for p in self.data.phases)
        self.phase_ons = {p.name: p.on for p in self.data.phases}

    def _setup_companies(self) -> None:
        defs = {c.sym: c for c in self.data.companies}
        order = starting_companies(self.title_id, len(self.players))
        self.stacks = company_stacks(self.title_id, self.setup.seed, len(self.players))
        for cid in self.stacks.order:
            d = defs[cid]
            value = 100 if cid[0] in "CM" else 0
            self.companies[cid] = Company(cid, d.name, value, d.revenue)
        self.company_order: list[str] = list(self.stacks.order)
        """18xx ``@companies``: the stacks, minors then concessions then privates."""
        assert set(order) == set(self.company_order)

    def _setup_corporations(self) -> None:
        for d in self.data.corporations:
            kind = CorpKind.MINOR if str(d.type) == "minor" else CorpKind.MAJOR
            corp = Corporation(d.sym, d.name, kind, d.tokens,
                               max_ownership=d.max_ownership_percent)
            corp.tokens = [Token(price) for price in d.tokens]
            self.corps[d.sym] = corp
            self.cash[d.sym] = 0
            for i, pct in enumerate(d.shares):
                sid = f"{d.sym}_{i}"
                self.shares[sid] = Share(sid, d.sym, pct, i == 0, d.sym)
        self.corp_defs = {d.sym: d for d in self.data.corporations}
        for cid, count in self.rules.exchange_tokens.items():
            if cid in self.corps:
                self.exchange_tokens[cid] = count
        self.float_percent = {d.sym: d.float_percent for d in self.data.corporations}
        self.full_capitalisation: set[str] = set()

    def _setup_trains(self) -> None:
        self.train_variants: dict[str, dict[str, tuple[int, int, str | None, int]]] = {}
        """Train name -> variant name -> (distance, price, rusts_on, multiplier)."""
        self.unlimited: set[str] = set()
        for t in self.data.trains:
            variants = {t.name: (_dist(t.distance), t.price, t.rusts_on, t.multiplier)}
            for v in t.variants:
                variants[v.name] = (_dist(v.distance), v.price, v.rusts_on, v.multiplier)
            self.train_variants[t.name] = variants
            num = t.num
            if t.name in R.RULEBOOK_UNLIMITED_TRAINS and not self.config.compat_18xxgames:
                num = None  # RB §9: unlimited 7/E-trains in the scenarios (map data: 20)
            count = num if num is not None else 1
            if num is None:
                self.unlimited.add(t.name)
            for i in range(count):
                tid = f"{t.name}-{i}"
                self.trains[tid] = Train(tid, t.name, _dist(t.distance), t.price, t.multiplier,
                                         DEPOT, t.rusts_on)
                if t.name in R.EXTRA_TRAINS or t.name == "5P":
                    self.trains[tid].owner = RESERVED
                    self.trains[tid].buyable = t.name == "5P"
                else:
                    self.depot.append(tid)
        self.train_base: dict[str, str] = {tid: t.name for tid, t in self.trains.items()}
        """Train id -> the card's base name (its ``sym``: ``L`` for a flipped 2)."""
        self._crowding: dict[tuple[tuple[str, ...], int], bool] = {}
        """:meth:`_over_limit` by train ids and limit; train names change only in
        :meth:`set_variant`, which clears it."""
        self.bought_types: set[str] = set()

    def _setup_market(self) -> None:
        grid = self.data.market.markets[self.data.market.default]
        row: list[str] = []
        self.end_prices: set[int] = set()
        for cell in grid.rows[0]:
            assert cell is not None
            letters = "".join(_MARKET_LETTERS.get(t, "") for t in cell.types)
            row.append(f"{cell.price}{letters}")
            if "endgame" in cell.types:
                self.end_prices.add(cell.price)
        self.market = Market.from_rows([row])

    # -- identity helpers ----------------------------------------------------------------
    def is_minor(self, cid: str) -> bool:
        """True for a minor corporation id."""
        c = self.corps.get(cid)
        return c is not None and c.kind is CorpKind.MINOR

    def is_major(self, cid: str) -> bool:
        """True for a major corporation id."""
        c = self.corps.get(cid)
        return c is not None and c.kind is CorpKind.MAJOR

    @property
    def phase_num(self) -> int:
        """The current phase as a number (1-7)."""
        return int(self.phase.name)

    def has_status(self, status: str) -> bool:
        """True when the current phase carries ``status``."""
        return status in self.phase.status

    def corp_of_company(self, company: str) -> str:
        """Minor card ``M7`` → corporation ``7``; concession ``C2`` → ``CPR``."""
        if company.startswith("M"):
            return company[1:]
        if company.startswith("C"):
            majors = [c.sym for c in self.data.corporations if str(c.type) != "minor"]
            full = ["CNoR", "CPR", "GNWR", "GT", "GTP", "GWR", "ICR", "NTR", "PGE", "QMOO"]
            cid = full[int(company[1:]) - 1]
            if cid not in majors:
                raise IllegalAction(f"{company} is not in this game")
            return cid
        raise IllegalAction(f"{company} is not a minor or a concession")

    def concession_of(self, corp: str) -> str | None:
        """The concession company of a major, while it exists and is open."""
        for cid, c in self.companies.items():
            if cid.startswith("C") and not c.closed and self.corp_of_company(cid) == corp:
                return cid
        return None

    def owner_player(self, entity: str) -> str | None:
        """The player acting for ``entity`` (a player, corporation or company)."""
        if self.is_player(entity):
            return entity
        if entity in self.corps:
            return self.president(entity)
        comp = self.companies.get(entity)
        if comp is not None and comp.owner is not None:
            return self.owner_player(comp.owner) if comp.owner != BANK else None
        return None

    def price(self, cid: str) -> int:
        """Share price of a corporation."""
        return self.market.price(cid)

    def move_price(self, cid: str, direction: str, times: int = 1) -> None:
        """Move a price along the one-row market."""
        for _ in range(times):
            self.market.move(cid, self.is_minor(cid), direction)

    def total_shares(self, cid: str) -> int:
        """2 for a minor, 10 for a major."""
        return 2 if self.is_minor(cid) else 10

    def num_shares_of(self, holder: str, cid: str) -> int:
        """Shares (not certificates) of ``cid`` held by ``holder``."""
        return self.percent_of(holder, cid) * self.total_shares(cid) // 100

    def ipo_shares(self, cid: str) -> list[Share]:
        """Treasury certificates of ``cid``, longest held first: a minor's owner paid in
        shares gets the first of these (18xx ``ipo_shares.first``), so a certificate
        redeemed from the pool goes after those never sold."""
        return self.shares_in_arrival_order(cid, cid)

    def counts_for_limit(self, cid: str) -> bool:
        """Whether certificates of ``cid`` count against the certificate limit: not
        while its price is in the yellow zone (RB 4.2.3, any company, minors too;
        18xx ``counts_for_limit``)."""
        return self.price(cid) >= 50

    def num_certs(self, pid: str) -> int:
        """Certificates counting against the limit (RB 4.3; yellow-zone shares exempt)."""
        n = 0
        exempt: dict[str, bool] = {}
        for cid in [s.corp for s in self.shares.values() if s.owner == pid]:
            skip = exempt.get(cid)
            if skip is None:
                skip = exempt[cid] = not self.counts_for_limit(cid)
            if not skip:
                n += 1
        for cid, c in self.companies.items():
            if c.owner == pid and not c.closed and cid != "P11":
                n += 1
        return n

    # -- trains --------------------------------------------------------------------------
    def upcoming(self) -> Train | None:
        """The next new train in the depot."""
        for tid in self.depot:
            if self.trains[tid].owner == DEPOT:
                return self.trains[tid]
        return None

    def is_extra_train(self, train: Train) -> bool:
        """2P, LP, Pullman and grain trains: outside the train limit (RB 5.10)."""
        return train.name in R.EXTRA_TRAINS

    def real_trains(self, corp: str) -> list[Train]:
        """Trains that count for the limit and for must-own-a-train."""
        return [t for t in self.corp_trains(corp) if not self.is_extra_train(t)]

    def train_limit(self, corp: str) -> int:
        """Train limit of the current phase."""
        return self.phase.train_limit["minor" if self.is_minor(corp) else "major"]

    def crowded(self, corp: str) -> bool:
        """Over the train limit, or two special trains of one kind (18xx ``crowded_corp?``)."""
        ids = self.corps[corp].trains
        return bool(ids) and self._over_limit(ids, self.train_limit(corp))

    def _over_limit(self, ids: list[str], limit: int) -> bool:
        """More than ``limit`` trains that count, or two of one special kind: 2P and LP
        together, Pullmans, grain trains, and (RB 5.17.7, one per company even after
        an acquisition; not in 18xx.games) E-trains."""
        key = (tuple(ids), limit)
        found = self._crowding.get(key)
        if found is not None:
            return found
        kinds = _DOUBLE_KINDS if self.config.compat_18xxgames else _DOUBLE_KINDS_E
        trains = self.trains
        real = 0
        special: list[str] = []
        for t in ids:
            name = trains[t].name
            if name not in R.EXTRA_TRAINS:
                real += 1
            kind = kinds.get(name)
            if kind is not None:
                special.append(kind)
        found = real > limit or len(special) != len(set(special))
        self._crowding[key] = found
        return found

    def crowded_corps(self) -> list[str]:
        """Floated companies that must discard a train (:meth:`crowded`), in company order."""
        limits = self.phase.train_limit
        minor_limit, major_limit = limits["minor"], limits["major"]
        # with a limit of one or more, a company needs two trains to be crowded
        single_ok = minor_limit >= 1 and major_limit >= 1
        minor = CorpKind.MINOR
        out = []
        for cid, corp in self.corps.items():
            ids = corp.trains
            if not ids or (single_ok and len(ids) < 2) or not corp.floated or corp.closed:
                continue
            limit = minor_limit if corp.kind is minor else major_limit
            if (len(ids) > 1 or limit < 1) and self._over_limit(ids, limit):
                out.append(cid)
        return out

    def discardable(self, corp: str) -> list[Train]:
        """The trains to choose from when crowded (18xx ``DiscardTrain#trains``)."""
        trains = self.corp_trains(corp)
        for kinds in (R.EXTRA_TRAIN_PERMANENTS, {R.PULLMAN}, {R.GRAIN}):
            same = [t for t in trains if t.name in kinds]
            if len(same) > 1:
                return same
        return [t for t in trains if not self.is_extra_train(t)]

    def take_train(self, tid: str) -> Train:
        """A train by id.

        Raises:
            IllegalAction: unknown id.
        """
        t = self.trains.get(tid)
        if t is None:
            raise IllegalAction(f"no train {tid}")
        return t

    def give_train(self, train: Train, to: str) -> None:
        """Move ``train`` to corporation ``to`` (no money); depot bookkeeping included."""
        old = train.owner
        if old in self.corps:
            self.corps[old].trains.remove(train.id)
        if train.id in self.depot:
            self.depot.remove(train.id)
        train.owner = to
        train.operated = False
        if to in self.corps:
            self.corps[to].trains.append(train.id)
        base = self.train_base[train.id]
        if old == DEPOT and base in self.unlimited:
            self._new_unlimited(base)

    def _new_unlimited(self, base: str) -> None:
        n = sum(1 for t in self.train_base.values() if t == base)
        tid = f"{base}-{n}"
        d, price, rusts, mult = self.train_variants[base][base]
        self.trains[tid] = Train(tid, base, d, price, mult, DEPOT, rusts)
        self.train_base[tid] = base
        self.depot.append(tid)

    def set_variant(self, train: Train, variant: str) -> None:
        """Flip a double-sided card to ``variant`` (L→2, 7→E)."""
        base = self.train_base[train.id]
        d, price, rusts, mult = self.train_variants[base][variant]
        train.name, train.distance, train.price = variant, d, price
        self._crowding.clear()
        train.rusts_on, train.multiplier = rusts, mult

    def train_bought(self, train: Train, as_name: str | None = None) -> None:
        """A train left the depot: phase change, events, rusting (18xx ``Phase#buying_train!``)."""
        sym = self.train_base[train.id]
        names = {sym} if as_name is None else {as_name}
        for name in names:
            self._advance_phase(name)
        self.bought_types.update(names)

    def _advance_phase(self, sym: str) -> None:
        while self.phase_index + 1 < len(self.phases):
            nxt = self.phases[self.phase_index + 1]
            if sym not in self.phase_ons[nxt.name]:
                return
            self.phase_index += 1
            self._on_phase(nxt.name)

    def _on_phase(self, name: str) -> None:
        """Rust trains and fire events of a new phase (RB 5.10, supplement §8)."""
        for t in self.trains.values():
            if t.rusts_on is not None and t.rusts_on == name and not t.rusted \
                    and t.owner not in (RESERVED, REMOVED):
                self._rust(t)
        events = {"3": self.event_open_detroit_duluth, "5": self.event_close_concessions,
                  "6": self.event_full_capitalisation, "7": self.event_phase_revenue}
        ev = events.get(name)
        if ev is not None:
            ev()

    def _rust(self, t: Train) -> None:
        if t.owner in self.corps:
            self.corps[t.owner].trains.remove(t.id)
        if t.id in self.depot:
            self.depot.remove(t.id)
        t.rusted = True
        t.owner = REMOVED

    def remove_train(self, train: Train) -> None:
        """Take a train out of the game (export, discarded special train)."""
        if train.owner in self.corps:
            self.corps[train.owner].trains.remove(train.id)
        if train.id in self.depot:
            self.depot.remove(train.id)
        base = self.train_base[train.id]
        was_depot = train.owner == DEPOT
        train.owner = REMOVED
        if was_depot and base in self.unlimited:
            self._new_unlimited(base)

    # -- events --------------------------------------------------------------------------
    def event_open_detroit_duluth(self) -> None:
        """First 3-train: the Duluth–Detroit link opens (full game only; RB 1.4.12)."""
        board = self._board()
        for hex_id in self.rules.detroit_duluth_hexes:
            if hex_id not in board:
                continue
            tile_id = f"DD-{hex_id}-0"
            st = board.hex(hex_id)
            for c, slots in enumerate(st.tokens):
                for s, tok in enumerate(slots):
                    if tok is not None and tok.corp == R.DD_BLOCKER:
                        board.remove_token(hex_id, c, s)
            if board.is_available(tile_id):
                board.lay_tile(hex_id, tile_id, 0)
        self.token_graph.clear()  # 18xx G1822CA: ``@graph.clear`` after the DD tiles

    def event_close_concessions(self) -> None:
        """First 5-train: unconverted concessions close; majors float at 50% (RB 4.7)."""
        for cid, c in self.companies.items():
            if cid.startswith("C") and not c.closed:
                self.close_company(cid)
        for cid, corp in self.corps.items():
            if corp.kind is CorpKind.MAJOR and not corp.floated:
                self.float_percent[cid] = 50

    def event_full_capitalisation(self) -> None:
        """First 6-train: majors floated from now on are fully capitalised (RB 4.8.4)."""
        for cid, corp in self.corps.items():
            if corp.kind is CorpKind.MAJOR and not corp.floated:
                self.full_capitalisation.add(cid)

    def event_phase_revenue(self) -> None:
        """First 7-train: P8/P9 close, their purses go back to the bank."""
        for pid in R.PRIVATE_PHASE_REVENUE:
            c = self.companies.get(pid)
            if c is None or c.closed:
                continue
            purse = R.PURSE_PREFIX + pid
            self.transfer(purse, BANK, self.cash[purse])
            self.close_company(pid)

    def close_company(self, cid: str) -> None:
        """Close a company card."""
        c = self.companies[cid]
        c.closed = True
        if c.owner in self.corps and cid in self.corps[c.owner].companies:
            self.corps[c.owner].companies.remove(cid)

    # -- board ---------------------------------------------------------------------------
    def _board(self) -> Board:
        assert self.board is not None
        return self.board

    @property
    def map(self) -> Board:
        """The board (the map engineer's model)."""
        return self._board()

    def clear_reservation(self, hex_id: str, corp: str) -> None:
        """Drop ``corp``'s home reservations on ``hex_id`` (a closed or acquired minor).

        FIXME: uses the board's private ``_set``; wants a ``Board.unreserve`` API.
        """
        board = self._board()
        if hex_id not in board:
            return
        st = board.hex(hex_id)
        reserved = tuple(tuple(None if r == corp else r for r in rr) for rr in st.reserved)
        hex_res = tuple(r for r in st.hex_reservations if r != corp)
        board._set(dataclasses.replace(st, reserved=reserved, hex_reservations=hex_res))

    def phase_colors(self) -> tuple[Color, ...]:
        """Tile colours of the current phase."""
        return tuple(Color(c) for c in self.phase.tiles)

    # -- player loans --------------------------------------------------------------------
    def take_player_loan(self, pid: str, amount: int) -> None:
        """Lend ``amount`` from the bank; debt grows by 50% (RB 5.15.6, ``take_cash_loan``)."""
        self.transfer(BANK, pid, amount)
        self.debt[pid] += math.ceil(amount * 1.5)

    def payoff_player_loan(self, pid: str, amount: int | None = None) -> None:
        """Repay (part of) a player's debt from cash."""
        debt = self.debt[pid]
        pay = min(debt, self.cash[pid]) if amount is None else amount
        if pay > debt or pay > self.cash[pid] or pay <= 0:
            raise IllegalAction(f"cannot repay ${pay} of ${debt}")
        self.transfer(pid, BANK, pay)
        self.debt[pid] -= pay

    def add_interest_player_loans(self) -> None:
        """End of each SR: debts grow by 50%, rounded up."""
        for pid, d in self.debt.items():
            if d > 0:
                self.debt[pid] = math.ceil(d * 1.5)

    # -- end of game ---------------------------------------------------------------------
    def transfer(self, src: str, dst: str, amount: int) -> None:
        """Move money; the bank breaks when a payment would take it below zero."""
        if src == BANK and self.cash[BANK] - amount < 0:
            self.bank_broke = True
        super().transfer(src, dst, amount)

    def game_end_check(self) -> None:
        """Record the first end trigger (``GAME_END_LOCK_FIRST_TRIGGER``; supplement §8.3)."""
        if self.end_trigger is not None or self.finished:
            return
        from desk18xx.engine.round import RoundKind

        in_or = self.round is not None and self.round.kind is RoundKind.OPERATING
        if self.bank_broke:
            self.end_trigger = ("bank", "full_or" if in_or else "current_or")
            if in_or and self.config.extra_or_on_bank_break:
                self.operating_rounds += 1
        elif any(self.market.cells[at].price in self.end_prices
                 for c, at in self.market.where.items() if c in self.corps):
            self.end_trigger = ("stock_market", "current_or")

    def end_now(self, round_num: int) -> bool:
        """At the end of an OR: does the game end now (18xx ``end_now?``)?"""
        if self.end_trigger is None:
            return False
        timing = self.end_trigger[1]
        return timing == "current_or" or (timing == "full_or"
                                          and round_num == self.operating_rounds)

    def process(self, action: Action) -> None:
        """Apply an action, renaming clashing player ids (see ``player_alias``)."""
        super().process(self._alias(action))

    def _alias(self, action: Action) -> Action:
        if not self.player_alias:
            return action  # nothing to rename (almost every game)
        autos = tuple(self._alias(a) for a in action.auto_actions)
        entity = action.entity
        if action.entity_type == "player":
            entity = self.player_alias.get(entity, entity)
        if entity == action.entity and autos == action.auto_actions:
            return action
        return dataclasses.replace(action, entity=entity, auto_actions=autos)

    def offers(self, entity: str, types: Collection[str] | None = None) -> tuple[Offer, ...]:
        """What ``entity`` may do now (`.offers`)."""
        from desk18xx.titles.g1822ca.offers import offers

        return offers(self, entity, types)

    def random_offers(self, entity: str, rng: Any,
                      types: Collection[str] | None = None) -> tuple[Offer, ...]:
        """The offers random play draws from: the lays of a few hexes (`.offers`)."""
        from desk18xx.titles.g1822ca.offers import random_offers

        return random_offers(self, entity, rng, types)

    def acting_entities(self) -> tuple[str, ...]:
        """The entity the round waits for and the privates acting for it (`.offers`)."""
        from desk18xx.titles.g1822ca.offers import acting_entities

        return acting_entities(self)

    def lay_hexes(self, entity: str) -> frozenset[str]:
        """The hexes where ``entity`` may lay some tile now, with an early exit (`.offers`)."""
        from desk18xx.titles.g1822ca.offers import lay_hexes

        return lay_hexes(self, entity)

    def lay_tiles(self, entity: str) -> frozenset[str]:
        """The tiles ``entity`` may lay on some hex now, with an early exit (`.offers`)."""
        from desk18xx.titles.g1822ca.offers import lay_tiles

        return lay_tiles(self, entity)

    def lay_choices(self, entity: str) -> tuple[frozenset[str], frozenset[str]]:
        """(lay_hexes, lay_tiles) in one walk of the hexes (`.offers`)."""
        from desk18xx.titles.g1822ca.offers import lay_choices

        return lay_choices(self, entity)

    def deciding_offers(self, action: Action) -> tuple[Offer, ...] | None:
        """The offers that decide ``action`` at the door (`.offers`)."""
        from desk18xx.titles.g1822ca.offers import action_offers

        return action_offers(self, action)

    def door(self, action: Action) -> tuple[tuple[Offer, ...] | None, Step | None]:
        """`deciding_offers`, and the step that would take ``action`` (`.offers`)."""
        from desk18xx.titles.g1822ca.offers import action_door

        return action_door(self, action)

    def offered_types(self) -> frozenset[str]:
        """Every move kind (`.offers.COVERED`)."""
        from desk18xx.titles.g1822ca.offers import COVERED

        return COVERED

    def sandbox_lay(self, lay: LayTile) -> None:
        """Study mode's off-turn lay by this title's track rules (`.sandbox`)."""
        from desk18xx.titles.g1822ca.sandbox import lay_anyway

        lay_anyway(self, lay)

    def sandbox_lay_offers(self, corp: str, hex_id: str | None = None) -> tuple[Offer, ...]:
        """What :meth:`sandbox_lay` accepts for ``corp`` (`.sandbox`)."""
        from desk18xx.titles.g1822ca.sandbox import lay_offers

        return lay_offers(self, corp, hex_id)

    def view(self) -> View1822CA:
        """The UI's read-only view of this game (`.view`)."""
        from desk18xx.titles.g1822ca.view import View1822CA

        return View1822CA(self)

    def routing(self) -> Routing1822CA:
        """The route optimizer's questions about this game (`.routing`)."""
        from desk18xx.titles.g1822ca.routing import Routing1822CA

        return Routing1822CA(self)

    def position_extra(self) -> dict[str, Any]:
        """This title's declared part of the position (`.position`)."""
        from desk18xx.titles.g1822ca.position import position_extra

        return position_extra(self)

    def bid_boxes(self) -> BidBoxView:
        """The bid boxes, their bids, and who may bid now (RB 4.2)."""
        if self.finished:
            return self.boxes.view(None)
        legal = self.legal_actions()
        acting = legal.entity if "bid" in legal.types and legal.entity is not None \
            and self.is_player(legal.entity) else None
        return self.boxes.view(acting)

    def winning_bids(self, player: str) -> tuple[str, ...]:
        """The boxed companies ``player`` is the high bidder on (RB 4.2.9)."""
        offered = set(self.boxes.offered())
        return tuple(sorted(c for c, _price in self.boxes.player_bids(player, committed_only=True)
                            if c in offered))

    def par_options(self, player: str, corp: str) -> tuple[ParOption, ...]:
        """The major start prices, dearest first, each with the director's cost (a
        concession counts $100) against the cash beside committed bids (RB 4.7, 4.2.9)."""
        if not self.is_major(corp) or self.corps[corp].ipoed:
            return ()
        mult = self.shares[f"{corp}_0"].percent // 10
        rebate = 100 if self.concession_of(corp) is not None else 0
        free = self.cash[player] - self.boxes.committed_cash(player)
        cells = sorted((c for c in self.market.cells.values()
                        if c.price in R.MAJOR_PAR_PRICES), key=lambda c: -c.price)
        out = []
        for cell in cells:
            cost = max(0, cell.price * mult - rebate)
            problem = None if cost <= free else f"costs ${cost}; ${free} free"
            out.append(ParOption(cell.id, cell.price, cost, problem))
        return tuple(out)

    def copy(self) -> G1822CA:
        """A snapshot sharing only immutable data (title data, rules) with this game."""
        memo: dict[int, Any] = {id(self.board): self.map.copy()}
        for shared in (self.data, self.rules, self.config, self.corp_defs, self.track_rules,
                       self.stacks, self.phase_ons, self.train_variants):
            memo[id(shared)] = shared
        return copy.deepcopy(self, memo)

    def extra_share_holders(self) -> frozenset[str]:
        """The P11 tax haven holds shares."""
        return frozenset({R.TAX_HAVEN})

    def title_violations(self) -> list[str]:
        """Bid boxes, loans, purses and trains (checked after every action)."""
        out: list[str] = []
        offered = set(self.boxes.offered())
        for company, bids in self.boxes.bids.items():
            if bids and company not in offered:
                out.append(f"bid on {company}, which is not in a bid box")
        for p in self.players:
            if self.debt[p.id] < 0:
                out.append(f"{p.id} has negative debt {self.debt[p.id]}")
            if self.boxes.bids and self.boxes.committed_cash(p.id) > self.cash[p.id]:
                out.append(f"{p.id} has committed more than his cash")
            if self.boxes.tokens_left(p.id) < 0:
                out.append(f"{p.id} uses more bidding tokens than he has")
        for holder in [R.TAX_HAVEN] + [R.PURSE_PREFIX + c for c in R.PRIVATE_PHASE_REVENUE]:
            if self.cash[holder] < 0:
                out.append(f"{holder} has negative cash")
        for cid, corp in self.corps.items():
            if corp.closed and (corp.trains or self.cash[cid]):
                out.append(f"closed {cid} still holds trains or cash")
        return out

    def result(self) -> dict[str, int]:
        """Export player id -> final value."""
        return {self.player_unalias.get(p.id, p.id): self.player_value(p.id)
                for p in self.players}

    def player_value(self, pid: str) -> int:
        """Cash + shares at market + companies at face − debt (+ tax haven) (RB 8)."""
        value = self.cash[pid] - self.debt[pid]
        value += self.holdings_value(pid)
        for cid, c in self.companies.items():
            if c.owner == pid and not c.closed:
                if cid == "P11":
                    value += self.cash[R.TAX_HAVEN] + self.holdings_value(R.TAX_HAVEN)
                else:
                    value += c.value
        return value

    def holdings_value(self, holder: str) -> int:
        """Market value of the certificates ``holder`` owns."""
        total = 0
        for s in self.shares.values():
            if s.owner == holder and self.market.cell(s.corp) is not None:
                shares = s.percent * self.total_shares(s.corp) / 100
                total += math.ceil(shares * self.price(s.corp))
        return total

    def next_round(self) -> None:
        """SR → Choices → ORs → SR (18xx ``G1822::Game#next_round!``)."""
        from desk18xx.titles.g1822ca.rounds import ChoicesRound, OperatingRound, StockRound

        r = self.round
        if isinstance(r, StockRound):
            if self.finished:
                return
            self.round = ChoicesRound(self)
        elif isinstance(r, ChoicesRound):
            if self.config.compat_18xxgames:
                # 18xx.games: the phase after the stock round's exports decides
                self.operating_rounds = self.phase.operating_rounds
            self.reorder_players()
            self.round = OperatingRound(self, 1)
        elif isinstance(r, OperatingRound):
            if self.end_now(r.round_num):
                assert self.end_trigger is not None
                self.end_game(self.end_trigger[0])
                return
            if r.round_num < self.operating_rounds:
                self.round = OperatingRound(self, r.round_num + 1)
            else:
                self.turn += 1
                # RB 2.1.2: a second operating round applies only after the following
                # stock round, so the phase as this stock round starts decides the set
                # after it (exports at its end do not)
                if not self.config.compat_18xxgames:
                    self.operating_rounds = self.phase.operating_rounds
                self.round = StockRound(self)
        assert self.round is not None
        self.round.start(self)

    def reorder_players(self) -> None:
        """Players by cash, highest first; ties keep the old order (RB 4.2.3; P7 doubling)."""
        current = list(reversed(self.players))

        def key(p: object) -> tuple[int, int]:
            pid = p.id  # type: ignore[attr-defined]
            cash = self.cash[pid] * (2 if self.double_cash_choice == pid else 1)
            return (cash, current.index(p))  # type: ignore[arg-type]

        self.players.sort(key=key, reverse=True)
        self.double_cash_choice = None

    def operating_order(self) -> list[str]:
        """Floated minors, then floated majors, each by price (18xx ``operating_order``)."""
        floated = [c for c, corp in self.corps.items() if corp.floated and not corp.closed]
        floated.sort(key=lambda c: self.market.order_key(c, c))
        return [c for c in floated if self.is_minor(c)] + [c for c in floated if self.is_major(c)]


    # -- operating round: company income and turns ---------------------------------------
    def payout_companies(self) -> None:
        """Start of each OR: private and concession income (RB 5.1; P8/P9 purses)."""
        for cid in self.company_order + [c for c in self.companies if c not in self.company_order]:
            c = self.companies[cid]
            if c.closed or c.owner is None or c.owner == BANK:
                continue
            if cid in R.PRIVATE_PHASE_REVENUE:
                c.revenue = self.phase_num * R.PRIVATE_PHASE_REVENUE[cid]
                self.transfer(BANK, R.PURSE_PREFIX + cid, c.revenue)
            if cid == R.DOUBLE_CASH and c.owner in self.corps:
                c.revenue = R.DOUBLE_CASH_REVENUE[self.phase_num]
            if c.revenue > 0:
                self.transfer(BANK, c.owner, c.revenue)

    def start_turn(self, corp: str, orr: OperatingRound) -> None:
        """Home token when a company first operates (18xx ``place_home_token``)."""
        c = self.corps[corp]
        if c.tokens and c.tokens[0].used:
            return
        d = self.corp_defs[corp]
        hex_id = d.home_hexes[0]
        board = self.map
        st = board.hex(hex_id)
        # QMOO reserving the whole of Quebec chooses its city (18xx ``place_home_token``:
        # ``tile.reserved_by?`` and the tile has track; WRS lifts GNWR's first)
        if corp == "13" or (corp == "QMOO" and corp in st.hex_reservations and st.geo.n_paths):
            orr.pending_tokens.append((corp, (hex_id,), c.tokens[0].price))
            return
        city = next((i for i, r in enumerate(st.reserved) if corp in r), None)
        if city is None:
            city = d.home_city if d.home_city is not None else 0
        self.place_token(corp, hex_id, city, 0, cheater=True, home=True)
        if corp == self.rules.two_home_corporation and d.destination is not None:
            self.place_destination(corp, d.destination.hex, None)

    def finish_turn(self, corp: str) -> None:
        """End of a company's turn."""
        self.train_with_pullman = None
        self.train_with_grain = None
        self._pullman_skipped = False
        self._grain_skipped = False

    # -- tokens --------------------------------------------------------------------------
    def place_token(self, corp: str, hex_id: str, city: int, price: int, *,
                    slot: int | None = None, cheater: bool = False, home: bool = False) -> None:
        """Put the next unused token of ``corp`` in a city and pay for it.

        ``home``: the home token at a company's first turn, which leaves 18xx.games'
        cached graph as it was (``place_home_token``); any other token clears it
        (``Tokener#place_token``)."""
        c = self.corps[corp]
        tok = c.next_token()
        if tok is None:
            raise IllegalAction(f"{corp} has no token left")
        why = self.own_token_problem(corp, hex_id, city)
        if why is not None:
            raise IllegalAction(why)
        if price:
            self.transfer(corp, BANK, price)
        self.map.place_token(hex_id, city, corp, slot=slot, cheater=cheater)
        tok.hex, tok.city = hex_id, city
        if not home:
            self.token_graph.clear()

    def own_token_problem(self, corp: str, hex_id: str, city: int) -> str | None:
        """Why ``corp`` may not put a token in that city because it has one there
        already (RB 5.8.3: a major, one token per city), or None."""
        if self.is_major(corp) and any(t.corp == corp
                                       for t in self.map.hex(hex_id).city_tokens(city)):
            return f"{corp} already has a token in {self.map.city_id(hex_id, city)} (RB 5.8.3)"
        return None

    def destination_city(self, corp: str, hex_id: str) -> int:
        """The city of the destination hex (the one reached through the printed exits)."""
        d = self.corp_defs[corp].destination
        st = self.map.hex(hex_id)
        if d is None or not d.exits:
            return 0
        for i, edges in enumerate(st.geo.city_edges()):
            if edges & set(d.exits):
                return i
        return 0

    def destination_connected(self, corp: str) -> list[int]:
        """Cities of ``corp``'s destination hex that the walk from its home token
        reaches (18xx G1822CA ``destination_node_check?``; for ICR any Quebec city
        on its destination exits).  Kept per board version (the door and the step
        ask it in the same position)."""
        d = self.corp_defs[corp].destination
        home = self.corps[corp].tokens[0] if self.corps[corp].tokens else None
        if d is None or home is None or home.hex is None or home.city is None:
            return []
        board = self.map
        key = (board.serial, board.version, corp, home.hex)
        known = _DESTINATION_WALKS.get(key)
        if known is not None:
            return list(known)
        found = self._destination_connected(corp, d.hex, home.hex)
        if len(_DESTINATION_WALKS) > 256:
            _DESTINATION_WALKS.clear()
        _DESTINATION_WALKS[key] = tuple(found)
        return found

    def _destination_connected(self, corp: str, dest: str, home_hex: str) -> list[int]:
        """`destination_connected`, walked (the board at its version, uncached)."""
        from desk18xx.engine.map.graph import graph_for

        board = self.map
        d_hex = dest
        st = board.hex(d_hex)
        cities = self.destination_cities(corp)
        # the charter's city number may be stale after an upgrade merged cities
        at = board.hex(home_hex)
        city = next((c for c in range(len(at.tokens)) if any(
            t.corp == corp and t.kind == "normal" for t in at.city_tokens(c))), None)
        if city is None:
            return []
        start = (HexId(home_hex), at.geo.city_nodes[city])
        walk = graph_for(board)._walk(corp, [start], frozenset())
        assert walk is not None
        return [c for c in cities if (d_hex, st.geo.city_nodes[c]) in walk.nodes]

    def destination_cities(self, corp: str) -> list[int]:
        """The cities of ``corp``'s destination hex its token may go to: those on the
        charter's destination exits (ICR: several Quebec cities), else the one city."""
        d = self.corp_defs[corp].destination
        if d is None:
            return []
        st = self.map.hex(d.hex)
        return [i for i, edges in enumerate(st.geo.city_edges())
                if d.exits and edges & set(d.exits)] or [self.destination_city(corp, d.hex)]

    def place_destination(self, corp: str, hex_id: str, city: int | None) -> None:
        """The destination token, free, in an extra slot if needed (RB 5.8.6)."""
        if corp in self.destinated:
            raise IllegalAction(f"{corp} has placed its destination token")
        if city is None:
            city = self.destination_city(corp, hex_id)
        self.map.place_token(hex_id, city, corp, kind="destination", cheater=True)
        self.token_graph.clear()  # 18xx G1822 ``place_destination_token``: graph cleared
        self.destinated.add(corp)
        self.destination_at[corp] = (hex_id, city)
        self.remove_extra_tokens(hex_id)

    def winnipeg_token_open(self, corp: str, company: str) -> bool:
        """P10 can be used by ``corp`` now (owned, open, an exchange token left)."""
        c = self.companies.get(R.WINNIPEG_TOKEN)
        return (company == R.WINNIPEG_TOKEN and c is not None and not c.closed
                and c.owner == corp and self.exchange_tokens.get(corp, 0) > 0)

    def winnipeg_token(self, corp: str, city_id: str, slot: int | None) -> None:
        """P10: an exchange token into a Winnipeg city, free, beside its slots (RB 6.1.1)."""
        hex_id, city = self.map.parse_city_id(city_id)
        if hex_id != "N16":
            raise IllegalAction("P10 places its token in Winnipeg (N16)")
        st = self.map.hex(hex_id)
        if any(t is not None and t.corp == corp for t in st.tokens[city]):
            raise IllegalAction(f"{corp} already has a token in that city")
        self.exchange_tokens[corp] -= 1
        tok = Token(0, hex_id, city)
        self.corps[corp].tokens.append(tok)
        # 18xx.games: the ability's token goes beside the slots (``extra_slot: true``)
        self.map.place_token(hex_id, city, corp, extra=True)
        self.token_graph.clear()  # a special token step's ``Tokener#place_token``
        self.close_company(R.WINNIPEG_TOKEN)

    def winnipeg_exchange(self, corp: str) -> None:
        """P10, rulebook mode: an exchange token moves to "available" instead (RB 6.1.1)."""
        if self.config.compat_18xxgames:
            raise IllegalAction("18xx.games offers P10's Winnipeg token only")
        self._exchange_to_available(corp)
        self.close_company(R.WINNIPEG_TOKEN)

    def token_swap_choices(self, corp: str) -> list[str]:
        """P28 choices open to ``corp`` now (18xx ``company_choices_chpr``)."""
        c = self.companies.get(R.TOKEN_SWAP)
        if c is None or c.closed or c.owner != corp:
            return []
        out = []
        exch = self.exchange_tokens.get(corp, 0)
        if exch > 0:
            out.append("exchange")
        if self.corps[corp].next_token() is not None and exch < self.rules.exchange_tokens[corp]:
            out.append("available")
        return out

    def token_swap(self, corp: str, choice: str) -> None:
        """P28: an exchange token becomes available, or the reverse; P28 closes."""
        if choice not in self.token_swap_choices(corp):
            raise IllegalAction(f"P28 cannot {choice} now")
        if choice == "exchange":
            self._exchange_to_available(corp)
        else:
            tok = self.corps[corp].next_token()
            assert tok is not None
            self.corps[corp].tokens.remove(tok)
            self.exchange_tokens[corp] += 1
        self.close_company(R.TOKEN_SWAP)

    def can_run_route(self, corp: str) -> bool:
        """One token's own walk reaches two stops (18xx ``route_info``).

        18xx.games ``Graph#compute`` walks from each token separately (the other
        token cities are reached, not walked through) and needs two revenue
        centres in one walk: two unconnected token cities do not make a route.
        """
        from desk18xx.engine.map.graph import graph_for

        # a lone token's own walk is the whole walk; with more, the whole walk has
        # two stops whenever one token's walk has
        return graph_for(self.map).token_walk_reaches(corp, 2)

    def can_token_in(self, corp: str, hex_id: str, city: int) -> bool:
        """``corp`` reaches that city and it has a slot for it (18xx ``tokenable?``)."""
        from desk18xx.engine.map.graph import graph_for

        st = self.map.hex(hex_id)
        node = st.geo.city_nodes[city]
        if (st.hex_id, node) not in graph_for(self.map).reach(corp).nodes:
            return False
        return self._city_open(st, city, corp)

    @staticmethod
    def _city_open(st: HexState, city: int, corp: str) -> bool:
        """A slot for ``corp`` in that city of a reached hex (18xx ``City#tokenable?``)."""
        # extra-slot tokens (P10) count: 18xx City#tokened_by? looks at both
        if any(t.corp == corp for t in st.city_tokens(city)):
            return False
        if corp in st.reserved[city]:
            return True
        if st.free_slots(city) <= 0:
            return False
        # another company's home reservation on the whole hex keeps one free slot each
        # (18xx Tile#token_blocked_by_reservation?)
        others = sum(1 for r in st.hex_reservations if r != corp)
        return not others or sum(st.free_slots(c) for c in range(len(st.tokens))) > others

    def can_token_now(self, corp: str) -> bool:
        """Whether the token step opens for ``corp`` (:meth:`can_token_somewhere`).

        Under ``compat_18xxgames`` 18xx.games' cached answer (`token_graph`): it keeps
        what its token step found until the graph is cleared, even after a ``remove``
        acquisition freed a city, and a recorded game follows it (issue 16).  By the
        rules, the board as it is."""
        if not self.config.compat_18xxgames:
            return self.can_token_somewhere(corp)
        known = self.token_graph.get(corp)
        if known is None:
            known = self.token_graph[corp] = self.can_token_somewhere(corp)
        return known

    def can_token_somewhere(self, corp: str) -> bool:
        """A reachable city with a free slot (18xx ``graph.can_token?``), approximately.

        With ``compat_18xxgames`` a hex where ``corp`` has a token already (an extra
        or destination one too) does not count: 18xx.games asks ``can_token?`` without
        ``same_hex_allowed``, though the placement itself allows it (D32)."""
        other_hexes_only = self.config.compat_18xxgames
        try:
            from desk18xx.engine.map.graph import graph_for

            reach = graph_for(self.map).reach(corp)
        except Exception:  # noqa: BLE001 - the graph module is still being written
            return True
        board = self.map
        for hid, node in reach.nodes:
            st = board.hex(hid)
            if node not in st.geo.city_nodes or (other_hexes_only and st.tokened_by(corp)):
                continue
            if self._city_open(st, st.geo.city_nodes.index(node), corp):
                return True
        return False

    # -- track ---------------------------------------------------------------------------
    def lay_tile(self, corp: str, hex_id: str, tile_id: str, rotation: int, *,
                 free: bool = False, special: bool = False, remove_town: bool = False,
                 ahead: bool = False) -> None:
        """Lay a tile and pay terrain, river and upgrade costs (RB 5.7)."""
        from desk18xx.engine.map.upgrades import lay_cost
        from desk18xx.engine.map.upgrades import lay_tile as map_lay_tile

        board = self.map
        if not board.is_available(tile_id):
            raise IllegalAction(f"tile {tile_id} is not in the supply")
        tile = board.tile_def(tile_id)
        if self.is_minor(corp) and tile.color.value in ("brown", "gray"):
            raise IllegalAction("minors never lay brown or grey tiles (RB 5.7.9)")
        colors = list(self.phase_colors())
        if ahead:
            colors.append(self._advanced_colour(hex_id, tile.name, tile.color))
        if tile.color not in colors:
            raise IllegalAction(f"{tile.color} tiles are not available yet")
        if self.config.check_track:
            self._check_lay(corp, hex_id, tile_id, rotation, special, remove_town, colors)
        total = 0 if free else lay_cost(board, hex_id, tile, rotation, self.track_rules).total
        if total > self.cash[corp]:
            raise IllegalAction(f"{corp} cannot pay ${total} for this tile")
        map_lay_tile(board, hex_id, tile_id, rotation, self.track_rules)
        self.token_graph.clear()  # 18xx ``Tracker#lay_tile`` clears the graph
        self.remove_extra_tokens(hex_id, lay=True)
        if total:
            self.transfer(corp, BANK, total)
        self.update_qmoo_home(hex_id)

    def grant_hex_problem(self, hex_id: str) -> str | None:
        """Why P21's grant may not build on ``hex_id`` (supplement §6.1 P21: not on a
        $120 mountain, not in Montréal, Ottawa, Québec, Toronto or Winnipeg), or None."""
        if hex_id not in self.map:
            return None
        if hex_id in R.BIG_CITY_COMPANIES.values():
            name = self.map.hex_def(hex_id).location_name or hex_id
            return f"P21 may not build in {name} (supplement §6.1 P21)"
        if any("mountain" in u.terrains and u.cost >= 120
               for u in self.map.hex(hex_id).geo.tile.upgrades):
            return f"P21 may not build on the $120 mountain {hex_id} (supplement §6.1 P21)"
        return None

    def sawmill_place(self, hex_id: str) -> bool:
        """P13's sawmill may go to ``hex_id``: on this scenario's map, with a town or a
        city now (18xx.games ``AssignSawmill#available_hex``: not a town P29/P30
        removed)."""
        if hex_id not in self.map:
            return False
        geo = self.map.hex(hex_id).geo
        return bool(geo.town_nodes or geo.city_nodes)

    def remove_extra_tokens(self, hex_id: str, lay: bool = False) -> None:
        """RB 5.7.36: a company left with two tokens in one station (merged by an
        upgrade, or beside its destination token) returns one to its charter, unrefunded
        (18xx G1822 ``remove_extra_tokens!``: never the destination token; the newest of
        its tokens goes back, priced $100).

        ``lay`` (after a tile lay) under ``compat_18xxgames``: destination tokens are
        not counted.  18xx.games lifts them off a destination hex before the lay and
        puts them back after this check (G1822CA ``preprocess_action``,
        ``@pending_destination_tokens``), so an upgrade merging a company's normal
        token with its destination token (Winnipeg W1 to W3) keeps both."""
        board = self.map
        st = board.hex(hex_id)
        lifted = lay and self.config.compat_18xxgames
        for city in range(len(st.tokens)):
            here = [t.corp for t in st.tokens[city] if t is not None
                    and not (lifted and t.kind == "destination")] + [
                t.corp for t in st.extra_tokens[city] if t.kind == "destination" and not lifted]
            for corp in sorted(set(here)):
                for _ in range(here.count(corp) - 1):
                    cur = board.hex(hex_id)
                    slot = next((i for i, t in enumerate(cur.tokens[city]) if t is not None
                                 and t.corp == corp and t.kind == "normal"), None)
                    mine = [t for t in self.corps[corp].tokens if t.hex == hex_id]
                    if slot is None or not mine:
                        break
                    board.remove_token(hex_id, city, slot)
                    back = mine[-1]
                    back.hex, back.city, back.price = None, None, 100
                    board.compact_city(hex_id, city)

    def _advanced_colour(self, hex_id: str, name: str, color: Color) -> Color:
        """P12: a plain or single-town tile of the next colour on a hex of the newest
        colour (supplement §6.1 P12)."""
        order = [Color.YELLOW, Color.GREEN, Color.BROWN, Color.GRAY]
        last = self.phase_colors()[-1]
        if last is Color.GRAY or color is not order[order.index(last) + 1]:
            raise IllegalAction("P12 lays a tile of the next colour only")
        if self.map.hex(hex_id).geo.tile.color is not last:
            raise IllegalAction(f"P12 upgrades a {last} tile only")
        allowed = set(self.data.config.const_strs("TRACK_PLAIN")) | set(
            self.data.config.const_strs("TRACK_TOWN"))
        if name not in allowed:
            raise IllegalAction("P12 lays plain-track or single-town tiles only")
        return color

    def _check_lay(self, corp: str, hex_id: str, tile_id: str, rotation: int,
                   special: bool, remove_town: bool, colors: list[Color]) -> None:
        """Upgrade path, rotation, colour, most exits and reach (RB 5.7; map model)."""
        from desk18xx.engine.map.graph import graph_for
        from desk18xx.engine.map.upgrades import check_tile_lay

        reach = graph_for(self.map).reach(corp).connected_edges(hex_id)
        if reach is None and hex_id not in [h for h, _c in self.map.tokens_of(corp)]:
            raise IllegalAction(f"{corp} cannot reach {hex_id}")
        check_tile_lay(self.map, hex_id, tile_id, rotation, colors, self.track_rules,
                       reach, entity=corp, special=special, remove_town=remove_town)

    def update_qmoo_home(self, hex_id: str, tile_trigger: bool = True) -> None:
        """QMOO's home floats among the Quebec cities (supplement §14.16; 18xx
        ``update_home``, called after a lay, a station token or ICR's destination
        token in Quebec).

        Until its home token is down QMOO's reservation is made again each time: on
        the one city with an open slot, else on the whole hex (``add_corp_reservation!``).
        A yellow lay after QMOO's token is down lifts the token and puts it back
        the same way, or asks QMOO to choose.
        """
        if "QMOO" not in self.corps or hex_id != self.corp_defs["QMOO"].home_hexes[0]:
            return
        tok = self.corps["QMOO"].tokens[0]
        board = self.map
        st = board.hex(hex_id)
        if tok.hex != hex_id:
            self._unreserve_once(hex_id, "QMOO")
            self._reserve_home(hex_id, "QMOO")
            return
        if not tile_trigger or st.geo.tile.color.value != "yellow":
            return
        # the lay may have moved the token to another city: look for it (D23)
        found = next(((c, i) for c in range(len(st.tokens))
                      for i, t in enumerate(st.tokens[c]) if t is not None and t.corp == "QMOO"),
                     None)
        if found is None:
            return
        board.remove_token(hex_id, *found)
        tok.hex = tok.city = None
        self._reserve_home(hex_id, "QMOO")
        st = board.hex(hex_id)
        city = next((i for i, r in enumerate(st.reserved) if "QMOO" in r), None)
        if city is not None:
            self.place_token("QMOO", hex_id, city, 0)
            return
        from desk18xx.titles.g1822ca.rounds import OperatingRound

        if isinstance(self.round, OperatingRound):
            self.round.pending_tokens.append(("QMOO", (hex_id,), 0))

    def _unreserve_once(self, hex_id: str, corp: str) -> None:
        """Drop ``corp``'s reservation of one city slot, else of the whole hex
        (18xx ``Tile#remove_reservation!``)."""
        board = self.map
        st = board.hex(hex_id)
        for c, res in enumerate(st.reserved):
            if corp in res:
                reserved = list(st.reserved)
                reserved[c] = tuple(None if r == corp else r for r in res)
                board._set(dataclasses.replace(st, reserved=tuple(reserved)))
                return
        if corp in st.hex_reservations:
            hex_res = list(st.hex_reservations)
            hex_res.remove(corp)
            board._set(dataclasses.replace(st, hex_reservations=tuple(hex_res)))

    def _reserve_home(self, hex_id: str, corp: str) -> None:
        """Reserve the one city with an open slot (the only city of a one-city tile),
        else the whole hex (18xx G1822CA ``add_corp_reservation!``, ``Tile#add_reservation!``).
        """
        board = self.map
        st = board.hex(hex_id)
        cities = range(len(st.tokens))
        open_cities = [c for c in cities if st.free_slots(c) > 0]
        city = 0 if len(st.tokens) == 1 else (open_cities[0] if len(open_cities) == 1 else None)
        slot = None if city is None else next(
            (i for i, t in enumerate(st.tokens[city])
             if t is None and st.reserved[city][i] is None), None)
        if city is None or slot is None:
            board._set(dataclasses.replace(st, hex_reservations=st.hex_reservations + (corp,)))
            return
        reserved = list(st.reserved)
        res = list(reserved[city])
        res[slot] = corp
        reserved[city] = tuple(res)
        board._set(dataclasses.replace(st, reserved=tuple(reserved)))

    # -- routes and dividends ------------------------------------------------------------
    def check_run(self, corp: str, routes: tuple[Route, ...]) -> list[int]:
        """Validate and price declared routes (RB 5.9): what each route earns.

        The engine's own price is used whenever the routes validate; a declared
        revenue is never trusted.  A route that does not validate, or a declared
        revenue other than ours, is refused (``strict_routes``, every game but an
        import).  An import (``compat_18xxgames``) records the problem in
        `route_problems` and goes on: with our price when the routes validate, with
        the recorded revenue when they do not (18xx.games computed that figure
        from its own graph: docs/rules-notes.md, "recorded routes").
        """
        from desk18xx.titles.g1822ca.revenue import price_routes

        recorded = [r.revenue for r in routes]
        try:
            ours = price_routes(self, corp, routes)
        except IllegalAction as exc:
            problem = f"{corp} {[r.train for r in routes]}: {exc}"
            if self.config.strict_routes or any(r is None for r in recorded):
                raise IllegalAction(problem) from exc
            self.route_problems.append(problem)
            return [r for r in recorded if r is not None]
        if all(r is None or r == o for r, o in zip(recorded, ours, strict=True)):
            return ours
        wrong = next((r, o, rt.train) for r, o, rt in zip(recorded, ours, routes, strict=True)
                     if r is not None and r != o)
        problem = (f"{corp}'s {wrong[2]} earns ${wrong[1]} on that route, not ${wrong[0]} "
                   "(RB 5.9: revenue is the sum of the stops' values)")
        if self.config.strict_routes:
            raise IllegalAction(problem)
        self.route_problems.append(problem)
        return ours

    def route_trains(self, corp: str) -> list[Train]:
        """Trains that run (not Pullman or grain)."""
        return [t for t in self.corp_trains(corp) if t.name not in (R.PULLMAN, R.GRAIN)]

    def attach_options(self, corp: str) -> tuple[str, list[Train]] | None:
        """What ``corp`` may attach now: ``("pullman", trains)`` until the Pullman is
        attached or skipped, then ``("grain", trains)`` likewise; None when nothing is
        left to attach (18xx G1822CA ``Route#choosing?``; the choice is an index into
        ``trains``, or ``"None"`` to run without).
        """
        trains = self.corp_trains(corp)
        if self.train_with_pullman is None and not self._pullman_skipped \
                and any(t.name == R.PULLMAN for t in trains):
            opts = [t for t in self.route_trains(corp)
                    if t.name not in R.LOCAL_TRAINS and t.name != R.E_TRAIN]
            if opts:
                return "pullman", opts
        if self.train_with_grain is None and not self._grain_skipped \
                and any(t.name == R.GRAIN for t in trains):
            opts = [t for t in self.route_trains(corp)
                    if t.name != R.E_TRAIN and t.id != self.train_with_pullman]
            if opts:
                return "grain", opts
        return None

    def attach_labels(self, corp: str) -> dict[str, str]:
        """A readable label for every choice :meth:`attach_options` allows now."""
        open_ = self.attach_options(corp)
        if open_ is None:
            return {}
        what, opts = open_
        noun = "the Pullman" if what == "pullman" else "the grain train"
        names = [t.name for t in opts]
        out = {"None": f"Run without {noun}"}
        for i, t in enumerate(opts):
            which = f" ({t.id})" if names.count(t.name) > 1 else ""
            out[str(i)] = f"Attach {noun} to the {t.name}-train{which}"
        return out

    def attach_choice(self, corp: str, choice: str) -> None:
        """Attach the Pullman, then the grain train, to a train by index (``choose``).

        Raises:
            IllegalAction: nothing left to attach, or no such train.
        """
        open_ = self.attach_options(corp)
        if open_ is None:
            raise IllegalAction(f"{corp} has no Pullman or grain train left to attach")
        what, opts = open_
        if choice == "None":
            if what == "pullman":
                self._pullman_skipped = True
            else:
                self._grain_skipped = True
            return
        if not choice.isdigit() or int(choice) >= len(opts):
            raise IllegalAction(f"no train {choice!r} to attach the {what} to "
                                f"(choose 0 to {len(opts) - 1}, or None)")
        if what == "pullman":
            self.train_with_pullman = opts[int(choice)].id
        else:
            self.train_with_grain = opts[int(choice)].id

    def route_stops(self, route: object) -> tuple[str, ...]:
        """The stops in visiting order as node signatures (``HEX-part``).

        ``hexes`` gives the visiting order, ``nodes`` the parts (export doc §5.2).
        """
        hexes = tuple(getattr(route, "hexes", None) or ())
        nodes = list(getattr(route, "nodes", None) or ())
        out = []
        for h in hexes:
            match = next((n for n in nodes if n.rpartition("-")[0] == h), None)
            if match is not None:
                nodes.remove(match)
                out.append(match)
            else:
                out.append(h)
        return tuple(out)

    def stop_base_revenue(self, stop: str) -> int:
        """Base value of a stop (no E/destination doubling), for mail contracts."""
        hex_id, _sep, part = stop.rpartition("-")
        if not _sep or not part.isdigit():
            hex_id, part = stop, "0"
        st = self.map.hex(hex_id)
        nodes = st.geo.tile.nodes
        idx = int(part)
        if idx >= len(nodes):
            return 0
        return nodes[idx].revenue.value(self.phase_colors())

    def find_extra_train(self, corp: str, orr: OperatingRound) -> str | None:
        """The permanent 2P/LP train whose revenue may be paid out separately."""
        total = sum(orr.routes_revenue.values())
        for t in self.corp_trains(corp):
            if t.name in R.EXTRA_TRAIN_PERMANENTS:
                rev = orr.routes_revenue.get(t.id, 0)
                if rev > 0 and rev != total and len(self.corp_trains(corp)) > 1:
                    return t.id
        return None

    def mail_subsidy(self, corp: str, orr: OperatingRound) -> int:
        """Mail contracts (supplement §6.1 P22-P25; 18xx ``mail_contract_bonus``)."""
        owned = self.corps[corp].companies
        large_n = sum(1 for c in owned if c in R.PRIVATE_MAIL_CONTRACTS)
        small_n = sum(1 for c in owned if c in R.PRIVATE_SMALL_MAIL_CONTRACTS)
        if not large_n and not small_n:
            return 0
        from desk18xx.engine.optimizer.scoring_1822ca import mail_income  # one formula

        values: list[int | None] = []  # per run, its large-contract value
        for tid, stops in orr.route_nodes.items():
            if not stops or self.trains[tid].name.startswith("L") or len(stops) < 2:
                values.append(None)
            else:
                values.append((self.stop_base_revenue(stops[0])
                               + self.stop_base_revenue(stops[-1])) // 2)
        return mail_income(large_n, small_n,
                           self.rules.small_mail_subsidy.get(self.phase.name, 0), values)

    def pay_dividend(self, corp: str, kind: str, orr: OperatingRound) -> None:
        """Pay a dividend (RB 5.11; supplement §7.2, §7.4)."""
        if kind not in ("payout", "half", "withhold"):
            raise IllegalAction(f"bad dividend kind {kind}")
        revenue = sum(orr.routes_revenue.values())
        subsidy = self.mail_subsidy(corp, orr) if self.is_major(corp) else 0
        if os.environ.get("DESK18XX_DEBUG") and orr.recorded_subsidy is not None \
                and orr.recorded_subsidy != subsidy:
            print(f"subsidy {corp}: ours {subsidy} recorded {orr.recorded_subsidy}")
        n = self.total_shares(corp)
        extra = self.find_extra_train(corp, orr) if orr.extra_choice else None
        if extra is not None and orr.extra_choice == kind and not self.config.compat_18xxgames:
            extra = None  # RB p.33: both halves are added together before halving
        parts = [(revenue, kind)]
        if extra is not None and orr.extra_choice is not None:
            extra_rev = orr.routes_revenue[extra]
            parts = [(revenue - extra_rev, kind), (extra_rev, orr.extra_choice)]
        kept = 0
        per_share = 0.0
        for rev, k in parts:
            if k == "payout":
                held = 0
            elif k == "withhold":
                held = rev
            else:
                held = rev // 2 if self.is_minor(corp) else (rev // 2 // n) * n
            kept += held
            per_share += (rev - held) / n
        self.operating_history[corp] = self.operating_history.get(corp, 0) + 1
        for tid in self.corps[corp].trains:
            self.trains[tid].operated = True
        if kept + subsidy > 0:
            self.transfer(BANK, corp, kept + subsidy)
        if per_share > 0:
            holders = [p.id for p in self.players] + list(self.corps)
            for h in holders:
                shares = self.num_shares_of(h, corp)
                if shares:
                    self.transfer(BANK, h, math.ceil(shares * per_share))
            haven = self.num_shares_of(R.TAX_HAVEN, corp)
            if haven:
                self.transfer(BANK, R.TAX_HAVEN, math.ceil(haven * per_share))
        paid = revenue - kept
        if paid <= 0:
            self.move_price(corp, "left")
        elif self.is_minor(corp):
            self.move_price(corp, "right")
        else:
            price = self.price(corp)
            if paid >= 2 * price:
                self.move_price(corp, "right", 2)
            elif paid >= price:
                self.move_price(corp, "right")

    # -- acquisitions --------------------------------------------------------------------
    def acquire_private(self, corp: str, cid: str) -> None:
        """A company takes a private (supplement §6 'after acquisition')."""
        c = self.companies[cid]
        c.owner = corp
        self.corps[corp].companies.append(cid)
        if cid in R.PRIVATE_TRAINS:
            t = self.trains[R.PRIVATE_TRAINS[cid]]
            t.owner = DEPOT
            self.give_train(t, corp)
            self.close_company(cid)
            return
        if cid in R.PRIVATE_REMOVE_REVENUE:
            c.revenue = 0
        if cid in R.PRIVATE_PHASE_REVENUE:
            purse = R.PURSE_PREFIX + cid
            self.transfer(purse, corp, self.cash[purse])
            self.close_company(cid)
        if cid == R.DOUBLE_CASH:
            c.revenue = R.DOUBLE_CASH_REVENUE[self.phase_num]

    def acquire_minor(self, corp: str, minor: str, shares: int, token: str,
                      orr: OperatingRound) -> None:
        """Pay for a minor and take its assets (RB 5.14; 18xx ``acquire_*_minor``)."""
        owner = self.president(minor)
        board = self.map
        if owner is None:
            self.transfer(corp, BANK, R.MINOR_BIDBOX_PRICE)
            company = f"M{minor}"
            if token == "replace":
                self.exchange_tokens[corp] -= 1
                tok = Token(R.MINOR_13_TOKEN_PRICE if minor == "13" else 0)
                self.corps[corp].tokens.append(tok)
                d = self.corp_defs[minor]
                hex_id = d.home_hexes[0]
                if minor == "13":
                    orr.pending_tokens.append((corp, (hex_id,), R.MINOR_13_TOKEN_PRICE))
                else:
                    st = board.hex(hex_id)
                    city = next((i for i, r in enumerate(st.reserved) if minor in r),
                                d.home_city or 0)
                    self.clear_reservation(hex_id, minor)
                    if any(t.corp == corp for t in st.city_tokens(city)):
                        # one token per city, an extra-slot (P10) one too (D22): the
                        # exchange token becomes available instead
                        self.corps[corp].tokens.pop()
                        self.exchange_tokens[corp] += 1
                        self._exchange_to_available(corp)
                    else:
                        board.place_token(hex_id, city, corp)
                        tok.hex, tok.city = hex_id, city
                        self.token_graph.clear()  # 18xx G1822 acquire_bank_minor
            elif token == "exchange":
                self._exchange_to_available(corp)
            # the closed minor's home reservation goes whatever the token choice
            # (18xx ``close_corporation``: ``CLOSED_CORP_RESERVATIONS_REMOVED``, D38)
            self.clear_reservation(self.corp_defs[minor].home_hexes[0], minor)
            self.close_company(company)
            if company in self.company_order:
                self.company_order.remove(company)
            self.corps[minor].closed = True
            return
        diff = self.price(minor) * 2 - self.price(corp) * shares
        if diff < 0:
            self.transfer(owner, corp, -diff)
        elif diff > 0:
            self.transfer(corp, owner, diff)
        for s in self.ipo_shares(corp)[:shares]:
            s.owner = owner
        if not self.config.compat_18xxgames:
            # RB 3.3.3; 18xx.games moves the shares without a director check (D20)
            self.check_president(corp, self.president(corp))
        self.transfer(minor, corp, self.cash[minor])
        for cid in list(self.corps[minor].companies):
            self.corps[minor].companies.remove(cid)
            self.corps[corp].companies.append(cid)
            self.companies[cid].owner = corp
        for tid in list(self.corps[minor].trains):
            self.give_train(self.trains[tid], corp)
        where = board.tokens_of(minor)
        if where:
            hex_id, city = where[0]
            slots = board.hex(hex_id).tokens[city]
            slot = next(i for i, t in enumerate(slots) if t is not None and t.corp == minor)
            board.remove_token(hex_id, city, slot)
            # RB 5.17.12; an extra-slot token (P10) counts (18xx City#tokened_by?, D22)
            mine = any(t.corp == corp for t in board.hex(hex_id).city_tokens(city))
            if token == "replace" and not mine:
                self.exchange_tokens[corp] -= 1
                self.corps[corp].tokens.append(Token(0, hex_id, city))
                board.place_token(hex_id, city, corp, slot=slot)
            elif token in ("replace", "exchange"):
                self._exchange_to_available(corp)
                # the minor's token leaves the map with its slot if the city has more
                # than its printed slots (18xx ``MinorAcquisition#remove_minor_token``);
                # M13's rondel space stays, open to any company (RB 7.1.3; 18xx
                # ``min_city_slots``: one more in M13's Toronto city)
                if minor != "13":
                    board.compact_city(hex_id, city)
        if token == "exchange":
            # 18xx G1822CA ``after_acquire_entity_minor``: ``clear_graph_for`` on an
            # exchange only; a ``remove`` or ``replace`` leaves the cached answers
            self.token_graph.clear()
        self.shares[f"{minor}_0"].owner = minor
        self.market.remove(minor)
        self.corps[minor].closed = True

    def connects_to_minor(self, corp: str, minor: str) -> bool:
        """The major's track reaches the minor's token (or, for a bid-box minor, its
        reserved home city; M13: any Toronto city) (18xx ``entity_connects?``)."""
        from desk18xx.engine.map.graph import graph_for

        board = self.map
        nodes = graph_for(board).reach(corp).nodes
        where = board.tokens_of(minor)
        if not where:
            hex_id = self.corp_defs[minor].home_hexes[0]
            st = board.hex(hex_id)
            cities = [i for i, r in enumerate(st.reserved) if minor in r]
            if not cities or minor == self.rules.minor_14_id:
                cities = list(range(len(st.tokens)))
            where = [(st.hex_id, c) for c in cities]
        return any((h, board.hex(h).geo.city_nodes[c]) in nodes for h, c in where)

    def pending_token_needs_route(self, corp: str, price: int) -> bool:
        """A pending token that is not a home token: a major's $20 token for a bid-box
        M13 (RB 7.1.4; 18xx ``pending_home_tokeners``)."""
        return price > 0 and self.is_major(corp)

    def reaches_city(self, corp: str, hex_id: str, city: int) -> bool:
        """``corp``'s track reaches that city (18xx ``check_connected``)."""
        from desk18xx.engine.map.graph import graph_for

        board = self.map
        node = board.hex(hex_id).geo.city_nodes[city]
        return (hex_id, node) in graph_for(board).reach(corp).nodes

    def _exchange_to_available(self, corp: str) -> None:
        if self.exchange_tokens.get(corp, 0) <= 0:
            raise IllegalAction(f"{corp} has no exchange token")
        self.exchange_tokens[corp] -= 1
        self.corps[corp].tokens.append(Token(R.TOKEN_PRICE))


_DOUBLE_KINDS: Final = {
    **{name: "permanent" for name in R.EXTRA_TRAIN_PERMANENTS},
    R.PULLMAN: R.PULLMAN,
    R.GRAIN: R.GRAIN,
}
"""Special trains by kind: a company may hold one of each kind (RB 5.10; 18xx ``crowded_corp?``)."""
_DOUBLE_KINDS_E: Final = {**_DOUBLE_KINDS, R.E_TRAIN: R.E_TRAIN}


def _dist(d: object) -> int:
    if isinstance(d, int):
        return d
    return 99
