"""Board bookkeeping: tile supply, ids, tokens through upgrades, copies."""

from __future__ import annotations

import pytest
from maphelpers import board, manifest, tile, white_block

from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.map.board import (
    Board,
    Token,
    node_signature,
    parse_node_signature,
    printed_tile_ids,
    tile_name,
)
from desk18xx.engine.tiledef import HexDef, Reservation, SetupToken


def _small() -> Board:
    hexes = white_block("ABCD", range(1, 9))
    hexes["B4"] = ("white", "city=revenue:0")
    hexes["C5"] = ("white", "city=revenue:0")
    hexes["D4"] = ("white", "town=revenue:0")
    return board(hexes, manifest({"57": 2, "14": 1, "15": 1, "63": 1, "9": None, "4": 1}))


def test_printed_ids_count_hexes_with_the_same_content() -> None:
    b = _small()
    assert b.hex("B4").tile_id == "B4-0"
    assert b.hex("C5").tile_id == "C5-1"
    assert b.hex("D4").tile_id == "D4-0"
    assert b.hex("A1").tile_id == "A1-0"
    assert b.hex("A3").tile_id == "A3-1"


def test_printed_ids_of_1867_plain_cities() -> None:
    # Export format §9.3: D8-0, F8-1, E13-2, E15-3, C17-4, I15-5, N12-6.
    order = ["D8", "F8", "E13", "E15", "C17", "I15", "N12", "G15"]
    hexes = {h: HexDef(h, tile(h, "white", "city=revenue:0")) for h in order[:-1]}
    hexes["G15"] = HexDef("G15", tile("G15", "white", "city=revenue:0;stub=edge:1"))
    ids = printed_tile_ids(hexes)
    assert [ids[h] for h in order] == [
        "D8-0", "F8-1", "E13-2", "E15-3", "C17-4", "I15-5", "N12-6", "G15-0"
    ]


def test_supply_counts_and_return_on_upgrade() -> None:
    b = _small()
    assert b.remaining("57") == 2
    assert b.remaining("9") is None
    assert b.next_copy("57") == "57-0"
    b.lay_tile("B4", "57-0", 0)
    assert b.remaining("57") == 1
    assert not b.is_available("57-0")
    assert b.next_copy("57") == "57-1"
    with pytest.raises(IllegalAction):
        b.lay_tile("C5", "57-0", 0)
    with pytest.raises(IllegalAction):
        b.lay_tile("C5", "57-2", 0)  # only two copies exist
    b.lay_tile("B4", "14-0", 0)
    assert b.remaining("57") == 2
    assert b.is_available("57-0")
    assert b.hex_of_tile("14-0") == "B4"
    assert b.hex_of_tile("B4-0") is None


def test_unlimited_tiles_get_new_copies() -> None:
    b = _small()
    b.lay_tile("A1", "9-0", 0)
    assert b.next_copy("9") == "9-1"
    b.lay_tile("A3", "9-1", 0)
    assert b.available_names().count("9") == 1


def test_tile_name_of_ids_with_dashes() -> None:
    assert tile_name("DD-Q19-0") == "DD-Q19"
    assert tile_name("57-12") == "57"
    with pytest.raises(IllegalAction):
        tile_name("57")


def test_tokens_follow_the_city_through_upgrades() -> None:
    b = _small()
    b.lay_tile("B4", "57-0", 0)
    slot = b.place_token("B4", 0, "CPR")
    assert slot == 0
    assert b.city_id("B4", 0) == "57-0-0"
    assert b.parse_city_id("57-0-0") == ("B4", 0)
    b.lay_tile("B4", "14-0", 0)
    st = b.hex("B4")
    assert st.tokens[0] == (Token("CPR"), None)
    assert b.parse_city_id("14-0-0") == ("B4", 0)
    with pytest.raises(IllegalAction):
        b.parse_city_id("57-0-0")
    b.place_token("B4", 0, "GT")
    assert b.hex("B4").city_blocks(0, "CN")
    assert not b.hex("B4").city_blocks(0, "GT")
    with pytest.raises(IllegalAction):
        b.place_token("B4", 0, "CN")
    assert b.place_token("B4", 0, "CN", cheater=True) == 2
    assert b.tokens_of("GT") == [("B4", 0)]
    assert b.remove_corp_tokens("GT") == [("B4", 0, 1)]
    assert b.tokens_of("GT") == []


def test_reservations_hold_a_slot_and_move_with_upgrades() -> None:
    hexes = white_block("ABC", range(1, 7))
    extra = {
        "B4": HexDef(
            "B4",
            tile("B4", "white", "city=revenue:0"),
            reservations=(Reservation("GW", 0, 0),),
        )
    }
    b = board(hexes, manifest({"57": 1, "14": 1}), extras=extra)
    assert b.hex("B4").reserved == (("GW",),)
    with pytest.raises(IllegalAction):
        b.place_token("B4", 0, "CPR")
    b.lay_tile("B4", "57-0", 0)
    b.lay_tile("B4", "14-0", 0)
    st = b.hex("B4")
    assert st.reserved == (("GW", None),)
    assert st.free_slots(0) == 1
    assert b.place_token("B4", 0, "CPR") == 1
    assert b.place_token("B4", 0, "GW") == 0
    assert b.hex("B4").reserved == ((None, None),)


def test_neutral_tokens_do_not_block() -> None:
    hexes = white_block("ABC", range(1, 7))
    extra = {
        "B4": HexDef(
            "B4",
            tile("B4", "white", "city=revenue:0"),
            tokens=(SetupToken("CN", 0, 0, "neutral"),),
        )
    }
    b = board(hexes, manifest({}), extras=extra)
    assert not b.hex("B4").city_blocks(0, "GW")
    assert b.remove_token("B4", 0, 0) == Token("CN", "neutral")


def test_copy_is_independent() -> None:
    b = _small()
    assert b.remaining("57") == 2  # counted (and kept) before the copy
    c = b.copy()
    c.lay_tile("B4", "57-0", 0)
    c.place_token("B4", 0, "CPR")
    assert b.hex("B4").printed
    assert b.remaining("57") == 2 and c.remaining("57") == 1
    assert "57" in b.available_names()
    assert c.version > b.version


def test_multi_city_tokens_move_to_the_matching_city() -> None:
    toronto = "city=revenue:30;city=revenue:30;path=a:1,b:_0;path=a:4,b:_1;label=T"
    t120 = (
        "green",
        "city=revenue:60;city=revenue:60;path=a:0,b:_0;path=a:_0,b:1;path=a:2,b:_1;"
        "path=a:_1,b:3;label=T",
        1,
    )
    hexes = white_block("EFG", range(13, 20))
    hexes["F16"] = ("yellow", toronto)
    b = board(hexes, manifest({}, {"120": t120}))
    b.place_token("F16", 1, "GT")  # the city on edge 4
    b.lay_tile("F16", "120-0", 3)  # city 0 -> edges 3, 4; city 1 -> edges 5, 0
    st = b.hex("F16")
    assert st.tokens == ((Token("GT"),), (None,))


def test_node_signatures() -> None:
    assert node_signature("L12", 2) == "L12-2"
    assert parse_node_signature("AG13-0") == ("AG13", 0)
    with pytest.raises(IllegalAction):
        parse_node_signature("AG13")


def test_summary_lists_what_changed() -> None:
    b = _small()
    assert b.summary() == ""
    b.lay_tile("B4", "57-0", 1)
    b.place_token("B4", 0, "CPR")
    b.lay_tile("A1", "9-0", 0)
    assert b.summary() == "A1 9-0@0\nB4 57-0@1 [CPR]"
