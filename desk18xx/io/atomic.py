"""Atomic file replacement: a crash or a full disk never leaves a half-written file.

The new content goes to a hidden temporary file in the same folder, is
flushed and fsynced, and then replaces the target with ``os.replace`` (atomic
on POSIX and Windows). Optionally the previous content is kept as
``NAME.bak``, itself written the same way, so the target is never missing.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
from pathlib import Path
from typing import Final

_O_BINARY: Final[int] = getattr(os, "O_BINARY", 0)


def write_atomic(target: Path, data: bytes, *, keep_backup: bool = False) -> None:
    """Replace `target` with `data`; `target` stays intact if anything fails.

    Args:
        target: the file to write.
        data: its new content.
        keep_backup: copy the current `target` (if any) to ``NAME.bak`` first.

    Raises:
        OSError: the file system refused; no temporary file is left behind.
    """
    temporary = _write_temporary(target, data)
    try:
        if target.exists():
            shutil.copymode(target, temporary)
            if keep_backup:
                _keep_backup(target)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
    _fsync_folder(target.parent)


def _write_temporary(near: Path, data: bytes) -> Path:
    """Write `data` to a new hidden file next to `near`, flushed and fsynced.

    The file is created with mode 0o666 minus the umask, like a normal file.
    """
    for _attempt in range(100):
        candidate = near.with_name(f".{near.name}.{secrets.token_hex(4)}.tmp")
        try:
            descriptor = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_BINARY,
                                 0o666)
        except FileExistsError:
            continue
        try:
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        except BaseException:
            with contextlib.suppress(OSError):
                candidate.unlink()
            raise
        return candidate
    raise FileExistsError(f"no free temporary name next to {near}")


def _keep_backup(target: Path) -> None:
    """Copy `target` to ``NAME.bak`` atomically (so `target` is never missing)."""
    partial = _write_temporary(target.with_name(target.name + ".bak"), target.read_bytes())
    try:
        shutil.copymode(target, partial)
        os.replace(partial, target.with_name(target.name + ".bak"))
    except BaseException:
        with contextlib.suppress(OSError):
            partial.unlink()
        raise


def _fsync_folder(folder: Path) -> None:
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
