"""The round/step framework: blocking steps, skipping, non-blocking steps catching actions."""

from __future__ import annotations

from typing import ClassVar

import pytest

from desk18xx.engine.actions import Action, BuyCompany, Pass
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game, GameSetup
from desk18xx.engine.round import Round, RoundKind, Step


class Optional(Step):
    """Non-blocking: catches buy_company whenever it is active."""

    blocks: ClassVar[bool] = False

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        return (BuyCompany,) if entity == self.current_entity(game) else ()

    def process(self, game: Game, action: Action) -> None:
        game.log.append(f"optional {action.type}")


class Empty(Step):
    """Blocks, but never has anything to offer: skipped, and says so."""

    def skip(self, game: Game) -> None:
        game.log.append("empty skipped")
        super().skip(game)


class Decide(Step):
    """Blocks until its entity passes."""

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        return (Pass,) if entity == self.current_entity(game) else ()


class ToyRound(Round):
    kind: ClassVar[RoundKind] = RoundKind.OPERATING

    def select_entities(self, game: Game) -> list[str]:
        return ["A", "B"]

    def after_process(self, game: Game, action: Action) -> None:
        if self.active_step(game) is None and self.entity_index + 1 < len(self.entities):
            self.entity_index += 1
            self.reset_steps(game)
            self.skip_steps(game)


class ToyGame(Game):
    def next_round(self) -> None:
        self.end_game("done")


def make() -> ToyGame:
    game = ToyGame(GameSetup("toy", (("1", "P1"),)))
    game.round = ToyRound(game, (Optional, Empty, Decide))
    game.round.skip_steps(game)
    return game


def test_blocking_step_decides_who_acts_and_empty_steps_are_skipped() -> None:
    game = make()
    assert game.log == ["empty skipped"]
    la = game.legal_actions()
    assert la.entity == "A" and la.step == "Decide"
    assert set(la.types) == {"buy_company", "pass"}


def test_a_non_blocking_step_earlier_in_the_round_takes_its_action() -> None:
    game = make()
    game.process(BuyCompany(entity="A", entity_type="corporation", company="X", price=1))
    assert game.log[-1] == "optional buy_company"
    assert game.legal_actions().entity == "A"  # the blocking step still waits


def test_pass_moves_on_and_a_wrong_entity_is_refused() -> None:
    game = make()
    with pytest.raises(IllegalAction, match="waits for A"):
        game.process(Pass(entity="B", entity_type="corporation"))
    game.process(Pass(entity="A", entity_type="corporation"))
    assert game.legal_actions().entity == "B"
    game.process(Pass(entity="B", entity_type="corporation"))
    assert game.finished and game.end_reason == "done"
