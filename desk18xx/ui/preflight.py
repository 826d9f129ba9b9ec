"""Check, before any window opens, that Qt can load; name what is missing if not.

Qt's own failures are hard to read (``ImportError: libEGL.so.1: cannot open
shared object file``) or abort the process (the xcb platform plugin without
``libxcb-cursor0``).  :func:`check` turns them into a message that names the
library and the Debian/Ubuntu package that provides it.

This module imports no Qt at module level: it must run when Qt cannot load.
"""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping

#: shared library -> Debian/Ubuntu package that ships it
APT_PACKAGES: dict[str, str] = {
    "libGL.so.1": "libgl1",
    "libEGL.so.1": "libegl1",
    "libOpenGL.so.0": "libopengl0",
    "libGLX.so.0": "libglx0",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libdbus-1.so.3": "libdbus-1-3",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libX11.so.6": "libx11-6",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxcb.so.1": "libxcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-xinerama.so.0": "libxcb-xinerama0",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libwayland-client.so.0": "libwayland-client0",
    "libwayland-cursor.so.0": "libwayland-cursor0",
    "libwayland-egl.so.1": "libwayland-egl1",
}

#: libraries Qt's xcb platform plugin loads only when the first window opens
#: (``readelf -d`` of libqxcb.so and libQt6XcbQpa.so.6, Qt 6.11)
XCB_LIBRARIES: tuple[str, ...] = (
    "libxcb.so.1",
    "libX11.so.6",
    "libX11-xcb.so.1",
    "libxkbcommon-x11.so.0",
    "libxcb-cursor.so.0",
    "libxcb-icccm.so.4",
    "libxcb-image.so.0",
    "libxcb-keysyms.so.1",
    "libxcb-randr.so.0",
    "libxcb-render-util.so.0",
    "libxcb-render.so.0",
    "libxcb-shape.so.0",
    "libxcb-shm.so.0",
    "libxcb-sync.so.1",
    "libxcb-util.so.1",
    "libxcb-xfixes.so.0",
    "libxcb-xkb.so.1",
)

_SONAME = re.compile(r"(lib[A-Za-z0-9_+.-]*?\.so(?:\.\d+)*)")


def apt_package(library: str) -> str | None:
    """The Debian/Ubuntu package for ``library`` (``libEGL.so.1`` -> ``libegl1``)."""
    return APT_PACKAGES.get(library)


def missing_library(error: BaseException) -> str | None:
    """The shared library named in a loader error, if it names one."""
    match = _SONAME.search(str(error))
    return match.group(1) if match else None


def explain(library: str | None, error: BaseException | None = None) -> str:
    """A message a player can act on: what is missing and how to install it."""
    lines = ["desk18xx cannot start: Qt, which draws its window, could not load."]
    if library:
        lines.append(f"The system library {library} is missing.")
        package = apt_package(library)
        if package:
            lines.append(f"On Debian or Ubuntu install it with:  sudo apt-get install {package}")
        else:
            lines.append("Install the package of your system that provides it.")
    elif error is not None:
        lines.append(f"Reason: {error}")
    lines.append(
        "A desktop usually has these; a bare system may lack: libgl1 libegl1 "
        "libxkbcommon0 libfontconfig1 libdbus-1-3 libglib2.0-0 (see README, Install)."
    )
    return "\n".join(lines)


def _will_use_xcb(environ: Mapping[str, str]) -> bool:
    platform = environ.get("QT_QPA_PLATFORM", "")
    if platform:
        return platform.split(":")[0] == "xcb"
    return bool(environ.get("DISPLAY")) and not environ.get("WAYLAND_DISPLAY")


def _loadable(library: str) -> bool:
    try:
        ctypes.CDLL(library)
    except OSError:
        bundle = getattr(sys, "_MEIPASS", None)
        return bool(bundle) and os.path.exists(os.path.join(str(bundle), library))
    return True


def find_problem(environ: Mapping[str, str] | None = None) -> str | None:
    """Try to load Qt; return a readable message if it cannot, else ``None``."""
    environ = os.environ if environ is None else environ
    try:
        import PySide6.QtGui  # noqa: F401
        import PySide6.QtWidgets  # noqa: F401
    except (ImportError, OSError) as exc:
        return explain(missing_library(exc), exc)
    if sys.platform.startswith("linux") and _will_use_xcb(environ):
        for library in XCB_LIBRARIES:
            if not _loadable(library):
                return explain(library)
    return None


def _show(message: str) -> None:
    """Print the message; also show it in a dialog when there is no terminal."""
    print(message, file=sys.stderr)
    if sys.stderr is not None and sys.stderr.isatty():
        return
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        return
    for tool, args in (
        ("zenity", ["--error", "--no-markup", "--title=desk18xx", "--text", message]),
        ("kdialog", ["--title", "desk18xx", "--error", message]),
        ("xmessage", ["-center", message]),
    ):
        path = shutil.which(tool)
        if path:
            subprocess.run([path, *args], check=False)
            return


def check() -> bool:
    """Report a missing system library to the player; ``True`` if Qt can start."""
    problem = find_problem()
    if problem is None:
        return True
    _show(problem)
    return False
