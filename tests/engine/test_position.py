"""The declared position and its versioned digest (docs/save-format.md, "The position")."""

from __future__ import annotations

import re
from pathlib import Path

from desk18xx.commands.replay import replay_export
from desk18xx.engine.digest import (
    POSITION_VERSION,
    digest_version,
    position,
    position_digest,
    state_digest,
)
from desk18xx.engine.game import GameSetup
from desk18xx.titles import find_title

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT.parent / "shared" / "fixtures" / "18xx.games"
DOC = ROOT / "docs" / "save-format.md"


def _fresh(title: str, players: int = 4) -> object:
    setup = GameSetup(title, tuple((f"p{i}", f"P{i}") for i in range(players)), seed=7)
    return find_title(title).new_game(setup)


def test_the_digest_is_versioned() -> None:
    game = _fresh("1867")
    digest = state_digest(game)  # type: ignore[arg-type]
    assert re.fullmatch(r"p1-[0-9a-f]{64}", digest)
    assert digest_version(digest) == POSITION_VERSION == 1
    assert digest_version("ab" * 32) is None  # legacy: before versions
    assert position_digest(game, 1) == digest  # type: ignore[arg-type]


def test_engine_internals_do_not_change_the_digest() -> None:
    """A refactor adds, renames or drops attributes: the declared position stays."""
    for title in ("1867", "1822CA"):
        game = _fresh(title)
        before = state_digest(game)  # type: ignore[arg-type]
        game.some_cache = {"a": 1}  # type: ignore[attr-defined]
        game._private_counter = 3  # type: ignore[attr-defined]
        for step in game.round.steps:  # type: ignore[attr-defined]
            step.new_internal_flag = True
        game.round.scratch = [1, 2]  # type: ignore[attr-defined]
        game.log.append("a log line")  # type: ignore[attr-defined]
        assert state_digest(game) == before, title  # type: ignore[arg-type]
        game.cash["bank"] -= 1  # type: ignore[attr-defined]
        assert state_digest(game) != before, title  # type: ignore[arg-type]


def test_position_covers_the_declared_parts() -> None:
    game = _fresh("1822CA")
    pos = position(game)  # type: ignore[arg-type]
    for key in ("version", "title", "players", "bank", "certificates", "privates",
                "corporations", "trains", "depot", "market", "tiles", "tokens", "phase",
                "round", "bid_boxes", "title_state"):
        assert key in pos, key
    assert pos["round"]["acting"] == "p0" and pos["round"]["open"]


def test_every_title_field_is_documented() -> None:
    """docs/save-format.md lists each name of the titles' declared state."""
    text = DOC.read_text(encoding="utf-8")
    for title in ("1867", "1822CA"):
        extra = position(_fresh(title))["title_state"]  # type: ignore[arg-type]
        for name in extra:
            assert f"`{name}`" in text, (title, name)


def test_fixture_end_positions_differ_and_are_stable() -> None:
    """Each recorded game ends in its own position; replaying twice gives the same."""
    digests = {}
    for path in sorted(FIXTURES.glob("*/*.json")):
        _imported, first = replay_export(str(path))
        _imported, second = replay_export(str(path))
        digests[path.name] = state_digest(first.game)
        assert digests[path.name] == state_digest(second.game), path.name
    assert len(digests) == 6 and len(set(digests.values())) == 6
