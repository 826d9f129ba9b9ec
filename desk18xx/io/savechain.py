"""The save file's hash chain (docs/save-format.md, "Hash chain").

Each action's hash is the first `HASH_CHARS` hex digits of
``sha256(previous_hash + "\n" + canonical_json(action))``; the first
``previous_hash`` is `setup_hash`, itself the hash of the setup mapping after
the tag ``"desk18xx-save"``. The algorithm is the same for every format version.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

HASH_CHARS: Final = 16
"""Hex characters kept of each SHA-256 (64 bits)."""
_CHAIN_TAG: Final = "desk18xx-save"


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, UTF-8 text, no NaN: the bytes the chain hashes."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def link_hash(previous: str, value: Any) -> str:
    """The hash that follows `previous` for `value`."""
    text = f"{previous}\n{canonical_json(value)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:HASH_CHARS]


def setup_hash(setup: Mapping[str, Any]) -> str:
    """The chain's starting hash: the setup mapping as written in the file."""
    return link_hash(_CHAIN_TAG, setup)


def chain_hashes(setup: Mapping[str, Any], actions: Sequence[Any]) -> list[str]:
    """The hash of each action, starting from `setup_hash`."""
    hashes: list[str] = []
    previous = setup_hash(setup)
    for action in actions:
        previous = link_hash(previous, action)
        hashes.append(previous)
    return hashes


def rechain(document: dict[str, Any]) -> dict[str, Any]:
    """Recompute every hash of a (migrated) document in place and return it."""
    actions = [entry["action"] for entry in document["actions"]]
    hashes = chain_hashes(document["setup"], actions)
    document["setup_hash"] = setup_hash(document["setup"])
    document["actions"] = [{"hash": h, "action": a} for h, a in zip(hashes, actions, strict=True)]
    document["end"]["action_count"] = len(actions)
    document["end"]["head"] = hashes[-1] if hashes else document["setup_hash"]
    return document
