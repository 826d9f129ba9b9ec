"""File commands of the main window: save, e-mail moves, 18xx.games import/export, autosave.

`FileActions` holds the QActions and their slots; it works on the session
and window passed in (STYLE.md §6) and only calls ``desk18xx.io``. Every
load is checked completely (hash chain, replay, state digest) before the
session is touched, so a bad file never replaces the game on screen.

`offer_restore` is called once at start: it finds a session that crashed
(`desk18xx.io.autosave.find_crashed`) and offers to reopen its autosave.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QSettings, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QInputDialog,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressDialog,
    QWidget,
)

from desk18xx.engine.game import GameSetup
from desk18xx.engine.variations import Node, VariationTree
from desk18xx.io.autosave import AutosaveSession, find_crashed
from desk18xx.io.paths import PBEM_FOLDER, autosave_dir, data_dir, settings_file
from desk18xx.io.savefile import (
    SavedGame,
    SavedPlayer,
    SaveFormatError,
    SaveHeader,
    load_save,
    save_game,
)
from desk18xx.ui.session import GameSession

# the e-mail, replay, export and dialog modules are imported where used (launch time)
if TYPE_CHECKING:
    from desk18xx.io.pbem import MailMove, ReceivedMove


def _save_filter() -> str:
    from desk18xx.io.pbem import MAIL_SUFFIX

    return f"desk18xx saves (*{MAIL_SUFFIX} *.yaml);;All files (*)"


EXPORT_FILTER = "18xx.games exports (*.json);;All files (*)"
_LOAD_ERRORS = (OSError, ValueError, KeyError)
"""What opening a file can raise (SaveFormatError, PbemError and ExportFormatError are
ValueErrors)."""


def is_email_move(path: str, data: Path | None = None) -> bool:
    """True for a save of a game you keep an e-mail copy of, or of one with the same
    title and players (the seed or a name's spelling changed: a sender must not get
    it past the checks by a double-click): open it with
    `FileActions.open_email_move`, which checks it and shows what happened since
    your last action."""
    from desk18xx.io.pbem import EmailDesk

    try:
        header = load_save(path).header
    except (SaveFormatError, OSError):
        return False
    desk = EmailDesk(data if data is not None else data_dir())
    return desk.copy_path(header).is_file() or bool(desk.others_like(header))


def _is_export(path: str) -> bool:
    """An 18xx.games export (never overwritten by Save), by the detection the tools use."""
    from desk18xx.io.filereader import FileKind, FileRefused, kind_of

    try:
        return kind_of(path) is FileKind.EXPORT
    except FileRefused:
        return path.lower().endswith(".json")


def header_of(setup: GameSetup) -> SaveHeader:
    """The save header of a session's setup."""
    return SaveHeader(setup.title, tuple(SavedPlayer(pid, name) for pid, name in setup.players),
                      setup.seed, setup.variant, tuple(setup.options))


def user_settings(data: Path | None = None) -> QSettings:
    """The app's settings, kept in the user data folder next to the autosaves
    (`desk18xx.io.paths.settings_file`)."""
    return QSettings(str(settings_file(data)), QSettings.Format.IniFormat)


#: Milliseconds from the first unsaved change of the game to its autosave: the
#: window is updated first, and a burst of changes is written once. Later changes
#: never push this deadline back; the write itself runs on the autosave's writer
#: thread, so a crash loses at most about this much (always under a second).
AUTOSAVE_DELAY_MS = 500


