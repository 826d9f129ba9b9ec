"""Tests for desk18xx.engine.data: the maps/ YAML against the 18xx.games reference.

The reference JSON lives outside the repository, in ``../shared/reference/data``.
When it is there, every hex and tile is compared with an independent parse of
its tile-code string (the parser below is deliberately separate from
``tools/convert_reference.py``).  Without it, the hard-coded counts and a few
embedded code strings still run, so these tests never skip.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from desk18xx.engine.data import (
    MAPS_ENV,
    CompanyKind,
    CorpType,
    TitleData,
    load_title,
    maps_dir,
)
from desk18xx.engine.errors import DataError
from desk18xx.engine.tiledef import (
    BorderDef,
    Color,
    FutureLabel,
    IconDef,
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

REFERENCE = Path(__file__).resolve().parents[2].parent / "shared" / "reference" / "data"
TITLES = ("1867", "1822CA", "1822CA-ERS", "1822CA-WRS")
#: Hex counts from the reference README (engine boards: 94 / 279 / 156 / 115).
HEX_COUNTS = {"1867": 94, "1822CA": 279, "1822CA-ERS": 156, "1822CA-WRS": 115}


def reference(title: str) -> dict[str, Any] | None:
    """The reference JSON of ``title``, or None when ../shared is not present."""
    path = REFERENCE / f"{title}.json"
    if not path.is_file():
        return None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


# --------------------------------------------------------------------------
# An independent parser of the 18xx.games tile-code language (reference README).


def _revenue(text: str) -> Revenue:
    if "|" in text or "_" in text:
        pairs = [item.split("_") for item in text.split("|")]
        return Revenue(by_color=tuple((Color(c), int(v)) for c, v in pairs))
    return Revenue(flat=int(text))


def _end(text: str) -> PathEnd:
    return PathEnd(node=int(text[1:])) if text.startswith("_") else PathEnd(edge=int(text))


def parse_tile_code(name: str, color: str, code: str) -> TileDef:
    """Build a TileDef straight from a tile-code string."""
    nodes: list[NodeDef] = []
    paths: list[PathDef] = []
    upgrades: list[UpgradeCost] = []
    borders: list[BorderDef] = []
    stubs: list[int] = []
    icons: list[IconDef] = []
    label: str | None = None
    future: FutureLabel | None = None
    for part in [p for p in code.split(";") if p]:
        kind, _, params = part.partition("=")
        kv = dict(item.split(":", 1) for item in params.split(",")) if ":" in params else {}
        if kind in ("city", "town", "offboard", "junction"):
            node_kind = NodeKind(kind)
            nodes.append(NodeDef(
                kind=node_kind,
                revenue=_revenue(kv.get("revenue", "0")),
                slots=int(kv.get("slots", "1")) if node_kind is NodeKind.CITY else 0,
                groups=tuple(kv["groups"].split("|")) if "groups" in kv else (),
                visit_cost=int(kv.get("visit_cost", "1")),
                hidden=kv.get("hide") == "1",
                loc=kv.get("loc"),
            ))
        elif kind == "path":
            paths.append(PathDef(_end(kv["a"]), _end(kv["b"]), kv.get("terminal") == "1",
                                 int(kv.get("lanes", "1"))))
        elif kind == "label":
            label = params
        elif kind == "future_label":
            future = FutureLabel(kv["label"], Color(kv["color"]))
        elif kind == "upgrade":
            terrain = tuple(kv["terrain"].split("|")) if "terrain" in kv else ()
            upgrades.append(UpgradeCost(int(kv["cost"]), terrain, kv.get("loc")))
        elif kind == "border":
            borders.append(BorderDef(int(kv["edge"]), kv.get("type"), int(kv.get("cost", "0"))))
        elif kind == "stub":
            stubs.append(int(kv["edge"]))
        elif kind == "icon":
            icons.append(IconDef(kv["image"], kv.get("sticky") == "1", kv.get("loc")))
        else:
            raise AssertionError(f"unknown part {part!r}")
    return TileDef(name=name, color=Color(color), nodes=tuple(nodes), paths=tuple(paths),
                   label=label, upgrades=tuple(upgrades), borders=tuple(borders),
                   stubs=tuple(stubs), icons=tuple(icons), future_label=future)


#: Code strings copied from the reference, so the round trip runs without ../shared.
EMBEDDED_HEXES = {
    "1867": {
        "L12": ("yellow", "city=revenue:40;city=revenue:40;city=revenue:40,loc:5;"
                          "path=a:1,b:_0;path=a:3,b:_1;label=M;upgrade=cost:20,terrain:water"),
    },
    "1822CA": {
        "AN8": ("blue", "junction;path=a:1,b:_0,terminal:1;junction;path=a:3,b:_0,terminal:1"),
        "Q19": ("gray", "city=revenue:0,visit_cost:99;path=a:2,b:_0;path=a:5,b:_0"),
    },
}
EMBEDDED_TILES = {
    "1867": {
        "57": ("yellow", "city=revenue:20;path=a:0,b:_0;path=a:_0,b:3"),
        "X5": ("brown", "city=revenue:70,slots:2;city=revenue:70;path=a:0,b:_1;path=a:1,b:_0;"
                        "path=a:2,b:_0;path=a:3,b:_1;path=a:4,b:_0;path=a:5,b:_0;label=M"),
    },
}


# --------------------------------------------------------------------------
# Hexes


@pytest.mark.parametrize("title", TITLES)
def test_hex_ids_match_reference(title: str) -> None:
    data = load_title(title)
    assert data.id == title
    assert len(data.hexes) == HEX_COUNTS[title]
    ref = reference(title)
    if ref is not None:
        assert list(data.hexes) == [h["id"] for h in ref["hexes"]]  # same ids, same order


@pytest.mark.parametrize("title", TITLES)
def test_hexes_round_trip_the_tile_codes(title: str) -> None:
    data = load_title(title)
    ref = reference(title)
    hexes = {h["id"]: (h["color"], h["code"]) for h in ref["hexes"]} if ref else {}
    hexes.update(EMBEDDED_HEXES.get(title, {}))
    for hex_id, (color, code) in hexes.items():
        assert data.hexes[hex_id].tile == parse_tile_code(hex_id, color, code), hex_id
    if ref is not None:
        for h in ref["hexes"]:
            assert data.hexes[h["id"]].location_name == h["location_name"]


@pytest.mark.parametrize("title", TITLES)
def test_hex_setup_matches_reference_extras(title: str) -> None:
    data = load_title(title)
    ref = reference(title)
    if ref is None:
        return
    extras = ref["hex_extras"]["hexes"]
    for hex_id, h in data.hexes.items():
        extra = extras.get(hex_id, {})
        assert h.reservations == tuple(
            Reservation(r["entity"], r["city"], r["slot"]) for r in extra.get("reservations", [])
        ), hex_id
        assert h.tokens == tuple(
            SetupToken(t["corporation"], t["city"], t["slot"], t["type"], t["price"])
            for t in extra.get("tokens", [])
        ), hex_id
        assert h.blockers == tuple(b["entity"] for b in extra.get("blockers", []))
        assert h.setup_icons == tuple(
            SetupIcon(i["name"], i["image"].removeprefix("/icons/").removesuffix(".svg"),
                      i["owner"], i.get("city"), i.get("slot"), i.get("loc"))
            for i in extra.get("setup_icons", [])
        ), hex_id


#: Export format §9.3: the printed tile id of every hex with cities (``×n``: n cities).
PRINTED_CITY_TILES = {
    "1867": "C17-4 D2-0 D8-0 D16-1 E13-2 E15-3 E17-0 F8-1 F16-0×2 G15-0 I15-5 J12-0 "
            "L12-0×3 M9-0 N12-6 O7-2",
    "1822CA": "A7-0 C15-0 C17-0 D10-0 D14-1 G11-2 G15-0 G17-3 J12-4 K11-5 K15-1 N6-0 "
              "N16-0×4 P18-0 Q19-0 R16-0 V18-0 X12-0 Y15-1 Y27-0 Y29-0 Z28-0 AA15-0 AA25-2 "
              "AB24-0 AC21-0×2 AC23-0 AD20-1 AE15-0×2 AF12-0×2 AG13-0 AG17-0 AH8-0×2 AH12-2 "
              "AI15-0 AK3-3 AL12-1 AM9-4 AN6-0 AO3-0 AO9-5 AP4-0",
    "1822CA-ERS": "T12-0 T14-0 V18-0 X12-0 Y15-1 Y29-0 Z28-0 AA15-0 AA25-2 AB24-0 AC21-0×2 "
                  "AC23-0 AD20-1 AE15-0×2 AF12-0×2 AG13-0 AG17-0 AH8-0×2 AH12-2 AI15-0 "
                  "AK3-3 AL12-1 AM9-4 AN6-0 AO3-0 AO9-5 AP4-0",
    "1822CA-WRS": "A7-0 C15-0 C17-0 D10-0 D14-1 G11-2 G15-0 G17-3 J12-4 K11-5 K15-1 N6-0 "
                  "N16-0×4 P18-0 R16-0 T12-0 T14-0",
}


@pytest.mark.parametrize("title", TITLES)
def test_printed_tile_ids_of_city_hexes(title: str) -> None:
    data = load_title(title)
    expected: dict[str, tuple[str, int]] = {}
    for item in PRINTED_CITY_TILES[title].split():
        tile_id, _, cities = item.partition("×")
        expected[tile_id.rpartition("-")[0]] = (tile_id, int(cities or 1))
    got = {hex_id: (h.tile_id, len(h.tile.cities))
           for hex_id, h in data.hexes.items() if h.tile.cities}
    assert got == expected


@pytest.mark.parametrize("title", TITLES)
def test_every_hex_names_its_printed_tile(title: str) -> None:
    for hex_id, h in load_title(title).hexes.items():
        assert h.tile_id is not None
        name, _, index = h.tile_id.rpartition("-")
        assert name == hex_id and index.isdigit(), h.tile_id


@pytest.mark.parametrize("title", ["1822CA-ERS", "1822CA-WRS"])
def test_scenario_hexes_keep_the_full_map_tile_ids(title: str) -> None:
    # A scenario board is one half of the full map (same HEXES list, so the same
    # copy index) plus a few hexes of its own, which print different tiles.
    full = load_title("1822CA").hexes
    same = [(hex_id, h.tile_id, full[hex_id].tile_id)
            for hex_id, h in load_title(title).hexes.items()
            if hex_id in full and h.tile == full[hex_id].tile]
    assert len(same) == HEX_COUNTS[title] - 3
    assert all(ours == theirs for _, ours, theirs in same)


def test_1822ca_printed_tile_ids_count_per_part_map() -> None:
    # Counted over the whole map these would be B8-1 … and V18-2 (export format §6.3).
    hexes = load_title("1822CA").hexes
    assert hexes["B6"].tile_id == "B6-0"
    assert hexes["B8"].tile_id == "B8-1"
    assert hexes["U9"].tile_id == "U9-0"  # first blank hex of EASTERN_HEXES
    assert hexes["V18"].tile_id == "V18-0"
    assert hexes["T10"].tile_id == "T10-0"  # FULL_GAME_ONLY_HEXES junctions
    assert hexes["T14"].tile_id == "T14-2"


def test_1867_special_hexes() -> None:
    data = load_title("1867")
    assert "timmins" in data.hexes["D2"].markers
    assert {"bonus_capital", "national_reservation"} <= data.hexes["L12"].markers
    assert data.hexes["L12"].tokens == (SetupToken("CN", 2, 0, "neutral", 0),)
    assert data.hexes["M13"].blockers == ("3",)
    assert data.hexes["J12"].tile.future_label == FutureLabel("O", Color.GRAY)
    assert data.hexes["A17"].tile.nodes[0].hidden


def test_1822ca_special_hexes() -> None:
    data = load_title("1822CA")
    g = data.config.g1822ca
    assert g is not None
    for hex_id in g.grain_elevators:
        assert "elevator" in data.hexes[hex_id].markers
    assert "port_west" in data.hexes["C15"].markers
    assert "port_east" in data.hexes["R16"].markers
    for hex_id in ("Q19", "Y27"):
        assert "detroit_duluth" in data.hexes[hex_id].markers
        assert data.hexes[hex_id].tokens[0].corporation == "DD"
    assert data.hexes["AN8"].tile.paths[1].a == PathEnd(edge=3)
    assert data.hexes["AN8"].tile.paths[1].b == PathEnd(node=0)  # the README's AN8 quirk


# --------------------------------------------------------------------------
# Tiles


@pytest.mark.parametrize("title", TITLES)
def test_every_manifest_tile_parses_and_round_trips(title: str) -> None:
    data = load_title(title)
    ref = reference(title)
    tiles = {t["name"]: (t["color"], t["code"]) for t in ref["tiles"]} if ref else {}
    tiles.update(EMBEDDED_TILES.get(title, {}))
    for name, (color, code) in tiles.items():
        assert data.tiles[name].tile == parse_tile_code(name, color, code), name
    for name, entry in data.tiles.items():
        assert entry.tile.name == name
        assert entry.tile.color in (Color.YELLOW, Color.GREEN, Color.BROWN, Color.GRAY)
    if ref is not None:
        assert list(data.tiles) == [t["name"] for t in ref["tiles"]]
        for t in ref["tiles"]:
            count = None if t["count"] == "unlimited" else t["count"]
            assert data.tiles[t["name"]].count == count
            assert data.tiles[t["name"]].hidden == bool(t.get("hidden"))


def test_1867_tile_count_matches_the_summary_card() -> None:
    # The 1867 summary card (../shared/seeds/1867-summary-card.txt) says "Tile manifest
    # 183 tiles" and rules/1867.md §11 "Total 183 tiles".  18xx.games has 137 tiles with
    # a fixed count plus 7, 8 and 9 unlimited; the card counts the box's 3 + 19 + 24
    # copies of those (yellow 70 = 24 limited + 46 plain track).  So 183 = 137 + 46,
    # with ManifestTile.box_count holding the printed supply of the unlimited tiles.
    data = load_title("1867")
    limited = sum(t.count for t in data.tiles.values() if t.count is not None)
    unlimited = {name: t.box_count for name, t in data.tiles.items() if t.count is None}
    assert limited == 137
    assert unlimited == {"7": 3, "8": 19, "9": 24}
    assert limited + sum(n or 0 for n in unlimited.values()) == 183
    by_color: dict[Color, int] = {}
    for t in data.tiles.values():
        by_color[t.tile.color] = by_color.get(t.tile.color, 0) + (t.count or t.box_count or 0)
    # Card headings: yellow 70, green 72, brown 38, gray 3.
    assert by_color == {Color.YELLOW: 70, Color.GREEN: 72, Color.BROWN: 38, Color.GRAY: 3}


@pytest.mark.parametrize("title", ("1822CA", "1822CA-ERS", "1822CA-WRS"))
def test_1822ca_tile_counts(title: str) -> None:
    # Supplement §10: yellow 85 (+ unlimited 7/8/9), green 91, brown 65, grey 32, and the
    # two hidden DD tiles (grey, count 1 each) that the Detroit-Duluth event lays: 275.
    data = load_title(title)
    assert len(data.tiles) == 97
    assert sum(t.count for t in data.tiles.values() if t.count is not None) == 275
    assert {n for n, t in data.tiles.items() if t.count is None} == {"7", "8", "9"}
    assert {n for n, t in data.tiles.items() if t.hidden} == {"DD-Q19", "DD-Y27"}
    assert data.tiles == load_title("1822CA").tiles


# --------------------------------------------------------------------------
# Market, trains, phases, companies, corporations, constants


def test_1867_market() -> None:
    market = load_title("1867").market
    column = market.grid()
    assert column.name == "column" and len(column.rows) == 1 and len(column.rows[0]) == 28
    assert column.rows[0][15] is not None
    assert column.rows[0][15].price == 165
    assert column.rows[0][15].types == ("par_2", "convert_range", "max_price")
    grid = market.grid(["grid_market"])
    assert len(grid.rows) == 10 and grid.cell(0, 0) is None and grid.cell(4, 0) is not None


@pytest.mark.parametrize(("title", "end_prices"), [
    ("1822CA", [700]), ("1822CA-ERS", [500, 550, 600]), ("1822CA-WRS", [500, 550, 600]),
])
def test_1822ca_market(title: str, end_prices: list[int]) -> None:
    row = load_title(title).market.grid().rows[0]
    cells = [c for c in row if c is not None]
    assert [c.price for c in cells if c.is_type("endgame")] == end_prices
    assert [c.price for c in cells if c.is_type("no_cert_limit")] == list(range(5, 50, 5))
    assert [c.price for c in cells if c.is_type("par_1")] == [60, 70, 80, 90, 100]


@pytest.mark.parametrize("title", TITLES)
def test_trains_and_phases_match_reference(title: str) -> None:
    data = load_title(title)
    ref = reference(title)
    if ref is None:
        return
    assert [(t.name, t.price, t.num) for t in data.trains] == [
        (t["name"], t["price"], None if t["num"] == "unlimited" else t["num"])
        for t in ref["trains"]
    ]
    for t, r in zip(data.trains, ref["trains"], strict=True):
        assert t.rusts_on == r.get("rusts_on")
        assert t.events == tuple(e["type"] for e in r.get("events", []))
        assert [v.name for v in t.variants] == [v["name"] for v in r.get("variants", [])]
    assert [(p.name, dict(p.train_limit), p.operating_rounds) for p in data.phases] == [
        (p["name"], p["train_limit"], p["operating_rounds"]) for p in ref["phases"]
    ]


def test_1867_trains() -> None:
    data = load_title("1867")
    two_plus_two = data.train("2+2")
    assert two_plus_two.multiplier == 2 and two_plus_two.available_on == "8"
    assert two_plus_two.num is None and two_plus_two.discount["5"] == 275
    assert not isinstance(two_plus_two.distance, int)
    assert data.train("2").rusts_on == "4"
    assert data.phases[0].on == () and data.phases[-1].train_limit_for("minor") == 0
    assert data.phases[-1].tiles[-1] is Color.GRAY


def test_1822ca_trains() -> None:
    data = load_title("1822CA")
    seven = data.train("7")
    assert seven.num is None and seven.variants[0].name == "E"
    assert seven.variants[0].distance == 99 and seven.variants[0].multiplier == 2
    assert data.train("L").variants[0].rusts_on == "4"
    assert data.phases[1].on == ("2", "3")


@pytest.mark.parametrize("title", TITLES)
def test_companies_and_corporations_match_reference(title: str) -> None:
    data = load_title(title)
    ref = reference(title)
    if ref is None:
        return
    assert [c.sym for c in data.companies] == [c["sym"] for c in ref["companies"]]
    assert [c.sym for c in data.corporations] == [c["sym"] for c in ref["corporations"]]
    for corp, r in zip(data.corporations, ref["corporations"], strict=True):
        assert corp.tokens == tuple(r["tokens"])
        assert corp.shares == tuple(r.get("shares", [20] + [10] * 8))
        assert corp.float_percent == r.get("float_percent", 60)
        coords = r.get("coordinates")
        assert corp.home_hexes == (() if not coords else (coords,))


def test_corporation_and_company_tables() -> None:
    data = load_title("1867")
    assert sum(c.type is CorpType.MAJOR for c in data.corporations) == 8
    assert sum(c.type is CorpType.MINOR for c in data.corporations) == 16
    assert {c.sym for c in data.corporations if c.green} == {
        "BBG", "LPS", "QLS", "SLA", "TGB", "THB"}
    assert data.company("3").kind is CompanyKind.PLACEHOLDER
    assert data.company("SCT").abilities[0].hexes == ("A19", "A17")
    ca = load_title("1822CA")
    cpr = ca.corporation("CPR")
    assert cpr.shares == (10,) * 10 and cpr.home_hexes == ("AF12",) and cpr.home_city == 1
    gnwr = ca.corporation("GNWR")
    assert gnwr.destination is not None and gnwr.destination.exits == (3,)
    assert ca.company("C1").kind is CompanyKind.CONCESSION
    assert ca.company("M30").kind is CompanyKind.MINOR
    assert ca.company("P21").abilities[0].params["free"] is True


@pytest.mark.parametrize("title", TITLES)
def test_setup_values_match_reference(title: str) -> None:
    config = load_title(title).config
    ref = reference(title)
    if ref is None:
        return
    setup = ref["setup_values"]
    assert config.bank_cash == setup["bank_cash"]["value"]
    assert dict(config.cert_limit) == {int(k): v for k, v in setup["cert_limit"]["value"].items()}
    assert dict(config.starting_cash) == {
        int(k): v for k, v in setup["starting_cash"]["value"].items()}
    assert (config.min_players, config.max_players) == tuple(ref["meta"]["player_range"])


def test_title_constants() -> None:
    c1867 = load_title("1867").config
    # Summary card: 3-6 players $420/$315/$252/$210, limit 21/16/13/11, bank $15,000.
    assert [c1867.starting_cash[n] for n in (3, 4, 5, 6)] == [420, 315, 252, 210]
    assert [c1867.cert_limit[n] for n in (3, 4, 5, 6)] == [21, 16, 13, 11]
    assert c1867.bank_cash == 15000
    assert c1867.tile_lays[1].cost == 20 and c1867.tile_lays[1].upgrade == "not_if_upgraded"
    assert c1867.g1867 is not None and c1867.g1867.bonus_revenue_hex == "D2"
    assert c1867.const_str("SELL_MOVEMENT") == "down_block_pres"
    ca = load_title("1822CA").config
    assert ca.g1822ca is not None
    assert ca.g1822ca.big_city_rotations["W3"] == (0, 2, 3)
    assert ca.g1822ca.company_trains["P1"].train == "5P-0"
    assert ca.g1822ca.small_mail_subsidy["7"] == 40
    assert ca.g1822ca.extra_or_on_bank_break
    assert ca.const_int("TOKEN_PRICE") == 100
    ers = load_title("1822CA-ERS").config
    assert ers.g1822ca is not None and not ers.g1822ca.extra_or_on_bank_break
    assert len(ers.g1822ca.two_player_companies) == 40
    with pytest.raises(DataError, match="constants.NO_SUCH"):
        ca.const_int("NO_SUCH")


# --------------------------------------------------------------------------
# Errors


@pytest.fixture
def maps_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A writable copy of maps/ that load_title reads instead of the real one."""
    target = tmp_path / "maps"
    shutil.copytree(maps_dir(), target)
    monkeypatch.setenv(MAPS_ENV, str(target))
    return target


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_copy_of_maps_loads(maps_copy: Path) -> None:
    data: TitleData = load_title("1867")
    assert len(data.hexes) == 94


