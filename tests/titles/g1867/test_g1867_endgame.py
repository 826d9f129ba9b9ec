"""Game end and scoring (card: "Endgame")."""

from __future__ import annotations

from collections.abc import Callable

from g1867_helpers import finish_auction, give_major, start_minor

from desk18xx.titles.g1867.game import G1867


def test_bank_breaks_at_the_end_of_the_current_or(new_game: Callable[..., G1867]) -> None:
    game = new_game(4)
    game.bank_broken = True
    game.game_end_check()
    assert game.game_end_trigger == ("bank", "current_or")


def test_first_8_means_one_more_set_and_wins_over_the_bank(
        new_game: Callable[..., G1867]) -> None:
    game = new_game(4)
    game.phase_index = 6
    game.game_end_check()
    assert game.game_end_trigger == ("final_phase", "one_more_full_or_set")
    assert game.final_operating_rounds == 3 and game.final_turn == game.turn + 1
    game.bank_broken = True
    game.game_end_check()
    assert game.game_end_trigger == ("final_phase", "one_more_full_or_set")


def test_scoring_counts_privates_minors_and_loans(new_game: Callable[..., G1867]) -> None:
    game = new_game(4)
    finish_auction(game)
    player = game.legal_actions().entity
    assert player is not None
    start_minor(game, player, "BO", 200, "M9-0-0")  # price 100, 2 shares
    give_major(game, "CPR", player, 20, (0, 10))  # 100
    game.corps["CPR"].loans = 2
    game.loans_left -= 2
    faces = sum(c.value for c in game.companies.values() if c.owner == player)
    value = game.player_value(player)
    # CPR counts at its price after one left move per loan: 100 -> 90 -> 80
    assert value == game.cash[player] + faces + 2 * 100 + 2 * 80
    game.end_game("manually_ended")
    assert game.price("CPR") == 80 and game.corps["CPR"].loans == 0
    assert game.finished and game.result()[player] == value
