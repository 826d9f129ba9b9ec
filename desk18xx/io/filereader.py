"""The one reader of every file the app and the tools open (no Qt).

Saves, 18xx.games exports, autosaves and e-mail moves are all read here, so
that no file, however broken or hostile, can hang or crash a reader:

- only regular files: a directory, a FIFO (named pipe), a device or a socket
  is refused from `os.stat` *before* it is opened, the open itself is
  non-blocking (a FIFO swapped in at the last moment cannot block), and
  `os.fstat` of what was opened is checked again;
- symbolic links are followed; a link loop is refused with a message;
- the byte limit is enforced while reading: at most ``limit + 1`` bytes are
  read from the stream, whatever ``st_size`` says (``/proc`` files report 0;
  a file may grow while it is read);
- text must be UTF-8 without NUL bytes;
- JSON is parsed with NaN and infinities refused and integers bounded
  (`parse_json`); YAML goes through `desk18xx.io.yamlio`, which applies the
  same bounds.

`kind_of` is the one file-type detection (a desk18xx save, an 18xx.games
export, or neither) used by the command line and the app.

Every refusal is a `FileRefused` whose `problem` reads as the end of a
sentence about the file (``"is a directory, not a file"``); readers turn it
into their own located error (``"<file>: (file): is a directory, not a file"``).
"""

from __future__ import annotations

import enum
import errno
import json
import math
import os
import stat
from pathlib import Path
from typing import Any, Final

MAX_INT_DIGITS: Final = 1000
"""Longer integers are refused in every file (Python refuses to parse 4300 and more
digits at all; no count in a game comes near 20)."""

HEAD_BYTES: Final = 4096
"""How much of a file `kind_of` looks at."""

_O_FLAGS: Final = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
                   | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


class FileRefused(ValueError):
    """A file that is not read: not a regular file, too large, unreadable, not text.

    Args:
        problem: what is wrong, as the end of a sentence about the file.
        source: the file; the message then reads ``"<file>: (file): <problem>"``.
    """

    def __init__(self, problem: str, source: str | None = None) -> None:
        super().__init__(problem if source is None else f"{source}: (file): {problem}")
        self.problem = problem
        self.source = source

    def located(self, source: str) -> FileRefused:
        """The same refusal naming `source`."""
        return FileRefused(self.problem, source)


