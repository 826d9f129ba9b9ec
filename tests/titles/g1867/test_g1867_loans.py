"""Loans and interest (card: "OR Loans")."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from g1867_helpers import finish_auction, start_minor

from desk18xx.engine.errors import IllegalAction
from desk18xx.titles.g1867.game import G1867
from desk18xx.titles.g1867.steps.operating import LoanOperations


def test_a_loan_is_fifty_owed_and_forty_five_received(new_game: Callable[..., G1867]) -> None:
    game = new_game(4)
    game.corps["BO"].floated = True
    game.take_loan("BO")
    assert game.cash["BO"] == 45 and game.corps["BO"].loans == 1 and game.loans_left == 71
    game.take_loan("BO")
    with pytest.raises(IllegalAction):
        game.take_loan("BO")  # card: "A minor may owe 2"
    assert game.buying_power("CPR", full=True) == 5 * 45  # a major may owe 5


def _operating_minor(game: G1867) -> str:
    finish_auction(game)
    player = game.legal_actions().entity
    assert player is not None
    start_minor(game, player, "BO", 100, "M9-0-0")
    while game.round is not None and game.round.kind.value == "stock":
        nxt = game.legal_actions().entity
        assert nxt is not None
        from desk18xx.engine.actions import Pass

        game.process(Pass(entity=nxt))
    assert game.round is not None and game.round.kind.value == "operating"
    return "BO"


def test_interest_on_loans_held_at_the_start_then_repayment(
        new_game: Callable[..., G1867]) -> None:
    game = new_game(4)
    minor = _operating_minor(game)
    step = game.round.step_of(LoanOperations)  # type: ignore[union-attr]
    assert isinstance(step, LoanOperations)
    game.corps[minor].loans = 2
    game.loans_left -= 2
    game.interest[minor] = 2
    game.cash[minor], game.cash["bank"] = 60, game.cash["bank"] + game.cash[minor] - 60
    step.passed = False
    step.skip(game)
    # $10 interest, then one $50 repayment
    assert game.cash[minor] == 0 and game.corps[minor].loans == 1
    assert game.interest[minor] == 1


def test_unpaid_interest_nationalises(new_game: Callable[..., G1867]) -> None:
    game = new_game(4)
    minor = _operating_minor(game)
    step = game.round.step_of(LoanOperations)  # type: ignore[union-attr]
    assert isinstance(step, LoanOperations)
    game.corps[minor].loans = 2
    game.loans_left -= 2
    game.interest[minor] = 2
    game.cash["bank"] += game.cash[minor] - 5
    game.cash[minor] = 5
    step.passed = False
    step.skip(game)
    assert game.corps[minor].closed
