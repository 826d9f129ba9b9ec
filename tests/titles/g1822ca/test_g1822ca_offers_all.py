"""Offer = accept for every 1822CA move kind (issue 15), in 1822CA, ERS and WRS.

At sampled positions of the 18xx.games fixtures (replayed as ``desk18xx replay``
does) and of random games (rulebook mode and ``compat_18xxgames``):

- every recorded or played action is decided by the offers (never left to a step)
  and matches an allowed offer;
- moves built from the allowed offers of everyone who may act (`Game.acting_entities`:
  the entity the round waits for and the privates acting for it) are accepted;
- a move the offers do not contain (an identity field changed to a value no offer
  names: a choice, a dividend kind, a train, a company, a city, a hex) is refused.
"""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path

import pytest

from desk18xx.commands.replay import import_setup
from desk18xx.engine.actions import STATE_NEUTRAL, Action, action_from_dict
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game, GameSetup
from desk18xx.engine.offers import Offer, entity_type_of, match_offer, pick_move
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title
from desk18xx.titles.g1822ca.game import G1822CA

FIXTURES = Path(__file__).resolve().parents[3].parent / "shared" / "fixtures" / "18xx.games"
FILES = sorted(FIXTURES.glob("1822CA*/*.json"))
STRIDE = 9
"""Every how many positions the offers are tried (recorded actions: all)."""
MOVES_PER_POSITION = 3

#: Identity fields and a value no offer names (not "A1-0-0": A1 is a 1822CA tile).
_STRANGERS: dict[str, object] = {
    "choice": "no-such-choice", "kind": "no-such-kind", "train": "9-99",
    "company": "P99", "corporation": "ZZZ", "city": "ZZ9-9-0", "hex": "ZZ99",
    "target": "ZZ99", "shares": ("ZZZ_9",),
}


class Tally:
    def __init__(self) -> None:
        self.decided = self.accepted = self.refused = 0
        self.kinds: set[str] = set()


def _decided(game: Game, action: Action, where: str, tally: Tally) -> None:
    """``action`` (accepted by the game) is decided by, and matches, an offer."""
    offers = game.deciding_offers(action)
    assert offers is not None, f"{where}: {action.type} is left to the step"
    try:
        match_offer(offers, action)
    except IllegalAction as exc:
        pytest.fail(f"{where}: {action} matches no offer: {exc}")
    tally.decided += 1


def _stranger(move: Action) -> Action | None:
    """``move`` with one identity field set to a value no offer names."""
    for name, value in _STRANGERS.items():
        if hasattr(move, name) and getattr(move, name) not in (None, ""):
            return dataclasses.replace(move, **{name: value})  # type: ignore[arg-type]
    return None


def _try_offers(game: Game, rng: random.Random, where: str, tally: Tally) -> None:
    built: list[tuple[Offer, Action]] = []
    for entity in game.acting_entities():
        kind = entity_type_of(game, entity)
        for offer in game.random_offers(entity, rng):
            if not offer.allowed:
                continue
            moves = list(offer.moves(entity, kind))
            drawn = offer.sample(entity, kind, rng)
            if drawn is not None and drawn not in moves:
                moves.append(drawn)
            built.extend((offer, m) for m in moves)
    for offer, move in rng.sample(built, min(MOVES_PER_POSITION, len(built))):
        try:
            game.copy().process(move)
        except IllegalAction as exc:
            pytest.fail(f"{where}: {offer} offers {move}, refused: {exc}")
        tally.accepted += 1
        tally.kinds.add(move.type)
        stranger = _stranger(move)
        if stranger is None or stranger == move:
            continue
        try:
            game.copy().process(stranger)
        except IllegalAction:
            tally.refused += 1
        else:
            pytest.fail(f"{where}: {stranger} (a field no offer names) was accepted")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_fixture_moves_and_offers_agree(path: Path) -> None:
    imported = load_export(path)
    game = find_title(imported.title).new_game(import_setup(imported))
    assert isinstance(game, G1822CA)
    alias = game._alias  # 18xx.games player ids "1"-"30" are minors here
    rng = random.Random(path.name)
    tally = Tally()
    for index, raw in enumerate(imported.actions):
        action = alias(action_from_dict(raw))
        where = f"{path.name}[{index}]"
        if not game.finished and action.type not in STATE_NEUTRAL | {"undo", "redo",
                                                                     "end_game"}:
            _decided(game, action, where, tally)
            if index % STRIDE == 0:
                _try_offers(game, rng, where, tally)
        game.process(action)
    assert tally.decided > 300 and tally.accepted > 60 and tally.refused > 20, vars(tally)


