"""The memoised track walk (``board_lite._search``) equals the straightforward one.

The engine's walk skips repeated walks past converging exits that can find nothing
new (see ``_search``).  Here the straightforward walk of the reference (18xx.games
``Node#walk``/``Path#walk``, no memo) is kept as an oracle, and every walk a game
makes, in every mode (reach with edges, nodes only, ``limit``, ``target``, the
new-track ``paths``), is run both ways on the same board: what is reached, the
edges recorded (in order) and whether the walk stopped early must be equal.
Positions: both recorded 1867 games and random 1867 games played to the end.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from desk18xx.commands.playout import play_one
from desk18xx.engine import board_lite
from desk18xx.engine.board_lite import (
    NEUTRAL,
    Board,
    PathTable,
    _Enough,
    _hex_index,
    _walk_rows,
)

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"


def plain_search(board: Board, corp: str, friends: frozenset[str], starts: list[tuple[str, int]],
            nodes: set[tuple[str, int]], edges: dict[str, set[int]] | None, limit: int,
            target: frozenset[tuple[str, int]] | None = None,
            paths: frozenset[int] | None = None) -> None:
    """The straightforward walk: every route past a converging exit is walked again
    (``engine/board_lite.py`` ``_search`` as of the D25 fix, kept here as the oracle)."""
    hexes = _walk_rows(board)
    index = _hex_index(board.hexdefs)
    counter = [0] * (6 * len(hexes))
    vpaths: set[int] = set()
    vnodes: set[int] = set()
    recorded: set[int] = set()

    def passes(slots: list[str | None] | None) -> bool:
        """A city with these slots lets the company through."""
        assert slots is not None
        if corp in slots or None in slots or NEUTRAL in slots:
            return True
        return bool(friends) and any(x in friends for x in slots)

    def record(h: int, table: PathTable, p: int) -> None:
        hex_id, _t, nbr, _s, _k = hexes[h]
        if paths is not None and h * 32 + p in paths:
            raise _Enough
        for m in table.nodes[p]:
            nodes.add((hex_id, m))
            if target is not None and (hex_id, m) in target:
                raise _Enough
        if limit and len(nodes) >= limit:
            raise _Enough
        if edges is not None:
            for e in table.edges[p]:
                edges.setdefault(hex_id, set()).add(e)
                other = nbr[e]
                if other >= 0:
                    edges.setdefault(hexes[other][0], set()).add((e + 3) % 6)

    def walk_node(h: int, node: int, converging: bool) -> None:
        key = h * 32 + node
        vnodes.add(key)
        base = h * 32
        for p in hexes[h][1].node_paths[node]:
            if base + p not in vpaths:
                walk_path(h, p, -1, converging, key, converging)
        if converging:
            vnodes.discard(key)

    def walk_path(h: int, p: int, skip: int, converging: bool,
                  origin: int, origin_converging: bool) -> None:
        _hex_id, table, nbr, slots, kinds = hexes[h]
        path_edges = table.edges[p]
        base = h * 6
        for e in path_edges:
            if counter[base + e]:
                return
        pid = h * 32 + p
        vpaths.add(pid)
        if pid not in recorded:
            recorded.add(pid)
            record(h, table, p)
        if not table.terminal[p]:
            for m in table.nodes[p]:
                key = h * 32 + m
                if key == origin or key in vnodes:
                    continue
                kind = kinds[m]
                if kind == 2 or (kind == 1 and not passes(slots[m])):
                    continue
                walk_node(h, m, origin_converging or converging)
        for e in path_edges:
            if e == skip:
                continue
            other = nbr[e]
            if other < 0:
                continue
            counter[base + e] += 1
            back = (e + 3) % 6
            onward = converging or table.converging[e]
            obase = other * 32
            for q in hexes[other][1].edge_paths[back]:
                if obase + q not in vpaths:
                    walk_path(other, q, back, onward, origin, origin_converging)
            counter[base + e] -= 1
        if converging:
            vpaths.discard(pid)

    if sys.getrecursionlimit() < 20_000:
        sys.setrecursionlimit(20_000)
    keys = [index[h] * 32 + n for h, n in starts]
    for (hex_id, node), key in zip(starts, keys, strict=True):
        vnodes.clear()
        vnodes.update(keys)
        vnodes.discard(key)
        vpaths.clear()
        walk_node(index[hex_id], node, False)


Outcome = tuple[bool, set[tuple[str, int]], list[tuple[str, list[int]]] | None]


def _outcome(search: Any, board: Board, args: tuple[Any, ...]) -> Outcome:
    corp, friends, starts, nodes, edges, limit, target, paths = args
    nodes = set(nodes)
    out: dict[str, set[int]] | None = None if edges is None else {}
    try:
        search(board, corp, friends, list(starts), nodes, out, limit, target, paths)
        stopped = False
    except _Enough:
        stopped = True
    recorded = None if out is None else [(h, sorted(es)) for h, es in out.items()]
    return stopped, nodes, recorded


@pytest.fixture
def compared(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """Run every walk of the engine both ways and compare; yield the counts."""
    fast = board_lite._search
    counts = {"walks": 0, "stopped": 0}

    def both(board: Board, corp: str, friends: frozenset[str],
             starts: list[tuple[str, int]], nodes: set[tuple[str, int]],
             edges: dict[str, set[int]] | None, limit: int,
             target: frozenset[tuple[str, int]] | None = None,
             paths: frozenset[int] | None = None) -> None:
        args = (corp, friends, tuple(starts), frozenset(nodes), edges, limit, target, paths)
        expected = _outcome(plain_search, board, args)
        got = _outcome(fast, board, args)
        assert got == expected, (corp, starts, board.lays)
        counts["walks"] += 1
        counts["stopped"] += expected[0]
        fast(board, corp, friends, starts, nodes, edges, limit, target, paths)

    monkeypatch.setattr(board_lite, "_search", both)
    yield counts


@pytest.mark.parametrize("name", ["21268.json", "hs_ahjzadkh_19792.json"])
def test_recorded_games_walk_the_same(compared: dict[str, int], name: str) -> None:
    from desk18xx.engine.actions import action_from_dict
    from desk18xx.engine.game import GameSetup
    from desk18xx.io.import_18xxgames import load_export
    from desk18xx.titles import find_title

    imported = load_export(FIXTURES / "1867" / name)
    setup = GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                      imported.seed, tuple(imported.optional_rules) + ("compat_18xxgames",))
    game = find_title(imported.title).new_game(setup)
    for raw in imported.actions:
        game.process(action_from_dict(raw))
    assert game.result() == {str(k): v for k, v in (imported.result or {}).items()}
    assert compared["walks"] > 40 and compared["stopped"] > 5


@pytest.mark.parametrize(("seed", "players", "options"),
                         [(7, None, ()), (903, 3, ("compat_18xxgames",)),
                          (104, None, ("grid_market",))])
def test_random_games_walk_the_same(compared: dict[str, int], seed: int, players: int | None,
                                    options: tuple[str, ...]) -> None:
    result = play_one("1867", seed, players, options)
    assert result.error is None, result.error
    assert compared["walks"] > 200


def test_random_stops_on_recorded_boards_walk_the_same() -> None:
    # boards after every 4th lay of 21268.json; for each company with a token: the
    # full reach, a random target set and a random set of paths to stop at
    import random

    from desk18xx.engine.actions import action_from_dict
    from desk18xx.engine.game import GameSetup
    from desk18xx.io.import_18xxgames import load_export
    from desk18xx.titles import find_title

    imported = load_export(FIXTURES / "1867" / "21268.json")
    setup = GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                      imported.seed, tuple(imported.optional_rules) + ("compat_18xxgames",))
    game = find_title(imported.title).new_game(setup)
    rng = random.Random(5)
    boards: list[Board] = []
    for raw in imported.actions:
        game.process(action_from_dict(raw))
        assert game.board is not None
        if game.board.lays % 4 == 0 and (not boards or boards[-1].lays != game.board.lays):
            boards.append(game.board.copy())
    checked = stopped = 0
    for board in boards:
        corps = sorted({s for _h, _c, slots in board._cities() for s in slots
                        if s is not None and s != NEUTRAL})
        index = _hex_index(board.hexdefs)
        every = [(h, n) for h, placed in board.placed.items()
                 for n in range(len(placed.tile.nodes))]
        ids = [index[h] * 32 + p for h, placed in board.placed.items()
               for p in range(len(placed.tile.paths))]
        for corp in corps:
            starts = tuple(dict.fromkeys(board._token_nodes(corp)))
            for limit, target, paths, edges in (
                    (0, None, None, {}),
                    (rng.randint(2, 12), None, None, None),
                    (0, frozenset(rng.sample(every, 3)), None, None),
                    (0, None, frozenset(rng.sample(ids, 4)), None)):
                args = (corp, frozenset(), starts, frozenset(starts), edges, limit, target,
                        paths)
                expected = _outcome(plain_search, board, args)
                assert _outcome(board_lite._search, board, args) == expected, (corp, board.lays)
                checked += 1
                stopped += expected[0]
    assert checked > 500 and stopped > 50


def _plain_reaches_after_lay(board: Board, corp: str, hex_id: str, tile: Any, tile_id: str,
                             rotation: int, paths: frozenset[int]) -> bool:
    """``Board.reaches_after_lay`` without its shortcuts: lay on a copy, walk plainly."""
    trial = board.copy()
    trial.lay(hex_id, tile, tile_id, rotation)
    starts = list(dict.fromkeys(trial._token_nodes(corp)))
    base = _hex_index(board.hexdefs)[hex_id] * 32
    try:
        plain_search(trial, corp, frozenset(), starts, set(starts), None, 0,
                     paths=frozenset(base + p for p in paths))
    except _Enough:
        return True
    return False


def test_new_track_checks_on_recorded_boards_match_the_plain_walk() -> None:
    # every 9th lay of 21268.json; each company with a token, each hex its network
    # touches, each upgrade tile and rotation that keeps the old track: the
    # new-track answer (with its shortcuts) equals the plain walk's
    import random

    from desk18xx.engine.actions import action_from_dict
    from desk18xx.engine.board_lite import keeps_paths, new_track_paths
    from desk18xx.engine.game import GameSetup
    from desk18xx.engine.tiledef import COLOR_ORDER, Color
    from desk18xx.io.import_18xxgames import load_export
    from desk18xx.titles import find_title

    imported = load_export(FIXTURES / "1867" / "21268.json")
    setup = GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                      imported.seed, tuple(imported.optional_rules) + ("compat_18xxgames",))
    game = find_title(imported.title).new_game(setup)
    boards: list[Board] = []
    for raw in imported.actions:
        game.process(action_from_dict(raw))
        assert game.board is not None
        if game.board.lays % 9 == 0 and (not boards or boards[-1].lays != game.board.lays):
            boards.append(game.board.copy())
    rng = random.Random(11)
    answers: list[bool] = []
    for board in boards:
        corps = sorted({s for _h, _c, slots in board._cities() for s in slots
                        if s is not None and s != NEUTRAL})
        for corp in corps:
            _nodes, reached = board.reach(corp)
            for hex_id in sorted(reached):
                old = board.placed[hex_id]
                if old.tile.color in (Color.WHITE, Color.RED, Color.BLUE, Color.GRAY):
                    continue
                for name, entry in board.manifest.items():
                    tile = entry.tile
                    copy = board.free_copy(name)
                    if copy is None or tile.color not in COLOR_ORDER or \
                            COLOR_ORDER.index(tile.color) != COLOR_ORDER.index(old.tile.color) + 1:
                        continue
                    for rot in range(6):
                        if not keeps_paths(old.tile, old.rotation, tile, rot):
                            continue
                        gains = new_track_paths(old.tile, old.rotation, tile, rot)
                        if not gains or rng.random() > 0.03:
                            continue
                        try:
                            expected = _plain_reaches_after_lay(board, corp, hex_id, tile,
                                                                copy, rot, gains)
                        except ValueError:
                            continue
                        got = board.reaches_after_lay(corp, hex_id, tile, copy, rot, gains)
                        assert got == expected, (board.lays, corp, hex_id, name, rot)
                        # asked twice: the second answer is the kept one
                        for _ in range(2):
                            assert board.gives_new_track(corp, hex_id, tile, copy, rot) \
                                == expected
                        answers.append(expected)
    assert len(answers) > 100 and 0 < sum(answers) < len(answers)
