"""Load a title's game data from ``maps/<title>/*.yaml`` into frozen dataclasses.

This module is the YAML edge: ``Any`` appears only here, and every malformed
node is reported as :class:`~desk18xx.engine.errors.DataError` naming the file
and the key path (``hexes.L12.nodes[2].city.slots: expected int``).  The YAML
schema is described in ``maps/README.md``.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType
from typing import Any, NoReturn, TypeAlias

import yaml

from desk18xx.engine.errors import DataError
from desk18xx.engine.tiledef import (
    BorderDef,
    Color,
    FutureLabel,
    HexDef,
    IconDef,
    ManifestTile,
    NodeDef,
    NodeKind,
    PathDef,
    PathEnd,
    Reservation,
    Revenue,
    SetupIcon,
    SetupToken,
    TileDef,
    UpgradeCost,
)

#: Title ids that :func:`load_title` accepts.
TITLE_IDS: tuple[str, ...] = ("1867", "1822CA", "1822CA-ERS", "1822CA-WRS")
#: Environment variable that overrides the ``maps/`` folder.
MAPS_ENV = "DESK18XX_MAPS"


def maps_dir() -> Path:
    """The folder holding ``<title>/*.yaml``.

    ``$DESK18XX_MAPS`` wins; otherwise ``maps/`` next to the ``desk18xx``
    package (source tree, or installed with the package data), and finally
    ``desk18xx/maps`` inside the package (frozen bundles).
    """
    env = os.environ.get(MAPS_ENV)
    if env:
        return Path(env)
    package = Path(__file__).resolve().parents[1]
    for candidate in (package.parent / "maps", package / "maps"):
        if candidate.is_dir():
            return candidate
    return package.parent / "maps"


# --------------------------------------------------------------------------
# A cursor over parsed YAML that knows where it is, for error messages.


class _Node:
    """A YAML value with its file and key path."""

    __slots__ = ("value", "file", "key")

    def __init__(self, value: Any, file: str, key: str = "") -> None:
        self.value = value
        self.file = file
        self.key = key

    def fail(self, problem: str) -> NoReturn:
        raise DataError(self.file, self.key or "<top>", problem)

    def _sub(self, key: str | int) -> str:
        if isinstance(key, int):
            return f"{self.key}[{key}]"
        return f"{self.key}.{key}" if self.key else key

    def _mapping(self) -> dict[Any, Any]:
        if not isinstance(self.value, dict):
            self.fail(f"expected mapping, got {_type_name(self.value)}")
        return self.value

    def has(self, key: str) -> bool:
        return key in self._mapping()

    def get(self, key: str) -> _Node:
        """The required child ``key`` of a mapping."""
        mapping = self._mapping()
        if key not in mapping:
            _Node(None, self.file, self._sub(key)).fail("missing")
        return _Node(mapping[key], self.file, self._sub(key))

    def opt(self, key: str) -> _Node | None:
        """The optional child ``key`` of a mapping (None when absent or null)."""
        mapping = self._mapping()
        if mapping.get(key) is None:
            return None
        return _Node(mapping[key], self.file, self._sub(key))

    def only(self, *allowed: str) -> _Node:
        """Fail on any key of this mapping not in ``allowed``; returns self."""
        for key in self._mapping():
            if key not in allowed:
                _Node(None, self.file, self._sub(str(key))).fail("unknown key")
        return self

    def items(self) -> Iterator[tuple[str, _Node]]:
        """Key/value pairs of a mapping with string keys, in file order."""
        for key, value in self._mapping().items():
            if not isinstance(key, str):
                _Node(None, self.file, self._sub(str(key))).fail(
                    f"key must be a string (quote it), got {_type_name(key)}"
                )
            yield key, _Node(value, self.file, self._sub(key))

    def as_list(self) -> list[_Node]:
        if not isinstance(self.value, list):
            self.fail(f"expected list, got {_type_name(self.value)}")
        return [_Node(v, self.file, self._sub(i)) for i, v in enumerate(self.value)]

    def as_int(self) -> int:
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            self.fail(f"expected int, got {_type_name(self.value)}")
        return self.value

    def as_str(self) -> str:
        if not isinstance(self.value, str):
            self.fail(f"expected str, got {_type_name(self.value)}")
        return self.value

    def as_bool(self) -> bool:
        if not isinstance(self.value, bool):
            self.fail(f"expected bool, got {_type_name(self.value)}")
        return self.value

    def enum_color(self) -> Color:
        try:
            return Color(self.as_str())
        except ValueError:
            self.fail(f"unknown colour {self.value!r}")

    def strs(self) -> tuple[str, ...]:
        return tuple(n.as_str() for n in self.as_list())

    def ints(self) -> tuple[int, ...]:
        return tuple(n.as_int() for n in self.as_list())


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "mapping"
    return type(value).__name__


def _opt_int(node: _Node, key: str, default: int) -> int:
    child = node.opt(key)
    return default if child is None else child.as_int()


def _opt_str(node: _Node, key: str) -> str | None:
    child = node.opt(key)
    return None if child is None else child.as_str()


def _opt_bool(node: _Node, key: str, default: bool = False) -> bool:
    child = node.opt(key)
    return default if child is None else child.as_bool()


#: ``yaml.safe_load``'s loader, in its libyaml (C) form when available (4-8x faster).
_SAFE_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _read_yaml(path: Path) -> _Node:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(str(path), "<file>", f"cannot read: {exc.strerror or exc}") from exc
    try:
        value = yaml.load(text, Loader=_SAFE_LOADER)
    except yaml.YAMLError as exc:
        raise DataError(str(path), "<file>", f"invalid YAML: {exc}") from exc
    node = _Node(value, str(path))
    node._mapping()
    return node


# --------------------------------------------------------------------------
# Track content


_TILE_KEYS = ("nodes", "paths", "label", "future_label", "upgrades", "borders", "stubs", "icons")


def _revenue(node: _Node | None) -> Revenue:
    if node is None:
        return Revenue()
    if isinstance(node.value, dict):
        table = tuple((_Node(c, node.file, node.key).enum_color(), v.as_int())
                      for c, v in node.items())
        if not table:
            node.fail("empty revenue table")
        return Revenue(by_color=table)
    return Revenue(flat=node.as_int())


def _node_def(node: _Node) -> NodeDef:
    mapping = node._mapping()
    if len(mapping) != 1:
        node.fail("expected one of city, town, offboard, junction")
    (kind_name, body), = node.items()
    try:
        kind = NodeKind(kind_name)
    except ValueError:
        _Node(None, node.file, node._sub(kind_name)).fail("unknown node kind")
    if body.value is None:
        body = _Node({}, body.file, body.key)
    body.only("revenue", "slots", "groups", "visit_cost", "hidden", "loc")
    groups = body.opt("groups")
    slots = body.opt("slots")
    if slots is not None and kind is not NodeKind.CITY:
        slots.fail("only cities have slots")
    return NodeDef(
        kind=kind,
        revenue=_revenue(body.opt("revenue")),
        slots=(1 if slots is None else slots.as_int()) if kind is NodeKind.CITY else 0,
        groups=() if groups is None else groups.strs(),
        visit_cost=_opt_int(body, "visit_cost", 1),
        hidden=_opt_bool(body, "hidden"),
        loc=_opt_str(body, "loc"),
    )


def _path_end(node: _Node, n_nodes: int) -> PathEnd:
    node.only("edge", "node")
    edge, index = node.opt("edge"), node.opt("node")
    if (edge is None) == (index is None):
        node.fail("expected exactly one of edge, node")
    if edge is not None:
        value = edge.as_int()
        if not 0 <= value <= 5:
            edge.fail(f"edge {value} out of range 0-5")
        return PathEnd(edge=value)
    assert index is not None
    value = index.as_int()
    if not 0 <= value < n_nodes:
        index.fail(f"node {value} out of range (tile has {n_nodes} nodes)")
    return PathEnd(node=value)


def _path_def(node: _Node, n_nodes: int) -> PathDef:
    node.only("a", "b", "terminal", "lanes")
    return PathDef(
        a=_path_end(node.get("a"), n_nodes),
        b=_path_end(node.get("b"), n_nodes),
        terminal=_opt_bool(node, "terminal"),
        lanes=_opt_int(node, "lanes", 1),
    )


def _items(node: _Node, key: str) -> list[_Node]:
    child = node.opt(key)
    return [] if child is None else child.as_list()


def _tile_def(name: str, color: Color, node: _Node) -> TileDef:
    """Track content from a hex or tile mapping (extra keys checked by the caller)."""
    nodes = tuple(_node_def(n) for n in _items(node, "nodes"))
    future = node.opt("future_label")
    future_label = None
    if future is not None:
        future.only("label", "color")
        future_label = FutureLabel(future.get("label").as_str(), future.get("color").enum_color())
    upgrades = []
    for up in _items(node, "upgrades"):
        up.only("cost", "terrain", "loc")
        terrain = up.opt("terrain")
        upgrades.append(UpgradeCost(
            cost=up.get("cost").as_int(),
            terrains=() if terrain is None else terrain.strs(),
            loc=_opt_str(up, "loc"),
        ))
    borders = []
    for b in _items(node, "borders"):
        b.only("edge", "type", "cost")
        borders.append(
            BorderDef(b.get("edge").as_int(), _opt_str(b, "type"), _opt_int(b, "cost", 0))
        )
    icons = []
    for i in _items(node, "icons"):
        i.only("image", "sticky", "loc")
        icons.append(IconDef(i.get("image").as_str(), _opt_bool(i, "sticky"), _opt_str(i, "loc")))
    stubs = node.opt("stubs")
    return TileDef(
        name=name,
        color=color,
        nodes=nodes,
        paths=tuple(_path_def(p, len(nodes)) for p in _items(node, "paths")),
        label=_opt_str(node, "label"),
        upgrades=tuple(upgrades),
        borders=tuple(borders),
        stubs=() if stubs is None else stubs.ints(),
        icons=tuple(icons),
        future_label=future_label,
    )


def _manifest(root: _Node) -> dict[str, ManifestTile]:
    tiles: dict[str, ManifestTile] = {}
    for name, node in root.only("tiles").get("tiles").items():
        node.only("color", "count", "hidden", "box_count", *_TILE_KEYS)
        count_node = node.get("count")
        if count_node.value == "unlimited":
            count: int | None = None
        else:
            count = count_node.as_int()
            if count < 1:
                count_node.fail("expected a positive count or 'unlimited'")
        tile = _tile_def(name, node.get("color").enum_color(), node)
        box = node.opt("box_count")
        if box is not None and count is not None:
            box.fail("only unlimited tiles have a box_count")
        tiles[name] = ManifestTile(tile, count, _opt_bool(node, "hidden"),
                                   None if box is None else box.as_int())
    return tiles


def _hex(hex_id: str, node: _Node) -> HexDef:
    node.only("color", "tile_id", "location_name", "markers", "setup", *_TILE_KEYS)
    tile_id = node.get("tile_id")
    if not re.fullmatch(rf"{re.escape(hex_id)}-(0|[1-9][0-9]*)", tile_id.as_str()):
        tile_id.fail(f"expected '{hex_id}-<copy index>', got {tile_id.as_str()!r}")
    markers = node.opt("markers")
    reservations: list[Reservation] = []
    tokens: list[SetupToken] = []
    blockers: list[str] = []
    icons: list[SetupIcon] = []
    setup = node.opt("setup")
    if setup is not None:
        setup.only("reservations", "tokens", "blockers", "icons")
        for r in _items(setup, "reservations"):
            r.only("entity", "city", "slot")
            reservations.append(Reservation(
                r.get("entity").as_str(), _opt_index(r, "city"), _opt_index(r, "slot")))
        for t in _items(setup, "tokens"):
            t.only("corporation", "city", "slot", "type", "price")
            tokens.append(SetupToken(
                t.get("corporation").as_str(), t.get("city").as_int(), t.get("slot").as_int(),
                _opt_str(t, "type") or "normal", _opt_int(t, "price", 0)))
        for b in _items(setup, "blockers"):
            b.only("company", "hidden")
            blockers.append(b.get("company").as_str())
        for i in _items(setup, "icons"):
            i.only("name", "image", "owner", "city", "slot", "loc")
            icons.append(SetupIcon(
                i.get("name").as_str(), i.get("image").as_str(), _opt_str(i, "owner"),
                _opt_index(i, "city"), _opt_index(i, "slot"), _opt_str(i, "loc")))
    return HexDef(
        id=hex_id,
        tile=_tile_def(hex_id, node.get("color").enum_color(), node),
        location_name=_opt_str(node, "location_name"),
        markers=frozenset(() if markers is None else markers.strs()),
        reservations=tuple(reservations),
        tokens=tuple(tokens),
        blockers=tuple(blockers),
        setup_icons=tuple(icons),
        tile_id=tile_id.as_str(),
    )


def _opt_index(node: _Node, key: str) -> int | None:
    child = node.opt(key)
    return None if child is None else child.as_int()


def _board(root: _Node) -> tuple[str, dict[str, HexDef]]:
    root.only("layout", "hexes")
    layout = root.get("layout").as_str()
    if layout not in ("flat", "pointy"):
        root.get("layout").fail("expected flat or pointy")
    return layout, {hex_id: _hex(hex_id, node) for hex_id, node in root.get("hexes").items()}


# --------------------------------------------------------------------------
# Market


@dataclass(frozen=True, slots=True)
class MarketCell:
    """One space of a stock market."""

    price: int
    types: tuple[str, ...] = ()
    """18xx.games share-price types: ``par``, ``par_1``, ``par_2``, ``no_cert_limit``
    (1822CA yellow zone), ``endgame``, ``max_price``, ``convert_range`` …"""

    def is_type(self, name: str) -> bool:
        """True when the cell carries the type ``name``."""
        return name in self.types


@dataclass(frozen=True, slots=True)
class MarketGrid:
    """A market layout: rows of cells, ``None`` where there is no space.

    A one-row grid is a column (1-D) market; 1867's grid market has 10 rows.
    """

    name: str
    rows: tuple[tuple[MarketCell | None, ...], ...]

    def cell(self, row: int, column: int) -> MarketCell | None:
        """The cell at ``(row, column)``, None outside the grid or on a gap."""
        if 0 <= row < len(self.rows) and 0 <= column < len(self.rows[row]):
            return self.rows[row][column]
        return None


@dataclass(frozen=True, slots=True)
class CellType:
    """Display of a share-price type (legend colour and text)."""

    color: str
    text: str


@dataclass(frozen=True, slots=True)
class MarketDef:
    """The stock market(s) of a title."""

    markets: Mapping[str, MarketGrid]
    """``"main"`` (1822CA), or ``"column"`` and ``"grid"`` (1867)."""
    default: str
    optional_rules: Mapping[str, str]
    """Optional rule → market used instead of the default (1867 ``grid_market``)."""
    cell_types: Mapping[str, CellType]
    cert_limit_types: tuple[str, ...]
    multiple_buy_types: tuple[str, ...]

    def grid(self, optional_rules: Iterable[str] = ()) -> MarketGrid:
        """The market in use with these optional rules."""
        for rule in optional_rules:
            if rule in self.optional_rules:
                return self.markets[self.optional_rules[rule]]
        return self.markets[self.default]


def _market(root: _Node) -> MarketDef:
    root.only("default", "optional_rules", "markets", "cell_types", "cert_limit_types",
              "multiple_buy_types")
    markets: dict[str, MarketGrid] = {}
    for name, node in root.get("markets").items():
        node.only("rows")
        rows = []
        for row in node.get("rows").as_list():
            cells: list[MarketCell | None] = []
            for cell in row.as_list():
                if cell.value is None:
                    cells.append(None)
                elif isinstance(cell.value, dict):
                    cell.only("price", "types")
                    cells.append(MarketCell(cell.get("price").as_int(), _strs(cell, "types")))
                else:
                    cells.append(MarketCell(cell.as_int()))
            rows.append(tuple(cells))
        markets[name] = MarketGrid(name, tuple(rows))
    default = root.get("default")
    if default.as_str() not in markets:
        default.fail(f"no market named {default.value!r}")
    rules = {k: v.as_str() for k, v in _items_map(root, "optional_rules")}
    types = {}
    for name, node in root.get("cell_types").items():
        node.only("color", "text")
        types[name] = CellType(node.get("color").as_str(), node.get("text").as_str())
    return MarketDef(
        markets=MappingProxyType(markets),
        default=default.as_str(),
        optional_rules=MappingProxyType(rules),
        cell_types=MappingProxyType(types),
        cert_limit_types=_strs(root, "cert_limit_types"),
        multiple_buy_types=_strs(root, "multiple_buy_types"),
    )


# --------------------------------------------------------------------------
# Trains and phases


@dataclass(frozen=True, slots=True)
class DistancePart:
    """Part of a multi-part train distance (18xx.games ``distance`` list)."""

    nodes: tuple[str, ...]
    """Stop kinds counted by this part: ``city``, ``town``, ``offboard``, ``grain_elevator``."""
    pay: int
    """How many of these stops may be counted for revenue."""
    visit: int
    """How many may be visited (99: any number)."""


#: A train's reach: a number of stops, or parts (1867 towns are free fillers, 5+5E, L).
Distance = int | tuple[DistancePart, ...]


@dataclass(frozen=True, slots=True)
class TrainVariant:
    """The other face of a double-sided train (1822CA L/2, 7/E)."""

    name: str
    distance: Distance
    price: int
    rusts_on: str | None = None
    obsolete_on: str | None = None
    available_on: str | None = None
    multiplier: int = 1


@dataclass(frozen=True, slots=True)
class TrainDef:
    """A train type in the depot."""

    name: str
    distance: Distance
    price: int
    num: int | None
    """Copies in the depot; None = unlimited."""
    rusts_on: str | None = None
    """Train name whose first purchase rusts this one."""
    obsolete_on: str | None = None
    available_on: str | None = None
    """Phase from which it may be bought (1867 2+2 and 5+5E: ``"8"``)."""
    multiplier: int = 1
    """Revenue multiplier (1867 2+2 and 5+5E, 1822CA E)."""
    events: tuple[str, ...] = ()
    """Events fired when the first one is bought."""
    discount: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    """Trade-in value by train name (1867 phase 8)."""
    variants: tuple[TrainVariant, ...] = ()


@dataclass(frozen=True, slots=True)
class PhaseDef:
    """A game phase."""

    name: str
    on: tuple[str, ...]
    """Train names whose first purchase starts the phase (empty: the starting phase)."""
    train_limit: Mapping[str, int]
    """By corporation type (``minor``, ``major``); a missing type may own no trains."""
    tiles: tuple[Color, ...]
    operating_rounds: int
    status: tuple[str, ...] = ()

    def train_limit_for(self, corp_type: str) -> int:
        """The train limit of ``corp_type`` in this phase (0 when not listed)."""
        return self.train_limit.get(corp_type, 0)


def _distance(node: _Node) -> Distance:
    if isinstance(node.value, list):
        parts = []
        for part in node.as_list():
            part.only("nodes", "pay", "visit")
            parts.append(DistancePart(_strs(part, "nodes"), part.get("pay").as_int(),
                                      part.get("visit").as_int()))
        return tuple(parts)
    return node.as_int()


def _train(node: _Node) -> TrainDef:
    node.only("name", "distance", "price", "num", "rusts_on", "obsolete_on", "available_on",
              "multiplier", "events", "discount", "variants")
    num = node.get("num")
    variants = []
    for v in _items(node, "variants"):
        v.only("name", "distance", "price", "rusts_on", "obsolete_on", "available_on",
               "multiplier")
        variants.append(TrainVariant(
            name=v.get("name").as_str(), distance=_distance(v.get("distance")),
            price=v.get("price").as_int(), rusts_on=_opt_str(v, "rusts_on"),
            obsolete_on=_opt_str(v, "obsolete_on"), available_on=_opt_str(v, "available_on"),
            multiplier=_opt_int(v, "multiplier", 1)))
    return TrainDef(
        name=node.get("name").as_str(),
        distance=_distance(node.get("distance")),
        price=node.get("price").as_int(),
        num=None if num.value == "unlimited" else num.as_int(),
        rusts_on=_opt_str(node, "rusts_on"),
        obsolete_on=_opt_str(node, "obsolete_on"),
        available_on=_opt_str(node, "available_on"),
        multiplier=_opt_int(node, "multiplier", 1),
        events=_strs(node, "events"),
        discount=MappingProxyType({k: v.as_int() for k, v in _items_map(node, "discount")}),
        variants=tuple(variants),
    )


def _phase(node: _Node) -> PhaseDef:
    node.only("name", "on", "train_limit", "tiles", "operating_rounds", "status")
    return PhaseDef(
        name=node.get("name").as_str(),
        on=_strs(node, "on"),
        train_limit=MappingProxyType(
            {k: v.as_int() for k, v in node.get("train_limit").items()}),
        tiles=tuple(n.enum_color() for n in node.get("tiles").as_list()),
        operating_rounds=node.get("operating_rounds").as_int(),
        status=_strs(node, "status"),
    )


# --------------------------------------------------------------------------
# Companies and corporations


class CompanyKind(StrEnum):
    """What a company certificate is."""

    PRIVATE = "private"
    CONCESSION = "concession"
    """1822CA: converts into a major's director's certificate."""
    MINOR = "minor"
    """1822CA: the director's certificate of a minor (``M5`` → minor ``5``)."""
    PLACEHOLDER = "placeholder"
    """1867 hidden company ``3`` that blocks M13 until phase 3."""


#: An ability parameter: a scalar or a list of strings/ints.
AbilityValue = str | int | bool | tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class AbilityDef:
    """A company ability (18xx.games ability hash; ``type`` and its keys kept as named)."""

    type: str
    """``tile_lay``, ``token``, ``exchange``, ``assign_hexes``, ``hex_bonus``, ``blocks_hexes``."""
    hexes: tuple[str, ...] = ()
    tiles: tuple[str, ...] = ()
    when: tuple[str, ...] = ()
    owner_type: str | None = None
    count: int | None = None
    params: Mapping[str, AbilityValue] = field(default_factory=lambda: MappingProxyType({}))
    """All other keys (``free``, ``reachable``, ``amount``, ``corporations`` …)."""


@dataclass(frozen=True, slots=True)
class CompanyDef:
    """A private company, concession or minor certificate."""

    sym: str
    name: str
    kind: CompanyKind
    value: int
    revenue: int
    desc: str
    discount: int = 0
    """1867: the minimum bid is ``value - discount``."""
    color: str | None = None
    text_color: str | None = None
    abilities: tuple[AbilityDef, ...] = ()
    in_starting_set: bool = True
    in_two_player_set: bool | None = None
    """ERS/WRS: in the 2-player set; None when the title has no separate set."""


class CorpType(StrEnum):
    """Corporation types (train limits are keyed by these)."""

    MINOR = "minor"
    MAJOR = "major"
    NATIONAL = "national"


@dataclass(frozen=True, slots=True)
class Destination:
    """A 1822CA major's destination and the icon marking it."""

    hex: str
    exits: tuple[int, ...] = ()
    """The city reached through these edges (multi-city hexes)."""
    icon: str | None = None
    icon_city: int | None = None
    icon_slot: int | None = None
    icon_loc: str | None = None


@dataclass(frozen=True, slots=True)
class CorporationDef:
    """A minor, major or national corporation."""

    sym: str
    name: str
    type: CorpType
    color: str
    logo: str
    tokens: tuple[int, ...]
    """Price of each token on the charter (the first is the home token)."""
    shares: tuple[int, ...]
    """Certificate percentages, director's first."""
    float_percent: int
    max_ownership_percent: int
    always_market_price: bool = False
    hide_shares: bool = False
    text_color: str | None = None
    simple_logo: str | None = None
    home_hexes: tuple[str, ...] = ()
    """Fixed home (1822CA); empty when chosen at start (1867)."""
    home_city: int | None = None
    """City index in the home hex; None = any city (or chosen)."""
    destination: Destination | None = None
    green: bool = False
    """1867: a green minor, available from the first 3-train."""


def _ability(node: _Node) -> AbilityDef:
    params: dict[str, AbilityValue] = {}
    for key, child in node.items():
        if key in ("type", "hexes", "tiles", "when", "owner_type", "count"):
            continue
        if isinstance(child.value, list):
            params[key] = tuple(_scalar(item, (str, int)) for item in child.as_list())
        else:
            params[key] = _scalar(child, (str, int, bool))
    count = node.opt("count")
    return AbilityDef(
        type=node.get("type").as_str(),
        hexes=_strs(node, "hexes"),
        tiles=_strs(node, "tiles"),
        when=_strs(node, "when"),
        owner_type=_opt_str(node, "owner_type"),
        count=None if count is None else count.as_int(),
        params=MappingProxyType(params),
    )


def _company(node: _Node) -> CompanyDef:
    node.only("sym", "name", "kind", "value", "revenue", "discount", "color", "text_color",
              "in_starting_set", "in_two_player_set", "desc", "abilities")
    kind = node.get("kind")
    try:
        company_kind = CompanyKind(kind.as_str())
    except ValueError:
        kind.fail(f"unknown company kind {kind.value!r}")
    two = node.opt("in_two_player_set")
    return CompanyDef(
        sym=node.get("sym").as_str(),
        name=node.get("name").as_str(),
        kind=company_kind,
        value=node.get("value").as_int(),
        revenue=node.get("revenue").as_int(),
        desc=node.get("desc").as_str(),
        discount=_opt_int(node, "discount", 0),
        color=_opt_str(node, "color"),
        text_color=_opt_str(node, "text_color"),
        abilities=tuple(_ability(a) for a in _items(node, "abilities")),
        in_starting_set=_opt_bool(node, "in_starting_set", True),
        in_two_player_set=None if two is None else two.as_bool(),
    )


def _corporation(node: _Node) -> CorporationDef:
    node.only("sym", "name", "type", "green", "color", "text_color", "logo", "simple_logo",
              "tokens", "shares", "float_percent", "max_ownership_percent",
              "always_market_price", "hide_shares", "home", "destination")
    kind = node.get("type")
    try:
        corp_type = CorpType(kind.as_str())
    except ValueError:
        kind.fail(f"unknown corporation type {kind.value!r}")
    home = node.opt("home")
    if home is not None:
        home.only("hexes", "city")
    dest = node.opt("destination")
    destination = None
    if dest is not None:
        dest.only("hex", "exits", "icon", "icon_city", "icon_slot", "icon_loc")
        exits = dest.opt("exits")
        destination = Destination(
            hex=dest.get("hex").as_str(),
            exits=() if exits is None else exits.ints(),
            icon=_opt_str(dest, "icon"),
            icon_city=_opt_index(dest, "icon_city"),
            icon_slot=_opt_index(dest, "icon_slot"),
            icon_loc=_opt_str(dest, "icon_loc"),
        )
    shares = node.opt("shares")
    return CorporationDef(
        sym=node.get("sym").as_str(),
        name=node.get("name").as_str(),
        type=corp_type,
        color=node.get("color").as_str(),
        logo=node.get("logo").as_str(),
        tokens=node.get("tokens").ints(),
        shares=(20,) + (10,) * 8 if shares is None else shares.ints(),
        float_percent=_opt_int(node, "float_percent", 60),
        max_ownership_percent=_opt_int(node, "max_ownership_percent", 60),
        always_market_price=_opt_bool(node, "always_market_price"),
        hide_shares=_opt_bool(node, "hide_shares"),
        text_color=_opt_str(node, "text_color"),
        simple_logo=_opt_str(node, "simple_logo"),
        home_hexes=() if home is None else _strs(home, "hexes"),
        home_city=None if home is None else _opt_index(home, "city"),
        destination=destination,
        green=_opt_bool(node, "green"),
    )


# --------------------------------------------------------------------------
# Title constants (title.yaml)

#: A raw constant from title.yaml ``constants:`` (18xx.games names and values).
ConstValue: TypeAlias = (
    "str | int | float | bool | None | tuple[ConstValue, ...] | Mapping[str, ConstValue]"
)


@dataclass(frozen=True, slots=True)
class TileLay:
    """One tile-lay action of a turn (18xx.games ``TILE_LAYS`` entry)."""

    lay: bool | str
    """True, False, or ``"not_if_upgraded"``."""
    upgrade: bool | str
    """True, False, or ``"not_if_upgraded"``."""
    cost: int = 0
    upgrade_cost: int | None = None
    cannot_reuse_same_hex: bool = False


@dataclass(frozen=True, slots=True)
class OptionalRule:
    """An optional rule a game may be created with."""

    sym: str
    name: str
    desc: str


@dataclass(frozen=True, slots=True)
class Rules1867:
    """1867 facts (rules §6.6, §9, §14)."""

    bonus_capitals: tuple[str, ...]
    """Toronto, Montreal, Quebec: with Timmins on a route, +40 × multiplier."""
    bonus_revenue_hex: str
    """Timmins (D2)."""
    national_reservations: tuple[str, ...]
    """CN keeps a token for these hexes (Montreal; placed with tile 639)."""
    green_corporations: tuple[str, ...]
    """Minors available from the first 3-train."""
    trains_remove_2_player: Mapping[str, int]
    """Trains removed from the depot with two players, by name."""


@dataclass(frozen=True, slots=True)
class CompanyTrain:
    """A train a 1822CA private company holds from setup (``P1`` → ``5P-0``)."""

    train: str
    """Train id, ``<name>-<index>``."""
    buyable: bool


@dataclass(frozen=True, slots=True)
class Rules1822CA:
    """1822CA-family facts (supplement §8, §10, §11; ``method_data`` of the reference).

    Hex lists are those of the full game in all three titles (the reference
    code reads them from the 1822CA class); check a hex is on the map.
    """

    grain_elevators: tuple[str, ...]
    grain_elevator_count: int
    west_ports: tuple[str, ...]
    east_ports: tuple[str, ...]
    double_town_hexes: tuple[str, ...]
    """Hexes a route may visit twice (two towns, or city + town)."""
    detroit_duluth_hexes: tuple[str, ...]
    """Blocked by ``DD`` tokens until the first 3-train."""
    mountain_pass_hexes: tuple[str, ...]
    mountain_pass_tiles: tuple[str, ...]
    """Unlabelled tiles the mountain-pass hexes accept despite their label."""
    mountain_pass_companies: Mapping[str, str]
    big_city_companies: Mapping[str, str]
    """Big-city hex → the private company giving free upgrades there."""
    big_city_illegal_upgrades: Mapping[str, str]
    """Tile → tile it may not be upgraded to."""
    big_city_rotations: Mapping[str, tuple[int, ...]]
    """Tile → the only rotations allowed when laying it."""
    icons_in_cities_hexes: tuple[str, ...]
    minor_14_id: str | None
    minor_14_home_hex: str | None
    pending_home_tokeners: tuple[str, ...]
    two_home_corporation: str
    white_hex_upgrades: Mapping[str, tuple[str, ...]]
    """Printed hex → the only tiles that may replace it while it is white (AG13)."""
    company_trains: Mapping[str, CompanyTrain]
    small_mail_subsidy: Mapping[str, int]
    """Phase name → small mail contract payment."""
    exchange_tokens: Mapping[str, int]
    bidding_tokens: Mapping[int, int]
    """Players → bidding tokens each."""
    extra_or_on_bank_break: bool
    """Full game: one more OR after the bank breaks; scenarios: none."""
    sell_movement: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """``2_players`` / ``otherwise`` → 18xx.games sell-movement name (supplement §7.2)."""
    two_player_companies: tuple[str, ...] = ()
    """ERS/WRS: the company set used with two players."""


@dataclass(frozen=True, slots=True)
class TitleConfig:
    """Setup values and rule knobs of a title."""

    min_players: int
    max_players: int
    optional_rules: tuple[OptionalRule, ...]
    bank_cash: int
    currency_format: str
    """``"$%s"``."""
    capitalization: str
    cert_limit: Mapping[int, int]
    """Players → certificate limit."""
    starting_cash: Mapping[int, int]
    """Players → starting cash."""
    game_end_check: Mapping[str, str]
    """Reason (``bank``, ``final_phase``, ``stock_market``) → timing."""
    tile_lays: tuple[TileLay, ...]
    major_tile_lays: tuple[TileLay, ...]
    """1822CA majors from phase 3 (empty: ``tile_lays`` for all)."""
    constants: Mapping[str, ConstValue]
    """Every other 18xx.games constant of the title, by its Ruby name."""
    notes: tuple[str, ...] = ()
    """Facts the reference keeps in code, in prose (setup quirks, bonus rules)."""
    g1867: Rules1867 | None = None
    g1822ca: Rules1822CA | None = None
    source: str = ""
    """Path of title.yaml (for errors from the ``const_*`` accessors)."""

    def const_int(self, name: str) -> int:
        """``constants[name]`` as an int; raises DataError otherwise."""
        value = self._const(name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise DataError(self.source, f"constants.{name}", "expected int")
        return value

    def const_str(self, name: str) -> str:
        """``constants[name]`` as a str; raises DataError otherwise."""
        value = self._const(name)
        if not isinstance(value, str):
            raise DataError(self.source, f"constants.{name}", "expected str")
        return value

    def const_bool(self, name: str) -> bool:
        """``constants[name]`` as a bool; raises DataError otherwise."""
        value = self._const(name)
        if not isinstance(value, bool):
            raise DataError(self.source, f"constants.{name}", "expected bool")
        return value

    def const_strs(self, name: str) -> tuple[str, ...]:
        """``constants[name]`` as a list of str; raises DataError otherwise."""
        value = self._const(name)
        if not isinstance(value, tuple) or not all(isinstance(v, str) for v in value):
            raise DataError(self.source, f"constants.{name}", "expected list of str")
        return tuple(str(v) for v in value)

    def _const(self, name: str) -> ConstValue:
        if name not in self.constants:
            raise DataError(self.source, f"constants.{name}", "missing")
        return self.constants[name]


def _const_value(node: _Node) -> ConstValue:
    value = node.value
    if isinstance(value, list):
        return tuple(_const_value(n) for n in node.as_list())
    if isinstance(value, dict):
        return MappingProxyType({k: _const_value(v) for k, v in node.items()})
    if value is None or isinstance(value, str | int | float | bool):
        return value
    node.fail(f"unsupported value of type {_type_name(value)}")


def _tile_lays(node: _Node | None) -> tuple[TileLay, ...]:
    lays = []
    for lay in [] if node is None else node.as_list():
        lay.only("lay", "upgrade", "cost", "upgrade_cost", "cannot_reuse_same_hex")
        upgrade_cost = lay.opt("upgrade_cost")
        lays.append(TileLay(
            lay=_lay_flag(lay.get("lay")),
            upgrade=_lay_flag(lay.get("upgrade")),
            cost=_opt_int(lay, "cost", 0),
            upgrade_cost=None if upgrade_cost is None else upgrade_cost.as_int(),
            cannot_reuse_same_hex=_opt_bool(lay, "cannot_reuse_same_hex"),
        ))
    return tuple(lays)


def _lay_flag(node: _Node) -> bool | str:
    if isinstance(node.value, bool):
        return node.value
    if node.value == "not_if_upgraded":
        return "not_if_upgraded"
    node.fail("expected true, false or not_if_upgraded")


def _by_players(node: _Node) -> Mapping[int, int]:
    table: dict[int, int] = {}
    for key, value in node._mapping().items():
        child = _Node(value, node.file, node._sub(str(key)))
        if isinstance(key, bool) or not isinstance(key, int):
            child.fail("key must be a player count (int)")
        table[key] = child.as_int()
    return MappingProxyType(table)


def _rules_1867(node: _Node) -> Rules1867:
    node.only("bonus_capitals", "bonus_revenue_hex", "national_reservations",
              "green_corporations", "trains_remove_2_player")
    return Rules1867(
        bonus_capitals=_strs(node, "bonus_capitals"),
        bonus_revenue_hex=node.get("bonus_revenue_hex").as_str(),
        national_reservations=_strs(node, "national_reservations"),
        green_corporations=_strs(node, "green_corporations"),
        trains_remove_2_player=_int_map(node, "trains_remove_2_player"),
    )


def _rules_1822ca(node: _Node) -> Rules1822CA:
    fields = {f for f in Rules1822CA.__dataclass_fields__}
    node.only(*fields)
    trains = {}
    for sym, t in _items_map(node, "company_trains"):
        t.only("train", "buyable")
        trains[sym] = CompanyTrain(t.get("train").as_str(), t.get("buyable").as_bool())
    return Rules1822CA(
        grain_elevators=_strs(node, "grain_elevators"),
        grain_elevator_count=node.get("grain_elevator_count").as_int(),
        west_ports=_strs(node, "west_ports"),
        east_ports=_strs(node, "east_ports"),
        double_town_hexes=_strs(node, "double_town_hexes"),
        detroit_duluth_hexes=_strs(node, "detroit_duluth_hexes"),
        mountain_pass_hexes=_strs(node, "mountain_pass_hexes"),
        mountain_pass_tiles=_strs(node, "mountain_pass_tiles"),
        mountain_pass_companies=_str_map(node, "mountain_pass_companies"),
        big_city_companies=_str_map(node, "big_city_companies"),
        big_city_illegal_upgrades=_str_map(node, "big_city_illegal_upgrades"),
        big_city_rotations=MappingProxyType(
            {k: v.ints() for k, v in _items_map(node, "big_city_rotations")}),
        icons_in_cities_hexes=_strs(node, "icons_in_cities_hexes"),
        minor_14_id=_opt_str(node, "minor_14_id"),
        minor_14_home_hex=_opt_str(node, "minor_14_home_hex"),
        pending_home_tokeners=_strs(node, "pending_home_tokeners"),
        two_home_corporation=node.get("two_home_corporation").as_str(),
        white_hex_upgrades=MappingProxyType(
            {k: v.strs() for k, v in _items_map(node, "white_hex_upgrades")}),
        company_trains=MappingProxyType(trains),
        small_mail_subsidy=_int_map(node, "small_mail_subsidy"),
        exchange_tokens=_int_map(node, "exchange_tokens"),
        bidding_tokens=_by_players(node.get("bidding_tokens")),
        extra_or_on_bank_break=node.get("extra_or_on_bank_break").as_bool(),
        sell_movement=_str_map(node, "sell_movement"),
        two_player_companies=_strs(node, "two_player_companies"),
    )


def _config(root: _Node) -> TitleConfig:
    root.only("id", "name", "tiles_from", "players", "optional_rules", "bank_cash",
              "currency_format", "capitalization", "cert_limit", "starting_cash",
              "game_end_check", "tile_lays", "major_tile_lays", "g1867", "g1822ca", "notes",
              "constants")
    players = root.get("players").only("min", "max")
    rules = []
    for r in _items(root, "optional_rules"):
        r.only("sym", "name", "desc")
        rules.append(OptionalRule(r.get("sym").as_str(), r.get("name").as_str(),
                                  r.get("desc").as_str()))
    g1867, g1822ca = root.opt("g1867"), root.opt("g1822ca")
    constants = root.opt("constants")
    return TitleConfig(
        min_players=players.get("min").as_int(),
        max_players=players.get("max").as_int(),
        optional_rules=tuple(rules),
        bank_cash=root.get("bank_cash").as_int(),
        currency_format=root.get("currency_format").as_str(),
        capitalization=root.get("capitalization").as_str(),
        cert_limit=_by_players(root.get("cert_limit")),
        starting_cash=_by_players(root.get("starting_cash")),
        game_end_check=_str_map(root, "game_end_check"),
        tile_lays=_tile_lays(root.get("tile_lays")),
        major_tile_lays=_tile_lays(root.opt("major_tile_lays")),
        constants=MappingProxyType(
            {} if constants is None else {k: _const_value(v) for k, v in constants.items()}),
        notes=_strs(root, "notes"),
        g1867=None if g1867 is None else _rules_1867(g1867),
        g1822ca=None if g1822ca is None else _rules_1822ca(g1822ca),
        source=root.file,
    )


def _strs(node: _Node, key: str) -> tuple[str, ...]:
    child = node.opt(key)
    return () if child is None else child.strs()


def _items_map(node: _Node, key: str) -> list[tuple[str, _Node]]:
    child = node.opt(key)
    return [] if child is None else list(child.items())


def _int_map(node: _Node, key: str) -> Mapping[str, int]:
    return MappingProxyType({k: v.as_int() for k, v in _items_map(node, key)})


def _str_map(node: _Node, key: str) -> Mapping[str, str]:
    return MappingProxyType({k: v.as_str() for k, v in _items_map(node, key)})


def _scalar(node: _Node, types: tuple[type, ...]) -> Any:
    if not isinstance(node.value, types):
        node.fail(f"expected {' or '.join(t.__name__ for t in types)}")
    return node.value


# --------------------------------------------------------------------------
# The title


@dataclass(frozen=True, slots=True)
class TitleData:
    """Everything printed for one title, as loaded from ``maps/<id>/``."""

    id: str
    """Title id, e.g. ``"1867"`` or ``"1822CA-ERS"``."""
    name: str
    """Display name (18xx.games title, e.g. ``"1822CA ERS"``)."""
    layout: str
    """``"flat"`` (all four titles)."""
    hexes: Mapping[str, HexDef]
    """Every hex of the board, in source order."""
    tiles: Mapping[str, ManifestTile]
    """The tile manifest, in source order, keyed by tile name."""
    market: MarketDef
    trains: tuple[TrainDef, ...]
    """In depot order."""
    phases: tuple[PhaseDef, ...]
    companies: tuple[CompanyDef, ...]
    """In source order (1822CA: privates, concessions, minor certificates)."""
    corporations: tuple[CorporationDef, ...]
    config: TitleConfig

    def train(self, name: str) -> TrainDef:
        """The train type ``name``; raises KeyError."""
        for t in self.trains:
            if t.name == name:
                return t
        raise KeyError(name)

    def company(self, sym: str) -> CompanyDef:
        """The company ``sym``; raises KeyError."""
        for c in self.companies:
            if c.sym == sym:
                return c
        raise KeyError(sym)

    def corporation(self, sym: str) -> CorporationDef:
        """The corporation ``sym``; raises KeyError."""
        for c in self.corporations:
            if c.sym == sym:
                return c
        raise KeyError(sym)


def load_title(title_id: str) -> TitleData:
    """Load and validate the data of one title from :func:`maps_dir`.

    Args:
        title_id: one of :data:`TITLE_IDS`.

    Returns:
        The title's data, cached per title and maps folder (it is immutable).

    Raises:
        DataError: a file is missing or malformed, or the title is unknown.
    """
    return _load_title(title_id, maps_dir())


def _list_of(root: _Node, key: str) -> list[_Node]:
    root.only(key)
    return root.get(key).as_list()


@functools.lru_cache(maxsize=16)
def _load_title(title_id: str, root: Path) -> TitleData:
    folder = root / title_id
    if title_id not in TITLE_IDS or not folder.is_dir():
        raise DataError(str(folder), "<title>", f"unknown title {title_id!r}")
    title = _read_yaml(folder / "title.yaml")
    tiles_from = _opt_str(title, "tiles_from")
    tiles_path = (root / tiles_from if tiles_from else folder) / "tiles.yaml"
    board = _read_yaml(folder / "map.yaml")
    layout, hexes = _board(board)
    trains_root = _read_yaml(folder / "trains.yaml")
    phases_root = _read_yaml(folder / "phases.yaml")
    companies_root = _read_yaml(folder / "companies.yaml")
    corps_root = _read_yaml(folder / "corporations.yaml")
    data = TitleData(
        id=title.get("id").as_str(),
        name=title.get("name").as_str(),
        layout=layout,
        hexes=MappingProxyType(hexes),
        tiles=MappingProxyType(_manifest(_read_yaml(tiles_path))),
        market=_market(_read_yaml(folder / "market.yaml")),
        trains=tuple(_train(n) for n in _list_of(trains_root, "trains")),
        phases=tuple(_phase(n) for n in _list_of(phases_root, "phases")),
        companies=tuple(_company(n) for n in _list_of(companies_root, "companies")),
        corporations=tuple(_corporation(n) for n in _list_of(corps_root, "corporations")),
        config=_config(title),
    )
    if data.id != title_id:
        title.get("id").fail(f"does not match folder {title_id!r}")
    _check_refs(data, trains_root, phases_root, corps_root, board)
    return data


def _check_refs(data: TitleData, trains: _Node, phases: _Node, corps: _Node,
                board: _Node) -> None:
    """Cross-file checks: names used in one file exist in the others."""
    train_names = {t.name for t in data.trains} | {v.name for t in data.trains
                                                   for v in t.variants}
    for t, node in zip(data.trains, trains.get("trains").as_list(), strict=True):
        for key in ("rusts_on", "obsolete_on"):
            ref = getattr(t, key)
            if ref is not None and ref not in train_names:
                node.get(key).fail(f"no train named {ref!r}")
    for p, node in zip(data.phases, phases.get("phases").as_list(), strict=True):
        for i, name in enumerate(p.on):
            if name not in train_names:
                _Node(name, node.file, f"{node.key}.on[{i}]").fail(f"no train named {name!r}")
    for c, node in zip(data.corporations, corps.get("corporations").as_list(), strict=True):
        for i, hex_id in enumerate(c.home_hexes):
            if hex_id not in data.hexes:
                _Node(hex_id, node.file, f"{node.key}.home.hexes[{i}]").fail(
                    f"no hex {hex_id!r} on the map")
        if c.destination is not None and c.destination.hex not in data.hexes:
            node.get("destination").get("hex").fail(f"no hex {c.destination.hex!r} on the map")
    corp_syms = {c.sym for c in data.corporations} | {"DD"}
    company_syms = {c.sym for c in data.companies}
    hexes = board.get("hexes")
    for hex_id, h in data.hexes.items():
        n_cities = len(h.tile.cities)
        for i, r in enumerate(h.reservations):
            key = f"{hex_id}.setup.reservations[{i}]"
            if r.entity not in corp_syms:
                _Node(r.entity, hexes.file, f"{hexes.key}.{key}.entity").fail(
                    f"no corporation {r.entity!r}")
            if r.city is not None and not 0 <= r.city < n_cities:
                _Node(r.city, hexes.file, f"{hexes.key}.{key}.city").fail(
                    f"hex has {n_cities} cities")
        for i, token in enumerate(h.tokens):
            if not 0 <= token.city < n_cities:
                _Node(token.city, hexes.file, f"{hexes.key}.{hex_id}.setup.tokens[{i}].city").fail(
                    f"hex has {n_cities} cities")
        for i, b in enumerate(h.blockers):
            if b not in company_syms:
                _Node(b, hexes.file, f"{hexes.key}.{hex_id}.setup.blockers[{i}]").fail(
                    f"no company {b!r}")
