"""1867 phase events (card: trains table "Brings"; 18xx ``event_*!``).

Each event of the train table maps to one function in :data:`EVENTS`; the
table is checked against ``rules.TRAINS`` when this module loads.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING

from desk18xx.engine.state import BANK
from desk18xx.titles.g1867 import board as B
from desk18xx.titles.g1867 import rules as R

if TYPE_CHECKING:
    from desk18xx.titles.g1867.game import G1867

NATIONAL = "CN"


class Event(StrEnum):
    """Events of the first train of a type."""

    GREEN_MINORS_AVAILABLE = "green_minors_available"
    MAJORS_CAN_IPO = "majors_can_ipo"
    TRAINLESS_NATIONALIZATION = "trainless_nationalization"
    MINORS_CANNOT_START = "minors_cannot_start"
    NATIONALIZE_COMPANIES = "nationalize_companies"
    MINORS_NATIONALIZED = "minors_nationalized"
    TRAIN_TRADE_ALLOWED = "train_trade_allowed"


def green_minors_available(game: G1867) -> None:
    """First 3: green minors, Timmins/Montreal spaces, Granby unlocked."""
    assert game.board is not None
    board = game.board
    for hex_id, cities in list(B.all_slots(board)):
        for ci, slots in enumerate(cities):
            for i, s in enumerate(slots):
                if s == B.NEUTRAL:
                    B.set_slot(board, hex_id, ci, i, None)
    for st in list(board):
        if st.blockers:
            board.set_blockers(st.hex_id, ())
    game.available += list(R.GREEN_MINORS)
    game.available += [c for c, _ in R.MAJORS]


def majors_can_ipo(game: G1867) -> None:
    """First 4: majors may be started in a stock round."""
    game.show_majors = True


def trainless_nationalization(game: G1867) -> None:
    """First 4/6/8: trainless companies are nationalised after the purchase."""
    game.trainless_nationalization = True


def minors_cannot_start(game: G1867) -> None:
    """First 5: unstarted minors leave the game."""
    game.minors_can_start = False
    game.available = [c for c in game.available
                      if not game.is_minor(c) or game.corps[c].floated]


def nationalize_companies(game: G1867) -> None:
    """First 6: privates nationalised, the bank pays face value (card: Nationalization)."""
    for company in game.companies.values():
        if company.closed or company.owner in (None, NATIONAL):
            continue
        game.transfer(BANK, company.owner, company.value)
        if company.owner in game.corps:
            game.corps[company.owner].companies.remove(company.id)
        company.owner = NATIONAL
        game.corps[NATIONAL].companies.append(company.id)


def minors_nationalized(game: G1867) -> None:
    """First 8: every minor is nationalised; card: the CN "tokens Montreal"."""
    if not game.config.compat_18xxgames:
        cn_tokens_montreal(game)
    minors = [c for c in game.live_corps() if game.is_minor(c)]
    minors.sort(key=lambda c: game.market.order_key(c, c) if c in game.market.where
                else (0, 0, 0, 0, c))
    crowded = _turn_ending_minor(game, minors) if game.config.compat_18xxgames else None
    for c in minors:
        game.nationalize(c)
        if c == crowded:
            _force_next_entity_18xx(game)
    game.available = [c for c in game.available if not game.is_minor(c)]


_REF_MINOR_ORDER = ("BO", "CS", "CV", "KP", "OP", "TN", "AE", "CA", "NO", "PM",
                    "BBG", "LPS", "SLA", "TGB", "QLS", "THB")
"""The minors in 18xx.games' ``@corporations`` order: the yellow ones, then (after
the majors, added at the first 3) the green ones, each in its definition order."""


def _turn_ending_minor(game: G1867, minors: list[str]) -> str | None:
    """18xx.games quirk (D31): a minor that still holds a train is over its phase-8
    limit of 0, so the discard step makes the first such minor (``crowded_corps``,
    cached) the round's current entity, and closing it (``Game::Base#close_corporation``)
    calls ``force_next_entity!`` on the operating round, whether the first 8 was
    bought by a major or exported at the end of the round.  Not modelled: a minor
    buying the first 8 (its own nationalisation ends its turn)."""
    from desk18xx.titles.g1867.rounds import OperatingRound

    rnd = game.round
    if not isinstance(rnd, OperatingRound):
        return None
    operator = rnd.operator()
    if operator is None or not game.is_major(operator):
        return None
    return next((c for c in _REF_MINOR_ORDER if c in minors and game.corps[c].floated
                 and game.corps[c].trains), None)


def _force_next_entity_18xx(game: G1867) -> None:
    """``Round::Operating#force_next_entity!`` as 18xx.games runs it for 1867 (D31):
    every step is passed, and 1867's ``BuyTrain#pass!`` nationalises the operator
    when it has no train (the 4s have just rusted); then the next company operates,
    unless the operator was the round's last."""
    from desk18xx.titles.g1867.nationalization import nationalize
    from desk18xx.titles.g1867.rounds import OperatingRound

    rnd = game.round
    assert isinstance(rnd, OperatingRound)
    operator = rnd.operator()
    assert operator is not None
    if game.corps[operator].floated and not game.corps[operator].trains:
        # `event_minors_nationalized!` then restores its list of corporations, which
        # holds the operator's replaced object: see `G1867.stale_trainless`
        nationalize(game, operator, move_on=False, stale=True)
    if rnd.entity_index < len(rnd.entities) - 1:
        rnd.force_next_entity(game)


def train_trade_allowed(game: G1867) -> None:
    """First 8: trade-ins allowed (checked in the buy-train step)."""


def cn_tokens_montreal(game: G1867) -> None:
    """Card: at the first 8 the CN places its reserved token in Montreal."""
    from desk18xx.titles.g1867.nationalization import cn_tokens_montreal as place

    place(game)


EVENTS: dict[Event, Callable[[G1867], None]] = {
    Event.GREEN_MINORS_AVAILABLE: green_minors_available,
    Event.MAJORS_CAN_IPO: majors_can_ipo,
    Event.TRAINLESS_NATIONALIZATION: trainless_nationalization,
    Event.MINORS_CANNOT_START: minors_cannot_start,
    Event.NATIONALIZE_COMPANIES: nationalize_companies,
    Event.MINORS_NATIONALIZED: minors_nationalized,
    Event.TRAIN_TRADE_ALLOWED: train_trade_allowed,
}
"""Event -> handler."""

for _train in R.TRAINS:
    for _name in _train[5]:
        if Event(_name) not in EVENTS:  # raises ValueError for an unknown event name
            raise RuntimeError(f"no handler for train event {_name!r}")
