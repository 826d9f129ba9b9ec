"""Play-by-e-mail dialogs: what a friend's file did, and the mail to send with yours."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtGui import QFont, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desk18xx.io.pbem import History, MailMove, ReceivedMove


class ReceivedMoveDialog(QDialog):
    """Shows every action of a friend's file; those since your last action in bold.

    Accept loads the move into the session (the caller does it).

    Args:
        move: the checked file (`desk18xx.io.pbem.open_move`).
        names: player id -> name.
    """

    def __init__(self, move: ReceivedMove, names: Mapping[str, str],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Move received")
        self.resize(560, 480)
        layout = QVBoxLayout(self)
        next_name = names.get(move.next_player or "", "nobody (the game is over)")
        fresh = {id(e) for e in move.since_yours}
        self.summary = QLabel(
            f"<b>{move.history.message()}</b><br>"
            f"{len(move.since_yours)} action{'' if len(move.since_yours) == 1 else 's'} "
            "since your last one (in bold). "
            f"Next: <b>{next_name}</b>.<br>{_signed_text(move, names)}")
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        game = move.opened.game
        orders = [f"{names.get(player, player)}: {'; '.join(p.describe() for p in programs)}"
                  for player, programs in sorted(game.programs_in_force.items())]
        self.orders = QLabel("Programmed actions in force: " + " · ".join(orders))
        """The standing orders (auto-pass) the players have given, if any."""
        self.orders.setWordWrap(True)
        self.orders.setVisible(bool(orders))
        layout.addWidget(self.orders)
        self.events = QListWidget()
        bold = QFont()
        bold.setBold(True)
        italic = QFont()
        italic.setItalic(True)
        last: QListWidgetItem | None = None
        for event in move.events:
            who = names.get(event.player or "", "")
            text = f"{event.round}  {event.text}" + (" (auto)" if event.auto else "")
            mine = who and not event.text.startswith(who)  # a company acts for its owner
            item = QListWidgetItem(f"{text}   ({who})" if mine else text)
            if id(event) in fresh:
                item.setFont(bold)
                last = last or item
            self.events.addItem(item)
            for line in event.details:  # what followed, as the log dock tells it
                detail = QListWidgetItem(f"        {line}")
                detail.setFont(italic)
                self.events.addItem(detail)
        layout.addWidget(self.events, 1)
        if last is not None:
            self.events.scrollToItem(last)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.load_button = buttons.addButton("Load this move",
                                             QDialogButtonBox.ButtonRole.AcceptRole)
        self.load_button.setEnabled(move.history.kind is not History.OLDER)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def highlighted(self) -> list[str]:
        """Texts of the bold rows (the actions since your last one)."""
        return [self.events.item(i).text() for i in range(self.events.count())
                if self.events.item(i).font().bold()]


def _signed_text(move: ReceivedMove, names: Mapping[str, str]) -> str:
    """What the signatures showed: how many were checked, keys seen for the first time."""
    if move.signatures is None:
        return "This file is not signed (written by an older desk18xx)."
    text = f"{move.signatures.signed} signed moves checked."
    if move.new_keys:
        who = ", ".join(names.get(p, p) for p in move.new_keys)
        text += f" First key seen for {who}: it is remembered from now on."
    return text


class MailDialog(QDialog):
    """The file to attach and the text to send, with a button to copy the text."""

    def __init__(self, mail: MailMove, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Save for e-mail")
        self.resize(560, 420)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Attach this file:"))
        self.path = QLineEdit(str(mail.path))
        self.path.setReadOnly(True)
        layout.addWidget(self.path)
        layout.addWidget(QLabel("Subject:"))
        self.subject = QLineEdit(mail.subject)
        self.subject.setReadOnly(True)
        layout.addWidget(self.subject)
        self.body = QPlainTextEdit(mail.body)
        self.body.setReadOnly(True)
        layout.addWidget(self.body, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        copy = QPushButton("Copy subject and text")
        copy.clicked.connect(self.copy)
        buttons.addButton(copy, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def copy(self) -> None:
        """Put the subject and the body on the clipboard."""
        QGuiApplication.clipboard().setText(f"{self.subject.text()}\n\n"
                                            f"{self.body.toPlainText()}")
