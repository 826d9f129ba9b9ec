"""Field fuzz: mutate the numbers and ids of recorded actions and submit them.

For an action at its position, every field that carries a number, an id or a
list of ids is mutated (±1, ×10, another valid id, a repeated id, an empty
list) and the mutant is processed on a copy of the position.  Each outcome is
one of:

- ``refused``: the engine raised `IllegalAction` (a reason for the player);
- ``crashed``: it raised anything else (a bug: no reason a player understands);
- ``same``: accepted, and the position digest equals the original action's;
- ``choice``: accepted with another position, on a field that is the player's
  own choice (a bid's amount, the hex of a lay, …): another legal move;
- ``trusted``: accepted with another position on a field the engine can
  compute (a price, a percent, a cost, a revenue): the engine trusted the
  action.  Must be 0.

Run as a script for a long run: ``.venv/bin/python tests/golden/fieldfuzz.py
[--stride N] [--random N]``; the test suite runs a sample
(`tests/golden/test_field_fuzz.py`).
"""

from __future__ import annotations

import argparse
import collections
import copy
import json
import random
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desk18xx.commands.replay import import_setup
from desk18xx.engine.actions import action_from_dict
from desk18xx.engine.digest import state_digest
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game, GameSetup
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import TITLES, find_title

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"

COMPUTED: Mapping[str, frozenset[str]] = {
    # action type -> fields the engine can work out itself (never to be trusted)
    "buy_shares": frozenset({"percent", "share_price", "total_price"}),
    "sell_shares": frozenset({"percent", "share_price"}),
    "run_routes": frozenset({"revenue", "subsidy", "extra_revenue", "revenue_str"}),
    "place_token": frozenset({"cost"}),
    "hex_token": frozenset({"cost"}),
}
"""Fields that must never change the outcome when mutated (besides ``buy_train``'s
``price`` for a train from the depot, decided per action)."""

ENVELOPE = frozenset({"type", "entity_type", "id", "created_at", "user", "auto_actions",
                      "original_id"})
"""Fields that are not the action's content."""


@dataclass
class Tally:
    """Outcomes counted by kind, with examples of the bad ones."""

    counts: collections.Counter[str] = field(default_factory=collections.Counter)
    by_field: collections.Counter[str] = field(default_factory=collections.Counter)
    examples: dict[str, list[str]] = field(default_factory=lambda: collections.defaultdict(list))

    def add(self, kind: str, where: str, detail: str) -> None:
        self.counts[kind] += 1
        if kind in ("trusted", "crashed"):
            self.by_field[f"{kind} {where}"] += 1
            if len(self.examples[kind]) < 20:
                self.examples[kind].append(f"{where}: {detail}")

    def merge(self, other: Tally) -> None:
        self.counts.update(other.counts)
        self.by_field.update(other.by_field)
        for kind, items in other.examples.items():
            self.examples[kind].extend(items[: 20 - len(self.examples[kind])])

    @property
    def tried(self) -> int:
        return sum(self.counts.values())


def _ids(game: Game) -> dict[str, list[str]]:
    """Valid ids of each kind in this game, for 'another valid id'."""
    board: Any = game.board
    hexes: list[str] = []
    if board is not None:
        hexes = sorted(st.hex_id for st in board)
    return {
        "corporation": sorted(game.corps),
        "company": sorted(game.companies),
        "player": sorted(p.id for p in game.players),
        "train": sorted(game.trains),
        "share": sorted(game.shares),
        "hex": hexes,
    }


_ID_FIELDS = {
    "entity": None, "corporation": "corporation", "company": "company", "minor": "corporation",
    "train": "train", "hex": "hex", "exchange": "train", "shares": "share",
    "purchase_for": "player", "borrow_from": "player", "tokener": "corporation",
}


def mutants(raw: Mapping[str, Any], game: Game,
            rng: random.Random) -> Iterator[tuple[str, dict[str, Any]]]:
    """(field path, mutated action) for each mutation of ``raw``."""
    ids = _ids(game)
    for key, value in raw.items():
        if key in ENVELOPE:
            continue
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, int):
            for new in (value + 1, value - 1, value * 10 if value else 10):
                yield key, {**raw, key: new}
        elif isinstance(value, str):
            kind = _ID_FIELDS.get(key)
            if key == "entity":
                kind = {"corporation": "corporation", "company": "company",
                        "player": "player"}.get(str(raw.get("entity_type")))
            pool = [v for v in ids.get(kind or "", []) if v != value]
            if pool:
                yield key, {**raw, key: rng.choice(pool)}
            if key in ("city", "share_price", "tile"):
                yield key, {**raw, key: value + "0"}
        elif isinstance(value, list) and key != "routes":
            if value:
                yield key, {**raw, key: []}
                yield key, {**raw, key: value + [value[0]]}
                kind = _ID_FIELDS.get(key)
                pool = [v for v in ids.get(kind or "", []) if v not in value]
                if pool and isinstance(value[0], str):
                    yield key, {**raw, key: [rng.choice(pool)] + value[1:]}
        elif key == "routes" and isinstance(value, list) and value:
            for index, route in enumerate(value):
                if not isinstance(route, Mapping):
                    continue
                for rkey in ("revenue", "subsidy"):
                    if isinstance(route.get(rkey), int):
                        for new in (route[rkey] + 10, route[rkey] * 10 + 1):
                            routes = copy.deepcopy(value)
                            routes[index][rkey] = new
                            yield f"routes.{rkey}", {**raw, "routes": routes}
            if len(value) > 1:
                yield "routes", {**raw, "routes": value[:-1]}
                yield "routes", {**raw, "routes": value + [value[0]]}


