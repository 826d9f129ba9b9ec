"""Autosave after every action, and finding the game a crash left behind (no Qt).

Each running app has one `AutosaveSession` in ``<data dir>/autosave/``: a
marker file ``<token>.open`` that it holds locked while it runs, and its
autosave ``<token>.yaml``, rewritten atomically (`desk18xx.io.atomic`) after
every action. A clean exit removes both. At the next start, a marker that
nobody holds locked any more belongs to a session that ended without
closing (crash, kill, power cut): `find_crashed` lists them so the app can
offer to restore the autosaved game. A lock, unlike a process id, dies
with its process on every platform, so a second running app is never
mistaken for a crashed one.

The data folder (`data_dir`) is ``$DESK18XX_DATA`` if set, otherwise the
platform's user data folder; never the install folder.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from desk18xx import __version__
from desk18xx.engine.log import RawAction
from desk18xx.io.atomic import write_atomic
from desk18xx.io.savefile import EntryCache, SaveHeader, SaveWriteError, dump_save

APP_FOLDER: Final = "desk18xx"
AUTOSAVE_FOLDER: Final = "autosave"
MARKER_SUFFIX: Final = ".open"
SAVE_SUFFIX: Final = ".yaml"


def data_dir(
    environ: Mapping[str, str] | None = None,
    platform: str | None = None,
    home: Path | None = None,
) -> Path:
    """The user data folder of desk18xx (not created here).

    ``$DESK18XX_DATA`` wins; otherwise ``$XDG_DATA_HOME/desk18xx`` (default
    ``~/.local/share/desk18xx``) on Linux and other Unixes,
    ``%APPDATA%\\desk18xx`` on Windows, ``~/Library/Application Support/desk18xx``
    on macOS.

    Args:
        environ: environment variables (default: ``os.environ``).
        platform: ``sys.platform`` value (default: this one).
        home: the home folder (default: ``Path.home()``).
    """
    env = os.environ if environ is None else environ
    system = sys.platform if platform is None else platform
    if env.get("DESK18XX_DATA"):
        return Path(env["DESK18XX_DATA"])
    base = home if home is not None else Path.home()
    if system.startswith("win"):
        appdata = env.get("APPDATA")
        return (Path(appdata) if appdata else base / "AppData" / "Roaming") / APP_FOLDER
    if system == "darwin":
        return base / "Library" / "Application Support" / APP_FOLDER
    xdg = env.get("XDG_DATA_HOME")
    root = Path(xdg) if xdg and Path(xdg).is_absolute() else base / ".local" / "share"
    return root / APP_FOLDER


def autosave_dir(data: Path | None = None) -> Path:
    """Where sessions keep their markers and autosaves."""
    return (data_dir() if data is None else data) / AUTOSAVE_FOLDER


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
        info = json.dumps({"pid": os.getpid(), "started": time.strftime("%Y-%m-%d %H:%M:%S"),
                           "app_version": __version__}).encode("utf-8")
        self._descriptor: int | None = os.open(self.marker, os.O_RDWR | os.O_CREAT, 0o666)
        os.write(self._descriptor, info)
        os.fsync(self._descriptor)
        if not _try_lock(self._descriptor):  # pragma: no cover - token collision
            os.close(self._descriptor)
            raise OSError(f"{self.marker} is locked by another session")

    def save(self, header: SaveHeader, actions: Sequence[RawAction], state_digest: str,
             *, notes: Mapping[str, str] | None = None) -> None:
        """Rewrite the autosave atomically (no ``.bak``: the previous one is replaced whole).

        Only the actions added since the last call are converted and hashed.

        Raises:
            ValueError: invalid header or actions (nothing written).
            SaveWriteError: the disk refused (full, read-only); the previous
                autosave is intact.
        """
        data = dump_save(header, actions, state_digest, notes=notes,
                         cache=self._cache).encode("utf-8")
        try:
            write_atomic(self.path, data)
        except OSError as error:
            raise SaveWriteError(error.errno, f"cannot autosave to {self.path}: "
                                 f"{error.strerror or error}") from error

    def clear(self) -> None:
        """Forget the autosave (the game was closed on purpose)."""
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def close(self) -> None:
        """Clean exit: remove the autosave and the marker."""
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
