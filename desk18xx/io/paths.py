"""Where desk18xx keeps its own files: the user data folder (no Qt).

One place for every per-user file, so the app, the autosave and the
settings agree (docs/save-format.md, "Autosave and crash recovery"):

- `data_dir`: ``$DESK18XX_DATA`` if set, else the platform's user data
  folder (``~/.local/share/desk18xx``, ``%APPDATA%\\desk18xx``,
  ``~/Library/Application Support/desk18xx``); never the install folder.
- `autosave_dir`: ``<data>/autosave`` (markers and autosaves).
- `pbem_dir`: ``<data>/pbem`` (your copy of each e-mail game, the keys you
  pinned for the other players).
- `keys_dir`: ``<data>/keys`` (the local players' private signing keys).
- `settings_file`: ``<data>/settings.ini`` (window layout, PBEM choices; the
  UI opens it with ``QSettings(path, IniFormat)``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

import platformdirs

APP_FOLDER: Final = "desk18xx"
AUTOSAVE_FOLDER: Final = "autosave"
PBEM_FOLDER: Final = "pbem"
KEYS_FOLDER: Final = "keys"
SETTINGS_FILE: Final = "settings.ini"


def data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The user data folder of desk18xx (not created here).

    ``$DESK18XX_DATA`` wins; otherwise the platform's user data folder as
    `platformdirs` finds it (``$XDG_DATA_HOME/desk18xx``, by default
    ``~/.local/share/desk18xx``, on Linux; ``%APPDATA%\\desk18xx`` on Windows;
    ``~/Library/Application Support/desk18xx`` on macOS).

    Args:
        environ: environment variables for the override (default: ``os.environ``).
    """
    env = os.environ if environ is None else environ
    if env.get("DESK18XX_DATA"):
        return Path(env["DESK18XX_DATA"])
    return platformdirs.user_data_path(APP_FOLDER, appauthor=False, roaming=True)


def autosave_dir(data: Path | None = None) -> Path:
    """Where sessions keep their markers and autosaves."""
    return (data_dir() if data is None else data) / AUTOSAVE_FOLDER


def pbem_dir(data: Path | None = None) -> Path:
    """Where your own copies of e-mail games are kept."""
    return (data_dir() if data is None else data) / PBEM_FOLDER


def keys_dir(data: Path | None = None) -> Path:
    """Where the local players' signing keys are kept (`desk18xx.io.signing.KeyStore`)."""
    return (data_dir() if data is None else data) / KEYS_FOLDER


def settings_file(data: Path | None = None) -> Path:
    """The settings file (INI) of the app."""
    return (data_dir() if data is None else data) / SETTINGS_FILE


__all__ = ["APP_FOLDER", "AUTOSAVE_FOLDER", "KEYS_FOLDER", "PBEM_FOLDER", "SETTINGS_FILE",
           "autosave_dir", "data_dir", "keys_dir", "pbem_dir", "settings_file"]
