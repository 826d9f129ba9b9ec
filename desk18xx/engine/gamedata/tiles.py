"""Track content: the printed hexes (``map.yaml``) and the tile manifest (``tiles.yaml``).

A printed hex and a manifest tile share one structure, loaded as
:class:`~desk18xx.engine.tiledef.TileDef` (schema: ``maps/README.md``).
"""

from __future__ import annotations

import re

from desk18xx.engine.gamedata.yamlnode import (
    Node,
    items,
    opt_bool,
    opt_index,
    opt_int,
    opt_str,
)
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

_TILE_KEYS = ("nodes", "paths", "label", "future_label", "upgrades", "borders", "stubs", "icons")


def _revenue(node: Node | None) -> Revenue:
    if node is None:
        return Revenue()
    if isinstance(node.value, dict):
        table = tuple((Node(c, node.file, node.key).enum_color(), v.as_int())
                      for c, v in node.items())
        if not table:
            node.fail("empty revenue table")
        return Revenue(by_color=table)
    return Revenue(flat=node.as_int())


def _node_def(node: Node) -> NodeDef:
    mapping = node.mapping()
    if len(mapping) != 1:
        node.fail("expected one of city, town, offboard, junction")
    (kind_name, body), = node.items()
    try:
        kind = NodeKind(kind_name)
    except ValueError:
        Node(None, node.file, node.sub(kind_name)).fail("unknown node kind")
    if body.value is None:
        body = Node({}, body.file, body.key)
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
        visit_cost=opt_int(body, "visit_cost", 1),
        hidden=opt_bool(body, "hidden"),
        loc=opt_str(body, "loc"),
    )


def _path_end(node: Node, n_nodes: int) -> PathEnd:
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


def _path_def(node: Node, n_nodes: int) -> PathDef:
    node.only("a", "b", "terminal", "lanes")
    return PathDef(
        a=_path_end(node.get("a"), n_nodes),
        b=_path_end(node.get("b"), n_nodes),
        terminal=opt_bool(node, "terminal"),
        lanes=opt_int(node, "lanes", 1),
    )


def _tile_def(name: str, color: Color, node: Node) -> TileDef:
    """Track content from a hex or tile mapping (extra keys checked by the caller)."""
    nodes = tuple(_node_def(n) for n in items(node, "nodes"))
    future = node.opt("future_label")
    future_label = None
    if future is not None:
        future.only("label", "color")
        future_label = FutureLabel(future.get("label").as_str(), future.get("color").enum_color())
    upgrades = []
    for up in items(node, "upgrades"):
        up.only("cost", "terrain", "loc")
        terrain = up.opt("terrain")
        upgrades.append(UpgradeCost(
            cost=up.get("cost").as_int(),
            terrains=() if terrain is None else terrain.strs(),
            loc=opt_str(up, "loc"),
        ))
    borders = []
    for b in items(node, "borders"):
        b.only("edge", "type", "cost")
        borders.append(
            BorderDef(b.get("edge").as_int(), opt_str(b, "type"), opt_int(b, "cost", 0))
        )
    icons = []
    for i in items(node, "icons"):
        i.only("image", "sticky", "loc")
        icons.append(IconDef(i.get("image").as_str(), opt_bool(i, "sticky"), opt_str(i, "loc")))
    stubs = node.opt("stubs")
    return TileDef(
        name=name,
        color=color,
        nodes=nodes,
        paths=tuple(_path_def(p, len(nodes)) for p in items(node, "paths")),
        label=opt_str(node, "label"),
        upgrades=tuple(upgrades),
        borders=tuple(borders),
        stubs=() if stubs is None else stubs.ints(),
        icons=tuple(icons),
        future_label=future_label,
    )


def parse_manifest(root: Node) -> dict[str, ManifestTile]:
    """The tiles of ``tiles.yaml`` by name, in file order."""
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
        tiles[name] = ManifestTile(tile, count, opt_bool(node, "hidden"),
                                   None if box is None else box.as_int())
    return tiles


def _hex(hex_id: str, node: Node) -> HexDef:
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
        for r in items(setup, "reservations"):
            r.only("entity", "city", "slot")
            reservations.append(Reservation(
                r.get("entity").as_str(), opt_index(r, "city"), opt_index(r, "slot")))
        for t in items(setup, "tokens"):
            t.only("corporation", "city", "slot", "type", "price")
            tokens.append(SetupToken(
                t.get("corporation").as_str(), t.get("city").as_int(), t.get("slot").as_int(),
                opt_str(t, "type") or "normal", opt_int(t, "price", 0)))
        for b in items(setup, "blockers"):
            b.only("company", "hidden")
            blockers.append(b.get("company").as_str())
        for i in items(setup, "icons"):
            i.only("name", "image", "owner", "city", "slot", "loc")
            icons.append(SetupIcon(
                i.get("name").as_str(), i.get("image").as_str(), opt_str(i, "owner"),
                opt_index(i, "city"), opt_index(i, "slot"), opt_str(i, "loc")))
    return HexDef(
        id=hex_id,
        tile=_tile_def(hex_id, node.get("color").enum_color(), node),
        location_name=opt_str(node, "location_name"),
        markers=frozenset(() if markers is None else markers.strs()),
        reservations=tuple(reservations),
        tokens=tuple(tokens),
        blockers=tuple(blockers),
        setup_icons=tuple(icons),
        tile_id=tile_id.as_str(),
    )



def parse_board(root: Node) -> tuple[str, dict[str, HexDef]]:
    """The layout and the hexes (in file order) of ``map.yaml``."""
    root.only("layout", "hexes")
    layout = root.get("layout").as_str()
    if layout not in ("flat", "pointy"):
        root.get("layout").fail("expected flat or pointy")
    return layout, {hex_id: _hex(hex_id, node) for hex_id, node in root.get("hexes").items()}
