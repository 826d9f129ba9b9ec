"""Game > Programmed actions: standing orders a player gives (auto-pass).

Each entry asks which player gives the order (the acting player, or you in
an e-mail game, first) and submits the ``program_*`` action through the
session like any move; the engine carries the order out
(`desk18xx.engine.programs`) and the passes it makes ride along in the log.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QInputDialog, QMainWindow, QMenu

from desk18xx.engine.actions import (
    Action,
    ProgramBuyShares,
    ProgramDisable,
    ProgramMergerPass,
    ProgramSharePass,
)
from desk18xx.engine.programs import MERGER_ROUND_NAME, describe_program
from desk18xx.ui.session import GameSession

#: Chooses the player giving an order: (question, player ids, preferred id) -> id or None.
PlayerChooser = Callable[[str, list[str], str | None], str | None]

#: Chooses what a buy order buys: (player, corporations) -> (corporation, shares wanted)
#: or None.
BuyChooser = Callable[[str, list[str]], tuple[str, int] | None]


class ProgramActions(QObject):
    """The "Programmed actions" submenu.

    Args:
        session: the game session (orders are submitted to it).
        window: dialog parent and status bar.
        me: the player you are in an e-mail game, if known (asked first).
        choose: picks the player (default: a list dialog); tests pass a function.
        choose_buy: picks the corporation and the share count of a buy order (default:
            dialogs).

    Signals:
        status(str): what was done, for the status bar.
    """

    #: What was done (for the status bar).
    status = Signal(str)

    def __init__(self, session: GameSession, window: QMainWindow,
                 me: Callable[[], str | None] | None = None,
                 choose: PlayerChooser | None = None,
                 choose_buy: BuyChooser | None = None) -> None:
        super().__init__(window)
        self.session = session
        self.window = window
        self._me = me
        self._choose = choose or self._ask
        self._choose_buy = choose_buy or self._ask_buy
        self.share_pass_action = self._action(
            "Auto-pass in this &stock round", lambda p: ProgramSharePass(p))
        self.share_pass_always_action = self._action(
            "Auto-pass in every stock round, &unconditionally",
            lambda p: ProgramSharePass(p, unconditional=True, indefinite=True))
        self.buy_action = self._action(
            "Auto-&buy shares of a corporation until…", self._buy_shares)
        self.merger_pass_action = self._action(
            "Auto-pass my minors in the &merger round", self._merger_pass)
        self.merger_pass_unless_action = self._action(
            "Auto-pass my minors in the merger round, unless &someone else acts",
            lambda p: self._merger_pass(p, unless_others=True))
        self.disable_action = self._action(
            "&Cancel my programmed action", lambda p: ProgramDisable(p, reason="user"))
        self.menu = QMenu("&Programmed actions", window)
        self.menu.addActions(self.actions())
        self.menu.aboutToShow.connect(self.update)

    def _action(self, text: str, make: Callable[[str], Action | None]) -> QAction:
        action = QAction(text, self.window)
        action.triggered.connect(lambda _checked=False: self.give(make))
        return action

    def actions(self) -> list[QAction]:
        """The entries, in menu order."""
        return [self.share_pass_action, self.share_pass_always_action, self.buy_action,
                self.merger_pass_action, self.merger_pass_unless_action, self.disable_action]

    def install(self, menu: QMenu, before: QAction | None = None) -> None:
        """Add the submenu to `menu` (the Game menu), before `before` if given."""
        if before is not None:
            menu.insertMenu(before, self.menu)
        else:
            menu.addMenu(self.menu)

    def update(self) -> None:
        """Enable the entries that make sense for the game open now."""
        game = self.session.game if self.session.has_game else None
        playing = game is not None and not game.finished
        self.share_pass_action.setEnabled(playing)
        self.share_pass_always_action.setEnabled(playing)
        self.buy_action.setEnabled(playing)
        self.merger_pass_action.setEnabled(playing and game is not None
                                           and game.title_id == "1867")
        self.merger_pass_unless_action.setEnabled(self.merger_pass_action.isEnabled())
        self.disable_action.setEnabled(game is not None and bool(game.programs_in_force))

    def in_force(self) -> dict[str, str]:
        """Player name -> their order in words."""
        if not self.session.has_game:
            return {}
        game = self.session.game
        return {game.name_of(player): "; ".join(p.describe() for p in orders)
                for player, orders in game.programs_in_force.items()}

    # -- giving orders -----------------------------------------------------------------------
    def give(self, make: Callable[[str], Action | None], player: str | None = None) -> bool:
        """Ask who gives the order (unless `player`), make it and submit it."""
        if not self.session.has_game or self.session.game.finished:
            return False
        game = self.session.game
        if player is None:
            ids = [p.id for p in game.players]
            preferred = self._me() if self._me is not None else None
            if preferred is not None:  # the file's id; 1822CA renames clashing ids
                alias = getattr(game, "player_alias", None)
                if isinstance(alias, dict):
                    preferred = str(alias.get(preferred, preferred))
            if preferred is None:
                acting = game.legal_actions().entity
                preferred = acting if acting in ids else None
            player = self._choose("Who gives this order?", ids, preferred)
            if player is None:
                return False
        order = make(player)
        if order is None:
            return False
        if not self.session.submit(order):
            return False
        what = "no programmed action" if isinstance(order, ProgramDisable) else \
            describe_program(order)
        text = f"{game.name_of(player)}: {what}"
        self.status.emit(text)
        self.window.statusBar().showMessage(text)
        return True

    def _merger_pass(self, player: str, unless_others: bool = False) -> Action | None:
        """Pass for every minor `player` owns now (1867 merger rounds); with
        `unless_others`, the order stops once a minor converted or merged in the round
        (18xx.games' ``disable_others``)."""
        game = self.session.game
        minors = sorted(c for c, corp in game.corps.items()
                        if corp.kind.value == "minor" and not corp.closed
                        and game.owner(c) == player)
        if not minors:
            self.window.statusBar().showMessage(f"{game.name_of(player)} owns no minor")
            return None
        return ProgramMergerPass(player, corporations_by_round=((MERGER_ROUND_NAME,
                                                                 tuple(minors)),),
                                 options=("disable_others",) if unless_others else ())

    def _buy_shares(self, player: str) -> Action | None:
        """Buy one share a turn of a started corporation until `player` holds N."""
        game = self.session.game
        corps = sorted(c for c, corp in game.corps.items()
                       if corp.ipoed and not corp.closed and corp.kind.value != "minor")
        if not corps:
            self.window.statusBar().showMessage("No corporation has been started")
            return None
        chosen = self._choose_buy(player, corps)
        if chosen is None:
            return None
        corp, count = chosen
        return ProgramBuyShares(player, corporation=corp, until_condition=count)

    def _ask_buy(self, player: str, corps: list[str]) -> tuple[str, int] | None:
        corp, ok = QInputDialog.getItem(self.window, "Programmed action",
                                        "Buy one share a turn of:", corps, 0, False)
        if not ok:
            return None
        have = self.session.game.num_shares_of(player, corp)
        count, ok = QInputDialog.getInt(self.window, "Programmed action",
                                        f"…until {self.session.game.name_of(player)} holds "
                                        "this many shares:", have + 1, have + 1, 10)
        return (corp, count) if ok else None

    def _ask(self, question: str, ids: list[str], preferred: str | None) -> str | None:
        game = self.session.game
        names = [game.name_of(i) for i in ids]
        current = ids.index(preferred) if preferred in ids else 0
        name, ok = QInputDialog.getItem(self.window, "Programmed action", question, names,
                                        current, False)
        return ids[names.index(name)] if ok else None


__all__ = ["BuyChooser", "PlayerChooser", "ProgramActions"]
