"""Problems found by playing the app as a player would (QA pass), one test each."""

from __future__ import annotations

import random

import pytest

from desk18xx.engine.game import GameSetup
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.models.choices import turn_info
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

PLAYERS = (("1", "Alice"), ("2", "Bob"), ("3", "Carol"), ("4", "Dave"))


def _to_cross_owner_train_buy(session: GameSession) -> dict[str, object]:
    """Play random legal moves until a 1867 company may buy the bank's train or the
    train of a company another player owns; that train's entry in the step details."""
    rng = random.Random(1)
    for _ in range(400):
        game = session.game
        legal = game.legal_actions()
        if legal.step == "BuyTrainStep" and legal.entity is not None:
            me = game.owner(legal.entity)
            others = legal.details.get("others")
            assert isinstance(others, list)
            theirs = [o for o in others if game.owner(o["owner"]) != me]
            if theirs:
                return dict(theirs[0])
        session.submit(rng.choice(game.legal_moves(rng)))
    raise AssertionError("no train purchase between players' companies came up")


def test_1867_offers_other_players_company_trains_at_a_chosen_price(
        show_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """1867 lets a company buy any company's train for $1 up to its cash; the panel
    offered only the owner's own companies (and, with no bank train affordable, an
    engine sample at a random price such as "$2")."""
    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=1867))
    window: MainWindow = show_window(session)
    entry = _to_cross_owner_train_buy(session)
    game = session.game
    buyer = game.legal_actions().entity
    assert buyer is not None
    seller, train = str(entry["owner"]), str(entry["train"])
    label = next((lab for lab in window.action_panel.choice_labels()
                  if lab.startswith(f"Buy {seller} (")), None)
    assert label is not None, window.action_panel.choice_labels()
    # one choice per kind of train and seller (two of BO's 2-trains made two equal
    # labels, and the button bought the other one)
    assert [c.label for c in turn_info(session.game).choices].count(label) == 1
    assert not any(" for $" in lab and "buys train" in lab
                   for lab in window.action_panel.choice_labels())  # no sampled price
    spin = window.action_panel.spin(label)
    assert spin is not None
    assert (spin.minimum(), spin.maximum()) == (1, entry["max_price"])
    cash_buyer, cash_seller = game.cash[buyer], game.cash[seller]
    spin.setValue(7)
    window.action_panel.button(label).click()
    game = session.game
    name = game.trains[train].name
    assert sum(t.owner == buyer and t.name == name for t in game.trains.values()) == 1
    assert [lab for lab in window.action_panel.choice_labels()
            if lab.startswith(f"Buy {seller} (")] in ([], [label])  # one choice per kind
    assert game.cash[buyer] == cash_buyer - 7
    assert game.cash[seller] == cash_seller + 7


def test_1867_greys_a_bank_train_the_company_cannot_pay(
        show_window) -> None:  # type: ignore[no-untyped-def]
    """A bank train above the company's buying power stays on the panel, greyed,
    with the reason, instead of vanishing."""
    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=1867))
    window: MainWindow = show_window(session)
    rng = random.Random(2)
    for _ in range(600):
        legal = session.game.legal_actions()
        bank = legal.details.get("bank") if legal.step == "BuyTrainStep" else None
        power = legal.details.get("buying_power")
        if (isinstance(bank, list) and bank and isinstance(power, int)
                and power < bank[0]["price"]):
            break
        session.submit(rng.choice(session.game.legal_moves(rng)))
    else:
        raise AssertionError("no company short of a bank train came up")
    label = next(lab for lab in window.action_panel.choice_labels()
                 if lab.endswith(f" {bank[0]['name']} from the bank (${bank[0]['price']})"))
    assert not window.action_panel.is_open(label)
    from desk18xx.engine.offers import TrainOffer

    offer = next(o for o in session.game.offers(legal.entity or "", ("buy_train",))
                 if isinstance(o, TrainOffer) and o.train == bank[0]["train"]
                 and o.exchange is None)
    assert offer.why_not  # the engine's reason is the panel's
    assert offer.why_not in window.action_panel.button(label).toolTip()


