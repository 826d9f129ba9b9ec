"""Winnipeg W1 to W3: an upgrade merging a company's normal token with its destination
token (RB 5.7.36; differential 1822CA-WRS seeds 31302 and 32055)."""

from __future__ import annotations

import pytest

from desk18xx.engine.game import GameSetup
from desk18xx.engine.state import BANK
from desk18xx.titles.g1822ca.game import G1822CA

SEED = 337421161


def _gnwr_in_winnipeg(compat: bool, both: bool = False) -> G1822CA:
    """GNWR's destination token in Winnipeg's city 1 and a normal token in city 3 of W1,
    its other normal token in P18; with ``both`` its two normal tokens in cities 1 and 3
    and the destination token in city 2 (an added slot: minor 21's home is reserved
    there).  Green tiles available."""
    ids = tuple((str(100 + i), f"P{i}") for i in range(4))
    options = ("compat_18xxgames",) if compat else ()
    game = G1822CA(GameSetup("1822CA", ids, SEED, options))
    cells = {c.price: c.coord for c in game.market.cells.values()}
    game.market.place("GNWR", cells[100])
    game.corps["GNWR"].ipoed = game.corps["GNWR"].floated = True
    game.transfer(BANK, "GNWR", 1000)
    assert len(game.corps["GNWR"].tokens) == 2
    if both:
        game.place_token("GNWR", "N16", 1, 0)
        game.place_destination("GNWR", "N16", 2)
    else:
        game.place_token("GNWR", "P18", 0, 0)
        game.place_destination("GNWR", "N16", 1)
    game.place_token("GNWR", "N16", 3, 0)
    game.lay_tile("GNWR", "N16", "W1-0", 0)
    game.phase_index = 2
    assert game.phase_colors()[-1].value == "green"
    return game


@pytest.mark.parametrize("compat", [False, True])
def test_w3_merging_the_normal_and_the_destination_token(compat: bool) -> None:
    """W3 at rotation 0 merges W1's cities 1, 2 and 3.  RB 5.7.36: one of GNWR's two
    tokens there goes back to its charter (never the destination token), unrefunded,
    priced $100.  18xx.games lifts the destination token before the lay and puts it
    back after its check, so both stay (``compat_18xxgames``)."""
    game = _gnwr_in_winnipeg(compat)
    before = game.cash["GNWR"]
    game.lay_tile("GNWR", "N16", "W3-0", 0, free=True)
    cities = game.map.hex("N16").tokens
    merged = [t for t in cities[1] if t is not None]
    assert [t.corp for t in cities[0] if t is not None] == []
    on_charter = [(t.hex, t.price) for t in game.corps["GNWR"].tokens]
    if compat:
        assert sorted(t.kind for t in merged) == ["destination", "normal"]
        assert all(t.corp == "GNWR" for t in merged)
        assert on_charter[1][0] == "N16"
    else:
        assert [(t.corp, t.kind) for t in merged] == [("GNWR", "destination")]
        assert on_charter[1] == (None, 100)
    assert on_charter[0] == ("P18", 0)
    assert game.cash["GNWR"] == before  # a free lay: nothing paid, nothing refunded


@pytest.mark.parametrize("compat", [False, True])
def test_a_destination_token_beside_two_normal_tokens_still_returns_one(compat: bool) -> None:
    """Two normal tokens of one company merged by an upgrade: one goes back in both modes
    (18xx.games counts the normal tokens it did not lift)."""
    game = _gnwr_in_winnipeg(compat, both=True)
    game.lay_tile("GNWR", "N16", "W3-0", 0, free=True)
    merged = [t for t in game.map.hex("N16").tokens[1] if t is not None]
    kinds = sorted(t.kind for t in merged if t.corp == "GNWR")
    assert kinds == (["destination", "normal"] if compat else ["destination"])
    assert sum(1 for t in game.corps["GNWR"].tokens if t.hex == "N16") == (1 if compat else 0)
