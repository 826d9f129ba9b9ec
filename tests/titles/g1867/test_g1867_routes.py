"""Declared routes are validated and re-priced (card: "OR Run trains")."""

from __future__ import annotations

import pytest
from g1867_helpers import replay_prefix

from desk18xx.engine.actions import Route
from desk18xx.engine.errors import IllegalAction
from desk18xx.titles.g1867.revenue import check_routes

# 21268.json action 504: CPR runs a 3 and a 5 (the 5 takes Timmins with Montreal/Quebec)
THREE = Route(train="3-1", connections=(("H10", "G9", "F8"), ("H14", "H12", "H10"),
                                        ("J12", "I13", "H14"), ("L12", "K11", "J12")))
FIVE = Route(train="5-1", connections=(
    ("N12", "O11", "O9", "O7"), ("M13", "N12"), ("L12", "M13"), ("K13", "L14", "L12"),
    ("J12", "K13"), ("D2", "E1", "F2", "G3", "H4", "I5", "J6", "J8", "J10", "J12")))


def test_recorded_routes_are_repriced_exactly() -> None:
    game = replay_prefix("21268.json", 504)
    assert check_routes(game, "CPR", (THREE, FIVE)) == [140, 260]


def test_stored_revenue_must_match() -> None:
    game = replay_prefix("21268.json", 504)
    wrong = Route(train=THREE.train, connections=THREE.connections, revenue=150)
    with pytest.raises(IllegalAction, match="earns"):
        check_routes(game, "CPR", (wrong,))


def test_illegal_routes_are_refused() -> None:
    game = replay_prefix("21268.json", 504)
    with pytest.raises(IllegalAction, match="neighbours"):
        check_routes(game, "CPR", (Route(train="3-1", connections=(("H10", "F8"),)),))
    with pytest.raises(IllegalAction, match="share track"):
        check_routes(game, "CPR", (THREE, Route(train="5-1", connections=(("L12", "K11",
                                                                            "J12"),))))
    with pytest.raises(IllegalAction, match="does not own"):
        check_routes(game, "CPR", (Route(train="2-0", connections=(("L12", "K11", "J12"),)),))
    with pytest.raises(IllegalAction, match="token"):
        check_routes(game, "CPR", (Route(train="3-1", connections=(("N12", "O11", "O9",
                                                                    "O7"),)),))
