"""Undo/redo filtering as 18xx.games does it (desk18xx.engine.log; export-format doc §3.2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from desk18xx.engine.log import (
    LogError,
    chat_messages,
    effective_actions,
    filter_log,
    with_auto_actions,
)

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"


def act(id_: int, type_: str = "pass", **fields: Any) -> dict[str, Any]:
    return {"id": id_, "type": type_, "entity": 1, "entity_type": "player", **fields}


def ids(raw: list[dict[str, Any]]) -> list[int]:
    return [a["id"] for a in effective_actions(raw)]


def test_plain_log_is_all_live_and_in_array_order_not_id_order() -> None:
    raw = [act(1), act(3), act(2)]
    assert ids(raw) == [1, 3, 2]
    assert filter_log(raw).positions == (0, 1, 2)


def test_empty_log() -> None:
    result = filter_log([])
    assert result.actions == () and result.messages == () and not result.redo_possible


def test_undo_takes_back_the_latest_action() -> None:
    raw = [act(1), act(2), act(3, "undo"), act(4)]
    assert ids(raw) == [1, 4]


def test_repeated_undos_walk_back() -> None:
    raw = [act(1), act(2), act(3), act(4, "undo"), act(5, "undo")]
    assert ids(raw) == [1]
    assert filter_log(raw).redo_possible


def test_undo_with_nothing_to_undo_is_harmless_and_redo_restores_nothing() -> None:
    raw = [act(1, "undo"), act(2, "redo"), act(3)]
    assert ids(raw) == [3]


def test_undo_to_action_id_takes_back_everything_after_it() -> None:
    raw = [act(1), act(2), act(3), act(4), act(5, "undo", action_id=2)]
    assert ids(raw) == [1, 2]


def test_undo_to_action_id_zero_takes_back_everything() -> None:
    raw = [act(1), act(2), act(3, "undo", action_id=0), act(4)]
    assert ids(raw) == [4]


def test_undo_target_is_matched_by_id_not_by_position() -> None:
    raw = [act(10), act(30), act(20), act(40), act(50, "undo", action_id=30)]
    assert ids(raw) == [10, 30]


def test_undo_to_an_unknown_id_is_an_error() -> None:
    with pytest.raises(LogError, match="action_id 99") as info:
        filter_log([act(1), act(2, "undo", action_id=99)])
    assert info.value.position == 1


def test_undo_action_id_must_be_an_integer() -> None:
    with pytest.raises(LogError, match="must be an integer"):
        filter_log([act(1), act(2, "undo", action_id="1")])


def test_redo_restores_the_last_undo_group() -> None:
    raw = [act(1), act(2), act(3), act(4, "undo", action_id=1), act(5, "redo")]
    assert ids(raw) == [1, 2, 3]
    assert not filter_log(raw).redo_possible


def test_redo_twice_after_two_undos() -> None:
    raw = [act(1), act(2), act(3, "undo"), act(4, "undo"), act(5, "redo"), act(6, "redo")]
    assert ids(raw) == [1, 2]
    raw = [act(1), act(2), act(3, "undo"), act(4, "undo"), act(5, "redo")]
    assert ids(raw) == [1]


def test_redo_after_a_new_action_is_invalid() -> None:
    raw = [act(1), act(2), act(3, "undo"), act(4), act(5, "redo")]
    with pytest.raises(LogError, match="nothing to redo") as info:
        filter_log(raw)
    assert info.value.position == 4


def test_undo_of_a_redone_action_and_redo_again() -> None:
    raw = [act(1), act(2), act(3, "undo"), act(4, "redo"), act(5, "undo"), act(6, "redo")]
    assert ids(raw) == [1, 2]


def test_undo_skips_messages_and_messages_stay_out_of_the_rules_stream() -> None:
    raw = [act(1), act(2), act(3, "message", message="oops"), act(4, "undo")]
    result = filter_log(raw)
    assert [a["id"] for a in result.actions] == [1]
    assert [m["message"] for m in result.messages] == ["oops"]
    assert chat_messages(raw) == [raw[2]]


def test_undo_to_zero_keeps_messages() -> None:
    raw = [act(1, "message", message="hi"), act(2), act(3, "undo", action_id=0)]
    result = filter_log(raw)
    assert result.actions == ()
    assert result.messages == (raw[0],)


def test_messages_do_not_clear_the_redo_stack() -> None:
    raw = [act(1), act(2), act(3, "undo"), act(4, "message", message="x"), act(5, "redo")]
    assert ids(raw) == [1, 2]


def test_log_entries_can_be_undone_but_messages_cannot() -> None:
    raw = [act(1), act(2, "log", message="consent"), act(3, "message", message="m"), act(4, "undo")]
    result = filter_log(raw)
    assert [a["id"] for a in result.actions] == [1]
    assert len(result.messages) == 1


def test_program_actions_are_ordinary_live_actions_that_clear_redo() -> None:
    raw = [
        act(1),
        act(2, "undo"),
        act(3, "program_share_pass", unconditional=False, indefinite=False),
        act(4, "redo"),
    ]
    with pytest.raises(LogError, match="nothing to redo"):
        filter_log(raw)
    assert ids(raw[:3]) == [3]
    raw = [act(1), act(2, "program_disable", reason="user"), act(3, "undo")]
    assert ids(raw) == [1]


def test_end_game_is_live_and_can_be_undone() -> None:
    assert ids([act(1), act(2, "end_game")]) == [1, 2]
    assert ids([act(1), act(2, "end_game"), act(3, "undo")]) == [1]


def test_auto_actions_share_their_parents_fate_and_follow_it() -> None:
    child = {"type": "pass", "entity": "CPR", "entity_type": "corporation"}
    parent = act(2, "lay_tile", auto_actions=[child])
    assert list(with_auto_actions(effective_actions([act(1), parent]))) == [act(1), parent, child]
    assert ids([act(1), parent, act(3, "undo")]) == [1]


def test_positions_map_live_actions_back_to_the_raw_log() -> None:
    raw = [act(1), act(2, "message", message="m"), act(3), act(4, "undo", action_id=1), act(5)]
    result = filter_log(raw)
    assert [a["id"] for a in result.actions] == [1, 5]
    assert result.positions == (0, 4)


def test_entries_need_a_string_type() -> None:
    with pytest.raises(LogError, match="'type' must be a string") as info:
        filter_log([act(1), {"id": 2}])
    assert info.value.position == 1


# Fixture totals from export-format doc §5.1 ("in file (live after undo filtering)").
@pytest.mark.parametrize(
    ("folder", "total", "live"),
    [("1867", 1271, 1271), ("1822CA", 1938, 1604), ("1822CAERS", 944, 944),
     ("1822CAWRS", 1126, 961)],
)
def test_fixture_live_counts_match_the_reference_engine(folder: str, total: int, live: int) -> None:
    raw_total = live_total = 0
    for path in sorted((FIXTURES / folder).glob("*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))["actions"]
        result = filter_log(raw)
        raw_total += len(raw)
        live_total += len(result.actions) + len(result.messages)
    assert (raw_total, live_total) == (total, live)
