"""Study mode's off-turn sandbox: a tile lay for any company, its best routes before
and after, nothing recorded."""

from __future__ import annotations

from pathlib import Path

import pytest

from desk18xx.engine.actions import LayTile, action_from_dict
from desk18xx.engine.digest import state_digest
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game
from desk18xx.engine.optimizer import engine_revenues
from desk18xx.engine.sandbox import SandboxTrial, best_routes_of, try_tile_lay
from desk18xx.engine.study import Study
from desk18xx.io.study import game_setup, study_from_export
from desk18xx.titles import new_game

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
G1867 = FIXTURES / "1867" / "21268.json"
G1822CA = FIXTURES / "1822CA" / "1822CA_game_end_bank.json"


def _study(path: Path) -> Study:
    assert path.exists(), f"the recorded game {path} is missing (../shared)"
    header, tree = study_from_export(path)
    return Study(game_setup(header), tree, factory=new_game, digests=False)


def _lays_1867(game: Game, corp: str) -> list[LayTile]:
    """Every lay the 1867 track step would allow `corp` now (at most two rotations)."""
    from desk18xx.titles.g1867.steps.track import Track

    step = Track(game.round)  # type: ignore[arg-type]
    step.setup(game)
    out = []
    for hex_id in sorted(step.connected_edges(game, corp)):
        for copy, rotations in step.legal_tiles(game, corp, hex_id):
            out.extend(LayTile(entity=corp, entity_type="corporation", hex=hex_id, tile=copy,
                               rotation=r) for r in rotations[:2])
    return out


def test_an_off_turn_lay_shows_its_effect_on_the_best_routes_and_changes_nothing() -> None:
    study = _study(G1867)
    node = study.tree.main_line()[300]
    study.go_to(node)
    game = study.game
    corp = "PM"
    assert game.legal_actions().entity != corp  # not its turn
    digest, size = state_digest(game), len(study.tree)
    before = best_routes_of(game, corp)
    trials: list[SandboxTrial] = []
    for lay in _lays_1867(game, corp):
        trial = study.try_tile_lay(lay, before=before)
        assert trial.before == before and not trial.on_turn
        assert trial.game.board is not None
        assert trial.game.board.hex(lay.hex).tile_id == lay.tile
        trials.append(trial)
    assert trials
    assert state_digest(study.game) == digest and len(study.tree) == size  # discarded
    assert study.tree.current is node
    best = max(trials, key=lambda t: t.gain)
    assert best.gain > 0
    # the routes after the lay are legal there (priced by the engine) and need the tile
    assert sum(engine_revenues(best.game, corp, best.after.routes)) == best.after.revenue
    try:
        on_old_board = sum(engine_revenues(game, corp, best.after.routes))
    except IllegalAction:
        on_old_board = None
    assert on_old_board is None or on_old_board < best.after.revenue


def test_a_lay_the_rules_refuse_is_refused() -> None:
    study = _study(G1867)
    game = study.game_at(study.tree.main_line()[300])
    reachable = {lay.hex for lay in _lays_1867(game, "PM")}
    far = next(h for h in sorted(game.board.hex_ids()) if h not in reachable  # type: ignore[union-attr]
               and game.board.hex(h).tile.color.value == "white")  # type: ignore[union-attr]
    with pytest.raises(IllegalAction):
        try_tile_lay(game, LayTile(entity="PM", entity_type="corporation", hex=far,
                                   tile="7-0", rotation=0))
    unstarted = next(c for c, corp in game.corps.items() if not corp.floated)
    with pytest.raises(IllegalAction):
        try_tile_lay(game, LayTile(entity=unstarted, entity_type="corporation", hex=far,
                                   tile="7-0", rotation=0))


@pytest.mark.parametrize("path", [G1867, G1822CA], ids=["1867", "1822CA"])
def test_a_recorded_lay_is_the_companys_own_move(path: Path) -> None:
    """A lay recorded in the game, tried before it, is on turn (it may be kept as a
    branch) and puts the same tile down as playing it does."""
    study = _study(path)
    main = study.tree.main_line()
    index = next(i for i in range(len(main) * 2 // 3, len(main))
                 if main[i].type == "lay_tile"
                 and (main[i].action or {}).get("entity_type") == "corporation")
    parent = main[index - 1]
    lay = action_from_dict(dict(main[index].action or {}))
    assert isinstance(lay, LayTile)
    trial = study.try_tile_lay(lay, parent)
    assert trial.on_turn and trial.corp == lay.entity
    played = study.game_at(main[index])
    if path is G1867:
        assert played.board is not None and trial.game.board is not None
        assert trial.game.board.hex(lay.hex).tile_id == played.board.hex(lay.hex).tile_id
    else:
        board = trial.game.map  # type: ignore[attr-defined]
        assert board.hex(lay.hex).tile_id == played.map.hex(lay.hex).tile_id  # type: ignore[attr-defined]
    assert trial.after.revenue >= 0 and trial.before.problem == ""


def test_the_routes_summary_counts_the_mail_subsidy() -> None:
    """1822CA: a major holding a mail contract earns its subsidy besides the routes'
    revenue; the summary carries it as the engine counts it, and a trial's gain
    compares revenue plus subsidy."""
    from desk18xx.commands.replay import import_setup
    from desk18xx.engine.optimizer import engine_subsidy
    from desk18xx.engine.sandbox import RouteSummary
    from desk18xx.io.import_18xxgames import load_export
    from desk18xx.titles import find_title
    from desk18xx.titles.g1822ca import rules as R

    mail = R.PRIVATE_MAIL_CONTRACTS | R.PRIVATE_SMALL_MAIL_CONTRACTS
    imported = load_export(G1822CA)
    game = find_title(imported.title).new_game(import_setup(imported))
    found = None
    for raw in imported.actions:
        if raw["type"] == "run_routes" and raw.get("routes") and \
                mail & set(game.corps[raw["entity"]].companies):
            found = raw["entity"]
            break
        game.process(action_from_dict(raw))
    assert found is not None
    seen: list[tuple[float, int]] = []
    summary = best_routes_of(game, found, progress=lambda f, best: seen.append((f, best)))
    assert summary.subsidy > 0 and summary.routes
    assert seen and all(0 <= f <= 1 for f, _best in seen)
    assert summary.subsidy == engine_subsidy(game, found, summary.routes)
    assert summary.total == summary.revenue + summary.subsidy
    lay = LayTile(entity=found, entity_type="corporation", hex="A1", tile="1-0", rotation=0)
    trial = SandboxTrial(lay, game, RouteSummary(100), RouteSummary(90, subsidy=30), False)
    assert trial.gain == 20
