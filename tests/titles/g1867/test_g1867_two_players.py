"""The 2-player game (18xx.games' variant, rules/1867.md §14; compat mode only)."""

from __future__ import annotations

from collections import Counter

import pytest

from desk18xx.commands.playout import play_one
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import GameSetup
from desk18xx.engine.state import CorpKind
from desk18xx.titles.g1867.game import G1867

TWO = (("1", "Ann"), ("2", "Bob"))


def _two_player(seed: int, *options: str) -> G1867:
    return G1867(GameSetup("1867", TWO, seed, ("compat_18xxgames", *options)))


def test_the_card_is_for_three_to_six_players() -> None:
    with pytest.raises(IllegalAction, match="3-6 players, not 2"):
        G1867(GameSetup("1867", TWO, 1, ()))


def test_two_player_setup_follows_18xx_games() -> None:
    game = _two_player(7)
    assert game.cash["1"] == game.cash["2"] == 420
    assert game.cert_limit == 21
    assert {c.max_ownership for c in game.corps.values()
            if c.kind is CorpKind.MAJOR} == {70}
    # the last 3 2s, 2 3s and one each of 4 to 7 leave the depot
    depot = Counter(game.trains[t].name for t in game.depot)
    assert {n: depot[n] for n in ("2", "3", "4", "5", "6", "7")} == {
        "2": 7, "3": 5, "4": 3, "5": 3, "6": 1, "7": 1}
    assert [t for t in game.depot if game.trains[t].name == "2"][-1] == "2-6"
    # two privates drawn with the game's generator (checked against the
    # reference engine for seeds 7 and 8)
    assert sorted(game.companies) == ["C&SL", "QB", "SCT"]
    assert sorted(_two_player(8).companies) == ["NFB", "QB", "SCT"]


def test_a_two_player_grid_market_game_finishes() -> None:
    # the column market's 2-player game is in test_g1867_playout.py
    result = play_one("1867", 1, 2, ("compat_18xxgames", "grid_market"))
    assert result.error is None, result.error
    assert result.finished and result.players == 2
