"""The declared position of a game and its versioned digest (like a chess FEN).

:func:`position` is a documented, plain-data summary of what decides the rest of
the game, built from declared concepts only (never by reflecting over the
engine's attributes), so that refactoring the engine does not change it:

- the players: cash, pass flag, certificates, privates;
- the bank's cash, every certificate (owner, percent, president's), every
  private (owner, closed, discount);
- every corporation: cash, trains, placed and unplaced tokens, share price and
  market cell, loans, privates, flags (IPOed, floated, operated, closed), par;
- the trains (owner, rusted, operated) and the depot order; the market stacks;
- the board: laid tiles and rotations, tokens and markers (:func:`board_summary`);
- the phase, the round (kind, number, turn), who acts, in which step (its
  name) and which action types are open to them, each step's passed and acted
  flags, and the sealed-bid boxes where the title has them;
- what a title declares beyond that (:meth:`Game.position_extra`: loans left,
  game-end trigger, an auction's standing bids, …).

History that does not change the position is left out (the log, action ids,
chat, programmed orders).  The layout of each version is frozen: a change to
what is covered is a new version number, and :func:`position_digest` keeps the
old versions computable.  ``docs/save-format.md`` ("The position") lists the
fields.

:func:`state_digest` (``"p1-"`` followed by 64 hex digits) is what
``end.state_digest`` of a save holds; study mode uses it to find transpositions.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from collections.abc import Mapping
from enum import Enum
from typing import Any, Final

from desk18xx.engine.game import Game

POSITION_VERSION: Final = 1
"""The version :func:`position` writes."""

KNOWN_VERSIONS: Final = frozenset({1})
"""Versions whose digest this build can compute."""

_VERSIONED: Final = re.compile(r"^p([1-9][0-9]{0,3})-([0-9a-f]{64})$")


def plain(value: Any, depth: int = 0) -> Any:
    """JSON-ready data for a declared value (enums by value, sets sorted, dataclasses
    by their compared fields); None for anything that is not plain data."""
    if isinstance(value, Enum):
        return plain(value.value, depth)
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return repr(value)
    if depth > 6:
        return None
    if isinstance(value, Mapping):
        return {str(k): plain(v, depth + 1) for k, v in sorted(value.items(), key=_key)}
    if isinstance(value, list | tuple):
        return [plain(v, depth + 1) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((plain(v, depth + 1) for v in value), key=json.dumps)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name), depth + 1)
                for f in dataclasses.fields(value) if f.compare}
    return None


def _key(item: tuple[Any, Any]) -> str:
    return str(item[0])


def board_summary(game: Game) -> dict[str, Any]:
    """The board part of the position: ``tiles`` (hex -> laid tile and rotation)
    and ``tokens`` (hex -> its tokens and markers); empty without a board."""
    own = game.position_board()
    if own is not None:  # a title's declared layout (1867: per city its slots)
        return own
    board = game.board
    out: dict[str, Any] = {}
    if board is not None:  # engine/map/board.py: its HexStates
        out["tiles"] = {st.hex_id: [st.tile_id, st.rotation]
                        for st in sorted(board, key=lambda st: st.hex_id) if not st.printed}
        out["tokens"] = {st.hex_id: plain([st.tokens, st.extra_tokens, st.reserved,
                                           st.hex_reservations, sorted(st.markers),
                                           st.blockers, len(st.borders)])
                         for st in sorted(board, key=lambda st: st.hex_id)}
    return out


def changed_hexes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """Hexes whose tile or tokens differ between two `board_summary` results, sorted."""
    hexes: set[str] = set()
    for part in ("tiles", "tokens"):
        old, new = before.get(part, {}), after.get(part, {})
        hexes.update(h for h in set(old) | set(new) if old.get(h) != new.get(h))
    return sorted(hexes)


def position(game: Game) -> dict[str, Any]:
    """The declared position, version `POSITION_VERSION` (plain JSON data)."""
    market = game.market
    out: dict[str, Any] = {
        "version": POSITION_VERSION,
        "title": game.title_id,
        "players": [
            {"id": p.id, "cash": game.cash.get(p.id, 0), "passed": p.passed,
             "certificates": sorted(s.id for s in game.shares.values() if s.owner == p.id),
             "privates": sorted(c.id for c in game.companies.values()
                                if c.owner == p.id and not c.closed)}
            for p in game.players
        ],
        "bank": game.cash.get("bank", 0),
        "holdings": {k: v for k, v in sorted(game.cash.items())},
        "certificates": {s.id: [s.owner, s.percent, s.president]
                         for s in sorted(game.shares.values(), key=lambda s: s.id)},
        "privates": {c.id: [c.owner, c.closed, c.discount]
                     for c in sorted(game.companies.values(), key=lambda c: c.id)},
        "corporations": {
            c.id: {
                "cash": game.cash.get(c.id, 0),
                "trains": list(c.trains),
                "tokens": [[t.price, t.hex, t.city] for t in c.tokens],
                "price": market.price(c.id),
                "cell": list(market.where[c.id]) if c.id in market.where else None,
                "privates": list(c.companies),
                "loans": c.loans,
                "flags": [c.ipoed, c.floated, c.operated, c.closed],
                "par": c.par_price,
            }
            for c in sorted(game.corps.values(), key=lambda c: c.id)
        },
        "trains": {t.id: [t.owner, t.rusted, t.operated]
                   for t in sorted(game.trains.values(), key=lambda t: t.id)},
        "depot": list(game.depot),
        "market": {f"{r},{c}": list(v) for (r, c), v in sorted(market.stacks.items()) if v},
        "phase": game.phase.name if game.phases else None,
        "turn": game.turn,
        "finished": game.finished,
        "end_reason": game.end_reason,
    }
    out.update(board_summary(game))
    r = game.round
    if r is not None and not game.finished:
        legal = game.legal_actions()
        out["round"] = {"kind": r.kind.value, "number": r.round_num,
                        "order": list(r.entities), "acting": legal.entity,
                        "step": legal.step, "open": sorted(legal.types),
                        "progress": [[type(s).__name__, s.passed, s.acted] for s in r.steps]}
    boxes = game.bid_boxes()
    if boxes is not None:
        out["bid_boxes"] = plain(boxes)
    out["title_state"] = plain(game.position_extra())
    return out


def canonical(data: Any) -> str:
    """The canonical JSON text a digest is taken of."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False, default=str)


def state_digest(game: Game) -> str:
    """The versioned digest of `position`: ``"p1-"`` and SHA-256 in hex."""
    text = canonical(position(game))
    return f"p{POSITION_VERSION}-" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def digest_version(digest: str) -> int | None:
    """The position version a digest was taken with; None for an unversioned
    (legacy, before version 1) digest, which cannot be recomputed."""
    match = _VERSIONED.match(digest)
    return int(match.group(1)) if match else None


def position_digest(game: Game, version: int) -> str:
    """The digest of ``game`` in position version ``version`` (one of `KNOWN_VERSIONS`).

    Raises:
        ValueError: a version this build does not know.
    """
    if version not in KNOWN_VERSIONS:
        raise ValueError(f"position version {version} is not known to this version")
    return state_digest(game)


def state_summary(game: Game) -> dict[str, Any]:
    """Alias of `position` (the name before the position was declared)."""
    return position(game)


__all__ = ["POSITION_VERSION", "board_summary", "canonical", "changed_hexes",
           "digest_version", "plain", "position", "position_digest", "state_digest",
           "state_summary"]