@pytest.mark.parametrize("title_id", ["1822CA", "1822CA-ERS", "1822CA-WRS"])
@pytest.mark.parametrize("compat", [False, True], ids=["rulebook", "compat"])
def test_random_game_moves_and_offers_agree(title_id: str, compat: bool) -> None:
    title = find_title(title_id)
    rng = random.Random(1522)
    players = tuple((str(i + 1), f"Player {i + 1}") for i in range(4))
    game = title.new_game(GameSetup(title.id, players, 1522,
                                    ("compat_18xxgames",) if compat else ()))
    tally = Tally()
    for index in range(700):
        if game.finished:
            break
        moves = game.legal_moves(rng)
        assert moves, f"{title_id} random[{index}]: no move for {game.acting_entities()}"
        move = pick_move(moves, rng)
        where = f"{title_id} random[{index}]"
        _decided(game, move, where, tally)
        if index % STRIDE == 0:
            _try_offers(game, rng, where, tally)
        game.process(move)
    assert tally.decided > 300 and tally.accepted > 60 and tally.refused > 20, vars(tally)
    assert {"pass", "lay_tile", "run_routes", "buy_train", "bid"} <= tally.kinds, tally.kinds


def test_the_door_decides_every_move_kind_of_the_title() -> None:
    """Every action type a 1822CA step takes is decided by the offers (`COVERED`), and
    each (step, type) a step's `legal` can answer has its offers (`_BUILDERS`)."""
    import inspect

    from desk18xx.titles.g1822ca import offers, rounds

    steps = {*rounds.STOCK_ROUND, *rounds.CHOICES_ROUND, *rounds.OPERATING_ROUND}
    for step in steps:
        source = inspect.getsource(step.legal)
        for name in ("Pass", "Choose", "ChooseAbility", "LayTile", "PlaceToken", "HexToken",
                     "BuyTrain", "SellShares", "BuyShares", "Par", "Bid", "RunRoutes",
                     "Dividend", "Merge", "Assign", "PayoffPlayerDebt",
                     "PayoffPlayerDebtPartial", "DiscardTrainAction",
                     "AcquireCompanyAction"):
            if re.search(rf"\b{name}\b", source):
                cls = offers._CLASSES[_type_of(name)]
                assert cls.type in offers.COVERED
                assert (step, cls.type) in offers._BUILDERS, (step.__name__, cls.type)


def _type_of(name: str) -> str:
    from desk18xx.engine import actions

    cls = {"DiscardTrainAction": actions.DiscardTrain,
           "AcquireCompanyAction": actions.AcquireCompany}.get(name) or getattr(actions, name)
    assert isinstance(cls.type, str)
    return cls.type


def test_a_refusal_names_the_field_and_the_rule() -> None:
    """A dividend kind, a discard and a run no offer holds: each refusal names what."""
    game = find_title("1822CA").new_game(GameSetup(
        "1822CA", tuple((str(i), f"P{i}") for i in range(1, 5)), 3, ()))
    rng = random.Random(3)
    for _ in range(3000):
        entity = game.legal_actions().entity
        offers = game.offers(entity) if entity else ()
        runs = [o for o in offers if o.types == ("run_routes",) and o.allowed]
        if runs:
            from desk18xx.engine.actions import Route, RunRoutes

            bad = RunRoutes(entity=entity or "", entity_type="corporation",
                            routes=(Route(train="9-99"),))
            with pytest.raises(IllegalAction, match=r"^routes: train 9-99 cannot run now "
                                                    r".*\(RB 5\.9\)$"):
                game.copy().process(bad)
            return
        game.process(pick_move(game.legal_moves(rng), rng))
    pytest.fail("no run in the random game")
