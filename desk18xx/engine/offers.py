"""What a player may do now, as typed immutable values (STYLE.md §4; issue 15).

A title answers `Game.offers` with a tuple of offers for an entity: each says
exactly what is possible and, where a move of that kind exists but is not
allowed, why not (``why_not``, in a player's words).  `match_offer` is the
door: an action is legal only when it matches an allowed offer, and every field
the engine can compute (a price, a percent, a total, the certificates of a
bundle) is checked against the offer, never taken from the action.  A refusal
names the field and the rule (``"share_price: GT's issue price is $90, not
$1000 (RB 5.19)"``).

This module knows no title: the offers are built by the titles
(``desk18xx/titles/*/offers.py``) from their own state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

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
    HexToken,
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
from desk18xx.engine.state import Share

if TYPE_CHECKING:
    from desk18xx.engine.game import Game

#: The share-offer kinds and the action type each is made with.
SHARE_KINDS: Mapping[str, str] = {"buy": BuyShares.type, "redeem": BuyShares.type,
                                  "sell": SellShares.type, "issue": SellShares.type}


def _money(amount: int) -> str:
    return f"${amount:,}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Offer:
    """Base of every offer: a move of some kind, allowed when ``why_not`` is None."""

    types: ClassVar[tuple[str, ...]] = ()
    """The action types this offer is made with."""
    why_not: str | None = None
    """None when the move is allowed now, else the reason a player reads."""
    rule: str = ""
    """Where the rule is written (``"RB 5.19"``), named in refusals; may be empty."""
    playout_skip: str | None = None
    """Why random play leaves this allowed move alone (it would stall a random game:
    18xx.games holding the round until an undo); None: it may be drawn."""

    @property
    def allowed(self) -> bool:
        """True when the move may be made now."""
        return self.why_not is None

    def concerns(self, action: Action) -> bool:
        """True when ``action`` is a move of this offer (its identity fields agree);
        the computed fields are checked by :meth:`mismatch`."""
        return action.type in self.types

    def mismatch(self, action: Action) -> str | None:
        """What in ``action`` disagrees with this offer (field and rule), or None."""
        return None

    def moves(self, entity: str, entity_type: str) -> tuple[Action, ...]:
        """Concrete actions of this offer by ``entity`` (all of them where there are
        few, else the ends of a range); empty when it is not allowed or is not
        concrete enough (a run)."""
        return ()

    def sample(self, entity: str, entity_type: str, rng: random.Random) -> Action | None:
        """One move of this offer by ``entity``, drawn with ``rng`` (random play);
        None when it is not allowed or has no move.  Deterministic under ``rng``: the
        same offer and the same generator state give the same move."""
        if self.why_not is not None:
            return None
        moves = self.moves(entity, entity_type)
        return rng.choice(moves) if moves else None

    def _cite(self, text: str) -> str:
        return f"{text} ({self.rule})" if self.rule else text


@dataclass(frozen=True, slots=True, kw_only=True)
class PassOffer(Offer):
    """End the step or the turn."""

    types: ClassVar[tuple[str, ...]] = (Pass.type,)

    def moves(self, entity: str, entity_type: str) -> tuple[Action, ...]:
        return () if self.why_not else (Pass(entity=entity, entity_type=entity_type),)


@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseOffer(Offer):
    """A named choice (``choice`` as in `Choose.choice`) with its label."""

    types: ClassVar[tuple[str, ...]] = (Choose.type,)
    choice: str
    label: str = ""

    def concerns(self, action: Action) -> bool:
        return isinstance(action, Choose) and action.choice == self.choice

    def moves(self, entity: str, entity_type: str) -> tuple[Action, ...]:
        if self.why_not:
            return ()
        return (Choose(entity=entity, entity_type=entity_type, choice=self.choice),)


@dataclass(frozen=True, slots=True, kw_only=True)
class ShareOffer(Offer):
    """Buy, sell, issue or redeem one bundle of certificates of ``corporation``.

    ``shares`` are the certificates of the bundle as the engine would pick them;
    certificates in ``fungible`` (same holder, same size, not a director's) may
    stand in for one another (which of two equal certificates moves is the
    player's choice).  ``percent`` is what the bundle sells (below the
    certificates' total when part of a director's certificate is exchanged),
    ``price`` the price of each 10 % and ``total`` what changes hands."""

    kind: str
    """``"buy"``, ``"sell"``, ``"issue"`` or ``"redeem"``."""
    corporation: str
    shares: tuple[str, ...]
    percent: int
    price: int
    total: int
    source: str
    """Who holds the certificates now (the company's treasury, the pool, a player)."""
    fungible: frozenset[str] = field(default_factory=frozenset)
    price_as_recorded: bool = False
    """The action's own ``share_price`` is taken (a compatibility point the title
    names: 18xx.games reloading a game trusts a recorded issue price)."""

    @property
    def types(self) -> tuple[str, ...]:  # type: ignore[override]
        return (SHARE_KINDS[self.kind],)

    def concerns(self, action: Action) -> bool:
        if not isinstance(action, BuyShares | SellShares) \
                or action.type != SHARE_KINDS[self.kind]:
            return False
        named = set(action.shares)
        if len(named) != len(action.shares) or len(named) != len(self.shares):
            return False
        fixed = set(self.shares) - self.fungible
        return fixed <= named and named - fixed <= self.fungible

    def moves(self, entity: str, entity_type: str) -> tuple[Action, ...]:
        if self.why_not:
            return ()
        cls = BuyShares if SHARE_KINDS[self.kind] == BuyShares.type else SellShares
        return (cls(entity=entity, entity_type=entity_type, shares=self.shares,
                    percent=self.percent),)

    def mismatch(self, action: Action) -> str | None:
        assert isinstance(action, BuyShares | SellShares)
        what = {"buy": "price", "sell": "sale price", "issue": "issue price",
                "redeem": "redemption price"}[self.kind]
        if action.percent is not None and action.percent != self.percent:
            return self._cite(f"percent: this {self.corporation} bundle is {self.percent}%, "
                              f"not {action.percent}%")
        if self.price_as_recorded:
            return None
        if action.share_price is not None and action.share_price != self.price:
            return self._cite(f"share_price: {self.corporation}'s {what} is "
                              f"{_money(self.price)}, not {_money(action.share_price)}")
        total = getattr(action, "total_price", None)
        if total is not None and total != self.total:
            return self._cite(f"total_price: the bundle costs {_money(self.total)}, "
                              f"not {_money(total)}")
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class ParCell:
    """One start price of a `ParOffer`."""

    share_price: str
    """Market cell id, as in `Par.share_price`."""
    price: int
    cost: int
    """What the player pays at this price."""
    why_not: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ParOffer(Offer):
    """Start ``corporation`` at one of ``cells``."""

    types: ClassVar[tuple[str, ...]] = (Par.type,)
    corporation: str
    cells: tuple[ParCell, ...] = ()

    def concerns(self, action: Action) -> bool:
        return isinstance(action, Par) and action.corporation == self.corporation

    def moves(self, entity: str, entity_type: str) -> tuple[Action, ...]:
        if self.why_not:
            return ()
        return tuple(Par(entity=entity, entity_type=entity_type, corporation=self.corporation,
                         share_price=c.share_price) for c in self.cells if c.why_not is None)

    def cell(self, share_price: str) -> ParCell | None:
        """The start price with this cell id, if offered."""
        return next((c for c in self.cells if c.share_price == share_price), None)

    def mismatch(self, action: Action) -> str | None:
        assert isinstance(action, Par)
        cell = self.cell(action.share_price)
        if cell is None:
            prices = ", ".join(_money(c.price) for c in self.cells)
            return self._cite(f"share_price: {action.share_price!r} is not a start price of "
                              f"{self.corporation} (offered: {prices or 'none'})")
        if cell.why_not is not None:
            return f"share_price: {self.corporation} at {_money(cell.price)}: {cell.why_not}"
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class BidOffer(Offer):
    """Bid on ``company`` (a private, a minor, a concession): ``minimum`` up to
    ``maximum`` in steps of ``step`` counted from ``step_from``."""

    types: ClassVar[tuple[str, ...]] = (Bid.type,)
    company: str
    minimum: int
    maximum: int
    step: int = 5
    step_from: int | None = None
    target: str = "company"
    """The `Bid` field naming what is bid on (``"company"`` or ``"corporation"``)."""
    spread: int = 4
    """How many steps above the minimum a random bid goes at most (`sample`)."""

    def concerns(self, action: Action) -> bool:
        return isinstance(action, Bid) and self.company in (action.company,
                                                             action.corporation)

    def moves(self, entity: str, entity_type: str) -> tuple[Action, ...]:
        if self.why_not or self.minimum > self.maximum:
            return ()
        base = self.minimum if self.step_from is None else self.step_from
        top = self.maximum - (self.maximum - base) % self.step if self.step > 1 \
            else self.maximum
        prices = sorted({self.minimum, max(self.minimum, top)})
        on_corp = self.target == "corporation"
        return tuple(Bid(entity=entity, entity_type=entity_type, price=p,
                         company=None if on_corp else self.company,
                         corporation=self.company if on_corp else None) for p in prices)

    def sample(self, entity: str, entity_type: str, rng: random.Random) -> Action | None:
        """A bid at the minimum or a few steps above it (random play bids low:
        ``spread`` steps at most), within the maximum."""
        if self.why_not or self.minimum > self.maximum:
            return None
        base = self.minimum if self.step_from is None else self.step_from
        first = self.minimum if self.step <= 1 or (self.minimum - base) % self.step == 0 \
            else self.minimum + self.step - (self.minimum - base) % self.step
        if first > self.maximum:
            return None
        room = (self.maximum - first) // max(1, self.step)
        price = first + max(1, self.step) * rng.randint(0, min(self.spread, room))
        on_corp = self.target == "corporation"
        return Bid(entity=entity, entity_type=entity_type, price=price,
                   company=None if on_corp else self.company,
                   corporation=self.company if on_corp else None)

    def mismatch(self, action: Action) -> str | None:
        assert isinstance(action, Bid)
        if action.price < self.minimum:
            return self._cite(f"price: the minimum bid on {self.company} is "
                              f"{_money(self.minimum)}, not {_money(action.price)}")
        base = self.minimum if self.step_from is None else self.step_from
        if self.step > 1 and (action.price - base) % self.step:
            return self._cite(f"price: bids on {self.company} rise in multiples "
                              f"of {_money(self.step)}")
        if action.price > self.maximum:
            return self._cite(f"price: cannot afford {_money(action.price)} on "
                              f"{self.company}; at most {_money(self.maximum)}")
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class TrainOffer(Offer):
    """Buy ``train`` (as ``variant``, trading in ``exchange``) from ``seller`` for
    ``price`` or, between companies, anything from ``min_price`` to ``max_price``."""

    types: ClassVar[tuple[str, ...]] = (BuyTrain.type,)
    train: str
    name: str
    seller: str
    price: int | None = None
    min_price: int = 1
    max_price: int = 0
    variant: str | None = None
    exchange: str | None = None
    aliases: frozenset[str] = field(default_factory=frozenset)
    """Other train ids that name this purchase (18xx.games records the first L-train's
    id for whichever comes next)."""
    list_price: int | None = None
    """The train's printed price, for a ranged offer (random play pays at most this)."""

    def concerns(self, action: Action) -> bool:
        if not isinstance(action, BuyTrain) \
                or (action.train != self.train and action.train not in self.aliases) \
                or (action.exchange or None) != self.exchange:
            return False
        return self.variant is None or (action.variant or self.name) == self.variant

    def moves(self, entity: str, entity_type: str) -> tuple[Action, ...]:
        if self.why_not:
            return ()
        prices = [self.price] if self.price is not None else sorted(
            {self.min_price, self.max_price})
        return tuple(BuyTrain(entity=entity, entity_type=entity_type, train=self.train,
                              price=p, variant=self.variant, exchange=self.exchange)
                     for p in prices if p is not None and p >= self.min_price
                     and (self.price is not None or p <= self.max_price))

    def sample(self, entity: str, entity_type: str, rng: random.Random) -> Action | None:
        """The price, or between companies a price drawn from the range (up to
        ``list_price`` when one is given: random play does not overpay)."""
        if self.why_not:
            return None
        if self.price is not None:
            price = self.price
        else:
            top = self.max_price if self.list_price is None \
                else min(self.max_price, max(self.min_price, self.list_price))
            if top < self.min_price:
                return None
            price = rng.randint(self.min_price, top)
        return BuyTrain(entity=entity, entity_type=entity_type, train=self.train,
                        price=price, variant=self.variant, exchange=self.exchange)

    def mismatch(self, action: Action) -> str | None:
        assert isinstance(action, BuyTrain)
        label = self.variant or self.name
        if self.price is not None:
            if action.price != self.price:
                what = f"trading in {self.exchange} for " if self.exchange else ""
                return self._cite(f"price: {what}the {label} train costs "
                                  f"{_money(self.price)}, not {_money(action.price)}")
        elif not self.min_price <= action.price <= self.max_price:
            return self._cite(f"price: {self.train} from {self.seller} costs "
                              f"{_money(self.min_price)} to {_money(self.max_price)}, "
                              f"not {_money(action.price)}")
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class TokenOffer(Offer):
    """Place a station token in ``city`` of ``hex`` (a free slot of ``slots``) for ``cost``."""

    types: ClassVar[tuple[str, ...]] = (PlaceToken.type, HexToken.type)
    hex: str
    city: str
    """City id as in `PlaceToken.city`."""
    index: int = 0
    """The city's number in its hex."""
    slots: tuple[int, ...] = ()
    cost: int = 0

    def concerns(self, action: Action) -> bool:
        if isinstance(action, PlaceToken):
            return action.city == self.city
        return isinstance(action, HexToken) and action.hex == self.hex

    def moves(self, entity: str, entity_type: str) -> tuple[Action, ...]:
        if self.why_not:
            return ()
        return (PlaceToken(entity=entity, entity_type=entity_type, city=self.city),)

    def mismatch(self, action: Action) -> str | None:
        cost = getattr(action, "cost", None)
        if cost is not None and cost != self.cost:
            return self._cite(f"cost: a token in {self.hex} costs {_money(self.cost)}, "
                              f"not {_money(cost)}")
        slot = getattr(action, "slot", None)
        if isinstance(action, PlaceToken) and slot is not None and self.slots \
                and slot not in self.slots:
            return self._cite(f"slot: slot {slot} of {self.city} is not free")
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class TileLayOffer(Offer):
    """Lay one of ``tiles`` (tile name -> rotations) on ``hex`` for ``cost``.

    ``refused`` names, for each tile of the supply a player could try here and may
    not lay, the rule that forbids it ("Ottawa takes only its Y tiles: ..."); the
    offer's own ``why_not`` is set when no tile may be laid on the hex now (the
    hex was laid this turn, the company cannot pay...).  ``costs`` lists the lays
    that cost more than ``cost`` (a river crossed at one rotation only).  The
    offer the door builds for one lay (`Game.deciding_offers`) asks about that
    tile only, and lists that rotation alone when it fits (the others are asked
    only to name them when it does not)."""

    types: ClassVar[tuple[str, ...]] = (LayTile.type,)
    hex: str
    tiles: tuple[tuple[str, tuple[int, ...]], ...] = ()
    cost: int = 0
    """What the cheapest lay costs (terrain, and a further lay's fee)."""
    costs: tuple[tuple[str, int, int], ...] = ()
    """(tile, rotation, cost) where a lay costs other than ``cost``."""
    second_lay: bool = False
    """A further lay of the turn (1867: $20 and yellow only; 1822CA: yellow only, or
    the acquisition's bonus lay)."""
    by: str = ""
    """The company whose network and cash the lay uses (a private's owner for the
    private's lay; empty: the entity asking)."""
    refused: tuple[tuple[str, str], ...] = ()
    """(tile, why not) for the tiles that do not go on this hex now."""
    turned: tuple[tuple[str, int, str], ...] = ()
    """(tile, rotation, why not) for rotations refused by a rule other than the fit
    (a river crossing the company cannot pay)."""
    copies: tuple[tuple[str, str], ...] = ()
    """(tile, the supply copy id a move lays)."""
    label: str = ""
    """The hex as players name it (``"Ottawa (J12)"``)."""

    def concerns(self, action: Action) -> bool:
        return isinstance(action, LayTile) and action.hex == self.hex

    @property
    def where(self) -> str:
        """The hex in players' words."""
        return self.label or self.hex

    def rotations(self, name: str) -> tuple[int, ...]:
        """Rotations at which tile ``name`` may be laid (empty: not offered)."""
        return dict(self.tiles).get(name, ())

    def refusal(self, name: str) -> str | None:
        """Why tile ``name`` may not be laid here now (None: it may, at some rotation)."""
        if self.why_not is not None:
            return self.why_not
        if name in dict(self.tiles):
            return None
        why = dict(self.refused).get(name)
        return why or f"tile {name} does not fit {self.where}"

    def cost_of(self, name: str, rotation: int) -> int:
        """What laying tile ``name`` at ``rotation`` costs."""
        for tile, rot, cost in self.costs:
            if tile == name and rot == rotation:
                return cost
        return self.cost

    def moves(self, entity: str, entity_type: str) -> tuple[Action, ...]:
        if self.why_not:
            return ()
        copies = dict(self.copies)
        return tuple(LayTile(entity=entity, entity_type=entity_type, hex=self.hex,
                             tile=copies.get(name, name), rotation=r)
                     for name, rotations in self.tiles for r in rotations)

    def sample(self, entity: str, entity_type: str, rng: random.Random) -> Action | None:
        """A tile drawn among those that fit, then one of its rotations."""
        if self.why_not or not self.tiles:
            return None
        name, rotations = rng.choice(self.tiles)
        if not rotations:
            return None
        return LayTile(entity=entity, entity_type=entity_type, hex=self.hex,
                       tile=dict(self.copies).get(name, name), rotation=rng.choice(rotations))

    def mismatch(self, action: Action) -> str | None:
        assert isinstance(action, LayTile)
        name = tile_name(action.tile)
        rotations = self.rotations(name)
        if not rotations:
            why = self.refusal(name)
            return f"tile: {why}" if why and self.rule and self.rule in why \
                else self._cite(f"tile: {why}")
        if action.rotation not in rotations:
            why = next((w for t, r, w in self.turned
                        if t == name and r == action.rotation), None)
            if why is not None:
                return f"rotation: {why}"
            return self._cite(f"rotation: tile {name} on {self.where} fits turned "
                              f"{', '.join(map(str, rotations))}, not {action.rotation}")
        return None


def lay_hexes_of(offers: Iterable[Offer]) -> frozenset[str]:
    """The hexes of the allowed tile-lay offers among ``offers`` that list a tile:
    what `Game.lay_hexes` answers (a title answers it with an early exit; the oracle
    tests hold the two equal)."""
    return frozenset(o.hex for o in offers
                     if isinstance(o, TileLayOffer) and o.allowed and o.tiles)


def lay_tiles_of(offers: Iterable[Offer]) -> frozenset[str]:
    """The tiles the allowed tile-lay offers among ``offers`` list, on any hex: what
    `Game.lay_tiles` answers (a title answers it with an early exit)."""
    return frozenset(name for o in offers if isinstance(o, TileLayOffer) and o.allowed
                     for name, _rots in o.tiles)


def tile_name(tile_id: str) -> str:
    """The tile number of a supply copy id (``"57-1"`` -> ``"57"``)."""
    name, sep, copy = tile_id.rpartition("-")
    return name if sep and copy.isdigit() else tile_id


def focus_of(shares: Mapping[str, Share], action: Action) -> str | None:
    """What ``action`` is about, so the door builds only the offers about it: the
    corporation of its first certificate (``shares`` by id), the company or
    corporation bid on or started, the train bought, the city tokened, and for a lay
    its hex (a question about the hex: every tile, every rotation) or its hex, tile and
    rotation (that lay is asked first)."""
    match action:
        case BuyShares() | SellShares():
            share = shares.get(action.shares[0]) if action.shares else None
            return None if share is None else share.corp
        case Par():
            return action.corporation or None
        case Bid():
            return action.company or action.corporation or None
        case BuyTrain():
            return action.train or None
        case PlaceToken():
            return action.city or None
        case LayTile():
            if not action.hex:
                return None
            if not action.tile:
                return action.hex
            return f"{action.hex}/{tile_name(action.tile)}/{action.rotation}"
        case BuyCompany():
            return action.company or None
        case DiscardTrain():
            return action.train or None
        case RemoveToken():
            return action.city or None
        case Merge():
            return action.corporation or None
        case Dividend():
            return action.kind or None
        case Choose():
            return action.choice or None
    return None


RouteFinder = Callable[[random.Random], tuple[Route, ...]]
"""Routes for a run, drawn with the generator (a `RouteOffer`'s ``find``)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RouteOffer(Offer):
    """Run ``trains``, each at most once (their revenue is the engine's, never the
    declared one: the step recomputes it from the routes)."""

    types: ClassVar[tuple[str, ...]] = (RunRoutes.type,)
    trains: tuple[str, ...] = ()
    """The trains that may run now."""
    extra_revenue: int = 0
    """What a run adds beyond its routes (none in 1867); an action naming another
    amount is refused."""
    find: RouteFinder | None = field(default=None, compare=False, hash=False, repr=False)
    """Routes for random play, found when :meth:`sample` asks (in the position the
    offer was made in: use the offer before the game moves on)."""

    def moves(self, entity: str, entity_type: str) -> tuple[Action, ...]:
        return ()

    def sample(self, entity: str, entity_type: str, rng: random.Random) -> Action | None:
        """A run of the routes ``find`` draws (none without it: the empty run)."""
        if self.why_not is not None:
            return None
        routes = self.find(rng) if self.find is not None else ()
        return RunRoutes(entity=entity, entity_type=entity_type, routes=routes)

    def mismatch(self, action: Action) -> str | None:
        assert isinstance(action, RunRoutes)
        seen: set[str] = set()
        for route in action.routes:
            if route.train not in self.trains:
                open_ = ", ".join(self.trains) or "none"
                return self._cite(f"routes: train {route.train} cannot run now "
                                  f"(trains to run: {open_})")
            if route.train in seen:
                return self._cite(f"routes: train {route.train} runs twice")
            seen.add(route.train)
        if action.extra_revenue not in (None, self.extra_revenue):
            return self._cite(f"extra_revenue: this run adds {_money(self.extra_revenue)}, "
                              f"not {_money(action.extra_revenue or 0)}")
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class DividendOffer(Offer):
    """Pay the run's ``revenue`` as ``kind`` (``"payout"``, ``"withhold"``, ``"half"``);
    the treasury keeps ``kept``."""

    types: ClassVar[tuple[str, ...]] = (Dividend.type,)
    kind: str
    revenue: int = 0
    kept: int = 0
    amount: int | None = None
    """The amount a variable dividend names; None: the action names none."""

    def concerns(self, action: Action) -> bool:
        return isinstance(action, Dividend) and action.kind == self.kind

    def moves(self, entity: str, entity_type: str) -> tuple[Action, ...]:
        if self.why_not:
            return ()
        return (Dividend(entity=entity, entity_type=entity_type, kind=self.kind,
                         amount=self.amount),)

    def mismatch(self, action: Action) -> str | None:
        assert isinstance(action, Dividend)
        if action.amount is not None and action.amount != self.amount:
            what = "none" if self.amount is None else _money(self.amount)
            return self._cite(f"amount: a {self.kind} of {_money(self.revenue)} names "
                              f"{what}, not {_money(action.amount)}")
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class CompanyOffer(Offer):
    """Buy private ``company`` from ``seller`` for ``min_price`` to ``max_price``."""

    types: ClassVar[tuple[str, ...]] = (BuyCompany.type,)
    company: str
    seller: str
    min_price: int = 1
    max_price: int = 0

    def concerns(self, action: Action) -> bool:
        return isinstance(action, BuyCompany) and action.company == self.company

    def moves(self, entity: str, entity_type: str) -> tuple[Action, ...]:
        if self.why_not or self.min_price > self.max_price:
            return ()
        return tuple(BuyCompany(entity=entity, entity_type=entity_type, company=self.company,
                                price=p) for p in sorted({self.min_price, self.max_price}))

    def sample(self, entity: str, entity_type: str, rng: random.Random) -> Action | None:
        if self.why_not or self.min_price > self.max_price:
            return None
        return BuyCompany(entity=entity, entity_type=entity_type, company=self.company,
                          price=rng.randint(self.min_price, self.max_price))

    def mismatch(self, action: Action) -> str | None:
        assert isinstance(action, BuyCompany)
        if not self.min_price <= action.price <= self.max_price:
            return self._cite(f"price: {self.company} costs {_money(self.min_price)} to "
                              f"{_money(self.max_price)}, not {_money(action.price)}")
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class DiscardOffer(Offer):
    """Discard ``train`` (over the train limit)."""

    types: ClassVar[tuple[str, ...]] = (DiscardTrain.type,)
    train: str
    name: str = ""

    def concerns(self, action: Action) -> bool:
        return isinstance(action, DiscardTrain) and action.train == self.train

    def moves(self, entity: str, entity_type: str) -> tuple[Action, ...]:
        if self.why_not:
            return ()
        return (DiscardTrain(entity=entity, entity_type=entity_type, train=self.train),)


@dataclass(frozen=True, slots=True, kw_only=True)
class RemoveTokenOffer(Offer):
    """Take the station token in slot ``slot`` of ``city`` (on ``hex``) off the map."""

    types: ClassVar[tuple[str, ...]] = (RemoveToken.type,)
    hex: str
    city: str
    slot: int = 0

    def concerns(self, action: Action) -> bool:
        return isinstance(action, RemoveToken) and action.city == self.city

    def moves(self, entity: str, entity_type: str) -> tuple[Action, ...]:
        if self.why_not:
            return ()
        return (RemoveToken(entity=entity, entity_type=entity_type, city=self.city,
                            slot=self.slot),)

    def mismatch(self, action: Action) -> str | None:
        assert isinstance(action, RemoveToken)
        if action.slot != self.slot:
            return self._cite(f"slot: the token in {self.hex} is in slot {self.slot}, "
                              f"not {action.slot}")
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class MergeOffer(Offer):
    """Name ``corporation`` in a merger (a minor to merge with, or the major formed)."""

    types: ClassVar[tuple[str, ...]] = (Merge.type,)
    corporation: str
    role: str = "minor"
    """``"minor"`` (merge with it) or ``"major"`` (the major formed)."""

    def concerns(self, action: Action) -> bool:
        return isinstance(action, Merge) and action.corporation == self.corporation

    def moves(self, entity: str, entity_type: str) -> tuple[Action, ...]:
        if self.why_not:
            return ()
        return (Merge(entity=entity, entity_type=entity_type, corporation=self.corporation),)

    def mismatch(self, action: Action) -> str | None:
        assert isinstance(action, Merge)
        if action.minor is not None:
            return self._cite(f"minor: a merge names {self.corporation} only, "
                              f"not {action.minor}")
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class ConvertOffer(Offer):
    """Start converting the acting minor into a major."""

    types: ClassVar[tuple[str, ...]] = (Convert.type,)

    def moves(self, entity: str, entity_type: str) -> tuple[Action, ...]:
        if self.why_not:
            return ()
        return (Convert(entity=entity, entity_type=entity_type),)


def sample_moves(offers: Iterable[Offer], entity: str, entity_type: str,
                 rng: random.Random) -> list[Action]:
    """One move drawn from each allowed offer (`Offer.sample`), in the offers' order:
    what random play picks from.  Deterministic under ``rng``."""
    out: list[Action] = []
    for offer in offers:
        if offer.why_not is None and offer.playout_skip is None:
            move = offer.sample(entity, entity_type, rng)
            if move is not None:
                out.append(move)
    return out


def entity_type_of(game: Game, entity: str) -> str:
    """The `Action.entity_type` of ``entity``: a player, a corporation or a company."""
    if game.is_player(entity):
        return "player"
    return "corporation" if entity in game.corps else "company"


def offered_moves(game: Game, rng: random.Random,
                  types: Collection[str] | None = None) -> list[Action]:
    """The moves random play picks from now: one drawn from each allowed offer of
    whoever acts (`Game.acting_entities`, `Game.random_offers`, of ``types`` only when
    given).  Deterministic under ``rng``."""
    out: list[Action] = []
    for entity in game.acting_entities():
        out.extend(sample_moves(game.random_offers(entity, rng, types), entity,
                                entity_type_of(game, entity), rng))
    return out


def pick_move(moves: Sequence[Action], rng: random.Random,
              pass_weight: float = 0.25) -> Action:
    """A random move of ``moves`` (not empty): a pass with probability ``pass_weight``
    when there are others, else one of the others."""
    passes = [m for m in moves if isinstance(m, Pass)]
    others = [m for m in moves if not isinstance(m, Pass)]
    if others and (not passes or rng.random() > pass_weight):
        return rng.choice(others)
    return rng.choice(passes or list(moves))


def match_offer(offers: Iterable[Offer], action: Action) -> Offer:
    """The allowed offer ``action`` is a move of, with every computed field agreeing.

    Raises:
        IllegalAction: no offer concerns the action; or each that does is not
            allowed now (its ``why_not``) or disagrees on a field (the field and
            the rule are named).
    """
    concerned = [o for o in offers if o.concerns(action)]
    if not concerned:
        raise IllegalAction(f"{action.type} by {action.entity}: not one of the moves "
                            "open now")
    problems: list[str] = []
    for offer in concerned:
        if offer.why_not is not None:
            continue
        problem = offer.mismatch(action)
        if problem is None:
            return offer
        problems.append(problem)
    if problems:
        raise IllegalAction(problems[0])
    reason = concerned[0].why_not
    assert reason is not None
    raise IllegalAction(concerned[0]._cite(reason) if concerned[0].rule
                        and concerned[0].rule not in reason else reason)


__all__ = [
    "SHARE_KINDS",
    "BidOffer",
    "ChooseOffer",
    "CompanyOffer",
    "ConvertOffer",
    "DiscardOffer",
    "DividendOffer",
    "MergeOffer",
    "Offer",
    "ParCell",
    "ParOffer",
    "PassOffer",
    "RemoveTokenOffer",
    "RouteFinder",
    "RouteOffer",
    "ShareOffer",
    "TileLayOffer",
    "TokenOffer",
    "TrainOffer",
    "entity_type_of",
    "match_offer",
    "offered_moves",
    "pick_move",
    "sample_moves",
    "tile_name",
]
