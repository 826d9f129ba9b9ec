"""The track graph's walk (``engine/map/graph.py``) equals the straightforward one.

The graph answers a company's reach by a search over (path, entry end) states and
walks the reference's exact route-by-route walk only where a tile has a converging
exit (``TrackGraph._walk``).  Here the straightforward walk of the reference
(18xx.games ``Node#walk``/``Path#walk``: a path and a node once per walk, a hexside
once per route, everything released again past a converging exit) is kept as an
oracle, written over the board's plain tile geometry, and compared on 1867 boards
(the title whose converging exits made the walk matter, issue 16 and D25): what is
reached (nodes, paths, edges), whether one token's own walk reaches another stop,
and the new-track answer of every candidate upgrade.  Positions: both recorded
1867 games and random 1867 games played to the end.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from desk18xx.commands.playout import draw_moves
from desk18xx.engine.actions import Pass, action_from_dict
from desk18xx.engine.game import Game, GameSetup
from desk18xx.engine.map import graph as G
from desk18xx.engine.map.board import Board
from desk18xx.engine.map.graph import TrackGraph, graph_for
from desk18xx.engine.map.hexgrid import opposite
from desk18xx.engine.map.tiles import NODE, geometry, paths_kept
from desk18xx.engine.map.upgrades import new_track_paths
from desk18xx.engine.tiledef import COLOR_ORDER, NodeKind
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title
from desk18xx.titles.g1867 import board as B

FIXTURES = Path(__file__).resolve().parents[3].parent / "shared" / "fixtures" / "18xx.games"

Walked = tuple[set[tuple[str, int]], set[tuple[str, int]], dict[str, set[int]]]


def plain_walk(board: Board, corp: str, starts: list[tuple[str, int]]) -> Walked:
    """(nodes, paths, edges) of the reference's walks from ``starts``: one walk per
    start, the other starts visited (reached, not walked through)."""
    nodes: set[tuple[str, int]] = set(starts)
    paths: set[tuple[str, int]] = set()
    edges: dict[str, set[int]] = {}
    counter: dict[tuple[str, int], int] = {}
    vpaths: set[tuple[str, int]] = set()
    vnodes: set[tuple[str, int]] = set()

    def ends(h: str, p: int) -> tuple[list[int], list[int]]:
        geo = board.hex(h).geo
        return ([x for x in geo.ends[p] if x < NODE], [x - NODE for x in geo.ends[p] if x >= NODE])

    def passes(h: str, node: int) -> bool:
        st = board.hex(h)
        kind = st.geo.kinds[node]
        if kind is NodeKind.OFFBOARD:
            return False
        if kind is NodeKind.CITY:
            row = st.tokens[st.geo.city_nodes.index(node)]
            return any(t is None or t.corp == corp or t.kind == "neutral" for t in row)
        return True

    def record(h: str, p: int) -> None:
        paths.add((h, p))
        p_edges, p_nodes = ends(h, p)
        nodes.update((h, m) for m in p_nodes)
        for e in p_edges:
            edges.setdefault(h, set()).add(e)
            if B.passable(board, h, e):
                other = board.neighbour(h, e)
                assert other is not None
                edges.setdefault(str(other), set()).add(opposite(e))

    def walk_node(ref: tuple[str, int], converging: bool) -> None:
        vnodes.add(ref)
        h, node = ref
        for p in board.hex(h).geo.node_paths[node]:
            if (h, p) not in vpaths:
                walk_path(h, p, -1, converging, ref, converging)
        if converging:
            vnodes.discard(ref)

    def walk_path(h: str, p: int, skip: int, converging: bool, origin: tuple[str, int],
                  origin_converging: bool) -> None:
        geo = board.hex(h).geo
        p_edges, p_nodes = ends(h, p)
        if any(counter.get((h, e)) for e in p_edges):
            return
        vpaths.add((h, p))
        if (h, p) not in paths:
            record(h, p)
        if not geo.terminal[p]:
            for m in p_nodes:
                ref = (h, m)
                if ref == origin or ref in vnodes or not passes(h, m):
                    continue
                walk_node(ref, origin_converging or converging)
        for e in p_edges:
            if e == skip or not B.passable(board, h, e):
                continue
            other = str(board.neighbour(h, e))
            counter[(h, e)] = counter.get((h, e), 0) + 1
            back = opposite(e)
            onward = converging or len(geo.edge_paths[e]) > 1
            for q in board.hex(other).geo.edge_paths[back]:
                if (other, q) not in vpaths:
                    walk_path(other, q, back, onward, origin, origin_converging)
            counter[(h, e)] -= 1
        if converging:
            vpaths.discard((h, p))

    if sys.getrecursionlimit() < 20_000:
        sys.setrecursionlimit(20_000)
    order = list(dict.fromkeys(starts))
    for start in order:
        vnodes.clear()
        vnodes.update(order)
        vnodes.discard(start)
        vpaths.clear()
        counter.clear()
        walk_node(start, False)
    return nodes, paths, edges


def _starts(board: Board, corp: str) -> list[tuple[str, int]]:
    return [(h, board.hex(h).geo.city_nodes[c]) for h, c, _s in B.corp_tokens(board, corp)]


def _corps(board: Board) -> list[str]:
    return sorted({t.corp for st in board for row in st.tokens for t in row
                   if t is not None and t.kind != "neutral"})


def check_board(board: Board) -> int:
    """Compare the graph with the plain walk for every company on ``board``."""
    graph = graph_for(board)
    checked = 0
    for corp in _corps(board):
        starts = _starts(board, corp)
        nodes, paths, edges = plain_walk(board, corp, starts)
        reach = graph.reach(corp)
        assert {(str(h), n) for h, n in reach.nodes} == nodes, corp
        assert {(str(h), p) for h, p in reach.paths} == paths, corp
        for h, _n in starts:  # new track may leave a token's hex at any open side
            edges.setdefault(h, set()).update(
                e for e in range(6) if graph.neighbour(h, e) is not None)
        assert {str(h): set(e) for h, e in reach.edges.items()} == edges, corp
        one_walk = any(len(plain_walk(board, corp, [s])[0]) > 1 for s in dict.fromkeys(starts))
        assert B.can_run_from_one_token(board, corp) == one_walk, corp
        checked += 1
    return checked


def check_new_track(board: Board, rng: random.Random, samples: int) -> int:
    """The new-track answer (a lay on a copy, the graph's reach) equals the plain
    walk's on the laid copy, for random companies, hexes, tiles and rotations."""
    checked = 0
    corps = _corps(board)
    hexes = [st for st in board if st.tile.color in COLOR_ORDER[:-1] and st.geo.ends]
    for _ in range(samples):
        if not corps or not hexes:
            break
        corp, st = rng.choice(corps), rng.choice(hexes)
        nxt = COLOR_ORDER[COLOR_ORDER.index(st.tile.color) + 1]
        names = [n for n in board.available_names() if board.tile_def(n).color is nxt]
        if not names:
            continue
        tile = board.tile_def(rng.choice(names))
        for rot in range(6):
            new = geometry(tile, rot)
            if not paths_kept(st.geo, new):
                continue
            gains = new_track_paths(st.geo, new)
            if not gains:
                continue
            trial = board.copy()
            try:
                B.lay(trial, st.hex_id, trial.next_copy(tile.name), rot)
            except Exception:  # no city for a token: not a lay the rules would allow
                continue
            _n, walked, _e = plain_walk(trial, corp, _starts(trial, corp))
            expected = any((st.hex_id, p) in walked for p in gains)
            copy = board.next_copy(tile.name)
            assert B.gives_new_track(board, corp, st.hex_id, tile, copy, rot) == expected, (
                corp, st.hex_id, tile.name, rot)
            checked += 1
    return checked


def _replayed(name: str) -> Iterator[Game]:
    imported = load_export(FIXTURES / "1867" / name)
    setup = GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                      imported.seed, tuple(imported.optional_rules) + ("compat_18xxgames",))
    game = find_title(imported.title).new_game(setup)
    for raw in imported.actions:
        game.process(action_from_dict(raw))
        yield game


