"""Shared helpers of the 1822CA steps."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from desk18xx.engine.round import Step

if TYPE_CHECKING:
    from desk18xx.engine.game import Game
    from desk18xx.titles.g1822ca.game import G1822CA
    from desk18xx.titles.g1822ca.rounds import OperatingRound


def g(game: Game) -> G1822CA:
    """The game as a 1822CA game."""
    if TYPE_CHECKING:
        assert isinstance(game, G1822CA)
    elif not _TYPES:
        _load_types()
    assert isinstance(game, _TYPES[0])
    return game


_TYPES: list[type] = []
"""The game and operating round classes, imported on first use (they import the steps)."""


def _load_types() -> None:
    from desk18xx.titles.g1822ca.game import G1822CA
    from desk18xx.titles.g1822ca.rounds import OperatingRound

    _TYPES[:] = [G1822CA, OperatingRound]


class OrStep(Step):
    """A step of the operating round; its entity is the operating company."""

    lays_track: ClassVar[bool] = False
    """A tile-laying step: a private's lay is open while it is the active step
    (supplement §6.1: "happens during the company's tile laying step")."""

    def orr(self) -> OperatingRound:
        """The operating round."""
        if TYPE_CHECKING:
            assert isinstance(self.round, OperatingRound)
        elif not _TYPES:
            _load_types()
        assert isinstance(self.round, _TYPES[1])
        return self.round

    def corp(self) -> str:
        """The operating company."""
        return self.orr().current()

    def is_current(self, entity: str) -> bool:
        """``entity`` is the operating company."""
        return bool(self.round.entities) and entity == self.corp()
