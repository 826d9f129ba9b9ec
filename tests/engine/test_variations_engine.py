"""Study mode with the 1867 rules engine: snapshots, digests, transpositions, imports."""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

import pytest

from desk18xx.engine.actions import action_from_dict
from desk18xx.engine.digest import state_digest, state_summary
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game, GameSetup
from desk18xx.engine.positions import PositionCache, SharedData, freeze, thaw
from desk18xx.engine.study import Study, replay
from desk18xx.io.import_18xxgames import load_export
from desk18xx.io.savefile import SaveHeader
from desk18xx.io.study import game_setup, load_study, save_study, study_from_export
from desk18xx.titles import find_title

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
SMALL = FIXTURES / "1867" / "hs_ahjzadkh_19792.json"



def setup_of(path: Path) -> GameSetup:
    return game_setup(study_from_export(path)[0])


def new_game(setup: GameSetup) -> Game:
    return find_title(setup.title).new_game(setup)


@lru_cache(maxsize=1)
def reference_digests() -> tuple[str, ...]:
    """Digest after each action of the small game, by plain replay."""
    imported = load_export(SMALL)
    game = new_game(setup_of(SMALL))
    out = [state_digest(game)]
    for raw in imported.actions:
        game.process(action_from_dict(raw))
        out.append(state_digest(game))
    return tuple(out)


def test_snapshots_share_title_data_and_are_independent() -> None:
    game = new_game(setup_of(SMALL))
    shared = SharedData()
    snapshot = freeze(game, shared)
    one, two = thaw(snapshot, shared), thaw(snapshot, shared)
    assert one is not two and one.cash is not two.cash
    assert one.board is not None and two.board is not None and game.board is not None
    hex_id = game.board.hex_ids()[0]
    assert one.board.hex_def(hex_id) is game.board.hex_def(hex_id)  # shared, not copied
    one.cash["bank"] -= 1
    assert two.cash["bank"] == game.cash["bank"]
    assert state_digest(two) == state_digest(game)


def test_every_jump_gives_the_replayed_position() -> None:
    header, tree = study_from_export(SMALL)
    cache = PositionCache(tree, lambda: new_game(setup_of(SMALL)), budget=0.002, every=7,
                          max_snapshots=20)
    main = tree.main_line()
    expected = reference_digests()
    rng = random.Random(5)
    for index in [len(main) - 1, 0, 3, *rng.sample(range(len(main)), 40), 50, 49, 51]:
        game = cache.game_at(main[index])
        assert state_digest(game) == expected[index + 1], index
        assert main[index].digest == expected[index + 1]
    assert cache.stats.evicted > 0 and len(cache) <= 20
    # a changed game does not change the cache
    game = cache.game_at(main[10])
    game.cash["bank"] += 1000
    assert state_digest(cache.game_at(main[10])) == expected[11]


def test_digest_summary_is_plain_and_leaves_history_out() -> None:
    game = new_game(setup_of(SMALL))
    summary = state_summary(game)
    assert {"players", "corporations", "tiles", "round", "phase", "market"} <= set(summary)
    before = state_digest(game)
    game.log.append("text")
    game.actions_applied += 3
    game.entries += 3  # log entries counted (messages too): history, not position
    assert state_digest(game) == before
    game.cash["bank"] -= 1
    assert state_digest(game) != before
    assert len(set(reference_digests())) == len(reference_digests())  # all 222 differ


def test_transpositions_are_found() -> None:
    """The same position by two orders: a chat line before or after a bid."""
    setup = setup_of(SMALL)
    study = Study(setup, factory=new_game)
    first = load_export(SMALL).actions[0]
    chat = {"type": "message", "entity": 6124, "entity_type": "player", "message": "hi"}
    a = study.play(first)
    a2 = study.play(chat)
    study.go_to(study.tree.root)
    b = study.play(chat)
    b2 = study.play(first)
    assert a2 is not b2
    assert study.transpositions(b2) == [a, a2]
    assert study.transpositions(a) == [a2, b2]
    assert study.transpositions(b) != [a]  # the start position is not the bid position


def test_study_play_refuses_illegal_moves_and_keeps_the_tree() -> None:
    study = Study(setup_of(SMALL), factory=new_game)
    before = state_digest(study.game)
    with pytest.raises(IllegalAction):
        study.play({"type": "bid", "entity": 671, "entity_type": "player",
                    "company": "C&SL", "price": 20})  # not 671's turn
    assert len(study.tree) == 1
    assert state_digest(study.game) == before
    node = study.play({"type": "pass", "entity": 6124, "entity_type": "player"})
    assert study.current is node and node.digest == state_digest(study.game)
    assert study.undo() is study.tree.root and study.redo() is node


def test_a_study_from_a_recorded_game_branches_anywhere(tmp_path: Path) -> None:
    header, tree = study_from_export(SMALL)
    imported = load_export(SMALL)
    study = Study(setup_of(SMALL), tree, factory=new_game)
    main = tree.main_line()
    assert len(main) == len(imported.actions) == 221
    # branch in the middle of the auction: pass instead of the recorded bid
    study.go_to(main[2])
    assert study.game.legal_actions().entity == "6120"
    assert main[3].type == "bid"
    branch = study.play({"type": "pass", "entity": 6120, "entity_type": "player"})
    assert branch.parent is main[2] and branch not in main
    then = study.play({"type": "pass", "entity": 6124, "entity_type": "player"})
    assert then.parent is branch
    # the recorded game is intact and still reaches its result
    assert tree.main_line() == main
    study.go_to(main[-1])
    assert study.game.finished
    assert study.game.result() == {str(k): v for k, v in (imported.result or {}).items()}
    # a late branch: the game just before the end, without replaying from the start
    study.go_to(main[-5])
    replayed = study.cache.stats.replayed
    study.go_to(main[-3])
    assert study.game is not None
    assert study.cache.stats.replayed - replayed <= 16
    # the study file keeps both lines and the marks
    tree.set_note(branch, "what if Player 4 lets C&SL go?")
    tree.set_marks(branch, ["interesting"])
    path = tmp_path / "study.yaml"
    save_study(path, header, tree, state_digest(study.game_at(main[-1])))
    loaded = load_study(path, replay_digest=lambda saved: state_digest(
        replay(setup_of(SMALL), saved.effective_actions(), new_game)))
    again = loaded.tree.node(branch.id)
    assert again.note == "what if Player 4 lets C&SL go?"
    assert [n.id for n in loaded.tree.main_line()] == [n.id for n in main]
    assert isinstance(header, SaveHeader)


def test_sandbox_tries_a_move_without_recording_it() -> None:
    study = Study(setup_of(SMALL), factory=new_game)
    before = state_digest(study.game)
    tried = study.try_action({"type": "bid", "entity": 6124, "entity_type": "player",
                              "company": "C&SL", "price": 20})
    assert state_digest(tried) != before
    assert len(study.tree) == 1 and state_digest(study.game) == before
    with pytest.raises(IllegalAction):
        study.try_action({"type": "pass", "entity": 671, "entity_type": "player"})