@pytest.mark.parametrize("name", ["21268.json", "hs_ahjzadkh_19792.json"])
def test_recorded_games_walk_as_the_plain_walk(name: str) -> None:
    rng = random.Random(5)
    checked = lays = 0
    last = -1
    for i, game in enumerate(_replayed(name)):
        board = game.board
        assert board is not None
        if board.version == last or i % 7:
            continue
        last = board.version
        checked += check_board(board)
        lays += check_new_track(board, rng, 3)
    assert checked > 100 and lays > 20


@pytest.mark.parametrize(("seed", "options"), [(7, ()), (903, ("compat_18xxgames",))])
def test_random_games_walk_as_the_plain_walk(seed: int, options: tuple[str, ...]) -> None:
    # a random game as ``playout`` plays it, its board checked every 40 actions
    rng = random.Random(seed)
    setup = GameSetup("1867", tuple((str(i + 1), f"P{i + 1}") for i in range(4)), seed, options)
    game = find_title("1867").new_game(setup)
    checked = index = 0
    while not game.finished and index < 4000:
        moves = draw_moves(game, rng)
        assert moves, game.legal_actions()
        others = [m for m in moves if not isinstance(m, Pass)]
        game.process(rng.choice(others) if others and rng.random() > 0.25 else rng.choice(moves))
        index += 1
        if index % 40 == 0:
            assert game.board is not None
            checked += check_board(game.board)
    assert checked > 50


