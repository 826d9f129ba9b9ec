"""Seeded random games with move biases, exported as 18xx.games files (tools/differential).

The moves come from our engine's offers (`desk18xx.commands.playout.draw_moves`,
the generator behind ``desk18xx playout``: one move drawn from each allowed offer);
only the choice among them is biased here (`BIASES`).
Every game is played under ``compat_18xxgames`` (as imported games are), traced
after every action (players' cash, share prices), replayed from its log,
exported with our exporter (`desk18xx.io.transfer.export_text`) and read back
by our importer (`desk18xx.io.transfer.save_from_export`): the state digests of
the played, replayed and re-imported games must be equal.
"""

from __future__ import annotations

import json
import random
import signal
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desk18xx.commands.playout import draw_moves
from desk18xx.engine.actions import Action, Pass
from desk18xx.engine.digest import state_digest
from desk18xx.engine.game import Game, GameSetup
from desk18xx.engine.log import RawAction
from desk18xx.io.replaying import ENGINE_ERRORS, replay_log
from desk18xx.io.savefile import SavedPlayer, SaveHeader
from desk18xx.io.study import IMPORT_OPTIONS
from desk18xx.io.transfer import export_text, header_player, save_from_export
from desk18xx.titles import find_title

FAMILIES: dict[str, str] = {"1867": "1867", "1822CA": "1822CA", "1822CA-ERS": "1822CA",
                            "1822CA-WRS": "1822CA"}
"""Title -> title family (the agreement table's rows group by it)."""

BUYS = frozenset({"buy_train", "buy_shares", "par"})
"""Move types the ``late`` bias puts off."""
PRIVATE_SALES = frozenset({"buy_company", "acquire_company"})
"""Move types the ``keep`` bias avoids (a private leaves its player)."""


@dataclass(frozen=True, slots=True)
class Bias:
    """How the random player chooses among the legal moves."""

    name: str
    pass_weight: float = 0.25
    """Chance of passing when both a pass and another move are offered."""
    late_buys: float = 1.0
    """Chance of taking a buy (train, share, par) when a pass or another move is there."""
    keep_privates: bool = False
    """Never sell a private to a corporation while any other move is offered."""


BIASES: dict[str, Bias] = {b.name: b for b in (
    Bias("pass05", pass_weight=0.05),
    Bias("pass25", pass_weight=0.25),
    Bias("pass50", pass_weight=0.5),
    Bias("late", pass_weight=0.25, late_buys=0.2),
    Bias("keep", pass_weight=0.25, keep_privates=True),
)}


def choose(moves: Sequence[Action], rng: random.Random, bias: Bias) -> Action:
    """One of `moves` (not empty), by `bias`, drawing from `rng`."""
    pool = list(moves)
    if bias.keep_privates:
        kept = [m for m in pool if m.type not in PRIVATE_SALES]
        pool = kept or pool
    passes = [m for m in pool if isinstance(m, Pass)]
    others = [m for m in pool if not isinstance(m, Pass)]
    if bias.late_buys < 1.0 and others:
        buys = [m for m in others if m.type in BUYS]
        rest = [m for m in others if m.type not in BUYS]
        if buys and (passes or rest) and rng.random() > bias.late_buys:
            others = rest
    if others and (not passes or rng.random() > bias.pass_weight):
        return rng.choice(others)
    return rng.choice(passes or pool)


