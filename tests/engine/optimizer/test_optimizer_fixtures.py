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
    # runs whose declared routes the engine rejects are counted apart, each listed
    assert summary["higher"] + summary["equal"] + summary["rejected"] == summary["calls"]
    assert len(summary.get("declared_rejected", [])) == summary["rejected"]


def test_fixtures_are_present() -> None:
    # CI has ../shared beside the clone; without it the audit above would test nothing
    assert len(FILES) == 6, FIXTURES


def test_routes_audit_prints_one_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    small = min(FILES_1867, key=lambda p: p.stat().st_size)
    assert main(["routes-audit", str(small)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    for key in ("calls", "higher", "equal", "lower", "rejected", "median", "p90", "p99", "max",
                "cpu_median", "cpu_p90", "cpu_p99", "cpu_max"):
        assert key in data
    assert data["lower"] == 0


def test_a_rejected_declared_run_is_counted_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    import desk18xx.engine.optimizer as optimizer
    from desk18xx.engine.errors import IllegalAction

    small = min(FILES_1867, key=lambda p: p.stat().st_size)
    real = optimizer.engine_revenues
    calls = [0]

    def engine_revenues(game: object, corp: str, routes: object) -> list[int]:
        # audit prices only the declared routes through the package (best_routes
        # checks its own answer through games.engine_revenues)
        calls[0] += 1
        if calls[0] % 2:
            raise IllegalAction("test: every other declared run is refused")
        return real(game, corp, routes)  # type: ignore[arg-type]

    monkeypatch.setattr(optimizer, "engine_revenues", engine_revenues)
    summary = audit(str(small))
    refused = summary["declared_rejected"]
    assert summary["rejected"] == len(refused) > 0
    assert summary["higher"] + summary["equal"] + summary["rejected"] == summary["calls"]
    assert summary["lower"] == 0
    for item in refused:
        assert item["reason"] == "test: every other declared run is refused"
        assert {"id", "corp", "recorded", "ours"} <= set(item)
