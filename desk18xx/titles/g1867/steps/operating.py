"""1867 operating-round steps (card: "Operating round" … "Buy trains").

Order (18xx ``g_1867/game.rb#operating_round``): trainless major, buy private
(non-blocking), redeem, track, token, routes, dividend, buy private before
loans, loans, discard, buy trains, buy private.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from desk18xx.engine.actions import (
    Action,
    BuyCompany,
    BuyShares,
    Pass,
    RunRoutes,
)
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.round import Step
from desk18xx.engine.state import BANK, POOL
from desk18xx.engine.steps.dividend import DividendStep as GenericDividend
from desk18xx.titles.g1867 import board as B
from desk18xx.titles.g1867 import rules as R
from desk18xx.titles.g1867.revenue import check_routes
from desk18xx.titles.g1867.steps.stock import g
from desk18xx.titles.g1867.steps.track import TokenStep, Track
from desk18xx.titles.g1867.steps.trains import BuyTrainStep

__all__ = ["BuyCompanyBlocking", "BuyCompanyStep", "BuyTrainStep", "DividendStep",
           "LoanOperations", "RedeemShares", "RouteStep", "TokenStep", "Track"]

if TYPE_CHECKING:
    from desk18xx.engine.game import Game


class BuyCompanyStep(Step):
    """A corporation buys a private from a player, $1 to face, phases 3-5."""

    blocks: ClassVar[bool] = False

    def purchasable(self, game: Game) -> list[str]:
        """Privates owned by players."""
        return [c.id for c in game.companies.values()
                if c.owner is not None and game.is_player(c.owner) and not c.closed]

    def can_buy(self, game: Game, entity: str) -> bool:
        """Phase allows and the company has at least $1."""
        return (entity == self.current_entity(game) and entity in game.corps
                and "can_buy_companies" in game.phase.status
                and bool(self.purchasable(game)) and game.cash[entity] >= 1)

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        if not self.can_buy(game, entity):
            return ()
        return (BuyCompany, Pass) if self.blocks else (BuyCompany,)

    def details(self, game: Game, entity: str) -> dict[str, Any]:
        return {"companies": [{"company": c, "owner": game.companies[c].owner, "min_price": 1,
                               "max_price": min(game.companies[c].value, game.cash[entity])}
                              for c in self.purchasable(game)]}

    def process(self, game: Game, action: Action) -> None:
        match action:
            case BuyCompany():
                company = game.companies.get(action.company)
                if company is None or action.company not in self.purchasable(game):
                    raise IllegalAction(f"{action.company} cannot be bought")
                if not 1 <= action.price <= company.value:
                    raise IllegalAction(f"price must be $1 to ${company.value}")
                assert company.owner is not None
                game.transfer(action.entity, company.owner, action.price)
                company.owner = action.entity
                game.corps[action.entity].companies.append(company.id)
            case Pass():
                self.pass_(game)
            case _:
                raise IllegalAction(f"{action.type} is not a private purchase")


class BuyCompanyBlocking(BuyCompanyStep):
    """The same, as a stop of its own."""

    blocks: ClassVar[bool] = True


class RedeemShares(Step):
    """A major buys back pool shares at the current price (card: "OR Redeem")."""

    def redeemable(self, game: Game, entity: str) -> list[str]:
        """Pool shares it can pay for."""
        gm = g(game)
        if not gm.is_major(entity):
            return []
        pool = [s for s in gm.shares_of(POOL, entity)]
        if not pool:
            return []
        price = gm.price(entity)
        return [s.id for s in pool] if game.cash[entity] >= price else []

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        if entity != self.current_entity(game) or not self.redeemable(game, entity):
            return ()
        return (BuyShares, Pass)

    def process(self, game: Game, action: Action) -> None:
        match action:
            case BuyShares():
                gm = g(game)
                ok = set(self.redeemable(game, action.entity))
                if not action.shares or any(s not in ok for s in action.shares):
                    raise IllegalAction("only pool shares can be redeemed")
                cost = gm.price(action.entity) * len(action.shares)
                game.transfer(action.entity, BANK, cost)
                game.move_shares(action.shares, action.entity)
                self.passed = True
            case Pass():
                self.pass_(game)
            case _:
                raise IllegalAction(f"{action.type} is not a redemption")


class RouteStep(Step):
    """Declare routes; each is validated and its revenue recomputed."""

    def setup(self, game: Game) -> None:
        self.revenue = 0
        self.ran = False

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        if entity != self.current_entity(game) or entity not in game.corps:
            return ()
        # 18xx step/route.rb: skipped without a train still to run this OR or a route
        if all(game.trains[t].operated for t in game.corps[entity].trains):
            return ()
        board = g(game).board
        if board is None or not B.can_run_from_one_token(board, entity):
            return ()
        return (RunRoutes,)

    def process(self, game: Game, action: Action) -> None:
        if not isinstance(action, RunRoutes):
            raise IllegalAction(f"{action.type} is not a run")
        for route in action.routes:
            train = game.trains.get(route.train)
            if train is not None and train.operated:
                raise IllegalAction(f"train {route.train} already ran this round")
        revenues = check_routes(g(game), action.entity, action.routes)
        self.revenue = sum(revenues) + (action.extra_revenue or 0)
        self.ran = True
        self.passed = True


class DividendStep(GenericDividend):
    """Majors pay out, withhold or half pay; minors always half pay (card: "OR Pay dividends")."""

    KINDS: ClassVar[tuple[str, ...]] = ("payout", "half", "withhold")

    def revenue(self, game: Game) -> int:
        step = self.round.step_of(RouteStep)
        return step.revenue if isinstance(step, RouteStep) else 0

    def automatic_kind(self, game: Game, entity: str) -> str | None:
        # card: "A minor with revenue must half pay"; 18xx: minors never send dividend
        if g(game).is_minor(entity):
            return "payout" if self.revenue(game) > 0 else "withhold"
        return None

    def kept(self, game: Game, entity: str, kind: str, revenue: int) -> int:
        if g(game).is_minor(entity):
            return revenue // 2 if kind == "payout" else revenue
        if kind == "half":
            return revenue // 2 // 10 * 10  # card: "keeping half, rounded down to $10"
        return super().kept(game, entity, kind, revenue)

    def pay_holders(self, game: Game, entity: str, paid: int) -> None:
        gm = g(game)
        if not gm.is_minor(entity):
            super().pay_holders(game, entity, paid)
            return
        owner = gm.owner(entity)
        if self.revenue(game) // 2 > 0 and owner is not None:
            gm.transfer(BANK, owner, paid)

    def move_price(self, game: Game, entity: str, kept: int, paid: int) -> None:
        # card: "Withhold, or no run, <-1 · pay a total < price 0 · >= price ->1";
        # minors: "Nothing <-1 · anything ->1"
        gm = g(game)
        if gm.is_minor(entity):
            gm.move_price(entity, "right" if paid > 0 else "left")
        elif paid <= 0:
            gm.move_price(entity, "left")
        elif paid >= gm.price(entity):
            gm.move_price(entity, "right")


class LoanOperations(Step):
    """Interest on the loans held at the OR start, then automatic repayment (card: "OR Loans")."""

    def skip(self, game: Game) -> None:
        self.passed = True
        gm = g(game)
        entity = self.current_entity(game)
        if entity is None or entity not in gm.corps:
            return
        owed = 5 * gm.interest.get(entity, 0)
        while owed > game.cash[entity] and gm.can_take_loan(entity):
            gm.take_loan(entity)
        if owed > game.cash[entity]:
            gm.nationalize(entity)
            return
        if owed:
            game.transfer(entity, BANK, owed)
        while gm.corps[entity].loans and game.cash[entity] >= R.LOAN_VALUE:
            gm.repay_loan(entity)
        gm.interest[entity] = gm.corps[entity].loans
