"""The map model on the real boards from ``load_title``."""

from __future__ import annotations

import pytest
from maphelpers import RULES_1822CA, RULES_1867

from desk18xx.engine.data import load_title
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.ids import HexId
from desk18xx.engine.map.board import Board
from desk18xx.engine.map.graph import graph_for, tokenable_cities
from desk18xx.engine.map.routes import RouteRules, Train, check_routes, parse_route
from desk18xx.engine.map.upgrades import layable_hexes, legal_rotations, legal_tiles
from desk18xx.engine.tiledef import Color

GREEN = (Color.YELLOW, Color.GREEN)

# Export format §9.3.
PRINTED = {
    "1867": "C17-4 D2-0 D8-0 D16-1 E13-2 E15-3 E17-0 F8-1 F16-0 G15-0 I15-5 J12-0 L12-0 "
    "M9-0 N12-6 O7-2",
    "1822CA-ERS": "T12-0 T14-0 V18-0 X12-0 Y15-1 Y29-0 Z28-0 AA15-0 AA25-2 AB24-0 AC21-0 "
    "AC23-0 AD20-1 AE15-0 AF12-0 AG13-0 AG17-0 AH8-0 AH12-2 AI15-0 AK3-3 AL12-1 AM9-4 "
    "AN6-0 AO3-0 AO9-5 AP4-0",
    "1822CA-WRS": "A7-0 C15-0 C17-0 D10-0 D14-1 G11-2 G15-0 G17-3 J12-4 K11-5 K15-1 N6-0 "
    "N16-0 P18-0 R16-0 T12-0 T14-0",
}


def real(title: str) -> Board:
    td = load_title(title)
    return Board(td.hexes, td.tiles)


@pytest.mark.parametrize("title", sorted(PRINTED))
def test_printed_tile_ids(title: str) -> None:
    b = real(title)
    for tile_id in PRINTED[title].split():
        hex_id = tile_id.rsplit("-", 1)[0]
        assert b.hex(hex_id).tile_id == tile_id


def test_setup_tokens_and_reservations_from_data() -> None:
    b = real("1867")
    assert b.hex("F16").tokens[0][0] is not None
    assert b.hex("D2").tokens[0][0] is not None
    assert b.hex("D2").tokens[0][0].kind == "neutral"  # type: ignore[union-attr]
    assert b.hex("M13").blockers == ("3",)
    c = real("1822CA")
    assert c.hex("Q19").city_blocks(0, "GT")
    assert c.hex("P18").reserved == (("20", None, None),)


def test_1867_cornwall_must_use_its_stub() -> None:
    b = real("1867")
    assert legal_rotations(b, "K13", b.tile_def("4"), RULES_1867) == (1, 4)


def test_1867_belleville_impassable_edge() -> None:
    b = real("1867")
    for r in legal_rotations(b, "H14", b.tile_def("4"), RULES_1867):
        assert 0 not in {r % 6, (r + 3) % 6}


def test_1867_toronto_and_montreal_green_choices() -> None:
    b = real("1867")
    assert set(legal_tiles(b, "F16", GREEN, RULES_1867)) == {"120"}
    assert set(legal_tiles(b, "L12", GREEN, RULES_1867)) <= {"X1", "X2", "X3", "X4", "637"}
    assert legal_tiles(b, "L12", GREEN, RULES_1867)


def test_1822ca_detroit_duluth_opens_with_the_event() -> None:
    b = real("1822CA")
    b.place_token("Y29", 0, "GWR")
    chain = [["Y29", "Y27", "X26", "W25", "V24", "U23", "T22", "S21", "R20", "Q19", "P18"]]
    reach = graph_for(b).reach("GWR")
    assert ("Y27", 0) in reach.nodes and "P18" not in reach.hexes
    train = Train("5-0", "5", 5)
    with pytest.raises(IllegalAction):
        parse_route(b, train, chain, corp="GWR", phase_colors=GREEN)
    # Event open_detroit_duluth (phase 3).
    b.remove_corp_tokens("DD")
    b.lay_tile("Q19", "DD-Q19-0", 0)
    b.lay_tile("Y27", "DD-Y27-0", 0)
    assert "P18" in graph_for(b).reach("GWR").hexes
    assert ("P18", 0) in tokenable_cities(b, "GWR")
    route = parse_route(b, train, chain, corp="GWR", phase_colors=GREEN)
    assert check_routes(b, "GWR", [route], GREEN, RouteRules()) == [40 + 30]


def test_1822ca_hidden_dd_tiles_are_never_offered() -> None:
    b = real("1822CA")
    assert "DD-Q19" not in b.available_names()
    assert "T1" in legal_tiles(b, "AC21", GREEN, RULES_1822CA)


def test_layable_hexes_for_a_home_token() -> None:
    b = real("1867")
    b.place_token("N12", 0, "SLA")  # Sherbrooke, an empty white city hex
    edges = graph_for(b).reach("SLA").edges
    hexes = layable_hexes(b, edges, (Color.YELLOW,), RULES_1867, entity="SLA")
    assert set(hexes) == {"N12"}
    assert set(hexes[HexId("N12")]) == {"5", "6", "57"}
