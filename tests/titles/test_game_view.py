"""The UI's declared read-only view of a game (`desk18xx.engine.view`, ``Game.view``):
what it answers for each title, that it follows the game, and that its values are
frozen."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from desk18xx.engine.actions import AcquireCompany, Action, LayTile, action_from_dict
from desk18xx.engine.game import Game, GameSetup
from desk18xx.engine.state import BANK, CorpKind
from desk18xx.engine.view import GameView
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title
from desk18xx.titles.g1822ca.game import G1822CA
from desk18xx.titles.g1822ca.rounds import OperatingRound
from desk18xx.titles.g1822ca.view import View1822CA
from desk18xx.titles.g1867.view import View1867

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
PLAYERS = tuple((str(100 + i), f"P{i}") for i in range(4))


def _new(title: str, options: tuple[str, ...] = ()) -> Game:
    return find_title(title).new_game(GameSetup(title, PLAYERS, 7, options))


def _replayed(path: Path, stop: int | None = None) -> tuple[Game, list[dict[str, object]]]:
    imported = load_export(path)
    setup = GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                      imported.seed, tuple(imported.optional_rules) + ("compat_18xxgames",))
    game = find_title(imported.title).new_game(setup)
    game.loading = True
    actions = list(imported.actions)
    for raw in actions[:stop]:
        game.process(action_from_dict(raw))
    return game, actions


def test_each_title_has_its_own_view() -> None:
    assert type(_new("1867").view()) is View1867
    assert type(_new("1822CA").view()) is View1822CA
    assert type(GameView(_new("1867"))) is GameView  # the generic part alone


def test_1867_at_the_start() -> None:
    view = _new("1867").view()
    players = view.players()
    assert [p.name for p in players] == [name for _pid, name in PLAYERS]
    assert all(p.cash == 315 and p.value == 315 and p.certificates == 0 for p in players)
    assert {p.cert_limit for p in players} == {16}  # the card: 4 players, 16 certificates
    bank = view.bank()
    assert bank.loans_left == 72 and bank.phase == "2" and bank.tiles == ("yellow",)
    assert bank.depot[0].name == "2" and bank.depot[0].count == 10
    assert bank.depot[0].price == 100 and bank.depot[0].rusts_on == "4"
    assert any(t.count is None for t in bank.depot)  # 1867's unlimited last trains
    assert view.startable() and all(
        view.corporation(c) is not None for c in view.startable())
    corp = view.corporations()[0]
    assert corp.loans == 0 and corp.started is False and corp.price is None
    assert view.pending_consent() is None and dict(view.attach_labels(corp.id)) == {}


def test_1822ca_at_the_start() -> None:
    game = _new("1822CA")
    view = game.view()
    assert {p.cert_limit for p in view.players()} == {20}
    assert view.bank().loans_left is None
    assert all(c.loans is None for c in view.corporations())  # no loans in 1822CA
    assert view.startable() == ()
    assert view.acquires_minors() and not _new("1867").view().acquires_minors()
    assert isinstance(game, G1822CA)
    pid = PLAYERS[1][0]
    game.debt[pid] = 30
    assert game.view().player(pid).debt == 30
    assert view.player(PLAYERS[0][0]).debt == 0


@pytest.mark.parametrize("fixture", ["1867/21268.json", "1822CA/1.json"])
def test_the_view_follows_the_game(fixture: str) -> None:
    """At many positions of a recorded game, the view agrees with the game's own
    tables, and each tile lay takes one copy from the supply (an upgrade returns
    the old tile)."""
    game, actions = _replayed(FIXTURES / fixture, 0)
    lays = 0
    for k, raw in enumerate(actions[:600]):
        action = action_from_dict(raw)
        before = game.view()
        supply = {n: t.left for n, t in before.tile_supply().items()}
        if k % 25 == 0:
            _agrees(game, before)
        game.process(action)
        if isinstance(action, LayTile) and action.tile:
            name = action.tile.rpartition("-")[0]
            after = {n: t.left for n, t in game.view().tile_supply().items()}
            changed = {n: (supply[n], after[n]) for n in after if after[n] != supply[n]}
            if supply[name] is not None:
                assert changed[name] == (supply[name], supply[name] - 1), (k, changed)
            assert all(n == name or new == old + 1 for n, (old, new) in changed.items())
            lays += 1
    assert lays > 10


def _agrees(game: Game, view: GameView) -> None:
    for p in view.players():
        assert p.cash == game.cash.get(p.id, 0)
        assert p.certificates == game.num_certs(p.id)
        assert sum(h.percent for h in p.holdings) == sum(
            game.percent_of(p.id, c) for c in game.corps)
        assert p.value == game.player_value(p.id)
    for c in view.corporations():
        corp = game.corps[c.id]
        assert c.trains == tuple(game.trains[t].name for t in corp.trains)
        assert c.tokens_left == sum(1 for t in corp.tokens if not t.used)
        assert c.cash == game.cash.get(c.id, 0)
        assert c.price == (game.market.price(c.id) if c.id in game.market.where else None)
        assert c.started == (not corp.closed and (corp.ipoed or corp.floated
                                                  or corp.kind is CorpKind.NATIONAL))
    assert view.bank().cash == game.cash.get(BANK, 0) == view.bank_cash()
    assert sum((t.count or 0) for t in view.bank().depot) <= len(game.depot)
    r = view.round()
    assert r.turn == game.turn and r.serial == game.actions_applied


def test_1822ca_attachments_and_the_trains_that_run() -> None:
    """GTP with its grain train and a 2P at its run (live action 453 attaches G)."""
    game, _ = _replayed(FIXTURES / "1822CA" / "1822CA_game_end_bank.json", 453)
    view = game.view()
    labels = dict(view.attach_labels("GTP"))
    assert labels["None"] == "Run without the grain train"
    assert any(v.startswith("Attach the grain train to the ") for v in labels.values())
    runs = view.route_trains("GTP")
    names = {view.train(t).name for t in runs}  # type: ignore[union-attr]
    assert "G" not in names and runs
    assert set(runs) < set(game.corps["GTP"].trains)


def test_1822ca_a_deal_waiting_for_consent() -> None:
    """Rulebook mode: GT takes over P2 from another player's director (RB 5.6.1)."""
    game = _new("1822CA")
    assert isinstance(game, G1822CA)
    cells = {c.price: c.coord for c in game.market.cells.values()}
    game.market.place("GT", cells[100])
    game.corps["GT"].ipoed = game.corps["GT"].floated = True
    game.shares["GT_0"].owner = PLAYERS[0][0]
    game.transfer(BANK, "GT", 500)
    game.companies["P2"].owner = PLAYERS[1][0]
    orr = OperatingRound(game, 1)
    orr.entity_index = orr.entities.index("GT")
    game.round = orr
    assert game.view().pending_consent() is None
    deal: Action = AcquireCompany(entity="GT", entity_type="corporation", company="P2")
    orr.process(game, deal)
    consent = game.view().pending_consent()
    assert consent is not None and consent.player == PLAYERS[1][0] and consent.deal == deal


def test_view_values_are_frozen_and_keep_their_moment() -> None:
    game = _new("1867")
    view = game.view()
    first = view.player(PLAYERS[0][0])
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.cash = 1  # type: ignore[misc]
    game.transfer(PLAYERS[0][0], BANK, 15)
    assert first.cash == 315 and view.player(PLAYERS[0][0]).cash == 300


def test_1867_the_standing_bid_of_the_private_auction() -> None:
    from desk18xx.engine.actions import Bid

    game = _new("1867")
    assert game.view().standing_bid() is None
    legal = game.legal_actions()
    item = legal.details["company"]
    assert isinstance(item, str) and legal.entity is not None
    game.process(Bid(entity=legal.entity, price=40, company=item))
    top = game.view().standing_bid()
    assert top is not None and (top.item, top.player, top.price) == (item, legal.entity, 40)
    nxt = game.legal_actions().entity
    assert nxt is not None and nxt != legal.entity
    game.process(Bid(entity=nxt, price=45, company=item))
    top = game.view().standing_bid()
    assert top is not None and (top.player, top.price) == (nxt, 45)
