"""The JSON fast path of yamlio.load gives exactly what PyYAML gives."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from desk18xx.io import yamlio
from desk18xx.io.savefile import SavedPlayer, SaveHeader, dump_save

HEADER = SaveHeader("1867", (SavedPlayer("1", "Ann"), SavedPlayer("2", "Bob")), 7)


def slow(text: str) -> Any:
    return yaml.load(text, Loader=yamlio.BaseLoader)


def actions(n: int) -> list[dict[str, Any]]:
    return [{"type": "bid", "entity": 1 + i % 2, "entity_type": "player", "id": i,
             "company": "C&SL", "price": 20 + i, "nested": {"a": [1, None, True, "x: y"]},
             "text": "ünï {braces} 'q' \"dq\" \\ back"} for i in range(n)]


def test_a_save_loads_the_same_as_with_pyyaml() -> None:
    text = dump_save(HEADER, actions(40), "d", notes={"1": "a\nb {c}"},
                     study={"current": 1, "nodes": [{"id": i, "parent": i - 1, "hash": "ab",
                                                     "action": a}
                                                    for i, a in enumerate(actions(10), 1)]})
    assert yamlio._load_flow_lines(text) is not yamlio._NO_FAST_PATH
    assert yamlio.load(text) == slow(text)


@pytest.mark.parametrize("twist", [
    "note: |\n" + "".join(f'  {{"inside": "a block scalar {i}"}}\n' for i in range(10)),
    "".join(f'k{i}: {{"f": 1.5}}\n' for i in range(10)),   # floats: YAML 1.1 reads them alike
    "".join(f'k{i}: {{"a": 1}} # comment\n' for i in range(10)),
])
def test_lines_the_fast_path_must_not_take_literally(twist: str) -> None:
    text = twist + dump_save(HEADER, actions(10), "d")
    assert yamlio.load(text) == slow(text)


def test_aliases_are_still_refused() -> None:
    text = dump_save(HEADER, actions(10), "d") + "x: &a [1]\ny: *a\n"
    with pytest.raises(yamlio.AliasError):
        yamlio.load(text)


def test_an_entry_cache_gives_the_same_text_for_a_growing_or_changed_log() -> None:
    from desk18xx.io.savefile import EntryCache

    cache = EntryCache()
    log = actions(30)
    for n in (0, 5, 6, 30):
        assert dump_save(HEADER, log[:n], "d", cache=cache) == dump_save(HEADER, log[:n], "d")
    log[3] = {**log[3], "price": 999}  # an earlier entry changed: rehashed from there
    assert dump_save(HEADER, log, "d", cache=cache) == dump_save(HEADER, log, "d")
    other = SaveHeader("1867", HEADER.players, 8)
    assert dump_save(other, log, "d", cache=cache) == dump_save(other, log, "d")
