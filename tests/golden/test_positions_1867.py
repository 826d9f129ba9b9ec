"""Positions of 21268.json at chosen actions, as compact text (STYLE.md §8, like FEN).

A regression net under the final-result check: phase, round, every player's
cash, every floated company's price/treasury and the bank.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "titles" / "g1867"))

from g1867_helpers import replay_prefix  # noqa: E402

from desk18xx.titles.g1867.game import G1867  # noqa: E402

EXPECTED = {
    100: "phase 2 operating 1 | 4661:35 488:45 949:35 4440:5 | AE:50/35 BO:50/11 CA:50/10 "
         "CS:50/39 CV:50/10 KP:45/0 NO:45/0 OP:50/100 TN:45/0 | bank 14675",
    300: "phase 3 operating 1 | 949:160 4440:140 4661:50 488:0 | AE:65/80 BBG:110/230 "
         "BO:55/21 CA:65/190 CS:65/209 CV:65/70 KP:60/115 LPS:100/200 NO:60/40 OP:60/0 "
         "PM:70/25 QLS:120/240 SLA:90/180 TGB:90/180 THB:100/200 TN:60/155 | bank 12515",
    500: "phase 5 operating 2 | 4661:373 488:188 949:245 4440:376 | C&O:100/465 CNR:200/310 "
         "CPR:135/8 CS:100/324 GTR:220/90 NYC:120/203 | bank 12418",
    700: "phase 8 operating 2 | 949:1169 4440:1196 4661:1505 488:1233 | C&O:180/40 "
         "CNR:330/198 CPR:270/123 GTR:165/64 GWR:200/400 ICR:165/260 NYC:200/68 | bank 8504",
}


def summary(game: G1867) -> str:
    """Compact text of the position."""
    r = game.round
    assert r is not None
    players = " ".join(f"{p.id}:{game.cash[p.id]}" for p in game.players)
    corps = " ".join(f"{c}:{game.price(c)}/{game.cash[c]}" for c in sorted(game.corps)
                     if game.corps[c].floated)
    return (f"phase {game.phase.name} {r.kind.value} {r.round_num} | {players} | {corps} | "
            f"bank {game.cash['bank']}")


@pytest.mark.parametrize("count", sorted(EXPECTED))
def test_position(count: int) -> None:
    assert summary(replay_prefix("21268.json", count)) == EXPECTED[count]
