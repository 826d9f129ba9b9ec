"""1867's answers to the route optimizer (`desk18xx.engine.optimizer.games`):
the routing problem of a company now, and the engine's own pricing of a run.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from desk18xx.engine.actions import Route
from desk18xx.engine.optimizer.adapters import map_problem
from desk18xx.engine.optimizer.games import Unsupported
from desk18xx.engine.optimizer.model import Problem, TrainSpec
from desk18xx.engine.optimizer.scoring import Scoring1867, TitleScoring
from desk18xx.engine.tiledef import Color, NodeKind
from desk18xx.titles.g1867 import board as B

if TYPE_CHECKING:
    from desk18xx.titles.g1867.game import G1867


class Routing1867:
    """The optimizer's questions about one 1867 game (`TitleRouting`)."""

    def __init__(self, game: G1867) -> None:
        self._game = game

    def problem(self, corp: str) -> tuple[Problem, TitleScoring]:
        """The routing problem of ``corp`` now, and the scoring of its runs.

        Raises:
            Unsupported: the game has no board.
        """
        game = self._game
        board = game.board
        if board is None:
            raise Unsupported("1867 game without a board")
        trains = [
            TrainSpec(t.id, t.name, t.distance, t.multiplier, "express" if t.express else "normal")
            for t in game.trains.values()
            if t.owner == corp and not t.rusted
        ]
        bonus: dict[str, int] = {}
        for cid in game.corps[corp].companies:
            company = game.companies[cid]
            if company.bonus_hexes and not company.closed:
                for h in company.bonus_hexes:
                    bonus[h] = bonus.get(h, 0) + company.bonus_amount
        def blocks(h: str, n: int) -> bool:
            """A route may not run through an off-board, nor a city every slot of
            which holds a token (a placeholder too) and none ``corp``'s."""
            assert board is not None
            st = board.hex(h)
            kind = st.tile.nodes[n].kind
            if kind is NodeKind.CITY:
                return B.city_full_for(board, h, st.geo.city_nodes.index(n), corp)
            return kind is not NodeKind.TOWN

        # the card: no hex twice on a route, passing through included
        problem = map_problem(board, corp, trains, [Color(c) for c in game.phase.tiles],
                              blocks=blocks, hex_once=True)
        return problem, Scoring1867(hex_bonus=bonus)

    def revenues(self, corp: str, routes: Sequence[Route]) -> list[int]:
        """Each route's revenue by the engine's own check (raises IllegalAction)."""
        from desk18xx.titles.g1867 import revenue as r1867

        return r1867.check_routes(self._game, corp, tuple(routes))

    def subsidy(self, corp: str, routes: Sequence[Route]) -> int:
        """Nothing is paid besides the revenue in 1867."""
        return 0
