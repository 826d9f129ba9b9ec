"""Golden replays: every 1867 fixture reaches its recorded result (STYLE.md §8).

After every action money is conserved and no certificate is oversold.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from desk18xx.engine.actions import action_from_dict
from desk18xx.engine.game import GameSetup
from desk18xx.engine.invariants import violations
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
FILES_1867 = sorted((FIXTURES / "1867").glob("*.json"))


@pytest.mark.parametrize("path", FILES_1867, ids=lambda p: p.name)
def test_1867_fixture_replays_to_recorded_result(path: Path) -> None:
    imported = load_export(path)
    game = find_title(imported.title).new_game(GameSetup(
        imported.title, tuple((p.id, p.name) for p in imported.players), imported.seed,
        tuple(imported.optional_rules) + ("compat_18xxgames",)))
    money = game.total_money()
    for index, raw in enumerate(imported.actions):
        game.process(action_from_dict(raw))
        problems = violations(game, money)
        assert not problems, f"after action {index} ({raw.get('type')}): {problems}"
    assert game.finished
    assert game.end_reason == imported.game_end_reason
    assert game.result() == {str(k): v for k, v in (imported.result or {}).items()}


def test_replay_command_checks_a_fixture(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from desk18xx.cli import main

    path = FIXTURES / "1867" / "hs_ahjzadkh_19792.json"
    assert main(["replay", str(path), "--check"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["finished"] and line["end_reason"] == "manually_ended"
    assert line["players"][0] == {"id": 6124, "name": "Player 1"}


def test_replay_check_names_the_first_failing_action(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from desk18xx.cli import main

    data = json.loads((FIXTURES / "1867" / "21268.json").read_text())
    for raw in data["actions"]:
        if raw["type"] == "run_routes" and raw["routes"]:
            raw["routes"][0]["revenue"] += 10  # a revenue we will not reproduce
            break
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(data))
    assert main(["replay", str(bad), "--check"]) == 1
    out, err = capsys.readouterr()
    line = json.loads(out)
    assert line["failure"]["type"] == "run_routes" and not line["finished"]
    assert "first failing action: index" in err and "run_routes" in err
