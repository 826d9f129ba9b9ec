"""The turn panel fills its choice rows again in place (a pool) instead of making new
ones for every form: a reused row shows the new form only, spare rows are hidden, and
a reused amount field starts at the new step's default and range."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QGroupBox

from desk18xx.ui.actionpanel import ActionPanel
from desk18xx.ui.amountfield import AmountField
from desk18xx.ui.choicerows import ElidedButton
from desk18xx.ui.models.choices import Choice, TurnInfo

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]


class _Session:
    """What the panel asks of a session: a place to submit to."""

    def __init__(self) -> None:
        self.submitted: list[Any] = []

    def submit(self, action: Any) -> bool:
        self.submitted.append(action)
        return True


def _made(label: str) -> Any:
    return lambda value: (label, value)


def _info(entity: str, *choices: Choice) -> TurnInfo:
    return TurnInfo(entity, entity, "Stock round 1", "Buy", (), choices)


BIDS = ("Ann",
        Choice("Bid on C1", _made("C1"), group="Bid boxes", spin=(100, 500, 5, 100)),
        Choice("Bid on C2", _made("C2"), group="Bid boxes", spin=(100, 500, 5, 100),
               disabled="no room in this box"),
        Choice("Par a major", _made("par"), group="Bid boxes",
               options=(("GT", "Grand Trunk"), ("CPR", "Canadian Pacific"))),
        Choice("Pass", _made("pass"), group="Actions"))
TRAINS = ("GT",
          Choice("Buy a 3-train", _made("3"), group="Trains", spin=(20, 60, 1, 40)),
          Choice("Buy a 4-train", _made("4"), group="Trains"),
          Choice("Exchange for", _made("x"), group="Trains",
                 options=(("P1", "Pullman"),)))


@pytest.fixture
def panel(qtbot) -> tuple[ActionPanel, _Session]:  # type: ignore[no-untyped-def]
    session = _Session()
    widget = ActionPanel(session)  # type: ignore[arg-type]
    qtbot.addWidget(widget)
    widget.resize(360, 600)
    widget.show()
    qtbot.wait_exposed(widget)
    return widget, session


def _shown_labels(panel: ActionPanel) -> list[str]:
    return [b.text() for b in panel.findChildren(ElidedButton) if b.isVisible()]


def test_a_reused_row_shows_the_second_form_and_nothing_of_the_first(  # type: ignore[no-untyped-def]
        panel, qtbot) -> None:
    widget, session = panel
    widget.show_turn(_info(*BIDS))
    first = widget.button("Bid on C1")
    closed = widget.button("Bid on C2")
    assert not closed.isEnabled() and "no room" in closed.toolTip()
    widget.show_turn(_info(*TRAINS))
    qtbot.wait(10)
    assert widget.button("Buy a 3-train") is first  # filled again, not made anew
    assert widget.choice_labels() == ["Buy a 3-train", "Buy a 4-train", "Exchange for"]
    assert _shown_labels(widget) == widget.choice_labels()
    reopened = widget.button("Buy a 4-train")
    assert reopened is closed and reopened.isEnabled() and "Not now" not in reopened.toolTip()
    boxes = [b.title() for b in widget.findChildren(QGroupBox) if b.isVisible()]
    assert boxes == ["Trains"]  # the Actions box of the first form is hidden
    combo = widget.combo("Exchange for")
    assert combo is not None and combo.isVisible()
    assert [combo.itemText(i) for i in range(combo.count())] == ["Pullman"]
    assert widget.combo("Buy a 4-train") is None
    fields = [f for f in widget.findChildren(AmountField) if f.isVisible()]
    assert fields == [widget.spin("Buy a 3-train")]  # the 4-train's row had C2's field
    widget.button("Exchange for").click()
    assert session.submitted == [("x", "P1")]  # the new choice, with its own option


def test_a_spare_row_is_hidden_and_shown_again_for_a_longer_form(  # type: ignore[no-untyped-def]
        panel, qtbot) -> None:
    widget, _session = panel
    widget.show_turn(_info(*BIDS))
    pass_button = widget.button("Pass")
    widget.show_turn(_info(*TRAINS))
    qtbot.wait(10)
    assert not pass_button.isVisible() and "Pass" not in widget.choice_labels()
    assert widget.spin("Buy a 4-train") is None  # its row's amount field is hidden
    assert sum(1 for b in widget.findChildren(ElidedButton) if b.isVisible()) == 3
    widget.show_turn(_info(*BIDS))
    qtbot.wait(10)
    assert widget.button("Pass") is pass_button and pass_button.isVisible()
    assert _shown_labels(widget) == ["Bid on C1", "Bid on C2", "Par a major", "Pass"]


def test_a_reused_amount_field_starts_at_the_new_default_and_range(  # type: ignore[no-untyped-def]
        panel, qtbot) -> None:
    widget, session = panel
    widget.show_turn(_info(*BIDS))
    field = widget.spin("Bid on C1")
    assert field is not None
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, "22")  # below the minimum: red, with the reason
    assert field.problem() and field.styleSheet()
    widget.show_turn(_info(*TRAINS))
    reused = widget.spin("Buy a 3-train")
    assert reused is field
    assert (reused.minimum(), reused.maximum(), reused.singleStep()) == (20, 60, 1)
    assert reused.value() == 40 and reused.text() == "40"  # no "$": not money
    assert not reused.problem() and not reused.styleSheet()
    assert reused.range_text() == "20 to 60"
    widget.button("Buy a 3-train").click()
    assert session.submitted == [("3", 40)]
    widget.show_turn(_info(*BIDS))  # back to the bids: the default again, not 40
    again = widget.spin("Bid on C1")
    assert again is field and again.text() == "$100" and again.minimum() == 100
