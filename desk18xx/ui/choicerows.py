"""The turn panel's choice rows, kept and filled again from one form to the next.

The choices change at nearly every action, but rarely to exactly the same rows again, so
the panel keeps a pool instead of deleting its rows and making new ones (which cost more
than the rest of the panel's update): a group box per heading, each with its rows (an
amount field and an option list, made the first time a choice needs them, before the
button), filled in place with the next form's labels, hints, ranges and states. The
boxes and rows a form does not use are hidden, so they take no room.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QSize, Qt
from PySide6.QtGui import QResizeEvent, QStandardItemModel
from PySide6.QtWidgets import (
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from desk18xx.ui.amountfield import AmountField
from desk18xx.ui.models.choices import Choice


class ElidedButton(QPushButton):
    """A choice button whose label is cut with "…" to the width it gets (whole on
    hover), so that a long company name never makes the panel scroll sideways.

    :meth:`text` returns the whole label.
    """

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._full = text
        self._hint = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self._elide()

    def text(self) -> str:
        """The whole label (what is shown may be cut)."""
        return self._full

    def set_hint(self, hint: str) -> None:
        """The tooltip (the whole label is put before it while the label is cut)."""
        self._hint = hint
        self._elide()

    def show_label(self, text: str, hint: str) -> None:
        """Show the label ``text`` with the tooltip ``hint`` (a row filled again)."""
        self._full = text
        self._hint = hint
        self._elide()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(40, super().minimumSizeHint().height())

    def _elide(self) -> None:
        room = max(10, self.contentsRect().width() - 14)
        shown = self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight, room)
        super().setText(shown.replace("&", "&&"))
        cut = shown != self._full
        self.setToolTip("\n".join(t for t in ((self._full if cut else ""), self._hint) if t))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._elide()


def grey_options(combo: QComboBox, closed: dict[str, str]) -> None:
    """Disable the items of ``combo`` whose key is in ``closed`` (reason as tooltip) and
    select the first open one."""
    model = combo.model()
    first_open = -1
    for i in range(combo.count()):
        reason = closed.get(str(combo.itemData(i)))
        if reason is None:
            if first_open < 0:
                first_open = i
            continue
        if isinstance(model, QStandardItemModel):
            item = model.item(i)
            if item is not None:
                item.setEnabled(False)
        combo.setItemData(i, f"Not now: {reason}", Qt.ItemDataRole.ToolTipRole)
    if first_open >= 0:
        combo.setCurrentIndex(first_open)


class ChoiceRow:
    """One row of the panel: [amount field] [option list] button, for one choice at a time.

    Args:
        fire: called with the row when its button is pressed, or Enter in its amount field.
        note: called with the amount field when the problem of its number changes.
        watcher: event filter of the amount field (the panel notes the range on focus).
    """

    def __init__(self, fire: Callable[[ChoiceRow], None],
                 note: Callable[[AmountField], None], watcher: QObject) -> None:
        self.widget = QWidget()
        self._layout = QHBoxLayout(self.widget)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.button = ElidedButton("")
        self.button.setAutoDefault(True)  # Enter presses the focused choice, as Space does
        self.button.clicked.connect(lambda: fire(self))
        self._layout.addWidget(self.button, 1)
        self._fire = fire
        self._note = note
        self._watcher = watcher
        self.spin: AmountField | None = None
        """The amount field (made the first time a choice has a number; hidden when not used)."""
        self.combo: QComboBox | None = None
        """The option list (made the first time a choice has options; hidden when not used)."""
        self.choice: Choice | None = None
        """The choice shown now."""
        self.shown: bool | None = None
        """Whether the row was last shown or hidden (None: not yet either)."""

    def fill(self, choice: Choice) -> tuple[AmountField | None, QComboBox | None]:
        """Show ``choice``: its label and hint, its amount at the step's default and range,
        its options; greyed when it is closed. Returns the amount field and the option list
        it uses (None for what it has not)."""
        self.choice = choice
        closed = bool(choice.disabled)
        hint = choice.hint
        if closed:  # greyed up front, the reason on hover
            hint = f"Not now: {choice.disabled}" + (f"\n{choice.hint}" if choice.hint else "")
        self.button.show_label(choice.label, hint)
        spin: AmountField | None = None
        if choice.spin is not None:
            lowest, highest, step, default = choice.spin
            spin = self._amount_field()
            spin.configure(lowest, highest, step, default, money=step == 5)
        combo: QComboBox | None = None
        if choice.options:
            combo = self._option_list()
            combo.clear()
            for key, text in choice.options:
                combo.addItem(text, key)
            grey_options(combo, dict(choice.disabled_options))
        for widget, used in ((self.spin, spin is not None), (self.combo, combo is not None)):
            if widget is not None and widget.isHidden() == used:
                widget.setVisible(used)
        for part in (self.button, spin, combo):
            if part is not None:
                part.setEnabled(not closed)
        return spin, combo

    def _amount_field(self) -> AmountField:
        if self.spin is None:
            spin = AmountField(0, 0, 1, 0)
            spin.problem_changed.connect(lambda _p: self._note(spin))
            spin.lineEdit().returnPressed.connect(lambda: self._fire(self))  # Enter acts
            spin.installEventFilter(self._watcher)
            self._layout.insertWidget(0, spin)
            spin.setVisible(True)  # now, not on the next event loop as a shown row would
            self.spin = spin
        return self.spin

    def _option_list(self) -> QComboBox:
        if self.combo is None:
            self.combo = QComboBox()
            self._layout.insertWidget(self._layout.indexOf(self.button), self.combo)
            self.combo.setVisible(True)
        return self.combo


class ChoiceGroup:
    """A box of rows under one heading; it keeps its rows for the next forms."""

    def __init__(self) -> None:
        self.box = QGroupBox()
        self._layout = QVBoxLayout(self.box)
        self._layout.setSpacing(3)  # ten bid boxes and the pass in sight at 1280x800
        self._layout.setContentsMargins(6, 4, 6, 4)
        self.rows: list[ChoiceRow] = []
        self.used = 0
        """Rows used by the form being filled."""
        self.shown: bool | None = None
        """Whether the box was last shown or hidden (None: not yet either)."""

    def start(self, title: str) -> None:
        """Begin filling the box for a form, under ``title``."""
        if self.box.title() != title:
            self.box.setTitle(title)
        self.used = 0

    def next_row(self, make: Callable[[], ChoiceRow]) -> ChoiceRow:
        """The next row of the form (a new one from ``make`` when the box has no spare)."""
        if self.used == len(self.rows):
            row = make()
            self._layout.addWidget(row.widget)
            self.rows.append(row)
        row = self.rows[self.used]
        self.used += 1
        return row

    def finish(self) -> bool:
        """Show the rows used and the box if any is; hide the others. True when a row
        or the box was shown or hidden."""
        changed = False
        for i, row in enumerate(self.rows):
            used = i < self.used
            if row.shown is not used:  # set explicitly: a row added to a shown panel
                row.widget.setVisible(used)  # would be shown only on the next event loop
                row.shown = used
                changed = True
            if not used:
                row.choice = None
        if self.shown is not bool(self.used):
            self.box.setVisible(bool(self.used))
            self.shown = bool(self.used)
            changed = True
        return changed