def _kind_name(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _refuse_kind(mode: int) -> None:
    if not stat.S_ISREG(mode):
        name = _kind_name(mode)
        raise FileRefused(f"is {name}, not a file" if name.startswith("a ") else
                          "is not a regular file")


def _os_problem(error: OSError) -> str:
    if error.errno == errno.ELOOP:
        return "is a symbolic link loop (a link that leads back to itself)"
    if error.errno == errno.EISDIR:
        return "is a directory, not a file"
    return f"cannot be read: {error.strerror or error}"


def read_bytes(path: str | Path, limit: int, *, what: str = "files") -> bytes:
    """The content of a regular file of at most `limit` bytes.

    Args:
        path: the file (symbolic links are followed).
        limit: the largest size accepted.
        what: names the files in the size message (``"saves"``).

    Raises:
        FileRefused: not a regular file, a link loop, larger than `limit`,
            or unreadable (the problem says which).
    """
    return _read(path, limit, what=what, whole=True)


def read_head(path: str | Path, size: int = HEAD_BYTES) -> bytes:
    """The first `size` bytes of a regular file (for `kind_of`).

    Raises:
        FileRefused: as `read_bytes` (but a longer file is fine).
    """
    return _read(path, size, what="files", whole=False)


def _read(path: str | Path, limit: int, *, what: str, whole: bool) -> bytes:
    try:
        status = os.stat(path)
        _refuse_kind(status.st_mode)  # before opening: a FIFO or a device is never opened
        if whole and status.st_size > limit:  # a quick answer; the read is bounded anyway
            raise FileRefused(f"is {status.st_size} bytes; {what} over {limit} are refused")
        descriptor = os.open(path, _O_FLAGS)
    except OSError as error:
        raise FileRefused(_os_problem(error)) from error
    try:
        _refuse_kind(os.fstat(descriptor).st_mode)  # what was opened, not what was there before
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(descriptor, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as error:
        raise FileRefused(_os_problem(error)) from error
    finally:
        os.close(descriptor)
    data = b"".join(chunks)
    if len(data) > limit:
        if not whole:
            return data[:limit]
        raise FileRefused(f"is larger than {limit} bytes; {what} over {limit} are refused")
    return data


_NUL_PROBLEM: Final = "is not a text file (it contains NUL bytes)"


def decode_text(data: bytes, *, bom: bool = False) -> str:
    """UTF-8 text without NUL bytes.

    Args:
        bom: accept (and drop) a leading UTF-8 byte order mark, and report
            bad UTF-8 before NUL bytes (exports, as 18xx.games writes them).

    Raises:
        FileRefused: a NUL byte, or not UTF-8 (the byte offset is named).
    """
    if not bom and b"\x00" in data:
        raise FileRefused(_NUL_PROBLEM)
    try:
        text = data.decode("utf-8-sig" if bom else "utf-8")
    except UnicodeDecodeError as error:
        raise FileRefused(f"is not UTF-8 text (byte {error.start})") from error
    if bom and "\x00" in text:
        raise FileRefused(_NUL_PROBLEM)
    return text


def read_text(path: str | Path, limit: int, *, what: str = "files", bom: bool = False) -> str:
    """`read_bytes` then `decode_text`.

    Raises:
        FileRefused: see there.
    """
    return decode_text(read_bytes(path, limit, what=what), bom=bom)


# --- what kind of file -----------------------------------------------------------------

class FileKind(enum.Enum):
    """What a file looks like from its first bytes."""

    SAVE = "save"
    """A desk18xx save (YAML; study files, autosaves and e-mail moves too)."""
    EXPORT = "export"
    """An 18xx.games export (JSON)."""
    OTHER = "other"
    """Neither: empty, binary, or some other text."""


def kind_of_bytes(head: bytes) -> FileKind:
    """The kind of a file from its first bytes (see `kind_of`)."""
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n")
    if text.startswith((b"{", b"[")):
        return FileKind.EXPORT
    while text.startswith((b"#", b"%", b"---")):  # comments, YAML directives, document start
        newline = text.find(b"\n")
        if newline < 0:
            return FileKind.OTHER
        text = text[newline + 1:].lstrip(b" \t\r\n")
    if b"\x00" not in text and text[:64].split(b":", 1)[0].strip() in (
            b"format_version", b"app_version", b"setup", b"setup_hash"):
        return FileKind.SAVE
    return FileKind.OTHER


def kind_of(path: str | Path) -> FileKind:
    """What `path` holds: a save (YAML whose first key is a save's), an 18xx.games
    export (text that starts like JSON), or neither. The file name is not used.

    Raises:
        FileRefused: the file cannot be read (see `read_bytes`); its message
            names the file.
    """
    try:
        return kind_of_bytes(read_head(path))
    except FileRefused as error:
        raise error.located(str(path)) from error


# --- JSON -------------------------------------------------------------------------------

class JsonValueError(ValueError):
    """A JSON value refused by `parse_json`; `problem` says which and why."""

    def __init__(self, problem: str, token: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.token = token
        """The text of the refused value, to find its line."""


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise JsonValueError(f"an integer of {len(text.lstrip('-'))} digits (at most "
                             f"{MAX_INT_DIGITS} are allowed)", text)
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonValueError(f"the number {text[:40]} is too large (infinite)", text)
    return value


def _parse_constant(name: str) -> Any:
    raise JsonValueError(f"{name} is not a number allowed in a game file", name)


def parse_json(text: str) -> Any:
    """JSON text as plain data, with NaN, infinities and over-long integers refused.

    Raises:
        json.JSONDecodeError: not JSON (``lineno``/``colno`` give the place).
        JsonValueError: a refused value (`json_position` finds its place).
        RecursionError: nested too deeply.
    """
    return json.loads(text, parse_int=_parse_int, parse_float=_parse_float,
                      parse_constant=_parse_constant)


def json_position(text: str, token: str) -> tuple[int, int] | None:
    """``(line, column)`` (1-based) of the first occurrence of `token` as a value, or None."""
    index = text.find(token)
    while index > 0 and text[index - 1].isalnum():
        index = text.find(token, index + 1)
    if index < 0:
        return None
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


__all__ = ["HEAD_BYTES", "MAX_INT_DIGITS", "FileKind", "FileRefused", "JsonValueError",
           "decode_text", "json_position", "kind_of", "kind_of_bytes", "parse_json",
           "read_bytes", "read_head", "read_text"]
