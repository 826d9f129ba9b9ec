"""Actions round-trip through the 18xx.games export dictionaries."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from desk18xx.engine.actions import ACTION_TYPES, BuyTrain, LayTile, action_from_dict

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"


def _strip(d: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in d.items() if k != "original_id"}
    if "auto_actions" in out:
        out["auto_actions"] = [_strip(a) for a in out["auto_actions"]]
    return out


def _files() -> list[Path]:
    return sorted(FIXTURES.glob("*/*.json"))


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_round_trip_every_fixture_action(path: Path) -> None:
    data = json.loads(path.read_text())
    for raw in data["actions"]:
        action = action_from_dict(raw)
        assert action.to_dict() == _strip(raw), raw


def test_types_cover_the_brief() -> None:
    for name in ("bid", "pass", "par", "buy_shares", "sell_shares", "buy_company", "lay_tile",
                 "place_token", "remove_token", "run_routes", "dividend", "buy_train",
                 "discard_train", "convert", "merge", "choose", "take_loan", "payoff_loan",
                 "end_game", "acquire_company", "assign", "payoff_player_debt",
                 "payoff_player_debt_partial", "choose_ability", "program_share_pass",
                 "program_buy_shares", "program_merger_pass", "program_disable", "message"):
        assert name in ACTION_TYPES


def test_values_are_immutable_and_hashable() -> None:
    a = LayTile(entity="CV", entity_type="corporation", hex="K13", tile="58-0", rotation=2)
    assert a == LayTile.from_dict(a.to_dict())
    assert hash(a) == hash(LayTile.from_dict(a.to_dict()))
    with pytest.raises(AttributeError):
        a.rotation = 3  # type: ignore[misc]
    b = BuyTrain(entity="CV", entity_type="corporation", train="2-0", price=100)
    assert b.to_dict()["train"] == "2-0"