def _choose(session: GameSession, prefix: str, value: int | None = None) -> None:
    from desk18xx.ui.models.choices import turn_info

    info = turn_info(session.game)
    choice = next((c for c in info.choices if c.label.startswith(prefix)), None)
    assert choice is not None, [c.label for c in info.choices]
    assert session.submit(choice.make(value))


def test_1822ca_first_turn_names_the_l_train_and_the_minors(
        show_window) -> None:  # type: ignore[no-untyped-def]
    """A new minor's first step said only "First turn housekeeping", offered "a L",
    and the panel and the log called minors by a bare number ("Buy 6's L", "6 buys")."""
    session = GameSession()
    session.new_game(GameSetup("1822CA-ERS", PLAYERS[:3], seed=777))
    window: MainWindow = show_window(session)
    _choose(session, "Bid on M6", 100)
    _choose(session, "Bid on M12", 100)
    _choose(session, "End my turn")
    for _ in range(3):  # everyone passes: the round ends
        _choose(session, "Pass")
    panel = window.action_panel
    assert session.game.legal_actions().step == "FirstTurnHousekeeping"
    assert panel.who.text().startswith("Minor 6 (Alice)")
    assert "L-train" in panel.step.text()
    panel.button("Buy an L from the bank ($50)").click()
    rows = [window.log_model.entry(r) for r in range(window.log_model.rowCount())]
    last = next(e for e in reversed(rows) if not e.detail).text
    assert last.startswith("Minor 6 buys an L-train for $50"), last
    for _ in range(10):
        if session.game.legal_actions().entity == "12":
            break
        labels = [lab for lab in panel.choice_labels() if panel.choice(lab).group == "Pass"]
        if not labels:  # the run: nothing to click on the map for this check
            window.controller.run_button.click()
            continue
        panel.button(labels[0]).click()
    assert session.game.legal_actions().step == "FirstTurnHousekeeping"
    assert panel.who.text().startswith("Minor 12 (Alice)")
    # RB 5.5.3: only the next L from the bank (the engine's one offer), not Minor 6's L
    assert [lab for lab in panel.choice_labels() if lab.startswith("Buy ")] == [
        "Buy an L from the bank ($50)"]


def test_a_turn_can_be_played_from_the_keyboard(show_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Tab from the map ran into the tables (Tab moved between their cells) and never
    reached the choice buttons, made after the tables; Enter did not press a button.
    F6 now puts the focus on the first open choice and it stays in the panel."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication, QPushButton, QSpinBox, QTableView

    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=1867))
    window: MainWindow = show_window(session)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    assert all(not t.tabKeyNavigation() for t in window.findChildren(QTableView))
    assert window.choices_action.shortcut().toString() == "F6"
    qtbot.keyClick(window.map_view, Qt.Key.Key_F6)
    spin = QApplication.focusWidget()
    assert isinstance(spin, QSpinBox)
    low = spin.value()
    qtbot.keyClick(spin, Qt.Key.Key_Up)  # $5 more
    qtbot.keyClick(spin, Qt.Key.Key_Tab)
    button = QApplication.focusWidget()
    assert isinstance(button, QPushButton) and button.text().startswith("Bid on")
    qtbot.keyClick(button, Qt.Key.Key_Return)
    bid = session.actions()[-1]
    assert bid.type == "bid" and bid.entity == "1" and getattr(bid, "price", None) == low + 5
    focus = QApplication.focusWidget()  # the next player's choices, rebuilt
    assert focus is not None and window.action_panel.isAncestorOf(focus)
    for _ in range(4):
        focus = QApplication.focusWidget()
        if isinstance(focus, QPushButton) and focus.text().startswith("Pass"):
            break
        qtbot.keyClick(focus, Qt.Key.Key_Tab)
    assert isinstance(focus, QPushButton) and focus.text().startswith("Pass")
    qtbot.keyClick(focus, Qt.Key.Key_Space)
    assert session.actions()[-1].type == "pass" and session.actions()[-1].entity == "2"


