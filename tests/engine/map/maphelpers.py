"""Build small boards by hand from 18xx.games tile codes (tests only)."""

from __future__ import annotations

from collections.abc import Mapping

from desk18xx.engine.map.board import Board
from desk18xx.engine.map.hexgrid import column_index
from desk18xx.engine.map.upgrades import TrackRules
from desk18xx.engine.tiledef import (
    BorderDef,
    Color,
    FutureLabel,
    HexDef,
    ManifestTile,
    NodeDef,
    NodeKind,
    PathDef,
    PathEnd,
    Revenue,
    TileDef,
    UpgradeCost,
)


def _revenue(text: str) -> Revenue:
    if "_" not in text:
        return Revenue(flat=int(text))
    pairs = []
    for part in text.split("|"):
        color, value = part.split("_")
        pairs.append((Color(color), int(value)))
    return Revenue(by_color=tuple(pairs))


def _end(text: str) -> PathEnd:
    return PathEnd(node=int(text[1:])) if text.startswith("_") else PathEnd(edge=int(text))


def tile(name: str, color: str, code: str) -> TileDef:
    """A TileDef from an 18xx.games tile code (the subset these titles use)."""
    nodes: list[NodeDef] = []
    paths: list[PathDef] = []
    borders: list[BorderDef] = []
    upgrades: list[UpgradeCost] = []
    stubs: list[int] = []
    label = None
    future = None
    for part in (p for p in code.split(";") if p):
        kind, _, params = part.partition("=")
        kv: dict[str, str] = {}
        if ":" in params:
            for item in params.split(","):
                k, _, v = item.partition(":")
                kv[k] = v
        if kind in ("city", "town", "offboard", "junction"):
            nodes.append(
                NodeDef(
                    kind=NodeKind(kind),
                    revenue=_revenue(kv.get("revenue", "0")),
                    slots=int(kv.get("slots", "1")) if kind == "city" else 0,
                    groups=tuple(kv["groups"].split("|")) if "groups" in kv else (),
                    visit_cost=int(kv.get("visit_cost", "1")),
                )
            )
        elif kind == "path":
            paths.append(
                PathDef(
                    _end(kv["a"]),
                    _end(kv["b"]),
                    terminal=kv.get("terminal") == "1",
                    lanes=int(kv.get("lanes", "1")),
                )
            )
        elif kind == "label":
            label = params
        elif kind == "future_label":
            future = FutureLabel(kv["label"], Color(kv["color"]))
        elif kind == "border":
            borders.append(BorderDef(int(kv["edge"]), kv.get("type"), int(kv.get("cost", "0"))))
        elif kind == "upgrade":
            terr = tuple(kv["terrain"].split("|")) if "terrain" in kv else ()
            upgrades.append(UpgradeCost(int(kv["cost"]), terr))
        elif kind == "stub":
            stubs.append(int(kv["edge"]))
    return TileDef(
        name=name,
        color=Color(color),
        nodes=tuple(nodes),
        paths=tuple(paths),
        label=label,
        upgrades=tuple(upgrades),
        borders=tuple(borders),
        stubs=tuple(stubs),
        future_label=future,
    )


#: Generic tiles from 18xx.games ``config/tile.rb`` used by the tests.
GENERIC: dict[str, tuple[str, str]] = {
    "3": ("yellow", "town=revenue:10;path=a:0,b:_0;path=a:_0,b:1"),
    "4": ("yellow", "town=revenue:10;path=a:0,b:_0;path=a:_0,b:3"),
    "58": ("yellow", "town=revenue:10;path=a:0,b:_0;path=a:_0,b:2"),
    "5": ("yellow", "city=revenue:20;path=a:0,b:_0;path=a:1,b:_0"),
    "6": ("yellow", "city=revenue:20;path=a:0,b:_0;path=a:2,b:_0"),
    "57": ("yellow", "city=revenue:20;path=a:0,b:_0;path=a:_0,b:3"),
    "7": ("yellow", "path=a:0,b:1"),
    "8": ("yellow", "path=a:0,b:2"),
    "9": ("yellow", "path=a:0,b:3"),
    "201": ("yellow", "city=revenue:30;path=a:0,b:_0;path=a:1,b:_0;label=Y"),
    "202": ("yellow", "city=revenue:30;path=a:0,b:_0;path=a:2,b:_0;label=Y"),
    "621": ("yellow", "city=revenue:30;path=a:0,b:_0;path=a:_0,b:3;label=Y"),
    "14": (
        "green",
        "city=revenue:30,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:3,b:_0;path=a:4,b:_0",
    ),
    "15": (
        "green",
        "city=revenue:30,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0",
    ),
    "619": (
        "green",
        "city=revenue:30,slots:2;path=a:0,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0",
    ),
    "207": (
        "green",
        "city=revenue:40,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;label=Y",
    ),
    "23": ("green", "path=a:0,b:3;path=a:0,b:4"),
    "24": ("green", "path=a:0,b:3;path=a:0,b:2"),
    "87": ("green", "town=revenue:10;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0"),
    "63": (
        "brown",
        "city=revenue:40,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;"
        "path=a:4,b:_0;path=a:5,b:_0",
    ),
    "611": (
        "brown",
        "city=revenue:40,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;"
        "path=a:4,b:_0",
    ),
    "1": (
        "yellow",
        "town=revenue:10;town=revenue:10;path=a:1,b:_0;path=a:_0,b:3;path=a:0,b:_1;path=a:_1,b:4",
    ),
    "2": (
        "yellow",
        "town=revenue:10;town=revenue:10;path=a:0,b:_0;path=a:_0,b:3;path=a:1,b:_1;path=a:_1,b:2",
    ),
}


