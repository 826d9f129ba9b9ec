"""Read-only views of bids and start prices for a user interface (no Qt).

Titles with bid boxes (1822CA rules 4.2) fill a :class:`BidBoxView` from
their own state in :meth:`desk18xx.engine.game.Game.bid_boxes`; titles
without them return ``None``.  The view also says, for the player to act,
why a box cannot be bid on now, and :class:`ParOption` why a start price
cannot be chosen, so a form can be greyed before a submit.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BoxBid:
    """One open bid in a box."""

    player: str
    """Player id of the bidder."""
    price: int
    winning: bool
    """True for the highest bid (the first of equal prices)."""


@dataclass(frozen=True, slots=True)
class BoxedCompany:
    """A company offered in a bid box, with its bids."""

    company: str
    """Company id (``"M6"``, ``"C2"``, ``"P10"``)."""
    kind: str
    """``"minor"``, ``"concession"`` or ``"private"``."""
    name: str
    value: int
    """Face value (0 for minors and concessions, whose bids start at $100)."""
    min_bid: int
    """Lowest bid accepted now (the opening minimum or the high bid + $5)."""
    bids: tuple[BoxBid, ...]
    problem: str | None = None
    """Why the player to act cannot bid here now (any amount); None if they can."""


@dataclass(frozen=True, slots=True)
class BidderView:
    """A player's position in the bidding."""

    player: str
    cash: int
    committed: int
    """Cash tied up in the player's winning bids."""
    tokens_left: int
    tokens: int
    """Bidding tokens a player has in all."""

    @property
    def available(self) -> int:
        """Cash a new bid may use."""
        return self.cash - self.committed


@dataclass(frozen=True, slots=True)
class BidBoxView:
    """Every box, every bidder, and who may bid now."""

    boxes: tuple[BoxedCompany, ...]
    bidders: tuple[BidderView, ...]
    acting: str | None = None
    """The player who may bid now, if any."""
    step: int = 5
    """Bids go in steps of this many dollars."""

    def box(self, company: str) -> BoxedCompany | None:
        """The box of ``company``, if it is offered."""
        return next((b for b in self.boxes if b.company == company), None)

    def bidder(self, player: str) -> BidderView | None:
        """The bidding position of ``player``."""
        return next((b for b in self.bidders if b.player == player), None)


@dataclass(frozen=True, slots=True)
class ParOption:
    """One start price a player may (or may not) choose for a company now."""

    share_price: str
    """Market cell id, as in ``Par.share_price``."""
    price: int
    cost: int
    """What the player pays for the director's certificate at this price."""
    problem: str | None = None
    """Why this price cannot be chosen now; None if it can."""
