"""desk18xx.ui.preflight names a missing system library and its apt package."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from desk18xx.ui import preflight


def test_missing_library_is_read_from_the_loader_error() -> None:
    error = ImportError("libEGL.so.1: cannot open shared object file: No such file or directory")
    assert preflight.missing_library(error) == "libEGL.so.1"
    assert preflight.missing_library(OSError("libxkbcommon.so.0: cannot open")) == (
        "libxkbcommon.so.0"
    )
    assert preflight.missing_library(ImportError("No module named 'PySide6'")) is None


def test_message_names_library_and_package() -> None:
    message = preflight.explain("libEGL.so.1")
    assert "libEGL.so.1" in message
    assert "sudo apt-get install libegl1" in message


def test_unknown_library_still_explained() -> None:
    message = preflight.explain("libfoo.so.9")
    assert "libfoo.so.9" in message
    assert "apt-get install libfoo" not in message


def test_no_soname_shows_the_reason() -> None:
    message = preflight.explain(None, ImportError("No module named 'PySide6'"))
    assert "No module named 'PySide6'" in message


def test_xcb_only_when_it_will_be_used() -> None:
    assert preflight._will_use_xcb({"DISPLAY": ":0"})
    assert not preflight._will_use_xcb({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"})
    assert not preflight._will_use_xcb({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"})
    assert preflight._will_use_xcb({"QT_QPA_PLATFORM": "xcb"})
    assert not preflight._will_use_xcb({})


def test_module_imports_no_qt() -> None:
    code = (
        "import sys, desk18xx.ui.preflight\n"
        "print(any(m.startswith('PySide6') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_cli_reports_missing_libegl_instead_of_a_traceback() -> None:
    """Qt failing to load, as on a bare Linux without libEGL, exits 3 with a message."""
    code = textwrap.dedent(
        """
        import sys
        from importlib.abc import MetaPathFinder

        class NoEGL(MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name == "PySide6.QtGui":
                    raise ImportError(
                        "libEGL.so.1: cannot open shared object file: No such file or directory"
                    )
                return None

        sys.meta_path.insert(0, NoEGL())
        from desk18xx.cli import main
        sys.exit(main(["--screenshot", "never.png"]))
        """
    )
    env = {"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert result.returncode == 3, result.stderr
    assert "libEGL.so.1" in result.stderr
    assert "sudo apt-get install libegl1" in result.stderr
    assert "Traceback" not in result.stderr


def test_every_checked_xcb_library_has_a_package() -> None:
    assert all(preflight.apt_package(lib) for lib in preflight.XCB_LIBRARIES)
