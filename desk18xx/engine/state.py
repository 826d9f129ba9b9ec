"""Mutable game state records: players, companies, corporations, shares, trains.

Entities refer to each other by id.  Money lives in one table,
``GameState.cash`` (holder id -> amount; the bank is ``"bank"``), so a
transfer is one function and conservation is one sum.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from enum import StrEnum

BANK = "bank"
"""Holder id of the bank."""
POOL = "pool"
"""Holder id of the open market (bank pool) for shares."""
DEPOT = "depot"
"""Holder id of trains not yet sold, and of discarded trains."""


class CorpKind(StrEnum):
    """Kinds of corporation."""

    MINOR = "minor"
    MAJOR = "major"
    NATIONAL = "national"


@dataclass
class Player:
    """A seat at the table."""

    id: str
    name: str
    passed: bool = False


@dataclass
class Company:
    """A private company."""

    id: str
    name: str
    value: int
    revenue: int
    discount: int = 0
    """Face value minus this is the minimum opening bid."""
    bonus_hexes: tuple[str, ...] = ()
    bonus_amount: int = 0
    owner: str | None = None
    closed: bool = False

    @property
    def min_bid(self) -> int:
        """Current minimum bid (face value minus discount)."""
        return self.value - self.discount


_ARRIVALS = itertools.count(1)
"""Stamps for :attr:`Share.since` (only their order within one game matters)."""


@dataclass
class Share:
    """One certificate."""

    id: str
    corp: str
    percent: int
    president: bool
    owner: str
    """Player id, the corporation's own id (treasury), or :data:`POOL`."""
    since: int = field(default=0, compare=False, repr=False)
    """When the certificate came to its owner: holders keep certificates in order of
    arrival (18xx ``ShareHolder#shares_of``); set on every change of ``owner``."""

    def __setattr__(self, name: str, value: object) -> None:
        if name == "owner":
            object.__setattr__(self, "since", next(_ARRIVALS))
        object.__setattr__(self, name, value)


@dataclass
class Token:
    """A station token of a corporation."""

    price: int
    hex: str | None = None
    city: int | None = None
    """Index of the city on the tile of ``hex``."""

    @property
    def used(self) -> bool:
        """True when on the map."""
        return self.hex is not None


@dataclass
class Corporation:
    """A minor, major or national company."""

    id: str
    name: str
    kind: CorpKind
    token_prices: tuple[int, ...]
    tokens: list[Token] = field(default_factory=list)
    trains: list[str] = field(default_factory=list)
    """Train ids in purchase order."""
    companies: list[str] = field(default_factory=list)
    loans: int = 0
    ipoed: bool = False
    floated: bool = False
    operated: bool = False
    closed: bool = False
    max_ownership: int = 60
    par_price: int = 0

    @property
    def is_minor(self) -> bool:
        """True for a minor."""
        return self.kind is CorpKind.MINOR

    def next_token(self) -> Token | None:
        """The cheapest unused token, if any (18xx ``next_token``)."""
        for token in self.tokens:
            if not token.used:
                return token
        return None


@dataclass
class Train:
    """One train card."""

    id: str
    name: str
    distance: int
    price: int
    multiplier: int = 1
    owner: str = DEPOT
    rusts_on: str | None = None
    discount: dict[str, int] = field(default_factory=dict)
    available_on: str | None = None
    rusted: bool = False
    buyable: bool = True
    operated: bool = False
    express: bool = False
    """5+5E: counts off-boards first, any length."""
    pooled: int = 0
    """Place in the bank pool's discard order (1 for the first discard; 0 if never
    discarded); set by :meth:`Game.to_pool`."""
