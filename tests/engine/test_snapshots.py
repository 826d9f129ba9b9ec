"""Snapshots give the same state as a full replay, and copies are independent."""

from __future__ import annotations

from pathlib import Path

from desk18xx.commands.replay import import_setup
from desk18xx.engine.actions import action_from_dict
from desk18xx.engine.snapshots import SnapshotReplayer
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title

FIXTURE = (Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
           / "1867" / "hs_ahjzadkh_19792.json")


def test_undo_through_snapshots_matches_full_replay() -> None:
    imported = load_export(FIXTURE)
    setup = import_setup(imported)
    title = find_title(imported.title)
    actions = [action_from_dict(raw) for raw in imported.actions]
    replayer = SnapshotReplayer(lambda: title.new_game(setup), every=40)
    full = replayer.game_after(actions)
    assert full.finished and full.result() == {str(k): v for k, v in
                                               (imported.result or {}).items()}
    back = replayer.game_after(actions, 150)  # "undo" to action 150
    fresh = title.new_game(setup)
    for a in actions[:150]:
        fresh.process(a)
    assert back.result() == fresh.result() and back.cash == fresh.cash
    # the snapshot copy is independent of the game it came from
    back.cash[back.players[0].id] += 1
    again = replayer.game_after(actions, 150)
    assert again.cash == fresh.cash


def test_why_illegal_leaves_the_game_untouched() -> None:
    from desk18xx.engine.actions import Bid

    imported = load_export(FIXTURE)
    game = find_title(imported.title).new_game(import_setup(imported))
    first = game.legal_actions().entity
    assert first is not None
    cash = dict(game.cash)
    reason = game.why_illegal(Bid(entity=first, company="C&SL", price=5))
    assert reason is not None and "minimum" in reason
    assert game.why_illegal(Bid(entity=first, company="C&SL", price=20)) is None
    assert game.cash == cash and game.companies["C&SL"].owner is None
