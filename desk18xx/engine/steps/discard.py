"""Discard trains above the train limit (generic; 18xx ``Step::DiscardTrain``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from desk18xx.engine.actions import Action, DiscardTrain
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.round import Step

if TYPE_CHECKING:
    from desk18xx.engine.game import Game


class DiscardTrains(Step):
    """The first company over its limit discards one train at a time to the bank pool."""

    def is_active(self, game: Game) -> bool:
        return bool(game.crowded_corps())

    def active_entities(self, game: Game) -> list[str]:
        return game.crowded_corps()[:1]

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        return (DiscardTrain,) if entity in game.crowded_corps() else ()

    def process(self, game: Game, action: Action) -> None:
        if not isinstance(action, DiscardTrain):
            raise IllegalAction(f"{action.entity} must discard a train")
        corp = game.corp(action.entity)
        if action.train not in corp.trains:
            raise IllegalAction(f"{action.entity} has no train {action.train}")
        game.discard_train(action.entity, action.train)
