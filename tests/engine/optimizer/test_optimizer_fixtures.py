"""routes-audit on the shared 18xx.games fixtures: never below a declared run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desk18xx.cli import main
from desk18xx.commands.routes_audit import audit

FIXTURES = Path(__file__).resolve().parents[4] / "shared" / "fixtures" / "18xx.games"
FILES = sorted(FIXTURES.glob("*/*.json")) if FIXTURES.is_dir() else []
FILES_1867 = [p for p in FILES if p.parent.name == "1867"]


def _declared_runs(path: Path) -> int:
    from desk18xx.io.import_18xxgames import load_export

    return sum(1 for a in load_export(path).actions if a.get("type") == "run_routes")


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fixture_optimum_never_below_declared(path: Path) -> None:
    summary = audit(str(path))
    # the whole game replays, and every declared run is audited
    assert "replay_failure" not in summary, summary.get("replay_failure")
    assert "error" not in summary, summary.get("error")
    assert summary["calls"] == _declared_runs(path)
    assert summary["lower"] == 0
    assert "problems" not in summary, summary.get("problems")
    assert summary["higher"] + summary["equal"] == summary["calls"]


def test_fixtures_are_present() -> None:
    # CI has ../shared beside the clone; without it the audit above would test nothing
    assert len(FILES) == 6, FIXTURES


def test_routes_audit_prints_one_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    small = min(FILES_1867, key=lambda p: p.stat().st_size)
    assert main(["routes-audit", str(small)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    for key in ("calls", "higher", "equal", "lower", "median", "p90", "max"):
        assert key in data
    assert data["lower"] == 0
