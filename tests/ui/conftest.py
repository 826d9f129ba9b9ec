"""UI tests run offscreen; Qt reads the platform when the application starts."""

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def _user_data(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
               ) -> Path:
    """Settings, autosaves and e-mail copies go to a fresh folder, never the user's."""
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("DESK18XX_DATA", str(folder))
    return folder
