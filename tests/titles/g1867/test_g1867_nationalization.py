"""Nationalisation and the Canadian National (card: "Nationalization", "The Canadian National")."""

from __future__ import annotations

from collections.abc import Callable

from g1867_helpers import finish_auction, start_minor

from desk18xx.engine.state import POOL
from desk18xx.titles.g1867 import board as B
from desk18xx.titles.g1867.events import EVENTS, Event
from desk18xx.titles.g1867.game import G1867, NATIONAL


def _with_minor(new_game: Callable[..., G1867]) -> tuple[G1867, str]:
    game = new_game(4)
    finish_auction(game)
    player = game.legal_actions().entity
    assert player is not None
    start_minor(game, player, "BO", 200, "M9-0-0")  # price 100
    return game, player


def test_minor_nationalisation(new_game: Callable[..., G1867]) -> None:
    game, owner = _with_minor(new_game)
    money = game.total_money()
    game.take_loan("BO")
    game.take_loan("BO")  # cash 290: repays both
    game.cash["bank"] += game.cash["BO"] - 60
    game.cash["BO"] = 60  # repays one, one left
    before = game.cash[owner]
    game.nationalize("BO")
    # one left, then two more per unpaid loan: 100 -> 90 -> 80 -> 70
    assert game.cash[owner] == before + 2 * 70
    assert game.corps["BO"].closed and game.loans_cancelled == 1
    assert game.board is not None and B.hex_slots(game.board, "M9")[0] == [NATIONAL]
    assert game.total_money() == money


def test_cn_exports_the_next_train_or_the_cheapest(new_game: Callable[..., G1867]) -> None:
    for compat, expected in ((True, "4-0"), (False, "2-0")):
        game = new_game(4, *(["compat_18xxgames"] if compat else []))
        game.phase_index = 3  # phase 5 exports
        for t in ("2-0", "2-1", "2-2", "2-3", "2-4", "2-5", "2-6", "2-7", "2-8", "2-9",
                  "3-0", "3-1", "3-2", "3-3", "3-4", "3-5", "3-6"):
            game.depot.remove(t)
            game.trains[t].owner = "exported"
        game.trains["2-0"].owner = POOL  # a discarded 2 in the bank pool
        game.trains["2-0"].rusted = False
        game.export_train()
        exported = [t for t in ("2-0", "4-0") if game.trains[t].owner == "exported"]
        assert exported == [expected], compat


def test_cn_tokens_montreal_at_the_first_8_by_the_card(new_game: Callable[..., G1867]) -> None:
    game = new_game(4)
    EVENTS[Event.GREEN_MINORS_AVAILABLE](game)
    EVENTS[Event.MINORS_NATIONALIZED](game)
    assert game.board is not None
    assert any(NATIONAL in slots for slots in B.hex_slots(game.board, "L12"))
    compat = new_game(4, "compat_18xxgames")
    EVENTS[Event.GREEN_MINORS_AVAILABLE](compat)
    EVENTS[Event.MINORS_NATIONALIZED](compat)
    assert compat.board is not None
    assert not any(NATIONAL in slots for slots in B.hex_slots(compat.board, "L12"))


def test_privates_nationalised_at_the_first_6(new_game: Callable[..., G1867]) -> None:
    game = new_game(4)
    finish_auction(game)
    owner = game.companies["SCT"].owner
    assert owner is not None
    cash = game.cash[owner]
    EVENTS[Event.NATIONALIZE_COMPANIES](game)
    assert game.companies["SCT"].owner == NATIONAL and game.cash[owner] >= cash + 90
