"""Tile-lay legality and cost, as pure functions over a :class:`Board`.

The generic rules follow 18xx.games (``Game::Base#upgrades_to?``,
``Step::Tracker#legal_tile_rotation?``, ``#upgradeable_tiles``,
``#remove_border_calculate_cost!``); a title passes its differences in one
frozen :class:`TrackRules`.  Functions named ``*_problem`` return None when
the lay is fine, else a message for the player; :func:`check_tile_lay`
raises :class:`IllegalAction` with that message.

``reach`` arguments are the edges of the hex the operating company can reach
(``Graph.connected_edges``); None skips the connection test (private
abilities that teleport, setup events).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import cast

from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.ids import HexId
from desk18xx.engine.map.board import Board, HexState
from desk18xx.engine.map.hexgrid import opposite
from desk18xx.engine.map.tiles import (
    NODE,
    Geometry,
    geometry,
    map_cities,
    paths_kept,
    paths_kept_any_rotation,
)
from desk18xx.engine.tiledef import COLOR_ORDER, Color, TileDef, UpgradeCost


@dataclass(frozen=True, slots=True)
class TrackRules:
    """A title's track-laying differences from the 18xx.games defaults.

    1867: ``TrackRules(max_exits="cities", border_costs="both_sides")``.
    1822CA: ``max_exits="unlabeled_cities"``, ``border_costs="each_side"``,
    ``fixed_rotations`` from ``method_data.big_city_legal_rotations``,
    ``forbidden_upgrades`` from BIG_CITY_ILLEGAL_TILE_UPGRADES,
    ``label_exemptions`` {E11, F16: 7/8/9} (RB 5.7.32), ``replace_only``
    {AG13: 5/6/57} (La Prairie, RB 5.7.18), ``town_tiles``/``plain_tiles``
    from TRACK_TOWN/TRACK_PLAIN (P29/P30 town removal).
    """

    impassable_colors: frozenset[Color] = frozenset({Color.BLUE, Color.GRAY, Color.RED})
    """Printed colours that connect only where they have track (IMPASSABLE_HEX_COLORS)."""
    stubs_restricted: bool = True
    """Every stub edge must be an exit of the tile laid (StubsAreRestricted)."""
    max_exits: str | None = None
    """``"cities"``, ``"unlabeled_cities"`` or None (TILE_UPGRADES_MUST_USE_MAX_EXITS)."""
    max_exits_plain: frozenset[Color] = frozenset()
    """Colours in which a plain-track tile (no city, no town) must also have the
    most exits that fit (1822CA RB 5.7.35: grey #60 before #169)."""
    border_costs: str = "both_sides"
    """``"both_sides"``: a river is paid once when track meets from both sides
    (generic engine, 1867); ``"each_side"``: every tile pointing at it pays (1822)."""
    fixed_rotations: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    """Tile name -> the only rotations allowed."""
    forbidden_upgrades: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Tile name -> tile names it may not be upgraded to."""
    label_exemptions: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Hex -> tile names accepted there whatever their label."""
    replace_only: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Hex -> while still printed, only these tiles, and old track need not be kept."""
    town_tiles: frozenset[str] = frozenset()
    """Tiles whose town may be removed by an ability (``remove_town``)."""
    plain_tiles: frozenset[str] = frozenset()
    """Plain-track tiles that may replace a ``town_tiles`` tile when removing a town."""


@dataclass(frozen=True, slots=True)
class BorderCrossing:
    """A river border paid by a tile lay."""

    hex: HexId
    edge: int
    type: str | None
    cost: int
    removed: tuple[tuple[HexId, int], ...]
    """Borders (hex, edge) that vanish with the payment."""


@dataclass(frozen=True, slots=True)
class LayCost:
    """What a tile lay costs before any discount.

    ``terrain`` are the ``upgrade`` parts of the replaced tile (each with its
    terrain types, for terrain discounts); ``borders`` the rivers crossed.
    """

    terrain: tuple[UpgradeCost, ...] = ()
    borders: tuple[BorderCrossing, ...] = ()

    @property
    def total(self) -> int:
        """Sum of all costs."""
        return sum(u.cost for u in self.terrain) + sum(b.cost for b in self.borders)

    @property
    def terrain_types(self) -> tuple[str, ...]:
        """Terrain types involved (for 18xx.games ``tile_income`` abilities)."""
        out: list[str] = []
        for u in self.terrain:
            out.extend(u.terrains)
        out.extend(b.type for b in self.borders if b.type)
        return tuple(out)


# --- neighbours


def edge_open(board: Board, hex_id: str, edge: int, rules: TrackRules) -> bool:
    """Track may point across ``edge`` (18xx.games ``hex.neighbors[edge]``).

    The neighbour must be on the map, this hex must not have an impassable
    border there, and a gray/red/blue neighbour must have track on that side.
    """
    nid = board.neighbour(hex_id, edge)
    if nid is None:
        return False
    st = board.hex(hex_id)
    if any(b.edge == edge and b.type == "impassable" for b in st.borders):
        return False
    printed = board.hex_def(nid).tile.color
    if printed in rules.impassable_colors:
        return opposite(edge) in board.hex(nid).geo.exits
    return True


# --- tile against tile


def _ct_edges(geo: Geometry) -> list[frozenset[int]]:
    """Edges of each city and town that has track to an edge (``city_town_edges``)."""
    return [
        geo.node_edges[n]
        for n in sorted(geo.city_nodes + geo.town_nodes)
        if geo.node_edges[n]
    ]


def _ct_subset_any_rotation(old: Geometry, new_tile: TileDef) -> bool:
    old_ct = _ct_edges(old)
    for r in range(6):
        new_ct = _ct_edges(geometry(new_tile, r))
        if all(any(o <= n for n in new_ct) for o in old_ct):
            return True
    return False


_KEPT: dict[tuple[object, ...], tuple[TileDef, TrackRules, object]] = {}
"""The answers of `upgrade_problem`, `rotation_problem` and `legal_rotations` by
(question, board serial, board version, hex, tile, rules, the rest): a door and
the step behind it ask the same lays in the same position."""


def _kept(key: tuple[object, ...], tile: TileDef, rules: TrackRules) -> tuple[bool, object]:
    """(True, the kept answer) for ``key``, asked of this ``tile`` and ``rules``."""
    hit = _KEPT.get(key)
    if hit is not None and hit[0] is tile and hit[1] is rules:
        return True, hit[2]
    return False, None


def _keep(key: tuple[object, ...], tile: TileDef, rules: TrackRules, answer: object) -> None:
    if len(_KEPT) > 8192:
        _KEPT.clear()
    _KEPT[key] = (tile, rules, answer)


def upgrade_problem(
    board: Board,
    hex_id: str,
    tile: TileDef,
    rules: TrackRules,
    *,
    special: bool = False,
    remove_town: bool = False,
) -> str | None:
    """Why ``tile`` may not replace the tile on ``hex_id`` at any rotation (``upgrades_to?``);
    kept per board version (`_kept`).

    Args:
        special: a private ability lays the tile (label and city/town counts
            are not checked).
        remove_town: an ability removes a town (1822 P29/P30).
    """
    key = ("u", board.serial, board.version, hex_id, id(tile), id(rules), special, remove_town)
    known, answer = _kept(key, tile, rules)
    if known:
        return cast("str | None", answer)
    why = _upgrade_problem(board, hex_id, tile, rules, special=special, remove_town=remove_town)
    _keep(key, tile, rules, why)
    return why


def _upgrade_problem(
    board: Board,
    hex_id: str,
    tile: TileDef,
    rules: TrackRules,
    *,
    special: bool = False,
    remove_town: bool = False,
) -> str | None:
    """`upgrade_problem`, worked out."""
    st = board.hex(hex_id)
    old = st.geo
    name = hex_id if st.printed else f"tile {old.tile.name} on {hex_id}"
    only = rules.replace_only.get(hex_id)
    if only is not None and st.printed:
        return None if tile.name in only else f"Only tiles {', '.join(sorted(only))} fit {name}"
    if tile.name in rules.forbidden_upgrades.get(old.tile.name, frozenset()):
        return f"Tile {old.tile.name} may not be upgraded to {tile.name}"
    if COLOR_ORDER.index(tile.color) != _color_index(old.tile.color) + 1:
        return f"A {tile.color} tile cannot replace the {old.tile.color} {name}"
    if remove_town and old.tile.name in rules.town_tiles and tile.name in rules.plain_tiles:
        return None
    if not paths_kept_any_rotation(old, tile):
        return f"Tile {tile.name} does not keep the track of {name}"
    if special:
        return None
    exempt = tile.name in rules.label_exemptions.get(hex_id, frozenset())
    want = old.tile.label
    fl = st.future_label
    if fl is not None and tile.color == fl.color:
        want = fl.label
    if want != tile.label and not exempt:
        need = f"label {want}" if want else "no label"
        return f"Tile {tile.name} does not fit {name}: it needs a tile with {need}"
    old_t, new_t = len(old.town_nodes), len(tile.towns)
    old_c, new_c = len(old.city_nodes), len(tile.cities)
    if old_t != new_t:
        return f"Tile {tile.name} has {new_t} towns; {name} needs {old_t}"
    if old.tile.label is None and old_c != new_c:
        return f"Tile {tile.name} has {new_c} cities; {name} needs {old_c}"
    if old_c > 1 and new_c > 1 and not _ct_subset_any_rotation(old, tile):
        return f"Tile {tile.name} does not keep the cities of {name}"
    if old.tile.label is not None and old_c and not new_c:
        return f"Tile {tile.name} has no city for {name}"
    return None


def _color_index(color: Color) -> int:
    return COLOR_ORDER.index(color) if color in COLOR_ORDER else -10


def rotation_problem(
    board: Board,
    hex_id: str,
    tile: TileDef,
    rotation: int,
    rules: TrackRules,
    reach: Collection[int] | None = None,
    *,
    remove_town: bool = False,
) -> str | None:
    """Why ``tile`` may not lie on ``hex_id`` at ``rotation`` (``legal_tile_rotation?``);
    kept per board version (`_kept`).  Assumes :func:`upgrade_problem` found nothing."""
    key = ("r", board.serial, board.version, hex_id, id(tile), id(rules), rotation % 6,
           None if reach is None else frozenset(reach), remove_town)
    known, answer = _kept(key, tile, rules)
    if known:
        return cast("str | None", answer)
    why = _rotation_problem(board, hex_id, tile, rotation, rules, reach,
                            remove_town=remove_town)
    _keep(key, tile, rules, why)
    return why


def _rotation_problem(
    board: Board,
    hex_id: str,
    tile: TileDef,
    rotation: int,
    rules: TrackRules,
    reach: Collection[int] | None = None,
    *,
    remove_town: bool = False,
) -> str | None:
    """`rotation_problem`, worked out: why ``tile`` may not lie on ``hex_id`` at ``rotation``.

    Assumes :func:`upgrade_problem` found nothing.  With ``remove_town``
    (1822 P29/P30) only the old exits must be kept.
    """
    st = board.hex(hex_id)
    old = st.geo
    new = geometry(tile, rotation)
    fixed = rules.fixed_rotations.get(tile.name)
    if fixed is not None and rotation % 6 not in fixed:
        return f"Tile {tile.name} may only be laid with rotation {', '.join(map(str, fixed))}"
    if rules.stubs_restricted and not set(st.tile.stubs) <= new.exits:
        return f"Track on {hex_id} must use the edge of the printed stub"
    for edge in sorted(new.exits):
        if not edge_open(board, hex_id, edge, rules):
            return f"Track on {hex_id} would run off the map or into a blocked side (edge {edge})"
    if reach is not None and not (new.exits & set(reach)):
        return f"The new track on {hex_id} is not connected to the company's network"
    only = rules.replace_only.get(hex_id)
    if only is not None and st.printed:
        return None
    if remove_town and old.tile.name in rules.town_tiles and tile.name in rules.plain_tiles:
        if not old.exits <= new.exits:
            return f"Tile {tile.name} at rotation {rotation} does not keep the exits of {hex_id}"
        return None
    if not paths_kept(old, new):
        return f"Tile {tile.name} at rotation {rotation} does not keep the track on {hex_id}"
    old_ct, new_ct = _ct_edges(old), _ct_edges(new)
    added = max(0, len(new_ct) - len(old_ct))
    fresh = sum(1 for n in new_ct if all(not (n & o) for o in old_ct))
    if fresh > added:
        return f"Tile {tile.name} at rotation {rotation} moves a city or town on {hex_id}"
    if len(new.city_nodes) > 1 and len(old.city_nodes) > 1:
        for o in old_ct:
            if sum(1 for n in new_ct if o <= n) != 1:
                return f"Tile {tile.name} at rotation {rotation} breaks up a city on {hex_id}"
    old_slots = [c.slots for c in old.tile.cities]
    if len(set(old_slots)) > 1:
        new_slots = [c.slots for c in tile.cities]
        for oc, nc in enumerate(map_cities(old, new)):
            if nc is not None and new_slots[nc] < old_slots[oc]:
                return f"Tile {tile.name} at rotation {rotation} has fewer slots in a city"
    return None


def legal_rotations(
    board: Board,
    hex_id: str,
    tile: TileDef,
    rules: TrackRules,
    reach: Collection[int] | None = None,
) -> tuple[int, ...]:
    """Rotations at which ``tile`` may lie on ``hex_id`` (empty if it does not fit);
    kept per board version (`_kept`)."""
    key = ("l", board.serial, board.version, hex_id, id(tile), id(rules),
           None if reach is None else frozenset(reach))
    known, answer = _kept(key, tile, rules)
    if known:
        return cast("tuple[int, ...]", answer)
    if upgrade_problem(board, hex_id, tile, rules) is not None:
        found: tuple[int, ...] = ()
    else:
        found = tuple(r for r in range(6)
                      if rotation_problem(board, hex_id, tile, r, rules, reach) is None)
    _keep(key, tile, rules, found)
    return found


def legal_tiles(
    board: Board,
    hex_id: str,
    colors: Collection[Color],
    rules: TrackRules,
    reach: Collection[int] | None = None,
) -> dict[str, tuple[int, ...]]:
    """Supply tiles that may be laid on ``hex_id`` now, with their legal rotations.

    ``colors`` are the tile colours of the current phase.  Applies the
    most-exits rule (1867 §6.4, 1822CA RB 5.7.34-5.7.35) when the title sets it.
    """
    out: dict[str, tuple[int, ...]] = {}
    for name in board.available_names():
        tile = board.tile_def(name)
        if tile.color not in colors:
            continue
        rots = legal_rotations(board, hex_id, tile, rules, reach)
        if rots:
            out[name] = rots
    st = board.hex(hex_id)
    best: dict[Color, int] = {}
    for name in out:
        t = board.tile_def(name)
        best[t.color] = max(best.get(t.color, 0), len(t.exits))
    return {
        n: r
        for n, r in out.items()
        if not _max_exits_applies(st, rules, board.tile_def(n))
        or len(board.tile_def(n).exits) == best[board.tile_def(n).color]
    }


def layable_hexes(
    board: Board,
    edges: Mapping[HexId, frozenset[int]],
    colors: Collection[Color],
    rules: TrackRules,
    *,
    entity: str | None = None,
) -> dict[HexId, dict[str, tuple[int, ...]]]:
    """Every hex the company may build on now, with its legal tiles and rotations.

    Args:
        edges: the company's ``Reach.edges`` (hexes and the edges it reaches).
        entity: the company (hexes blocked by others' abilities are left out).
    """
    out: dict[HexId, dict[str, tuple[int, ...]]] = {}
    for hex_id in board.hex_ids():
        reach = edges.get(hex_id)
        if reach is None:
            continue
        st = board.hex(hex_id)
        if any(b != entity for b in st.blockers):
            continue
        tiles = legal_tiles(board, hex_id, colors, rules, reach)
        if tiles:
            out[hex_id] = tiles
    return out


def _max_exits_applies(st: HexState, rules: TrackRules, tile: TileDef | None = None) -> bool:
    """The most-exits rule applies to laying ``tile`` on ``st`` (any tile when None:
    on plain track then wherever ``max_exits_plain`` names a colour)."""
    if not st.geo.city_nodes:
        if st.geo.town_nodes or not rules.max_exits_plain:
            return False
        return tile is None or (tile.color in rules.max_exits_plain
                                and not tile.cities and not tile.towns)
    if rules.max_exits == "cities":
        return True
    return rules.max_exits == "unlabeled_cities" and st.tile.label is None


def _more_exits_fit(
    board: Board, hex_id: str, tile: TileDef, rules: TrackRules, reach: Collection[int] | None
) -> bool:
    """Some supply tile of ``tile``'s colour with more exits fits, or ``tile`` is not
    among :func:`legal_tiles` before its most-exits rule: only then can that rule
    refuse ``tile``."""
    names = board.available_names()
    if tile.name not in names or not legal_rotations(board, hex_id, tile, rules, reach):
        return True
    exits = len(tile.exits)
    for name in names:
        other = board.tile_def(name)
        if other.color is tile.color and len(other.exits) > exits and legal_rotations(
            board, hex_id, other, rules, reach
        ):
            return True
    return False


def check_tile_lay(
    board: Board,
    hex_id: str,
    tile_id: str,
    rotation: int,
    colors: Collection[Color],
    rules: TrackRules,
    reach: Collection[int] | None = None,
    *,
    entity: str | None = None,
    special: bool = False,
    remove_town: bool = False,
) -> None:
    """Raise if laying ``tile_id`` on ``hex_id`` at ``rotation`` breaks a track rule.

    Checks supply, blockers, phase colour, upgrade path, rotation and the
    most-exits rule.  Money and the number of lays are the caller's business.

    Args:
        entity: the company laying (a hex blocked by its own ability is open to it).
        special: a private ability lays the tile (no label/city-count checks,
            no most-exits rule).

    Raises:
        IllegalAction: the lay is not allowed; the message says why.
    """
    st = board.hex(hex_id)
    if not board.is_available(tile_id):
        raise IllegalAction(f"Tile {tile_id} is not in the supply")
    tile = board.tile_def(tile_id)
    blockers = [b for b in st.blockers if b != entity]
    if blockers:
        raise IllegalAction(f"{hex_id} is blocked by {blockers[0]}")
    if tile.color not in colors:
        raise IllegalAction(f"{tile.color.capitalize()} tiles are not available in this phase")
    why = upgrade_problem(board, hex_id, tile, rules, special=special, remove_town=remove_town)
    if why is None:
        why = rotation_problem(
            board, hex_id, tile, rotation, rules, reach, remove_town=remove_town
        )
    if why is not None:
        raise IllegalAction(why)
    if not special and _max_exits_applies(st, rules, tile) and _more_exits_fit(
        board, hex_id, tile, rules, reach
    ):
        legal = legal_tiles(board, hex_id, [tile.color], rules, reach)
        if tile.name not in legal:
            better = ", ".join(sorted(legal))
            raise IllegalAction(f"A tile with more exits must be laid on {hex_id} ({better})")


# --- cost and execution


def lay_cost(board: Board, hex_id: str, tile: TileDef, rotation: int, rules: TrackRules) -> LayCost:
    """Terrain and river costs of a lay, computed before the board changes."""
    st = board.hex(hex_id)
    new = geometry(tile, rotation)
    borders: list[BorderCrossing] = []
    for b in tile.borders + st.borders:
        if b.cost <= 0 or b.edge not in new.exits:
            continue
        nid = board.neighbour(hex_id, b.edge)
        if nid is None:
            continue
        back = opposite(b.edge)
        n_has = back in board.hex(nid).geo.exits
        removed: tuple[tuple[HexId, int], ...]
        if rules.border_costs == "both_sides":
            if not n_has:
                continue
            removed = ((HexId(hex_id), b.edge), (nid, back))
        else:
            removed = ((HexId(hex_id), b.edge),) + (((nid, back),) if n_has else ())
        borders.append(BorderCrossing(HexId(hex_id), b.edge, b.type, b.cost, removed))
    return LayCost(terrain=st.tile.upgrades, borders=tuple(borders))


def lay_tile(
    board: Board, hex_id: str, tile_id: str, rotation: int, rules: TrackRules
) -> LayCost:
    """Lay a tile (already checked) and remove the river borders it pays for."""
    cost = lay_cost(board, hex_id, board.tile_def(tile_id), rotation, rules)
    board.lay_tile(hex_id, tile_id, rotation)
    for crossing in cost.borders:
        for h, e in crossing.removed:
            board.remove_border(h, e)
    return cost


# --- new track (18xx.games ``Tracker#check_track_restrictions!``)


def _top_revenue(tile: TileDef, node: int) -> int:
    rev = tile.nodes[node].revenue
    return max([rev.flat, *(v for _c, v in rev.by_color)])


def new_track_paths(old: Geometry, new: Geometry) -> frozenset[int] | None:
    """Paths of ``new`` that are new track or change a stop's value over ``old``
    (the ``:semi_restrictive`` rule: a lay must give the company one of them);
    None when ``old`` has no track (all of ``new`` is new track).

    A new path is old track when every end of it is an end of one old path (an
    edge by number, a stop by kind: 18xx ``Path#<=``); it changes a value when
    the stops of the first such old path have other (highest) revenues.
    """
    return _new_track_paths(old, new)


@functools.lru_cache(maxsize=65536)
def _new_track_paths(old: Geometry, new: Geometry) -> frozenset[int] | None:
    if not old.ends:
        return None

    def split(geo: Geometry, p: int) -> tuple[frozenset[int], tuple[int, ...]]:
        ends = geo.ends[p]
        return (frozenset(x for x in ends if x < NODE), tuple(x - NODE for x in ends if x >= NODE))

    olds = [split(old, q) for q in range(old.n_paths)]
    gains: set[int] = set()
    for p in range(new.n_paths):
        edges, nodes = split(new, p)
        kinds = [new.kinds[n] for n in nodes]
        for oedges, onodes in olds:
            okinds = {old.kinds[n] for n in onodes}
            if edges <= oedges and all(k in okinds for k in kinds):
                if sorted(_top_revenue(new.tile, n) for n in nodes) != sorted(
                        _top_revenue(old.tile, n) for n in onodes):
                    gains.add(p)
                break
        else:
            gains.add(p)
    return frozenset(gains)
