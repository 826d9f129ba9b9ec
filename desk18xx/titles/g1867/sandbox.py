"""1867 tile lays for study mode's off-turn sandbox (`Game.sandbox_lay`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from desk18xx.engine.actions import LayTile
from desk18xx.titles.sandbox import check_running

if TYPE_CHECKING:
    from desk18xx.titles.g1867.game import G1867


def lay_anyway(game: G1867, lay: LayTile) -> None:
    """Apply `lay` for `lay.entity` as the first lay of its track step (card "OR Lay
    track": checked, paid, laid).

    Raises:
        IllegalAction: the rules refuse the lay, or the company cannot lay track.
    """
    from desk18xx.titles.g1867.steps.track import Track

    round_ = check_running(game, lay)
    step = Track(round_)
    step.setup(game)
    step.process(game, lay)
