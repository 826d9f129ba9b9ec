"""1867: offer = accept for every kind of move (issue 15).

At sampled positions of both 1867 fixtures (replayed as ``desk18xx replay`` does,
under ``compat_18xxgames``) and of random games by the card and by 18xx.games'
rules:

- every recorded or played action is of a type the offers decide and matches an
  allowed offer (the door lets nothing of 1867 through unchecked);
- every move built from every allowed offer of the acting entity (its listed
  moves and a drawn one) is accepted;
- moves the offers do not contain (a field off: a price, a slot, a kind, a
  train, a corporation) and moves of kinds not offered now are refused, naming
  a reason.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from desk18xx.commands.playout import draw_moves
from desk18xx.commands.replay import import_setup
from desk18xx.engine.actions import (
    Action,
    Bid,
    BuyCompany,
    BuyShares,
    BuyTrain,
    Choose,
    DiscardTrain,
    Dividend,
    LayTile,
    Merge,
    Par,
    Pass,
    PlaceToken,
    RemoveToken,
    Route,
    RunRoutes,
    SellShares,
    action_from_dict,
)
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game, GameSetup
from desk18xx.engine.offers import (
    BidOffer,
    ChooseOffer,
    CompanyOffer,
    DiscardOffer,
    DividendOffer,
    MergeOffer,
    Offer,
    ParOffer,
    RemoveTokenOffer,
    RouteOffer,
    ShareOffer,
    TileLayOffer,
    TokenOffer,
    TrainOffer,
    entity_type_of,
    match_offer,
    tile_name,
)
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title
from desk18xx.titles.g1867.offers import COVERED

FIXTURES = Path(__file__).resolve().parents[3].parent / "shared" / "fixtures" / "18xx.games"
FILES = sorted((FIXTURES / "1867").glob("*.json"))
STRIDE = 9
"""Every how many positions every offer is tried (recorded actions: all)."""


class Counts:
    def __init__(self) -> None:
        self.recorded = self.accepted = self.refused = 0
        self.kinds: set[str] = set()


def _outside(game: Game, offer: Offer, move: Action) -> Action | None:
    """A move like ``move`` (of ``offer``) that no offer contains, or None."""
    match offer, move:
        case ShareOffer(), BuyShares() | SellShares():
            return dataclasses.replace(move, share_price=offer.price + 10)
        case BidOffer(), Bid():
            return dataclasses.replace(move, price=offer.maximum + offer.step)
        case TrainOffer(), BuyTrain():
            top = offer.price if offer.price is not None else offer.max_price
            return dataclasses.replace(move, price=top + 1)
        case TokenOffer(), PlaceToken():
            return dataclasses.replace(move, cost=offer.cost + 1)
        case TileLayOffer(), LayTile():
            others = [r for r in range(6) if r not in offer.rotations(tile_name(move.tile))]
            return dataclasses.replace(move, rotation=others[0]) if others else None
        case ParOffer(), Par():
            return dataclasses.replace(move, share_price=move.share_price + "0")
        case CompanyOffer(), BuyCompany():
            return dataclasses.replace(move, price=offer.max_price + 1)
        case DividendOffer(), Dividend():
            return dataclasses.replace(move, kind="everything")
        case DiscardOffer(), DiscardTrain():
            return dataclasses.replace(move, train=move.train + "x")
        case RemoveTokenOffer(), RemoveToken():
            return dataclasses.replace(move, slot=move.slot + 1)
        case MergeOffer(), Merge():
            return dataclasses.replace(move, corporation=move.corporation + "x")
        case ChooseOffer(), Choose():
            return dataclasses.replace(move, choice="something else")
        case RouteOffer(), RunRoutes():
            foreign = next((t for t in game.trains if t not in offer.trains), None)
            if foreign is None:
                return None
            return dataclasses.replace(move, routes=(Route(train=foreign),))
    return None


def _unoffered(game: Game, entity: str, offers: tuple[Offer, ...]) -> list[Action]:
    """Moves of kinds none of ``offers`` allows now."""
    kind = entity_type_of(game, entity)
    allowed = {t for o in offers if o.allowed for t in o.types}
    candidates: list[Action] = [
        Pass(entity=entity, entity_type=kind),
        Dividend(entity=entity, entity_type=kind, kind="payout"),
        RunRoutes(entity=entity, entity_type=kind),
        DiscardTrain(entity=entity, entity_type=kind, train="2-0"),
        Choose(entity=entity, entity_type=kind, choice="nationalize"),
    ]
    return [m for m in candidates if m.type not in allowed]


def check_recorded(game: Game, action: Action, where: str, counts: Counts) -> None:
    """A recorded (accepted) action is of a decided type and matches an allowed offer."""
    assert action.type in game.offered_types(), f"{where}: {action.type} is not decided"
    offers = game.deciding_offers(action)
    assert offers is not None, f"{where}: {action.type} left to the step"
    try:
        match_offer(offers, action)
    except IllegalAction as exc:
        pytest.fail(f"{where}: the recorded {action} matches no offer: {exc}")
    counts.recorded += 1
    counts.kinds.add(action.type)


def check_offers(game: Game, entity: str, rng: random.Random, where: str,
                 counts: Counts) -> None:
    """Every move of every allowed offer is accepted; moves outside them are refused."""
    kind = entity_type_of(game, entity)
    offers = game.offers(entity)
    for offer in offers:
        if not offer.allowed:
            continue
        moves = list(offer.moves(entity, kind))
        drawn = offer.sample(entity, kind, rng)
        if drawn is not None:
            moves.append(drawn)
        if isinstance(offer, TileLayOffer) and len(moves) > 3:
            moves = rng.sample(moves, 3)
        for move in moves:
            try:
                game.copy().process(move)
            except IllegalAction as exc:
                pytest.fail(f"{where}: {offer} offers {move}, refused: {exc}")
            counts.accepted += 1
        outside = _outside(game, offer, moves[0]) if moves else None
        if outside is not None:
            with pytest.raises(IllegalAction, match=r"\w"):
                game.copy().process(outside)
            counts.refused += 1
    for move in _unoffered(game, entity, offers):
        with pytest.raises(IllegalAction, match=r"\w"):
            game.copy().process(move)
        counts.refused += 1


def test_every_1867_move_kind_is_decided_by_offers() -> None:
    assert {"pass", "bid", "par", "buy_shares", "sell_shares", "buy_company", "lay_tile",
            "place_token", "run_routes", "dividend", "buy_train", "discard_train",
            "remove_token", "merge", "convert", "choose"} <= COVERED


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_fixture_offers_are_what_the_door_accepts(path: Path) -> None:
    imported = load_export(path)
    game = find_title(imported.title).new_game(import_setup(imported))
    rng = random.Random(path.name)
    counts = Counts()
    for index, raw in enumerate(imported.actions):
        action = action_from_dict(raw)
        where = f"{path.name}[{index}]"
        if not game.finished and action.type not in ("undo", "redo", "message", "log",
                                                      "end_game"):
            check_recorded(game, action, where, counts)
            if index % STRIDE == 0:
                check_offers(game, action.entity, rng, where, counts)
        game.process(action)
    assert counts.recorded > 200 and counts.accepted > 100 and counts.refused > 100, \
        vars(counts)
    assert {"run_routes", "merge", "place_token", "pass", "buy_train"} <= counts.kinds


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "options"), [(15, ()), (16, ("grid_market",)),
                                               (17, ("compat_18xxgames",))])
def test_random_game_offers_are_what_the_door_accepts(seed: int,
                                                      options: tuple[str, ...]) -> None:
    title = find_title("1867")
    rng = random.Random(seed)
    players = tuple((str(i + 1), f"Player {i + 1}") for i in range(4))
    game = title.new_game(GameSetup(title.id, players, seed, options))
    counts = Counts()
    for index in range(700):
        if game.finished:
            break
        moves = draw_moves(game, rng)
        assert moves, f"random[{index}]: no move for {game.legal_actions()}"
        move = rng.choice(moves)
        where = f"1867 random {seed}[{index}]"
        check_recorded(game, move, where, counts)
        if index % STRIDE == 0:
            check_offers(game, move.entity, rng, where, counts)
        game.process(move)
    assert counts.recorded > 300 and counts.accepted > 100 and counts.refused > 100, \
        vars(counts)
    assert {"run_routes", "dividend", "lay_tile", "buy_train", "pass"} <= counts.kinds


def test_a_run_naming_a_train_that_cannot_run_is_refused_naming_the_field() -> None:
    """A run's trains come from the offer: another company's train is refused."""
    title = find_title("1867")
    rng = random.Random(4)
    game = title.new_game(GameSetup(title.id, (("1", "A"), ("2", "B"), ("3", "C")), 4, ()))
    for _ in range(3000):
        legal = game.legal_actions()
        if legal.entity is not None and "run_routes" in legal.types:
            mine = set(game.corps[legal.entity].trains)
            foreign = next(t for t in game.trains if t not in mine)
            bad = RunRoutes(entity=legal.entity, entity_type="corporation",
                            routes=(Route(train=foreign),))
            with pytest.raises(IllegalAction, match=rf"^routes: train {foreign} cannot run "
                                                    r"now .*\(the card, OR Run trains\)$"):
                game.copy().process(bad)
            return
        game.process(rng.choice(draw_moves(game, rng)))
    pytest.fail("no run in the random game")


def test_a_dividend_naming_an_amount_is_refused_naming_the_field() -> None:
    title = find_title("1867")
    rng = random.Random(5)
    game = title.new_game(GameSetup(title.id, (("1", "A"), ("2", "B"), ("3", "C")), 5, ()))
    for _ in range(3000):
        legal = game.legal_actions()
        if legal.entity is not None and "dividend" in legal.types:
            bad = Dividend(entity=legal.entity, entity_type="corporation", kind="payout",
                           amount=1000)
            with pytest.raises(IllegalAction, match=r"^amount: .*not \$1,000 "
                                                    r"\(the card, OR Pay dividends\)$"):
                game.copy().process(bad)
            game.copy().process(dataclasses.replace(bad, amount=None))
            return
        game.process(rng.choice(draw_moves(game, rng)))
    pytest.fail("no dividend in the random game")


def test_random_moves_are_deterministic_under_the_generator() -> None:
    title = find_title("1867")
    setup = GameSetup(title.id, (("1", "A"), ("2", "B"), ("3", "C"), ("4", "D")), 9, ())

    def play(n: int) -> list[Action]:
        game, rng, out = title.new_game(setup), random.Random(9), []
        for _ in range(n):
            move = rng.choice(draw_moves(game, rng))
            out.append(move)
            game.process(move)
        return out

    assert play(250) == play(250)