def test_a_converging_exit_is_walked_route_by_route() -> None:
    """Sudbury's loop (issue 16): D8 → C7, where #23 forks to B6 and C5 (a converging
    exit), which join again: the plain walk and the graph agree on it."""
    game = find_title("1867").new_game(GameSetup("1867", (("1", "A"), ("2", "B"), ("3", "C")),
                                                 1, ()))
    board = game.board
    assert board is not None
    for hex_id, name, rot in (("D8", "57", 2), ("C7", "23", 5), ("B6", "7", 4),
                              ("C5", "7", 0)):
        copy = B.free_copy(board, name)
        assert copy is not None
        B.lay(board, hex_id, copy, rot)
    board.place_token("D8", 0, "CPR")
    assert check_board(board) == 2  # CPR and the CN's Toronto token


def _walks(graph: TrackGraph, corp: str, memo: bool) -> tuple[object, ...]:
    """What the exact walks from every token of ``corp`` record (to their end), with
    and without the memo of converging walks."""
    order = list(dict.fromkeys(graph.token_nodes(corp)))
    walk = G._Walk(set(), set(order), {})
    shared: G._Memo | None = {} if memo else None
    for start in order:
        G._exact_walk(graph._rows, corp, start, frozenset(order) - {start}, walk, None, 0, 0,
                      memo=shared)
    return (walk.paths, walk.nodes, {h: set(e) for h, e in walk.edges.items()})


@pytest.mark.parametrize("path", ["1867/21268.json", "1867/hs_ahjzadkh_19792.json"])
def test_the_memo_of_converging_walks_skips_only_what_finds_nothing(path: str) -> None:
    """The exact walk's memo (a converging walk skipped when its blockers are
    taken again) records exactly what the plain walk records, on 1867 boards with
    converging exits (no 1822CA tile has one: its walks are the search's)."""
    imported = load_export(FIXTURES / path)
    setup = GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                      imported.seed, tuple(imported.optional_rules) + ("compat_18xxgames",))
    game = find_title(imported.title).new_game(setup)
    compared = converging = 0
    for i, raw in enumerate(imported.actions):
        game.process(action_from_dict(raw))
        if i % 5:
            continue
        board = game.board
        assert isinstance(board, Board)
        graph = TrackGraph(board)
        for corp in _corps(board):
            assert _walks(graph, corp, True) == _walks(graph, corp, False), (i, corp)
            compared += 1
        converging += bool(graph._converging)
    assert compared > 200 and converging >= 10