def manifest(
    names: Mapping[str, int | None],
    custom: Mapping[str, tuple[str, str, int | None]] | None = None,
) -> dict[str, ManifestTile]:
    """A manifest of generic tiles (name -> count) plus custom (name -> colour, code, count)."""
    out: dict[str, ManifestTile] = {}
    for name, count in names.items():
        color, code = GENERIC[name]
        out[name] = ManifestTile(tile(name, color, code), count)
    for name, (color, code, count) in (custom or {}).items():
        out[name] = ManifestTile(tile(name, color, code), count)
    return out


def board(
    hexes: dict[str, tuple[str, str]],
    tiles: dict[str, ManifestTile],
    *,
    extras: dict[str, HexDef] | None = None,
) -> Board:
    """A board from ``{hex: (colour, code)}``; ``extras`` replace whole HexDefs."""
    defs: dict[str, HexDef] = {}
    for hex_id, (color, code) in hexes.items():
        defs[hex_id] = HexDef(hex_id, tile(hex_id, color, code))
    defs.update(extras or {})
    return Board(defs, tiles)


def white_block(cols: str | list[str], rows: range) -> dict[str, tuple[str, str]]:
    """Plain white hexes for every valid coordinate in the given columns and rows."""
    out: dict[str, tuple[str, str]] = {}
    for col in cols:
        ci = column_index(col)
        for row in rows:
            if (ci + row) % 2 == 1:
                out[f"{col}{row}"] = ("white", "")
    return out


#: 1867 (TILE_UPGRADES_MUST_USE_MAX_EXITS = [:cities]; generic river rule).
RULES_1867 = TrackRules(max_exits="cities", border_costs="both_sides")

#: method_data.big_city_legal_rotations (G1822CA::Game#legal_tile_rotation?).
FIXED_1822CA: dict[str, tuple[int, ...]] = {
    **{n: (0,) for n in "M5 M6 M8 O2 O6 O8 Q6 Q8 T1 T2 T3 T4 T5 W2 W4 W5 W6 W7".split()},
    **{n: (0, 5) for n in "M1 M2 M3 M4 O7".split()},
    **{n: (0, 1) for n in "M7 O1 O3 O4 O5".split()},
    **{n: (0, 3, 5) for n in "Q1 Q2 Q3 Q4 Q5 Q7".split()},
    "W3": (0, 2, 3),
}

#: 1822CA as the title would configure it.
RULES_1822CA = TrackRules(
    max_exits="unlabeled_cities",
    border_costs="each_side",
    fixed_rotations=FIXED_1822CA,
    forbidden_upgrades={
        k: frozenset({v})
        for k, v in {
            "M2": "M6", "M3": "M4", "O2": "O3", "O4": "O5", "Q4": "Q5", "T5": "T6", "W5": "W6"
        }.items()
    },
    label_exemptions={h: frozenset({"7", "8", "9"}) for h in ("E11", "F16")},
    replace_only={"AG13": frozenset({"5", "6", "57"})},
    town_tiles=frozenset("3 4 58 141 142 143 144 767 768 769 X17".split()),
    plain_tiles=frozenset("7 8 9 80 81 82 83 544 545 546 60 169".split()),
)
