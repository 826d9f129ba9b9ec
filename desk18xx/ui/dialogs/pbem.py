"""Play-by-e-mail dialogs: what a friend's file did, the mail to send with yours, the
players at this computer, and the progress of a long receive or send (`run_in_worker`)."""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from PySide6.QtCore import QEventLoop, Qt, QTimer
from PySide6.QtGui import QFont, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QProgressDialog,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desk18xx.io.pbem import Cancelled, History, MailMove, Progress, ReceivedMove

T = TypeVar("T")

PROGRESS_DELAY_MS = 300
"""A job shorter than this shows no progress dialog."""


POLL_MS = 20
"""How often the GUI thread looks at the worker's progress and outcome."""


def run_in_worker(parent: QWidget | None, title: str, label: str,
                  work: Callable[[Progress], T], *, cancellable: bool = True,
                  started: Callable[[QProgressDialog], None] | None = None) -> T:
    """Run `work` on a worker thread while the window stays live, with a progress
    dialog (window-modal: no other command can start meanwhile) after
    `PROGRESS_DELAY_MS`.

    `work` gets a `Progress` callback to call with (done, total); once the user
    pressed Cancel it raises `Cancelled`, the dialog says "Cancelling…" until the
    worker has stopped (at its next progress call), and `run_in_worker` raises
    `Cancelled` (a result that came meanwhile is dropped: `work` must write
    nothing a cancel should undo). `started` sees the dialog (tests).

    The worker touches no Qt object: it leaves its progress and outcome in plain
    Python values that a timer on the GUI thread reads every `POLL_MS`. The
    cycle collector is off while it runs: a pass on the worker thread could
    free Qt objects of the GUI thread (a crash); it is back on before return.

    Raises:
        Cancelled: the user cancelled.
        Exception: whatever `work` raised.
    """
    stop = threading.Event()
    finished = threading.Event()
    latest: list[tuple[int, int]] = []
    outcome: list[tuple[object, BaseException | None]] = []
    dialog = QProgressDialog(label, "Cancel" if cancellable else "", 0, 0, parent)
    dialog.setWindowTitle(title)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setMinimumDuration(PROGRESS_DELAY_MS)
    dialog.setAutoClose(False)
    dialog.setAutoReset(False)
    if not cancellable:
        dialog.setCancelButton(None)
    loop = QEventLoop()

    def poll() -> None:  # on the GUI thread
        if latest and not stop.is_set():
            done, total = latest[-1]
            if total > 0 and dialog.maximum() != total:
                dialog.setMaximum(total)
            if total > 0:
                dialog.setValue(min(done, total))
        if finished.is_set():
            loop.quit()

    def progress(done: int, total: int) -> None:  # on the worker thread
        if stop.is_set():
            raise Cancelled("cancelled")
        latest[:] = [(done, total)]

    def run() -> None:  # on the worker thread
        try:
            outcome.append((work(progress), None))
        except BaseException as error:  # noqa: BLE001 - handed to the GUI thread
            outcome.append((None, error))
        finished.set()

    def cancel() -> None:
        stop.set()
        dialog.setLabelText("Cancelling…")
        dialog.show()  # closed by the click: shown until the worker has stopped

    timer = QTimer()
    timer.setInterval(POLL_MS)
    timer.timeout.connect(poll)
    dialog.canceled.connect(cancel)
    if started is not None:
        started(dialog)
    collecting = gc.isenabled()
    gc.disable()
    try:
        thread = threading.Thread(target=run, name=f"desk18xx {title}", daemon=True)
        thread.start()
        timer.start()
        if not finished.is_set():
            loop.exec()
        thread.join()
    finally:
        if collecting:
            gc.enable()
        timer.stop()
        dialog.canceled.disconnect(cancel)
        dialog.close()
        dialog.deleteLater()
    if stop.is_set():  # the user's Cancel wins, even over a result that just came
        raise Cancelled(f"{title}: cancelled; nothing was changed")
    result, error = outcome[0]
    if error is not None:
        raise error
    return result  # type: ignore[return-value]  # what `work` returned


class LocalPlayersDialog(QDialog):
    """Which players sit at this computer (hot-seat): each one's moves are signed
    with their own key, made here on first use.

    Args:
        players: (id, name) of every player of the game.
        me: you (always at this computer: checked and fixed).
        local: the others checked now.
    """

    def __init__(self, players: Sequence[tuple[str, str]], me: str | None,
                 local: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Players at this computer")
        layout = QVBoxLayout(self)
        text = QLabel("Who plays at this computer (hot-seat)? The moves of each player "
                      "checked here are signed with that player's own key, kept on this "
                      "computer. Check only players who really sit here: a key made here "
                      "is what the others will take as that player's from then on.")
        text.setWordWrap(True)
        layout.addWidget(text)
        self.list = QListWidget()
        for pid, name in players:
            item = QListWidgetItem(f"{name} (you)" if pid == me else name)
            item.setData(Qt.ItemDataRole.UserRole, pid)
            item.setCheckState(Qt.CheckState.Checked if pid == me or pid in local
                               else Qt.CheckState.Unchecked)
            if pid == me:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled)
            self.list.addItem(item)
        layout.addWidget(self.list)
        self.me = me
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def set_checked(self, pid: str, checked: bool) -> None:
        """Check or uncheck a player (not you)."""
        for i in range(self.list.count()):
            item = self.list.item(i)
            if item.data(Qt.ItemDataRole.UserRole) == pid and pid != self.me:
                item.setCheckState(Qt.CheckState.Checked if checked
                                   else Qt.CheckState.Unchecked)

    def local(self) -> list[str]:
        """The players checked, you left out."""
        out: list[str] = []
        for i in range(self.list.count()):
            item = self.list.item(i)
            pid = str(item.data(Qt.ItemDataRole.UserRole))
            if item.checkState() == Qt.CheckState.Checked and pid != self.me:
                out.append(pid)
        return out


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


def unsigned_text(mail: MailMove, names: Mapping[str, str]) -> str:
    """The moves of players not at this computer that went unsigned, and what to do."""
    parts = [f"{count} move{'' if count == 1 else 's'} of {names.get(pid, pid)}"
             for pid, count in sorted(mail.unsigned.items())]
    return (f"{', '.join(parts)} made here went unsigned: if they play at this computer, "
            "tick them in Game > E-mail game: players at this computer… and save again")


class MailDialog(QDialog):
    """The file to attach and the text to send, with a button to copy the text."""

    def __init__(self, mail: MailMove, parent: QWidget | None = None,
                 names: Mapping[str, str] | None = None) -> None:
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
        self.unsigned = QLabel()
        """The moves made here of players not at this computer (unsigned), if any."""
        if mail.unsigned:
            self.unsigned.setText(unsigned_text(mail, dict(names or {})) + ".")
        self.unsigned.setWordWrap(True)
        self.unsigned.setVisible(bool(mail.unsigned))
        layout.addWidget(self.unsigned)
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