def test_stock_round_pass_says_what_it_does(show_window) -> None:  # type: ignore[no-untyped-def]
    """1822CA: after a bid the player may bid twice more (RB 4.10.5), and "Pass" then
    only ends the turn; the panel said neither. 1867: a stock turn's pass said
    "Pass (no bid)", the private auction's words."""
    session = GameSession()
    session.new_game(GameSetup("1822CA-ERS", PLAYERS[:3], seed=777))
    window: MainWindow = show_window(session)
    panel = window.action_panel
    assert "Pass" in panel.choice_labels()
    _choose(session, "Bid on M6", 100)
    assert panel.who.text().startswith("Alice")
    assert "2 more bids this turn, or end your turn" in panel.step.text()
    assert "End my turn" in panel.choice_labels() and "Pass" not in panel.choice_labels()
    panel.button("End my turn").click()
    game = session.game
    assert panel.who.text().startswith("Bob") and "Pass" in panel.choice_labels()
    alice = next(p for p in game.players if p.name == "Alice")
    assert not game.player(alice.id).passed  # her turn ended; she did not pass the round

    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=1867))
    window = show_window(session)
    rng = random.Random(3)
    while session.game.round_kind().value == "auction":
        session.submit(rng.choice(session.game.legal_moves(rng)))
    labels = window.action_panel.choice_labels()
    assert "Pass" in labels and "Pass (no bid)" not in labels


def test_a_forced_train_purchase_is_said(show_window) -> None:  # type: ignore[no-untyped-def]
    """A trainless 1867 company must buy a train: the panel showed only "Buy trains"
    and no way to finish, without saying why."""
    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=1867))
    window: MainWindow = show_window(session)
    rng = random.Random(4)
    for _ in range(400):
        legal = session.game.legal_actions()
        if legal.step == "BuyTrainStep" and legal.details.get("must_buy") is True:
            break
        session.submit(rng.choice(session.game.legal_moves(rng)))
    else:
        raise AssertionError("no forced train purchase came up")
    assert "must buy one" in window.action_panel.step.text()
    assert not any(window.action_panel.choice(lab).group == "Pass"
                   for lab in window.action_panel.choice_labels())


def test_standings_during_a_game_do_not_say_game_over(
        show_window) -> None:  # type: ignore[no-untyped-def]
    """Game > Show ranking mid-game opened "Game over: X wins. The game ended: "."""
    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=1867))
    window: MainWindow = show_window(session)
    window.ranking_action.trigger()
    dialog = window.show_game_end()
    assert dialog.windowTitle() == "Standings"
    assert "leads" in dialog.head.text() and "ended" not in dialog.head.text()
    dialog.close()


