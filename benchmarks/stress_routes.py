"""A stress corpus for the route optimizer: late positions of long, network-building playouts.

Run: ``.venv/bin/python benchmarks/stress_routes.py [--titles T ...] [--games N]
[--seed S] [--cache DIR] [--brute N]``.

Random play rarely builds big networks (companies pass, tiles stay few).  The
generator here plays legal moves only (the titles' ``legal_moves`` and offers,
as :mod:`desk18xx.commands.playout` draws them) but biased: it seldom passes,
prefers tile lays, tokens, train and private purchases (Pullman, grain trains,
mail contracts come with privates in 1822CA), seldom sells, and runs every
company's *best* routes (the optimizer's answer, so companies earn, keep and buy
trains; 5+5E and 8 trains arrive in 1867, E-trains and several trains per
company in 1822CA and both scenarios).  Every route decision of every game is
a position of the corpus.

A corpus is its seeds: ``(title, seed)`` per game.  Playing a game with the
optimizer is slow, so the action lists are cached (``--cache``, default
``/tmp/desk18xx-stress``, one JSON file per game, keyed by the title and seed
and the generator version); :func:`positions` replays them and yields each
route decision.  ``benchmarks/routes.py --stress`` times the optimizer on them;
``--brute N`` here checks the optimizer against a brute force on the first
``N`` positions small enough to enumerate (the test suite runs a short version:
``tests/engine/optimizer/test_optimizer_stress.py``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from desk18xx.commands.playout import draw_moves
from desk18xx.engine.actions import Action, Pass, RunRoutes, action_from_dict
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game, GameSetup

VERSION = 2
"""Bump when the generator plays differently, or when the rules changed so that cached
games no longer replay to their end (old cache files are then ignored and the games
played again; ``benchmarks/routes.py --stress`` says when a cached game stops short)."""

TITLES = ("1867", "1822CA", "1822CA-ERS", "1822CA-WRS")
DEFAULT_CACHE = Path("/tmp/desk18xx-stress")
DEFAULT_GAMES = {"1867": 8, "1822CA": 4, "1822CA-ERS": 6, "1822CA-WRS": 6}
"""Games per title of the default corpus (over 2,000 route decisions in all)."""
CAP = 6000
"""Actions per game at most (a game still running then ends there)."""

WEIGHTS = {
    "lay_tile": 12.0,
    "place_token": 12.0,
    "buy_train": 1.5,
    "buy_company": 3.0,
    "acquire_company": 3.0,
    "sell_shares": 0.2,
    "take_loan": 0.5,
    "discard_train": 1.0,
}
"""Relative weight of an action type (others 1)."""
PASS_WEIGHT = 0.3
MORE_TRAINS = 0.15
"""Weight of buying another train (slow phases: more operating rounds, bigger networks)."""


@dataclass(frozen=True, slots=True)
class Position:
    """One route decision: the game just before ``index``, ``corp`` to run."""

    title: str
    seed: int
    index: int
    corp: str
    game: Game


def new_game(title_id: str, seed: int) -> Game:
    """The game of ``seed``: 4 players (3 in the two-to-five scenarios too)."""
    from desk18xx.titles import find_title

    title = find_title(title_id)
    n = min(4, title.max_players)
    setup = GameSetup(title.id, tuple((str(i + 1), f"Player {i + 1}") for i in range(n)),
                      seed, ())
    return title.new_game(setup)


def pick(game: Game, moves: list[Action], rng: random.Random) -> Action:
    """A move, biased to building: an action type by :data:`WEIGHTS` (a pass by
    :data:`PASS_WEIGHT`; a train for a company that has one by :data:`MORE_TRAINS`),
    then one of its moves."""
    by_type: dict[str, list[Action]] = {}
    for m in moves:
        by_type.setdefault("pass" if isinstance(m, Pass) else m.type, []).append(m)
    types = sorted(by_type)
    weights = [PASS_WEIGHT if t == "pass" else WEIGHTS.get(t, 1.0) for t in types]
    if "buy_train" in by_type:
        corp = game.corps.get(by_type["buy_train"][0].entity)
        if corp is not None and corp.trains:
            weights[types.index("buy_train")] = MORE_TRAINS
    return rng.choice(by_type[rng.choices(types, weights)[0]])


def play(title_id: str, seed: int, *, optimize: bool = True, cap: int = CAP,
         stop_after: int | None = None) -> list[dict[str, Any]]:
    """Play one biased game; its actions as plain data.

    ``optimize``: run the optimizer's best routes (else the title's random ones);
    ``stop_after``: end after this many route decisions.
    """
    from desk18xx.engine.optimizer import best_routes

    rng = random.Random(seed)
    game = new_game(title_id, seed)
    actions: list[dict[str, Any]] = []
    runs = 0
    while not game.finished and len(actions) < cap:
        moves = draw_moves(game, rng)
        move: Action | None = None
        while moves:
            move = pick(game, moves, rng)
            if isinstance(move, RunRoutes) and optimize:
                best = best_routes(game, move.entity)
                mine = RunRoutes(entity=move.entity, entity_type=move.entity_type,
                                 routes=best.routes)
                try:
                    game.process(mine)
                    move = mine
                    break
                except IllegalAction:
                    game = _rebuild(title_id, seed, actions)
            try:
                game.process(move)
                break
            except IllegalAction:
                # a generated move the engine refuses (a title's bug, reported by
                # ``desk18xx playout``): the game as it was, and another move
                game = _rebuild(title_id, seed, actions)
                moves = [m for m in moves if m is not move]
                move = None
        if move is None:
            break
        if isinstance(move, RunRoutes):
            runs += 1
        actions.append(move.to_dict())
        if stop_after is not None and runs >= stop_after:
            break
    return actions


def _rebuild(title_id: str, seed: int, actions: list[dict[str, Any]]) -> Game:
    game = new_game(title_id, seed)
    for raw in actions:
        game.process(action_from_dict(raw))
    return game


def cached(title_id: str, seed: int, cache: Path | None) -> list[dict[str, Any]]:
    """The actions of a game, from ``cache`` when there (else played and stored)."""
    path = None if cache is None else cache / f"v{VERSION}-{title_id}-{seed}.json"
    if path is not None and path.is_file():
        data: list[dict[str, Any]] = json.loads(path.read_text())
        return data
    actions = play(title_id, seed)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(actions))
        tmp.replace(path)
    return actions


STOPPED: list[str] = []
"""Games whose cached actions no longer replay (the rules changed since): where and why."""


def replay(title_id: str, seed: int, actions: list[dict[str, Any]]) -> Iterator[Position]:
    """Each route decision of a game's actions (the game is advanced after each yield).

    A cached game the engine no longer accepts stops there (noted in :data:`STOPPED`;
    delete the cache or bump :data:`VERSION` to play it again)."""
    game = new_game(title_id, seed)
    for index, raw in enumerate(actions):
        action = action_from_dict(raw)
        if isinstance(action, RunRoutes):
            yield Position(title_id, seed, index, action.entity, game)
        try:
            game.process(action)
        except IllegalAction as exc:
            STOPPED.append(f"{title_id} seed {seed} stopped at action {index}: {exc}")
            return


def expected_runs(actions: list[dict[str, Any]]) -> int:
    """How many route decisions a game's actions hold (what :func:`replay` should yield)."""
    return sum(1 for a in actions if a.get("type") == "run_routes")


