"""1822CA rounds, each written out once as an ordered tuple of steps (STYLE.md §4).

18xx ``g_1822_ca/game.rb``: ``stock_round``, ``operating_round``;
``g_1822/round/choices.rb``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from desk18xx.engine.actions import Action
from desk18xx.engine.round import PlayerStockRound, Round, RoundKind, Step
from desk18xx.titles.g1822ca.steps.acquisition import (
    AcquireCompany,
    AcquisitionTrack,
    Consent,
    MinorAcquisition,
)
from desk18xx.titles.g1822ca.steps.base import g
from desk18xx.titles.g1822ca.steps.operating import (
    AssignSawmill,
    DestinationToken,
    DividendStep,
    FirstTurnHousekeeping,
    IssueShares,
    PendingToken,
    RouteStep,
    SpecialToken,
    SpecialTrack,
    TokenStep,
    TrackStep,
)
from desk18xx.titles.g1822ca.steps.stock import BuySellParShares, ChooseDouble, DiscardTrain
from desk18xx.titles.g1822ca.steps.trains import BuyTrainStep

if TYPE_CHECKING:
    from desk18xx.engine.game import Game

STOCK_ROUND: tuple[type[Step], ...] = (DiscardTrain, BuySellParShares)
CHOICES_ROUND: tuple[type[Step], ...] = (ChooseDouble,)
OPERATING_ROUND: tuple[type[Step], ...] = (
    Consent, DiscardTrain, PendingToken, FirstTurnHousekeeping, AcquireCompany, AssignSawmill,
    SpecialTrack, SpecialToken, TrackStep, PendingToken, DestinationToken, TokenStep, RouteStep,
    DividendStep, BuyTrainStep, MinorAcquisition, AcquisitionTrack, PendingToken,
    IssueShares,
)


class StockRound(PlayerStockRound):
    """Players in order until all pass in a row (RB 4; 18xx ``G1822::Round::Stock``)."""

    kind: ClassVar[RoundKind] = RoundKind.STOCK

    def __init__(self, game: Game) -> None:
        gm = g(game)
        gm.boxes.setup()
        gm.tax_haven_bought = False
        self.players_sold: dict[str, set[str]] = {p.id: set() for p in gm.players}
        for p in gm.players:
            p.passed = False
        super().__init__(game, STOCK_ROUND)

    def finish(self, game: Game) -> None:
        """Resolve the bid boxes, debts grow, sold-out majors rise (supplement §9)."""
        gm = g(game)
        if gm.config.end_on_nothing_sold_in_sr1 and gm.nothing_sold_in_sr and gm.turn == 1:
            gm.end_game("dnf")
            return
        gm.boxes.resolve()
        corps = [c for c, corp in gm.corps.items() if corp.floated and gm.is_major(c)]
        corps.sort(key=lambda c: gm.market.order_key(c, c))
        for c in corps:
            held = sum(gm.percent_of(p.id, c) for p in gm.players)
            held += gm.percent_of("P11~haven", c)
            if held >= 100:
                gm.move_price(c, "right")
        gm.game_end_check()


class ChoicesRound(Round):
    """After each SR: the P7 owner may double his cash for the player order (RB 4.11.13)."""

    kind: ClassVar[RoundKind] = RoundKind.STOCK

    def __init__(self, game: Game) -> None:
        super().__init__(game, CHOICES_ROUND)

    def select_entities(self, game: Game) -> list[str]:
        gm = g(game)
        p7 = gm.companies.get("P7")
        if p7 is None or p7.closed or p7.owner is None or not gm.is_player(p7.owner):
            return []
        return [p7.owner]

    def start(self, game: Game) -> None:
        self.skip_steps(game)


class OperatingRound(Round):
    """Floated minors then majors in price order, fixed at the start except after an
    emergency share sale (RB 5.2)."""

    kind: ClassVar[RoundKind] = RoundKind.OPERATING

    def __init__(self, game: Game, round_num: int) -> None:
        self.laid_hexes: list[str] = []
        self.num_laid_track = 0
        self.upgraded = False
        self.tokened = False
        self.routes_revenue: dict[str, int] = {}
        self.route_nodes: dict[str, tuple[str, ...]] = {}
        self.pending_tokens: list[tuple[str, tuple[str, ...], int]] = []
        """(corporation, hexes, price) of tokens that must be placed now."""
        self.extra_choice: str | None = None
        self.recorded_subsidy: int | None = None
        self.acquired: list[str] = []
        self.acquiring_major: str | None = None
        self.grant_used = False
        self.grant_lays = 0
        self.big_city_used: set[str] = set()
        self.consent: tuple[str, Action] | None = None
        """(player, proposed deal) waiting for that player's consent (rulebook mode)."""
        self.consented = False
        """True while a consented deal is carried out."""
        self.refused: set[tuple[str, str]] = set()
        """Deals (``deal_key``) refused in this turn: they are not put again."""
        super().__init__(game, OPERATING_ROUND, round_num)

    def select_entities(self, game: Game) -> list[str]:
        return g(game).operating_order()

    def skip_entity(self, game: Game, entity: str) -> bool:
        """Closed companies do not operate."""
        c = game.corps.get(entity)
        return c is None or c.closed or not c.floated

    def start(self, game: Game) -> None:
        gm = g(game)
        gm.payout_companies()
        gm.game_end_check()
        if self.entities:
            self.start_operating(game)

    def is_finished(self, game: Game) -> bool:
        if game.finished:
            return True
        if self.entity_index < len(self.entities) - 1:
            return False
        return self.active_step(game) is None

    def reset_turn(self) -> None:
        """Per-company state of a turn."""
        self.laid_hexes = []
        self.num_laid_track = 0
        self.upgraded = False
        self.tokened = False
        self.routes_revenue = {}
        self.route_nodes = {}
        self.extra_choice = None
        self.recorded_subsidy = None
        self.acquiring_major = None
        self.grant_used = False
        self.grant_lays = 0
        self.big_city_used = set()
        self.consent = None
        self.refused = set()

    def start_operating(self, game: Game) -> None:
        """Begin the current company's turn (home token first; 18xx ``start_operating``)."""
        entity = self.entities[self.entity_index]
        if self.skip_entity(game, entity):
            self.next_entity(game)
            return
        self.reset_turn()
        g(game).start_turn(entity, self)
        self.reset_steps(game)
        self.skip_steps(game)
        if self.active_step(game) is None:
            self.next_entity(game)

    def next_entity(self, game: Game) -> None:
        """The next company operates."""
        g(game).finish_turn(self.entities[self.entity_index])
        if self.entity_index >= len(self.entities) - 1:
            return
        self.entity_index += 1
        self.start_operating(game)

    def after_process(self, game: Game, action: Action) -> None:
        if self.settled_step(game) is not None or game.finished:
            return
        self.next_entity(game)

    def recalculate_order(self, game: Game) -> None:
        """Re-sort the companies still to run by today's prices after an emergency share
        sale (RB 5.2.5; 18xx ``EmergencyMoney#process_sell_shares`` → ``recalculate_order``)."""
        rest = set(self.entities[self.entity_index + 1:])
        self.entities = self.entities[:self.entity_index + 1] + [
            c for c in g(game).operating_order() if c in rest]

    def current(self) -> str:
        """The operating company."""
        return self.entities[self.entity_index]
