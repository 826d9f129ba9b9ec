"""Actions in words (desk18xx.engine.describe)."""

from __future__ import annotations

from desk18xx.engine.actions import action_from_dict
from desk18xx.engine.describe import describe


def test_sentences_for_common_actions() -> None:
    cases = {
        "Ann bids $30 on C&SL": {"type": "bid", "entity": 1, "company": "C&SL", "price": 30},
        "CPR lays tile 57-0 on H12 (rotation 2)": {"type": "lay_tile", "entity": "CPR",
                                                   "entity_type": "corporation", "hex": "H12",
                                                   "tile": "57-0", "rotation": 2},
        "CPR buys train 2-0 for $100": {"type": "buy_train", "entity": "CPR", "train": "2-0",
                                        "price": 100, "variant": "2"},
        "Ann programs: Pass in stock rounds": {"type": "program_share_pass", "entity": 1},
        "Ann programs: Pass on mergers in the merger round (BO, KP)": {
            "type": "program_merger_pass", "entity": 1,
            "corporations_by_round": {"MR": ["BO", "KP"]}},
        "Ann stops the programmed action (CNR is floated)": {
            "type": "program_disable", "entity": 1, "reason": "CNR is floated"},
        "Ann passes": {"type": "pass", "entity": 1},
        "BO runs 2-0 for $60": {"type": "run_routes", "entity": "BO",
                                "entity_type": "corporation",
                                "routes": [{"train": "2-0", "connections": [["M9", "L10"]],
                                            "revenue": 60}]},
        "Ann: undo": {"type": "undo", "entity": 1},
    }
    for text, raw in cases.items():
        name = "Ann" if raw["entity"] == 1 else str(raw["entity"])
        assert describe(action_from_dict(raw), name) == text
