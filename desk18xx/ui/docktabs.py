"""Dock tabs that follow the round (issue 18): the bid boxes in front in a stock round
or whenever a bid is open, the privates' tab while an auction runs, the bank and its
trains in an operating round, without taking away a tab the player chose by hand in
the same round.

The window calls :meth:`TabFollower.follow` after every live state change; what a
round wants in front is read from the game's round kind and the turn's action types.
A tab the player clicks (``tabifiedDockWidgetActivated`` outside :meth:`follow`'s own
raises) holds its group until the round changes.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDockWidget, QMainWindow

from desk18xx.engine.game import Game
from desk18xx.engine.round import RoundKind
from desk18xx.ui.insight import in_sight
from desk18xx.ui.models.choices import TurnInfo

#: The tab groups that follow the round: group name -> dock keys (of the window's docks).
GROUPS: Mapping[str, tuple[str, ...]] = {
    "left": ("bank", "auction", "bidboxes", "tiles"),
}


def wanted_tabs(game: Game, info: TurnInfo, auction_open: bool) -> dict[str, str]:
    """Group -> the dock key the position wants in front (groups not named: no wish).

    Args:
        game: the live game.
        info: its turn (the action types open to the acting entity).
        auction_open: a private or minor is up for auction now.
    """
    kind = game.round_kind()
    boxes = game.bid_boxes() is not None
    if boxes and (kind is RoundKind.STOCK or "bid" in info.types):
        return {"left": "bidboxes"}
    if auction_open or kind is RoundKind.AUCTION:
        return {"left": "auction"}
    if kind is RoundKind.OPERATING:
        return {"left": "bank"}
    return {}


class TabFollower(QObject):
    """Brings the tab a round wants to the front of its group.

    Args:
        window: the main window (its ``tabifiedDockWidgetActivated`` tells the player's
            own choices).
        docks: the window's docks by key.
    """

    def __init__(self, window: QMainWindow, docks: Mapping[str, QDockWidget]) -> None:
        super().__init__(window)
        self._docks = docks
        self._round: str | None = None
        self._shown: dict[str, str] = {}
        """Group -> the tab this follower last brought to the front (this round)."""
        self._chosen: dict[str, str] = {}
        """Group -> the round in which the player picked a tab of it by hand."""
        self._raising = False
        window.tabifiedDockWidgetActivated.connect(self._activated)

    def reset(self) -> None:
        """Another game: its first round brings its tabs forward again."""
        self._round = None
        self._shown.clear()
        self._chosen.clear()

    def chosen_by_hand(self, group: str) -> bool:
        """True when the player picked a tab of ``group`` in the round now."""
        return self._round is not None and self._chosen.get(group) == self._round

    def follow(self, game: Game, info: TurnInfo, auction_open: bool) -> None:
        """Bring forward what the live position wants, unless the player chose
        otherwise in this round (a new round starts afresh)."""
        if info.round_label != self._round:
            self._round = info.round_label
            self._shown.clear()
        for group, key in wanted_tabs(game, info, auction_open).items():
            if self._shown.get(group) == key or self.chosen_by_hand(group):
                continue
            dock = self._docks.get(key)
            if dock is None or dock.isHidden():  # closed by the player: stays closed
                continue
            self._shown[group] = key
            if not in_sight(dock):
                self._raising = True
                try:
                    dock.raise_()
                finally:
                    self._raising = False

    def _activated(self, dock: QDockWidget) -> None:
        if self._raising or self._round is None:
            return
        for group, keys in GROUPS.items():
            if any(self._docks.get(k) is dock for k in keys):
                self._chosen[group] = self._round


__all__ = ["GROUPS", "TabFollower", "wanted_tabs"]
