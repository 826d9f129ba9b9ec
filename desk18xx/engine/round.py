"""Rounds and steps (STYLE.md §4).

A round is an ordered tuple of steps.  An incoming action goes to the first
step that is active and either accepts that action type for the entity or
*blocks* (has something to offer its current entity).  After every action the
round skips every leading blocking-type step that has nothing to offer, and
some steps do work when skipped (minor dividends, loan interest).  This is
the reference engine's model (18xx ``round/base.rb``), which decides what a
recorded ``pass`` means.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar

from desk18xx.engine.actions import Action, Pass
from desk18xx.engine.errors import IllegalAction

if TYPE_CHECKING:
    from desk18xx.engine.game import Game


class RoundKind(StrEnum):
    """Closed set of round kinds."""

    AUCTION = "auction"
    STOCK = "stock"
    OPERATING = "operating"
    MERGER = "merger"


class Step:
    """One decision point of a round.

    Subclasses override :meth:`legal` and :meth:`process`; ``blocks`` says
    whether the step holds the round while it has actions to offer.
    """

    blocks: ClassVar[bool] = True
    #: ``active_entities`` may change the game (then :meth:`Round.process` asks
    #: ``legal`` again for the blocking test instead of reusing its first answer).
    entities_mutate: ClassVar[bool] = False

    def __init__(self, round_: Round) -> None:
        self.round = round_
        self.passed = False
        self.acted = False

    # -- what may happen -----------------------------------------------------------------
    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        """The action types ``entity`` may take in this step now."""
        return ()

    def process(self, game: Game, action: Action) -> None:
        """Validate, then apply ``action``.

        Raises:
            IllegalAction: the action is not allowed.
        """
        if isinstance(action, Pass):
            self.pass_(game)
            return
        raise IllegalAction(f"{type(self).__name__} cannot process {action.type}")

    # -- life cycle ----------------------------------------------------------------------
    def setup(self, game: Game) -> None:
        """Called when the round starts and again for every new entity."""

    def is_active(self, game: Game) -> bool:
        """False once the step has been passed."""
        return not self.passed

    def pass_(self, game: Game) -> None:
        """Mark the step done for the current entity."""
        self.passed = True

    def unpass(self) -> None:
        """Re-open the step (new entity)."""
        self.passed = False
        self.acted = False

    def skip(self, game: Game) -> None:
        """Skip the step because it has nothing to offer (may do automatic work)."""
        self.pass_(game)

    def active_entities(self, game: Game) -> list[str]:
        """Who acts in this step, first first."""
        r = self.round
        if not r.entities:
            return []
        return [r.entities[r.entity_index]]

    def current_entity(self, game: Game) -> str | None:
        """The entity that acts now."""
        ents = self.active_entities(game)
        return ents[0] if ents else None

    def current_legal(self, game: Game) -> tuple[type[Action], ...]:
        """Actions of the current entity."""
        entity = self.current_entity(game)
        if entity is None or game.is_closed(entity):
            return ()
        return self.legal(game, entity)

    def is_blocking(self, game: Game) -> bool:
        """True when the step blocks and has actions for its entity."""
        return self.blocks and bool(self.current_legal(game))

    def details(self, game: Game, entity: str) -> dict[str, Any]:
        """Extra information for a user interface (ranges, choices)."""
        return {}

    #: A programmed share pass (`desk18xx.engine.programs`) may pass for a player in
    #: this step (the stock round's buy/sell step; 18xx ``ProgrammerSharePass``).
    share_programs: ClassVar[bool] = False

    def is_normal_pass(self, game: Game, entity: str) -> bool:
        """True when a pass now ends the entity's turn as usual, not a bid or a
        protection (a programmed pass only fires then; 18xx ``normal_pass?``)."""
        return True

    def must_sell(self, game: Game, entity: str) -> bool:
        """True when the player must sell before anything else (over the certificate
        limit; 18xx ``must_sell?``): programmed orders stop then."""
        return False

    #: A programmed merger pass may pass for a corporation in this step (the 1867
    #: merger round's merge step; 18xx ``ProgrammerMergerPass``).
    merger_programs: ClassVar[bool] = False

    def others_acted(self, game: Game) -> bool:
        """True once a corporation merged or converted in this round (18xx
        ``others_acted?``): a merger pass with ``disable_others`` stops then."""
        return False


class Round:
    """An ordered tuple of steps and the entities who act in turn."""

    kind: ClassVar[RoundKind]

    _settled: Step | None = None
    """Set only inside :meth:`process`, between skipping steps and ``after_process``."""

    def __init__(self, game: Game, step_types: tuple[type[Step], ...], round_num: int = 1
                 ) -> None:
        self.round_num = round_num
        self.entity_index = 0
        self.entities: list[str] = self.select_entities(game)
        self.steps: list[Step] = [cls(self) for cls in step_types]
        for step in self.steps:
            step.setup(game)

    # -- entities ------------------------------------------------------------------------
    def select_entities(self, game: Game) -> list[str]:
        """Who takes turns in this round."""
        return []

    def step_of(self, cls: type[Step]) -> Step | None:
        """The step of type ``cls``, if the round has one."""
        for step in self.steps:
            if isinstance(step, cls):
                return step
        return None

    def active_step(self, game: Game) -> Step | None:
        """The first active, blocking step."""
        for step in self.steps:
            if step.is_active(game) and step.is_blocking(game):
                return step
        return None

    def current_entity(self, game: Game) -> str | None:
        """Who must act now."""
        step = self.active_step(game)
        return None if step is None else step.current_entity(game)

    def is_finished(self, game: Game) -> bool:
        """True when no step has anything left to do."""
        return self.active_step(game) is None

    def legal_for(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        """Every action type ``entity`` may take now (18xx ``actions_for``)."""
        out: list[type[Action]] = []
        for step in self.steps:
            if not step.is_active(game):
                continue
            for cls in step.legal(game, entity):
                if cls not in out:
                    out.append(cls)
            if step.is_blocking(game):
                break
        return tuple(out)

    # -- processing ----------------------------------------------------------------------
    def process(self, game: Game, action: Action, target: Step | None = None) -> None:
        """Route ``action`` to its step, then skip empty steps and advance turns.
        ``target``: that step, when the caller has found it as this does (the door,
        `desk18xx.engine.game.Game.door`, asked the same steps the same questions
        in the same position).

        Raises:
            IllegalAction: no step accepts the action now.
        """
        for step in () if target is not None else self.steps:
            if not step.is_active(game):
                continue
            offered = step.legal(game, action.entity)
            accepts = type(action) in offered
            if not step.entities_mutate and type(step).is_blocking is Step.is_blocking \
                    and type(step).current_legal is Step.current_legal \
                    and step.current_entity(game) == action.entity \
                    and not game.is_closed(action.entity):
                blocking = step.blocks and bool(offered)  # the same legal() call
            else:
                blocking = step.is_blocking(game)
            if blocking and not accepts:
                who = step.current_entity(game)
                raise IllegalAction(
                    f"{action.type} by {action.entity} is not possible now: "
                    f"{type(step).__name__} waits for {who}"
                )
            if accepts or blocking:
                target = step
                break
        if target is None:
            raise IllegalAction(f"{action.type} by {action.entity} is not possible now")
        target.process(game, action)
        target.acted = True
        self.after_process_before_skip(game, action)
        if type(self).skip_steps is Round.skip_steps:
            self._settled = self._skip_steps(game)
        else:
            self.skip_steps(game)
        try:
            self.after_process(game, action)
        finally:
            self.__dict__.pop("_settled", None)  # the class default again; never saved

    def settled_step(self, game: Game) -> Step | None:
        """:meth:`active_step`, reusing the step ``skip_steps`` stopped at during
        :meth:`process` when nothing has changed since (call it first thing in
        :meth:`after_process`)."""
        settled = self._settled
        return settled if settled is not None else self.active_step(game)

    def skip_steps(self, game: Game) -> None:
        """Skip leading blocking-type steps that have nothing to offer."""
        self._skip_steps(game)

    def _skip_steps(self, game: Game) -> Step | None:
        """:meth:`skip_steps`; returns the step it stopped at when it skipped none and
        no non-blocking-type step overrides ``is_blocking`` (that step is then the
        active step: :meth:`active_step` asks the same steps the same questions)."""
        current = self.entities[self.entity_index] if self.entities else None
        if current is not None and game.is_closed(current):
            return None
        skipped = False
        index = self.entity_index
        for step in self.steps:
            if self.entity_index != index or (current is not None and game.is_closed(current)):
                # a skip closed the entity (1867: nationalised for unpaid interest) and
                # the turn moved on: the next entity's steps are not this loop's to skip
                # (18xx ``Round::Base#skip_steps`` stops at a closed entity; D40)
                return None
            if not step.is_active(game) or not step.blocks:
                continue
            if step.is_blocking(game):
                if skipped or any(not s.blocks and type(s).is_blocking is not Step.is_blocking
                                  for s in self.steps):
                    return None
                return step
            step.skip(game)
            skipped = True
        return None

    def after_process_before_skip(self, game: Game, action: Action) -> None:
        """Hook before skipping."""

    def after_process(self, game: Game, action: Action) -> None:
        """Hook after every action (advance the turn)."""

    def start(self, game: Game) -> None:
        """Called once the round is installed as the game's round."""

    def reset_steps(self, game: Game) -> None:
        """Unpass and set up every step (new entity)."""
        for step in self.steps:
            step.unpass()
        for step in self.steps:
            step.setup(game)

    def force_next_entity(self, game: Game) -> None:
        """The current entity can no longer act (closed/nationalised)."""

    def operator(self) -> str | None:
        """The corporation whose turn it is (operating rounds)."""
        return None


