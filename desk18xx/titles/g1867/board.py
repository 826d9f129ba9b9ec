"""1867 on the map model (:mod:`desk18xx.engine.map`): what the title reads of the board.

1867's ``Game.board`` is an :class:`engine.map.board.Board`; reachability is
the map's track graph (:func:`engine.map.graph.graph_for`).  This module holds
the 1867 views and rules over it that are not generic:

- the CN's placeholder tokens (D2, Montreal's locked city L12) are neutral
  tokens of no company (:data:`NEUTRAL`): they never block a route's walk, but a
  route may not run through a city they fill (the card: the city is locked
  until the first 3);
- tokens of a hex are read as per-city slot lists of company ids
  (:func:`slots`), the form the position digest has always declared;
- a lay moves the tokens of a city into its first slots, in order
  (:func:`lay`), as 1867 always did;
- the new-track check (:func:`gives_new_track`, 18xx.games ``:semi_restrictive``),
  a merging group's walk where its own tokens never block (:func:`reach_nodes`),
  and the home-choice test :func:`node_connected_elsewhere`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, cast

from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.ids import HexId
from desk18xx.engine.map.board import Board, HexState
from desk18xx.engine.map.graph import TrackGraph, graph_for
from desk18xx.engine.map.hexgrid import opposite
from desk18xx.engine.map.tiles import NODE, Geometry, geometry
from desk18xx.engine.map.upgrades import new_track_paths
from desk18xx.engine.tiledef import HexDef, ManifestTile, NodeKind, TileDef

NEUTRAL = "~neutral"
"""How :func:`slots` names a neutral placeholder token (the CN's D2 and Montreal
spaces: tokens of kind ``"neutral"``, nobody's station)."""

PLACEHOLDER_OWNER = "CN"
"""Whose colours a placeholder shows (the title data's setup tokens)."""

Slot = str | None


def new_board(hexes: Mapping[str, HexDef], tiles: Mapping[str, ManifestTile]) -> Board:
    """The printed 1867 map with its setup tokens (the CN's Toronto token and its
    neutral placeholders)."""
    return Board(hexes, tiles, {h: hd.tile_id or f"{h}-0" for h, hd in hexes.items()})


# --- tokens as slot lists -----------------------------------------------------------------


def _name(st: HexState, city: int, slot: int) -> Slot:
    t = st.tokens[city][slot]
    if t is None:
        return None
    return NEUTRAL if t.kind == "neutral" else t.corp


def slots(board: Board, hex_id: str, city: int) -> list[Slot]:
    """The slots of a city: a company id, :data:`NEUTRAL` or None (a copy)."""
    st = board.hex(hex_id)
    return [_name(st, city, s) for s in range(len(st.tokens[city]))]


def hex_slots(board: Board, hex_id: str) -> list[list[Slot]]:
    """Per city of ``hex_id`` its :func:`slots`."""
    st = board.hex(hex_id)
    return [[_name(st, c, s) for s in range(len(st.tokens[c]))] for c in range(len(st.tokens))]


def all_slots(board: Board) -> Iterator[tuple[str, list[list[Slot]]]]:
    """(hex, :func:`hex_slots`) of every hex with a city, in map order."""
    for st in board:
        if st.tokens:
            yield str(st.hex_id), hex_slots(board, st.hex_id)


def set_slot(board: Board, hex_id: str, city: int, slot: int, who: Slot) -> None:
    """Put ``who`` (None: nobody) in one slot, replacing what is there."""
    st = board.hex(hex_id)
    if st.tokens[city][slot] is not None:
        board.remove_token(hex_id, city, slot)
    if who == NEUTRAL:
        board.place_token(hex_id, city, PLACEHOLDER_OWNER, slot=slot, kind="neutral")
    elif who is not None:
        board.place_token(hex_id, city, who, slot=slot)


def add_token(board: Board, hex_id: str, city: int, who: str, *, cheater: bool = False) -> int:
    """Put ``who`` in the first free slot of a city (a new slot with ``cheater``
    when none is free); returns the slot."""
    if who == NEUTRAL:
        return board.place_token(hex_id, city, PLACEHOLDER_OWNER, cheater=cheater,
                                 kind="neutral")
    return board.place_token(hex_id, city, who, cheater=cheater)


def hex_has_token_of(board: Board, hex_id: str, corp: str) -> bool:
    """A city of ``hex_id`` holds a token of ``corp``."""
    return board.hex(hex_id).tokened_by(corp)


def city_full_for(board: Board, hex_id: str, city: int, corp: str) -> bool:
    """A route of ``corp`` may not run through this city: every slot holds a token
    (a placeholder too) and none is ``corp``'s."""
    row = slots(board, hex_id, city)
    return corp not in row and all(s is not None for s in row)


def corp_tokens(board: Board, corp: str) -> list[tuple[str, int, int]]:
    """(hex, city, slot) of every token of ``corp``, in map order."""
    out: list[tuple[str, int, int]] = []
    for st in board:
        for c, row in enumerate(st.tokens):
            out.extend((str(st.hex_id), c, s) for s, t in enumerate(row)
                       if t is not None and t.corp == corp and t.kind != "neutral")
    return out


# --- tiles ----------------------------------------------------------------------------------


def free_copy(board: Board, name: str) -> str | None:
    """The lowest-numbered copy of ``name`` in the supply (None: none left)."""
    try:
        return board.next_copy(name)
    except IllegalAction:
        return None


def laid_tiles(board: Board) -> dict[str, str]:
    """Tile copy id -> hex, for every tile laid from the supply."""
    return {str(st.tile_id): str(st.hex_id) for st in board if not st.printed}


def lay(board: Board, hex_id: str, tile_id: str, rotation: int) -> None:
    """Lay a tile; the tokens of each city go to the first slots of the city that
    takes them, in their order (extra slots beyond the printed ones when needed).

    Raises:
        IllegalAction: the copy is not in the supply, or the tile has no city
            for a token.
    """
    board.lay_tile(hex_id, tile_id, rotation)
    st = board.hex(hex_id)
    for c, row in enumerate(st.tokens):
        held = [t for t in row if t is not None]
        if [t for t in row[:len(held)]] == held:
            continue
        for s, t in enumerate(row):
            if t is not None:
                board.remove_token(hex_id, c, s)
        for s, t in enumerate(held):
            board.place_token(hex_id, c, t.corp, slot=s, kind=t.kind)


def blocked(board: Board, hex_id: str) -> bool:
    """No tile may be laid on ``hex_id`` yet (M13 until the first 3)."""
    return bool(board.hex(hex_id).blockers)


# --- track ----------------------------------------------------------------------------------


def passable(board: Board, hex_id: str, edge: int) -> bool:
    """A hex lies across ``edge`` and no impassable border separates them."""
    other = board.neighbour(hex_id, edge)
    if other is None:
        return False
    for h, e in ((hex_id, edge), (other, opposite(edge))):
        if any(b.edge == e and b.type == "impassable" for b in board.hex_def(h).tile.borders):
            return False
    return True


def neighbour_enterable(board: Board, hex_id: str, edge: int) -> tuple[str, int] | None:
    """The (hex, edge) entered by leaving ``hex_id`` across ``edge``, if track joins."""
    if not passable(board, hex_id, edge):
        return None
    other = board.neighbour(hex_id, edge)
    assert other is not None
    back = opposite(edge)
    if back not in board.hex(other).geo.exits:
        return None
    return str(other), back


def edge_edges(geo: Geometry) -> dict[int, frozenset[int]]:
    """Edge -> the edges joined to it by plain track."""
    out: dict[int, set[int]] = {}
    for a, b in geo.ends:
        if a < NODE and b < NODE:
            out.setdefault(a, set()).add(b)
            out.setdefault(b, set()).add(a)
    return {k: frozenset(v) for k, v in out.items()}


def edge_nodes(geo: Geometry) -> dict[int, frozenset[int]]:
    """Edge -> the nodes joined to it by one path."""
    out: dict[int, set[int]] = {}
    for n, edges in enumerate(geo.node_edges):
        for e in edges:
            out.setdefault(e, set()).add(n)
    return {k: frozenset(v) for k, v in out.items()}


def node_nodes(geo: Geometry, node: int) -> frozenset[int]:
    """Nodes joined to ``node`` by one path."""
    code = NODE + node
    out: set[int] = set()
    for a, b in geo.ends:
        if a >= NODE and b >= NODE and code in (a, b):
            out.add((b if a == code else a) - NODE)
    return frozenset(out)


def terminal_nodes(geo: Geometry) -> frozenset[int]:
    """Nodes at the end of a terminal path."""
    return frozenset(x - NODE for (a, b), t in zip(geo.ends, geo.terminal, strict=True) if t
                     for x in (a, b) if x >= NODE)


def stop_counts(tile: TileDef) -> tuple[int, int]:
    """(cities, towns) on ``tile``."""
    return len(tile.cities), len(tile.towns)


# --- reach ----------------------------------------------------------------------------------


def graph(board: Board) -> TrackGraph:
    """The track graph of the board now."""
    return graph_for(board)


def reach(board: Board, corp: str) -> tuple[frozenset[tuple[str, int]],
                                            Mapping[str, frozenset[int]]]:
    """Nodes ``corp`` reaches, and per hex the edges where its track arrives or
    leaves (every open side of a hex with its token)."""
    found = graph_for(board).reach(corp)  # hex ids are strings: no copy needed
    return found.nodes, cast("Mapping[str, frozenset[int]]", found.edges)


def reach_nodes(board: Board, corp: str, friends: frozenset[str] = frozenset()
                ) -> frozenset[tuple[str, int]]:
    """Nodes ``corp`` reaches when the tokens of ``friends`` never block (the card:
    a merging group's own tokens)."""
    if not friends - {corp}:
        return reach(board, corp)[0]
    trial = board.copy()
    for st in board:
        for c, row in enumerate(st.tokens):
            for s, t in enumerate(row):
                if t is not None and t.corp in friends and t.corp != corp:
                    trial.remove_token(st.hex_id, c, s)
                    trial.place_token(st.hex_id, c, t.corp, slot=s, kind="neutral")
    found = TrackGraph(trial, base=graph_for(board)).reach(corp)
    return frozenset((str(h), n) for h, n in found.nodes)


def reaches_any(board: Board, corp: str, wanted: frozenset[tuple[str, int]]) -> bool:
    """``corp`` reaches one of the ``wanted`` nodes."""
    if not wanted:
        return False
    return graph_for(board).reaches_any(corp, {(HexId(h), n) for h, n in wanted})


def can_run_from_one_token(board: Board, corp: str) -> bool:
    """Some token of ``corp`` reaches another stop by its own walk (18xx
    ``Graph#compute`` ``route_available``)."""
    if not graph_for(board).token_nodes(corp):
        return False
    return graph_for(board).token_walk_reaches(corp, 2)


_NEW_TRACK: dict[tuple[int, int, str, str, int, int], tuple[TileDef, bool]] = {}


def gives_new_track(board: Board, corp: str, hex_id: str, tile: TileDef, tile_id: str,
                    rotation: int) -> bool:
    """Laying ``tile`` on ``hex_id`` at ``rotation`` gives ``corp`` new track or a new
    stop value (18xx.games ``check_track_restrictions!``, ``:semi_restrictive``):
    its walk enters one of :func:`new_track_paths` once the tile is laid (on a copy
    of the board; this one is untouched)."""
    st = board.hex(hex_id)
    gains = new_track_paths(st.geo, geometry(tile, rotation))
    if gains is None:
        return True
    if not gains:
        return False
    key = (board.serial, board.version, corp, hex_id, id(tile), rotation % 6)
    hit = _NEW_TRACK.get(key)
    if hit is not None and hit[0] is tile:
        return hit[1]
    trial = board.copy()
    copy = tile_id if trial.is_available(tile_id) else trial.next_copy(tile.name)
    lay(trial, hex_id, copy, rotation)
    laid = trial.hex(hex_id)
    tokened = {laid.geo.city_nodes[c] for c, row in enumerate(laid.tokens)
               if any(t is not None and t.corp == corp and t.kind != "neutral" for t in row)}
    if any(x - NODE in tokened for p in gains for x in laid.geo.ends[p] if x >= NODE):
        answer = True  # the first walk from that token enters the path
    else:
        wanted = [(laid.hex_id, p) for p in gains]
        answer = TrackGraph(trial, base=graph_for(board)).walks_any(corp, wanted)
    if len(_NEW_TRACK) > 4096:
        _NEW_TRACK.clear()
    _NEW_TRACK[key] = (tile, answer)
    return answer


def _path_edges(geo: Geometry, p: int) -> tuple[int, ...]:
    return tuple(x for x in geo.ends[p] if x < NODE)


def _path_has_node(geo: Geometry, p: int) -> bool:
    return any(x >= NODE for x in geo.ends[p])


def node_connected_elsewhere(board: Board, hex_id: str) -> bool:
    """True when track from a city of ``hex_id`` reaches a stop (18xx
    ``G1867::Game#unconnected_hexes``, used for major home choices).

    The reference's test, walked as it walks: from each path of each city
    (``Path#walk``), a route of plain track that enters no path twice and
    crosses no hexside twice until it meets a path with a node (a city, a
    town or an off-board, tokens ignored; another path into the same city
    counts too).  The walk never passes through a node, so a path joining
    two nodes leads nowhere, and a loop that comes back over the hexside it
    left by (through a converging exit) is not another stop."""
    geo = board.hex(hex_id).geo
    return any(_path_reaches_node(board, hex_id, p)
               for node in geo.city_nodes for p in geo.node_paths[node])


def _path_reaches_node(board: Board, hex_id: str, start: int) -> bool:
    visited: set[tuple[str, int]] = {(hex_id, start)}
    crossed: set[tuple[str, int]] = set()

    def cross(h: str, e: int) -> bool:
        if not passable(board, h, e):
            return False
        other = board.neighbour(h, e)
        assert other is not None
        crossed.add((h, e))
        back = opposite(e)
        found = any(enter(str(other), q, back) for q in board.hex(other).geo.edge_paths[back])
        crossed.discard((h, e))
        return found

    def enter(h: str, p: int, skip: int) -> bool:
        geo = board.hex(h).geo
        edges = _path_edges(geo, p)
        if (h, p) in visited or any((h, e) in crossed for e in edges):
            return False
        if _path_has_node(geo, p):
            return True
        visited.add((h, p))
        found = any(cross(h, e) for e in edges if e != skip)
        visited.discard((h, p))
        return found

    return any(cross(hex_id, e) for e in _path_edges(board.hex(hex_id).geo, start))


def node_kind(board: Board, hex_id: str, node: int) -> NodeKind:
    """Kind of a node on the current tile."""
    return board.hex(hex_id).tile.nodes[node].kind


# --- ids and the position -------------------------------------------------------------------


def find_city(board: Board, city_id: str) -> tuple[str, int]:
    """(hex, city number) of a city id ``"<tile id>-<part>"``: a laid or printed
    tile by its id, or a printed tile by desk18xx 0.1.0's ``"<hex>-0"``.

    Raises:
        IllegalAction: no such city on the board.
    """
    tile_id, sep, part = city_id.rpartition("-")
    if not sep or not part.lstrip("-").isdigit():
        raise IllegalAction(f"no city {city_id} on the board")
    hex_id: str | None = board.hex_of_tile(tile_id)
    if hex_id is None:
        name = tile_id.rpartition("-")[0]
        if name in board and board.hex(name).printed and tile_id == f"{name}-0":
            hex_id = name
    if hex_id is None:
        raise IllegalAction(f"no city {city_id} on the board")
    city = int(part)
    if not 0 <= city < len(board.hex(hex_id).tokens):
        raise IllegalAction(f"no city {city_id} on the board")
    return hex_id, city


def reference_city_id(board: Board, city_id: str) -> str:
    """18xx.games' name of city id ``city_id``: a city on a printed tile written
    ``"<hex>-0-<part>"`` (desk18xx 0.1.0 named every printed tile ``"<hex>-0"``)
    becomes ``"<hex>-<n>-<part>"`` with the map's tile id (``"E15-3-0"``); any
    other id is returned as is."""
    tile_id, sep, part = city_id.rpartition("-")
    name, sep2, index = tile_id.rpartition("-")
    if not (sep and sep2 and index.isdigit()) or name not in board:
        return city_id
    tid = board.hex_def(name).tile_id
    if tid is None:
        return city_id
    return f"{tid}-{part}"


def summary(board: Board) -> dict[str, Any]:
    """The board part of the position (digest version 1): ``tiles`` (hex -> laid
    tile id and rotation) and ``tokens`` (hex -> per city its slots), sorted by hex."""
    states = sorted(board, key=lambda st: str(st.hex_id))
    return {
        "tiles": {str(st.hex_id): [str(st.tile_id), st.rotation] for st in states
                  if not st.printed},
        "tokens": {str(st.hex_id): hex_slots(board, st.hex_id) for st in states
                   if any(t is not None for city in st.tokens for t in city)},
    }
