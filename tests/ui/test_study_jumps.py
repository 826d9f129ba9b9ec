"""pytest-qt: jumps between nodes of the history tree come from stored positions and
keep the session (game, log, rounds, linear log) exactly as a replay would."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from desk18xx.engine.actions import Pass
from desk18xx.engine.digest import state_digest
from desk18xx.engine.log import filter_log
from desk18xx.engine.variations import action_key
from desk18xx.io.study import game_setup, study_from_export
from desk18xx.ui.session import GameSession

SMALL = (Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
         / "1867" / "hs_ahjzadkh_19792.json")

pytestmark = [pytest.mark.gui]


def test_random_jumps_match_a_replay_and_keep_the_log_short() -> None:
    header, tree = study_from_export(SMALL)
    setup = game_setup(header)
    session = GameSession()
    session.new_game(setup, [dict(a) for a in tree.actions()], tree)
    main = tree.main_line()
    # two variations: passing instead of bidding early, and another late move
    session.go_to(main[2])
    assert session.submit(_pass(session))
    session.go_to(main[150])
    assert session.submit(_pass(session))
    nodes = list(tree.nodes())
    rng = random.Random(8)
    replayed = session.positions.stats.replayed if session.positions else 0
    for step in range(30):
        target = rng.choice(nodes)
        size = len(session.line.raw)
        session.go_to(target)
        assert session.tree.current is target and len(session.actions()) == target.depth
        # the log: at most one undo, then the actions of the new line (or redos)
        assert len(session.line.raw) - size <= 1 + target.depth
        keys = [action_key(a) for a in filter_log(session.line.raw).actions]
        assert keys == [action_key(a) for a in tree.actions(target)]
        if step % 6 == 0:  # the same as opening that line afresh
            fresh = GameSession()
            fresh.new_game(setup, [dict(a) for a in tree.actions(target)])
            assert state_digest(session.game) == state_digest(fresh.game)
            assert session.rounds() == fresh.rounds()
            assert [a.to_dict() for a in session.actions()] == [
                a.to_dict() for a in fresh.actions()]
    assert session.positions is not None
    assert session.positions.stats.replayed > replayed  # served by the position cache
    assert any(e.get("type") == "undo" and e.get("action_id") for e in session.line.raw)
    # an undo and a redo in the session still write undo/redo entries
    session.go_to(main[-1])
    before = len(session.line.raw)
    assert session.undo() and session.redo()
    assert [e["type"] for e in session.line.raw[before:]] == ["undo", "redo"]
    assert session.tree.current is main[-1]


def _pass(session: GameSession) -> Pass:
    legal = session.game.legal_actions()
    assert legal.entity is not None and "pass" in legal.types
    return Pass(entity=legal.entity)
