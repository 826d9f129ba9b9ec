"""Attaching the Pullman and the grain train at the run step (RB 5.9; 18xx.games
G1822CA ``Route#choices``): the moves offered, each applied, and the refusals."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from desk18xx.engine.actions import Choose, RunRoutes, action_from_dict
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import GameSetup
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles.g1822ca.game import G1822CA

FIXTURES = Path(__file__).resolve().parents[3].parent / "shared" / "fixtures" / "18xx.games"
FULL = FIXTURES / "1822CA" / "1822CA_game_end_bank.json"
ERS = FIXTURES / "1822CAERS" / "1822CAERS_game_end_bank.json"


def _game_at(path: Path, live: int) -> G1822CA:
    """The recorded game just before its live action ``live``."""
    imported = load_export(path)
    game = G1822CA(GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                             imported.seed, ("compat_18xxgames",)))
    game.loading = True
    for raw in imported.actions[:live]:
        game.process(action_from_dict(raw))
    game.loading = False
    return game


@pytest.fixture(scope="module")
def grain_game() -> G1822CA:
    """GTP with its grain train and a 2P at its run (live action 453 attaches G)."""
    return _game_at(FULL, 453)


@pytest.fixture(scope="module")
def pullman_game() -> G1822CA:
    """ERS GT with a 2P, a 5 and the Pullman at its run (live action 681: choose 1)."""
    return _game_at(ERS, 681)


def _choices(game: G1822CA) -> list[str]:
    moves = game.legal_moves_of(random.Random(0), {"choose"})
    assert all(isinstance(m, Choose) for m in moves)
    return [m.choice for m in moves if isinstance(m, Choose)]


def _choose(game: G1822CA, corp: str, choice: str) -> G1822CA:
    trial = game.copy()
    assert isinstance(trial, G1822CA)
    trial.process(Choose(entity=corp, entity_type="corporation", choice=choice))
    return trial


def test_grain_train_choices_are_offered_with_labels(grain_game: G1822CA) -> None:
    legal = grain_game.legal_actions()
    assert legal.entity == "GTP" and legal.step == "RouteStep"
    assert set(legal.types) == {"run_routes", "choose"}
    assert _choices(grain_game) == ["None", "0"]
    assert legal.details["choice_labels"] == {
        "None": "Run without the grain train",
        "0": "Attach the grain train to the 2P-train"}
    # the full move list has the run too: running without a choice stays legal
    assert any(isinstance(m, RunRoutes) for m in grain_game.legal_moves(random.Random(0)))


def test_attaching_the_grain_train_then_nothing_is_left(grain_game: G1822CA) -> None:
    after = _choose(grain_game, "GTP", "0")
    assert after.train_with_grain is not None
    assert after.trains[after.train_with_grain].name == "2P"
    assert _choices(after) == []
    assert "choice_labels" not in after.legal_actions().details
    reason = after.why_illegal(Choose(entity="GTP", entity_type="corporation", choice="0"))
    assert reason == "GTP has no Pullman or grain train left to attach"


def test_skipping_the_grain_train_is_final(grain_game: G1822CA) -> None:
    after = _choose(grain_game, "GTP", "None")
    assert after.train_with_grain is None
    assert _choices(after) == []
    assert after.why_illegal(Choose(entity="GTP", entity_type="corporation",
                                    choice="None")) is not None


@pytest.mark.parametrize("bad", ["1", "7", "-1", "x"])
def test_out_of_range_choice_is_refused(grain_game: G1822CA, bad: str) -> None:
    reason = grain_game.why_illegal(Choose(entity="GTP", entity_type="corporation",
                                           choice=bad))
    assert reason is not None and "choose 0 to 0, or None" in reason
    with pytest.raises(IllegalAction):
        grain_game.copy().process(Choose(entity="GTP", entity_type="corporation",
                                         choice=bad))


def test_pullman_choices_exclude_local_trains(pullman_game: G1822CA) -> None:
    legal = pullman_game.legal_actions()
    assert legal.entity == "GT"
    assert legal.details["choice_labels"] == {
        "None": "Run without the Pullman",
        "0": "Attach the Pullman to the 2P-train",
        "1": "Attach the Pullman to the 5-train"}
    assert _choices(pullman_game) == ["None", "0", "1"]


@pytest.mark.parametrize(("choice", "train"), [("0", "2P"), ("1", "5")])
def test_each_pullman_choice_attaches_to_that_train(pullman_game: G1822CA, choice: str,
                                                    train: str) -> None:
    after = _choose(pullman_game, "GT", choice)
    assert after.train_with_pullman is not None
    assert after.trains[after.train_with_pullman].name == train
    assert _choices(after) == []  # GT has no grain train
    assert after.why_illegal(Choose(entity="GT", entity_type="corporation",
                                    choice=choice)) is not None


def test_the_recorded_run_after_the_recorded_attachment_pays_as_recorded() -> None:
    game = _game_at(ERS, 681)
    imported = load_export(ERS)
    for raw in imported.actions[681:683]:
        game.process(action_from_dict(raw))
    assert game.config.check_routes and game.route_problems == []
    assert game.train_with_pullman == "5-0"  # the run was priced with the Pullman on
