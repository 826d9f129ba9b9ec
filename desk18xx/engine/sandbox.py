"""Study mode's off-turn sandbox: try a tile lay for any company, see its best routes.

Issue "Study mode", point 6: on a branch, any tile lay the rules allow for any
company can be tried to see its effect on that company's best routes, then
discarded. `try_tile_lay` lays the tile on a copy of the position as that
company's own track step would (whoever is to act: the title's rules, through
`Game.sandbox_lay`, each title's own track rules), then asks the route optimizer
(`desk18xx.engine.optimizer.best_routes`) for the company's best routes before
and after. Nothing is recorded: the caller keeps or drops the `SandboxTrial`.
When the lay is also the company's own legal move now (``on_turn``), a user
interface may play it as a branch of the study instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from desk18xx.engine.actions import LayTile, Route
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game
from desk18xx.engine.offers import TileLayOffer

Placer = Callable[[Game, LayTile], None]
"""Applies a lay for any company (changes the game; raises IllegalAction)."""
Cancel = Callable[[], bool]
"""Polled by the route search; True stops it with the best routes so far."""
Progress = Callable[[float, int], None]
"""Called now and then by the route search: (fraction done, best so far)."""


@dataclass(frozen=True, slots=True)
class RouteSummary:
    """A company's best routes in one position."""

    revenue: int
    """What the routes earn (what ``run_routes`` declares)."""
    routes: tuple[Route, ...] = ()
    complete: bool = True
    """False when the search was stopped early (best found, not proven best)."""
    problem: str = ""
    """Why no routes could be computed (a title without optimizer), else empty."""
    subsidy: int = 0
    """What the run earns the company besides (1822CA mail contracts)."""

    @property
    def total(self) -> int:
        """What the run earns the company: revenue plus subsidy (what the search maximises)."""
        return self.revenue + self.subsidy


@dataclass(frozen=True, slots=True)
class SandboxTrial:
    """A tile lay tried for a company, with its best routes before and after."""

    lay: LayTile
    game: Game
    """The position after the lay (a separate game; the study is untouched)."""
    before: RouteSummary
    after: RouteSummary
    on_turn: bool
    """True when the lay is also that company's legal move now (it may be kept as
    a branch of the study)."""

    @property
    def corp(self) -> str:
        """The company tried."""
        return self.lay.entity

    @property
    def gain(self) -> int:
        """What the run earns after minus before (revenue and mail subsidy)."""
        return self.after.total - self.before.total


def _default_placer(game: Game, lay: LayTile) -> None:
    game.sandbox_lay(lay)  # the title's own track rules


def best_routes_of(game: Game, corp: str, *, cancel: Cancel | None = None,
                   progress: Progress | None = None) -> RouteSummary:
    """The best routes of `corp` in `game` (the route optimizer; nothing is changed).

    Args:
        cancel: polled; True stops the search with the best routes so far.
        progress: called now and then with the fraction done and the best so far.
    """
    from desk18xx.engine.optimizer import Unsupported, best_routes

    try:
        solution = best_routes(game, corp, cancel=cancel, progress=progress)
    except Unsupported as exc:
        return RouteSummary(0, problem=str(exc))
    return RouteSummary(solution.revenue, solution.routes, solution.complete,
                        subsidy=solution.subsidy)


def lay_for(game: Game, lay: LayTile, *, placer: Placer | None = None) -> Game:
    """A copy of `game` with `lay` applied for `lay.entity`, whoever is to act.

    Raises:
        IllegalAction: the title's rules refuse the lay for that company.
    """
    trial = game.copy()
    (placer or _default_placer)(trial, lay)
    return trial


def lay_offers(game: Game, corp: str) -> tuple[TileLayOffer, ...]:
    """Where and what ``corp`` may lay in the sandbox: the title's offers of the lay
    `Game.sandbox_lay` accepts (the company's own first lay, whoever is to act)."""
    return tuple(o for o in game.sandbox_lay_offers(corp) if isinstance(o, TileLayOffer))


def hex_lay_offer(game: Game, corp: str, hex_id: str) -> TileLayOffer | None:
    """The sandbox's offer of a lay by ``corp`` on ``hex_id``, with the reasons the
    tiles that do not go there are refused (None: the title has no sandbox)."""
    found = game.sandbox_lay_offers(corp, hex_id)
    return next((o for o in found if isinstance(o, TileLayOffer)), None)


def is_own_move(game: Game, lay: LayTile) -> bool:
    """True when `lay` is a legal action now (that company's own tile lay)."""
    legal = game.legal_actions()
    if legal.entity != lay.entity or LayTile.type not in legal.types:
        return False
    return game.why_illegal(lay) is None


def try_tile_lay(game: Game, lay: LayTile, *, before: RouteSummary | None = None,
                 cancel: Cancel | None = None, placer: Placer | None = None
                 ) -> SandboxTrial:
    """Lay a tile for any company on a copy of `game` and price its best routes.

    Args:
        game: the position (never changed).
        lay: the lay; its ``entity`` is the company (``entity_type`` "corporation").
        before: the company's best routes in `game`, when already known.
        cancel: passed to the route search (each of the two searches).
        placer: applies the lay (default: the title's track rules).

    Raises:
        IllegalAction: the rules refuse the lay for that company.
    """
    if lay.entity not in game.corps:
        raise IllegalAction(f"{lay.entity} is not a company")
    after_game = lay_for(game, lay, placer=placer)
    if before is None:
        before = best_routes_of(game, lay.entity, cancel=cancel)
    after = best_routes_of(after_game, lay.entity, cancel=cancel)
    return SandboxTrial(lay, after_game, before, after, is_own_move(game, lay))


__all__ = [
    "Cancel",
    "Progress",
    "RouteSummary",
    "SandboxTrial",
    "best_routes_of",
    "hex_lay_offer",
    "is_own_move",
    "lay_for",
    "lay_offers",
    "try_tile_lay",
]
