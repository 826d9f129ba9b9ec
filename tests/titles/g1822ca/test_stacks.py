"""The 1822CA company stacks match 18xx.games (supplement §13, export-format doc §7.3)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from desk18xx.engine.log import effective_actions, with_auto_actions
from desk18xx.titles.g1822ca.stacks import (
    BidBox,
    CompanyStacks,
    company_stacks,
    starting_companies,
)

FIXTURES = Path(__file__).resolve().parents[3].parent / "shared" / "fixtures" / "18xx.games"
OUR_TITLE = {"1822CA": "1822CA", "1822CA ERS": "1822CA-ERS", "1822CA WRS": "1822CA-WRS"}
CA_FIXTURES = sorted(
    path.relative_to(FIXTURES).as_posix()
    for folder in ("1822CA", "1822CAERS", "1822CAWRS")
    for path in (FIXTURES / folder).glob("*.json")
)


def test_full_order_for_seed_337421161_matches_the_engine() -> None:
    # export-format doc §7.3: the engine's own company order after setup.
    stacks = company_stacks("1822CA", 337421161, 4)
    assert stacks.minors == tuple(
        "M6 M22 M21 M28 M25 M17 M9 M8 M16 M11 M15 M30 M12 M10 M27 M14 M3 M29 M7 M5 M2 M1 M24 "
        "M26 M19 M18 M23 M20 M13 M4".split()
    )
    assert stacks.concessions == tuple("C2 C10 C6 C5 C4 C9 C3 C1 C7 C8".split())
    assert stacks.privates == tuple(
        "P1 P6 P20 P16 P5 P9 P21 P18 P26 P3 P12 P25 P17 P27 P19 P2 P10 P8 P13 P4 P7 P29 P22 "
        "P24 P11 P30 P23 P14 P15 P28".split()
    )
    assert stacks.order == stacks.minors + stacks.concessions + stacks.privates
    assert stacks.bid_box() == BidBox(
        ("M6", "M22", "M21", "M28"), ("C2", "C10", "C6"), ("P1", "P6", "P20")
    )


@pytest.mark.parametrize(
    ("title", "seed", "players", "minors", "concessions", "privates"),
    [
        # supplement §13 example (7 players)
        ("1822CA", 425, 7, "M6 M21 M28 M8 M7 M3", "C2 C5 C1 C4 C6", "P1 P11 P27 P24 P20 P15"),
        # export-format doc §7.3, the other shared fixtures
        ("1822CA", 1705813307, 4, "M6 M24 M15 M18", "C2 C4 C3 C10 C1", "P1 P3 P21 P23"),
        ("1822CA-ERS", 382677413, 5, "M6 M5 M11 M8", "C2 C4 C6 C8 C10 C7", "P1 P8 P6 P12"),
        ("1822CA-WRS", 2029016302, 5, "M24 M18 M26 M27", "C2 C5 C8 C9 C3 C1", "P1 P8 P26 P18"),
    ],
)
def test_stack_tops_match_known_games(
    title: str, seed: int, players: int, minors: str, concessions: str, privates: str
) -> None:
    stacks = company_stacks(title, seed, players)
    for stack, expected in (
        (stacks.minors, minors),
        (stacks.concessions, concessions),
        (stacks.privates, privates),
    ):
        assert stack[: len(expected.split())] == tuple(expected.split())


@pytest.mark.parametrize(
    ("title", "players", "count"),
    [
        ("1822CA", 2, 70),
        ("1822CA", 7, 70),
        ("1822CA-ERS", 3, 23 + 6 + 19),
        ("1822CA-ERS", 2, 15 + 6 + 19),
        ("1822CA-WRS", 5, 18 + 6 + 15),
        ("1822CA-WRS", 2, 15 + 6 + 15),
    ],
)
def test_each_stack_is_a_permutation_of_the_starting_set(
    title: str, players: int, count: int
) -> None:
    start = starting_companies(title, players)
    assert len(start) == count
    stacks = company_stacks(title, 12345, players)
    assert sorted(stacks.order) == sorted(start)
    assert stacks.concessions[0] == "C2" and stacks.privates[0] == "P1"
    if title != "1822CA-WRS":
        assert stacks.minors[0] == "M6"


def test_two_player_regional_sets_differ() -> None:
    assert "P4" in starting_companies("1822CA-ERS", 3)
    assert "P4" not in starting_companies("1822CA-ERS", 2)
    assert "P9" in starting_companies("1822CA-WRS", 2)
    assert "P9" not in starting_companies("1822CA-WRS", 4)


def test_bid_box_skips_gone_companies() -> None:
    stacks = CompanyStacks(("M1", "M2", "M3", "M4", "M5"), ("C1", "C2"), ("P1",))
    box = stacks.bid_box({"M2", "C1"})
    assert box.minors == ("M1", "M3", "M4", "M5")
    assert box.concessions == ("C2",)
    assert "P1" in box and "M2" not in box
    assert box.companies == ("M1", "M3", "M4", "M5", "C2", "P1")


@pytest.mark.parametrize(
    ("title", "players"), [("1867", 4), ("1822CA", 1), ("1822CA", 8), ("1822CA-ERS", 6)]
)
def test_rejects_unknown_title_or_player_count(title: str, players: int) -> None:
    with pytest.raises(ValueError):
        company_stacks(title, 1, players)


# --- every live bid of every 1822CA fixture lies in its stock round's bid box ----------

STOCK_ROUND_TYPES = {"bid", "par", "buy_shares", "pass"}
"""Player actions that only a stock round accepts (players also sell in an OR, to fund trains)."""


def _stock_rounds(
    actions: list[dict[str, Any]],
) -> list[tuple[list[dict[str, Any]], list[dict[str, Any]]]]:
    """Split the applied actions into (stock round, following operating rounds) pairs.

    A stock round is the player actions between operating rounds; an operating
    round starts with the first action of a corporation. Player sales are left
    out: they also happen in an OR (emergency money raising).
    """
    rounds: list[tuple[list[dict[str, Any]], list[dict[str, Any]]]] = [([], [])]
    in_or = False
    for action in actions:
        if action.get("entity_type") == "corporation":
            in_or = True
            rounds[-1][1].append(action)
        elif action.get("entity_type") == "player" and action["type"] in STOCK_ROUND_TYPES:
            if in_or:
                rounds.append(([], []))
                in_or = False
            rounds[-1][0].append(action)
    return rounds


def _check_fixture(path: Path) -> tuple[int, int]:
    data = json.loads(path.read_text(encoding="utf-8"))
    title = OUR_TITLE[data["title"]]
    stacks = company_stacks(title, data["settings"]["seed"], len(data["players"]))
    applied = list(with_auto_actions(effective_actions(data["actions"])))
    rounds = _stock_rounds(applied)
    gone: set[str] = set()
    bids_checked = 0
    for number, (stock_round, operating_rounds) in enumerate(rounds, start=1):
        box = stacks.bid_box(gone)
        bid_on = [action["company"] for action in stock_round if action["type"] == "bid"]
        for company in bid_on:
            assert company in box, f"{path.name} SR{number}: bid on {company} not in {box}"
        bids_checked += len(bid_on)
        gone.update(bid_on)
        if box.minors and box.minors[0] not in bid_on:
            gone.add(box.minors[0])  # the unbid first minor closes (doc §7.3)
        # from phase 5 a major may take a minor still in the bank (merge)
        gone.update(
            f"M{action['corporation']}"
            for action in operating_rounds
            if action["type"] == "merge"
        )
    return len(rounds), bids_checked


@pytest.mark.parametrize("fixture", CA_FIXTURES)
def test_every_live_bid_is_in_the_computed_bid_box(fixture: str) -> None:
    rounds, bids = _check_fixture(FIXTURES / fixture)
    assert rounds >= 3
    assert bids > 10


def test_the_bid_box_check_fails_for_a_wrong_seed() -> None:
    # Guards against a vacuous check: another seed's stacks do not fit the bids.
    path = FIXTURES / "1822CA" / "1822CA_game_end_bank.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    stacks = company_stacks("1822CA", 337421161 + 1, 4)
    applied = list(with_auto_actions(effective_actions(data["actions"])))
    first_round = _stock_rounds(applied)[0][0]
    bids = {a["company"] for a in first_round if a["type"] == "bid"}
    assert not bids <= set(stacks.bid_box().companies)


def test_first_bids_of_the_bank_game_are_in_the_first_box() -> None:
    data = json.loads((FIXTURES / "1822CA" / "1822CA_game_end_bank.json").read_text("utf-8"))
    bids = [a["company"] for a in effective_actions(data["actions"]) if a["type"] == "bid"]
    # doc §7.3 quotes "M6, C6, P1, C6, P6, M21, M28, P20, C2, C10" (it skips some raises)
    assert bids[:14] == "M6 C6 P1 C6 P6 M21 M28 P20 M28 C2 C6 C6 P1 P1".split()
    assert set(bids[:10]) <= set(company_stacks("1822CA", 337421161, 4).bid_box().companies)
