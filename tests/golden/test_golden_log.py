"""The log tells the story: a golden log of 21268.json's first two operating rounds
(issue "At the table", item 1), and a line for each kind of consequence."""

from __future__ import annotations

import os
from pathlib import Path

from desk18xx.commands.replay import import_setup
from desk18xx.engine.actions import action_from_dict
from desk18xx.engine.describe import describe_in
from desk18xx.engine.game import Game
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
GOLDEN = Path(__file__).resolve().parent / "logs"


def told(path: Path, *, operating_rounds: int | None = None,
         actions: int | None = None) -> tuple[Game, list[str]]:
    """The log of a recorded game (round headers, each action, its consequences)."""
    imported = load_export(path)
    game = find_title(imported.title).new_game(import_setup(imported))
    game.narrating = True
    out: list[str] = []
    last: tuple[str, int, int] | None = None
    seen_or = 0
    for index, raw in enumerate(imported.actions):
        if actions is not None and index >= actions:
            break
        r = game.round
        key = None if r is None else (r.kind.value, game.turn, r.round_num)
        if key != last and key is not None:
            if key[0] == "operating":
                seen_or += 1
                if operating_rounds is not None and seen_or > operating_rounds:
                    break
            out.append(f"— {key[0].capitalize()} round {key[1]}.{key[2]} —")
            last = key
        action = action_from_dict(raw)
        sentence = describe_in(game, action)
        count = len(game.events)
        game.process(action)
        out.append(sentence)
        out.extend(f"    {line}" for _n, lines in game.events[count:] for line in lines)
    return game, out


def _check(name: str, lines: list[str]) -> None:
    path = GOLDEN / name
    text = "\n".join(lines) + "\n"
    if os.environ.get("DESK18XX_RECORD_LOGS") == "1":
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_golden_log_of_the_first_two_operating_rounds() -> None:
    _game, lines = told(FIXTURES / "1867" / "21268.json", operating_rounds=2)
    assert any(line.startswith("— Operating round") for line in lines)
    _check("21268-first-two-operating-rounds.txt", lines)


def test_the_log_names_places_not_ids() -> None:
    _game, lines = told(FIXTURES / "1867" / "21268.json", operating_rounds=2)
    text = "\n".join(lines)
    assert "-0-0" not in text and "(rotation" not in text
    assert "Ottawa (J12)" in text


def test_each_consequence_has_its_line() -> None:
    """Over whole games of both titles: auctions, prices, dividends, loans, trains,
    phases, closures, tokens and the end each get their words."""
    text_1867 = "\n".join(told(FIXTURES / "1867" / "21268.json")[1])
    text_1822 = "\n".join(told(FIXTURES / "1822CA" / "1822CA_game_end_bank.json")[1])
    for needle in ("wins C&SL for $25", "share price rises", "share price falls",
                   "(dividends)", "(private income)", "takes a loan", "repays a loan",
                   "-trains rust", "The bank exports", "Phase 3 begins", "floats",
                   "The game ends"):
        assert needle in text_1867, needle
    for needle in ("wins M6 for $", "wins P1 for $", "(dividends)", "Phase 3 begins",
                   "-trains rust", "closes", "The game ends (bank)",
                   "'s token goes to"):
        assert needle in text_1822, needle
    # a choice reads as what it picks, not "GTP: choose" (the offer's words below it)
    assert ": choose" not in text_1822
    assert "GTP chooses option 2\n    Attach the grain train to the 3-train" in text_1822
    assert "CPR chooses withhold" in text_1822