class GameTimeout(Exception):
    """The per-game time limit ran out."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise `GameTimeout` in the main thread after `seconds` (0: no limit)."""
    if seconds <= 0:
        yield
        return

    def expire(_signum: int, _frame: Any) -> None:
        raise GameTimeout(f"time limit of {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


Snapshot = tuple[dict[str, int], dict[str, int], str | None]


def snapshot(game: Game) -> Snapshot:
    """Players' cash by export player id, share prices of open companies, and who
    acts next (``entity/step``; shown at a divergence, not compared)."""
    cash = {str(header_player(game, p.id)): game.cash.get(p.id, 0) for p in game.players}
    prices = {c.id: game.market.price(c.id) for c in game.corps.values()
              if not c.closed and game.market.price(c.id)}
    acting = None
    if not game.finished:
        legal = game.legal_actions()
        if legal.entity is not None:
            acting = f"{header_player(game, legal.entity)}/{legal.step}"
    return cash, prices, acting


@dataclass
class Generated:
    """One generated game and what our side says about it."""

    title: str
    seed: int
    players: int
    bias: str
    options: tuple[str, ...]
    actions: list[RawAction] = field(default_factory=list)
    trace: list[Snapshot] = field(default_factory=list)
    finished: bool = False
    end_reason: str | None = None
    result: dict[str, int] | None = None
    stop: str | None = None
    """Why the game stopped before its end (time limit, action cap, no move)."""
    refused_moves: list[str] = field(default_factory=list)
    """Moves our generator offered and our engine then refused (index: reason)."""
    roundtrip: str = "not checked"
    """``"equal"`` or what differs between played, replayed and re-imported game."""
    seconds: float = 0.0
    path: str | None = None

    def key(self) -> str:
        """A file-name key: title, options, players, bias, seed."""
        market = "-grid" if "grid_market" in self.options else ""
        return f"{self.title}{market}-{self.players}p-{self.bias}-s{self.seed}"

    def family(self) -> str:
        """The agreement table's row."""
        if self.title == "1867":
            return "1867 grid" if "grid_market" in self.options else "1867 column"
        return self.title

    def summary(self) -> dict[str, Any]:
        """Plain data for the report (no actions, no trace)."""
        return {"key": self.key(), "title": self.title, "seed": self.seed,
                "players": self.players, "bias": self.bias, "options": list(self.options),
                "actions": len(self.actions), "finished": self.finished,
                "end_reason": self.end_reason, "result": self.result, "stop": self.stop,
                "refused_moves": self.refused_moves, "roundtrip": self.roundtrip,
                "seconds": round(self.seconds, 2), "file": self.path}


def header_for(title: str, players: int, seed: int, options: Sequence[str]) -> SaveHeader:
    """The save header of a generated game (players ``1``..``N``)."""
    return SaveHeader(title, tuple(SavedPlayer(str(i + 1), f"Player {i + 1}")
                                   for i in range(players)), seed, None, tuple(options))


def export_entry(game: Game, move: Action, number: int) -> RawAction:
    """The export dictionary of `move`, numbered `number`.

    1822CA plays its players as ``"player:1"`` (``G1822CA.player_alias``) and
    ``Action.to_dict`` writes that id as it is; the export must name the player
    as the export's ``players`` do (``1``), so it is translated here.
    """
    entry = move.to_dict()
    if entry.get("entity_type") == "player":
        pid = str(header_player(game, str(entry["entity"])))
        entry["entity"] = int(pid) if pid.lstrip("-").isdigit() else pid
    entry["id"] = number
    return entry


def play(title: str, seed: int, players: int, options: Sequence[str], bias: Bias,
         cap: int = 4000, seconds: float = 120.0) -> Generated:
    """Play one random game by `bias`; never raises for a rules problem."""
    opts = tuple(options) + tuple(o for o in IMPORT_OPTIONS if o not in options)
    out = Generated(title, seed, players, bias.name, opts)
    header = header_for(title, players, seed, opts)
    setup = GameSetup(header.title, tuple((p.id, p.name) for p in header.players), seed, opts)
    rng = random.Random(seed)
    start = time.perf_counter()
    game = find_title(title).new_game(setup)
    try:
        with time_limit(seconds):
            while not game.finished and len(out.actions) < cap:
                moves = draw_moves(game, rng)
                while moves:
                    move = choose(moves, rng, bias)
                    try:
                        game.process(move)
                        break
                    except ENGINE_ERRORS as error:
                        # our generator offered a move our engine refuses: note it,
                        # rebuild the position (the refusal may have changed it) and
                        # choose again among the others
                        out.refused_moves.append(f"{len(out.actions)} {move.type} by "
                                                 f"{move.entity}: {error}"[:300])
                        moves = [m for m in moves if m is not move]
                        game = replay_log(header, out.actions).game
                if not moves:
                    la = game.legal_actions()
                    out.stop = f"no legal move for {la.entity} in {la.step}"
                    break
                entry = export_entry(game, move, len(out.actions) + 1)
                out.actions.append(entry)
                out.trace.append(snapshot(game))
            else:
                if not game.finished:
                    out.stop = f"action cap {cap}"
    except GameTimeout as error:
        out.stop = str(error)
        # the position may have been left half-changed: keep only whole actions
        out.trace = out.trace[:len(out.actions)]
        game = replay_log(header, out.actions).game
    except ENGINE_ERRORS as error:
        out.stop = f"{type(error).__name__} after {len(out.actions)} actions: {error}"[:300]
        game = replay_log(header, out.actions).game
    out.finished = game.finished
    out.end_reason = game.end_reason
    out.result = {str(k): v for k, v in game.result().items()} if game.finished else None
    out.seconds = time.perf_counter() - start
    out._game = game  # type: ignore[attr-defined]  # the played position, for `export`
    return out


def export(generated: Generated, folder: Path) -> Path:
    """Write `generated` as an 18xx.games export in `folder` and check its round trip.

    Sets ``generated.roundtrip``: the played game, a fresh replay of its log and the
    re-import of the written file must have the same state digest.
    """
    header = header_for(generated.title, generated.players, generated.seed, generated.options)
    played: Game | None = getattr(generated, "_game", None)
    replayed = replay_log(header, generated.actions)
    problems = []
    if replayed.failure is not None:
        problems.append(f"replay refuses {replayed.failure.describe()}")
    digest = state_digest(replayed.game)
    if played is not None and state_digest(played) != digest:
        problems.append("played and replayed digests differ")
    path = folder / f"{generated.key()}.json"
    path.write_text(export_text(header, generated.actions, replayed.game), encoding="utf-8")
    try:
        again = save_from_export(path)
        if state_digest(again.replayed.game) != digest:
            problems.append("re-imported digest differs")
    except Exception as error:  # noqa: BLE001 - reported, never raised
        problems.append(f"re-import fails: {type(error).__name__}: {error}"[:300])
    generated.roundtrip = "; ".join(problems) or "equal"
    generated.path = str(path)
    return path


def save_trace(generated: Generated, folder: Path) -> None:
    """Our per-action trace beside the export (``KEY.trace.json``)."""
    (folder / f"{generated.key()}.trace.json").write_text(
        json.dumps([list(s) for s in generated.trace]), encoding="utf-8")
