"""1867 private auction (card: "Private auction"; 18xx ``g_1867/step/single_item_auction.rb``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from desk18xx.engine.actions import Action, Bid, Pass
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.round import Step
from desk18xx.engine.state import BANK

if TYPE_CHECKING:
    from desk18xx.engine.game import Game
    from desk18xx.titles.g1867.game import G1867

INCREMENT = 5


def check_bid_amount(game: Game, player: str, price: int, minimum: int, what: str) -> None:
    """Minimum, $5 multiples from the minimum, and affordability."""
    if price < minimum:
        raise IllegalAction(f"minimum bid is ${minimum} for {what}")
    if (price - minimum) % INCREMENT:
        raise IllegalAction(f"bids must rise in multiples of ${INCREMENT}")
    if price > game.cash[player]:
        raise IllegalAction(f"cannot afford ${price}; you have ${game.cash[player]}")


class PrivateAuction(Step):
    """Privates one at a time, cheapest first; a full round of declines lowers the price."""

    def setup(self, game: Game) -> None:
        self.companies = sorted((c for c in game.companies.values() if c.owner is None),
                                key=lambda c: c.value)
        self.bids: dict[str, int] = {}
        self.order: list[str] = []  # bid order (first bid first) for ties
        self.active: list[str] = []
        self.declined: list[str] = []
        self.dutch = False
        self.auctioning: str | None = None
        if self.companies:
            self._open(game, self.companies[0].id)

    def _min_bid(self, game: Game) -> int:
        assert self.auctioning is not None
        company = game.companies[self.auctioning]
        if self.dutch or not self.bids:
            return company.min_bid
        return max(self.bids.values()) + INCREMENT

    def _open(self, game: Game, cid: str, new: bool = True) -> None:
        if new:
            self.dutch = False
            self.declined = []
        self.auctioning = cid
        ents = self.round.entities
        k = self.round.entity_index
        rotated = ents[k:] + ents[:k]
        minimum = self._min_bid(game)
        self.active = [p for p in rotated if game.cash[p] >= minimum]
        self._resolve(game)

    def _highest(self) -> str | None:
        if not self.bids:
            return None
        top = max(self.bids.values())
        return next(p for p in self.order if self.bids.get(p) == top)

    def active_entities(self, game: Game) -> list[str]:
        if not self.companies or self.auctioning is None:
            return []
        high = self._highest()
        if high is not None:
            return [self.active[(self.active.index(high) + 1) % len(self.active)]]
        rest = [p for p in self.active if p not in self.declined]
        return rest[:1]

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        if not self.companies or entity != self.current_entity(game):
            return ()
        return (Bid, Pass)

    def details(self, game: Game, entity: str) -> dict[str, Any]:
        if self.auctioning is None:
            return {}
        return {"company": self.auctioning, "min_bid": self._min_bid(game),
                "max_bid": game.cash[entity], "dutch": self.dutch}

    def process(self, game: Game, action: Action) -> None:
        match action:
            case Bid():
                if action.company != self.auctioning:
                    raise IllegalAction(f"{self.auctioning} is up for auction, "
                                        f"not {action.company}")
                check_bid_amount(game, action.entity, action.price, self._min_bid(game),
                                 str(self.auctioning))
                self.declined = []
                self._add_bid(game, action.entity, action.price)
            case Pass():
                entity = action.entity
                if self.bids or self.dutch:
                    self._drop(entity)
                else:
                    self.declined.append(entity)
                    if len(self.declined) == len(self.active):
                        self._enter_dutch(game)
                        self.declined = []
                self._resolve(game)
            case _:
                raise IllegalAction(f"{action.type} is not possible in the private auction")

    def _add_bid(self, game: Game, player: str, price: int) -> None:
        if self.dutch:
            self.active = [p for p in self.active if p == player]
        self.bids[player] = price
        if player in self.order:
            self.order.remove(player)
        self.order.append(player)
        minimum = self._min_bid(game)
        for p in list(self.active):
            if p != player and game.cash[p] < minimum:
                self._drop(p)
        self._resolve(game)

    def _drop(self, player: str) -> None:
        if player in self.active:
            self.active.remove(player)
        self.bids.pop(player, None)
        if player in self.order:
            self.order.remove(player)

    def _enter_dutch(self, game: Game) -> None:
        """Nobody opened: the minimum drops $5 and the private is then offered
        take-it-or-leave-it, as on 18xx.games, in both modes: the card ("returns to
        the same player") does not say it is auctioned again, and saves of 0.1.0
        were played so (docs/rules-notes.md)."""
        assert self.auctioning is not None
        game.companies[self.auctioning].discount += 5
        self.dutch = True

    def _resolve(self, game: Game) -> None:
        if self.auctioning is None:
            return
        cid = self.auctioning
        winner: str | None = None
        if not self.active:
            self._enter_dutch(game)
        else:
            if len(self.active) != 1 or not self.bids:
                return
            winner = self.order[0]
        price = self.bids.get(winner, 0) if winner else 0
        self.bids.clear()
        self.order.clear()
        self.active = []
        self.auctioning = None
        if winner is not None:
            company = game.companies[cid]
            company.owner = winner
            if price:
                game.transfer(winner, BANK, price)
            self.companies = [c for c in self.companies if c.id != cid]
            ents = self.round.entities
            self.round.entity_index = (ents.index(winner) + 1) % len(ents)
            if self.companies:
                self._open(game, self.companies[0].id)
            else:
                self.passed = True
        else:
            self._open(game, cid, new=False)
            if game.companies[cid].min_bid == 0 and self.active:
                self._add_bid(game, self.active[0], 0)


def _g(game: Game) -> G1867:
    from desk18xx.titles.g1867.game import G1867

    assert isinstance(game, G1867)
    return game