def test_malformed_yaml_names_file_and_key(maps_copy: Path) -> None:
    path = maps_copy / "1867" / "map.yaml"
    _edit(path, "- city: {revenue: 40, slots: 1, loc: '5'}",
          "- city: {revenue: 40, slots: three, loc: '5'}")
    with pytest.raises(DataError) as info:
        load_title("1867")
    assert info.value.path == str(path)
    assert info.value.key == "hexes.L12.nodes[2].city.slots"
    assert str(info.value) == f"{path}: hexes.L12.nodes[2].city.slots: expected int, got str"


@pytest.mark.parametrize(("file", "old", "new", "key", "problem"), [
    ("1867/tiles.yaml", "  '57':\n    color: yellow", "  '57':\n    colour: yellow",
     "tiles.57.colour", "unknown key"),
    ("1867/trains.yaml", "rusts_on: '4'", "rusts_on: '44'", "trains[0].rusts_on",
     "no train named '44'"),
    ("1822CA/tiles.yaml", "  '57':\n", "  57:\n", "tiles.57", "key must be a string"),
    ("1822CA/map.yaml", "- {a: {edge: 1}, b: {node: 0}}", "- {a: {edge: 1}, b: {node: 9}}",
     "paths[0].b.node", "node 9 out of range"),
    ("1867/phases.yaml", "tiles: [yellow]", "tiles: [purple]", "phases[0].tiles[0]",
     "unknown colour"),
    ("1822CA/corporations.yaml", "home: {hexes: [AP4]}", "home: {hexes: [ZZ99]}",
     "corporations[0].home.hexes[0]", "no hex 'ZZ99'"),
    ("1867/title.yaml", "bank_cash: 15000", "bank_cash: lots", "bank_cash", "expected int"),
    ("1867/map.yaml", "tile_id: N12-6", "tile_id: N13-6", "hexes.N12.tile_id",
     "expected 'N12-<copy index>'"),
    ("1867/map.yaml", "B6: {color: white, tile_id: B6-0}", "B6: {color: white}",
     "hexes.B6.tile_id", "missing"),
])
def test_bad_values_are_reported(maps_copy: Path, file: str, old: str, new: str, key: str,
                                 problem: str) -> None:
    _edit(maps_copy / file, old, new)
    title = file.split("/")[0]
    with pytest.raises(DataError) as info:
        load_title(title)
    assert key in info.value.key
    assert problem in info.value.problem
    assert info.value.path.endswith(file)


def test_invalid_yaml_and_missing_file(maps_copy: Path) -> None:
    (maps_copy / "1867" / "phases.yaml").write_text("phases: [\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"phases\.yaml: <file>: invalid YAML"):
        load_title("1867")
    (maps_copy / "1867" / "phases.yaml").unlink()
    with pytest.raises(DataError, match=r"phases\.yaml: <file>: cannot read"):
        load_title("1867")


def test_unknown_title() -> None:
    with pytest.raises(DataError, match="unknown title"):
        load_title("1830")


def test_load_title_is_cached_per_maps_folder(maps_copy: Path) -> None:
    first = load_title("1867")
    assert load_title("1867") is first
    assert maps_dir() == maps_copy
