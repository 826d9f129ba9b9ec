"""A number field for the turn panel that shows its valid range and refuses, visibly,
what lies outside it instead of changing it (issue 18, "amount fields").

A plain ``QSpinBox`` clamps: $22 typed against a $25 minimum becomes a $25 bid, and
400 typed against a $375 maximum stops at "40". This field takes any whole number
as typed, turns red with the reason while it is outside the range, and leaves the
decision to the caller (:meth:`AmountField.problem`).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QSpinBox, QWidget

#: The largest number the field takes at all (no amount of the games comes near).
CEILING = 99_999
INVALID_STYLE = "QSpinBox { background: #ffd6d6; color: #b00000; }"


class AmountField(QSpinBox):
    """A whole number from ``lowest`` to ``highest`` in ``step`` steps, ``default`` first.

    The arrows and the wheel stay inside the range; typing may leave it, which the
    field shows in red with the reason (tooltip and :attr:`problem_changed`).
    :meth:`minimum` and :meth:`maximum` answer the valid range.

    Signals:
        problem_changed(str): why the number now typed cannot be used ("" when it can).
    """

    #: Why the number typed cannot be used, or "" when it can.
    problem_changed = Signal(str)

    def __init__(self, lowest: int, highest: int, step: int, default: int,
                 money: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._lowest = lowest
        self._highest = max(lowest, highest)
        self._money = money
        self._problem = ""
        super().setRange(0, CEILING)
        self.setSingleStep(step)
        self.setPrefix("$" if money else "")
        self.setAccelerated(True)
        super().setValue(default)
        self.textChanged.connect(self._check)
        self._check()

    def configure(self, lowest: int, highest: int, step: int, default: int,
                  money: bool = False) -> None:
        """Take a new range, step and kind, and show ``default``: the field, kept for
        the next form of the turn panel, is as if made anew (what was typed is gone)."""
        self._lowest = lowest
        self._highest = max(lowest, highest)
        self._money = money
        self.setSingleStep(step)
        self.setPrefix("$" if money else "")
        super().setValue(default)  # the text shows it even if the value was already there
        self._check()

    # -- the valid range (what callers and tests ask) --------------------------------------
    def minimum(self) -> int:
        """The lowest valid number (the field itself takes lower ones, shown red)."""
        return self._lowest

    def maximum(self) -> int:
        """The highest valid number (the field itself takes higher ones, shown red)."""
        return self._highest

    def range_text(self) -> str:
        """``"$100 to $525 in $5 steps"``."""
        text = f"{self._fmt(self._lowest)} to {self._fmt(self._highest)}"
        if self._lowest == self._highest:
            text = f"only {self._fmt(self._lowest)}"
        elif self.singleStep() > 1:
            text += f" in {self._fmt(self.singleStep())} steps"
        return text

    def problem(self) -> str:
        """Why the number typed cannot be used, or "" when it can."""
        return self._problem

    def typed(self) -> int | None:
        """The number as typed (None when the field holds no number)."""
        digits = self.cleanText().strip()
        return int(digits) if digits.isdigit() else None

    # -- Qt overrides: take any number as typed, never fix it up ----------------------------
    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        digits = text.removeprefix(self.prefix()).strip()
        if not digits:
            return QValidator.State.Intermediate, text, pos
        if digits.isdigit() and int(digits) <= CEILING:
            return QValidator.State.Acceptable, text, pos
        return QValidator.State.Invalid, text, pos

    def fixup(self, text: str) -> str:
        return text  # what was typed stays as typed

    def stepBy(self, steps: int) -> None:  # noqa: N802 - Qt override
        """The arrows and the wheel walk the valid range only."""
        value = self.typed()
        start = self._lowest if value is None else value
        target = min(self._highest, max(self._lowest, start + steps * self.singleStep()))
        super().setValue(target)
        self.selectAll()

    def stepEnabled(self) -> QSpinBox.StepEnabledFlag:  # noqa: N802 - Qt override
        value = self.typed()
        flags = QSpinBox.StepEnabledFlag.StepNone
        if value is None or value < self._highest:
            flags |= QSpinBox.StepEnabledFlag.StepUpEnabled
        if value is None or value > self._lowest:
            flags |= QSpinBox.StepEnabledFlag.StepDownEnabled
        return flags

    # -- internals --------------------------------------------------------------------------
    def _fmt(self, value: int) -> str:
        return f"${value}" if self._money else str(value)

    def _check(self, _text: str = "") -> None:
        value = self.typed()
        if value is None:
            problem = f"type a number from {self.range_text()}"
        elif value < self._lowest:
            problem = (f"{self._fmt(value)} is below the lowest allowed, "
                       f"{self._fmt(self._lowest)}")
        elif value > self._highest:
            problem = (f"{self._fmt(value)} is above the highest allowed, "
                       f"{self._fmt(self._highest)}")
        else:
            problem = ""
        style = INVALID_STYLE if problem else ""
        if self.styleSheet() != style:  # setting it, even unchanged, polishes the field again
            self.setStyleSheet(style)
        self.setToolTip(f"{problem}\nAllowed: {self.range_text()}" if problem
                        else f"Allowed: {self.range_text()}; Enter acts")
        if problem != self._problem:
            self._problem = problem
            self.problem_changed.emit(problem)
