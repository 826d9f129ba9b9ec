"""``desk18xx verify``, ``import``, ``export`` and ``replay`` on save files (in process)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desk18xx.cli import main

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
SMALL = FIXTURES / "1867" / "hs_ahjzadkh_19792.json"


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "game.yaml"
    assert main(["import", str(SMALL), "--out", str(path)]) == 0
    return path


def test_import_then_verify_and_replay(imported: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    assert main(["verify", str(imported)]) == 0
    assert "OK: 1867, 4 players" in capsys.readouterr().out
    assert main(["replay", "--check", str(imported)]) == 0
    out = json.loads(capsys.readouterr().out)
    expected = json.loads(SMALL.read_text())
    assert out["finished"] and out["end_reason"] == expected["game_end_reason"]
    assert out["result"] == expected["result"]


def test_export_then_import_gives_the_same_game(imported: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    exported = tmp_path / "out.json"
    again = tmp_path / "again.yaml"
    assert main(["export", str(imported), "--format", "18xx.games", "--out", str(exported)]) == 0
    assert main(["replay", "--check", str(exported)]) == 0
    assert main(["import", str(exported), "--out", str(again)]) == 0
    assert again.read_text() == imported.read_text()
    capsys.readouterr()
