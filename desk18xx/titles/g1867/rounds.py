"""1867 rounds, each written out once as an ordered tuple of steps (STYLE.md §4).

18xx ``g_1867/game.rb``: ``new_auction_round``, ``stock_round``,
``operating_round``, ``merger_round``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from desk18xx.engine.actions import Action
from desk18xx.engine.round import PlayerStockRound, Round, RoundKind, Step
from desk18xx.titles.g1867.steps.auction import PrivateAuction
from desk18xx.titles.g1867.steps.merger import (
    MergeStep,
    PostMergerShares,
    ReduceTokens,
)
from desk18xx.titles.g1867.steps.operating import (
    BuyCompanyBlocking,
    BuyCompanyStep,
    BuyTrainStep,
    DividendStep,
    LoanOperations,
    RedeemShares,
    RouteStep,
    TokenStep,
    Track,
)
from desk18xx.titles.g1867.steps.stock import (
    BuySellParShares,
    DiscardTrains,
    HomeToken,
    MajorTrainless,
    g,
)

if TYPE_CHECKING:
    from desk18xx.engine.game import Game

AUCTION_ROUND: tuple[type[Step], ...] = (PrivateAuction,)
STOCK_ROUND: tuple[type[Step], ...] = (MajorTrainless, DiscardTrains, HomeToken,
                                       BuySellParShares)
OPERATING_ROUND: tuple[type[Step], ...] = (
    MajorTrainless, BuyCompanyStep, RedeemShares, Track, TokenStep, RouteStep, DividendStep,
    BuyCompanyBlocking, LoanOperations, DiscardTrains, BuyTrainStep, BuyCompanyBlocking,
)
MERGER_ROUND: tuple[type[Step], ...] = (MajorTrainless, ReduceTokens, PostMergerShares,
                                        DiscardTrains, MergeStep)


class AuctionRound(Round):
    """The private auction."""

    kind: ClassVar[RoundKind] = RoundKind.AUCTION

    def __init__(self, game: Game) -> None:
        super().__init__(game, AUCTION_ROUND)

    def select_entities(self, game: Game) -> list[str]:
        return [p.id for p in game.players]


class StockRound(PlayerStockRound):
    """Players in priority order until all pass in a row."""

    kind: ClassVar[RoundKind] = RoundKind.STOCK
    advance_before_finish: ClassVar[bool] = True

    def __init__(self, game: Game) -> None:
        super().__init__(game, STOCK_ROUND)

    def finish(self, game: Game) -> None:
        """Sold-out majors move up (card: "Sold out at the end of the round")."""
        gm = g(game)
        corps = [c for c in gm.live_corps() if gm.corps[c].floated and gm.is_major(c)]
        corps.sort(key=lambda c: gm.market.order_key(c, c))
        for c in corps:
            held = sum(gm.percent_of(p.id, c) for p in gm.players)
            if held == 100:
                gm.move_price(c, "up")


class OperatingRound(Round):
    """Floated minors then majors, in price order, fixed at the start."""

    kind: ClassVar[RoundKind] = RoundKind.OPERATING

    def __init__(self, game: Game, round_num: int) -> None:
        super().__init__(game, OPERATING_ROUND, round_num)

    def select_entities(self, game: Game) -> list[str]:
        return g(game).operating_order()

    def skip_entity(self, game: Game, entity: str) -> bool:
        """Closed or nationalised companies do not operate."""
        c = game.corps.get(entity)
        return c is None or c.closed or not c.floated

    def start(self, game: Game) -> None:
        g(game).payout_companies()
        for cid in self.entities:
            for tid in game.corps[cid].trains:
                game.trains[tid].operated = False
        if self.any_to_act(game):
            self.start_operating(game)

    def any_to_act(self, game: Game) -> bool:
        """Someone still operates."""
        return any(not self.skip_entity(game, e) for e in self.entities)

    def is_finished(self, game: Game) -> bool:
        return self.active_step(game) is None or not self.any_to_act(game)

    def start_operating(self, game: Game) -> None:
        """Begin the current company's turn."""
        if not self.entities:
            return
        entity = self.entities[self.entity_index]
        if self.skip_entity(game, entity):
            self.next_entity(game)
            return
        self.skip_steps(game)
        if self.active_step(game) is None:
            self.next_entity(game)

    def next_entity(self, game: Game) -> None:
        """The next company operates."""
        if self.entity_index >= len(self.entities) - 1:
            return
        self.entity_index += 1
        if self.skip_entity(game, self.entities[self.entity_index]):
            self.next_entity(game)
            return
        self.reset_steps(game)
        self.start_operating(game)

    def after_process(self, game: Game, action: Action) -> None:
        if self.settled_step(game) is not None:
            return
        if not game.finished:
            self.next_entity(game)

    def force_next_entity(self, game: Game) -> None:
        for step in self.steps:
            step.passed = True
        self.next_entity(game)

    def operator(self) -> str | None:
        """The company whose turn it is."""
        return self.entities[self.entity_index] if self.entities else None


class MergerRound(Round):
    """After each OR in phases 3-7: each minor by price may convert or merge."""

    kind: ClassVar[RoundKind] = RoundKind.MERGER

    def __init__(self, game: Game, round_num: int) -> None:
        self.converted: str | None = None
        self.merge_type: str | None = None
        self.dealing_players: list[str] = []
        self.dealing_multiple: list[str] = []
        self.removing_tokens: list[str] = []
        self.pre_merge: Game | None = None
        """The game before the current merge began (card mode: undone without president)."""
        super().__init__(game, MERGER_ROUND, round_num)

    def select_entities(self, game: Game) -> list[str]:
        gm = g(game)
        minors = [c for c in gm.live_corps() if gm.corps[c].floated and gm.is_minor(c)]
        minors.sort(key=lambda c: gm.market.order_key(c, c))
        return minors

    def start(self, game: Game) -> None:
        self.skip_steps(game)
        if self.is_finished(game):
            self.next_entity(game)

    def after_process(self, game: Game, action: Action) -> None:
        if self.settled_step(game) is not None:
            return
        self.converted = None
        self.pre_merge = None
        for p in game.players:
            p.passed = False
        self.next_entity(game)

    def next_entity(self, game: Game) -> None:
        """The next minor decides (18xx ``G1867::Round::Merger#next_entity!``)."""
        while True:
            if self.entities:
                self.entity_index = (self.entity_index + 1) % len(self.entities)
            if self.entity_index == 0:
                return
            self.reset_steps(game)
            self.skip_steps(game)
            if not self.is_finished(game):
                return
