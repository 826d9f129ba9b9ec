"""1822CA's answers to the route optimizer (`desk18xx.engine.optimizer.games`):
the routing problem of a company now (attachments, ports, grain elevators,
sawmill, mail contracts), and the engine's own pricing of a run.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from desk18xx.engine.actions import Route
from desk18xx.engine.optimizer.adapters import map_problem
from desk18xx.engine.optimizer.model import Problem, TrainSpec
from desk18xx.engine.optimizer.scoring import TitleScoring
from desk18xx.engine.optimizer.scoring_1822ca import Scoring1822CA, Train1822
from desk18xx.titles.g1822ca import rules as R
from desk18xx.titles.g1822ca.revenue import _home_and_destination, price_routes, route_train

if TYPE_CHECKING:
    from desk18xx.titles.g1822ca.game import G1822CA


class Routing1822CA:
    """The optimizer's questions about one 1822CA game (`TitleRouting`)."""

    def __init__(self, game: G1822CA) -> None:
        self._game = game

    def problem(self, corp: str) -> tuple[Problem, TitleScoring]:
        """The routing problem of ``corp`` now, and the scoring of its runs."""
        gm = self._game
        board = gm.map
        specs: list[TrainSpec] = []
        infos: dict[str, Train1822] = {}
        for t in gm.route_trains(corp):
            rt = route_train(gm, t.id)
            parts = None if isinstance(rt.distance, int) else tuple(
                (frozenset(p.nodes), p.visit) for p in rt.distance)
            base = rt.distance if isinstance(rt.distance, int) else sum(
                p.visit for p in rt.distance)
            kind = "E" if t.name == R.E_TRAIN else "local" if t.name in R.LOCAL_TRAINS \
                else "normal"
            if t.id == gm.train_with_pullman:
                kind += "+pullman"
                base = t.distance if isinstance(t.distance, int) else base
            if t.id == gm.train_with_grain:
                kind += "+grain"
            specs.append(TrainSpec(t.id, t.name, base, t.multiplier, kind))
            infos[t.id] = Train1822(
                parts=parts, e_train=t.name == R.E_TRAIN, local=t.name in R.LOCAL_TRAINS,
                grain=t.id == gm.train_with_grain, pullman=t.id == gm.train_with_pullman,
            )
        rules = gm.rules
        home, destination = _home_and_destination(gm, corp)
        saw_hex = gm.sawmill_hex if gm.sawmill_bonus and (
            gm.sawmill_owner is None or gm.sawmill_owner == corp) else None
        owned = gm.corps[corp].companies if gm.is_major(corp) else ()
        scoring = Scoring1822CA(
            trains=infos, major=gm.is_major(corp),
            grain_elevators=frozenset(rules.grain_elevators),
            east_ports=frozenset(rules.east_ports), west_ports=frozenset(rules.west_ports),
            home=home, destination=destination, sawmill_hex=saw_hex,
            sawmill_bonus=gm.sawmill_bonus or 0,
            mail_large=sum(1 for c in owned if c in R.PRIVATE_MAIL_CONTRACTS),
            mail_small=sum(1 for c in owned if c in R.PRIVATE_SMALL_MAIL_CONTRACTS),
            mail_small_value=rules.small_mail_subsidy.get(gm.phase.name, 0),
        )
        problem = map_problem(board, corp, specs, gm.phase_colors(),
                              repeat_hexes=rules.double_town_hexes)
        return problem, scoring

    def revenues(self, corp: str, routes: Sequence[Route]) -> list[int]:
        """Each route's revenue by the engine's own check (raises IllegalAction)."""
        return price_routes(self._game, corp, routes)

    def subsidy(self, corp: str, routes: Sequence[Route]) -> int:
        """The mail contracts' pay for this run (a major's only)."""
        gm = self._game
        if not gm.is_major(corp):
            return 0
        # the dividend step reads only the run's stops per train (OperatingRound.route_nodes)
        run: Any = SimpleNamespace(route_nodes={r.train: gm.route_stops(r) for r in routes})
        return int(gm.mail_subsidy(corp, run))
