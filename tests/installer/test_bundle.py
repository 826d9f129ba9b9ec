"""The Linux player bundle builds from a clean clone and runs without Python.

Builds once per session (about a minute and a half on 2 cores): ``git clone``
of this repository, ``installer/build_linux.sh`` with the running Python (it
installs PyInstaller if missing), then unpacks the ``.tar.gz`` and runs the
bundled ``desk18xx`` in an environment with no Python on ``PATH``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="builds the Linux bundle"),
]

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT.parent / "shared" / "fixtures" / "18xx.games" / "1867" / "21268.json"
#: what the placeholder run_app prints when it cannot open games yet (desk18xx/ui/app.py)
BUILD_TIMEOUT = 1200


def _png_pixels(path: Path) -> tuple[int, int, int]:
    """Width, height and the number of distinct colours on a coarse grid."""
    from PySide6.QtGui import QImage

    image = QImage(str(path))
    assert not image.isNull(), f"{path} is not a readable image"
    colours = {
        image.pixel(x, y)
        for x in range(0, image.width(), 16)
        for y in range(0, image.height(), 16)
    }
    return image.width(), image.height(), len(colours)


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``folder`` with its size and modification time."""
    return {
        str(p.relative_to(folder)): (p.lstat().st_size, p.lstat().st_mtime_ns)
        for p in folder.rglob("*")
    }


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The unpacked bundle folder, built from a clean clone of HEAD."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a git checkout")
    work = tmp_path_factory.mktemp("bundle")
    clone = work / "desk18xx"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    env = {**os.environ, "DESK18XX_BUILD_PYTHON": sys.executable}
    build = subprocess.run(
        ["bash", "installer/build_linux.sh"],
        cwd=clone, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    archives = sorted((clone / "dist").glob("desk18xx-*-linux-*.tar.gz"))
    assert len(archives) == 1, archives
    unpacked = work / "unpacked"
    with tarfile.open(archives[0]) as tar:
        tar.extractall(unpacked, filter="tar")
    shutil.rmtree(clone)  # the build's scratch (several hundred MB); the tarball is unpacked
    (folder,) = unpacked.iterdir()
    yield folder


def _player_env(home: Path) -> dict[str, str]:
    """A player's session: no Python on PATH, no venv, data folders under ``home``."""
    return {
        "PATH": "/usr/local/sbin:/usr/sbin:/sbin:/usr/bin:/bin",
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_RUNTIME_DIR": str(home / "run"),
        "QT_QPA_PLATFORM": "offscreen",
        "LANG": "C.UTF-8",
    }


def _run(folder: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (home / "run").mkdir(parents=True, exist_ok=True, mode=0o700)
    return subprocess.run(
        [str(folder / "desk18xx"), *args],
        cwd=home, env=_player_env(home), capture_output=True, text=True, timeout=120,
    )


def test_bundle_layout(bundle: Path) -> None:
    """Program, game data, icons and the Linux desktop files are all inside."""
    from desk18xx import __version__

    assert bundle.name.startswith(f"desk18xx-{__version__}-linux-")
    internal = bundle / "_internal"
    for path in (
        bundle / "desk18xx",
        bundle / "install.sh",
        bundle / "uninstall.sh",
        bundle / "share" / "desk18xx.desktop",
        bundle / "share" / "desk18xx-mime.xml",
        internal / "maps" / "1867" / "map.yaml",
        internal / "maps" / "1822CA" / "map.yaml",
        internal / "resources" / "icons" / "desk18xx-256.png",
    ):
        assert path.is_file(), path
    assert list(internal.glob("libpython3*.so*")), "Python is not bundled"
    for path in bundle.rglob("*"):
        if path.is_symlink():
            target = path.resolve()
            assert target.is_relative_to(bundle.resolve()), f"{path} points outside: {target}"


def test_version_without_python(bundle: Path, tmp_path: Path) -> None:
    from desk18xx import __version__

    result = _run(bundle, tmp_path, "--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"desk18xx {__version__}"


def test_screenshot(bundle: Path, tmp_path: Path) -> None:
    """The window opens offscreen and a real picture is saved; the bundle is unchanged."""
    before = _snapshot(bundle)
    out = tmp_path / "window.png"
    result = _run(bundle, tmp_path, "--screenshot", str(out))
    assert result.returncode == 0, result.stderr
    assert out.is_file() and out.stat().st_size > 5_000
    width, height, colours = _png_pixels(out)
    assert (width, height) == (1280, 800)
    assert colours > 3, "the screenshot is blank"
    assert _snapshot(bundle) == before, "the app wrote into its own bundle"


def test_bundled_maps_are_found(bundle: Path, tmp_path: Path) -> None:
    """A tool that reads maps/ works from the bundle (no DESK18XX_MAPS set outside)."""
    if not (bundle / "_internal" / "maps" / "1867").is_dir():
        pytest.fail("maps/1867 is not bundled")
    out = tmp_path / "1867.png"
    result = _run(bundle, tmp_path, "render-map", "1867", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert _png_pixels(out)[2] > 3


def test_opens_a_recorded_game(bundle: Path, tmp_path: Path) -> None:
    """The bundled app opens an 18xx.games export given on its command line."""
    assert FIXTURE.is_file(), f"the recorded game {FIXTURE} is missing (../shared)"
    empty = tmp_path / "empty.png"
    assert _run(bundle, tmp_path, "--screenshot", str(empty)).returncode == 0
    out = tmp_path / "game.png"
    result = _run(bundle, tmp_path, str(FIXTURE), "--screenshot", str(out))
    assert result.returncode == 0, result.stderr
    assert out.is_file()
    assert _png_pixels(out)[2] > 3
    assert out.read_bytes() != empty.read_bytes(), "the game looks like an empty window"


def test_install_and_uninstall(bundle: Path, tmp_path: Path) -> None:
    """install.sh puts the app, menu entry, icons and MIME type in ~; uninstall.sh removes them."""
    home = tmp_path / "home"
    home.mkdir()
    env = _player_env(home)
    result = subprocess.run(
        ["sh", str(bundle / "install.sh")], env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    data = home / ".local" / "share"
    prefix = home / ".local" / "opt" / "desk18xx"
    desktop = (data / "applications" / "desk18xx.desktop").read_text()
    assert f'Exec="{prefix}/desk18xx" %f' in desktop
    assert "MimeType=application/x-desk18xx-save;" in desktop
    assert (data / "mime" / "packages" / "desk18xx.xml").is_file()
    if shutil.which("update-mime-database"):
        assert (data / "mime" / "application" / "x-desk18xx-save.xml").is_file()
    for size in (16, 48, 256, 512):
        assert (data / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "desk18xx.png").is_file()
    link = home / ".local" / "bin" / "desk18xx"
    version = subprocess.run(
        [str(link), "--version"], env=env, capture_output=True, text=True, timeout=60
    )
    assert version.returncode == 0 and version.stdout.startswith("desk18xx ")

    result = subprocess.run(
        ["sh", str(prefix / "uninstall.sh")], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert not prefix.exists()
    assert not link.exists() and not link.is_symlink()
    assert not (data / "applications" / "desk18xx.desktop").exists()
    assert not (data / "mime" / "packages" / "desk18xx.xml").exists()
    assert not list((data / "icons").rglob("desk18xx.png"))
