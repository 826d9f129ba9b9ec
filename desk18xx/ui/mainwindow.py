"""The main window: the map in the middle, movable docks around it.

Everything the window shows is read from the session after each
``state_changed``; every user decision goes to ``session.submit`` (STYLE.md §6).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path

from PySide6.QtCore import QByteArray, QModelIndex, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QFileDialog,
    QHeaderView,
    QLabel,
    QListView,
    QMainWindow,
    QMessageBox,
    QTabBar,
    QTableView,
    QWidget,
)

from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game
from desk18xx.engine.narration import place
from desk18xx.engine.tiledef import COLOR_ORDER, ManifestTile, TileDef
from desk18xx.io.replaying import ReplayFailure
from desk18xx.ui.actionpanel import ActionPanel
from desk18xx.ui.dialogs.gameend import GameEndDialog
from desk18xx.ui.dialogs.newgame import NewGameDialog
from desk18xx.ui.docks.bidboxes import BidBoxesWidget
from desk18xx.ui.docks.company_sheet import CompanySheet
from desk18xx.ui.docks.compare import CompareDock
from desk18xx.ui.docks.market import MarketWidget
from desk18xx.ui.docks.sandbox import SandboxDock
from desk18xx.ui.docks.study_tree import StudyTreeDock
from desk18xx.ui.docktabs import TabFollower
from desk18xx.ui.files import FileActions, header_of, user_settings
from desk18xx.ui.insight import in_sight
from desk18xx.ui.maplabels import MapLabels
from desk18xx.ui.mapview.controller import MapController
from desk18xx.ui.mapview.view import MapView
from desk18xx.ui.models.board import corp_colors, destinations, tile_counts
from desk18xx.ui.models.choices import TurnInfo, turn_info
from desk18xx.ui.models.facts import HighBid, high_bid, turn_facts
from desk18xx.ui.models.log import LogModel
from desk18xx.ui.models.market import market_cells
from desk18xx.ui.models.tables import (
    BANK_HEADERS,
    CORP_HEADERS,
    HEADER_TIPS,
    PLAYER_HEADERS,
    Row,
    RowsModel,
    bank_rows,
    company_rows,
    corp_rows,
    player_rows,
)
from desk18xx.ui.programs import ProgramActions
from desk18xx.ui.session import GameSession
from desk18xx.ui.studysession import StudySession
from desk18xx.ui.tableviews import fit_columns, fit_rows
from desk18xx.ui.undo import UndoBinder

ORGANISATION = "desk18xx"
APPLICATION = "desk18xx"
#: Bump when the dock set changes so an old saved layout is not applied.
LAYOUT_VERSION = 6
#: The least height of the log's tabs (log, variations, compare): three lines.
LOG_MIN_HEIGHT = 56


def _tray_order(manifest: Mapping[str, ManifestTile]) -> list[TileDef]:
    """The manifest's tiles, yellow first: the order the tray needs them in."""
    tiles = [entry.tile for entry in manifest.values() if not entry.hidden]
    order = {color: i for i, color in enumerate(COLOR_ORDER)}
    return sorted(tiles, key=lambda t: order.get(t.color, len(order)))


def _table(model: RowsModel, hide_empty: bool = False) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.verticalHeader().setVisible(False)
    view.verticalHeader().setDefaultSectionSize(22)
    view.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    view.setTabKeyNavigation(False)  # Tab moves on to the next widget, not the next cell
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    view.setWordWrap(False)
    fit_columns(view, hide_empty)  # inside the dock's width: never a sideways scroll bar
    return view


def _money(value: int) -> str:
    """``$120``, or ``-$40`` for a debt."""
    return f"-${-value}" if value < 0 else f"${value}"


