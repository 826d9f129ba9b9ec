"""The new game dialog: title and variant, optional rules, players and the seed."""

from __future__ import annotations

import random
from dataclasses import dataclass

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desk18xx.engine.game import GameSetup
from desk18xx.titles import TITLES


@dataclass(frozen=True, slots=True)
class TitleChoice:
    """A title offered in the dialog."""

    id: str
    label: str
    min_players: int
    max_players: int
    options: tuple[tuple[str, str], ...] = ()
    """(option id, label)."""


TITLE_CHOICES: tuple[TitleChoice, ...] = tuple(
    TitleChoice(t.id, t.name, t.min_players, t.max_players,
                tuple(zip(t.options, t.option_labels, strict=True)))
    for t in TITLES.values()
)
"""Every title of the registry (`desk18xx.titles.TITLES`), in its order."""
#: 1867 with two players exists only as 18xx.games' variant (its rule quirks on).
TWO_PLAYER_OPTION = "compat_18xxgames"
DEFAULT_NAMES = ("Alice", "Bob", "Carol", "Dave", "Eve", "Frank", "Grace")
MAX_SEED = 2**31 - 1


class NewGameDialog(QDialog):
    """Choose what to play; :meth:`setup` gives the result."""

    def __init__(self, parent: QWidget | None = None, seed: int | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New game")
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.title_combo = QComboBox()
        for t in TITLE_CHOICES:
            self.title_combo.addItem(t.label, t.id)
        form.addRow("Game", self.title_combo)
        self.option_boxes: dict[str, QCheckBox] = {}
        self._options_widget = QWidget()
        self._options_layout = QVBoxLayout(self._options_widget)
        self._options_layout.setContentsMargins(0, 0, 0, 0)
        form.addRow("Optional rules", self._options_widget)
        self.count = QSpinBox()
        form.addRow("Players", self.count)
        self.count_note = QLabel("")
        self.count_note.setWordWrap(True)
        form.addRow("", self.count_note)
        self.name_edits: list[QLineEdit] = []
        self._names = QWidget()
        names_layout = QVBoxLayout(self._names)
        names_layout.setContentsMargins(0, 0, 0, 0)
        for i in range(7):
            edit = QLineEdit(DEFAULT_NAMES[i])
            edit.setPlaceholderText(f"Player {i + 1}")
            names_layout.addWidget(edit)
            self.name_edits.append(edit)
        form.addRow("Names", self._names)
        seed_row = QWidget()
        h = QHBoxLayout(seed_row)
        h.setContentsMargins(0, 0, 0, 0)
        self.seed = QSpinBox()
        self.seed.setRange(0, MAX_SEED)
        self.seed.setValue(seed if seed is not None else random.randint(1, MAX_SEED))
        reroll = QPushButton("Random")
        reroll.clicked.connect(lambda: self.seed.setValue(random.randint(1, MAX_SEED)))
        h.addWidget(self.seed, 1)
        h.addWidget(reroll)
        form.addRow("Seed", seed_row)
        layout.addLayout(form)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.title_combo.currentIndexChanged.connect(self._title_changed)
        self.count.valueChanged.connect(self._count_changed)
        self.count.setValue(4)
        self._title_changed(0)

    def choice(self) -> TitleChoice:
        """The title chosen."""
        return TITLE_CHOICES[self.title_combo.currentIndex()]

    def _title_changed(self, _index: int) -> None:
        t = self.choice()
        self.count.setRange(t.min_players, t.max_players)
        for box in self.option_boxes.values():
            box.setParent(None)
            box.deleteLater()
        self.option_boxes = {}
        for key, label in t.options:
            box = QCheckBox(label)
            self._options_layout.addWidget(box)
            self.option_boxes[key] = box
        self._options_widget.setVisible(bool(t.options))
        self._count_changed(self.count.value())

    def _count_changed(self, n: int) -> None:
        for i, edit in enumerate(self.name_edits):
            edit.setVisible(i < n)
        two = self.choice().id == "1867" and n == 2
        self.count_note.setText("Two players: the 18xx.games two-player variant "
                                "(1867 rules §14)." if two else "")
        self.count_note.setVisible(two)

    def setup(self) -> GameSetup:
        """The game described by the dialog."""
        n = self.count.value()
        names = [(e.text().strip() or f"Player {i + 1}") for i, e in
                 enumerate(self.name_edits[:n])]
        players = tuple((str(i + 1), name) for i, name in enumerate(names))
        options = tuple(k for k, box in self.option_boxes.items() if box.isChecked())
        if self.choice().id == "1867" and n == 2:
            options += (TWO_PLAYER_OPTION,)
        return GameSetup(self.choice().id, players, self.seed.value(), options)
