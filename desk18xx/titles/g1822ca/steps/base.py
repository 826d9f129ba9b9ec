"""Shared helpers of the 1822CA steps."""

from __future__ import annotations

from typing import TYPE_CHECKING

from desk18xx.engine.round import Step

if TYPE_CHECKING:
    from desk18xx.engine.game import Game
    from desk18xx.titles.g1822ca.game import G1822CA
    from desk18xx.titles.g1822ca.rounds import OperatingRound


def g(game: Game) -> G1822CA:
    """The game as a 1822CA game."""
    from desk18xx.titles.g1822ca.game import G1822CA

    assert isinstance(game, G1822CA)
    return game


class OrStep(Step):
    """A step of the operating round; its entity is the operating company."""

    def orr(self) -> OperatingRound:
        """The operating round."""
        from desk18xx.titles.g1822ca.rounds import OperatingRound

        assert isinstance(self.round, OperatingRound)
        return self.round

    def corp(self) -> str:
        """The operating company."""
        return self.orr().current()

    def is_current(self, entity: str) -> bool:
        """``entity`` is the operating company."""
        return bool(self.round.entities) and entity == self.corp()
