"""``desk18xx playout``: random legal games to the end, checking invariants after every action.

Generic over titles: the moves are drawn from the title's offers
(`desk18xx.engine.offers`: one move drawn from each allowed offer of whoever
acts, `Game.legal_moves`); a title whose offers do not yet decide every move
still lists its own moves for the rest (``legal_moves(rng)``), and the moves of
the offers it decides replace its listed ones of those types.
``title_violations()`` is checked after every action.  Exits non-zero on an
exception, an illegal generated move, a broken invariant or a game that does not
finish, printing the seed and the action index.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass

from desk18xx.engine.actions import Action, LayTile
from desk18xx.engine.game import Game, GameSetup
from desk18xx.engine.invariants import violations
from desk18xx.engine.offers import BidOffer, Offer, TrainOffer, offered_moves, pick_move

DEFAULT_CAP = 4000
LONG_CAP = 100_000


@dataclass
class PlayoutResult:
    """One finished (or failed) random game."""

    seed: int
    players: int
    actions: int
    finished: bool
    end_reason: str | None
    error: str | None = None
    dead_end: str | None = None
    """Where the game stopped with only ``undo`` legal: a dead end of 18xx.games that
    ``compat_18xxgames`` follows (a recorded game cannot go on there either; D15,
    D31), not a failure."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Command-line options."""
    parser.add_argument("--title", default="1867")
    parser.add_argument("--players", type=int, default=None,
                        help="seats (default: random within the title's range)")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[],
                        help="optional rule, e.g. grid_market (repeatable)")
    parser.add_argument("--long", action="store_true",
                        help=f"allow up to {LONG_CAP} actions per game (default {DEFAULT_CAP})")


def _concrete(offer: Offer) -> bool:
    """An offer whose moves are all of it (not a range a random game should sample:
    bids, and prices between companies, stay with the title's sampled moves)."""
    return not isinstance(offer, BidOffer) and not (
        isinstance(offer, TrainOffer) and offer.price is None)


def draw_moves(game: Game, rng: random.Random) -> list[Action]:
    """The moves a random game picks from now: one drawn from each allowed offer of
    whoever acts (`desk18xx.engine.offers.offered_moves`).  For a title that still
    lists its own moves (``legal_moves``), those, where for each action type the
    offers decide (`Game.deciding_offers`) the moves of the allowed concrete offers
    stand in for the listed ones (sampled ranges and tile lays stay as listed)."""
    if type(game).legal_moves is Game.legal_moves:
        return offered_moves(game, rng)
    return _listed_moves(game, rng)


def _listed_moves(game: Game, rng: random.Random) -> list[Action]:
    moves = game.legal_moves(rng)
    # tile lays stay the title's sampled moves (each is still checked at the door):
    # listing every lay of every hex would make a random game several times slower
    covered = game.offered_types() - {LayTile.type}
    if not moves or not covered:
        return moves
    decided: set[str] = set()
    actors: dict[str, str] = {}
    for m in moves:
        if m.type in covered and m.type not in decided \
                and game.deciding_offers(m) is not None:
            decided.add(m.type)
            actors.setdefault(m.entity, m.entity_type)
    if not decided:
        return moves
    out = [m for m in moves if m.type not in decided]
    ranged: set[tuple[str, str]] = set()
    for entity, kind in actors.items():
        for offer in game.offers(entity, decided):
            if _concrete(offer):
                out.extend(offer.moves(entity, kind))
            elif offer.allowed:
                ranged.add((entity, offer.types[0]))
    out.extend(m for m in moves if m.type in decided and (m.entity, m.type) in ranged)
    return out or moves


def play_one(title_id: str, seed: int, players: int | None, options: tuple[str, ...],
             cap: int = DEFAULT_CAP, pass_weight: float = 0.25) -> PlayoutResult:
    """Play one random game; never raises."""
    from desk18xx.titles import find_title

    title = find_title(title_id)
    rng = random.Random(seed)
    n = players or rng.randint(max(3, title.min_players), title.max_players)
    setup = GameSetup(title.id, tuple((str(i + 1), f"Player {i + 1}") for i in range(n)),
                      seed, options)
    index = 0
    try:
        game: Game = title.new_game(setup)
        money = game.total_money()
        while not game.finished and index < cap:
            moves = draw_moves(game, rng)
            if not moves:
                la = game.legal_actions()
                if la.types == ("undo",) and "compat_18xxgames" in options:
                    return PlayoutResult(seed, n, index, False, None,
                                         dead_end=f"{la.entity} in {la.step}")
                return PlayoutResult(seed, n, index, False, None,
                                     f"no legal move for {la.entity} in {la.step}")
            move = pick_move(moves, rng, pass_weight)
            game.process(move)
            index += 1
            problems = violations(game, money)
            if problems:
                return PlayoutResult(seed, n, index, False, None,
                                     f"after {move.type} by {move.entity}: {problems}")
        if not game.finished:
            return PlayoutResult(seed, n, index, False, None, f"not finished after {cap}")
        return PlayoutResult(seed, n, index, True, game.end_reason)
    except Exception as exc:  # noqa: BLE001 - a playout reports every failure
        return PlayoutResult(seed, n, index, False, None, f"{type(exc).__name__}: {exc}")


def run(args: argparse.Namespace) -> int:
    """Play ``--games`` games and print one JSON line each."""
    status = 0
    start = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        res = play_one(args.title, seed, args.players, tuple(args.option),
                       LONG_CAP if args.long else DEFAULT_CAP)
        print(json.dumps({"seed": res.seed, "players": res.players, "actions": res.actions,
                          "finished": res.finished, "end_reason": res.end_reason,
                          **({"error": res.error} if res.error else {}),
                          **({"dead_end": res.dead_end} if res.dead_end else {})}))
        if res.error:
            print(f"playout failed: seed {res.seed}, action index {res.actions}: {res.error}",
                  file=sys.stderr)
            status = 1
    print(f"{args.games} games in {time.perf_counter() - start:.1f}s", file=sys.stderr)
    return status
