"""Game > Programmed actions: a player's auto-pass order is given through the session,
carried out on the others' moves, and kept in the log."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMenu

from desk18xx.engine.game import GameSetup
from desk18xx.engine.round import RoundKind
from desk18xx.io.replaying import replay_log
from desk18xx.io.study import game_setup
from desk18xx.io.transfer import save_from_export
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.programs import ProgramActions
from desk18xx.ui.session import GameSession

pytestmark = pytest.mark.gui

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
SETUP = GameSetup("1867", (("1", "Ann"), ("2", "Bob"), ("3", "Cy")), seed=5)


def test_a_stock_round_auto_pass_given_from_the_menu(qtbot: Any) -> None:
    session = GameSession()
    session.new_game(SETUP)
    window = MainWindow(session, restore_layout=False)
    qtbot.addWidget(window)
    asked: list[tuple[str, list[str], str | None]] = []

    def choose(question: str, ids: list[str], preferred: str | None) -> str:
        asked.append((question, ids, preferred))
        return "3"

    programs = ProgramActions(session, window, choose=choose)
    game_menu = window.menuBar().actions()[0].menu()
    assert isinstance(game_menu, QMenu) and window.programs.menu.menuAction() in \
        game_menu.actions()
    rng = random.Random(1)
    while session.game.round is not None and session.game.round.kind is not RoundKind.STOCK:
        moves = session.game.legal_moves(rng)
        assert session.submit(rng.choice(moves))
    programs.update()
    assert not programs.disable_action.isEnabled() and programs.share_pass_action.isEnabled()
    programs.share_pass_always_action.trigger()
    assert asked and sorted(asked[0][1]) == ["1", "2", "3"]
    assert session.line.raw[-1]["type"] == "program_share_pass"
    assert session.line.raw[-1]["entity"] == 3 and session.line.raw[-1]["indefinite"] is True
    assert programs.in_force() == {"Cy": "Pass in stock rounds, unconditionally, indefinitely"}
    assert window.statusBar().currentMessage().startswith("Cy: Pass in stock rounds")
    while session.game.round is not None and session.game.round.kind is RoundKind.STOCK:
        game = session.game
        step = game.round.active_step(game) if game.round is not None else None
        assert step is not None
        if game.legal_actions().entity == "3":  # only to answer a bid in an auction
            assert not step.is_normal_pass(game, "3")
        assert session.submit(rng.choice(game.legal_moves(rng)))
    passes = [a for e in session.line.raw for a in e.get("auto_actions") or ()
              if a == {"type": "pass", "entity": 3, "entity_type": "player"}]
    assert passes  # Cy's turns were passed for him, recorded with the moves that led to them
    programs.update()
    assert programs.disable_action.isEnabled()  # the order outlives the stock round
    programs.disable_action.trigger()
    assert session.line.raw[-1]["type"] == "program_disable"
    assert programs.in_force() == {}
    window.close()


def test_a_merger_round_auto_pass_for_my_minors(qtbot: Any) -> None:
    converted = save_from_export(FIXTURES / "1867" / "hs_ahjzadkh_19792.json")
    raw = [dict(a) for a in converted.actions]
    found: list[tuple[int, str, str | None]] = []

    def note(position: int, _entry: Any, game: Any) -> None:
        minor = game.legal_actions().entity
        if not found and game.round is not None and game.round.kind is RoundKind.MERGER \
                and minor in game.corps:
            found.append((position, minor, game.owner(minor)))

    replay_log(converted.header, raw, each=note)
    count, minor, owner = found[0]  # the first decision of a minor in a merger round
    assert owner is not None
    session = GameSession()
    session.new_game(game_setup(converted.header), raw[:count])
    window = MainWindow(session, restore_layout=False)
    qtbot.addWidget(window)
    programs = ProgramActions(session, window, choose=lambda q, ids, pref: owner)
    programs.update()
    assert programs.merger_pass_action.isEnabled()
    before = len(session.actions())
    programs.merger_pass_action.trigger()
    order = session.line.raw[-1]
    mine = order["corporations_by_round"]["MR"]
    assert order["type"] == "program_merger_pass" and minor in mine
    assert order["auto_actions"][0] == {"type": "pass", "entity": minor,
                                        "entity_type": "corporation"}
    assert len(session.actions()) == before + 1
    assert session.game.legal_actions().entity not in mine
    window.close()


def test_a_received_move_shows_the_orders_in_force(qtbot: Any, tmp_path: Path) -> None:
    from desk18xx.engine.actions import ProgramSharePass
    from desk18xx.io.pbem import open_move
    from desk18xx.io.replaying import digest_of
    from desk18xx.io.savefile import save_game
    from desk18xx.ui.dialogs.pbem import ReceivedMoveDialog
    from desk18xx.ui.files import header_of

    names = dict(SETUP.players)
    session = GameSession()
    session.new_game(SETUP)
    path = tmp_path / "move.d18xx"
    save_game(path, header_of(SETUP), session.line.raw, digest_of(session.game))
    plain = ReceivedMoveDialog(open_move(path, None, "1"), names)
    qtbot.addWidget(plain)
    assert plain.orders.isHidden()
    assert session.submit(ProgramSharePass("3", unconditional=True, indefinite=True))
    save_game(path, header_of(SETUP), session.line.raw, digest_of(session.game))
    dialog = ReceivedMoveDialog(open_move(path, None, "1"), names)
    qtbot.addWidget(dialog)
    assert not dialog.orders.isHidden()
    assert dialog.orders.text() == ("Programmed actions in force: Cy: Pass in stock rounds, "
                                    "unconditionally, indefinitely")


def test_a_buy_order_from_the_menu_buys_at_once_on_the_players_turn(qtbot: Any) -> None:
    converted = save_from_export(FIXTURES / "1867" / "21268.json")
    raw = [dict(a) for a in converted.actions]
    found: list[tuple[int, str, str]] = []

    def note(position: int, _entry: Any, game: Any) -> None:
        legal = game.legal_actions()
        if found or game.round is None or game.round.kind is not RoundKind.STOCK \
                or "buy_shares" not in legal.types or not game.is_player(legal.entity):
            return
        for move in game.legal_moves(random.Random(0)):
            share = game.shares.get(move.shares[0]) if move.type == "buy_shares" else None
            if share is not None and share.owner == share.corp:  # from the IPO
                found.append((position, legal.entity, share.corp))
                return

    replay_log(converted.header, raw, each=note)
    count, player, corp = found[0]
    session = GameSession()
    session.new_game(game_setup(converted.header), raw[:count])
    window = MainWindow(session, restore_layout=False)
    qtbot.addWidget(window)
    have = session.game.num_shares_of(player, corp)
    offered: list[list[str]] = []

    def choose_buy(who: str, corps: list[str]) -> tuple[str, int]:
        offered.append(corps)
        return corp, have + 2

    programs = ProgramActions(session, window, choose=lambda q, ids, pref: player,
                              choose_buy=choose_buy)
    programs.update()
    assert programs.buy_action.isEnabled()
    programs.buy_action.trigger()
    assert corp in offered[0]
    order = session.line.raw[-1]
    assert order["type"] == "program_buy_shares" and order["corporation"] == corp
    assert order["until_condition"] == have + 2
    assert order["auto_actions"][0]["type"] == "buy_shares"
    assert session.game.num_shares_of(player, corp) == have + 1  # this turn's share
    assert programs.in_force() == {session.game.name_of(player):
                                   f"Buy {corp} from IPO until {have + 2} shares"}
    window.close()


def test_a_merger_pass_unless_someone_else_acts_stops_after_a_conversion(qtbot: Any) -> None:
    """The "unless someone else acts" entry gives the order with ``disable_others``: a
    minor converted earlier in this merger round, so at the player's next minor the order
    stops with 18xx.games' reason instead of passing."""
    from desk18xx.engine.actions import action_from_dict
    from desk18xx.engine.programs import OTHERS_ACTED

    converted = save_from_export(FIXTURES / "1867" / "21268.json")
    raw = [dict(a) for a in converted.actions]
    found: list[int] = []

    def note(position: int, _entry: Any, game: Any) -> None:
        r, minor = game.round, game.legal_actions().entity
        if not found and r is not None and r.kind is RoundKind.MERGER \
                and any(game.corps[e].kind.value == "major" for e in r.entities) \
                and minor in game.corps:
            found.append(position)

    replay_log(converted.header, raw, each=note)
    count = found[0]
    session = GameSession()
    session.new_game(game_setup(converted.header), raw[:count])
    minor = session.game.legal_actions().entity
    trial = session.game.copy()
    trial.process(action_from_dict(raw[count]))
    owner = trial.owner(str(trial.legal_actions().entity))  # whose minor decides next
    assert owner is not None and owner != session.game.owner(str(minor))
    window = MainWindow(session, restore_layout=False)
    qtbot.addWidget(window)
    programs = ProgramActions(session, window, choose=lambda q, ids, pref: owner)
    programs.update()
    assert programs.merger_pass_unless_action.isEnabled()
    programs.merger_pass_unless_action.trigger()
    order = session.line.raw[-1]
    assert order["type"] == "program_merger_pass" and order["options"] == ["disable_others"]
    assert "unless someone else acts" in programs.in_force()[session.game.name_of(owner)]
    assert session.submit(action_from_dict(raw[count]))  # the minor deciding now passes
    assert session.line.raw[-1]["auto_actions"] == [
        {"type": "program_disable", "entity": int(owner), "entity_type": "player",
         "reason": OTHERS_ACTED}]
    assert programs.in_force() == {}
    window.close()


def test_the_e_mail_player_is_offered_first_under_the_game_s_own_id(qtbot: Any) -> None:
    """1822CA renames player ids that clash with minor numbers ("1" -> "player:1");
    the e-mail player, known by the file's id, is still the one offered first."""
    session = GameSession()
    session.new_game(GameSetup("1822CA", (("1", "Ann"), ("2", "Bob"), ("3", "Cy")), seed=5))
    window = MainWindow(session, restore_layout=False)
    qtbot.addWidget(window)
    asked: list[tuple[str, list[str], str | None]] = []

    def choose(question: str, ids: list[str], preferred: str | None) -> str | None:
        asked.append((question, ids, preferred))
        return None

    programs = ProgramActions(session, window, me=lambda: "2", choose=choose)
    programs.share_pass_action.trigger()
    assert asked, "the order asked who gives it"
    _question, ids, preferred = asked[0]
    assert preferred in ids and session.game.name_of(preferred) == "Bob"
