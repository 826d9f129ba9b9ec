"""The 1822CA company stacks as 18xx.games shuffles them (1822CA supplement §13).

18xx.games draws the order of the minor, concession and private stacks once,
at setup, from the game's seed (18xx ``G1822CA::Game#setup_companies``;
export-format doc §7.3):

1. the companies in definition order (``g_1822_ca/entities.rb``: P1…P30,
   C1…C10, M1…M30), filtered to the title's starting set (ERS/WRS have their
   own sets, and smaller ones for two players);
2. ``sort_by { rand }``: one draw per company in that order, ascending;
3. split into minors, concessions and privates, keeping the shuffled order;
4. M6 (not in WRS), C2 and P1 go to the front of their stacks.

A bid box (1822CA rules 4.2; 18xx ``G1822::Game#bidbox_minors`` and friends)
shows, at the start of each stock round, the first 4 minors, 3 concessions
and 3 privates still in the bank.

This module is pure: no game state, only the seed and the player count.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Final

from desk18xx.engine.rng import Rng

TITLE_FULL: Final = "1822CA"
TITLE_ERS: Final = "1822CA-ERS"
TITLE_WRS: Final = "1822CA-WRS"
TITLES: Final = (TITLE_FULL, TITLE_ERS, TITLE_WRS)
"""Title ids in our spelling (the export writes ``"1822CA ERS"``)."""

BID_BOX_MINORS: Final = 4
BID_BOX_CONCESSIONS: Final = 3
BID_BOX_PRIVATES: Final = 3


def _ids(prefix: str, numbers: Collection[int]) -> tuple[str, ...]:
    return tuple(f"{prefix}{n}" for n in numbers)


_DEFINITION_ORDER: Final = (
    _ids("P", range(1, 31)) + _ids("C", range(1, 11)) + _ids("M", range(1, 31))
)
"""Companies in ``g_1822_ca/entities.rb`` order; the shuffle draws in this order."""

_STARTING: Final[dict[tuple[str, bool], frozenset[str]]] = {
    (TITLE_FULL, False): frozenset(_DEFINITION_ORDER),
    (TITLE_FULL, True): frozenset(_DEFINITION_ORDER),
    (TITLE_ERS, False): frozenset(
        _ids("P", (1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 22, 23, 24, 25, 28, 29,
                   30))
        + _ids("C", (2, 4, 6, 7, 8, 10))
        + _ids("M", range(1, 20))
    ),
    (TITLE_ERS, True): frozenset(
        _ids("P", (1, 2, 3, 9, 12, 13, 14, 15, 16, 17, 23, 24, 28, 29, 30))
        + _ids("C", (2, 4, 6, 7, 8, 10))
        + _ids("M", range(1, 20))
    ),
    (TITLE_WRS, False): frozenset(
        _ids("P", (1, 2, 3, 4, 5, 6, 7, 8, 11, 18, 19, 20, 22, 24, 26, 27, 28, 29))
        + _ids("C", (1, 2, 3, 5, 8, 9))
        + _ids("M", range(16, 31))
    ),
    (TITLE_WRS, True): frozenset(
        _ids("P", (1, 2, 3, 5, 7, 9, 11, 12, 18, 19, 20, 26, 27, 28, 29))
        + _ids("C", (1, 2, 3, 5, 8, 9))
        + _ids("M", range(16, 31))
    ),
}
"""Starting companies per (title, two players?) (``STARTING_COMPANIES[_TWOPLAYER]``)."""

_FIRST_MINOR: Final[dict[str, str | None]] = {TITLE_FULL: "M6", TITLE_ERS: "M6", TITLE_WRS: None}
_FIRST_CONCESSION: Final = "C2"
_FIRST_PRIVATE: Final = "P1"
_PLAYER_RANGE: Final[dict[str, range]] = {
    TITLE_FULL: range(2, 8),
    TITLE_ERS: range(2, 6),
    TITLE_WRS: range(2, 6),
}


@dataclass(frozen=True, slots=True)
class BidBox:
    """The companies offered in one stock round, each tuple in stack order."""

    minors: tuple[str, ...]
    concessions: tuple[str, ...]
    privates: tuple[str, ...]

    def __contains__(self, company: object) -> bool:
        return company in self.minors or company in self.concessions or company in self.privates

    @property
    def companies(self) -> tuple[str, ...]:
        """Minors, then concessions, then privates."""
        return self.minors + self.concessions + self.privates


@dataclass(frozen=True, slots=True)
class CompanyStacks:
    """The three stacks in the order the game deals them (top first)."""

    minors: tuple[str, ...]
    """Minor cards ``M…``; the top one is M6 in 1822CA and ERS."""
    concessions: tuple[str, ...]
    """Concessions ``C…``; the top one is C2."""
    privates: tuple[str, ...]
    """Privates ``P…``; the top one is P1."""

    @property
    def order(self) -> tuple[str, ...]:
        """The game's company list: minors + concessions + privates."""
        return self.minors + self.concessions + self.privates

    def bid_box(self, gone: Collection[str] = ()) -> BidBox:
        """The bid box when the companies in `gone` have left the bank.

        Args:
            gone: companies that are owned by a player or corporation, closed
                or removed (e.g. a minor that floated, the unbid first minor).

        Returns:
            The first 4 minors, 3 concessions and 3 privates not in `gone`.
        """
        return BidBox(
            minors=_first(self.minors, gone, BID_BOX_MINORS),
            concessions=_first(self.concessions, gone, BID_BOX_CONCESSIONS),
            privates=_first(self.privates, gone, BID_BOX_PRIVATES),
        )


