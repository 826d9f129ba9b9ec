"""The facts of the step for the turn panel: what the acting entity has, and where an
auction stands (read-only views of the game, in plain sentences)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from desk18xx.engine.actions import Action
from desk18xx.engine.game import Game
from desk18xx.ui.models.choices import TurnInfo, deal_text, entity_name, pending_consent


@dataclass(frozen=True, slots=True)
class HighBid:
    """The standing bid of an open auction."""

    player: str
    """Name of the bidder."""
    price: int


def high_bid(game: Game, info: TurnInfo, actions: Sequence[Action] = ()) -> HighBid | None:
    """The standing bid on the item auctioned now (1867: a private in the private
    auction, a minor in a stock round), or None before the first bid: the game's
    view says it (`desk18xx.engine.view.GameView.standing_bid`); ``info`` and
    ``actions`` are not needed any more (kept for callers)."""
    top = game.view().standing_bid()
    return None if top is None else HighBid(game.name_of(top.player), top.price)


def _money(value: int) -> str:
    return f"-${-value}" if value < 0 else f"${value}"


def turn_facts(game: Game, info: TurnInfo, actions: Sequence[Action]) -> list[str]:
    """Short lines on the acting entity: a player's cash and certificates against the
    limit (and bidding cash in 1822CA's bid boxes); a company's cash, trains against
    the limit, tokens left and loans; the standing bid of an auction."""
    entity = info.entity
    if entity is None or game.view().round().finished:
        return []
    lines: list[str] = []
    consent = pending_consent(game)
    if consent is not None and consent[0] == entity:
        who = game.name_of(entity)
        lines.append(f"<b>Deal proposed: {deal_text(game, consent[1])}.</b>")
        lines.append(f"Only {who} may answer; "
                     f"{entity_name(game, consent[1].entity)} waits for {who}'s consent.")
    bid = high_bid(game, info, actions)
    view = game.view()
    item = info.facts.company or info.facts.corporation
    if item is not None:
        minimum = info.facts.min_bid
        private = view.private(item)
        what = private.name if private is not None else item
        lines.append(f"<b>High bid on {what}: {_money(bid.price)} by {bid.player}</b>"
                     if bid is not None else f"<b>No bid yet on {what}</b>")
        if isinstance(minimum, int):
            lines.append(f"Next bid at least {_money(minimum)}")
    if game.is_player(entity):
        me = view.player(entity)
        limit = me.cert_limit
        parts = [f"Cash {_money(me.cash)}",
                 f"certificates {me.certificates}/{limit}" if limit
                 else f"certificates {me.certificates}"]
        boxes = game.bid_boxes()
        bidder = boxes.bidder(entity) if boxes is not None else None
        if bidder is not None and bidder.committed:
            parts.append(f"{_money(bidder.available)} free ({_money(bidder.committed)} in bids)")
        if me.debt:
            parts.append(f"debt {_money(me.debt)}")
        lines.append(" · ".join(parts))
        return lines
    corp = view.corporation(entity)
    if corp is None:
        return lines
    trains = " ".join(corp.trains) or "none"
    limit = corp.train_limit
    parts = [f"Cash {_money(corp.cash)}",
             f"trains {trains}" + (f" (limit {limit})" if limit < 99 else ""),
             f"tokens left {corp.tokens_left}/{corp.tokens_total}"]
    if corp.loans is not None:  # 1867: loans exist
        parts.append(f"loans {corp.loans}")
    lines.append(" · ".join(parts))
    return lines
