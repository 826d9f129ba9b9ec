"""The turn panel's facts: the standing bid of an auction, what the actor has."""

from __future__ import annotations

from pathlib import Path

import pytest

from desk18xx.engine.actions import Bid
from desk18xx.engine.game import GameSetup
from desk18xx.ui.session import GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
FIXTURE_1867 = FIXTURES / "1867" / "21268.json"
PLAYERS = (("1", "Alice"), ("2", "Bob"), ("3", "Carol"), ("4", "Dave"))




def test_the_1867_auction_names_the_high_bidder_and_amount(show_window) -> None:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=3))
    win = show_window(session, size=(1280, 800))
    assert "No bid yet" in win.auction_label.text()
    company = win._info.facts.company if win._info else None  # noqa: SLF001
    assert isinstance(company, str)
    assert session.submit(Bid(entity="1", price=25, company=company))
    assert "High bid $25 by <b>Alice</b>" in win.auction_label.text()
    assert "next bid at least $30" in win.auction_label.text()
    facts = win.action_panel.facts
    assert facts.isVisible() and "$25 by Alice" in facts.text()
    assert session.submit(Bid(entity="2", price=40, company=company))
    assert "High bid $40 by <b>Bob</b>" in win.auction_label.text()
    assert "$40 by Bob" in facts.text() and "at least $45" in facts.text()
    # a player's own facts: cash and certificates against the limit
    game = session.game
    actor = win._info.entity if win._info else None  # noqa: SLF001
    assert actor is not None
    limit = vars(game)["cert_limit"]
    assert f"Cash ${game.cash[actor]} · certificates {game.num_certs(actor)}/{limit}" \
        in facts.text()
    win.show_position(1)  # looking back: the facts of then (Alice's bid standing)
    assert "$25 by Alice" in facts.text()


def test_an_operating_company_shows_cash_trains_tokens_and_loans(show_window) -> None:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.load(FIXTURE_1867)
    session.undo_to(400)
    win = show_window(session, size=(1280, 800))
    game = session.game
    corp = win._info.entity if win._info else None  # noqa: SLF001
    assert corp is not None and corp in game.corps
    c = game.corps[corp]
    trains = " ".join(game.trains[t].name for t in c.trains)
    left = sum(1 for t in c.tokens if not t.used)
    text = win.action_panel.facts.text()
    assert f"Cash ${game.cash[corp]}" in text
    assert f"trains {trains}" in text
    assert f"tokens left {left}/{len(c.tokens)}" in text
    assert f"loans {c.loans}" in text
