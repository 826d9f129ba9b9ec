"""Offer = accept (issue 15): the offers and the door agree, on recorded and random games.

At sampled positions of every 18xx.games fixture (replayed as ``desk18xx replay``
does, under ``compat_18xxgames``) and of a few random games:

- every recorded action of a type the title's offers decide matches an allowed offer;
- every move built from every allowed offer of the acting entity is accepted
  (``game.copy().process``);
- moves the offers do not contain (a price off by one, a bid below the minimum or
  above the cash, a start price that is no market cell) are refused.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from desk18xx.commands.replay import import_setup
from desk18xx.engine.actions import (
    Action,
    Bid,
    BuyShares,
    BuyTrain,
    LayTile,
    Par,
    PlaceToken,
    SellShares,
    action_from_dict,
)
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game, GameSetup
from desk18xx.engine.offers import (
    BidOffer,
    Offer,
    ParOffer,
    ShareOffer,
    TileLayOffer,
    TokenOffer,
    TrainOffer,
    match_offer,
    tile_name,
)
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
FILES = sorted(FIXTURES.glob("*/*.json"))
STRIDE = 7
"""Every how many positions the offers are tried in full (recorded actions: all)."""
MOVES_PER_POSITION = 4


def _entity_type(game: Game, entity: str) -> str:
    if game.is_player(entity):
        return "player"
    return "corporation" if entity in game.corps else "company"


def _outside(offer: Offer, move: Action) -> Action | None:
    """A move like ``move`` that no offer contains (a computed field off), or None."""
    if isinstance(offer, ShareOffer):
        assert isinstance(move, BuyShares | SellShares)
        return dataclasses.replace(move, share_price=offer.price + 1)
    if isinstance(offer, BidOffer):
        assert isinstance(move, Bid)
        return dataclasses.replace(move, price=offer.maximum + offer.step)
    if isinstance(offer, TrainOffer) and offer.price is not None:
        assert isinstance(move, BuyTrain)
        return dataclasses.replace(move, price=offer.price + 1)
    if isinstance(offer, TokenOffer):
        assert isinstance(move, PlaceToken)
        return dataclasses.replace(move, cost=offer.cost + 1)
    if isinstance(offer, TileLayOffer):
        assert isinstance(move, LayTile)
        others = [r for r in range(6) if r not in offer.rotations(tile_name(move.tile))]
        return dataclasses.replace(move, rotation=others[0]) if others else None
    if isinstance(offer, ParOffer):
        assert isinstance(move, Par)
        return dataclasses.replace(move, share_price=move.share_price + "0")
    return None


class Counts:
    def __init__(self) -> None:
        self.recorded = self.accepted = self.refused = 0


def check_recorded(game: Game, action: Action, where: str, counts: Counts) -> None:
    """A recorded (accepted) action of a decided type matches an allowed offer."""
    if action.type not in game.offered_types():
        return
    offers = game.deciding_offers(action)
    if offers is None:
        return
    try:
        match_offer(offers, action)
    except IllegalAction as exc:
        pytest.fail(f"{where}: the recorded {action} matches no offer: {exc}")
    counts.recorded += 1


def check_offers(game: Game, entity: str, rng: random.Random, where: str,
                 counts: Counts) -> None:
    """Moves of allowed offers are accepted; moves just outside them are refused."""
    kind = _entity_type(game, entity)
    built: list[tuple[Offer, Action]] = []
    for offer in game.offers(entity):
        built.extend((offer, move) for move in offer.moves(entity, kind))
    for offer, move in rng.sample(built, min(MOVES_PER_POSITION, len(built))):
        trial = game.copy()
        try:
            trial.process(move)
        except IllegalAction as exc:
            pytest.fail(f"{where}: {offer} offers {move}, refused: {exc}")
        counts.accepted += 1
        outside = _outside(offer, move)
        if outside is None:
            continue
        with pytest.raises(IllegalAction):
            game.copy().process(outside)
        counts.refused += 1


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_fixture_offers_agree_with_the_door(path: Path) -> None:
    imported = load_export(path)
    game = find_title(imported.title).new_game(import_setup(imported))
    rng = random.Random(path.name)
    counts = Counts()
    alias = getattr(game, "_alias", None)  # 1822CA renames players "1"-"30" (minors)
    for index, raw in enumerate(imported.actions):
        action = action_from_dict(raw)
        if alias is not None:
            action = alias(action)
        where = f"{path.name}[{index}]"
        if not game.finished and action.type not in ("undo", "redo", "message", "log"):
            check_recorded(game, action, where, counts)
            if index % STRIDE == 0:
                check_offers(game, action.entity, rng, where, counts)
        game.process(action)
    assert counts.recorded > 20 and counts.accepted > 20 and counts.refused > 5, vars(counts)


@pytest.mark.parametrize("title_id", ["1867", "1822CA", "1822CA-ERS", "1822CA-WRS"])
def test_random_game_offers_agree_with_the_door(title_id: str) -> None:
    title = find_title(title_id)
    rng = random.Random(15)
    players = tuple((str(i + 1), f"Player {i + 1}") for i in range(4))
    game = title.new_game(GameSetup(title.id, players, 15, ()))
    counts = Counts()
    for index in range(600):
        if game.finished:
            break
        moves = game.legal_moves(rng)
        if not moves:
            break
        move = rng.choice(moves)
        where = f"{title_id} random[{index}]"
        check_recorded(game, move, where, counts)
        if index % STRIDE == 0:
            check_offers(game, move.entity, rng, where, counts)
        game.process(move)
    assert counts.recorded > 5 and counts.accepted > 5, vars(counts)


def test_a_move_outside_the_offers_is_refused_naming_the_field() -> None:
    """The first fixture share sale, at a price of its own: refused, the field named."""
    path = FIXTURES / "1822CA" / "1.json"
    imported = load_export(path)
    game = find_title(imported.title).new_game(import_setup(imported))
    for raw in imported.actions:
        action = action_from_dict(raw)
        if isinstance(action, SellShares) and action.entity_type == "corporation":
            offers = game.deciding_offers(action)
            assert offers, "an issue is decided by offers"
            offer = match_offer(offers, action)
            assert isinstance(offer, ShareOffer) and offer.kind == "issue"
            greedy = dataclasses.replace(action, share_price=1000)
            with pytest.raises(IllegalAction, match=r"share_price: .* issue price is \$\d+, "
                                                    r"not \$1,000 \(RB 5\.19\)"):
                game.copy().process(greedy)
            return
        game.process(action)
    pytest.fail("no issue in the fixture")


def test_an_issue_that_fills_the_pool_past_half_is_refused() -> None:
    """RB 5.19.2: every share of the issue counts against the pool's 50%, not only the
    first (1.json: PGE issues 50% at once; one more share is refused)."""
    path = FIXTURES / "1822CA" / "1.json"
    imported = load_export(path)
    game = find_title(imported.title).new_game(import_setup(imported))
    for raw in imported.actions:
        action = action_from_dict(raw)
        if isinstance(action, SellShares) and action.entity_type == "corporation" \
                and len(action.shares) >= 5:
            corp = action.entity
            treasury = [s.id for s in game.shares_of(corp, corp)
                        if not s.president and s.id not in action.shares]
            assert treasury, f"{corp} keeps a treasury share to try"
            more = dataclasses.replace(action, shares=(*action.shares, treasury[0]),
                                       percent=None, share_price=None)
            assert game.percent_of("pool", corp) + 10 * len(more.shares) > 50
            with pytest.raises(IllegalAction, match="the pool would hold more than 50%"):
                game.copy().process(more)
            game.copy().process(action)  # the recorded issue itself is fine
            return
        game.process(action)
    pytest.fail("no issue of five shares in the fixture")


def _random_1822ca_at_a_redemption() -> tuple[Game, str, list[str]]:
    """A random 1822CA game (seed 1) at the first turn a major may redeem two or more
    pool shares and can pay for two (found by playing the title's own moves)."""
    from desk18xx.titles.g1822ca.steps.operating import IssueShares

    title = find_title("1822CA")
    rng = random.Random(1)
    game = title.new_game(GameSetup(title.id, tuple((str(i + 1), f"P{i + 1}")
                                                    for i in range(4)), 1, ()))
    for _ in range(3000):
        step = game.round.active_step(game) if game.round is not None else None
        if isinstance(step, IssueShares):
            corp = step.corp()
            pool = [s.id for s in game.shares_of("pool", corp) if not s.president]
            if len(pool) >= 2 and BuyShares in step.legal(game, corp) \
                    and game.cash[corp] >= 2 * game.market.price(corp):
                return game, corp, pool
        game.process(rng.choice(game.legal_moves(rng)))
    pytest.fail("no redemption in the random game")


def test_a_redemption_pays_the_market_price_not_its_own() -> None:
    """RB 5.19.4: shares are redeemed at the current price; a redemption naming $1 a
    share is refused (it bought shares back for $1 each before the door)."""
    game, corp, pool = _random_1822ca_at_a_redemption()
    price = game.market.price(corp)
    cheap = BuyShares(entity=corp, entity_type="corporation", shares=tuple(pool[:2]),
                      percent=20, share_price=1)
    with pytest.raises(IllegalAction, match=rf"^share_price: {corp}'s redemption price is "
                                            rf"\${price}, not \$1 \(RB 5\.19\)$"):
        game.copy().process(cheap)
    fair = dataclasses.replace(cheap, share_price=price)
    after = game.copy()
    after.process(fair)  # at the market price it is accepted
    assert all(after.shares[s].owner == corp for s in pool[:2])


def _replay_to(path: Path, stop: object) -> tuple[Game, Action]:
    """The game of fixture ``path`` just before the first action ``stop(game, action)``
    accepts, and that action."""
    imported = load_export(path)
    game = find_title(imported.title).new_game(import_setup(imported))
    alias = getattr(game, "_alias", None)
    for raw in imported.actions:
        action = action_from_dict(raw)
        if alias is not None:
            action = alias(action)
        if stop(game, action):  # type: ignore[operator]
            return game, action
        game.process(action)
    pytest.fail(f"{path.name}: no such action")


def test_a_plain_tile_on_ottawa_is_refused_naming_its_y_tiles() -> None:
    """1867 (21268.json): AE's first lay on Ottawa; a tile 5 there is refused with the
    label rule and the tiles that fit; the recorded 202 is offered."""
    game, lay = _replay_to(FIXTURES / "1867" / "21268.json",
                           lambda g, a: isinstance(a, LayTile) and a.hex == "J12")
    assert isinstance(lay, LayTile)
    offers = game.offers(lay.entity, (LayTile.type,))
    ottawa = next(o for o in offers if isinstance(o, TileLayOffer) and o.hex == "J12")
    assert "202" in dict(ottawa.tiles) and ottawa.label == "Ottawa (J12)"
    wrong = dataclasses.replace(lay, tile="5-0", rotation=0)
    with pytest.raises(IllegalAction, match=r"tile: Ottawa \(J12\) takes only its Y tiles: "
                                            r"[^)]*202"):
        game.copy().process(wrong)
    assert ottawa.refusal("5") is not None and "202" in ottawa.refusal("5")  # type: ignore[operator]


def test_a_lay_the_company_cannot_pay_says_what_it_needs() -> None:
    """1822CA (1.json): at the first recorded lay that costs money, the company with
    $1 less than the cost is refused "$N needed, X has $M" (RB 5.7)."""
    def costly(game: Game, action: Action) -> bool:
        if not isinstance(action, LayTile) or action.entity not in game.corps:
            return False
        found = game.deciding_offers(action)
        offer = None if not found else match_offer(found, action)
        return isinstance(offer, TileLayOffer) and \
            offer.cost_of(tile_name(action.tile), action.rotation) > 0

    game, lay = _replay_to(FIXTURES / "1822CA" / "1.json", costly)
    assert isinstance(lay, LayTile)
    found = game.deciding_offers(lay)
    assert found
    cost = match_offer(found, lay)
    assert isinstance(cost, TileLayOffer)
    need = cost.cost_of(tile_name(lay.tile), lay.rotation)
    # the door's offer names the lay's own rotation; a question about the hex, all
    full = {o.hex: o for o in game.offers(lay.entity, (LayTile.type,))
            if isinstance(o, TileLayOffer)}
    asked = game.deciding_offers(LayTile(entity=lay.entity, entity_type=lay.entity_type,
                                         hex=lay.hex))
    assert asked and isinstance(asked[0], TileLayOffer)
    assert asked[0].tiles == full[lay.hex].tiles
    assert cost.rotations(tile_name(lay.tile)) == (lay.rotation,)
    poor = game.copy()
    poor.cash[lay.entity] = need - 1
    with pytest.raises(IllegalAction, match=rf"\${need} needed, {lay.entity} has "
                                            rf"\${need - 1} \(RB 5\.7\)"):
        poor.process(lay)
    offers = poor.offers(lay.entity, (LayTile.type,))
    name = tile_name(lay.tile)
    for offer in offers:
        if isinstance(offer, TileLayOffer) and offer.hex == lay.hex:
            assert lay.rotation not in offer.rotations(name), "an unaffordable lay is offered"


def test_a_private_lay_is_offered_to_the_private_for_its_owner() -> None:
    """1822CA: a private's own lay (supplement §6.1) is an offer of the private,
    made with its owner's network and cash."""
    def private(game: Game, action: Action) -> bool:
        return isinstance(action, LayTile) and action.entity in game.companies

    found = False
    for name in ("1.json", "1822CA_game_end_bank.json"):
        path = FIXTURES / "1822CA" / name
        try:
            game, lay = _replay_to(path, private)
        except pytest.fail.Exception:
            continue
        assert isinstance(lay, LayTile)
        offers = game.deciding_offers(lay)
        assert offers
        offer = match_offer(offers, lay)
        assert isinstance(offer, TileLayOffer)
        owner = game.companies[lay.entity].owner
        assert offer.by == owner and owner in game.corps
        assert offer.rule == "supplement §6.1"
        found = True
        break
    assert found, "a recorded private lay"