def test_an_edited_save_is_refused_once_named_and_the_game_kept(
        show_window, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Opening an edited save named the file twice ("Cannot open F: F: actions[0]…")
    and did not say that the game on screen was kept."""
    from PySide6.QtWidgets import QMessageBox

    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=1867))
    window: MainWindow = show_window(session)
    window.action_panel.button(window.action_panel.choice_labels()[0]).click()
    path = tmp_path / "game.d18xx"
    session.save(str(path))
    text = path.read_text(encoding="utf-8")
    assert '"price": 20' in text
    path.write_text(text.replace('"price": 20', '"price": 25'), encoding="utf-8")
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        lambda _parent, _title, message: shown.append(message))
    before = list(session.actions())
    assert not window.open_path(str(path))
    assert len(shown) == 1 and shown[0].count(str(path)) == 1, shown
    assert "hash chain" in shown[0] and "unchanged" in shown[0]
    assert session.actions() == before


def test_1867_second_lay_offers_yellow_only_elsewhere_at_20(
        show_window) -> None:  # type: ignore[no-untyped-def]
    """After a company's first lay the map offered upgrades and the hex just laid
    ("Not allowed: cannot lay an upgrade now", "… was already laid on this turn"),
    and the Lay button did not show the second lay's $20."""
    from desk18xx.engine.sandbox import lay_offers
    from desk18xx.engine.tiledef import Color
    from desk18xx.ui.models.tracks import TrackOptions

    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=1867))
    rng = random.Random(11)
    for _ in range(3000):
        game = session.game
        legal = game.legal_actions()
        if (legal.step == "Track" and legal.details.get("may_upgrade") is False
                and legal.entity is not None and Color.GREEN in game.phase.tiles):
            first = lay_offers(game, legal.entity)  # the lay rules without the turn
            plain = TrackOptions(game, legal.entity,
                                 source=(lambda first=first: first, lambda _h: None))
            if any(plain.tile(name).color != Color.YELLOW
                   for h in plain.hexes() for name in plain.legal(h)) \
                    and TrackOptions(game, legal.entity).hexes():
                break
        moves = game.legal_moves(rng)
        buys = [m for m in moves if m.type == "buy_train"]
        lays = [m for m in moves if m.type == "lay_tile"]
        session.submit(rng.choice(buys) if buys and rng.random() < 0.8 else
                       rng.choice(lays) if lays and rng.random() < 0.8 else rng.choice(moves))
    else:
        raise AssertionError("no second lay with an upgrade in reach came up")
    window: MainWindow = show_window(session)
    track = window.controller.track
    assert track is not None
    from desk18xx.engine.actions import LayTile

    laid = session.actions()[-1]
    assert isinstance(laid, LayTile)
    assert laid.hex not in track.hexes()
    offered = [(h, name) for h in track.hexes() for name in track.legal(h)]
    assert offered and all(track.tile(name).color == Color.YELLOW for _h, name in offered)
    hex_id, name = offered[0]
    rotation = track.legal(hex_id)[name][0]
    assert track.cost(hex_id, name, rotation) >= 20
    window.controller.drop_tile(hex_id, name)
    cash = session.game.cash[legal.entity]
    window.controller.confirm()
    assert session.game.cash[legal.entity] == cash - track.cost(hex_id, name, rotation)


@pytest.mark.parametrize(("title", "seed"), [("1822CA-ERS", 7), ("1867", 11)])
def test_every_lay_the_map_offers_is_accepted(title: str, seed: int) -> None:
    """What the map highlights, the engine accepts: 1822CA offered minors brown tiles
    (RB 5.7.9), tiles the company could not pay, and lays after its last one; 1867
    offered upgrades and the same hex on the second lay."""
    from desk18xx.engine.actions import LayTile
    from desk18xx.engine.errors import IllegalAction
    from desk18xx.ui.models.tracks import TrackOptions

    session = GameSession()
    session.new_game(GameSetup(title, PLAYERS[:3], seed=seed))
    rng = random.Random(seed)
    checked = refused = 0
    for _ in range(1500):
        game = session.game
        if game.finished or checked >= 40:
            break
        legal = game.legal_actions()
        if legal.step in ("Track", "TrackStep") and legal.entity in game.corps \
                and rng.random() < 0.3:
            track = TrackOptions(game, legal.entity)
            lays = [(h, name, rotation) for h in track.hexes()
                    for name, rotations in track.legal(h).items() for rotation in rotations]
            for hex_id, name, rotation in rng.sample(lays, min(3, len(lays))):
                tile = track.copy_id(name)
                assert tile is not None
                try:
                    game.copy().process(LayTile(
                        entity=legal.entity, entity_type="corporation", hex=hex_id,
                        tile=tile, rotation=rotation))
                except IllegalAction as refusal:
                    refused += 1
                    print(legal.entity, hex_id, name, rotation, refusal)
                checked += 1
        moves = game.legal_moves(rng)
        buys = [m for m in moves if m.type == "buy_train"]
        lays_ = [m for m in moves if m.type == "lay_tile"]
        session.submit(rng.choice(buys) if buys and rng.random() < 0.8 else
                       rng.choice(lays_) if lays_ and rng.random() < 0.8 else rng.choice(moves))
    assert checked >= 20, checked
    assert refused == 0


