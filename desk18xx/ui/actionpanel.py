"""The panel of the entity that must act: whose turn in large type, the step,
one button (and small form) per legal choice, the tile tray, and the last
refusal reason from the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import (
    QByteArray,
    QEvent,
    QMimeData,
    QObject,
    QPointF,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QColor,
    QDrag,
    QFont,
    QFontMetrics,
    QIcon,
    QPainter,
    QPixmap,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from desk18xx.engine.tiledef import HexDef, TileDef
from desk18xx.ui.amountfield import AmountField
from desk18xx.ui.choicerows import ChoiceGroup, ChoiceRow, ElidedButton
from desk18xx.ui.map import geometry as geo
from desk18xx.ui.map.boardview import StaticHex
from desk18xx.ui.map.painter import layout_loaded, paint_hex
from desk18xx.ui.mapview.view import TILE_MIME
from desk18xx.ui.models.choices import Choice, TurnInfo
from desk18xx.ui.models.tracks import UNLIMITED, TileChoice
from desk18xx.ui.session import GameSession

TILE_ICON = 72
#: Milliseconds between two tiles drawn ahead for the tray (:meth:`TileTray.warm`).
WARM_INTERVAL_MS = 15
_TILE_ROLE = Qt.ItemDataRole.UserRole + 1


_PIXMAPS: dict[tuple[str, int, int, bool], QPixmap] = {}
#: Lines the facts under the heading always keep room for, so that the choices below
#: start at the same height from one action to the next (more lines grow the room).
FACT_LINES = 2


class ElidedLabel(QLabel):
    """One line of plain text, cut with "…" to the width it gets (the whole text on
    hover): its height never changes with the text, so nothing below it moves. With
    ``least_px`` a text too wide is first drawn smaller, down to that pixel size.

    :meth:`text` returns the whole text, not the cut one.
    """

    def __init__(self, text: str = "", parent: QWidget | None = None,
                 least_px: int = 0) -> None:
        super().__init__(parent)
        self._full = ""
        self._least_px = least_px
        self._base: QFont | None = None
        """The font set by the owner (the text may be drawn smaller, never larger)."""
        self._own_change = False
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setMinimumWidth(1)
        self.setFixedHeight(self.fontMetrics().height() + 4)
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt override
        self._full = text
        self._elide()

    def text(self) -> str:
        """The whole text (what is shown may be cut)."""
        return self._full

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange and not self._own_change:
            self._base = QFont(self.font())  # the owner's font: one line of it, always
            self.setFixedHeight(self.fontMetrics().height() + 4)
            self._elide()

    def is_elided(self) -> bool:
        """True when the text shown is cut."""
        return super().text() != self._full

    def _elide(self) -> None:
        width = max(1, self.contentsRect().width())
        base = self._base or self.font()
        font = QFont(base)
        metrics = QFontMetrics(font)
        size = base.pixelSize()
        while (self._least_px and size > self._least_px
               and metrics.horizontalAdvance(self._full) > width):
            size -= 1
            font.setPixelSize(size)
            metrics = QFontMetrics(font)
        if font != self.font():
            self._own_change = True
            self.setFont(font)
            self._own_change = False
        shown = metrics.elidedText(self._full, Qt.TextElideMode.ElideRight, width)
        super().setText(shown)
        self.setToolTip(self._full if shown != self._full else "")

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._elide()


def tile_pixmap(tile: TileDef, rotation: int = 0, size: int = TILE_ICON,
                grey: bool = False) -> QPixmap:
    """A picture of ``tile`` for the tray (cached by name, rotation, size, grey)."""
    key = (tile.name, rotation, size, grey)
    cached = _PIXMAPS.get(key)
    if cached is not None:
        return cached
    pix = QPixmap(size, size)
    pix.fill(QColor(0, 0, 0, 0))
    painter = QPainter(pix)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.translate(size / 2, size / 2)
    k = size / 2 / geo.UNIT * 0.95
    painter.scale(k, k)
    hex_def = HexDef(id="A1", tile=tile)
    if grey:
        painter.setOpacity(0.3)
    paint_hex(painter, StaticHex(hex_def, tile, rotation), False, frozenset())
    painter.end()
    _PIXMAPS[key] = pix
    return pix


class TileTray(QListWidget):
    """Tiles of the phase: usable ones first; drag one onto a hex or click it.

    Signals:
        tile_chosen(str): a usable tile was clicked.
    """

    #: A usable tile was clicked (its name).
    tile_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setViewMode(QListWidget.ViewMode.IconMode)
        self.setIconSize(QSize(TILE_ICON, TILE_ICON))
        self.setGridSize(QSize(TILE_ICON + 14, TILE_ICON + 30))
        self.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.setMovement(QListWidget.Movement.Static)
        self.setDragEnabled(True)
        self.setMinimumHeight(2 * (TILE_ICON + 30) + 10)
        self.itemClicked.connect(self._clicked)
        self._shown: tuple[tuple[str, tuple[int, ...], int, str], ...] = ()
        self._to_warm: list[TileDef] = []
        self._warm_timer = QTimer(self)
        self._warm_timer.setInterval(WARM_INTERVAL_MS)
        self._warm_timer.timeout.connect(self._warm_one)

    def warm(self, tiles: Sequence[TileDef]) -> None:
        """Draw the pictures of ``tiles`` (plain and greyed, unturned) while the app is
        idle, one tile per turn of the event loop, so the first tray shown does not
        wait for them; they are drawn once the hex layout is imported."""
        self._to_warm = list(tiles)
        self._warm_timer.start()

    @property
    def warming(self) -> bool:
        """True while tile pictures are still being drawn ahead."""
        return self._warm_timer.isActive()

    def _warm_one(self) -> None:
        if not layout_loaded():
            return  # the app's first frame is not drawn in full yet: wait for it
        if not self._to_warm:
            self._warm_timer.stop()
            return
        tile = self._to_warm.pop(0)
        tile_pixmap(tile)
        tile_pixmap(tile, grey=True)

    def set_tiles(self, tiles: list[TileChoice]) -> None:
        """Show ``tiles`` (greyed with the reason when not usable); the same tiles
        again leave the items as they are."""
        key = tuple((t.name, t.rotations, t.left, t.reason) for t in tiles)
        if key == self._shown and self.count() == len(tiles):
            return
        self._shown = key
        self.clear()
        for t in tiles:
            usable = bool(t.rotations)
            item = QListWidgetItem(QIcon(tile_pixmap(t.tile, t.rotations[0] if usable else 0,
                                                     grey=not usable)),
                                   t.name if t.left >= UNLIMITED else f"{t.name} ×{t.left}")
            item.setData(_TILE_ROLE, t.name)
            item.setToolTip(f"Tile {t.name}: " + (
                f"rotations {', '.join(map(str, t.rotations))}" if usable else t.reason))
            if not usable:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsDragEnabled)
                item.setForeground(QColor("#999999"))
            self.addItem(item)

    def tile_names(self, usable_only: bool = False) -> list[str]:
        """Names shown, in order."""
        out = []
        for i in range(self.count()):
            item = self.item(i)
            if usable_only and not item.flags() & Qt.ItemFlag.ItemIsDragEnabled:
                continue
            out.append(str(item.data(_TILE_ROLE)))
        return out

    def _clicked(self, item: QListWidgetItem) -> None:
        if item.flags() & Qt.ItemFlag.ItemIsDragEnabled:
            self.tile_chosen.emit(str(item.data(_TILE_ROLE)))

    def mime_for(self, name: str) -> QMimeData:
        """The drag payload of tile ``name``."""
        data = QMimeData()
        data.setData(TILE_MIME, QByteArray(name.encode()))
        return data

    def startDrag(self, supported: Qt.DropAction) -> None:  # noqa: N802 - Qt override
        item = self.currentItem()
        if item is None or not item.flags() & Qt.ItemFlag.ItemIsDragEnabled:
            return
        drag = QDrag(self)
        drag.setMimeData(self.mime_for(str(item.data(_TILE_ROLE))))
        drag.setPixmap(item.icon().pixmap(TILE_ICON, TILE_ICON))
        drag.setHotSpot(QPointF(TILE_ICON / 2, TILE_ICON / 2).toPoint())
        drag.exec(Qt.DropAction.CopyAction)


class ActionPanel(QWidget):
    """Whose turn, which step, the choices, the tile tray and the last refusal.

    Args:
        session: the game session; choices are submitted to it.
    """

    def __init__(self, session: GameSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._buttons: dict[str, ElidedButton] = {}
        self._spins: dict[str, AmountField | None] = {}
        self._combos: dict[str, QComboBox | None] = {}
        self._pool: list[ChoiceGroup] = []
        """The boxes of choice rows, filled again for each form (:mod:`~desk18xx.ui.choicerows`)."""
        self._current: dict[str, Choice] = {}
        self._keys: tuple[object, ...] = ()
        layout = QVBoxLayout(self)
        # the heading keeps one height whatever it says (one line each, cut with "…"
        # and whole on hover; the facts in room kept for FACT_LINES lines), and the
        # refusal shows under the choices: no click aimed at a button meets another
        self.who = ElidedLabel("No game", least_px=18)
        big = QFont()
        big.setPixelSize(26)
        big.setBold(True)
        self.who.setFont(big)
        self.step = ElidedLabel("")
        mid = QFont()
        mid.setPixelSize(16)
        self.step.setFont(mid)
        self.facts = QLabel("")
        """What the acting entity has and where an auction stands (:meth:`show_facts`)."""
        self.facts.setWordWrap(False)
        self.facts.setTextFormat(Qt.TextFormat.RichText)
        self.facts.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.facts.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.facts.setMinimumWidth(1)
        facts_font = QFont()
        facts_font.setPixelSize(14)
        self.facts.setFont(facts_font)
        self._fact_lines = 0
        self._set_fact_lines(FACT_LINES)
        self.hint = QLabel("")
        self.hint.setWordWrap(True)
        self.error = QLabel("")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00000; font-weight: bold;")
        layout.addWidget(self.who)
        layout.addWidget(self.step)
        layout.addWidget(self.facts)
        layout.addWidget(self.hint)
        self._choices_box = QWidget()
        self._choices_layout = QVBoxLayout(self._choices_box)
        self._choices_layout.setContentsMargins(0, 0, 0, 0)
        self._groups = QWidget()
        self._groups_layout = QVBoxLayout(self._groups)
        self._groups_layout.setContentsMargins(0, 0, 0, 0)
        self._extras = QWidget()
        self._extras_layout = QVBoxLayout(self._extras)
        self._extras_layout.setContentsMargins(0, 0, 0, 0)
        self._choices_layout.addWidget(self._groups)
        self._choices_layout.addWidget(self._extras)
        self._choices_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        # the choices take the panel's width (labels cut, whole on hover): never sideways
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(self._choices_box)
        layout.addWidget(scroll, 1)
        self.amount_note = ElidedLabel("")
        """The range of the amount field being edited, or why its number cannot be used."""
        layout.addWidget(self.amount_note)
        layout.addWidget(self.error)
        self.tray_box = QGroupBox("Tiles")
        tray_layout = QVBoxLayout(self.tray_box)
        self.tray = TileTray()
        tray_layout.addWidget(self.tray)
        self.lay_buttons = QWidget()
        row = QHBoxLayout(self.lay_buttons)
        row.setContentsMargins(0, 0, 0, 0)
        self.rotate_button = QPushButton("Rotate ⟳")
        self.confirm_button = QPushButton("Lay tile (Enter)")
        self.cancel_button = QPushButton("Cancel (Esc)")
        for b in (self.rotate_button, self.confirm_button, self.cancel_button):
            row.addWidget(b)
        tray_layout.addWidget(self.lay_buttons)
        self.lay_buttons.setVisible(False)
        layout.addWidget(self.tray_box, 1)
        self.tray_box.setVisible(False)

    # -- content ---------------------------------------------------------------------------
    def show_turn(self, info: TurnInfo) -> None:
        """Show ``info``: header, step and the choice buttons."""
        self.error.setText("")
        if info.entity is None:
            self.who.setText(info.round_label or "No game")
            self.step.setText("")
        else:
            self.who.setText(f"{info.entity_name} to act")
            self.step.setText(f"{info.round_label} — {info.step_label}")
        hints = []
        if "lay_tile" in info.map_types:
            hints.append("Click a highlighted hex or drag a tile onto it; wheel or arrows "
                         "turn it; Enter lays it.")
        if "place_token" in info.map_types:
            hints.append("Click a green ring on the map to place a token.")
        if "run_routes" in info.map_types:
            hints.append("Click stops on the map to build each train's route, then run.")
        self.hint.setText(" ".join(hints))
        self.hint.setVisible(bool(hints))  # empty lines take no room from the choices
        self.error.setVisible(False)
        self._build_choices(info.choices, info.entity)

    def show_facts(self, lines: Sequence[str]) -> None:
        """Show the facts of the step (rich text lines) in their room under the heading,
        which keeps its height (it grows only for more than :data:`FACT_LINES` lines);
        a line too wide for the panel is cut, and the whole text is on hover."""
        text = "<br>".join(lines)
        self._set_fact_lines(max(FACT_LINES, len(lines)))
        self.facts.setText(text)
        self.facts.setToolTip(text)

    def _set_fact_lines(self, lines: int) -> None:
        if lines != self._fact_lines:
            self._fact_lines = lines
            self.facts.setFixedHeight(lines * self.facts.fontMetrics().lineSpacing() + 4)

    def show_error(self, reason: str) -> None:
        """Show the engine's refusal."""
        self.error.setText(f"Not allowed: {reason}")
        self.error.setVisible(True)

    def choice_labels(self) -> list[str]:
        """Labels of the choice buttons now shown."""
        return list(self._buttons)

    def button(self, label: str) -> ElidedButton:
        """The button of the choice ``label``."""
        return self._buttons[label]

    def add_extra(self, widget: QWidget) -> None:
        """Show ``widget`` under the choices (the route builder); it is kept, not deleted."""
        if self._extras_layout.indexOf(widget) < 0:
            self._extras_layout.addWidget(widget)
        widget.show()

    def _build_choices(self, choices: tuple[Choice, ...], entity: str | None = None) -> None:
        # the acting entity is part of the form: the next player's fields start at the
        # step's defaults, never at what the last one typed
        keys = (entity,) + tuple((c.label, c.group, c.spin, c.options, c.disabled,
                                  c.disabled_options) for c in choices)
        self._current = {c.label: c for c in choices}
        if keys == self._keys:
            return  # same form: keep the widgets (and what the player typed)
        self._keys = keys
        focus = QApplication.focusWidget()
        had_focus = focus is not None and self._groups.isAncestorOf(focus)
        self._buttons, self._spins, self._combos = {}, {}, {}
        self.amount_note.setText("")
        # the rows of the last form are filled again in place (making and deleting
        # widgets cost more than the rest of the update); what is left over is hidden
        groups: dict[str, ChoiceGroup] = {}
        for choice in choices:
            group = groups.get(choice.group)
            if group is None:
                if len(groups) == len(self._pool):
                    self._pool.append(ChoiceGroup())
                    self._groups_layout.addWidget(self._pool[-1].box)
                group = self._pool[len(groups)]
                group.start(choice.group or "Actions")
                groups[choice.group] = group
            row = group.next_row(self._new_row)
            spin, combo = row.fill(choice)
            self._buttons[choice.label] = row.button
            self._spins[choice.label] = spin
            self._combos[choice.label] = combo
        resized = False
        for i, group in enumerate(self._pool):
            if i >= len(groups):
                group.used = 0
            resized = group.finish() or resized
        if resized:  # the layout around them asks their height again (the panel not shown
            self._groups.updateGeometry()  # yet keeps what it had, else, until shown)
        self._chain_tab_order()
        if had_focus:  # a keyboard player goes on from the new choices
            self.focus_choices()

    def _new_row(self) -> ChoiceRow:
        return ChoiceRow(self._fire, self._note_amount, self)

    def _fire(self, row: ChoiceRow) -> None:
        """The button of ``row`` was pressed (or Enter in its amount field): submit its
        choice with the amount or option chosen."""
        choice = row.choice
        if choice is None:
            return
        value: int | str | None = None
        spin = row.spin if choice.spin is not None else None
        combo = row.combo if choice.options else None
        if spin is not None:
            if spin.problem():  # refused here, as typed: the field stays as it is
                self.show_error(f"{choice.label}: {spin.problem()}")
                spin.setFocus(Qt.FocusReason.OtherFocusReason)
                return
            value = spin.value()
        elif combo is not None:
            value = str(combo.currentData())
        current = self._current.get(choice.label, choice)
        self._session.submit(current.make(value))

    def _chain_tab_order(self) -> None:
        """Tab walks the choices in the order shown (amount field, list, button)."""
        chain: list[QWidget] = []
        for label, button in self._buttons.items():
            chain += [w for w in (self._spins.get(label), self._combos.get(label))
                      if w is not None]
            chain.append(button)
        for first, second in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(first, second)

    def focus_choices(self) -> bool:
        """Put the keyboard focus on the first open choice (its amount field first, so
        arrows change the amount and Tab reaches the button); False if none is open."""
        for label, button in self._buttons.items():
            if not button.isEnabled():
                continue
            field = self._spins.get(label) or self._combos.get(label)
            target = field if field is not None and field.isEnabled() else button
            target.setFocus(Qt.FocusReason.ShortcutFocusReason)
            return True
        return False

    def choice(self, label: str) -> Choice:
        """The choice behind button ``label`` (what a click submits)."""
        return self._current[label]

    def is_open(self, label: str) -> bool:
        """True when choice ``label`` is shown and not greyed."""
        button = self._buttons.get(label)
        return button is not None and button.isEnabled()

    def _note_amount(self, field: AmountField) -> None:
        """Under the choices: why the amount cannot be used (red), else its range."""
        problem = field.problem()
        self.amount_note.setStyleSheet("color: #b00000; font-weight: bold;" if problem else "")
        self.amount_note.setText(problem[:1].upper() + problem[1:] if problem
                                 else f"Allowed: {field.range_text()}")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        """An amount field taking the focus says its range under the choices."""
        if isinstance(watched, AmountField) and event.type() == QEvent.Type.FocusIn:
            self._note_amount(watched)
        return super().eventFilter(watched, event)

    def spin(self, label: str) -> AmountField | None:
        """The number field of choice ``label``."""
        return self._spins.get(label)

    def combo(self, label: str) -> QComboBox | None:
        """The option list of choice ``label``."""
        return self._combos.get(label)

