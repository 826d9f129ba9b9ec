"""The generic game: state tables, money, shares, trains, phases and the action fold.

A title subclasses :class:`Game` once and supplies its rounds and its hooks
(next round, game-end checks, player value).  ``Game.process`` applies one
action (validate, then mutate) and advances rounds; ``Game.copy`` gives a
snapshot for fast undo.
"""

from __future__ import annotations

import copy as _copy
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from itertools import compress
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from desk18xx.engine.actions import (
    STATE_NEUTRAL,
    Action,
    Choose,
    EndGame,
    LayTile,
    Message,
    Pass,
)
from desk18xx.engine.bidding import BidBoxView, ParOption
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.map.board import Board
from desk18xx.engine.market import Market
from desk18xx.engine.narration import Glance, consequences, glance
from desk18xx.engine.programs import PROGRAM_TYPES, Program
from desk18xx.engine.programs import TRACKED as SHARE_ACTIONS
from desk18xx.engine.programs import drop_stale as drop_stale_programs
from desk18xx.engine.programs import observe as observe_for_programs
from desk18xx.engine.programs import record as record_program
from desk18xx.engine.round import Round, RoundKind, Step
from desk18xx.engine.state import (
    BANK,
    DEPOT,
    POOL,
    Company,
    CorpKind,
    Corporation,
    Player,
    Share,
    Train,
)

if TYPE_CHECKING:
    from desk18xx.engine.offers import Offer
    from desk18xx.engine.optimizer.games import TitleRouting
    from desk18xx.engine.view import GameView

_OWNER = attrgetter("owner")


@dataclass(frozen=True, slots=True)
class GameSetup:
    """What a game is created from (the rest is the action list)."""

    title: str
    players: tuple[tuple[str, str], ...]
    """(id, name) in seating order."""
    seed: int = 0
    options: tuple[str, ...] = ()
    variant: str | None = None


@dataclass(frozen=True, slots=True)
class PhaseDef:
    """One phase of the game."""

    name: str
    tiles: tuple[str, ...]
    train_limit: dict[str, int]
    operating_rounds: int
    on: str | None = None
    status: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StepFacts:
    """What the acting step says besides its offers, as declared fields: a user
    interface reads these, not the keys of a step's ``details`` (issue 15)."""

    company: str | None = None
    """The private up for auction."""
    corporation: str | None = None
    """The minor up for auction (1822CA's bid boxes are `Game.bid_boxes`)."""
    min_bid: int | None = None
    """The least the next bid of that auction may be."""
    dutch: bool = False
    """The private's price has been lowered (1867: nobody bid)."""
    bids_this_turn: int | None = None
    bids_per_turn: int | None = None
    """Bids placed in this stock turn and the most allowed (1822CA, RB 4.10)."""
    acted_this_turn: bool = False
    """The player has acted in this stock turn: a pass ends it."""
    must_buy: bool = False
    """A company without a train must buy one."""
    choice_labels: tuple[tuple[str, str], ...] = ()
    """(choice, words) where a choice's key says too little (1822CA's Pullman)."""
    hexes: tuple[str, ...] | None = None
    """The hexes the step is about, when it names them (1867: where a home token may
    go, the hexes the company's track reaches)."""

    @property
    def auction_item(self) -> str | None:
        """The private or minor an auction is about, None outside an auction."""
        item = self.company or self.corporation
        return item if self.min_bid is not None else None

    def label_of(self, choice: str) -> str | None:
        """The words of ``choice`` in `choice_labels`, if it has any."""
        return next((text for key, text in self.choice_labels if key == choice), None)

    @classmethod
    def of(cls, details: dict[str, Any]) -> StepFacts:
        """Read a step's ``details``: the one place their keys are known outside the steps."""
        def text(key: str) -> str | None:
            value = details.get(key)
            return None if value is None else str(value)

        def number(key: str) -> int | None:
            value = details.get(key)
            return value if isinstance(value, int) and not isinstance(value, bool) else None

        labels = details.get("choice_labels")
        hexes = details.get("hexes")
        return cls(
            company=text("company"), corporation=text("corporation"), min_bid=number("min_bid"),
            dutch=details.get("dutch") is True, bids_this_turn=number("bids_this_turn"),
            bids_per_turn=number("bids_per_turn"),
            acted_this_turn=bool(details.get("acted_this_turn")),
            must_buy=details.get("must_buy") is True,
            choice_labels=tuple((str(k), str(v)) for k, v in labels.items())
            if isinstance(labels, dict) else (),
            hexes=tuple(str(h) for h in hexes) if isinstance(hexes, (list, tuple)) else None)