def test_a_negative_value_reads_minus_dollars() -> None:
    """The Players table wrote a player deep in debt as "$-55781" (the panel: "-$…")."""
    from desk18xx.ui.models.tables import money

    assert money(-55781) == "-$55781"
    assert money(0) == "$0" and money(120) == "$120"


def test_deleting_main_line_moves_asks_first(
        show_window, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Study > Delete from here removed the game from the selected move on, main line
    included, without a question; nothing brings it back (the autosave follows)."""
    from PySide6.QtWidgets import QMessageBox

    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=1867))
    window: MainWindow = show_window(session)
    rng = random.Random(1)
    for _ in range(12):
        session.submit(rng.choice(session.game.legal_moves(rng)))
    dock = window.study_tree
    assert dock is not None
    node = session.tree.main_line()[4]
    asked: list[str] = []
    answer = [QMessageBox.StandardButton.No]
    monkeypatch.setattr(QMessageBox, "question", staticmethod(
        lambda _parent, _title, text, *_a: asked.append(text) or answer[0]))
    dock._ask_delete(node)
    assert len(asked) == 1 and "main line" in asked[0] and "cannot be undone" in asked[0]
    assert len(session.actions()) == 12 and node in session.tree
    answer[0] = QMessageBox.StandardButton.Yes
    assert dock._ask_delete(node)
    assert node not in session.tree and len(session.actions()) < 12


def test_the_e_mail_player_is_offered_as_the_last_mover_and_can_be_changed(
        show_window, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """"Which player are you?" always offered the first player, and a wrong answer
    stayed for good: every received move then marked the wrong actions as yours."""
    from PySide6.QtWidgets import QInputDialog

    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=1867))
    window: MainWindow = show_window(session)
    session.submit(session.game.legal_moves(random.Random(0))[0])  # Alice
    _choose(session, "Pass")  # Bob
    offered: list[int] = []
    picks = iter(["Bob", "Carol"])

    def get_item(_parent, _title, _label, names, current, _editable):  # type: ignore[no-untyped-def]
        offered.append(current)
        return next(picks), True

    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(get_item))
    assert window.files.save_for_email(str(tmp_path)) is not None
    assert offered == [1] and window.files.current_player() == "2"  # Bob moved last
    assert window.files.email_me_action in window.files.actions()
    window.files.email_me_action.trigger()
    assert offered == [1, 1] and window.files.current_player() == "3"


def test_1867_pass_after_a_sale_ends_the_turn(show_window) -> None:  # type: ignore[no-untyped-def]
    """After a sale or a purchase a 1867 pass only ends the turn; it said "Pass"."""
    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=1867))
    window: MainWindow = show_window(session)
    rng = random.Random(11)
    for _ in range(3000):
        game = session.game
        legal = game.legal_actions()
        if legal.step == "BuySellParShares" and legal.details.get("acted_this_turn"):
            break
        moves = game.legal_moves(rng)
        buys = [m for m in moves if m.type == "buy_train"]
        session.submit(rng.choice(buys) if buys and rng.random() < 0.8 else rng.choice(moves))
    else:
        raise AssertionError("no stock turn with a second decision came up")
    assert session.actions()[-1].entity == legal.entity  # the same player acts again
    labels = window.action_panel.choice_labels()
    assert "End my turn" in labels and "Pass" not in labels


def test_the_study_menu_offers_each_compare_once(show_window) -> None:  # type: ignore[no-untyped-def]
    """The Study menu listed "Compare: set as A" (the tree's) beside "Compare: this
    position as A": two entries for one thing."""
    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=1867))
    window: MainWindow = show_window(session)
    window._fill_study_menu()
    texts = [a.text().replace("&", "") for a in window.study_menu.actions()
             if not a.isSeparator()]
    assert [t for t in texts if t.startswith("Compare:")] == [
        "Compare: this position as A", "Compare: this position as B"]
    dock = window.study_tree
    assert dock is not None
    assert "Compare: set as A" in [a.text() for a in dock.tree_widget.actions()]  # right-click