class FileActions(QObject):
    """Save, Save as, Save for e-mail, Open e-mail move, Import, Export, and autosave.

    Args:
        session: the game session.
        window: the main window (dialog parent, status bar).
        autosave: this app's autosave slot; None turns autosave off (tests).
        data: the user data folder (PBEM copies go to ``data/pbem``).

    Signals:
        saved(str): the game was written to this path.
        problem(str): something failed; the text was also shown to the user.
        what_happened(list, list): a friend's move was loaded: the hexes whose tile or
            tokens changed since your last action, and the hexes of routes run since.
    """

    #: The game was written to this path.
    saved = Signal(str)
    #: A friend's move was loaded: hexes changed since your last action, route hexes.
    what_happened = Signal(list, list)
    #: Something failed (the text was shown to the user too).
    problem = Signal(str)
    #: The writer thread finished an autosave: None, or the error (queued to this thread).
    _autosave_written = Signal(object)

    def __init__(self, session: GameSession, window: QMainWindow,
                 autosave: AutosaveSession | None = None, data: Path | None = None) -> None:
        super().__init__(window)
        self.session = session
        self.window = window
        self.autosave_session = autosave
        self.data = data if data is not None else data_dir()
        self.path: str | None = None
        """The save the game was last written to or opened from."""
        self._autosave_warned = False
        self._source = session.source
        self.save_action = self._action("&Save", QKeySequence.StandardKey.Save, self.save)
        self.save_as_action = self._action("Save &as…", QKeySequence("Ctrl+Shift+S"),
                                           self.save_as)
        self.email_save_action = self._action("Save for &e-mail…", QKeySequence("Ctrl+E"),
                                              self.save_for_email)
        self.email_open_action = self._action("Open e-mail &move…", QKeySequence("Ctrl+M"),
                                              self.open_email_move)
        self.email_me_action = self._action("E-mail game: I &play as…", None,
                                            self.choose_me)
        self.email_local_action = self._action("E-mail game: players at this &computer…",
                                               None, self.choose_local)
        self.import_action = self._action("&Import from 18xx.games…", None,
                                          self.import_export)
        self.export_action = self._action("E&xport to 18xx.games…", None, self.export_18xx)
        self._autosave_timer = QTimer(self)
        self._autosave_timer.setSingleShot(True)
        self._autosave_timer.setInterval(AUTOSAVE_DELAY_MS)
        self._autosave_timer.timeout.connect(self.autosave)
        session.state_changed.connect(self._autosave_soon)
        self._autosave_written.connect(self._autosave_failed)
        self._tree: VariationTree | None = None
        """The history tree watched for names, notes, marks and deleted lines."""
        self._tree_pending = False
        self._watch_tree()
        session.game_replaced.connect(self._game_replaced)

    def _action(self, text: str, key: QKeySequence | QKeySequence.StandardKey | None,
                slot: Callable[[], object]) -> QAction:
        action = QAction(text, self.window)
        if key is not None:
            action.setShortcut(key)
        action.triggered.connect(lambda _checked=False: slot())
        return action

    def actions(self) -> list[QAction]:
        """The menu entries, in menu order."""
        return [self.save_action, self.save_as_action, self.email_save_action,
                self.email_open_action, self.email_me_action, self.email_local_action,
                self.import_action,
                self.export_action]

    def install(self, menu: QMenu, before: QAction | None = None) -> None:
        """Add the entries to `menu` (before `before`, e.g. Quit), with separators."""
        menu.insertSeparator(before) if before is not None else menu.addSeparator()
        for action in self.actions():
            if before is not None:
                menu.insertAction(before, action)
            else:
                menu.addAction(action)
        if before is not None:
            menu.insertSeparator(before)

    # -- helpers -----------------------------------------------------------------------------
    def _header(self) -> SaveHeader | None:
        setup = self.session.setup
        return None if setup is None or not self.session.has_game else header_of(setup)

    def _warn(self, title: str, text: str) -> None:
        self.problem.emit(text)
        QMessageBox.warning(self.window, title, text)

    def _status(self, text: str) -> None:
        self.window.statusBar().showMessage(text)

    def _watch_tree(self) -> None:
        """Autosave when the history tree changes without an action (a branch
        named, a note, a mark, a line deleted or promoted)."""
        if self._tree is self.session.tree:
            return
        if self._tree is not None:
            self._tree.unsubscribe(self._tree_changed)
        self._tree = self.session.tree
        self._tree.subscribe(self._tree_changed)

    def _tree_changed(self, event: str, _node: Node | None) -> None:
        if event in ("changed", "removed", "reordered") and not self._tree_pending:
            self._tree_pending = True  # once the session has followed the change
            QTimer.singleShot(0, self._tree_autosave)

    def _tree_autosave(self) -> None:
        self._tree_pending = False
        self.autosave()

    def _game_replaced(self) -> None:
        """A file was opened (its path is kept for Save) or a new game started (Save asks)."""
        self._watch_tree()
        source = self.session.source
        opened = source is not None and source != self._source
        self._source = source
        self.path = source if opened and source and not _is_export(source) else None

    def _settings(self) -> QSettings:
        return user_settings(self.data)

    # -- saving -------------------------------------------------------------------------------
    def save(self) -> bool:
        """Save to the current file, or ask for one."""
        if self.path is None:
            return self.save_as()
        return self._write(self.path)

    def save_as(self, path: str | None = None) -> bool:
        """Save under a name the user picks (or `path`)."""
        if self._header() is None:
            return False
        if path is None:
            from desk18xx.io.pbem import MAIL_SUFFIX

            path, _ = QFileDialog.getSaveFileName(self.window, "Save the game",
                                                  self.path or f"game{MAIL_SUFFIX}",
                                                  _save_filter())
        return bool(path) and self._write(path)

    def _write(self, path: str) -> bool:
        try:
            self.session.save(path)
        except (OSError, ValueError) as error:
            self._warn("Save", f"Cannot save {path}: {error}\nThe previous file is unchanged.")
            return False
        self.path = path
        self.saved.emit(path)
        self._status(f"Saved {path}")
        return True

    def _autosave_soon(self, _count: int = 0) -> None:
        """The game changed: autosave once the window has been updated (a state
        digest and a write take longer than the update itself late in a game).

        The first unsaved change sets the deadline (:data:`AUTOSAVE_DELAY_MS`);
        further changes before it do not move it, so a burst of actions
        (programmed passes, fast clicks, a jump) is saved within the deadline."""
        if self.autosave_session is not None and not self._autosave_timer.isActive():
            self._autosave_timer.start()

    @property
    def autosave_pending(self) -> bool:
        """True while a change waits for :data:`AUTOSAVE_DELAY_MS`, or its autosave
        is being written."""
        return self._autosave_timer.isActive() or (
            self.autosave_session is not None and self.autosave_session.busy)

    def autosave(self, _count: int = 0) -> None:
        """Rewrite the autosave (after every action, undo, redo or load, once the
        window shows it: :data:`AUTOSAVE_DELAY_MS`). The file is prepared here,
        from the game on screen, and written on the autosave's writer thread."""
        self._autosave_timer.stop()
        header = self._header()
        if self.autosave_session is None or header is None:
            return
        from desk18xx.io.replaying import digest_of

        try:
            data = self.autosave_session.prepare(header, self.session.line.raw,
                                                 digest_of(self.session.game),
                                                 tree=self.session.tree)
        except Exception as error:  # noqa: BLE001 - the game goes on without this autosave
            self._autosave_failed(error)
            return
        self.autosave_session.write_soon(data, self._autosave_written.emit)

    def _autosave_failed(self, error: object) -> None:
        if error is None:
            self._autosave_warned = False
            return
        if not self._autosave_warned:  # once: the game goes on
            self._autosave_warned = True
            self.problem.emit(str(error))
            self._status(f"Autosave failed: {error}")

    # -- play by e-mail -----------------------------------------------------------------------
    def pbem_folder(self) -> Path:
        """Where your own copies of e-mail games are kept."""
        return self.data / PBEM_FOLDER

    def _me(self, header: SaveHeader, ask: bool = True, default: str | None = None,
            again: bool = False) -> str | None:
        """Which player you are in this e-mail game: remembered per game and per
        title and players (a sender who changes the seed or the spelling of a name
        does not make you someone else); asked when unknown (None if cancelled)."""
        from desk18xx.io.pbem import game_identity, game_stable_identity

        keys = (f"pbem/{game_identity(header)}", f"pbem-players/{game_stable_identity(header)}")
        ids = [p.id for p in header.players]
        settings = self._settings()
        for key in keys:
            stored = settings.value(key)
            if isinstance(stored, str) and stored in ids and not again:
                return stored
        if not ask:
            return None
        names = [p.name for p in header.players]
        first = ids.index(default) if default in ids else 0
        name, ok = QInputDialog.getItem(self.window, "Play by e-mail",
                                        "Which player are you in this game?\n(Others "
                                        "who play at this computer: Game > E-mail game: "
                                        "players at this computer…)", names, first,
                                        False)
        if not ok:
            return None
        me = ids[names.index(name)]
        self.set_me(header, me)
        return me

    def choose_me(self) -> str | None:
        """Ask again which player you are in this e-mail game (a wrong first answer
        would mark the wrong actions as yours in every move received)."""
        header = self._header()
        if header is None:
            return None
        return self._me(header, default=self.current_player() or self._last_actor(),
                        again=True)

    def _last_actor(self) -> str | None:
        """The file id of the player behind the last action (who saves for e-mail)."""
        from desk18xx.io.transfer import controller, header_player

        actions = self.session.actions()
        if not actions or not self.session.has_game:
            return None
        game = self.session.game
        return header_player(game, controller(game, actions[-1].entity))

    def current_player(self) -> str | None:
        """Which player you are in the open game, if it is an e-mail game you told."""
        header = self._header()
        return None if header is None else self._me(header, ask=False)

    def set_me(self, header: SaveHeader, player: str) -> None:
        """Remember which player you are in a PBEM game."""
        from desk18xx.io.pbem import game_identity, game_stable_identity

        settings = self._settings()
        settings.setValue(f"pbem/{game_identity(header)}", player)
        settings.setValue(f"pbem-players/{game_stable_identity(header)}", player)

    def _local_keys(self, header: SaveHeader) -> tuple[str, str]:
        from desk18xx.io.pbem import game_identity, game_stable_identity

        return (f"pbem-local/{game_identity(header)}",
                f"pbem-local-players/{game_stable_identity(header)}")

    def local_players(self, header: SaveHeader, me: str | None = None) -> list[str]:
        """The other players who sit at this computer in this e-mail game (hot-seat),
        remembered per game like `current_player`; their moves are signed with their
        own keys. Empty unless told (`set_local`, `choose_local`)."""
        import json

        ids = [p.id for p in header.players]
        settings = self._settings()
        for key in self._local_keys(header):
            stored = settings.value(key)
            if not isinstance(stored, str):
                continue
            try:
                value = json.loads(stored)
            except ValueError:
                continue
            if isinstance(value, list):
                return [pid for pid in ids if pid in value and pid != me]
        return []

    def set_local(self, header: SaveHeader, players: list[str]) -> None:
        """Remember which other players sit at this computer in a PBEM game."""
        import json

        ids = [p.id for p in header.players]
        text = json.dumps([pid for pid in ids if pid in players])
        settings = self._settings()
        for key in self._local_keys(header):
            settings.setValue(key, text)

    def choose_local(self, dialog: Callable[[QDialog], None] | None = None) -> list[str] | None:
        """Ask which players sit at this computer (hot-seat) in this e-mail game;
        None if cancelled (nothing changes). `dialog` sees the dialog before it
        is shown (tests answer it there)."""
        from desk18xx.ui.dialogs.pbem import LocalPlayersDialog

        header = self._header()
        if header is None:
            return None
        me = self._me(header, default=self.current_player() or self._last_actor())
        if me is None:
            return None
        ask = LocalPlayersDialog([(p.id, p.name) for p in header.players], me,
                                 self.local_players(header, me), self.window)
        if dialog is not None:
            dialog(ask)
        if ask.exec() != QDialog.DialogCode.Accepted:
            return None
        chosen = ask.local()
        self.set_local(header, chosen)
        names = {p.id: p.name for p in header.players}
        self._status("Signed here: " + ", ".join(names[p] for p in [me, *chosen]))
        return chosen

    _busy = False
    """True while an e-mail file is being checked or written (on a worker): a second
    Save for e-mail or Open e-mail move (a shortcut pressed twice) is refused."""

    def _refuse_busy(self) -> bool:
        if self._busy:
            self._status("Still busy with the last e-mail file: try again when it is done.")
        return self._busy

    def save_for_email(self, folder: str | None = None) -> MailMove | None:
        """Write the file to attach and show the mail text."""
        if self._refuse_busy():
            return None
        self._busy = True
        try:
            return self._save_for_email(folder)
        finally:
            self._busy = False

    def _save_for_email(self, folder: str | None) -> MailMove | None:
        header = self._header()
        if header is None:
            return None
        if folder is None:
            start = str(self._settings().value("pbem/folder", str(Path.home())))
            folder = QFileDialog.getExistingDirectory(self.window, "Folder for the e-mail file",
                                                      start)
            if not folder:
                return None
        me = self._me(header, default=self._last_actor())
        if me is None:  # "Which player are you?" cancelled: nothing is written
            self._status("Not saved for e-mail: say which player you are first.")
            return None
        from desk18xx.io.pbem import EmailDesk
        from desk18xx.io.replaying import digest_of
        from desk18xx.io.study import LINE_CURRENT, study_section
        from desk18xx.ui.dialogs.pbem import MailDialog, run_in_worker

        raw = [dict(entry) for entry in self.session.line.raw]  # the worker's own copy
        digest = digest_of(self.session.game)
        source = self.session.source
        carry = source if source is not None and not _is_export(source) else None
        local = self.local_players(header, me)
        desk = EmailDesk(self.data)

        def send(_progress: object) -> MailMove:  # on the worker thread
            carried: SavedGame | None = None  # a friend's file opened with plain Open
            if carry is not None:
                try:
                    carried = load_save(carry)
                except (SaveFormatError, OSError):
                    carried = None
            return desk.send(folder, header, raw, digest, me, local=local, study=study,
                             carried=carried)

        try:
            study = study_section(header, self.session.tree, line=LINE_CURRENT)
            mail = run_in_worker(self.window, "Save for e-mail",
                                 "Signing your moves and writing the file…", send,
                                 cancellable=False)
        except (OSError, ValueError) as error:
            self._warn("Save for e-mail", f"Cannot write the e-mail file: {error}")
            return None
        self._settings().setValue("pbem/folder", folder)
        names = {p.id: p.name for p in header.players}
        signers = ", ".join(names[p] for p in [me, *local])
        from desk18xx.ui.dialogs.pbem import unsigned_text

        self._status(f"Attach {mail.path} (moves signed by {signers})"
                     + ("; " + unsigned_text(mail, names) if mail.unsigned else ""))
        MailDialog(mail, self.window, names).open()
        return mail

    def open_email_move(self, path: str | None = None, *, confirm: bool = True
                        ) -> ReceivedMove | None:
        """Open a friend's file: check it, show what happened, load it on request."""
        if self._refuse_busy():
            return None
        self._busy = True
        try:
            return self._open_email_move(path, confirm)
        finally:
            self._busy = False

    def _open_email_move(self, path: str | None, confirm: bool) -> ReceivedMove | None:
        if path is None:
            start = str(self._settings().value("pbem/folder", str(Path.home())))
            path, _ = QFileDialog.getOpenFileName(self.window, "Open an e-mail move", start,
                                                  _save_filter())
            if not path:
                return None
        from desk18xx.io.pbem import Cancelled, EmailDesk, PbemError, Progress
        from desk18xx.io.study import game_setup
        from desk18xx.ui.dialogs.pbem import ReceivedMoveDialog, run_in_worker

        desk = EmailDesk(self.data)
        chosen = path
        title = "Open e-mail move"
        try:  # schema and chain only: which game is it?
            first = run_in_worker(self.window, title, "Reading the file…",
                                  lambda _progress: load_save(chosen),
                                  started=self._receive_started)
        except Cancelled:
            self._status("The e-mail move was not loaded (cancelled).")
            return None
        except (SaveFormatError, OSError) as error:
            self._warn(title, f"This move was not loaded:\n{error}")
            return None
        header = first.header
        me = self._me(header, ask=confirm)
        if me is None and confirm:  # "Which player are you?" cancelled: nothing changes
            self._status("The e-mail move was not loaded.")
            return None
        local = self.local_players(header, me)

        def receive(progress: Progress) -> ReceivedMove:  # on the worker thread
            return desk.receive(chosen, me, local=local, header=header, progress=progress,
                                total=len(first.actions))

        try:
            move = run_in_worker(self.window, title,
                                 f"Checking every action and signature of {Path(path).name}…",
                                 receive, started=self._receive_started)
        except Cancelled:
            self._status("The e-mail move was not loaded (cancelled); nothing was changed.")
            return None
        except (PbemError, SaveFormatError, OSError, KeyError) as error:
            self._warn(title, f"This move was not loaded:\n{error}")
            return None
        names = {p.id: p.name for p in header.players}
        if confirm:
            dialog = ReceivedMoveDialog(move, names, self.window)
            if dialog.exec() != ReceivedMoveDialog.DialogCode.Accepted:
                return None
        saved = move.opened.saved
        known = move.known
        tree = self._merged_tree(move)
        self.session.new_game(game_setup(saved.header), [dict(a) for a in saved.actions], tree)
        self.session.source = str(path)
        self.path = None  # "Save" asks: the mail file is not yours to overwrite
        try:
            from desk18xx.io.study import LINE_CURRENT, study_section

            desk.keep(move, study=study_section(saved.header, self.session.tree,
                                                line=LINE_CURRENT),
                      notes=known.notes if known is not None else None)  # yours, not theirs
        except (OSError, ValueError) as error:
            self._status(f"Could not keep a copy of this game: {error}")
        outlined = " Changes since your last action are outlined in orange on the map " \
            "(Esc hides them)." if move.changed_hexes or move.route_hexes else ""
        self._status(f"{move.history.message()}{outlined}")
        self.what_happened.emit(list(move.changed_hexes), list(move.route_hexes))
        return move

    _receive_started: Callable[[QProgressDialog], None] | None = None
    """Sees each progress dialog of Open e-mail move (tests cancel there)."""

    def _merged_tree(self, move: ReceivedMove) -> VariationTree | None:
        """Your history tree of this game with the received line as its main line:
        the tree on screen when it is this game, else the one in your copy; None
        (made from the file) when you have neither. Names, notes, marks survive."""
        saved = move.opened.saved
        base: VariationTree | None = None
        if self.session.has_game and self.session.setup is not None and \
                header_of(self.session.setup).identity() == saved.header.identity():
            base = self.session.tree
        elif move.known is not None and move.known.study is not None:
            from desk18xx.io.study import study_of

            try:
                base = study_of(move.known, "your copy").tree
            except _LOAD_ERRORS:
                base = None
        if base is None:
            return None
        from desk18xx.engine.log import effective_actions

        merged = base.copy()
        merged.merge_line(effective_actions(saved.actions))
        return merged

    # -- 18xx.games ---------------------------------------------------------------------------
    def import_export(self, path: str | None = None, out: str | None = None) -> bool:
        """Turn an 18xx.games export into a save and open it."""
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self.window, "Import an 18xx.games export",
                                                  "", EXPORT_FILTER)
            if not path:
                return False
        from desk18xx.io.pbem import MAIL_SUFFIX
        from desk18xx.io.replaying import digest_of
        from desk18xx.io.transfer import save_from_export

        if out is None:
            suggestion = str(Path(path).with_suffix(MAIL_SUFFIX))
            out, _ = QFileDialog.getSaveFileName(self.window, "Save the imported game as",
                                                 suggestion, _save_filter())
            if not out:
                return False
        try:
            converted = save_from_export(path)
            save_game(out, converted.header, converted.actions,
                      digest_of(converted.replayed.game))
            self.session.load(out)
        except _LOAD_ERRORS as error:
            self._warn("Import", f"Cannot import {path}:\n{error}")
            return False
        self.path = out
        self._status(f"Imported {path} as {out}")
        return True

    def export_18xx(self, out: str | None = None) -> bool:
        """Write the game as an 18xx.games export."""
        header = self._header()
        if header is None:
            return False
        if out is None:
            out, _ = QFileDialog.getSaveFileName(self.window, "Export to 18xx.games",
                                                 "game.json", EXPORT_FILTER)
            if not out:
                return False
        from desk18xx.io.atomic import write_atomic
        from desk18xx.io.transfer import export_text

        text = export_text(header, self.session.line.raw, self.session.game)
        try:
            write_atomic(Path(out), text.encode("utf-8"), keep_backup=True)
        except OSError as error:
            self._warn("Export", f"Cannot write {out}: {error}")
            return False
        self._status(f"Exported to {out}")
        return True

    def set_autosave(self, autosave: AutosaveSession | None) -> None:
        """Start (or stop, with None) autosaving; the current game is saved at once."""
        if self.autosave_session is not None and autosave is not self.autosave_session:
            self.autosave_session.close()
        self.autosave_session = autosave
        self.autosave()

    def close(self) -> None:
        """Clean exit: the autosave and its marker go."""
        self._autosave_timer.stop()
        if self.autosave_session is not None:
            self.autosave_session.close()
            self.autosave_session = None