@dataclass(frozen=True, slots=True)
class LegalActions:
    """Who acts now and what they may do (for a user interface)."""

    entity: str | None
    types: tuple[str, ...]
    round: str
    step: str | None
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def facts(self) -> StepFacts:
        """`details` as declared fields (`StepFacts`)."""
        return StepFacts.of(self.details)


class Game:
    """State and the fold of actions; subclassed once per title."""

    #: Title id (``"1867"``).
    title_id: str = ""

    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        self.players: list[Player] = [Player(pid, name) for pid, name in setup.players]
        self.player_ids: frozenset[str] = frozenset(pid for pid, _name in setup.players)
        self.cash: dict[str, int] = {BANK: 0}
        self.companies: dict[str, Company] = {}
        self.corps: dict[str, Corporation] = {}
        self.shares: dict[str, Share] = {}
        self._share_index: tuple[int, dict[str, list[Share]], dict[str, Share]] | None = None
        self.trains: dict[str, Train] = {}
        self.depot: list[str] = []
        """Train ids not yet sold, in order (the next new train first)."""
        self.phases: tuple[PhaseDef, ...] = ()
        self.phase_index = 0
        self.market: Market = Market({}, ())
        self.board: Board | None = None
        self.round: Round | None = None
        self.turn = 1
        self.finished = False
        self.end_reason: str | None = None
        self.log: list[str] = []
        self.actions_applied = 0
        self.entries = 0
        """Log entries processed, messages and orders included, auto actions not
        (18xx ``@game.actions``): tells a programmed order whether it is the last."""
        self.loading = False
        """Actions are being replayed from a stored log (18xx ``@game.loading``):
        checks the reference makes only in live play are skipped."""
        self.narrating = False
        """Record the consequences of each action in `events` (the application does;
        plain replays need not pay for it)."""
        self.events: list[tuple[int, tuple[str, ...]]] = []
        """(`live_count` after the action, its consequence lines), in order
        (`desk18xx.engine.narration`; history, not part of the position)."""
        self.live_count = 0
        """Log entries processed other than chat: the live actions of a log (a
        programmed action's follow-ups count with the entry that caused them)."""
        self.pending_restore: Game | None = None
        """A snapshot to return to after the current action (rule-driven undo)."""
        self._programs: dict[str, list[Program]] = {}
        """Orders in force per player (`desk18xx.engine.programs`; outside the digest)."""
        self._share_history: list[tuple[str | None, str | None, Action]] = []
        """This stock round's share actions: (player, corporation or company, action)."""

    # -- identity ------------------------------------------------------------------------
    def player(self, pid: str) -> Player:
        """Player by id."""
        for p in self.players:
            if p.id == pid:
                return p
        raise IllegalAction(f"no player {pid}")

    def is_player(self, entity: str) -> bool:
        """True when ``entity`` is a player id."""
        return entity in self.player_ids

    def corp(self, cid: str) -> Corporation:
        """Corporation by id.

        Raises:
            IllegalAction: unknown id.
        """
        c = self.corps.get(cid)
        if c is None:
            raise IllegalAction(f"no corporation {cid}")
        return c

    def is_closed(self, entity: str) -> bool:
        """True for a closed corporation."""
        c = self.corps.get(entity)
        return c is not None and c.closed

    def name_of(self, entity: str) -> str:
        """Display name."""
        if entity in self.corps:
            return entity
        for p in self.players:
            if p.id == entity:
                return p.name
        return entity

    @property
    def phase(self) -> PhaseDef:
        """The current phase."""
        return self.phases[self.phase_index]

    # -- money ---------------------------------------------------------------------------
    def transfer(self, src: str, dst: str, amount: int) -> None:
        """Move ``amount`` from ``src`` to ``dst``.

        Raises:
            IllegalAction: ``src`` (not the bank) cannot pay.
        """
        if amount < 0:
            raise IllegalAction(f"negative payment {amount}")
        if src != BANK and self.cash.get(src, 0) < amount:
            raise IllegalAction(f"{self.name_of(src)} cannot pay ${amount}")
        self.cash[src] = self.cash.get(src, 0) - amount
        self.cash[dst] = self.cash.get(dst, 0) + amount

    def total_money(self) -> int:
        """Sum of all cash (constant over a game)."""
        return sum(self.cash.values())

    # -- shares --------------------------------------------------------------------------
    def shares_of(self, holder: str, corp: str) -> list[Share]:
        """Certificates of ``corp`` held by ``holder``, in certificate order."""
        return [s for s in self.shares_of_corp(corp) if s.owner == holder]

    def shares_of_corp(self, corp: str) -> list[Share]:
        """All certificates of ``corp`` (index rebuilt when certificates are added/removed)."""
        index = self._share_index
        if index is None or index[0] != len(self.shares) or index[2] is not self.shares:
            by_corp: dict[str, list[Share]] = {}
            for s in self.shares.values():
                by_corp.setdefault(s.corp, []).append(s)
            index = (len(self.shares), by_corp, self.shares)
            self._share_index = index
        return index[1].get(corp, [])

    def shares_in_arrival_order(self, holder: str, corp: str) -> list[Share]:
        """Certificates of ``corp`` held by ``holder``, longest held first (18xx
        ``ShareHolder#shares_of``; certificates never moved keep certificate order)."""
        return sorted(self.shares_of(holder, corp), key=lambda s: s.since)

    def percent_of(self, holder: str, corp: str) -> int:
        """Percent of ``corp`` held by ``holder``."""
        return sum(s.percent for s in self.shares_of_corp(corp) if s.owner == holder)

    def president(self, corp: str) -> str | None:
        """Holder of the president's certificate (the owner)."""
        for s in self.shares_of_corp(corp):
            if s.president:
                return s.owner if self.is_player(s.owner) else None
        return None

    def owner(self, corp: str) -> str | None:
        """Player who controls ``corp``."""
        return self.president(corp)

    def num_certs(self, pid: str) -> int:
        """Certificates counting against the limit (privates included)."""
        shares = list(self.shares.values())
        held = compress(shares, map(pid.__eq__, map(_OWNER, shares)))  # C speed
        n = sum(1 for s in held if self.corps[s.corp].kind is not CorpKind.NATIONAL)
        return n + sum(1 for c in self.companies.values() if c.owner == pid and not c.closed)

    def move_shares(self, share_ids: Iterable[str], to: str) -> None:
        """Change the holder of certificates (no money)."""
        for sid in share_ids:
            self.shares[sid].owner = to

    def check_president(self, corp: str, previous: str | None) -> None:
        """Hand the president's certificate to the new majority holder, if any
        (18xx ``SharePool#transfer_shares``)."""
        holdings: dict[str, int] = {}
        for p in self.players:
            pct = self.percent_of(p.id, corp)
            if pct:
                holdings[p.id] = pct
        if not holdings:
            return
        best = max(holdings.values())
        if previous is not None and holdings.get(previous, 0) == best:
            return
        pres_share = next(s for s in self.shares.values() if s.corp == corp and s.president)
        candidates = [p for p, v in holdings.items() if v == best and v >= pres_share.percent]
        if not candidates:
            return
        order = [p.id for p in self.players]
        if previous is None or previous not in order:
            new = candidates[0] if pres_share.owner not in candidates else pres_share.owner
        else:
            start = order.index(previous)
            new = min(candidates, key=lambda p: (order.index(p) - start) % len(order))
        if pres_share.owner == new:
            return
        # the new president hands over ordinary certificates worth the president's share
        old_holder = pres_share.owner
        need = pres_share.percent
        given: list[Share] = []
        for s in self.shares_in_arrival_order(new, corp):
            if need <= 0:
                break
            if not s.president:
                given.append(s)
                need -= s.percent
        swap_to = old_holder if (self.is_player(old_holder)
                                 and self.percent_of(old_holder, corp) >= pres_share.percent) \
            else POOL
        for s in given:
            s.owner = swap_to
        pres_share.owner = new

    # -- trains --------------------------------------------------------------------------
    def depot_trains(self) -> list[Train]:
        """Trains buyable from the bank: the next new train of each type available, and
        the discarded ones."""
        out: list[Train] = []
        seen: set[str] = set()
        for tid in self.depot:
            t = self.trains[tid]
            if t.name in seen:
                continue
            if t.available_on is not None and not self.phase_reached(t.available_on):
                continue
            if not out or t.available_on is not None:
                out.append(t)
                seen.add(t.name)
        names: set[str] = set()
        for t in self.pool_trains():
            if t.name not in names:  # 18xx Depot#depot_trains: @discarded.uniq(&:name)
                names.add(t.name)
                out.append(t)
        return out

    def pool_trains(self) -> list[Train]:
        """Discarded trains in the bank pool, first discarded first."""
        return sorted((t for t in self.trains.values()
                       if t.owner == POOL and not t.rusted and t.buyable),
                      key=lambda t: t.pooled)

    def to_pool(self, train: Train) -> None:
        """Put ``train`` in the bank pool behind the trains discarded before it
        (18xx ``Depot#reclaim_train`` appends to ``@discarded``)."""
        train.owner = POOL
        train.pooled = 1 + max((t.pooled for t in self.trains.values()), default=0)

    def phase_reached(self, name: str) -> bool:
        """True when phase ``name`` has started."""
        names = [p.name for p in self.phases]
        return names.index(name) <= self.phase_index if name in names else False

    def train_limit(self, cid: str) -> int:
        """Train limit of ``cid`` now (title)."""
        return 99

    def crowded_corps(self) -> list[str]:
        """Companies above their train limit, in game order."""
        return [cid for cid, c in self.corps.items()
                if not c.closed and len(c.trains) > self.train_limit(cid)]

    def discard_train(self, cid: str, tid: str) -> None:
        """A company returns a train to the bank pool."""
        self.corps[cid].trains.remove(tid)
        self.to_pool(self.trains[tid])

    def total_shares(self, cid: str) -> int:
        """Number of shares of ``cid`` (title; 10 by default)."""
        return 10

    def num_shares_of(self, holder: str, cid: str) -> int:
        """Shares of ``cid`` held by ``holder``."""
        return self.percent_of(holder, cid) * self.total_shares(cid) // 100

    def corp_trains(self, corp: str) -> list[Train]:
        """Trains of ``corp`` in purchase order."""
        return [self.trains[t] for t in self.corps[corp].trains]

    # -- processing ----------------------------------------------------------------------
    def process(self, action: Action) -> None:
        """Apply one action and its nested auto actions.

        Raises:
            IllegalAction: the action is not allowed now; state is unchanged
                only if the failing check came before any mutation.
        """
        self.entries += 1
        if not isinstance(action, Message):
            self.live_count += 1
        before = glance(self) if self.narrating else None
        chosen = self._choice_label(action) if before is not None else None
        self._process_single(action)
        for auto in action.auto_actions:
            self._process_single(auto)
        if before is not None:
            self._narrate(action, before, chosen)

    def _choice_label(self, action: Action) -> str | None:
        """What a `Choose` picks, in the words of its offer ("Attach the grain train to
        the 3-train"), where they say more than the choice's key."""
        if not isinstance(action, Choose):
            return None
        from desk18xx.engine.offers import ChooseOffer

        for offer in self.offers(action.entity, (Choose.type,)):
            if isinstance(offer, ChooseOffer) and offer.choice == action.choice and offer.label:
                same = offer.label.lower() == action.choice.replace("_", " ").lower()
                return None if same else offer.label
        return None

    def _narrate(self, action: Action, before: Glance, chosen: str | None = None) -> None:
        """Record what ``action`` changed beyond its own sentence (`.narration`), the
        words of the offer a choice picked first."""
        lines = consequences(self, action, before, glance(self))
        if chosen is not None:
            lines = [chosen, *lines]
        if lines:
            self.events.append((self.live_count, tuple(lines)))

    def process_auto(self, action: Action) -> None:
        """Apply one action the programmed orders generated after the last entry
        (`desk18xx.engine.programs.run_programs`): not an entry of its own.

        Raises:
            IllegalAction: as `process`.
        """
        before = glance(self) if self.narrating else None
        self._process_single(action)
        if before is not None:
            self._narrate(action, before)

    @property
    def programs_in_force(self) -> dict[str, list[Program]]:
        """Player id -> programmed actions in force (`desk18xx.engine.programs`)."""
        return self._programs

    @property
    def share_history(self) -> list[tuple[str | None, str | None, Action]]:
        """This stock round's share actions, in order: (player, corporation or
        company, action) (18xx ``players_history``; for programmed passes)."""
        return self._share_history

    def _process_single(self, action: Action) -> None:
        if action.type in PROGRAM_TYPES and not self.finished:
            record_program(self, action)
            return
        if action.type in STATE_NEUTRAL or isinstance(action, Message):
            return
        if self.finished:
            raise IllegalAction(f"the game is over; cannot process {action.type}")
        if isinstance(action, EndGame):
            self.end_game("manually_ended")
            self.actions_applied += 1
            return
        if self.round is None:
            raise IllegalAction("no round")
        problem = action.shape_problem()
        if problem is not None:
            raise IllegalAction(problem)
        target = None
        if action.type in self.offered_types():
            target = self._check_offered(action)
        self.round.process(self, action, target)
        self.actions_applied += 1
        if self._programs or action.type in SHARE_ACTIONS:
            observe_for_programs(self, action)
        restore = self.pending_restore
        if restore is not None:
            # a rule undid part of the game (1867 card: "A merge leaving no president is
            # undone"); done here, once no step of the old state is still running
            applied, entries = self.actions_applied, self.entries
            events, narrating, live = self.events, self.narrating, self.live_count
            self.__dict__.update(restore.__dict__)
            self.pending_restore = None
            self.actions_applied, self.entries = applied, entries
            self.events, self.narrating, self.live_count = events, narrating, live
        self.after_action()

    def _check_offered(self, action: Action) -> Step | None:
        """The door (issue 15): ``action`` must match an allowed offer of its entity
        (`desk18xx.engine.offers.match_offer`).  When nothing of the kind is offered,
        the step's own reason is given where it has one (tried on a copy).  Returns
        the step that takes the action, when the door found it (the round then does
        not look for it again), else None."""
        from desk18xx.engine.offers import match_offer

        offers, step = self.door(action)
        if offers is None:
            return None
        if any(o.concerns(action) for o in offers):
            match_offer(offers, action)
            return step
        assert self.round is not None
        trial = self.copy()
        assert trial.round is not None
        try:
            trial.round.process(trial, action)  # raises the step's reason, if it has one
        except IllegalAction:
            raise
        except Exception:  # noqa: BLE001 - a step past the door may trust a field no
            pass           # offer names (a company that does not exist); the offers say why
        match_offer(offers, action)
        return None

    def after_action(self) -> None:
        """Check the end of the game and start the next round while this one is done."""
        self.game_end_check()
        guard = 0
        while self.round is not None and not self.finished and self.round.is_finished(self):
            guard += 1
            if guard > 50:
                raise RuntimeError("round transition loop")
            self.next_round()
            self._share_history = []
            if self._programs:
                drop_stale_programs(self)

    # -- title hooks ---------------------------------------------------------------------
    def next_round(self) -> None:
        """Install the next round (title)."""
        raise NotImplementedError

    def game_end_check(self) -> None:
        """Record end triggers (title)."""

    def end_game(self, reason: str) -> None:
        """Finish the game now."""
        self.finished = True
        self.end_reason = reason

    def player_value(self, pid: str) -> int:
        """Final score of a player (title)."""
        return self.cash.get(pid, 0)

    def result(self) -> dict[str, int]:
        """Player id -> value."""
        return {p.id: self.player_value(p.id) for p in self.players}

    def legal_moves(self, rng: Any) -> list[Action]:
        """Concrete legal actions for whoever acts now, one drawn with ``rng`` from
        each allowed offer (`desk18xx.engine.offers.offered_moves`; random play,
        tests).  A title whose offers do not yet decide every move lists its own."""
        from desk18xx.engine.offers import offered_moves

        return offered_moves(self, rng)

    def acting_entities(self) -> tuple[str, ...]:
        """Everyone who may act now, whose offers random play draws from: the entity
        the round waits for (title: also the companies acting for it, a private's
        ability); empty when the game is over."""
        r = self.round
        if r is None or self.finished:
            return ()
        step = r.active_step(self)  # legal_actions().entity, without the step's details
        entity = None if step is None else step.current_entity(self)
        return () if entity is None else (entity,)

    def random_offers(self, entity: str, rng: Any,
                      types: Collection[str] | None = None) -> tuple[Offer, ...]:
        """The offers random play draws from: :meth:`offers` by default; a title may
        answer a part of a large set drawn with ``rng`` (1867: the lays of a few
        hexes); read-only."""
        return self.offers(entity, types)

    def legal_moves_of(self, rng: Any, types: Iterable[str]) -> list[Action]:
        """The :meth:`legal_moves` of these action types only; a title may skip
        working out the others (1822CA: the routes of a run)."""
        wanted = frozenset(types)
        if type(self).legal_moves is Game.legal_moves:
            from desk18xx.engine.offers import offered_moves

            return offered_moves(self, rng, wanted)
        return [m for m in self.legal_moves(rng) if m.type in wanted]

    def offers(self, entity: str, types: Collection[str] | None = None) -> tuple[Offer, ...]:
        """What ``entity`` may do now, as typed offers (`desk18xx.engine.offers`), of
        the action ``types`` asked for (all when None); read-only (title; none by
        default)."""
        return ()

    def lay_hexes(self, entity: str) -> frozenset[str]:
        """The hexes on which ``entity`` may lay some tile now: those of its allowed
        ``lay_tile`` offers that list a tile (`desk18xx.engine.offers.lay_hexes_of`);
        a title answers it with an early exit, by the same checks; read-only."""
        from desk18xx.engine.offers import lay_hexes_of

        return lay_hexes_of(self.offers(entity, (LayTile.type,)))

    def lay_tiles(self, entity: str) -> frozenset[str]:
        """The tiles ``entity`` may lay on some hex now: those its allowed ``lay_tile``
        offers list (`desk18xx.engine.offers.lay_tiles_of`); a title answers it with
        an early exit, by the same checks; read-only."""
        from desk18xx.engine.offers import lay_tiles_of

        return lay_tiles_of(self.offers(entity, (LayTile.type,)))

    def lay_choices(self, entity: str) -> tuple[frozenset[str], frozenset[str]]:
        """(:meth:`lay_hexes`, :meth:`lay_tiles`) of ``entity``, asked together (a
        title answers both in one walk); read-only."""
        return self.lay_hexes(entity), self.lay_tiles(entity)

    def deciding_offers(self, action: Action) -> tuple[Offer, ...] | None:
        """The offers that decide ``action`` (the door's question; those of its entity
        and type by default), or None where the title leaves this action to its
        step's own checks for now (title)."""
        return self.offers(action.entity, (action.type,))

    def door(self, action: Action) -> tuple[tuple[Offer, ...] | None, Step | None]:
        """:meth:`deciding_offers`, and the step of the round that would take
        ``action`` now (None: not known, the round looks for it; title: the one its
        offers were asked of, found as `desk18xx.engine.round.Round.process` finds
        it)."""
        return self.deciding_offers(action), None

    def offered_types(self) -> frozenset[str]:
        """The action types whose legality the offers of this position decide: an
        action of such a type is processed only when it matches an allowed offer
        (the door in `_process_single`); the others are left to the steps (title)."""
        return frozenset()

    def title_violations(self) -> list[str]:
        """Title-specific invariant failures (title)."""
        return []

    def extra_share_holders(self) -> frozenset[str]:
        """Holder ids besides players, corporations and the pool that may own
        certificates (title; 1822CA's P11 tax haven)."""
        return frozenset()

    # -- queries for a UI ----------------------------------------------------------------
    def legal_actions(self) -> LegalActions:
        """Who acts now and which action types are open to them."""
        r = self.round
        if r is None or self.finished:
            return LegalActions(None, (), "", None)
        step = r.active_step(self)
        entity = None if step is None else step.current_entity(self)
        types: tuple[str, ...] = ()
        details: dict[str, Any] = {}
        if entity is not None:
            types = tuple(cls.type for cls in r.legal_for(self, entity))
            if step is not None:
                details = step.details(self, entity)
        return LegalActions(entity, types, r.kind.value,
                            None if step is None else type(step).__name__, details)

    def sandbox_lay(self, lay: LayTile) -> None:
        """Lay a tile for ``lay.entity`` as its own first lay of a turn would, whoever
        is to act (study mode's sandbox; the title's track rules decide).  Changes
        this game: call it on a copy.

        Raises:
            IllegalAction: the rules refuse the lay, or the title has no sandbox.
        """
        raise IllegalAction(f"no sandbox tile lays for {self.title_id}")

    def sandbox_lay_offers(self, corp: str, hex_id: str | None = None) -> tuple[Offer, ...]:
        """The tile-lay offers of ``corp`` as its own first lay of a turn, whoever is
        to act (what :meth:`sandbox_lay` accepts; on ``hex_id`` only, when given);
        read-only (title; none by default)."""
        return ()

    def view(self) -> GameView:
        """The declared read-only view a user interface reads (`desk18xx.engine.view`;
        a title returns its own subclass)."""
        from desk18xx.engine.view import GameView

        return GameView(self)

    def routing(self) -> TitleRouting | None:
        """The route optimizer's questions about this game (its routing problem and
        the engine's pricing of a run), or None where the title has no optimizer
        (title)."""
        return None

    def position_extra(self) -> dict[str, Any]:
        """What the title declares as part of the position beyond the generic one
        (`desk18xx.engine.digest.position`): plain data under documented names,
        e.g. loans left or an auction's standing bids.  Never attributes by
        reflection (a refactor must not change it)."""
        return {}

    def city_id(self, hex_id: str, city: int) -> str:
        """The id an action names city number ``city`` of ``hex_id`` by (18xx.games
        ``"<tile id>-<node index>"`` on the map board; a title may name it otherwise)."""
        if self.board is None:
            raise IllegalAction("This game has no board")
        return self.board.city_id(hex_id, city)

    def reference_city_id(self, city_id: str) -> str:
        """18xx.games' name of a city id written by an older desk18xx (the id itself
        where it never differed)."""
        return city_id

    def position_board(self) -> dict[str, Any] | None:
        """The board part of the position when the title declares its own layout
        (`desk18xx.engine.digest.board_summary`); None: the map's generic one."""
        return None

    def bid_boxes(self) -> BidBoxView | None:
        """The sealed-bid boxes and bids now (title; None without bid boxes)."""
        return None

    def winning_bids(self, player: str) -> tuple[str, ...] | None:
        """The boxed companies whose high bid is ``player``'s, sorted (None without bid
        boxes); the cheap question behind :meth:`bid_boxes` for programmed actions."""
        return None

    def par_options(self, player: str, corp: str) -> tuple[ParOption, ...]:
        """Every start price of ``corp`` for ``player`` now, each with its cost and why it
        cannot be chosen (title; empty when the title does not list them)."""
        return ()

    def round_kind(self) -> RoundKind | None:
        """Kind of the current round."""
        return None if self.round is None else self.round.kind

    def why_illegal(self, action: Action) -> str | None:
        """None when ``action`` may be processed now, else the reason a player reads.

        Tries the action on a copy, so this game never changes.
        """
        trial = self.copy()
        try:
            trial.process(action)
        except IllegalAction as exc:
            return str(exc)
        return None

    def copy(self) -> Game:
        """A snapshot that shares nothing mutable with this game."""
        return _copy.deepcopy(self)


__all__ = ["DEPOT", "Game", "GameSetup", "LegalActions", "Pass", "PhaseDef"]
