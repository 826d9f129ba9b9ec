"""GameSession: submit, refusal, undo/redo through the log, load, looking back."""

from __future__ import annotations

from pathlib import Path

import pytest

from desk18xx.engine.actions import Action, Bid, Pass
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game, GameSetup
from desk18xx.engine.log import filter_log
from desk18xx.ui.session import GameSession

pytestmark = pytest.mark.gui

FIXTURE = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "18xx.games" / \
    "1867" / "21268.json"
PLAYERS = (("1", "Alice"), ("2", "Bob"), ("3", "Carol"), ("4", "Dave"))


class FakeGame(Game):
    """A counter: passes add one, anything else is refused."""

    title_id = "fake"

    def __init__(self, setup: GameSetup) -> None:
        super().__init__(setup)
        self.count = 0

    def process(self, action: Action) -> None:
        if not isinstance(action, Pass):
            raise IllegalAction(f"{action.type} is not possible in the fake game")
        self.count += 1
        self.actions_applied += 1


def _fake_session() -> GameSession:
    session = GameSession(FakeGame)
    session.new_game(GameSetup("fake", PLAYERS))
    return session


def test_submit_applies_and_signals(qtbot) -> None:  # type: ignore[no-untyped-def]
    session = _fake_session()
    with qtbot.wait_signal(session.state_changed) as blocker:
        assert session.submit(Pass(entity="1"))
    assert blocker.args == [1]
    game = session.game
    assert isinstance(game, FakeGame) and game.count == 1
    assert session.line.raw[-1]["type"] == "pass"


def test_refusal_reports_the_reason(qtbot) -> None:  # type: ignore[no-untyped-def]
    session = _fake_session()
    with qtbot.wait_signal(session.action_rejected) as blocker:
        assert not session.submit(Bid(entity="1", price=5, company="X"))
    assert "not possible in the fake game" in blocker.args[0]
    assert session.actions() == []
    assert session.line.raw == []


def test_undo_and_redo_append_to_the_log() -> None:
    session = _fake_session()
    for _ in range(3):
        session.submit(Pass(entity="1"))
    assert session.undo()
    assert len(session.actions()) == 2 and session.can_redo()
    game = session.game
    assert isinstance(game, FakeGame) and game.count == 2
    assert session.redo()
    assert len(session.actions()) == 3 and not session.can_redo()
    assert [a["type"] for a in session.line.raw] == ["pass"] * 3 + ["undo", "redo"]
    session.undo_to(1)
    assert len(session.actions()) == 1
    session.submit(Pass(entity="2"))
    assert not session.can_redo()
    assert len(session.actions()) == 2


def test_game_at_leaves_the_current_game_alone() -> None:
    session = _fake_session()
    for _ in range(4):
        session.submit(Pass(entity="1"))
    early = session.game_at(1)
    assert isinstance(early, FakeGame) and early.count == 1
    game = session.game
    assert isinstance(game, FakeGame) and game.count == 4


def test_real_1867_game_bids_and_undoes() -> None:
    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=7))
    legal = session.game.legal_actions()
    company = str(legal.details["company"])
    minimum = int(str(legal.details["min_bid"]))
    assert session.submit(Bid(entity=str(legal.entity), price=minimum, company=company))
    assert session.game.legal_actions().entity != legal.entity
    session.undo()
    assert session.game.legal_actions().entity == legal.entity
    assert session.rounds()[:0] == []


def test_load_an_export_replays_it(qtbot) -> None:  # type: ignore[no-untyped-def]
    session = GameSession()
    with qtbot.wait_signal(session.game_replaced):
        session.load(FIXTURE)
    assert len(session.actions()) > 50
    assert len(session.rounds()) == len(session.actions())
    assert session.game.setup.title == "1867"


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=11))
    legal = session.game.legal_actions()
    company = str(legal.details["company"])
    session.submit(Bid(entity=str(legal.entity), price=int(str(legal.details["min_bid"])),
                       company=company))
    session.submit(Pass(entity=str(session.game.legal_actions().entity)))
    session.undo()
    path = tmp_path / "game.d18xx"
    session.save(path)
    again = GameSession()
    again.load(path)
    assert len(again.actions()) == 1
    assert again.can_redo()
    assert again.game.cash == session.game.cash


def test_undo_from_a_snapshot_equals_a_full_replay() -> None:
    from desk18xx.engine.digest import state_digest

    session = GameSession()
    session.load(FIXTURE)
    n = len(session.actions())
    assert n > 60
    session.undo(30)
    fresh = GameSession()
    fresh.new_game(session.game.setup)
    for action in session.actions():
        assert fresh.submit(action)
    assert state_digest(session.game) == state_digest(fresh.game)
    assert session.rounds() == fresh.rounds()
    assert state_digest(session.game_at(n - 45)) == state_digest(fresh.game_at(n - 45))
    session.redo(30)
    assert len(session.actions()) == n


def test_acting_after_undo_branches_and_keeps_the_old_line() -> None:
    from desk18xx.engine.variations import tree_from_log

    session = _fake_session()
    for _ in range(3):
        session.submit(Pass(entity="1"))
    old_end = session.tree.current
    session.undo(2)
    session.submit(Pass(entity="2"))
    assert len(session.tree) == 1 + 3 + 1 and old_end in session.tree
    assert not session.can_redo()
    session.undo()
    assert session.redo() and session.line.raw[-1]["type"] == "redo"
    assert session.go_to(old_end)
    assert len(session.actions()) == 3 and session.tree.current is old_end
    game = session.game
    assert isinstance(game, FakeGame) and game.count == 3
    assert [str(a["entity"]) for a in filter_log(session.line.raw).actions] == ["1"] * 3
    # the linear log (autosave, e-mail) still holds both lines
    again = tree_from_log(session.line.raw)
    assert len(again) == len(session.tree)


def test_a_view_jumping_in_the_tree_moves_the_session(qtbot) -> None:  # type: ignore[no-untyped-def]
    session = _fake_session()
    for _ in range(4):
        session.submit(Pass(entity="1"))
    target = session.tree.path()[1]
    with qtbot.wait_signal(session.state_changed) as blocker:
        session.tree.go_to(target)
    assert blocker.args == [2]
    session.tree.delete(target)  # the current line is deleted: back to its parent
    assert len(session.actions()) == 1 and not session.can_redo()


def test_jumping_back_to_another_line_replays_from_a_snapshot() -> None:
    from desk18xx.ui.session import SNAPSHOT_EVERY

    calls: list[str] = []

    class Counting(FakeGame):
        def process(self, action: Action) -> None:
            calls.append(action.type)
            super().process(action)

    session = GameSession(Counting)
    session.new_game(GameSetup("fake", PLAYERS))
    for _ in range(60):
        session.submit(Pass(entity="1"))
    end = session.tree.current
    session.go_to(session.tree.path()[4])
    session.submit(Pass(entity="2"))
    calls.clear()
    assert session.go_to(end)
    assert len(calls) <= SNAPSHOT_EVERY
    game = session.game
    assert isinstance(game, FakeGame) and game.count == 60
