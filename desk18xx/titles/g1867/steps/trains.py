"""1867 train buying (card: "OR Buy trains")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from desk18xx.engine.actions import Action, BuyTrain, Pass
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.round import Step
from desk18xx.engine.state import DEPOT, POOL, CorpKind
from desk18xx.titles.g1867 import rules as R
from desk18xx.titles.g1867.nationalization import is_nationalised_holder
from desk18xx.titles.g1867.steps.stock import g

if TYPE_CHECKING:
    from desk18xx.engine.game import Game


class BuyTrainStep(Step):
    """Buy trains; a trainless company must (card: "OR Buy trains")."""

    def min_depot_price(self, game: Game) -> int:
        """Cheapest train the bank offers."""
        trains = game.depot_trains()
        return min((t.price for t in trains), default=0)

    def other_trains(self, game: Game, entity: str) -> list[str]:
        """Trains of other companies (any owner may sell)."""
        out = []
        for cid, corp in game.corps.items():
            if cid == entity or corp.closed or corp.kind is CorpKind.NATIONAL:
                continue
            out.extend(corp.trains)
        # compat_18xxgames: a nationalised major's trains (`reset_corporation`)
        out.extend(t.id for t in game.trains.values()
                   if is_nationalised_holder(t.owner) and t.buyable and not t.rusted)
        return out

    def must_buy(self, game: Game, entity: str) -> bool:
        """Trainless and able to afford the cheapest bank train with loans."""
        gm = g(game)
        return (not gm.corps[entity].trains and bool(game.depot_trains())
                and gm.buying_power(entity, full=True) >= self.min_depot_price(game))

    def room(self, game: Game, entity: str) -> bool:
        """Below the train limit."""
        gm = g(game)
        return len(gm.corps[entity].trains) < gm.train_limit(entity)

    def power(self, game: Game, entity: str) -> int:
        """Buying power for this purchase."""
        return g(game).buying_power(entity, full=self.must_buy(game, entity))

    def can_buy(self, game: Game, entity: str) -> bool:
        """Some train is buyable."""
        gm = g(game)
        prices = [t.price for t in game.depot_trains()]
        if self.other_trains(game, entity):
            prices.append(1)  # some other company has a train (other_trains is not empty)
        can = self.room(game, entity) and bool(prices) and self.power(game, entity) >= min(
            prices)
        if not can and gm.phase.name == "8":
            for t in game.depot_trains():
                if t.name in R.TRADE_FOR:
                    for own in gm.corp_trains(entity):
                        # 18xx.games counts any trade-in, even one priced below $1
                        net = t.price - t.discount.get(own.name, t.price)
                        if own.name in t.discount and net <= self.power(game, entity):
                            return True
        return can

    def details(self, game: Game, entity: str) -> dict[str, Any]:
        return {"must_buy": self.must_buy(game, entity),
                "buying_power": self.power(game, entity),
                "bank": [{"train": t.id, "name": t.name, "price": t.price}
                         for t in game.depot_trains()],
                "others": [{"train": t, "owner": game.trains[t].owner,
                            "max_price": game.cash[entity]}
                           for t in self.other_trains(game, entity)]}

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        if entity != self.current_entity(game) or entity not in game.corps:
            return ()
        if self.must_buy(game, entity):
            return (BuyTrain,)
        if self.can_buy(game, entity):
            return (BuyTrain, Pass)
        return ()

    def pass_(self, game: Game) -> None:
        self.passed = True
        entity = self.current_entity(game)
        if entity is not None and entity in game.corps and not game.corps[entity].trains:
            g(game).nationalize(entity)

    def process(self, game: Game, action: Action) -> None:
        match action:
            case BuyTrain():
                self._buy(game, action)
            case Pass():
                self.pass_(game)
            case _:
                raise IllegalAction(f"{action.type} is not a train purchase")

    def _buy(self, game: Game, action: BuyTrain) -> None:
        gm = g(game)
        entity = action.entity
        train = game.trains.get(action.train)
        if train is None:
            raise IllegalAction(f"no train {action.train}")
        from_bank = train.owner in (DEPOT, POOL)
        if from_bank and train not in game.depot_trains():
            raise IllegalAction(f"{action.train} is not for sale")
        if not from_bank and action.train not in self.other_trains(game, entity):
            raise IllegalAction(f"{action.train} is not for sale")
        exchange = action.exchange
        price = action.price
        if exchange is not None:
            if gm.phase.name != "8" or train.name not in R.TRADE_FOR:
                raise IllegalAction("trade-ins are only for 8, 2+2 and 5+5E trains in phase 8")
            old = game.trains.get(exchange)
            if old is None or old.owner != entity or old.name not in train.discount:
                raise IllegalAction(f"{exchange} cannot be traded in")
            if price != train.price - train.discount[old.name]:
                raise IllegalAction("a traded-in train is worth half its price")
        elif from_bank and price != train.price:
            raise IllegalAction(f"{train.name} costs ${train.price}")
        if not self.room(game, entity) and exchange is None:
            raise IllegalAction(f"{entity} is at its train limit")
        if price < 1:
            raise IllegalAction("the price must be at least $1")
        if price > game.cash[entity]:
            if self.must_buy(game, entity) and from_bank:
                gm.take_loans_for(entity, price)
            else:
                raise IllegalAction(f"{entity} cannot take a loan for this train")
        if exchange is not None:
            old = game.trains[exchange]
            gm.corps[entity].trains.remove(exchange)
            gm.to_pool(old)  # 18xx Step::Train#buy_train_action: @depot.reclaim_train
        gm.buy_train(entity, action.train, price)
        moved_on = self.round.operator() != entity  # the first 8 ended the turn (D31)
        if not self.can_buy(game, entity) and not moved_on:
            self.passed = True
        gm.post_train_buy()
        if moved_on and gm.config.compat_18xxgames and not self.can_buy(game, entity):
            # 18xx.games (D45): ``process_buy_train`` passes its step after the buy
            # whoever operates by then, so the next company's buy step is passed
            # before its turn reaches it (and a trainless one nationalised)
            self.pass_(game)