def _computed(raw: Mapping[str, Any], key: str, before: Game) -> bool:
    kind = str(raw.get("type"))
    base = key.split(".")[-1]
    if base in COMPUTED.get(kind, frozenset()):
        return True
    if kind == "buy_train" and key == "price":
        train = before.trains.get(str(raw.get("train")))
        return train is not None and train.owner in ("depot", None)
    return False


def fuzz_position(before: Game, raw: Mapping[str, Any], expected: str,
                  rng: random.Random, tally: Tally, where: str) -> None:
    """Try every mutant of ``raw`` on copies of ``before``; ``expected`` is the digest
    after the original action."""
    for key, mutant in mutants(raw, before, rng):
        if mutant == raw:
            continue
        trial = before.copy()
        label = f"{raw.get('type')}.{key}"
        try:
            trial.process(action_from_dict(mutant))
        except IllegalAction:
            tally.add("refused", label, "")
            continue
        except Exception as error:  # noqa: BLE001 - a crash is what we count
            tally.add("crashed", label, f"{where} {type(error).__name__}: {error}"[:300])
            continue
        if state_digest(trial) == expected:
            tally.add("same", label, "")
        elif _computed(raw, key, before):
            tally.add("trusted", label, f"{where} {json.dumps(mutant)[:300]}")
        else:
            tally.add("choice", label, "")


def _carries(raw: Mapping[str, Any]) -> bool:
    """Whether the action has a field the engine can compute."""
    return raw.get("type") in COMPUTED or raw.get("type") == "buy_train"


def fuzz_export(path: Path, *, stride: int = 1, seed: int = 0,
                limit: int | None = None, carry_stride: int = 1) -> Tally:
    """Fuzz the actions of a recorded game (every ``stride``-th, and every
    ``carry_stride``-th action that carries a computed field)."""
    imported = load_export(path)
    game = find_title(imported.title).new_game(import_setup(imported))
    rng = random.Random(seed)
    tally = Tally()
    carried = 0
    for index, raw in enumerate(imported.actions):
        if limit is not None and index >= limit:
            break
        action = action_from_dict(raw)
        carries = _carries(raw)
        if carries:
            carried += 1
        if index % stride == 0 or (carries and carried % carry_stride == 0):
            before = game.copy()
            game.process(action)
            fuzz_position(before, raw, state_digest(game), rng, tally,
                          f"{path.name}[{index}]")
        else:
            game.process(action)
    return tally


def fuzz_random(title_id: str, seed: int, *, actions: int = 600, stride: int = 1) -> Tally:
    """Fuzz a random game of ``title_id`` (rulebook mode, moves drawn as ``desk18xx
    playout`` draws them) for its first ``actions`` actions: every ``stride``-th
    action and every action that carries a computed field."""
    from desk18xx.commands.playout import draw_moves

    title = find_title(title_id)
    rng = random.Random(seed)
    players = rng.randint(max(3, title.min_players), title.max_players)
    setup = GameSetup(title.id, tuple((str(i + 1), f"Player {i + 1}")
                                      for i in range(players)), seed, ())
    game = title.new_game(setup)
    tally = Tally()
    for index in range(actions):
        if game.finished:
            break
        moves = draw_moves(game, rng)
        if not moves:
            break
        others = [m for m in moves if m.type != "pass"]
        move = rng.choice(others) if others and rng.random() > 0.25 else rng.choice(moves)
        raw = move.to_dict()
        if index % stride == 0 or _carries(raw):
            before = game.copy()
            game.process(move)
            fuzz_position(before, raw, state_digest(game), rng, tally,
                          f"{title_id} seed {seed}[{index}]")
        else:
            game.process(move)
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stride", type=int, default=1)
    parser.add_argument("--random", type=int, default=0,
                        help="also fuzz N random games per title (first 600 actions)")
    parser.add_argument("--random-stride", type=int, default=5)
    parser.add_argument("files", nargs="*")
    args = parser.parse_args(argv)
    files = [Path(f) for f in args.files] or sorted(FIXTURES.glob("*/*.json"))
    total = Tally()
    for title_id in (TITLES if args.random else ()):
        start = time.process_time()
        tally = Tally()
        for seed in range(args.random):
            tally.merge(fuzz_random(title_id, 1000 + seed, stride=args.random_stride))
        total.merge(tally)
        print(json.dumps({"file": f"{args.random} random {title_id}", "tried": tally.tried,
                          **tally.counts, "cpu_s": round(time.process_time() - start, 1)}),
              flush=True)
    for path in files:
        start = time.process_time()
        tally = fuzz_export(path, stride=args.stride)
        total.merge(tally)
        print(json.dumps({"file": path.name, "tried": tally.tried, **tally.counts,
                          "cpu_s": round(time.process_time() - start, 1)}), flush=True)
    print(json.dumps({"file": "(all)", "tried": total.tried, **total.counts}))
    for line, count in total.by_field.most_common():
        print(f"  {count:6d}  {line}")
    for kind, items in total.examples.items():
        print(f"{kind} examples:")
        for item in items:
            print("   ", item)
    return 1 if total.counts["trusted"] or total.counts["crashed"] else 0


if __name__ == "__main__":
    sys.exit(main())