def _first(stack: tuple[str, ...], gone: Collection[str], count: int) -> tuple[str, ...]:
    return tuple(company for company in stack if company not in gone)[:count]


def _to_front(stack: list[str], company: str | None) -> list[str]:
    if company is None or company not in stack:
        return stack
    return [company] + [c for c in stack if c != company]


def starting_companies(title: str, player_count: int) -> tuple[str, ...]:
    """The title's companies in definition order, before the shuffle.

    Raises:
        ValueError: unknown title or a player count the title does not allow.
    """
    if title not in _PLAYER_RANGE:
        raise ValueError(f"unknown 1822CA title {title!r}; expected one of {', '.join(TITLES)}")
    if player_count not in _PLAYER_RANGE[title]:
        allowed = _PLAYER_RANGE[title]
        raise ValueError(
            f"{title} is for {allowed.start}-{allowed.stop - 1} players, not {player_count}"
        )
    allowed_set = _STARTING[(title, player_count == 2)]
    return tuple(c for c in _DEFINITION_ORDER if c in allowed_set)


def company_stacks(title: str, seed: int, player_count: int) -> CompanyStacks:
    """Deal the stacks exactly as 18xx.games does for this seed (supplement §13).

    Args:
        title: ``"1822CA"``, ``"1822CA-ERS"`` or ``"1822CA-WRS"``.
        seed: the game's seed (see `desk18xx.engine.rng.seed_from`).
        player_count: number of players (chooses the two-player set in ERS/WRS).

    Returns:
        The stacks, top first.

    Raises:
        ValueError: unknown title or a player count the title does not allow.
    """
    shuffled = Rng(seed).sort_by_rand(starting_companies(title, player_count))
    minors = [c for c in shuffled if c.startswith("M")]
    concessions = [c for c in shuffled if c.startswith("C")]
    privates = [c for c in shuffled if c.startswith("P")]
    return CompanyStacks(
        minors=tuple(_to_front(minors, _FIRST_MINOR[title])),
        concessions=tuple(_to_front(concessions, _FIRST_CONCESSION)),
        privates=tuple(_to_front(privates, _FIRST_PRIVATE)),
    )
