"""Map interaction for the acting company: track, tokens and routes.

Binds a :class:`~desk18xx.ui.mapview.view.MapView` and the tile tray of the
:class:`~desk18xx.ui.actionpanel.ActionPanel` to the session: it highlights
where the company may build, previews a tile in its legal rotations only,
shows clickable token slots, and builds routes from clicked stops.  Every
gesture ends as an :class:`Action` passed to ``session.submit``.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QCoreApplication, QObject, QPointF, QTimer, Signal
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import QComboBox, QGroupBox, QLabel, QPushButton, QVBoxLayout

from desk18xx.engine.actions import LayTile, PlaceToken, RunRoutes
from desk18xx.engine.game import Game
from desk18xx.ui.actionpanel import ActionPanel
from desk18xx.ui.mapview.layguess import LayGuesses
from desk18xx.ui.mapview.overlays import (
    ROUTE_COLORS,
    city_slot_centres,
    hex_centre,
    node_centre,
)
from desk18xx.ui.mapview.view import MapView
from desk18xx.ui.models.board import board_view, hex_summary
from desk18xx.ui.models.choices import TurnInfo
from desk18xx.ui.models.routes import (
    TrainRoute,
    can_build,
    earnings,
    find_chain,
    is_stop,
    mail_subsidy,
    price,
    runs_local,
    stop_node,
    trains_of,
)
from desk18xx.ui.models.tokens import city_id, token_slots
from desk18xx.ui.models.tracks import TrackOptions
from desk18xx.ui.routeworker import Proposal, RouteSearch, RouteSearchBar
from desk18xx.ui.session import GameSession

#: Milliseconds between a company reaching its run and its best-route search starting:
#: time for the window to show the move first (a search takes far longer than this).
AUTO_SEARCH_DELAY_MS = 40
LAY_CHOICES_KEPT = 16
"""Positions whose lay choices (`TrackOptions.choices`) are kept: a position shown
again (an undo, a redo) outlines its hexes without asking the engine again."""


class MapController(QObject):
    """Turns map gestures into actions for the entity that must act.

    Signals:
        status(str): a short message for the status bar.
    """

    #: A short message for the status bar.
    status = Signal(str)

    auto_propose = True
    """Search the best routes as soon as a company reaches its run (off the GUI thread)."""

    def __init__(self, session: GameSession, view: MapView, panel: ActionPanel,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._view = view
        self._panel = panel
        self._info: TurnInfo | None = None
        self._track: TrackOptions | None = None
        self.selected_hex: str | None = None
        self.selected_tile: str | None = None
        self._rotations: tuple[int, ...] = ()
        self._rot_index = 0
        self._routes: list[TrainRoute] = []
        self._current_train = 0
        self._history: Game | None = None
        self._lay_known: dict[tuple[object, str, int, object],
                              tuple[frozenset[str], frozenset[str]]] = {}
        self._held: tuple[Proposal, int] | None = None
        """Routes found while another board was shown, with the log length then."""
        self.guesses = LayGuesses(session, self)
        """The lay question of the positions one click away, asked in the pause."""
        # before the main window's own state_changed slot: a change drops a stale search first
        self.search = RouteSearch(session, self)
        self._auto_for: tuple[str, int] | None = None
        self._route_box = self._make_route_box()
        self._connect_signals()

    def _connect_signals(self) -> None:
        self._view.hex_clicked.connect(self.click_hex)
        self._view.tile_dropped.connect(self.drop_tile)
        self._view.slot_clicked.connect(self.click_slot)
        self._view.rotate_requested.connect(self.rotate)
        self._view.confirm_requested.connect(self.confirm)
        self._view.cancel_requested.connect(self.cancel)
        self._view.hex_hovered.connect(self._hovered)
        self._view.fan_tile_chosen.connect(self.choose_fan_tile)
        self._panel.tray.tile_chosen.connect(self.choose_tile)
        self._panel.rotate_button.clicked.connect(lambda: self.rotate(1))
        self._panel.confirm_button.clicked.connect(self.confirm)
        self._panel.cancel_button.clicked.connect(self.cancel)
        self.search.proposal_ready.connect(self.show_proposal)
        self.search.failed.connect(lambda reason: self.status.emit(
            f"No route suggestion: {reason}"))
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.search.shutdown)

    # -- state -----------------------------------------------------------------------------
    @property
    def rotation(self) -> int | None:
        """Rotation previewed now."""
        return self._rotations[self._rot_index] if self._rotations else None

    @property
    def legal_rotations(self) -> tuple[int, ...]:
        """Rotations the previewed tile may take."""
        return self._rotations

    @property
    def track(self) -> TrackOptions | None:
        """Build options of the acting company (while it lays track)."""
        return self._track

    @property
    def routes(self) -> list[TrainRoute]:
        """Routes being built."""
        return self._routes

    def show_history(self, game: Game | None) -> None:
        """Draw an earlier board (``None``: back to the live game)."""
        self._history = game
        if game is not None:
            self._view.set_board(board_view(game))
            self._view.set_highlights(())
            self._view.set_token_slots(())
            self._view.clear_preview()
            self.status.emit("Showing an earlier position; click the last log line to return")
        else:
            held, self._held = self._held, None
            self.refresh(self._info)
            # the routes found while another board was shown (the sandbox, an earlier
            # position) are shown now: "Best routes" is never left waiting
            if held is not None and held[1] == len(self._session.actions()):
                self.show_proposal(held[0])

    def refresh(self, info: TurnInfo | None) -> None:
        """Redraw the board and the overlays for ``info``."""
        self._info = info
        if not self._session.has_game:
            return
        game = self._session.game
        self._history = None
        self._view.set_board(board_view(game))
        self.cancel()
        self._track = None
        entity = info.entity if info else None
        lay = info is not None and "lay_tile" in info.map_types and entity in game.corps
        if lay and entity is not None:
            # the position: its node of the tree (the same actions from the start)
            # and the live line's last action (what it set off included)
            live = self._session.actions()
            key = (self._session.tree.current, entity, len(live), live[-1] if live else None)
            known = self._lay_known.pop(key, None)
            if known is None:  # reached by the choice guessed in the pause before
                known = self.guesses.answer(entity)
            self._track = TrackOptions(game, entity, known=known)
            self._view.set_highlights(self._track.hexes())
            self._panel.tray.set_tiles(self._track.tray(None))
            self._lay_known[key] = self._track.choices()
            while len(self._lay_known) > LAY_CHOICES_KEPT:
                del self._lay_known[next(iter(self._lay_known))]
        else:
            self._view.set_highlights(())
        self.guesses.plan(info)  # the next position's lay question, in the player's pause
        self._panel.tray_box.setVisible(lay)
        self._panel.lay_buttons.setVisible(False)
        self._show_token_slots(game, info)
        if (info is not None and "run_routes" in info.map_types and entity in game.corps
                and can_build(game)):
            if not self._routes or self._routes[0].train not in game.corps[entity].trains:
                self._routes = trains_of(game, entity)
                self._current_train = 0
            self._panel.add_extra(self._route_box)
            self._route_box.setVisible(True)
            self._update_routes()
            here = (entity, len(self._session.actions()))
            # 1822CA: propose once the Pullman and grain train are attached or left
            # off, so the proposal runs the trains the engine will pay
            attaching = bool(info.facts.choice_labels)
            if (self.auto_propose and self._auto_for != here and not attaching
                    and not any(r.stops for r in self._routes)):
                self._auto_for = here
                # after this update is painted: copying the game for the worker
                # thread (about 10 ms late in 1822CA) is not work the player should
                # wait for to see the move, and a zero timer can come before the paint
                QTimer.singleShot(AUTO_SEARCH_DELAY_MS, self,
                                  lambda: self._start_auto_search(here))
        else:
            self._routes = []
            self._route_box.setVisible(False)
            self._view.set_routes(())

    def _start_auto_search(self, here: tuple[str, int]) -> None:
        """Start the automatic route search planned for ``here`` (company, log length)
        unless the game has moved on or a route was clicked meanwhile."""
        if not self._session.has_game:
            return
        entity, count = here
        if (self._auto_for != here or len(self._session.actions()) != count
                or any(r.stops for r in self._routes)):
            return
        self.search.start(entity, auto=True)

    def _hovered(self, hex_id: str) -> None:
        if not hex_id or not self._session.has_game:
            self._view.setToolTip("")
            return
        game = self._history or self._session.game
        text = hex_summary(game, hex_id)
        if self._track is not None and self._history is None and self._track.any_legal(hex_id):
            text += " · click to build here"
        self._view.setToolTip(text)

    # -- track -----------------------------------------------------------------------------
    def click_hex(self, hex_id: str) -> None:
        """A hex was clicked: choose it for a tile, or add it to the route."""
        if self._history is not None:
            return
        if self._routes and self._info is not None and "run_routes" in self._info.map_types:
            self.toggle_stop(hex_id)
            return
        if self._track is None:
            self._explain_token_click(hex_id)
            return
        if hex_id == self.selected_hex and self._view.previewing:
            self.rotate(1)  # clicking the previewed hex again turns the tile
            return
        legal = self._track.legal(hex_id)
        if not legal:
            why = self._track.why_not(hex_id)
            self.status.emit(f"No tile can be laid on {hex_id} now" + (f": {why}" if why else ""))
            return
        self.selected_hex = hex_id
        self._panel.tray.set_tiles(self._track.tray(hex_id))
        usable = self._panel.tray.tile_names(usable_only=True)
        if self.selected_tile not in legal and usable:
            self.selected_tile = usable[0]
        self._show_fan()
        self._start_preview()

    def _show_fan(self) -> None:
        """Open the tiles the offer allows on the chosen hex as a fan around it."""
        track, hex_id = self._track, self.selected_hex
        if track is None or hex_id is None:
            self._view.clear_fan()
            return
        fan = []
        for name, rotations in track.legal(hex_id).items():
            cost = track.cost(hex_id, name, rotations[0])
            tip = f"Tile {name}" + (f", ${cost}" if cost else "") + " (click to choose)"
            fan.append((name, track.tile(name), rotations[0], tip))
        fan.sort(key=lambda f: _num(f[0]))
        self._view.show_fan(track.hex_def(hex_id), fan)

    def choose_fan_tile(self, name: str) -> None:
        """A tile of the fan around the chosen hex was clicked."""
        if self._track is None or self._history is not None or self.selected_hex is None:
            return
        self.choose_tile(name)

    def _explain_token_click(self, hex_id: str) -> None:
        """A click on a city while the company places a token, where the map rings no
        slot: say why (the engine's reason)."""
        info = self._info
        if info is None or info.entity is None or "place_token" not in info.map_types:
            return
        game = self._session.game
        if any(s.hex_id == hex_id for s in self._view.token_slots()):
            return
        try:
            city = city_id(game, hex_id, 0)
        except Exception:  # noqa: BLE001 - no city on this hex
            return
        if not city:
            return
        etype = "player" if game.is_player(info.entity) else "corporation"
        why = game.why_illegal(PlaceToken(entity=info.entity, entity_type=etype, city=city))
        if why is None:
            why = "choose one of its ringed slots"
        self.status.emit(f"{info.entity} cannot place a token on {hex_id}: {why}")

    def drop_tile(self, hex_id: str, name: str) -> None:
        """A tile was dragged from the tray onto ``hex_id``."""
        if self._track is None or self._history is not None:
            return
        if name not in self._track.legal(hex_id):
            why = self._track.why_not(hex_id, name) or self._track.why_not(hex_id)
            self.status.emit(f"Tile {name} cannot be laid on {hex_id}"
                             + (f": {why}" if why else ""))
            return
        self.selected_hex = hex_id
        self.selected_tile = name
        self._panel.tray.set_tiles(self._track.tray(hex_id))
        self._show_fan()
        self._start_preview()

    def choose_tile(self, name: str) -> None:
        """A usable tile was clicked in the tray."""
        if self.selected_hex is None:
            self.status.emit("Choose a hex first, or drag the tile onto one")
            return
        self.selected_tile = name
        self._start_preview()

    def _start_preview(self) -> None:
        if self._track is None or self.selected_hex is None or self.selected_tile is None:
            return
        self._rotations = self._track.legal(self.selected_hex).get(self.selected_tile, ())
        self._rot_index = 0
        self._show_preview()

    def _show_preview(self) -> None:
        track = self._track
        if (track is None or self.selected_hex is None or self.selected_tile is None
                or not self._rotations):
            return
        tile = track.tile(self.selected_tile)
        hex_def = track.hex_def(self.selected_hex)
        self._view.show_preview(hex_def, tile, self._rotations[self._rot_index])
        self._panel.lay_buttons.setVisible(True)
        cost = track.cost(self.selected_hex, self.selected_tile,
                          self._rotations[self._rot_index])
        self._panel.confirm_button.setText(
            f"Lay {self.selected_tile} on {self.selected_hex}"
            + (f" (${cost})" if cost else "") + " ⏎")
        self.status.emit(f"Tile {self.selected_tile} on {self.selected_hex}, rotation "
                         f"{self.rotation} ({self._rot_index + 1}/{len(self._rotations)})"
                         + (f", costs ${cost}" if cost else ""))

    def rotate(self, step: int) -> None:
        """Turn the previewed tile to the next legal rotation."""
        if not self._rotations:
            return
        self._rot_index = (self._rot_index + step) % len(self._rotations)
        self._show_preview()

    def confirm(self) -> None:
        """Lay the previewed tile."""
        if (self._info is None or self._info.entity is None or self.selected_hex is None
                or self.selected_tile is None or self.rotation is None or self._track is None):
            return
        copy = self._track.copy_id(self.selected_tile, self.selected_hex)
        if copy is None:
            self.status.emit(f"No tile {self.selected_tile} left")
            return
        action = LayTile(entity=self._info.entity, entity_type="corporation",
                         hex=self.selected_hex, tile=copy, rotation=self.rotation)
        self._session.submit(action)

    def cancel(self) -> None:
        """Drop the preview and the chosen hex."""
        self._view.clear_preview()
        self._view.clear_fan()
        self.selected_hex = None
        self._rotations = ()
        self._rot_index = 0
        self._panel.lay_buttons.setVisible(False)

    # -- tokens ----------------------------------------------------------------------------
    def _show_token_slots(self, game: Game, info: TurnInfo | None) -> None:
        if info is None or info.entity is None or "place_token" not in info.map_types:
            self._view.set_token_slots(())
            return
        hexes = info.facts.hexes
        only = list(hexes) if hexes is not None else None
        size = self._view.hex_size()
        slots = []
        for choice in token_slots(game, info.entity, only):
            centres = city_slot_centres(choice.hex, choice.tile, choice.rotation, size)
            pts = centres[choice.city] if choice.city < len(centres) else []
            centre = pts[choice.slot] if choice.slot < len(pts) else hex_centre(choice.hex,
                                                                                size)
            slots.append((choice.hex, choice.city, choice.slot, centre))
        self._view.set_token_slots(slots)

    def click_slot(self, hex_id: str, city: int, slot: int) -> None:
        """Place a token in the clicked slot."""
        if self._info is None or self._info.entity is None or self._history is not None:
            return
        game = self._session.game
        etype = "player" if game.is_player(self._info.entity) else "corporation"
        self._session.submit(PlaceToken(entity=self._info.entity, entity_type=etype,
                                        city=city_id(game, hex_id, city), slot=slot))

    # -- routes ----------------------------------------------------------------------------
    def _make_route_box(self) -> QGroupBox:
        box = QGroupBox("Routes")
        layout = QVBoxLayout(box)
        self.train_combo = QComboBox()
        self.route_label = QLabel("")
        self.route_label.setWordWrap(True)
        self.route_help = QLabel("Pick a train, then click stops on the map. Click the "
                                 "first or last stop again to drop it, a middle stop to "
                                 "end the route there.")
        self.route_help.setWordWrap(True)
        self.route_help.setStyleSheet("color: #555555;")
        self.clear_button = QPushButton("Clear this train's route")
        self.best_button = QPushButton("Best routes")
        self.best_button.setToolTip("Let the route optimizer find the best routes "
                                    "(Cancel keeps the best found so far)")
        self.search_bar = RouteSearchBar(self.search)
        self.run_button = QPushButton("Run trains")
        layout.addWidget(self.train_combo)
        layout.addWidget(self.route_help)
        layout.addWidget(self.route_label)
        layout.addWidget(self.clear_button)
        layout.addWidget(self.best_button)
        layout.addWidget(self.search_bar)
        layout.addWidget(self.run_button)
        self.train_combo.currentIndexChanged.connect(self._pick_train)
        self.clear_button.clicked.connect(self._clear_route)
        self.best_button.clicked.connect(self.find_best)
        self.run_button.clicked.connect(self.run)
        box.setVisible(False)
        return box

    def _pick_train(self, index: int) -> None:
        if 0 <= index < len(self._routes):
            self._current_train = index

    def _clear_route(self) -> None:
        if self._routes:
            r = self._routes[self._current_train]
            r.stops.clear()
            r.chains.clear()
            r.local = False
            self._update_routes()

    def toggle_stop(self, hex_id: str) -> None:
        """Edit the current train's route with a click on ``hex_id``.

        A new stop joins the route at its end; the last or the first stop clicked
        again leaves the route; a stop inside the route shortens it to end there.
        """
        if not self._routes:
            return
        game = self._session.game
        r = self._routes[self._current_train]
        if hex_id in r.stops:
            at = r.stops.index(hex_id)
            if at == len(r.stops) - 1:
                del r.stops[-1]
                del r.chains[len(r.stops) - 1:]
            elif at == 0:
                del r.stops[0]
                del r.chains[:1]
            else:
                del r.stops[at + 1:]
                del r.chains[at:]
            if len(r.stops) < 2:
                r.chains.clear()
            r.local = runs_local(game, self._info_entity(), r)
            self._update_routes()
            return
        if not is_stop(game, hex_id):
            self.status.emit(f"{hex_id} has no city or town")
            return
        if r.stops:
            used = {(h, e) for t in self._routes for c in t.chains for h, e in _sides(c)}
            chain = find_chain(game, r.stops[-1], hex_id, used)
            if chain is None:
                self.status.emit(f"No track from {r.stops[-1]} to {hex_id}")
                return
            r.chains.append(chain)
        r.stops.append(hex_id)
        r.local = runs_local(game, self._info_entity(), r)
        self._update_routes()

    def _info_entity(self) -> str:
        assert self._info is not None and self._info.entity is not None
        return self._info.entity

    def _update_routes(self) -> None:
        game = self._session.game
        self.train_combo.blockSignals(True)
        self.train_combo.clear()
        for i, r in enumerate(self._routes):
            self.train_combo.addItem(_swatch(ROUTE_COLORS[i % len(ROUTE_COLORS)]),
                                     f"{r.name} train ({r.train})")
        self.train_combo.setCurrentIndex(self._current_train)
        self.train_combo.blockSignals(False)
        lines = []
        drawn = []
        size = self._view.hex_size()
        assert self._info is not None and self._info.entity is not None
        exact, problem = price(game, self._info.entity, self._routes)
        built = iter(exact or [])
        for r in self._routes:
            # the engine prices the run once it is legal; until then no number (the
            # line below says what the engine objects to)
            priced = exact is not None and r.built
            rev = next(built, 0) if priced else 0
            note = f"  ${rev}" if priced else ""
            lines.append(f"{r.name}: {' → '.join(r.stops) or '(click stops)'}{note}")
            pts = self._route_points(game, r, size)
            stops = [self._stop_point(game, r, i, size) for i in range(len(r.stops))]
            drawn.append((pts, f"{r.name}: ${rev}" if rev else r.name, stops))
        if exact is not None and any(r.built for r in self._routes):
            subsidy = mail_subsidy(game, self._info.entity, self._routes)
            lines.append(f"Revenue {earnings(sum(exact), subsidy)}")
        elif problem:
            lines.append(f"Not a legal run: {problem}")
        else:
            lines.append("No route yet: click a stop where the company has a token, "
                         "then the stops to run to.")
        self.route_label.setText("\n".join(lines))
        self.route_label.setStyleSheet("color: #b00000;" if problem else "")
        self._view.set_routes(drawn)

    def find_best(self) -> None:
        """Search the best routes off the GUI thread; :meth:`show_proposal` fills them in."""
        if self._info is None or self._info.entity is None:
            return
        self.search.start(self._info.entity)
        self.status.emit("Finding the best routes…")

    def show_proposal(self, proposal: Proposal) -> None:
        """Fill every train's route with the optimizer's answer.

        An automatic proposal (the run just began) is only taken while no stop
        has been clicked; the player's "Best routes" always replaces the routes.
        """
        if self._history is not None:
            self._held = (proposal, len(self._session.actions()))
            return
        if self._info is None or proposal.corp != self._info.entity or not self._routes:
            return
        if proposal.auto and any(r.stops for r in self._routes):
            return
        self._routes = proposal.routes
        self._current_train = 0
        self._update_routes()
        subsidy = mail_subsidy(self._session.game, proposal.corp, self._routes)
        self.status.emit(f"Best routes: {earnings(proposal.revenue, subsidy)}" + (
            "" if proposal.complete else " (search cancelled: the best found so far)"))

    @staticmethod
    def _stop_at(game: Game, hex_id: str, toward: str | None, size: float) -> QPointF:
        found = stop_node(game, hex_id, toward)
        if found is None:
            return hex_centre(hex_id, size)
        tile, rotation, node = found
        return node_centre(hex_id, tile, rotation, node, size)

    def _stop_point(self, game: Game, route: TrainRoute, index: int, size: float) -> QPointF:
        """Where stop ``index`` of ``route`` is drawn."""
        hex_id = route.stops[index]
        toward = None
        if index < len(route.chains):
            toward = route.chains[index][1]
        elif index > 0 and route.chains:
            toward = route.chains[index - 1][-2]
        return self._stop_at(game, hex_id, toward, size)

    def _route_points(self, game: Game, route: TrainRoute, size: float) -> list[QPointF]:
        """Stops at their drawn cities and towns, joined through the shared hex sides."""
        pts: list[QPointF] = []
        for chain in route.chains:
            start = self._stop_at(game, chain[0], chain[1], size)
            if not pts or pts[-1] != start:
                pts.append(start)
            for a, b in zip(chain, chain[1:], strict=False):
                ca, cb = hex_centre(a, size), hex_centre(b, size)
                pts.append((ca + cb) / 2)  # the middle of the side they share
                if b != chain[-1]:
                    pts.append(cb)
            pts.append(self._stop_at(game, chain[-1], chain[-2], size))
        if not pts and route.stops:
            pts = [self._stop_at(game, route.stops[0], None, size)]
        return pts

    def run(self) -> None:
        """Submit the routes built."""
        if self._info is None or self._info.entity is None:
            return
        routes = tuple(r.to_route() for r in self._routes if r.built)
        exact, _problem = price(self._session.game, self._info.entity, self._routes)
        if exact is not None and len(exact) == len(routes):  # 1822CA routes carry revenue
            routes = tuple(dataclasses.replace(r, revenue=rev)
                           for r, rev in zip(routes, exact, strict=True))
        self._session.submit(RunRoutes(entity=self._info.entity, entity_type="corporation",
                                       routes=routes))


def _num(name: str) -> tuple[int, str]:
    digits = "".join(ch for ch in name if ch.isdigit())
    return (int(digits) if digits else 0, name)


def _swatch(color: str) -> QIcon:
    """A small square of a route's colour for the train list."""
    pix = QPixmap(14, 14)
    pix.fill(QColor(color))
    return QIcon(pix)


def _sides(chain: tuple[str, ...]) -> list[tuple[str, int]]:
    from desk18xx.engine.map.hexgrid import edge_between, parse_hex

    out = []
    for a, b in zip(chain, chain[1:], strict=False):
        e = edge_between(parse_hex(a), parse_hex(b))
        if e is not None:
            out.append((a, e))
    return out
