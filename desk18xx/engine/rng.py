"""18xx.games' seeded random generator (STYLE.md §5: replay is deterministic).

The reference engine (18xx ``lib/engine/game/base.rb``, ``initialize_seed`` and
``rand``) uses a linear congruential generator::

    state <- (RAND_A * state + RAND_C) mod RAND_M

Each draw advances the state first and returns the new state. Titles use it
only through Ruby's ``sort_by { rand }`` (1822CA company stacks, 1867 two-player
private removal), which draws one key per element in list order and then sorts
ascending by key; `Rng.sort_by_rand` reproduces exactly that.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TypeVar

RAND_A = 1_103_515_245
"""Multiplier (18xx ``Game::Base::RAND_A``)."""
RAND_C = 12_345
"""Increment (18xx ``Game::Base::RAND_C``)."""
RAND_M = 2**31
"""Modulus (18xx ``Game::Base::RAND_M``)."""

_T = TypeVar("_T")
_DIGITS = re.compile(r"\d+")


def seed_from(seed: int | str | None, game_id: int | str | None = None) -> int:
    """The seed the reference engine would use (``Game::Base#initialize_seed``).

    Args:
        seed: ``settings.seed`` of the game; ``None`` or ``""`` means absent.
            A string of digits is accepted (some exports quote numbers).
        game_id: the game's ``id``; used when `seed` is absent. Its first run
            of decimal digits is the seed (``"hs_ahjzadkh_19792"`` -> 19792),
            0 when it has none.

    Returns:
        The integer seed (not yet reduced modulo `RAND_M`).

    Raises:
        ValueError: `seed` is a string that is not an integer.
    """
    if isinstance(seed, bool):
        raise ValueError(f"seed must be an integer, not {seed!r}")
    if isinstance(seed, int):
        return seed
    if seed is not None and seed != "":
        try:
            return int(seed)
        except ValueError:
            raise ValueError(f"seed must be an integer, not {seed!r}") from None
    match = _DIGITS.search(str(game_id if game_id is not None else ""))
    return int(match.group()) if match else 0


class Rng:
    """The generator, with the state it has reached.

    Example:
        >>> Rng(1705813307).rand()
        729580632
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        """Start from ``seed mod RAND_M`` (Python's ``%`` matches Ruby's for negatives)."""
        self._state: int = seed % RAND_M

    @property
    def state(self) -> int:
        """The current state (the last value returned, or the reduced seed)."""
        return self._state

    def rand(self) -> int:
        """Advance and return the new state, in ``[0, RAND_M)``."""
        self._state = (RAND_A * self._state + RAND_C) % RAND_M
        return self._state

    def draws(self, count: int) -> list[int]:
        """The next `count` values of `rand`, in order."""
        return [self.rand() for _ in range(count)]

    def sort_by_rand(self, items: Iterable[_T]) -> list[_T]:
        """Ruby's ``items.sort_by { rand }``: one draw per item in order, sort ascending.

        The generator has a full period, so keys within one call never tie
        (fewer than 2**31 items) and the order is unambiguous.
        """
        keyed = [(self.rand(), index, item) for index, item in enumerate(items)]
        keyed.sort(key=lambda entry: (entry[0], entry[1]))
        return [item for _key, _index, item in keyed]
