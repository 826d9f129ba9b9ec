"""Helpers for 1867 rule tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from desk18xx.engine.game import GameSetup
from desk18xx.titles.g1867.game import G1867


def make_game(players: int = 4, *options: str) -> G1867:
    """A fresh 1867 game with players "1" … "n"."""
    setup = GameSetup("1867", tuple((str(i + 1), f"Player {i + 1}") for i in range(players)),
                      1, tuple(options))
    return G1867(setup)


@pytest.fixture
def new_game() -> Callable[..., G1867]:
    """Factory fixture for fresh games."""
    return make_game
