"""The turn panel offers the engine's legal moves: shares, trains and passes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from desk18xx.engine.actions import BuyShares, BuyTrain, SellShares, action_from_dict
from desk18xx.engine.game import GameSetup
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title
from desk18xx.ui.models.choices import turn_info

pytestmark = pytest.mark.gui

FIXTURE = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "18xx.games" / \
    "1867" / "21268.json"


def _positions():  # type: ignore[no-untyped-def]
    imported = load_export(FIXTURE)
    setup = GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                      imported.seed, tuple(imported.optional_rules) + ("compat_18xxgames",))
    game = find_title("1867").new_game(setup)
    for raw in imported.actions[:400]:
        yield game
        try:
            game.process(action_from_dict(raw))
        except Exception:  # noqa: BLE001 - the engine may stop early; test what we reached
            return


def test_share_and_train_choices_match_the_engine() -> None:
    checked = {"buy_shares": 0, "sell_shares": 0, "buy_train": 0}
    for game in _positions():
        types = game.legal_actions().types
        if not set(types) & set(checked):
            continue
        info = turn_info(game)
        moves = game.legal_moves(random.Random(0))
        made = [c.make(c.spin[3] if c.spin else None) for c in info.choices
                if not c.options and not c.disabled]  # greyed: shown, not playable
        buys = {a.shares for a in made if isinstance(a, BuyShares)}
        assert buys == {m.shares for m in moves if isinstance(m, BuyShares)}
        sells = {a.shares[0].rpartition("_")[0] for a in made if isinstance(a, SellShares)}
        assert sells == {m.shares[0].rpartition("_")[0] for m in moves
                         if isinstance(m, SellShares)}
        trains = {a.train for a in made if isinstance(a, BuyTrain)
                  and game.trains[a.train].owner in ("depot", "pool")}
        assert trains == {m.train for m in moves if isinstance(m, BuyTrain) and m.exchange is None
                          and game.trains[m.train].owner in ("depot", "pool")}
        for t in types:
            if t in checked:
                checked[t] += 1
    assert checked["buy_shares"] > 5 and checked["buy_train"] > 5


def test_1822ca_bids_come_from_the_engine_moves(qtbot) -> None:  # type: ignore[no-untyped-def]
    from desk18xx.ui.session import GameSession

    session = GameSession()
    session.new_game(GameSetup("1822CA", (("1", "Ann"), ("2", "Ben"), ("3", "Cid")), seed=5))
    info = turn_info(session.game)
    bids = [c for c in info.choices if c.label.startswith("Bid on")]
    assert bids and all(c.spin is not None for c in bids)
    first = bids[0]
    assert first.spin is not None
    lo, hi, step, _default = first.spin
    assert step == 5 and hi >= lo
    assert session.submit(first.make(lo + 5))
    assert len(session.actions()) == 1
    again = [c for c in turn_info(session.game).choices if c.label == first.label]
    assert not again or again[0].spin is None or again[0].spin[0] > lo


def test_1822ca_trains_run_on_the_map() -> None:
    import random as _random

    from desk18xx.ui.models.routes import can_build, trains_of
    from desk18xx.ui.session import GameSession

    session = GameSession()
    session.new_game(GameSetup("1822CA", (("1", "Ann"), ("2", "Ben"), ("3", "Cid")), seed=3))
    rng = _random.Random(3)
    for _ in range(900):
        if "run_routes" in session.game.legal_actions().types:
            break
        session.submit(rng.choice(session.game.legal_moves(rng)))
    game = session.game
    info = turn_info(game)
    assert can_build(game) and "run_routes" in info.map_types  # stops clicked on the map
    assert not [c for c in info.choices if c.label.startswith("Run")]  # not a button
    assert info.entity is not None
    assert [r.train for r in trains_of(game, info.entity)] == game.corps[info.entity].trains
