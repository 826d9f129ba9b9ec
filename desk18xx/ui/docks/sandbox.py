"""Study mode's off-turn sandbox: try a tile for any company, see its best routes.

While the sandbox is on (*Study > Sandbox*, Ctrl+T), the map belongs to it:
pick a company, and the hexes where it could lay a tile now (as if it were
its own track step) are outlined; click one (or drag a tile onto it), pick a
tile and turn it as when laying track, then *Try it*. The board shows the
position after the lay with the company's best routes (the route optimizer),
and the dock its revenue before and after. *Discard* drops the trial (nothing
enters the game or the study); *Keep as a branch* plays it, when it is the
company's own legal move now. The position is the current node's; moving in
the study starts again from the new one.

The route searches run in a worker thread (:class:`~desk18xx.ui.routeworker.TaskRunner`)
with a progress line whose Cancel shows the best routes found so far; a search
for a position, company or trial left meanwhile is dropped, its answer unused.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desk18xx.engine.actions import LayTile
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game
from desk18xx.engine.sandbox import (
    RouteSummary,
    SandboxTrial,
    best_routes_of,
    hex_lay_offer,
    is_own_move,
    lay_for,
    lay_offers,
)
from desk18xx.ui.actionpanel import TileTray
from desk18xx.ui.mapview.controller import MapController
from desk18xx.ui.mapview.overlays import hex_centre
from desk18xx.ui.mapview.view import MapView
from desk18xx.ui.models.routes import earnings
from desk18xx.ui.models.tracks import TrackOptions
from desk18xx.ui.routeworker import RouteSearchBar, TaskRunner
from desk18xx.ui.studysession import StudySession

#: Outline colour of the hexes the sandbox company may build on.
SANDBOX_COLOR = "#00a0ff"


def running_companies(game: Game) -> list[str]:
    """Companies that may lay track: started and not closed."""
    return [c.id for c in game.view().corporations() if c.floated and not c.closed]


Progress = Callable[[float, int], None]


def summary_of(game: Game, corp: str, cancel: Callable[[], bool],
               progress: Progress) -> RouteSummary:
    """The company's best routes (run in the worker thread); an optimizer failure
    comes back as the summary's problem."""
    try:
        return best_routes_of(game, corp, cancel=cancel, progress=progress)
    except Exception as exc:  # noqa: BLE001 - an optimizer failure is shown, not raised
        return RouteSummary(0, problem=str(exc))


def _part(progress: Progress, start: float, share: float) -> Progress:
    """``progress`` for one of several searches: its fraction mapped into its share."""
    return lambda fraction, best: progress(start + share * fraction, best)


