"""Divergences from 18xx.games found by differential testing (docs/divergences.md).

Each position is reached through our own actions: a recorded 18xx.games game
replayed to a point, then moves of our choosing.
"""

from __future__ import annotations

from g1867_helpers import replay_prefix

from desk18xx.engine.actions import BuyShares, Pass, SellShares
from desk18xx.titles.g1867.game import G1867


def _turn(game: G1867, player: str) -> None:
    assert game.legal_actions().entity == player


def _buy(game: G1867, player: str, share: str) -> None:
    _turn(game, player)
    game.process(BuyShares(entity=player, shares=(share,), percent=10))


def _sell(game: G1867, player: str, *shares: str) -> None:
    _turn(game, player)
    game.process(SellShares(entity=player, shares=shares, percent=10 * len(shares)))


def _pass(game: G1867, player: str) -> None:
    _turn(game, player)
    game.process(Pass(entity=player))


def test_d4_a_tie_after_a_sale_keeps_the_sitting_president() -> None:
    # 21268.json, start of the SR at action 537: seats 4661, 488, 949, 4440;
    # 4440 is CNR's president with 50%, the rest in CNR's treasury.
    game = replay_prefix("21268.json", 537)
    _buy(game, "4661", "CNR_4")
    _buy(game, "488", "CNR_5")
    _pass(game, "949")
    _sell(game, "4440", "CNR_1", "CNR_2", "CNR_3")  # keeps only the 20% certificate
    _pass(game, "4440")
    _pass(game, "4661")
    _buy(game, "488", "CNR_6")  # 488 ties the president at 20%
    _pass(game, "949")
    _pass(game, "4440")
    _sell(game, "4661", "CNR_4")
    # 18xx share_pool.rb: a tie never moves the presidency away from the sitting one
    assert game.president("CNR") == "4440"
    assert game.shares["CNR_0"].owner == "4440"
    assert {game.shares[s].owner for s in ("CNR_5", "CNR_6")} == {"488"}
