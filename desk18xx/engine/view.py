"""A declared, read-only view of a game for a user interface (STYLE.md §6).

The UI's models read a position through :class:`GameView` (``game.view()``) and the
offers (`desk18xx.engine.offers`), never through ``vars()``, attribute probes or the
engine's internal objects.  Every answer is a frozen value made when asked, so
nothing a model holds can change the game, and a refactor of the engine's tables
changes this module, not the UI.

The generic part reads the base :class:`~desk18xx.engine.game.Game`; a title
subclasses :class:`GameView` once (``titles/<title>/view.py``) and overrides the
named hooks for what only it has: a certificate limit, player debts, loans, trains
without a limit, a deal waiting for consent, the corporations open to start,
attachment choices, the trains that run, and its board's tile supply.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from desk18xx.engine.actions import Action
from desk18xx.engine.market import CellType
from desk18xx.engine.state import BANK, DEPOT, POOL, CorpKind
from desk18xx.engine.tiledef import HexDef, TileDef

if TYPE_CHECKING:
    from desk18xx.engine.game import Game


@dataclass(frozen=True, slots=True)
class Holding:
    """A player's share of one corporation."""

    corporation: str
    percent: int
    president: bool


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One player now."""

    id: str
    name: str
    cash: int
    certificates: int
    """Certificates counted against the limit."""
    cert_limit: int | None
    """None where the title has no limit."""
    debt: int
    """Owed to the bank (1822CA's emergency money raising); 0 elsewhere."""
    value: int
    """The title's worth of the player (cash, privates and shares at price)."""
    privates: tuple[str, ...]
    """Ids of the open private companies the player owns."""
    holdings: tuple[Holding, ...]
    """Shares held, in corporation order; only corporations with a percent."""


@dataclass(frozen=True, slots=True)
class CorpView:
    """One corporation (minor, major or national) now."""

    id: str
    name: str
    kind: CorpKind
    owner: str | None
    """The president or owning player, if any."""
    started: bool
    """On the table: open and started (or floated), or a national."""
    floated: bool
    closed: bool
    price: int | None
    """Share price on the market, None when off it."""
    cash: int
    trains: tuple[str, ...]
    """Train names, in the order the corporation holds them."""
    train_ids: tuple[str, ...]
    train_limit: int
    tokens_left: int
    tokens_total: int
    treasury_percent: int
    pool_percent: int
    loans: int | None
    """Loans taken, None where the title has no loans."""
    privates: tuple[str, ...]
    """Ids of the private companies the corporation owns."""


@dataclass(frozen=True, slots=True)
class RoundView:
    """Where the game stands."""

    kind: str | None
    """``"stock"``, ``"operating"``, ``"merger"``, ``"auction"``; None before the first."""
    turn: int
    """The stock-round number (18xx ``turn``)."""
    number: int
    """The round's number within its turn (operating round 2 of 3); 0 without a round."""
    finished: bool
    """The game has ended."""
    serial: int
    """Actions processed so far (changes whenever the position does; a cache key)."""


@dataclass(frozen=True, slots=True)
class MarketSpace:
    """One space of the stock market and who sits on it."""

    row: int
    col: int
    price: int
    types: frozenset[CellType]
    corporations: tuple[str, ...]
    """First placed first."""


@dataclass(frozen=True, slots=True)
class TrainView:
    """One train."""

    id: str
    name: str
    distance: int
    price: int
    owner: str
    """A corporation id, or the depot or pool."""
    rusts_on: str | None
    rusted: bool


@dataclass(frozen=True, slots=True)
class PrivateView:
    """One private company."""

    id: str
    name: str
    value: int
    revenue: int
    owner: str | None
    closed: bool


@dataclass(frozen=True, slots=True)
class DepotTrains:
    """The trains of one name still for sale by the bank."""

    name: str
    count: int | None
    """Copies left, None when there is no limit."""
    price: int
    rusts_on: str | None


@dataclass(frozen=True, slots=True)
class BankView:
    """The bank, the phase and the trains to come."""

    cash: int
    phase: str | None
    train_limits: tuple[tuple[str, int], ...]
    """(corporation kind, limit) in the phase."""
    tiles: tuple[str, ...]
    """Tile colours of the phase."""
    loans_left: int | None
    """Loans the bank can still give, None where the title has no loans."""
    depot: tuple[DepotTrains, ...]
    """By name, in depot order."""
    pool_trains: tuple[str, ...]
    """Names of the trains in the bank pool."""
    rusted: int
    """Trains rusted so far."""


@dataclass(frozen=True, slots=True)
class Consent:
    """A deal waiting for one player's consent (1822CA rulebook mode)."""

    player: str
    deal: Action


@dataclass(frozen=True, slots=True)
class StandingBid:
    """The high bid of an open auction."""

    item: str
    """The private or corporation auctioned."""
    player: str
    price: int


@dataclass(frozen=True, slots=True)
class TileSupply:
    """One tile of the supply."""

    name: str
    tile: TileDef
    left: int | None
    """Copies left, None when unlimited."""


class GameView:
    """Read-only questions a UI asks about a game (a title overrides the hooks).

    Args:
        game: the game read; the view keeps no state of its own.
    """

    def __init__(self, game: Game) -> None:
        self._game = game

    # -- the round and the market -------------------------------------------------------
    def round(self) -> RoundView:
        """The round now."""
        g = self._game
        r = g.round
        return RoundView(None if r is None else r.kind.value, g.turn,
                         0 if r is None else r.round_num, g.finished, g.actions_applied)

    def market(self) -> tuple[MarketSpace, ...]:
        """Every space of the stock market, in the market's order."""
        m = self._game.market
        return tuple(MarketSpace(c.row, c.col, c.price, frozenset(c.types),
                                 tuple(m.stacks.get(coord, ())))
                     for coord, c in m.cells.items())

    # -- players -------------------------------------------------------------------------
    def players(self) -> tuple[PlayerView, ...]:
        """Every player, in seating order."""
        return tuple(self.player(p.id) for p in self._game.players)

    def player_values(self) -> tuple[tuple[str, int, int], ...]:
        """(name, cash, value) of every player in seating order (cheaper than
        :meth:`players` where only the worth is wanted)."""
        g = self._game
        return tuple((p.name, g.cash.get(p.id, 0), g.player_value(p.id)) for p in g.players)

    def player(self, pid: str) -> PlayerView:
        """One player."""
        g = self._game
        holdings = []
        for cid in g.corps:
            pct = g.percent_of(pid, cid)
            if pct:
                holdings.append(Holding(cid, pct, g.president(cid) == pid))
        privates = tuple(c.id for c in g.companies.values() if c.owner == pid and not c.closed)
        return PlayerView(pid, g.name_of(pid), g.cash.get(pid, 0), g.num_certs(pid),
                          self.cert_limit(), self.debt(pid), g.player_value(pid), privates,
                          tuple(holdings))

    # -- corporations and privates -------------------------------------------------------
    def corporations(self) -> tuple[CorpView, ...]:
        """Every corporation, in the title's order."""
        return tuple(self._corp(cid) for cid in self._game.corps)

    def corporation(self, cid: str) -> CorpView | None:
        """One corporation, None when there is no such id."""
        return self._corp(cid) if cid in self._game.corps else None

    def _corp(self, cid: str) -> CorpView:
        g = self._game
        corp = g.corps[cid]
        started = not corp.closed and (corp.ipoed or corp.floated
                                       or corp.kind is CorpKind.NATIONAL)
        price = g.market.price(cid) if cid in g.market.where else None
        loans = corp.loans if self.has_loans() else None
        return CorpView(
            cid, corp.name, corp.kind, g.owner(cid), started, corp.floated, corp.closed, price,
            g.cash.get(cid, 0), tuple(g.trains[t].name for t in corp.trains),
            tuple(corp.trains), g.train_limit(cid),
            sum(1 for t in corp.tokens if not t.used), len(corp.tokens),
            g.percent_of(cid, cid), g.percent_of(POOL, cid), loans, tuple(corp.companies))

    def privates(self) -> tuple[PrivateView, ...]:
        """Every private company, in the title's order."""
        return tuple(PrivateView(c.id, c.name, c.value, c.revenue, c.owner, c.closed)
                     for c in self._game.companies.values())

    def private(self, company: str) -> PrivateView | None:
        """One private company, None when there is no such id."""
        c = self._game.companies.get(company)
        return None if c is None else PrivateView(c.id, c.name, c.value, c.revenue, c.owner,
                                                  c.closed)

    def train(self, tid: str) -> TrainView | None:
        """One train by id, None when there is no such train."""
        t = self._game.trains.get(tid)
        return None if t is None else TrainView(t.id, t.name, t.distance, t.price, t.owner,
                                                t.rusts_on, t.rusted)

    def share_prices(self) -> dict[str, int]:
        """Share price of every corporation on the market (cheap: the price history
        samples it at many positions)."""
        m = self._game.market
        return {cid: m.price(cid) for cid in self._game.corps if cid in m.where}

    # -- the bank ------------------------------------------------------------------------
    def phase_tiles(self) -> tuple[str, ...]:
        """Tile colours of the phase now (cheap)."""
        g = self._game
        return tuple(g.phase.tiles) if g.phases else ()

    def bank_cash(self) -> int:
        """The bank's cash (cheap)."""
        return self._game.cash.get(BANK, 0)

    def bank(self) -> BankView:
        """Bank cash, phase, loans and trains."""
        g = self._game
        phase = g.phase if g.phases else None
        unlimited = self.unlimited_trains()
        counts: dict[str, int] = {}
        first: dict[str, int] = {}
        for i, tid in enumerate(g.depot):
            name = g.trains[tid].name
            counts[name] = counts.get(name, 0) + 1
            first.setdefault(name, i)
        depot = []
        for name, n in counts.items():
            t = g.trains[g.depot[first[name]]]
            depot.append(DepotTrains(name, None if name in unlimited else n, t.price,
                                     t.rusts_on))
        return BankView(
            g.cash.get(BANK, 0), None if phase is None else phase.name,
            () if phase is None else tuple(phase.train_limit.items()),
            () if phase is None else tuple(phase.tiles), self.loans_left(), tuple(depot),
            tuple(t.name for t in g.trains.values() if t.owner == POOL),
            sum(1 for t in g.trains.values() if t.rusted and t.owner != DEPOT))

    # -- title hooks ---------------------------------------------------------------------
    def cert_limit(self) -> int | None:
        """The certificate limit now, None where the title has none (title)."""
        return None

    def debt(self, pid: str) -> int:
        """What ``pid`` owes the bank (title; 0 by default)."""
        return 0

    def has_loans(self) -> bool:
        """True where corporations take loans (title)."""
        return False

    def loans_left(self) -> int | None:
        """Loans the bank can still give, None without loans (title)."""
        return None

    def unlimited_trains(self) -> frozenset[str]:
        """Train names the depot never runs out of (title)."""
        return frozenset()

    def startable(self) -> tuple[str, ...]:
        """Corporations a player may start now where the title limits them (1867's
        available minors and majors); empty elsewhere (title)."""
        return ()

    def standing_bid(self) -> StandingBid | None:
        """The high bid of the auction open now (1867: a private, or a minor in a
        stock round), None before its first bid or without an auction (title)."""
        return None

    def acquires_minors(self) -> bool:
        """True where a ``merge`` is a major acquiring a minor (1822CA), not a merger
        of companies (title)."""
        return False

    def pending_consent(self) -> Consent | None:
        """A deal waiting for a player's consent, or None (title)."""
        return None

    def attach_labels(self, corp: str) -> Mapping[str, str]:
        """Choice -> label of the attachments ``corp`` must place before its run
        (1822CA's Pullman and grain train); empty elsewhere (title)."""
        return {}

    def route_trains(self, corp: str) -> tuple[str, ...]:
        """Ids of the trains of ``corp`` that run a route of their own (title; all its
        trains by default)."""
        return tuple(self._game.corps[corp].trains)

    def tile_supply(self) -> Mapping[str, TileSupply]:
        """Every tile of the manifest by name, with the copies left (title)."""
        return {}

    def next_copy(self, name: str) -> str | None:
        """The copy id of tile ``name`` a lay would take, None when none is left (title)."""
        return None

    def tile_def(self, name: str) -> TileDef:
        """The definition of tile ``name`` (title).

        Raises:
            KeyError: no such tile.
        """
        return self.tile_supply()[name].tile

    def hex_def(self, hex_id: str) -> HexDef:
        """The printed hex ``hex_id`` (title).

        Raises:
            KeyError: no such hex.
        """
        raise KeyError(hex_id)