class SandboxDock(QDockWidget):
    """The sandbox's controls; it drives the map while :attr:`active`.

    Args:
        study: the study (its current node is the position tried from).
        view: the map.
        controller: the map's own controller (silenced while the sandbox is on).

    Signals:
        trial_ready(object): the best routes after a tile tried came (a SandboxTrial).
    """

    #: The trial tried, with its routes before and after (a SandboxTrial).
    trial_ready = Signal(object)

    def __init__(self, study: StudySession, view: MapView, controller: MapController,
                 parent: QWidget | None = None) -> None:
        super().__init__("Sandbox", parent)
        self.setObjectName("study_sandbox_dock")
        self.study = study
        self.view = view
        self.controller = controller
        self.active = False
        self._keeping = False
        """The sandbox's own trial is being played as a branch (not a move that ends it)."""
        self.base: Game | None = None
        """The position tried from (the current node's)."""
        self.track: TrackOptions | None = None
        self.selected_hex: str | None = None
        self.selected_tile: str | None = None
        self.rotations: tuple[int, ...] = ()
        self.rot_index = 0
        self.trial: SandboxTrial | None = None
        self.pending: LayTile | None = None
        """The lay tried whose routes are being searched."""
        self._before: dict[str, RouteSummary] = {}
        self.runner = TaskRunner(self)
        self.mode_action = QAction("Sand&box: try a tile for any company", self)
        self.mode_action.setCheckable(True)
        self.mode_action.setShortcut(QKeySequence("Ctrl+T"))
        self.mode_action.toggled.connect(self.set_active)
        self._build()
        self._connect_signals()

    # -- construction -------------------------------------------------------------------
    def _build(self) -> None:
        body = QWidget(self)
        layout = QVBoxLayout(body)
        self.company = QComboBox(body)
        self.hint = QLabel("", body)
        self.hint.setWordWrap(True)
        self.tray = TileTray(body)
        row = QHBoxLayout()
        self.rotate_button = QPushButton("Rotate ⟳", body)
        self.try_button = QPushButton("Try it", body)
        self.discard_button = QPushButton("Discard", body)
        self.keep_button = QPushButton("Keep as a branch", body)
        for button in (self.rotate_button, self.try_button):
            row.addWidget(button)
        self.result = QLabel("", body)
        self.result.setWordWrap(True)
        self.result.setTextFormat(Qt.TextFormat.RichText)
        self.search_bar = RouteSearchBar(self.runner, body)
        done = QHBoxLayout()
        done.addWidget(self.discard_button)
        done.addWidget(self.keep_button)
        layout.addWidget(QLabel("Company:", body))
        layout.addWidget(self.company)
        layout.addWidget(self.hint)
        layout.addWidget(self.tray)
        layout.addLayout(row)
        layout.addWidget(self.result)
        layout.addWidget(self.search_bar)
        layout.addLayout(done)
        layout.addStretch(1)
        self.setWidget(body)
        self._buttons()

    def _connect_signals(self) -> None:
        self.company.currentIndexChanged.connect(lambda _i: self._company_changed())
        self.tray.tile_chosen.connect(self.choose_tile)
        self.rotate_button.clicked.connect(lambda: self.rotate(1))
        self.try_button.clicked.connect(self.try_lay)
        self.discard_button.clicked.connect(self.discard)
        self.keep_button.clicked.connect(self.keep)
        self.view.hex_clicked.connect(self.click_hex)
        self.view.tile_dropped.connect(self.drop_tile)
        self.view.rotate_requested.connect(self.rotate)
        self.view.confirm_requested.connect(self.try_lay)
        self.view.cancel_requested.connect(self.discard)
        self.view.fan_tile_chosen.connect(self._fan_tile)
        self.runner.finished.connect(self._search_done)
        self.runner.failed.connect(lambda reason: self.hint.setText(f"No route search: {reason}"))
        if self.study.session is None:  # else the window calls position_changed
            self.study.current_changed.connect(lambda _id: self.position_changed())
        session = self.study.session
        if session is not None and hasattr(session, "game_replaced"):
            # a mode: a new or opened game ends it and takes its tab away, and so does
            # a move played in the game (not one of the sandbox's own trials)
            session.game_replaced.connect(self._game_replaced)
            session.action_applied.connect(lambda _n: self._acted())

    # -- mode ---------------------------------------------------------------------------
    def set_active(self, on: bool) -> None:
        """Turn the sandbox on (the map shows its trials) or off (the live board)."""
        if on == self.active:
            return
        self.active = on
        if self.mode_action.isChecked() != on:
            self.mode_action.setChecked(on)
        if on:
            self.show()
            if not self.isWindow():
                self.raise_()
            self.controller.cancel()
            self.position_changed()
        else:
            self.runner.drop()
            self.trial = None
            self.pending = None
            self.base = None
            self.track = None
            self.view.set_routes(())
            self.view.clear_preview()
            self.view.clear_fan()
            self.controller.show_history(None)  # back to the live board and its overlays
            self.hide()  # the turn panel's tab again

    def position_changed(self) -> None:
        """The study moved (or the sandbox opened): start again from the current node.

        The main window calls it once it has shown the new position (its board
        drawn), so the sandbox's board and outlines come on top.
        """
        if not self.active:
            return
        self.runner.drop()
        self.trial = None
        self.pending = None
        self._before = {}
        self.base = self.study.study.game
        chosen = self.company.currentData()
        self.company.blockSignals(True)
        self.company.clear()
        for cid in running_companies(self.base):
            self.company.addItem(company_label(self.base, cid), cid)
        index = self.company.findData(chosen)
        self.company.setCurrentIndex(max(0, index))
        self.company.blockSignals(False)
        self._company_changed()

    def _company_changed(self) -> None:
        self.runner.drop()
        self.trial = None
        self.pending = None
        self.selected_hex = None
        self.rotations = ()
        self.view.clear_preview()
        self.view.set_routes(())
        base, corp = self.base, self.corp
        if base is None:
            return
        self.controller.show_history(base)  # the position; the map's own clicks are off
        if corp is None:
            self.track = None
            self.view.set_highlights(())
            self.hint.setText("No company has a station on the map yet.")
            self._buttons()
            return
        self.track = TrackOptions(base, corp, source=(
            lambda: lay_offers(base, corp), lambda hex_id: hex_lay_offer(base, corp, hex_id)))
        self.view.set_highlights(self.track.hexes(), SANDBOX_COLOR)
        self.tray.set_tiles(self.track.tray(None))
        self.hint.setText(f"Click a hex outlined in blue to lay a tile for {corp}."
                          if self.track.hexes() else
                          f"{corp} has no hex it could lay a tile on now (its stations "
                          "reach no hex a tile of this phase fits, or it cannot pay).")
        before = self._before.get(corp)
        if before is not None:
            self._show_before(corp, before)
        else:
            self.result.setText(f"{corp} now: finding the best routes…")
            game = base.copy()  # the worker's own: nothing else reads or changes it
            self.runner.start(corp, lambda cancel, progress: summary_of(game, corp, cancel,
                                                                       progress),
                              ("before", base, corp))
        self._buttons()

    def _show_before(self, corp: str, before: RouteSummary) -> None:
        self.result.setText(f"{corp} now: {self._summary(before)}")
        if self.base is not None:
            self._draw_routes(self.base, before)

    @property
    def corp(self) -> str | None:
        """The company tried."""
        data = self.company.currentData()
        return None if data is None else str(data)

    def before(self, corp: str) -> RouteSummary | None:
        """The company's best routes in the position tried from, once searched."""
        return self._before.get(corp)

    # -- laying -------------------------------------------------------------------------
    def click_hex(self, hex_id: str) -> None:
        """Choose a hex for the trial tile (the map was clicked)."""
        if not self.active or self.track is None or self.trying:
            return
        if hex_id == self.selected_hex and self.rotations:
            self.rotate(1)
            return
        legal = self.track.legal(hex_id)
        if not legal:
            why = self.track.why_not(hex_id)
            self.hint.setText(f"{self.corp} cannot lay a tile on {hex_id} now"
                              + (f": {why}." if why else "."))
            return
        self.selected_hex = hex_id
        self.tray.set_tiles(self.track.tray(hex_id))
        if self.selected_tile not in legal:
            self.selected_tile = sorted(legal)[0]
        self._show_fan()
        self._start_preview()

    def _show_fan(self) -> None:
        """The tiles the sandbox offers on the chosen hex, as a fan around it."""
        track, hex_id = self.track, self.selected_hex
        if track is None or hex_id is None:
            self.view.clear_fan()
            return
        self.view.show_fan(track.hex_def(hex_id), [
            (name, track.tile(name), rotations[0], f"Tile {name} (click to choose)")
            for name, rotations in sorted(track.legal(hex_id).items())])

    def _fan_tile(self, name: str) -> None:
        if self.active and not self.trying and self.selected_hex is not None:
            self.choose_tile(name)

    def drop_tile(self, hex_id: str, name: str) -> None:
        """A tile was dragged from the sandbox's tray onto the map."""
        if not self.active or self.track is None or self.trying:
            return
        if name not in self.track.legal(hex_id):
            why = self.track.why_not(hex_id, name) or self.track.why_not(hex_id)
            self.hint.setText(f"Tile {name} cannot be laid on {hex_id} by {self.corp}"
                              + (f": {why}." if why else "."))
            return
        self.selected_hex, self.selected_tile = hex_id, name
        self.tray.set_tiles(self.track.tray(hex_id))
        self._show_fan()
        self._start_preview()

    def choose_tile(self, name: str) -> None:
        """A tile of the tray was picked."""
        if self.selected_hex is None:
            self.hint.setText("Choose a hex first, or drag the tile onto one.")
            return
        self.selected_tile = name
        self._start_preview()

    def rotate(self, step: int) -> None:
        """Turn the previewed tile to the next legal rotation."""
        if not self.active or not self.rotations or self.trying:
            return
        self.rot_index = (self.rot_index + step) % len(self.rotations)
        self._show_preview()

    def _start_preview(self) -> None:
        if self.track is None or self.selected_hex is None or self.selected_tile is None:
            return
        self.rotations = self.track.legal(self.selected_hex).get(self.selected_tile, ())
        self.rot_index = 0
        self._show_preview()

    def _show_preview(self) -> None:
        track, hex_id, name = self.track, self.selected_hex, self.selected_tile
        if track is None or hex_id is None or name is None or not self.rotations:
            return
        self.view.show_preview(track.hex_def(hex_id), track.tile(name),
                               self.rotations[self.rot_index])
        self.hint.setText(f"Tile {name} on {hex_id}, rotation {self.rotations[self.rot_index]} "
                          f"({self.rot_index + 1}/{len(self.rotations)}): Try it (⏎), "
                          "or turn it.")
        self._buttons()

    def pending_lay(self) -> LayTile | None:
        """The lay previewed now, as an action of the sandbox company."""
        track, corp = self.track, self.corp
        if (track is None or corp is None or self.selected_hex is None
                or self.selected_tile is None or not self.rotations):
            return None
        copy = track.copy_id(self.selected_tile, self.selected_hex)
        if copy is None:
            return None
        return LayTile(entity=corp, entity_type="corporation", hex=self.selected_hex,
                       tile=copy, rotation=self.rotations[self.rot_index])

    @property
    def trying(self) -> bool:
        """A trial is shown or its routes are being searched."""
        return self.trial is not None or self.pending is not None

    def try_lay(self) -> bool:
        """Lay the previewed tile on a copy of the position and search the company's
        best routes before and after in the worker thread (:attr:`trial_ready`).

        Returns:
            True when the search started (the rules allow the lay).
        """
        lay, base = self.pending_lay(), self.base
        if not self.active or lay is None or base is None or self.trying:
            return False
        try:
            after_game = lay_for(base, lay)
        except IllegalAction as exc:
            self.hint.setText(f"Not allowed: {exc}")
            return False
        corp, on_turn = lay.entity, is_own_move(base, lay)
        before = self._before.get(corp)
        game = base.copy() if before is None else None  # the worker's own copies

        def task(cancel: Callable[[], bool], progress: Progress
                 ) -> tuple[RouteSummary, RouteSummary]:
            was = before
            if was is None:
                assert game is not None
                was = summary_of(game, corp, cancel, _part(progress, 0.0, 0.5))
                progress = _part(progress, 0.5, 0.5)
            return was, summary_of(after_game, corp, cancel, progress)

        self.pending = lay
        self.runner.start(corp, task, ("trial", base, lay, after_game, on_turn))
        self.hint.setText(f"Finding {corp}'s best routes with tile {lay.tile} on {lay.hex}… "
                          "(Cancel: the best found so far)")
        self._buttons()
        return True

    def _search_done(self, tag: object, answer: object) -> None:
        """A search of the worker came back (searches left meanwhile were dropped)."""
        match tag:
            case ("before", base, str(corp)) if base is self.base \
                    and isinstance(answer, RouteSummary):
                self._before[corp] = answer
                if corp == self.corp and not self.trying:
                    self._show_before(corp, answer)
            case ("trial", base, LayTile() as lay, Game() as after_game, bool(on_turn)) \
                    if base is self.base and lay == self.pending and isinstance(answer, tuple):
                before, after = answer
                self._before.setdefault(lay.entity, before)
                self.pending = None
                self._show_trial(SandboxTrial(lay, after_game, before, after, on_turn))

    def _show_trial(self, trial: SandboxTrial) -> None:
        lay = trial.lay
        self.trial = trial
        self.view.clear_preview()
        self.view.clear_fan()
        self.controller.show_history(trial.game)
        self.view.set_highlights((lay.hex,), SANDBOX_COLOR)
        self._draw_routes(trial.game, trial.after)
        gain = trial.gain
        colour = "green" if gain > 0 else "red" if gain < 0 else "black"
        self.result.setText(
            f"<b>{lay.entity}</b>, tile {lay.tile} on {lay.hex}:<br>"
            f"before: {self._summary(trial.before)}<br>"
            f"after: {self._summary(trial.after)}<br>"
            f"<span style='color:{colour}'><b>{gain:+d}</b></span>")
        self.hint.setText("Discard it (Esc), or keep it as a branch when it is "
                          f"{lay.entity}'s own move now."
                          if trial.on_turn else
                          f"Not {lay.entity}'s turn to lay track now: discard it (Esc).")
        self._buttons()
        self.trial_ready.emit(trial)

    def discard(self) -> None:
        """Drop the trial (nothing is recorded; a search for it is dropped too) and try
        again from the position."""
        if not self.active:
            return
        self.runner.drop()
        self.trial = None
        self.pending = None
        self.selected_hex = None
        self._company_changed()

    def keep(self) -> bool:
        """Play the trial's lay as a branch of the study (its company's own move)."""
        trial = self.trial
        if not self.active or trial is None or not trial.on_turn:
            return False
        self.trial = None
        self._keeping = True
        try:
            played = self.study.play(trial.lay)
        finally:
            self._keeping = False
        if played is None:
            return False
        self.set_active(False)
        return True

    def _acted(self) -> None:
        """A move was played in the game: the sandbox ends (issue 18: a mode)."""
        if self.active and not self._keeping:
            self.set_active(False)

    def _game_replaced(self) -> None:
        """A new or opened game: the sandbox ends and its tab goes."""
        self.set_active(False)
        self._before = {}
        self.hide()

    # -- drawing ------------------------------------------------------------------------
    @staticmethod
    def _summary(routes: RouteSummary) -> str:
        if routes.problem:
            return f"no routes ({routes.problem})"
        text = f"{earnings(routes.revenue, routes.subsidy)} with {len(routes.routes)} route" + (
            "" if len(routes.routes) == 1 else "s")
        return text + ("" if routes.complete else " (search stopped early)")

    def _draw_routes(self, game: Game, routes: RouteSummary) -> None:
        size = self.view.hex_size()
        drawn: list[tuple[list[QPointF], str, list[QPointF]]] = []
        for route in routes.routes:
            points: list[QPointF] = []
            stops: list[QPointF] = []
            for chain in route.connections:
                try:
                    centres = [hex_centre(h, size) for h in chain]
                except ValueError:  # not a hex (a local train's own marker)
                    continue
                points.extend(centres)
                if centres:
                    stops.extend((centres[0], centres[-1]))
            train = game.view().train(route.train)
            name = train.name if train is not None else route.train
            drawn.append((points, f"{name}: ${route.revenue or 0}", stops))
        self.view.set_routes(drawn)

    def _buttons(self) -> None:
        trying = self.trying
        self.try_button.setEnabled(self.active and not trying and self.pending_lay() is not None)
        self.rotate_button.setEnabled(self.active and not trying and len(self.rotations) > 1)
        self.discard_button.setEnabled(self.active and trying)
        self.keep_button.setEnabled(self.active and trying and bool(
            self.trial is not None and self.trial.on_turn))


def company_label(game: Game, cid: str) -> str:
    """A company as the sandbox lists it: its id and full name ("BO — Brockville &
    Ottawa"), the id alone where it has no other name."""
    corp = game.view().corporation(cid)
    name = corp.name if corp is not None else ""
    return f"{cid} — {name}" if name and name != cid else cid


__all__ = ["SandboxDock", "company_label", "running_companies", "summary_of"]
