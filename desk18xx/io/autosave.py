"""Autosave after every action, and finding the game a crash left behind (no Qt).

Each running app has one `AutosaveSession` in ``<data dir>/autosave/``: a
marker file ``<token>.open`` that it holds locked while it runs, and its
autosave ``<token>.yaml``, rewritten atomically (`desk18xx.io.atomic`) after
every action, on a writer thread of its own (`AutosaveSession.write_soon`)
so that a slow disk never holds up the window. A clean exit removes both.
At the next start, a marker that nobody holds locked any more belongs to
a session that ended without closing (crash, kill, power cut):
`find_crashed` lists them so the app can offer to restore the autosaved
game. A lock, unlike a process id, dies with its process on every
platform, so a second running app is never mistaken for a crashed one.

The data folder (`data_dir`, `autosave_dir`) comes from `desk18xx.io.paths`,
shared with the settings: ``$DESK18XX_DATA`` if set, otherwise the
platform's user data folder; never the install folder.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from desk18xx import __version__
from desk18xx.engine.log import RawAction
from desk18xx.engine.variations import VariationTree
from desk18xx.io.atomic import write_atomic
from desk18xx.io.paths import AUTOSAVE_FOLDER, autosave_dir, data_dir
from desk18xx.io.savefile import EntryCache, SaveHeader, SaveWriteError, dump_save

MARKER_SUFFIX: Final = ".open"
SAVE_SUFFIX: Final = ".yaml"


def _try_lock(descriptor: int) -> bool:
    """Lock an open file without waiting; False when another process holds it."""
    try:
        if sys.platform == "win32":  # pragma: no cover - Windows only
            import msvcrt

            os.lseek(descriptor, 0, os.SEEK_SET)  # every process locks the same byte
            msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


class AutosaveSession:
    """This app's autosave slot and its "session open" marker.

    Args:
        folder: the autosave folder (see `autosave_dir`); created if missing.

    Raises:
        OSError: the folder or the marker cannot be created.
    """

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.token = f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
        """Names this session's files; sorts by start time."""
        self.marker = folder / f"{self.token}{MARKER_SUFFIX}"
        self.path = folder / f"{self.token}{SAVE_SUFFIX}"
        """The autosave file (absent until the first `save`)."""
        self._cache = EntryCache()
        self._nodes: dict[int, tuple[str, object, str]] = {}
        """Node hashes of the tree (see `desk18xx.io.study.NodeHashCache`)."""
        self._wake = threading.Condition()
        """Guards the writer thread's state below."""
        self._writing = threading.Lock()
        """One write at a time (`write` and the writer thread)."""
        self._pending: tuple[bytes, Callable[[SaveWriteError | None], None] | None] | None = None
        self._in_flight = False
        self._closed = False
        self._thread: threading.Thread | None = None
        info = json.dumps({"pid": os.getpid(), "started": time.strftime("%Y-%m-%d %H:%M:%S"),
                           "app_version": __version__}).encode("utf-8")
        self._descriptor: int | None = os.open(self.marker, os.O_RDWR | os.O_CREAT, 0o666)
        os.write(self._descriptor, info)
        os.fsync(self._descriptor)
        if not _try_lock(self._descriptor):  # pragma: no cover - token collision
            os.close(self._descriptor)
            raise OSError(f"{self.marker} is locked by another session")

    def save(self, header: SaveHeader, actions: Sequence[RawAction], state_digest: str,
             *, notes: Mapping[str, str] | None = None,
             tree: VariationTree | None = None) -> None:
        """Rewrite the autosave atomically (no ``.bak``: the previous one is replaced whole).

        Only the actions (and tree nodes) added since the last call are converted
        and hashed.

        Args:
            actions: the log of the line being played (undo/redo included).
            state_digest: digest of the game that log leads to.
            tree: the whole history (every line, branch names, notes, marks),
                written as a ``study`` section whose ``actions`` are the current
                line (``study.line: current``); its current node must be the
                end of `actions`. `desk18xx.io.study.load_study` reads it back.

        Raises:
            ValueError: invalid header or actions (nothing written).
            SaveWriteError: the disk refused (full, read-only); the previous
                autosave is intact.
        """
        self.write(self.prepare(header, actions, state_digest, notes=notes, tree=tree))

    def prepare(self, header: SaveHeader, actions: Sequence[RawAction], state_digest: str,
                *, notes: Mapping[str, str] | None = None,
                tree: VariationTree | None = None) -> bytes:
        """The bytes `save` writes (arguments as there), without writing them: the
        caller reads the game, then `write_soon` writes it on another thread.

        Raises:
            ValueError: invalid header or actions.
        """
        study = None
        if tree is not None:
            from desk18xx.io.study import LINE_CURRENT, study_section

            study = study_section(header, tree, line=LINE_CURRENT, cache=self._nodes)
        return dump_save(header, actions, state_digest, notes=notes, study=study,
                         cache=self._cache).encode("utf-8")

    def write(self, data: bytes) -> None:
        """Replace the autosave with `data` now (atomically).

        Raises:
            SaveWriteError: the disk refused; the previous autosave is intact.
        """
        with self._writing:
            try:
                write_atomic(self.path, data)
            except OSError as error:
                raise SaveWriteError(error.errno, f"cannot autosave to {self.path}: "
                                     f"{error.strerror or error}") from error

    def write_soon(self, data: bytes,
                   done: Callable[[SaveWriteError | None], None] | None = None) -> None:
        """Write `data` on this session's writer thread (the caller goes on at once).

        Writes are atomic and in order; when writes come faster than the disk
        takes them, only the newest waiting one is written (each is the whole
        game). `done` is called on the writer thread after the write, with the
        error if it failed.
        """
        with self._wake:
            if self._closed:
                return
            self._pending = (data, done)
            if self._thread is None:
                self._thread = threading.Thread(target=self._writer, daemon=True,
                                                name=f"autosave-{self.token}")
                self._thread.start()
            self._wake.notify_all()

    @property
    def busy(self) -> bool:
        """True while a `write_soon` is waiting or being written."""
        with self._wake:
            return self._pending is not None or self._in_flight

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every `write_soon` is on disk; False if `timeout` ran out first."""
        with self._wake:
            return self._wake.wait_for(lambda: self._pending is None and not self._in_flight,
                                       timeout)

    def _writer(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._pending is not None or self._closed)
                if self._pending is None:  # closed, nothing left to write
                    return
                (data, done), self._pending = self._pending, None
                self._in_flight = True
            error: SaveWriteError | None = None
            try:
                self.write(data)
            except SaveWriteError as failure:
                error = failure
            finally:
                with self._wake:
                    self._in_flight = False
                    self._wake.notify_all()
            if done is not None:
                with contextlib.suppress(Exception):  # a closed window: nobody to tell
                    done(error)

    def clear(self) -> None:
        """Forget the autosave (the game was closed on purpose)."""
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def close(self) -> None:
        """Clean exit: remove the autosave and the marker (after a write under way)."""
        with self._wake:
            self._closed = True
            self._pending = None
            self._wake.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(10)
        self.clear()
        if self._descriptor is not None:
            os.close(self._descriptor)
            self._descriptor = None
        with contextlib.suppress(FileNotFoundError):
            self.marker.unlink()

    def __enter__(self) -> AutosaveSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True, slots=True)
class CrashedSession:
    """A session that did not close cleanly."""

    marker: Path
    autosave: Path | None
    """Its autosaved game; None if it crashed before the first action."""
    info: Mapping[str, Any]
    """What the marker says (``pid``, ``started``, ``app_version``); may be empty."""
    saved_at: float
    """Modification time of the autosave (of the marker if there is none)."""

    def discard(self) -> None:
        """Remove the marker and the autosave (after restoring it, or if the user declines)."""
        for path in (self.autosave, self.marker):
            if path is not None:
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()


def find_crashed(folder: Path) -> list[CrashedSession]:
    """Sessions in `folder` whose app is gone without closing; newest first.

    Markers still locked by a running app are left alone. Never raises for
    an unreadable marker (its info is then empty).
    """
    found: list[CrashedSession] = []
    if not folder.is_dir():
        return found
    for marker in folder.glob(f"*{MARKER_SUFFIX}"):
        try:
            descriptor = os.open(marker, os.O_RDWR)
        except OSError:
            continue
        try:
            if not _try_lock(descriptor):
                continue  # a running session holds it
            os.lseek(descriptor, 0, os.SEEK_SET)
            info = _marker_info(os.read(descriptor, 4096))
        finally:
            os.close(descriptor)  # also releases our lock
        autosave = marker.with_suffix(SAVE_SUFFIX)
        has_save = autosave.is_file()
        stamp = (autosave if has_save else marker).stat().st_mtime
        found.append(CrashedSession(marker, autosave if has_save else None, info, stamp))
    found.sort(key=lambda c: (c.saved_at, c.marker.name), reverse=True)
    return found


def _marker_info(data: bytes) -> dict[str, Any]:
    try:
        info = json.loads(data.decode("utf-8"))
    except ValueError:
        return {}
    return info if isinstance(info, dict) else {}


__all__ = ["AUTOSAVE_FOLDER", "AutosaveSession", "CrashedSession", "autosave_dir", "data_dir",
           "find_crashed"]