class PlayerStockRound(Round):
    """Players in seating order until all pass in a row (18xx ``Round::Stock``).

    A title subclasses it once with its steps and its end-of-round ``finish``.
    """

    kind: ClassVar[RoundKind] = RoundKind.STOCK
    #: Move the turn on past the last player before finishing (1867: the
    #: priority deal goes to the player after the last to act).
    advance_before_finish: ClassVar[bool] = False

    def select_entities(self, game: Game) -> list[str]:
        return [p.id for p in game.players]

    def start(self, game: Game) -> None:
        self.skip_steps(game)
        if self.active_step(game) is None:
            self.next_entity(game)

    def is_finished(self, game: Game) -> bool:
        return game.finished or all(p.passed for p in game.players)

    def after_process(self, game: Game, action: Action) -> None:
        if self.settled_step(game) is not None:
            return
        self.next_entity(game)

    def next_entity(self, game: Game) -> None:
        """Advance to the next player (18xx ``Round::Stock#next_entity!``)."""
        for _ in range(100):
            if self.is_finished(game):
                if self.advance_before_finish:
                    self.entity_index = (self.entity_index + 1) % len(self.entities)
                self.finish(game)
                return
            self.entity_index = (self.entity_index + 1) % len(self.entities)
            self.reset_steps(game)
            self.skip_steps(game)
            if self.active_step(game) is not None:
                return
        raise RuntimeError("stock round cannot find a player to act")

    def finish(self, game: Game) -> None:
        """End-of-round effects (the title's rules)."""
