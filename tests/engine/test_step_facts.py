"""`StepFacts`: the declared fields a user interface reads instead of `details` keys.

Over recorded games of both titles, every kind of fact the interface uses is met at
least once, with the value the step's ``details`` carries: a step that renames a key
leaves its fact empty, and this test fails.
"""

from __future__ import annotations

from pathlib import Path

from desk18xx.commands.replay import import_setup
from desk18xx.engine.actions import action_from_dict
from desk18xx.engine.game import StepFacts
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"


def _seen(fixture: str) -> set[str]:
    imported = load_export(FIXTURES / fixture)
    game = find_title(imported.title).new_game(import_setup(imported))
    seen: set[str] = set()
    for raw in imported.actions:
        legal = game.legal_actions()
        d, facts = legal.details, legal.facts
        if "min_bid" in d and ("company" in d or "corporation" in d):
            assert facts.auction_item == str(d.get("company") or d.get("corporation"))
            assert facts.min_bid == d["min_bid"]
            seen.add("auction")
        if d.get("bids_per_turn") is not None:
            assert (facts.bids_this_turn, facts.bids_per_turn) == (
                d["bids_this_turn"], d["bids_per_turn"])
            seen.add("bids")
        if d.get("acted_this_turn"):
            assert facts.acted_this_turn
            seen.add("acted")
        if d.get("must_buy") is True:
            assert facts.must_buy
            seen.add("must_buy")
        if d.get("choice_labels"):
            assert all(facts.label_of(k) == v for k, v in d["choice_labels"].items())
            seen.add("labels")
        if "hexes" in d:
            assert facts.hexes == tuple(d["hexes"])
            seen.add("hexes")
        game.process(action_from_dict(raw))
    return seen


def test_every_fact_the_interface_reads_is_met_with_its_value() -> None:
    seen = _seen("1867/21268.json") | _seen("1822CA/1822CA_game_end_bank.json")
    assert seen >= {"auction", "bids", "acted", "must_buy", "hexes"}, seen


def test_facts_of_a_step_without_details_are_empty() -> None:
    facts = StepFacts.of({})
    assert facts.auction_item is None and facts.hexes is None and not facts.must_buy
    assert StepFacts.of({"company": "C&SL"}).auction_item is None  # no auction without a minimum