def start_autosave(files: FileActions, session: GameSession, *, restore: bool = True,
                   folder: Path | None = None) -> bool:
    """At start: offer a crashed session's game (if `restore`), then autosave this one.

    Returns:
        True when a crashed game was restored. An autosave folder that cannot
        be written is reported in the status bar; the app runs without autosave.
    """
    folder = folder if folder is not None else autosave_dir()
    restored = restore and offer_restore(files.window, session, folder)
    try:
        files.set_autosave(AutosaveSession(folder))
    except OSError as error:
        files.window.statusBar().showMessage(f"Autosave is off: {error}")
    return restored


def offer_restore(parent: QWidget | None, session: GameSession, folder: Path,
                  ask: Callable[[str], bool] | None = None) -> bool:
    """After a crash, offer to reopen the autosaved game; True if it was restored.

    Sessions that crashed before their first action are cleaned up silently.
    A broken autosave is reported and kept (renamed ``….broken``).

    Args:
        parent: dialog parent.
        session: loads the game.
        folder: the autosave folder (`desk18xx.io.autosave.autosave_dir`).
        ask: the yes/no question (default: a message box).
    """
    def question(text: str) -> bool:
        answer = QMessageBox.question(parent, "Restore the last game?", text)
        return answer == QMessageBox.StandardButton.Yes

    ask = ask or question
    restored = False
    for crashed in find_crashed(folder):
        from desk18xx.io.replaying import open_save
        from desk18xx.io.study import game_setup

        autosave = crashed.autosave
        if autosave is None or restored:
            if autosave is None:
                crashed.discard()
            continue
        started = crashed.info.get("started", "?")
        if not ask(f"desk18xx did not close normally (session started {started}).\n"
                   "Reopen the game as it was after the last action?"):
            crashed.discard()
            continue
        try:
            opened = open_save(autosave)
        except _LOAD_ERRORS as error:
            autosave.replace(autosave.with_suffix(".broken"))
            crashed.discard()
            QMessageBox.warning(parent, "Restore", f"The autosave cannot be opened:\n{error}\n"
                                f"It was kept as {autosave.with_suffix('.broken')}.")
            continue
        saved = opened.saved
        tree = None
        if saved.study is not None:  # the whole history: lines, names, notes, marks
            from desk18xx.io.study import load_study

            try:
                tree = load_study(autosave).tree
            except _LOAD_ERRORS:
                tree = None  # the game itself is intact: restore its line
        session.new_game(game_setup(saved.header), [dict(a) for a in saved.actions], tree)
        session.source = None
        crashed.discard()
        restored = True
    return restored


__all__ = ["PBEM_FOLDER", "FileActions", "header_of", "is_email_move", "offer_restore",
           "start_autosave", "user_settings"]
