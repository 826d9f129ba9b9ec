"""A digest of the game state: equal digests, same position (however it was reached).

`state_summary` is a canonical, plain-data summary of what decides the rest
of the game: each player's cash, certificates, privates and pass flag; each
corporation's cash, trains, tokens, price, loans and flags; the privates; the
depot; the board's tiles and tokens; the phase; the round, its entities and
its steps' flags; and every other plain attribute a title keeps on its game
(``loans_left``, ``bank_broken``, …). History that does not change the
position is left out (the log text, the action count, action ids).
`state_digest` is the SHA-256 of its canonical JSON (sorted keys).

It is used for transpositions in study mode and for ``end.state_digest`` of
save files.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping
from enum import Enum
from typing import Any, Final

from desk18xx.engine.game import Game

_SKIP: Final = frozenset({
    "setup", "players", "cash", "companies", "corps", "shares", "trains", "depot", "phases",
    "phase_index", "market", "board", "round", "log", "actions_applied", "entries", "config",
})
"""Game attributes summarised explicitly, static, or history (not position)."""


def _plain(value: Any, depth: int = 0) -> Any:
    """Plain JSON data for simple values; None (left out) for anything else."""
    if value is None or isinstance(value, bool | int | str):
        return value.value if isinstance(value, Enum) else value
    if isinstance(value, float):
        return repr(value)
    if depth > 4:
        return None
    if isinstance(value, Mapping):
        return {str(k): _plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v, depth + 1) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((_plain(v, depth + 1) for v in value), key=lambda v: json.dumps(v))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name), depth + 1)
                for f in dataclasses.fields(value) if f.compare}
    return None


def _step_summary(step: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"step": type(step).__name__}
    for key, value in sorted(getattr(step, "__dict__", {}).items()):
        if key == "round":
            continue
        plain = _plain(value)
        if plain is not None or value is None:
            out[key] = plain
    return out


def board_summary(game: Game) -> dict[str, Any]:
    """The board part of `state_summary`: ``tiles`` (hex -> laid tile and rotation)
    and ``tokens`` (hex -> its tokens and markers); empty without a board."""
    board: Any = game.board
    out: dict[str, Any] = {}
    if board is not None and hasattr(board, "placed"):  # engine/board_lite.py (1867)
        out["tiles"] = {h: [p.tile_id, p.rotation] for h, p in sorted(board.placed.items())
                        if not p.printed}
        out["tokens"] = {h: slots for h, slots in sorted(board.tokens.items())
                         if any(any(s is not None for s in city) for city in slots)}
    elif board is not None:  # engine/map/board.py (1822CA): iterates its HexStates
        out["tiles"] = {st.hex_id: [st.tile_id, st.rotation]
                        for st in sorted(board, key=lambda st: st.hex_id) if not st.printed}
        out["tokens"] = {st.hex_id: _plain([st.tokens, st.extra_tokens, st.reserved,
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


def state_summary(game: Game) -> dict[str, Any]:
    """The canonical summary the digest is taken of (plain JSON data)."""
    market = game.market
    summary: dict[str, Any] = {
        "title": game.title_id,
        "players": [
            {"id": p.id, "cash": game.cash.get(p.id, 0), "passed": p.passed,
             "shares": sorted(s.id for s in game.shares.values() if s.owner == p.id),
             "companies": sorted(c.id for c in game.companies.values()
                                 if c.owner == p.id and not c.closed)}
            for p in game.players
        ],
        "bank": game.cash.get("bank", 0),
        "cash": {k: v for k, v in sorted(game.cash.items())},
        "shares": {s.id: [s.owner, s.percent, s.president] for s in game.shares.values()},
        "companies": {c.id: [c.owner, c.closed, c.discount] for c in game.companies.values()},
        "corps": {
            c.id: {
                "cash": game.cash.get(c.id, 0),
                "trains": list(c.trains),
                "tokens": [[t.price, t.hex, t.city] for t in c.tokens],
                "price": market.price(c.id),
                "cell": list(market.where[c.id]) if c.id in market.where else None,
                "companies": list(c.companies),
                "loans": c.loans,
                "flags": [c.ipoed, c.floated, c.operated, c.closed],
                "par": c.par_price,
                "max_ownership": c.max_ownership,
            }
            for c in game.corps.values()
        },
        "trains": {t.id: [t.owner, t.rusted, t.operated, t.buyable, t.available_on]
                   for t in game.trains.values()},
        "depot": list(game.depot),
        "market": {f"{r},{c}": list(v) for (r, c), v in sorted(market.stacks.items()) if v},
        "phase": game.phase.name if game.phases else None,
        "turn": game.turn,
        "finished": game.finished,
        "end_reason": game.end_reason,
    }
    summary.update(board_summary(game))
    r = game.round
    if r is not None:
        summary["round"] = {
            "kind": r.kind.value,
            "num": r.round_num,
            "entities": list(r.entities),
            "entity_index": r.entity_index,
            "steps": [_step_summary(s) for s in r.steps],
            "extra": {k: _plain(v) for k, v in sorted(getattr(r, "__dict__", {}).items())
                      if k not in ("round_num", "entities", "entity_index", "steps")},
        }
    extra: dict[str, Any] = {}
    for key, value in sorted(vars(game).items()):
        if key in _SKIP or key.startswith("_"):
            continue
        plain = _plain(value)
        if plain is not None or value is None:
            extra[key] = plain
    summary["extra"] = extra
    return summary


def state_digest(game: Game) -> str:
    """SHA-256 (hex) of the canonical JSON of `state_summary`."""
    text = json.dumps(state_summary(game), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


__all__ = ["state_digest", "state_summary"]