class MainWindow(QMainWindow):
    """The hot-seat window.

    Args:
        session: the game session (passed in, never looked up).

    Signals:
        refreshed(float): the window finished updating after a state change
            (seconds taken).
    """

    #: The window finished updating after a state change; seconds taken.
    refreshed = Signal(float)

    def __init__(self, session: GameSession, parent: QWidget | None = None,
                 restore_layout: bool = True) -> None:
        super().__init__(parent)
        self.session = session
        self.setWindowTitle("desk18xx")
        self.map_view = MapView()
        self.setCentralWidget(self.map_view)
        self.action_panel = ActionPanel(session)
        self.controller = MapController(session, self.map_view, self.action_panel, self)
        self.map_labels = MapLabels(self.map_view, self)
        """Place names at 9 pt over the map wherever its own are smaller."""
        self.undo = UndoBinder(session, self)
        self.players_model = RowsModel(PLAYER_HEADERS, self, HEADER_TIPS)
        self.corps_model = RowsModel(CORP_HEADERS, self, HEADER_TIPS)
        self.bank_model = RowsModel(BANK_HEADERS, self)
        self.privates_model = RowsModel(("Private", "Value", "Revenue", "Owner"), self)
        self.tiles_model = RowsModel(("Tile", "Colour", "Left"), self)
        self.log_model = LogModel(self)
        self.market = MarketWidget()
        self.log_view = QListView()
        self.log_view.setModel(self.log_model)
        self.log_view.setUniformItemSizes(True)
        # a long line ends in "…" (whole in its tooltip): never a sideways scroll bar
        self.log_view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.log_view.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.log_view.setToolTip("Click: see the board then. Double-click: go back to there.")
        self.auction_label = QLabel("")
        self.auction_label.setWordWrap(True)
        self.auction_label.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.docks: dict[str, QDockWidget] = {}
        self._stale_docks: set[str] = set()
        """Docks out of sight that missed updates (filled when shown)."""
        self._tables_source: tuple[Game, TurnInfo] | None = None
        self._info: TurnInfo | None = None
        self._colors: dict[str, tuple[str, str]] = {}
        self._destinations: dict[str, str] = {}
        self._was_finished = False
        self._recent_node: object = None
        """The history node whose received-move outline the map holds (shown only there)."""
        self._boxes_hidden_for_title = False
        """The bid boxes dock was hidden because the game's title has none."""
        self._followed: tuple[str, str] | None = None
        """Round and company the map last followed (View > Follow the operating company)."""
        self._end_dialog: GameEndDialog | None = None
        self.viewing: int | None = None
        """Live-action count of the earlier position shown, or None for the live game."""
        self.study: StudySession | None = None
        """The history tree for the study docks (made with the first game)."""
        self.study_tree: StudyTreeDock | None = None
        self.compare: CompareDock | None = None
        self.sandbox: SandboxDock | None = None
        """Study mode's off-turn sandbox (Study > Sandbox, Ctrl+T)."""
        self._build_docks()
        self.tabs = TabFollower(self, self.docks)
        """Brings the tab the round wants to the front (bid boxes, privates, bank)."""
        self.files = FileActions(session, self)  # Save, e-mail, 18xx.games, autosave
        self._build_menus()
        self.statusBar().showMessage("Ready")
        self._connect_signals()
        self.refreshed.connect(lambda _s: self.map_labels.refresh())
        self._default_state = self.saveState(LAYOUT_VERSION)
        self.layout_restored = restore_layout and self.restore_layout()
        """True when a remembered window layout was applied."""
        if session.has_game:
            self._game_replaced()
            self._state_changed(len(session.actions()))

    # -- construction ----------------------------------------------------------------------
    def _dock(self, key: str, title: str, widget: QWidget,
              area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock_{key}")
        dock.setWidget(widget)
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                         | QDockWidget.DockWidgetFeature.DockWidgetClosable
                         | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        self.addDockWidget(area, dock)
        self.docks[key] = dock
        return dock

    def _build_docks(self) -> None:
        right = Qt.DockWidgetArea.RightDockWidgetArea
        left = Qt.DockWidgetArea.LeftDockWidgetArea
        bottom = Qt.DockWidgetArea.BottomDockWidgetArea
        # the players, companies and market side by side along the bottom (the players'
        # table as tall as its rows: all seven players of 1822CA in sight); the bank,
        # privates, bid boxes and tiles in tabs on the left, the log (and the study's
        # variations and compare view) in tabs under them
        self._dock("actions", "Turn", self.action_panel, right)
        players_view = _table(self.players_model, hide_empty=True)
        fit_rows(players_view, self.players_model)
        players = self._dock("players", "Players", players_view, bottom)
        corps_view = _table(self.corps_model, hide_empty=True)
        companies = self._dock("companies", "Companies", corps_view, bottom)
        market = self._dock("market", "Stock market", self.market, bottom)
        self.company_sheet = CompanySheet(self.session)
        """Price, cash, trains, tokens, loans, last dividend and price history per company."""
        sheet = self._dock("sheet", "Company sheet", self.company_sheet, bottom)
        self.splitDockWidget(players, companies, Qt.Orientation.Horizontal)
        self.splitDockWidget(companies, market, Qt.Orientation.Horizontal)
        self.tabifyDockWidget(market, sheet)  # beside the market: prices and their history
        market.raise_()
        bank = self._dock("bank", "Bank, trains", _table(self.bank_model), left)
        privates = QWidget()
        from PySide6.QtWidgets import QVBoxLayout

        pl = QVBoxLayout(privates)
        pl.setContentsMargins(0, 0, 0, 0)
        pl.addWidget(self.auction_label)
        pl.addWidget(_table(self.privates_model), 1)
        auction = self._dock("auction", "Privates", privates, left)
        tiles = self._dock("tiles", "Tiles", _table(self.tiles_model), left)
        self.bid_boxes = BidBoxesWidget(self.session)
        boxes = self._dock("bidboxes", "Bid boxes", self.bid_boxes, left)
        self.tabifyDockWidget(bank, auction)
        self.tabifyDockWidget(auction, boxes)
        self.tabifyDockWidget(auction, tiles)
        self._dock("log", "Log", self.log_view, left)
        if self.session.has_game:
            self._build_study_docks()
        bank.raise_()
        self.resizeDocks([self.docks["actions"]], [360], Qt.Orientation.Horizontal)
        self.resizeDocks([bank], [300], Qt.Orientation.Horizontal)
        self.resizeDocks([bank, self.docks["log"]], [440, 130], Qt.Orientation.Vertical)
        self.resizeDocks([players, companies, market], [400, 440, 440],
                         Qt.Orientation.Horizontal)
        self.resizeDocks([players], [215], Qt.Orientation.Vertical)
        self._tidy_tab_bars()
        self.tabifiedDockWidgetActivated.connect(lambda _dock: self._tidy_tab_bars())

    def _tidy_tab_bars(self) -> None:
        """Dock tabs show their whole titles (scroll arrows when they do not fit),
        never "Ban…", "P…"."""
        for bar in self.findChildren(QTabBar):
            if bar.parent() is self:  # the main window's dock tabs, not a widget's own
                bar.setElideMode(Qt.TextElideMode.ElideNone)
                bar.setUsesScrollButtons(True)
                bar.setExpanding(False)

    def _build_study_docks(self) -> None:
        """The variation tree beside the log, and the compare view (STYLE.md §6)."""
        study = StudySession.from_session(self.session, self)
        self.study = study
        self.study_tree = StudyTreeDock(study, self)
        self.compare = CompareDock(study, self)
        for dock in (self.study_tree, self.compare):
            dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                             | QDockWidget.DockWidgetFeature.DockWidgetClosable
                             | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
            self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
        # tabs beside the log's: the bank's tabs keep their whole titles in the left
        # column's width (no "Compan…"), and the study reads beside the game's log
        self.tabifyDockWidget(self.docks["log"], self.study_tree)
        self.tabifyDockWidget(self.study_tree, self.compare)
        log_tabs: tuple[QDockWidget, ...] = (self.docks["log"], self.study_tree, self.compare)
        for tab in log_tabs:  # a few lines at least: the bid boxes above keep every row
            widget = tab.widget()  # in sight at 1280x800
            if widget is not None:
                widget.setMinimumHeight(LOG_MIN_HEIGHT)
        self.docks["log"].raise_()
        self.docks["bank"].raise_()
        self.sandbox = SandboxDock(study, self.map_view, self.controller, self)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.sandbox)
        self.tabifyDockWidget(self.docks["actions"], self.sandbox)
        self.sandbox.hide()  # shown by its mode (Ctrl+T)
        self.refreshed.connect(lambda _s, box=self.sandbox: box.position_changed())
        self.log_model.set_annotator(self._log_annotation)  # marks and notes in the log
        study.tree_changed.connect(self.log_model.annotations_changed)
        self.addAction(self.sandbox.mode_action)
        self.docks["actions"].raise_()

    def _build_menus(self) -> None:
        game = self.menuBar().addMenu("&Game")
        self.new_action = QAction("&New game…", self)
        self.new_action.setShortcut(QKeySequence.StandardKey.New)
        self.open_action = QAction("&Open…", self)
        self.open_action.setShortcut(QKeySequence.StandardKey.Open)
        self.save_action = self.files.save_action
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        self.ranking_action = QAction("Show &ranking", self)
        self.ranking_action.triggered.connect(self._show_ranking)
        for a in (self.new_action, self.open_action, self.ranking_action, quit_action):
            game.addAction(a)
        self.files.install(game, before=quit_action)
        self.programs = ProgramActions(self.session, self, me=self.files.current_player)
        self.programs.install(game, before=quit_action)  # standing orders (auto-pass)
        edit = self.menuBar().addMenu("&Edit")
        # undo and redo move in the history tree: nothing is lost, acting after
        # an undo starts a branch, redo follows the branch visited last
        self.undo_action = QAction("&Undo", self)
        self.undo_action.setShortcut(QKeySequence("Ctrl+Z"))
        self.undo_action.triggered.connect(lambda _=False: self.session.undo())
        self.redo_action = QAction("&Redo", self)
        self.redo_action.setShortcut(QKeySequence("Ctrl+Shift+Z"))
        self.redo_action.triggered.connect(lambda _=False: self.session.redo())
        edit.addAction(self.undo_action)
        edit.addAction(self.redo_action)
        self._build_study_menu()
        view = self.menuBar().addMenu("&View")
        zoom_in = QAction("Zoom &in", self)
        zoom_in.setShortcuts([QKeySequence("Ctrl++"), QKeySequence("Ctrl+=")])
        zoom_in.triggered.connect(lambda _=False: self.map_view.zoom_step(1))
        zoom_out = QAction("Zoom &out", self)
        zoom_out.setShortcut(QKeySequence("Ctrl+-"))
        zoom_out.triggered.connect(lambda _=False: self.map_view.zoom_step(-1))
        fit = QAction("&Fit map to window", self)
        fit.setShortcut(QKeySequence("Ctrl+0"))
        fit.triggered.connect(self.map_view.fit)
        readable = QAction("&Readable size", self)
        readable.setShortcut(QKeySequence("Ctrl+1"))
        readable.triggered.connect(self.map_view.readable_view)
        self.follow_action = QAction("Follow the &operating company", self)
        self.follow_action.setCheckable(True)
        self.follow_action.setChecked(
            str(self.settings().value("map/follow", "true")).lower() == "true")
        self.follow_action.setToolTip("When another company starts its turn, bring its "
                                      "tokens into view")
        self.follow_action.toggled.connect(
            lambda on: self.settings().setValue("map/follow", "true" if on else "false"))
        self.overview_action = QAction("Overview &map", self)
        self.overview_action.setCheckable(True)
        self.overview_action.setToolTip("The whole board in the map's corner, the part in "
                                        "view framed: click or drag there to move the map")
        self.overview_action.setChecked(
            str(self.settings().value("map/overview", "true")).lower() == "true")
        self.map_view.overview.set_enabled(self.overview_action.isChecked())
        self.overview_action.toggled.connect(self._overview_toggled)
        for a in (zoom_in, zoom_out, fit, readable):
            view.addAction(a)
        view.addAction(self.overview_action)
        view.addAction(self.follow_action)
        view.addSeparator()
        self.choices_action = QAction("Go to the &choices", self)
        self.choices_action.setShortcut(QKeySequence("F6"))
        self.choices_action.setToolTip("Keyboard focus on the first open choice of the turn "
                                       "panel: Tab between choices, Space or Enter to act")
        self.choices_action.triggered.connect(lambda _=False: self.focus_choices())
        view.addAction(self.choices_action)
        view.addSeparator()
        reset = QAction("&Reset layout", self)
        reset.triggered.connect(self.reset_layout)
        view.addAction(reset)
        view.addSeparator()
        for dock in self.docks.values():
            view.addAction(dock.toggleViewAction())
        for study_dock in (self.study_tree, self.compare):
            if study_dock is not None:
                view.addAction(study_dock.toggleViewAction())

    def _overview_toggled(self, on: bool) -> None:
        self.map_view.overview.set_enabled(on)
        self.settings().setValue("map/overview", "true" if on else "false")

    def focus_choices(self) -> bool:
        """Show the turn panel and put the keyboard focus on its first open choice."""
        dock = self.docks["actions"]
        dock.show()
        dock.raise_()
        return self.action_panel.focus_choices()

    def _build_study_menu(self) -> None:
        """Study: annotate the current move, compare two positions, export a line."""
        self.study_menu = self.menuBar().addMenu("&Study")
        self.study_menu.aboutToShow.connect(self._fill_study_menu)
        self.compare_a_action = QAction("Compare: this position as &A", self)
        self.compare_a_action.triggered.connect(lambda _=False: self._compare_pick(0))
        self.compare_b_action = QAction("Compare: this position as &B", self)
        self.compare_b_action.triggered.connect(lambda _=False: self._compare_pick(1))
        self.export_line_action = QAction("&Export this line as a game…", self)
        self.export_line_action.triggered.connect(lambda _=False: self.export_line())

    def _fill_study_menu(self) -> None:
        menu = self.study_menu
        menu.clear()
        if self.study_tree is not None:  # its compare entries are for a right-clicked move;
            # here "this position as A/B" below says the same without the doubt
            menu.addActions([a for a in self.study_tree.tree_widget.actions()
                             if not a.text().startswith("Compare:")])
            menu.addSeparator()
        menu.addActions([self.compare_a_action, self.compare_b_action])
        menu.addSeparator()
        if self.sandbox is not None:
            menu.addAction(self.sandbox.mode_action)
        menu.addAction(self.export_line_action)

    def _log_annotation(self, count: int) -> tuple[str, str]:
        """Study marks, branch name and note of live action ``count``, for the log."""
        node = self.session.node_at(count)
        if node is None:
            return "", ""
        marks = "".join(m.symbol for m in node.marks)
        if node.name:
            marks = f"{marks} [{node.name}]".strip()
        if node.note:
            marks = f"{marks} ✎".strip()
        return marks, node.note

    def _compare_pick(self, which: int) -> None:
        if self.compare is None:
            return
        (self.compare.pick_a if which == 0 else self.compare.pick_b).click()
        self.compare.show()
        self.compare.raise_()

    def export_line(self, path: str | None = None) -> bool:
        """Write the line to the current position as a plain game (hot-seat or e-mail)."""
        from desk18xx.io.replaying import digest_of
        from desk18xx.io.study import export_line

        setup = self.session.setup
        if setup is None or not self.session.has_game:
            return False
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, "Export this line as a game",
                                                  "line.d18xx", "desk18xx saves (*.d18xx)")
            if not path:
                return False
        tree = self.session.tree
        try:
            export_line(path, header_of(setup), tree, tree.current,
                        digest_of(self.session.game))
        except (OSError, ValueError) as exc:
            QMessageBox.warning(self, "Export line", f"Cannot write {path}: {exc}")
            return False
        self.statusBar().showMessage(f"Exported this line to {path}")
        return True

    def _connect_signals(self) -> None:
        for key in ("players", "companies", "bank", "auction", "market", "tiles"):
            self.docks[key].visibilityChanged.connect(
                lambda visible, key=key: self._dock_shown(key, visible))
        # a tab brought to the front fills what it missed behind another one
        self.docks["sheet"].visibilityChanged.connect(self.company_sheet.set_in_sight)
        self.docks["bidboxes"].visibilityChanged.connect(self.bid_boxes.set_in_sight)
        self.session.state_changed.connect(self._state_changed)
        self.session.action_rejected.connect(self._rejected)
        self.session.game_replaced.connect(self._game_replaced)
        self.controller.status.connect(self.statusBar().showMessage)
        self.log_view.clicked.connect(self._log_clicked)
        self.log_view.doubleClicked.connect(self._log_double_clicked)
        self.new_action.triggered.connect(self.new_game)
        self.open_action.triggered.connect(self.open_file)
        # a friend's e-mail move: outline what happened since your last action until you act
        self.files.what_happened.connect(self.map_view.set_recent)
        self.files.what_happened.connect(self._mark_recent_node)
        self.session.game_replaced.connect(self.map_view.clear_recent)
        self.session.action_applied.connect(lambda _count: self.map_view.clear_recent())

    def _mark_recent_node(self, *_hexes: object) -> None:
        """The outline of a received move is of the position now (see `_state_changed`)."""
        self._recent_node = self.session.tree.current

    # -- layout persistence -----------------------------------------------------------------
    def settings(self) -> QSettings:
        """Where the layout is kept: the settings file in the user data folder."""
        return user_settings()

    def save_layout(self) -> None:
        """Remember the geometry and the dock layout."""
        s = self.settings()
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/state", self.saveState(LAYOUT_VERSION))

    def restore_layout(self) -> bool:
        """Apply the remembered geometry and docks, if any; True when the geometry was."""
        s = self.settings()
        geometry = s.value("window/geometry")
        state = s.value("window/state")
        ok = False
        if isinstance(geometry, QByteArray):
            ok = self.restoreGeometry(geometry)
        if isinstance(state, QByteArray):
            self.restoreState(state, LAYOUT_VERSION)
        return ok

    def reset_layout(self) -> None:
        """Back to the default docks."""
        for dock in self.docks.values():
            dock.setVisible(True)
        self.restoreState(self._default_state, LAYOUT_VERSION)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        self.save_layout()
        self.files.close()
        super().closeEvent(event)

    # -- commands ---------------------------------------------------------------------------
    def new_game(self) -> None:
        """Ask for a setup and start it."""
        dialog = NewGameDialog(self)
        if dialog.exec() != NewGameDialog.DialogCode.Accepted:
            return
        try:
            self.session.new_game(dialog.setup())
        except (KeyError, IllegalAction, ValueError) as exc:
            QMessageBox.warning(self, "New game", f"Cannot start this game: {exc}")

    def open_file(self) -> None:
        """Open an 18xx.games export."""
        path, _ = QFileDialog.getOpenFileName(self, "Open a game", "",
                                              "Games (*.json *.d18xx);;All files (*)")
        if path:
            self.open_path(path)

    def save_file(self) -> None:
        """Save the game under a name the user picks."""
        path, _ = QFileDialog.getSaveFileName(self, "Save the game", "game.d18xx",
                                              "desk18xx saves (*.d18xx)")
        if not path:
            return
        try:
            self.session.save(path)
        except (OSError, ValueError) as exc:
            QMessageBox.warning(self, "Save", f"Cannot save {path}: {exc}")
            return
        self.statusBar().showMessage(f"Saved {path}")

    def open_path(self, path: str) -> bool:
        """Load ``path`` into the session; report problems in a message box.

        A save that this version's rules stop at an action is offered at its last
        legal action, to continue from there (the file itself is not changed)."""
        try:
            from desk18xx.io.filereader import FileKind, kind_of

            if kind_of(path) is FileKind.EXPORT:  # the detection the tools use too
                self.session.load(path)
                return True
            from desk18xx.io.replaying import open_save

            opened = open_save(path, partial=True)
            failure = opened.replayed.failure
            if failure is not None and not self._continue_stopped_save(path, failure):
                return False
            self.session.load_opened(path, opened)
        except (OSError, ValueError, KeyError, IllegalAction) as exc:
            reason = str(exc).removeprefix(f"{path}: ")  # save errors start with the path
            QMessageBox.warning(self, "Open", f"Cannot open {path}:\n{reason}\n"
                                "The game on screen is unchanged.")
            return False
        if opened.digest_note is not None and failure is None:
            self.statusBar().showMessage(f"Opened {Path(path).name}: {opened.digest_note}.")
        return True

    def _continue_stopped_save(self, path: str, failure: ReplayFailure) -> bool:
        """Ask whether to open a save at the last action this version accepts."""
        answer = QMessageBox.question(
            self, "Open",
            f"{Path(path).name} was saved under other rules. This version refuses "
            f"{failure.describe()}.\n\nOpen the game at the last legal action "
            f"({failure.index} actions) and continue from there as a new line? The file "
            "is not changed; save your continuation under a new name.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Yes)
        return answer == QMessageBox.StandardButton.Yes

    # -- updates ----------------------------------------------------------------------------
    def _game_replaced(self) -> None:
        setup = self.session.setup
        if setup is None:
            return
        self._followed = None  # another game: its first company is followed too
        if self.study is None:
            self._build_study_docks()
        try:
            self._colors = corp_colors(setup.title)
            self._destinations = destinations(setup.title)
        except Exception:  # noqa: BLE001 - colours are cosmetic
            self._colors, self._destinations = {}, {}
        self.company_sheet.set_colors(self._colors)
        self._was_finished = self.session.game.finished
        manifest = getattr(self.session.game.board, "manifest", None)
        if isinstance(manifest, Mapping):  # the tray's pictures, drawn while idle
            self.action_panel.tray.warm(_tray_order(manifest))
        self.tabs.reset()  # the new game's first round brings its tabs forward
        boxes = self.docks["bidboxes"]
        if self.session.game.bid_boxes() is not None:
            if self._boxes_hidden_for_title:  # a player's own closing stays
                boxes.show()
            self._boxes_hidden_for_title = False
            boxes.raise_()  # 1822CA: the boxes are what a stock round is about
        elif not boxes.isHidden():
            boxes.hide()  # 1867 has none: one tab less (View menu can still show it)
            self._boxes_hidden_for_title = True
        self._tidy_tab_bars()
        names = ", ".join(p[1] for p in setup.players)
        self.setWindowTitle(f"desk18xx — {setup.title} — {names}")

    def _state_changed(self, count: int) -> None:
        start = time.perf_counter()
        self.viewing = None
        # the e-mail move's marks belong to the position it reached, not to one undone to
        self.map_view.show_recent(self.session.tree.current is self._recent_node)
        game = self.session.game
        self.undo_action.setEnabled(self.session.can_undo())
        self.redo_action.setEnabled(self.session.can_redo())
        info = turn_info(game)
        self._info = info
        self.action_panel.show_turn(info)
        actions = self.session.actions()
        self.action_panel.show_facts(turn_facts(game, info, actions))
        self.action_panel.setEnabled(True)
        self.controller.refresh(info)
        self._follow(game, info)
        self._show_tables(game, info)
        names = {p.id: p.name for p in game.players}
        told: dict[int, list[str]] = {}
        for count, lines in game.events:
            told.setdefault(count, []).extend(lines)
        if self.log_model.show_actions(self.session.actions(), self.session.rounds(), names,
                                       told=told, places=lambda h: place(game, h)):
            self.log_view.scrollToBottom()
        auction = self._auction_text(info, high_bid(game, info, actions))
        self.auction_label.setText(auction)
        self.tabs.follow(game, info, bool(auction))  # the tabs the round wants in front
        self.statusBar().showMessage(f"{info.round_label}: {info.entity_name} — "
                                     f"{info.step_label}" if info.entity else info.round_label)
        if game.finished:
            ranked = sorted(game.players, key=lambda p: -game.player_value(p.id))
            reason = (game.end_reason or "").replace("_", " ")
            self.action_panel.step.setText(
                f"{ranked[0].name} wins with {_money(game.player_value(ranked[0].id))}"
                + (f" ({reason})" if reason else "") + ". Game > Show ranking for the chart."
                if ranked else reason)
            self.action_panel.hint.setText("\n".join(
                f"{i}. {p.name}: {_money(game.player_value(p.id))}"
                for i, p in enumerate(ranked, 1)))
            self.action_panel.hint.setVisible(True)
        self.refreshed.emit(time.perf_counter() - start)
        if game.finished and not self._was_finished and count and self.isVisible():
            self.show_game_end()
        self._was_finished = game.finished

    def _follow(self, game: Game, info: TurnInfo) -> None:
        """Bring the operating company's tokens (or home) into view when another company
        starts acting (View > Follow the operating company); never between two moves
        of the same company, so a zoom or a pan of the player's own stays."""
        entity = info.entity
        if entity is None or entity not in game.corps:
            return
        key = (info.round_label, entity)
        if key == self._followed:
            return
        self._followed = key
        if self.follow_action.isChecked():
            self.map_view.focus_on(self.map_view.company_hexes(entity))

    def _show_tables(self, game: Game, info: TurnInfo) -> None:
        """Fill the docks from ``game`` (the live one, or an earlier position).

        In a shown window a dock out of sight (a tab behind another, closed) is
        filled when it comes into view instead (:meth:`_dock_shown`).
        """
        self._tables_source = (game, info)
        for key in ("players", "companies", "bank", "auction", "market", "tiles"):
            if self.isVisible() and not in_sight(self.docks[key]):  # closed, or behind a tab
                self._stale_docks.add(key)
            else:
                self._stale_docks.discard(key)
                self._fill_dock(key, game, info)

    def _fill_dock(self, key: str, game: Game, info: TurnInfo) -> None:
        if key == "players":
            self.players_model.set_rows(player_rows(game, info.entity))
        elif key == "companies":
            self.corps_model.set_rows(corp_rows(game, self._colors, info.entity,
                                                self._destinations))
        elif key == "bank":
            self.bank_model.set_rows(bank_rows(game))
        elif key == "auction":
            self.privates_model.set_rows(company_rows(game))
        elif key == "market":
            cells = market_cells(game, self._colors)
            if cells != self.market.cells():
                self.market.set_cells(cells)
        elif key == "tiles":
            self.tiles_model.set_rows([Row((name, color, "∞" if left is None else str(left)))
                                       for name, color, left in tile_counts(game)])

    def _dock_shown(self, key: str, visible: bool) -> None:
        """A dock came into view: fill it if it missed updates while out of sight."""
        if visible and key in self._stale_docks and self._tables_source is not None:
            self._stale_docks.discard(key)
            self._fill_dock(key, *self._tables_source)

    def show_position(self, count: int | None) -> None:
        """Show the board and the docks after ``count`` live actions (None: now).

        Looking back changes nothing: the turn panel is disabled until the
        last log entry is clicked (or anything is played).
        """
        if count is None or count >= len(self.session.actions()):
            self.bid_boxes.show_game(None)
            self._state_changed(len(self.session.actions()))
            return
        game = self.session.game_at(count)
        info = turn_info(game)
        self.viewing = count
        self.map_view.show_recent(False)  # an earlier board: the marks are not of it
        self.controller.show_history(game)
        self.map_labels.refresh()
        self._show_tables(game, info)
        self.bid_boxes.show_game(game)
        self.action_panel.show_facts(turn_facts(game, info, self.session.actions()[:count]))
        self.action_panel.setEnabled(False)
        self.action_panel.who.setText(f"Looking back: action {count}")
        self.action_panel.step.setText(f"{info.round_label} — {info.entity_name} to act. "
                                       "Click the last log line to return.")

    def _auction_text(self, info: TurnInfo, top: HighBid | None) -> str:
        facts = info.facts
        game = self.session.game
        standing = (f"High bid ${top.price} by <b>{top.player}</b>; next bid at least "
                    f"${facts.min_bid}" if top is not None
                    else f"No bid yet; minimum bid ${facts.min_bid}")
        if facts.company is not None:
            c = game.companies.get(facts.company)
            name = c.name if c else facts.company
            value = f" (value ${c.value}, revenue ${c.revenue})" if c else ""
            dutch = " — price lowered" if facts.dutch else ""
            return f"<b>Up for auction: {name}</b>{value}<br>{standing}{dutch}"
        if facts.corporation is not None:
            return f"<b>Auction of minor {facts.corporation}</b><br>{standing}"
        return ""

    def _rejected(self, reason: str) -> None:
        self.action_panel.show_error(reason)
        self.statusBar().showMessage(f"Not allowed: {reason}")

    def _log_clicked(self, index: QModelIndex) -> None:
        entry = self.log_model.entry(index.row())
        if entry.count is not None:
            self.show_position(entry.count)

    def _log_double_clicked(self, index: QModelIndex) -> None:
        entry = self.log_model.entry(index.row())
        if entry.count is None or entry.count >= len(self.session.actions()):
            return
        answer = QMessageBox.question(
            self, "Go back", f"Take back every action after action {entry.count}?")
        if answer == QMessageBox.StandardButton.Yes:
            self.undo.jump_to(entry.count)

    def _show_ranking(self) -> None:
        if self.session.has_game:
            self.show_game_end()

    def show_game_end(self) -> GameEndDialog:
        """Show the final ranking and value chart."""
        from desk18xx.ui.models.history import standings, values_by_round

        game = self.session.game
        labels, series = values_by_round(self.session)
        old = self._end_dialog
        if old is not None:  # the end was taken back and reached again: one dialog only
            old.close()
            old.setParent(None)
            old.deleteLater()
        dialog = GameEndDialog(game.end_reason or "", standings(game), labels, series, self,
                               finished=game.finished)
        self._end_dialog = dialog
        dialog.setModal(False)
        dialog.show()
        return dialog
