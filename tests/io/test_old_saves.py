"""Saves written by earlier releases open to the same position in this one.

``tests/io/old_saves/<release>/`` holds files written by that release
(``tools/make_old_saves.py``: both titles and the scenarios, mid-game and
finished, study files with a branch, names, notes and marks, a programmed
order).  ``expected.json`` records, per file, the position digest it opened to
when the corpus was added and what its study tree holds.  A rules fix that
changes one of them must say so by updating ``expected.json`` in its own commit
(``DESK18XX_RECORD_OLD_SAVES=1`` rewrites it); a refactor never may.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from desk18xx.engine.digest import state_digest
from desk18xx.io.replaying import LEGACY_NOTE, open_save
from desk18xx.io.study import load_study

CORPUS = Path(__file__).resolve().parent / "old_saves"
EXPECTED = CORPUS / "expected.json"
FILES = sorted(CORPUS.glob("*/*.d18xx"))


def _describe(path: Path) -> dict[str, Any]:
    opened = open_save(path)
    study = load_study(path)
    nodes = list(study.tree.nodes())
    return {
        "position": state_digest(opened.game),
        "actions": len(opened.saved.actions),
        "finished": opened.game.finished,
        "digest_checked": opened.digest_checked,
        "nodes": len(nodes),
        "names": sorted(n.name for n in nodes if n.name),
        "notes": sorted(n.note for n in nodes if n.note),
        "marks": sorted(m.value for n in nodes for m in n.marks),
        "player_notes": dict(sorted(opened.saved.notes.items())),
    }


def test_the_corpus_is_there() -> None:
    names = {p.name for p in FILES}
    assert len(FILES) >= 15
    for title in ("1867", "1822CA", "1822CA-ERS", "1822CA-WRS"):
        assert f"{title}-finished.d18xx" in names and f"{title}-midgame.d18xx" in names
    assert {"1867-small-study.d18xx", "1822CA-small-study.d18xx",
            "1867-programmed.d18xx"} <= names


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_an_old_save_opens_to_the_same_position(path: Path) -> None:
    key = f"{path.parent.name}/{path.name}"
    got = _describe(path)
    if os.environ.get("DESK18XX_RECORD_OLD_SAVES") == "1":
        recorded = json.loads(EXPECTED.read_text()) if EXPECTED.exists() else {}
        recorded[key] = got
        EXPECTED.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    expected = json.loads(EXPECTED.read_text())[key]
    assert got == expected


def test_a_legacy_digest_is_reported_not_refused() -> None:
    """Files of 0.1.0 carry a digest of the engine's attributes: it cannot be
    recomputed, so the app says the position was not confirmed."""
    opened = open_save(CORPUS / "0.1.0" / "1867-small-finished.d18xx")
    assert not opened.digest_checked and opened.digest_note == LEGACY_NOTE
    assert opened.complete and opened.game.finished
