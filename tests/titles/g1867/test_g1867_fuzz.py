"""Mutated actions are refused with IllegalAction (never another exception), and a
refused action leaves the game exactly as it was (validate, then mutate)."""

from __future__ import annotations

import dataclasses
import random

from desk18xx.engine.actions import Action, Pass
from desk18xx.engine.digest import state_digest
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import GameSetup
from desk18xx.titles.g1867.game import G1867

_SKIP = {"id", "user", "created_at", "auto_actions", "entity_type", "routes"}


def _mutants(action: Action, rng: random.Random, ids: list[str]) -> list[Action]:
    out = []
    for f in dataclasses.fields(action):
        if f.name in _SKIP:
            continue
        value = getattr(action, f.name)
        options: list[object]
        if isinstance(value, str):
            options = [rng.choice(ids), "ZZ", "57-9", "L12-0-9", "2-9", "CPR_3"]
        elif isinstance(value, int) and not isinstance(value, bool):
            options = [-5, 0, 7, 10**6]
        elif isinstance(value, tuple):
            options = [(), ("ZZ",)]
        else:
            continue
        out.append(dataclasses.replace(action, **{f.name: rng.choice(options)}))
    return out


def test_mutated_moves_are_illegal_or_fine() -> None:
    rng = random.Random(11)
    game = G1867(GameSetup("1867", tuple((str(i), f"P{i}") for i in range(1, 5)), 11, ()))
    ids = list(game.corps) + [p.id for p in game.players]
    for n in range(700):
        if game.finished:
            break
        moves = game.legal_moves(rng)
        if n % 5 == 0:
            before = state_digest(game)
            for mutant in _mutants(rng.choice(moves), rng, ids):
                trial = game.copy()
                try:
                    trial.process(mutant)
                except IllegalAction:
                    assert state_digest(trial) == before, mutant
        passes = [m for m in moves if isinstance(m, Pass)]
        others = [m for m in moves if not isinstance(m, Pass)]
        game.process(rng.choice(others) if others and rng.random() > 0.25
                     else rng.choice(passes or moves))
