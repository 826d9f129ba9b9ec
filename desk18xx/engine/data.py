"""Load a title's game data from ``maps/<title>/*.yaml`` into frozen dataclasses.

This module is the YAML edge: ``Any`` appears only here, and every malformed
node is reported as :class:`~desk18xx.engine.errors.DataError` naming the file
and the key path (``hexes.L12.nodes[2].city.slots: expected int``).  The YAML
schema is described in ``maps/README.md``.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, NoReturn

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


def _read_yaml(path: Path) -> _Node:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(str(path), "<file>", f"cannot read: {exc.strerror or exc}") from exc
    try:
        value = yaml.safe_load(text)
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
        node.only("color", "count", "hidden", *_TILE_KEYS)
        count_node = node.get("count")
        if count_node.value == "unlimited":
            count: int | None = None
        else:
            count = count_node.as_int()
            if count < 1:
                count_node.fail("expected a positive count or 'unlimited'")
        tile = _tile_def(name, node.get("color").enum_color(), node)
        tiles[name] = ManifestTile(tile, count, _opt_bool(node, "hidden"))
    return tiles


def _hex(hex_id: str, node: _Node) -> HexDef:
    node.only("color", "location_name", "markers", "setup", *_TILE_KEYS)
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


@functools.lru_cache(maxsize=16)
def _load_title(title_id: str, root: Path) -> TitleData:
    folder = root / title_id
    if title_id not in TITLE_IDS or not folder.is_dir():
        raise DataError(str(folder), "<title>", f"unknown title {title_id!r}")
    title = _read_yaml(folder / "title.yaml")
    tiles_from = _opt_str(title, "tiles_from")
    tiles_path = (root / tiles_from if tiles_from else folder) / "tiles.yaml"
    layout, hexes = _board(_read_yaml(folder / "map.yaml"))
    return TitleData(
        id=title.get("id").as_str(),
        name=title.get("name").as_str(),
        layout=layout,
        hexes=MappingProxyType(hexes),
        tiles=MappingProxyType(_manifest(_read_yaml(tiles_path))),
    )