def corpus(titles: tuple[str, ...] = TITLES, games: int | None = None,
           seed: int = 1) -> list[tuple[str, int]]:
    """The (title, seed) of every game of a corpus."""
    return [(t, seed + i) for t in titles for i in range(games or DEFAULT_GAMES[t])]


def positions(games: list[tuple[str, int]], cache: Path | None = DEFAULT_CACHE
              ) -> Iterator[Position]:
    """Every route decision of the games (played now, or replayed from ``cache``)."""
    for title_id, seed in games:
        yield from replay(title_id, seed, cached(title_id, seed, cache))


def small_positions(title_id: str, seed: int, runs: int) -> Iterator[Position]:
    """The first ``runs`` route decisions of a quick game (the title's own random routes,
    nothing cached): early, small networks for a brute force."""
    yield from replay(title_id, seed, play(title_id, seed, optimize=False, stop_after=runs))


MAX_BRUTE_SEGMENTS = 40
"""Positions with more track segments than this are too big for the brute force."""


def brute_check(pos: Position) -> tuple[int, int] | None:
    """(optimizer's best, brute force's best) of a small position (None: too big or no trains)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "engine" / "optimizer"))
    from optimizer_helpers import brute_force

    from desk18xx.engine.optimizer import problem_for, solve

    problem, scoring = problem_for(pos.game, pos.corp)
    if not problem.trains or len(problem.segments) > MAX_BRUTE_SEGMENTS:
        return None
    ours = solve(problem, scoring)
    problem2, scoring2 = problem_for(pos.game, pos.corp)
    return ours.revenue + ours.subsidy, brute_force(problem2, scoring2)


def main() -> None:
    """Build (or refresh) the cache and print each game's size; ``--brute``: cross-check."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--titles", nargs="*", default=list(TITLES))
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--brute", type=int, default=0,
                        help="cross-check this many small positions per title with a brute force")
    args = parser.parse_args()
    if args.brute:
        bad = 0
        for title_id in args.titles:
            checked = 0
            seed = args.seed
            t0 = time.process_time()
            while checked < args.brute:
                for pos in small_positions(title_id, seed, 30):
                    pair = brute_check(pos)
                    if pair is None:
                        continue
                    checked += 1
                    if pair[0] != pair[1]:
                        bad += 1
                        print(f"MISMATCH {title_id} seed {seed} index {pos.index} {pos.corp}: "
                              f"ours {pair[0]}, brute force {pair[1]}", flush=True)
                seed += 1
            print(json.dumps({"title": title_id, "checked": checked, "mismatches": bad,
                              "cpu": round(time.process_time() - t0, 1)}), flush=True)
        sys.exit(1 if bad else 0)
    for title_id, seed in corpus(tuple(args.titles), args.games, args.seed):
        t0 = time.process_time()
        actions = cached(title_id, seed, args.cache)
        runs = expected_runs(actions)
        print(json.dumps({"title": title_id, "seed": seed, "actions": len(actions),
                          "runs": runs, "cpu": round(time.process_time() - t0, 1)}), flush=True)


if __name__ == "__main__":
    main()
