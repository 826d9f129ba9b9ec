"""Pay out or withhold the revenue of a run (generic; 18xx ``Step::Dividend``).

Titles override the hooks: :meth:`DividendStep.revenue` (where the run's
revenue is kept), :meth:`~DividendStep.automatic_kind` (companies that do not
choose), :meth:`~DividendStep.kept` (what the treasury keeps for a kind),
:meth:`~DividendStep.pay_holders` and :meth:`~DividendStep.move_price`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from desk18xx.engine.actions import Action, Dividend
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.round import Step
from desk18xx.engine.state import BANK

if TYPE_CHECKING:
    from desk18xx.engine.game import Game


class DividendStep(Step):
    """One dividend decision per operating turn."""

    KINDS: ClassVar[tuple[str, ...]] = ("payout", "withhold")

    # -- hooks ----------------------------------------------------------------------------
    def revenue(self, game: Game) -> int:
        """Revenue of this turn's run."""
        return 0

    def automatic_kind(self, game: Game, entity: str) -> str | None:
        """The kind used without asking (None: the company chooses)."""
        return None

    def kept(self, game: Game, entity: str, kind: str, revenue: int) -> int:
        """What the treasury keeps."""
        return revenue if kind == "withhold" else 0

    def pay_holders(self, game: Game, entity: str, paid: int) -> None:
        """Pay ``paid`` per share to the holders (players, and the treasury for its own
        shares); rounded up per holder as 18xx ``dividends_for_entity``."""
        total = game.total_shares(entity)
        for holder in [p.id for p in game.players] + [entity]:
            n = game.num_shares_of(holder, entity)
            amount = -(-(n * paid) // total)
            if amount:
                game.transfer(BANK, holder, amount)

    def move_price(self, game: Game, entity: str, kept: int, paid: int) -> None:
        """Share-price movement after the payment."""

    # -- the step -------------------------------------------------------------------------
    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        if entity != self.current_entity(game) or entity not in game.corps:
            return ()
        if self.automatic_kind(game, entity) is not None or not self.revenue(game):
            return ()
        return (Dividend,)

    def details(self, game: Game, entity: str) -> dict[str, Any]:
        revenue = self.revenue(game)
        return {"revenue": revenue, "kinds": list(self.KINDS),
                "kept": {k: self.kept(game, entity, k, revenue) for k in self.KINDS}}

    def skip(self, game: Game) -> None:
        entity = self.current_entity(game)
        if entity is None or entity not in game.corps:
            self.passed = True
            return
        self.pay(game, entity, self.automatic_kind(game, entity) or "withhold")

    def process(self, game: Game, action: Action) -> None:
        if not isinstance(action, Dividend) or action.kind not in self.KINDS:
            raise IllegalAction(f"choose one of {', '.join(self.KINDS)}")
        self.pay(game, action.entity, action.kind)

    def pay(self, game: Game, entity: str, kind: str) -> None:
        """Keep, pay out, move the price; the company has now operated."""
        revenue = self.revenue(game)
        kept = self.kept(game, entity, kind, revenue)
        if kept:
            game.transfer(BANK, entity, kept)
        paid = revenue - kept
        if paid:
            self.pay_holders(game, entity, paid)
        self.move_price(game, entity, kept, paid)
        corp = game.corps[entity]
        corp.operated = True
        for tid in corp.trains:
            game.trains[tid].operated = True
        self.passed = True
