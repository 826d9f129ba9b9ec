"""Convert the 18xx.games reference JSON into desk18xx's structured map YAML.

Run once from the repository root (the output is committed)::

    .venv/bin/python tools/convert_reference.py [--reference DIR] [--out maps]

The reference data lives in ``../shared/reference/data`` (see its README for
the tile-code language).  Every tile-code string is parsed here into plain
mappings (nodes, paths, upgrades, borders, ...), so nothing in ``maps/`` is a
mini-language.  Node order and path order are kept exactly as in the code
strings because paths refer to nodes by index.  The schema is described in
``maps/README.md``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
DEFAULT_REFERENCE = REPO.parent / "shared" / "reference" / "data"
TITLES = ("1867", "1822CA", "1822CA-ERS", "1822CA-WRS")
#: Titles that share the 1822CA tile manifest instead of repeating it.
SHARED_TILES = {"1822CA-ERS": "1822CA", "1822CA-WRS": "1822CA"}
NODE_TYPES = ("city", "town", "offboard", "junction")


class Flow(dict[Any, Any]):
    """A mapping written in YAML flow style (``{a: 1, b: 2}``)."""


class FlowList(list[Any]):
    """A list written in YAML flow style (``[a, b]``)."""


class _Dumper(yaml.SafeDumper):
    pass


def _represent_flow(dumper: yaml.SafeDumper, data: Flow) -> yaml.Node:
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=True)


def _represent_flow_list(dumper: yaml.SafeDumper, data: FlowList) -> yaml.Node:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)


_Dumper.add_representer(Flow, _represent_flow)
_Dumper.add_representer(FlowList, _represent_flow_list)


def dump(path: Path, header: str, data: dict[str, Any]) -> None:
    """Write ``data`` as YAML to ``path`` with a comment header."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = yaml.dump(
        data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100,
        default_flow_style=False,
    )
    lines = "".join(f"# {line}\n" if line else "#\n" for line in header.strip().splitlines())
    path.write_text(lines + "\n" + text, encoding="utf-8")


# --------------------------------------------------------------------------
# Tile-code parsing (18xx.games `Engine::Tile.from_code`)


def _params(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for kv in text.split(","):
        key, _, value = kv.partition(":")
        out[key] = value
    return out


def _revenue(text: str) -> int | Flow:
    if "_" not in text:
        return int(text)
    table = Flow()
    for item in text.split("|"):
        color, _, value = item.partition("_")
        table[color] = int(value)
    return table


def _end(text: str) -> Flow:
    if text.startswith("_"):
        return Flow(node=int(text[1:]))
    return Flow(edge=int(text))


def parse_code(code: str) -> dict[str, Any]:
    """Parse one tile-code string into the structured YAML form.

    Returns:
        A mapping with the keys ``nodes``, ``paths``, ``label``,
        ``future_label``, ``upgrades``, ``borders``, ``stubs``, ``icons`` (only
        those present), in that order.
    """
    nodes: list[Any] = []
    paths: list[Any] = []
    out: dict[str, Any] = {}
    upgrades: list[Any] = []
    borders: list[Any] = []
    stubs: list[int] = []
    icons: list[Any] = []
    for part in (p for p in code.split(";") if p):
        kind, _, raw = part.partition("=")
        params = _params(raw) if ":" in raw else {}
        if kind in NODE_TYPES:
            node = Flow()
            if kind != "junction":
                node["revenue"] = _revenue(params.pop("revenue", "0"))
            if kind == "city":
                node["slots"] = int(params.pop("slots", "1"))
            if "groups" in params:
                node["groups"] = FlowList(params.pop("groups").split("|"))
            if "visit_cost" in params:
                node["visit_cost"] = int(params.pop("visit_cost"))
            if params.pop("hide", "0") == "1":
                node["hidden"] = True
            if "loc" in params:
                node["loc"] = params.pop("loc")
            _no_rest(part, params)
            nodes.append({kind: node})
        elif kind == "path":
            path = Flow(a=_end(params.pop("a")), b=_end(params.pop("b")))
            if params.pop("terminal", "0") == "1":
                path["terminal"] = True
            if "lanes" in params:
                path["lanes"] = int(params.pop("lanes"))
            _no_rest(part, params)
            paths.append(path)
        elif kind == "label":
            out["label"] = raw
        elif kind == "future_label":
            out["future_label"] = Flow(label=params.pop("label"), color=params.pop("color"))
            _no_rest(part, params)
        elif kind == "upgrade":
            up = Flow(cost=int(params.pop("cost")))
            if "terrain" in params:
                up["terrain"] = FlowList(params.pop("terrain").split("|"))
            if "loc" in params:
                up["loc"] = params.pop("loc")
            _no_rest(part, params)
            upgrades.append(up)
        elif kind == "border":
            border = Flow(edge=int(params.pop("edge")))
            if "type" in params:
                border["type"] = params.pop("type")
            if "cost" in params:
                border["cost"] = int(params.pop("cost"))
            _no_rest(part, params)
            borders.append(border)
        elif kind == "stub":
            stubs.append(int(params.pop("edge")))
            _no_rest(part, params)
        elif kind == "icon":
            icon = Flow(image=params.pop("image"))
            if params.pop("sticky", "0") == "1":
                icon["sticky"] = True
            if "loc" in params:
                icon["loc"] = params.pop("loc")
            _no_rest(part, params)
            icons.append(icon)
        else:
            raise ValueError(f"unknown tile-code part {part!r} in {code!r}")
    result: dict[str, Any] = {}
    if nodes:
        result["nodes"] = nodes
    if paths:
        result["paths"] = paths
    for key in ("label", "future_label"):
        if key in out:
            result[key] = out[key]
    if upgrades:
        result["upgrades"] = upgrades
    if borders:
        result["borders"] = borders
    if stubs:
        result["stubs"] = FlowList(stubs)
    if icons:
        result["icons"] = icons
    return result


def _no_rest(part: str, params: dict[str, str]) -> None:
    if params:
        raise ValueError(f"unhandled keys {sorted(params)} in {part!r}")


# --------------------------------------------------------------------------
# Hexes and tiles


def hex_markers(ref: dict[str, Any]) -> dict[str, list[str]]:
    """Marker strings per hex id, from the title's ``map_facts``."""
    facts = ref["map_facts"]
    on_map = {h["id"] for h in ref["hexes"]}
    markers: dict[str, list[str]] = {}

    def mark(hexes: Any, name: str) -> None:
        if isinstance(hexes, str):
            hexes = [hexes]
        for hex_id in hexes:
            if hex_id in on_map:
                markers.setdefault(hex_id, []).append(name)

    def fact(name: str) -> Any:
        return facts[name]["value"] if name in facts else []

    if ref["title"] == "1867":
        mark(fact("BONUS_REVENUE"), "timmins")
        mark(fact("BONUS_CAPITALS"), "bonus_capital")
        mark(fact("NATIONAL_RESERVATIONS"), "national_reservation")
    else:
        mark(fact("GRAIN_ELEVATORS"), "elevator")
        mark(fact("WEST_PORTS"), "port_west")
        mark(fact("EAST_PORTS"), "port_east")
        mark(fact("DOUBLE_HEX"), "double_town")
        mark(fact("DETROIT_TO_DULUTH_HEXES"), "detroit_duluth")
        mark(fact("MOUNTAIN_PASS_HEXES"), "mountain_pass")
        mark(list(fact("BIG_CITY_HEXES_TO_COMPANIES") or []), "big_city")
        mark(fact("ICONS_IN_CITIES_HEXES"), "icons_in_cities")
        mark(fact("MINOR_14_HOME_HEX") or [], "minor_14_home")
    return markers


def hex_setup(extra: dict[str, Any]) -> dict[str, Any]:
    """The structured ``setup`` block of a hex from its ``hex_extras`` entry."""
    out: dict[str, Any] = {}
    if extra.get("reservations"):
        out["reservations"] = [
            Flow(entity=r["entity"], city=r["city"], slot=r["slot"]) for r in extra["reservations"]
        ]
    if extra.get("tokens"):
        out["tokens"] = [
            Flow(corporation=t["corporation"], city=t["city"], slot=t["slot"], type=t["type"],
                 price=t["price"])
            for t in extra["tokens"]
        ]
    if extra.get("blockers"):
        out["blockers"] = [Flow(company=b["entity"], hidden=b["hidden"]) for b in extra["blockers"]]
    if extra.get("setup_icons"):
        icons = []
        for icon in extra["setup_icons"]:
            image = icon["image"].removeprefix("/icons/").removesuffix(".svg")
            item = Flow(name=icon["name"], image=image, owner=icon["owner"])
            for key in ("city", "slot", "loc"):
                if icon.get(key) is not None:
                    item[key] = icon[key]
            icons.append(item)
        out["icons"] = icons
    unknown = set(extra) - {"reservations", "tokens", "blockers", "setup_icons"}
    if unknown:
        raise ValueError(f"unhandled hex_extras keys {sorted(unknown)}")
    return out


def printed_tile_ids(ref: dict[str, Any]) -> dict[str, str]:
    """The 18xx.games id of every hex's printed tile (export format §6.3).

    The engine (``Game::Base#init_hexes``) builds a printed tile per
    coordinate of a ``HEXES`` entry ``{colour => {[coords] => code}}`` and
    gives it ``index`` = the coordinate's position in its ``[coords]`` list;
    the tile is named after the hex, so its id is ``"<hex>-<index>"``.  The
    reference lists hexes in source order without the lists, but a list is
    exactly the hexes of one part-map constant (1822CA: ``WESTERN_HEXES``,
    ``EASTERN_HEXES``, ``FULL_GAME_ONLY_HEXES``, ...) with the same colour
    and code, so the index counts those (checked against the Ruby source for
    all four titles).  Counting over the whole map instead is wrong for the
    full 1822CA map, e.g. V18-0, not V18-2.
    """
    seen: dict[tuple[str | None, str, str], int] = {}
    ids: dict[str, str] = {}
    for h in ref["hexes"]:
        key = (h.get("defined_in_constant"), h["color"], h["code"])
        index = seen.get(key, 0)
        seen[key] = index + 1
        ids[h["id"]] = f"{h['id']}-{index}"
    return ids


def convert_map(ref: dict[str, Any]) -> dict[str, Any]:
    """The content of ``map.yaml``."""
    markers = hex_markers(ref)
    extras = ref["hex_extras"]["hexes"]
    tile_ids = printed_tile_ids(ref)
    hexes: dict[str, Any] = {}
    for h in ref["hexes"]:
        entry: dict[str, Any] = {"color": h["color"], "tile_id": tile_ids[h["id"]]}
        if h["location_name"] is not None:
            entry["location_name"] = h["location_name"]
        if h["id"] in markers:
            entry["markers"] = FlowList(markers[h["id"]])
        entry.update(parse_code(h["code"]))
        if h["id"] in extras:
            entry["setup"] = hex_setup(extras[h["id"]])
        hexes[h["id"]] = Flow(entry) if list(entry) == ["color", "tile_id"] else entry
    return {"layout": ref["layout"], "hexes": hexes}


def convert_tiles(ref: dict[str, Any]) -> dict[str, Any]:
    """The content of ``tiles.yaml``."""
    tiles: dict[str, Any] = {}
    for t in ref["tiles"]:
        entry: dict[str, Any] = {"color": t["color"], "count": t["count"]}
        if t.get("hidden"):
            entry["hidden"] = True
        entry.update(parse_code(t["code"]))
        tiles[str(t["name"])] = entry
    return {"tiles": tiles}


# --------------------------------------------------------------------------


def header(ref: dict[str, Any], what: str) -> str:
    """Comment header naming the source of a generated file."""
    src = ref["source"]
    return (
        f"{ref['title']} {what}.\n"
        "Generated by tools/convert_reference.py from the 18xx.games reference data\n"
        f"({src['repository']} @ {src['commit'][:12]}); hand edits are fine, re-running\n"
        "the converter overwrites them.  Schema: maps/README.md."
    )


# --------------------------------------------------------------------------
# Market, trains, phases, companies, corporations


def _cell(text: str, suffixes: dict[str, str]) -> Any:
    """``"165zCm"`` -> ``{price: 165, types: [par_2, convert_range, max_price]}``."""
    if text == "":
        return None
    digits = "".join(ch for ch in text if ch.isdigit())
    letters = text[len(digits):]
    if not digits or not text.startswith(digits):
        raise ValueError(f"bad market cell {text!r}")
    if not letters:
        return int(digits)
    return Flow(price=int(digits), types=FlowList(suffixes[ch] for ch in letters))


def convert_market(ref: dict[str, Any]) -> dict[str, Any]:
    """The content of ``market.yaml``."""
    market = ref["market"]
    suffixes = {k: v["type"] for k, v in market["suffix_meaning"].items()}
    names = {"MARKET": "main", "COLUMN_MARKET": "column", "GRID_MARKET": "grid"}
    grids: dict[str, Any] = {}
    for const, name in names.items():
        if const in market:
            grids[name] = {
                "rows": [FlowList(_cell(c, suffixes) for c in row) for row in market[const]]
            }
    used = {t for grid in grids.values() for row in grid["rows"] for c in row
            if isinstance(c, dict) for t in c["types"]}
    types = {
        t: Flow(color=market["STOCKMARKET_COLORS"][t], text=market["MARKET_TEXT"].get(t, ""))
        for t in market["STOCKMARKET_COLORS"] if t in used
    }
    data: dict[str, Any] = {"default": names[market["default"]]}
    if "GRID_MARKET" in market:
        data["optional_rules"] = Flow(grid_market="grid")
    data["markets"] = grids
    data["cell_types"] = types
    data["cert_limit_types"] = FlowList(market["CERT_LIMIT_TYPES"])
    data["multiple_buy_types"] = FlowList(market["MULTIPLE_BUY_TYPES"])
    return data


def _distance(value: Any) -> Any:
    if isinstance(value, int):
        return value
    return [Flow(nodes=FlowList(p["nodes"]), pay=p["pay"], visit=p["visit"]) for p in value]


_TRAIN_KEYS = {"name", "distance", "price", "num", "rusts_on", "obsolete_on", "available_on",
               "multiplier", "events", "discount", "variants"}


def _train(t: dict[str, Any], variant: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"name": t["name"], "distance": _distance(t["distance"]),
                           "price": t["price"]}
    if not variant:
        out["num"] = t["num"]
    for key in ("rusts_on", "obsolete_on", "available_on", "multiplier"):
        if t.get(key) is not None:
            out[key] = t[key]
    if t.get("events"):
        for e in t["events"]:
            if set(e) != {"type"}:
                raise ValueError(f"train event with parameters: {e}")
        out["events"] = FlowList(e["type"] for e in t["events"])
    if t.get("discount"):
        out["discount"] = Flow(t["discount"])
    if t.get("variants"):
        out["variants"] = [_train(v, variant=True) for v in t["variants"]]
    unknown = set(t) - _TRAIN_KEYS
    if unknown:
        raise ValueError(f"unhandled train keys {sorted(unknown)}")
    return out


def convert_phases(ref: dict[str, Any]) -> dict[str, Any]:
    """The content of ``phases.yaml``."""
    phases = []
    for p in ref["phases"]:
        on = p.get("on") or []
        phases.append({
            "name": p["name"],
            "on": FlowList([on] if isinstance(on, str) else on),
            "train_limit": Flow(p["train_limit"]),
            "tiles": FlowList(p["tiles"]),
            "operating_rounds": p["operating_rounds"],
            "status": FlowList(p.get("status", [])),
        })
    return {"phases": phases}


def _ability(a: dict[str, Any]) -> Flow:
    out = Flow(type=a["type"])
    for key, value in a.items():
        if key == "type":
            continue
        if key == "when" and isinstance(value, str):
            value = [value]
        out[key] = FlowList(value) if isinstance(value, list) else value
    return out


def _company_kind(ref: dict[str, Any], sym: str) -> str:
    if ref["title"] == "1867":
        return "placeholder" if sym == "3" else "private"
    return {"P": "private", "C": "concession", "M": "minor"}[sym[0]]


def convert_companies(ref: dict[str, Any]) -> dict[str, Any]:
    """The content of ``companies.yaml``."""
    companies = []
    for c in ref["companies"]:
        out: dict[str, Any] = {
            "sym": c["sym"], "name": c["name"], "kind": _company_kind(ref, c["sym"]),
            "value": c["value"], "revenue": c["revenue"],
        }
        if "discount" in c:
            out["discount"] = c["discount"]
        color = c.get("color") or c.get("engine_assigned_color")
        if color:
            out["color"] = color
        if c.get("text_color"):
            out["text_color"] = c["text_color"]
        for key in ("in_starting_set", "in_two_player_set"):
            if key in c:
                out[key] = c[key]
        out["desc"] = c["desc"]
        if c.get("abilities"):
            out["abilities"] = [_ability(a) for a in c["abilities"]]
        unknown = set(c) - {"sym", "name", "value", "revenue", "discount", "color", "text_color",
                            "engine_assigned_color", "in_starting_set", "in_two_player_set",
                            "desc", "abilities", "overridden_fields"}
        if unknown:
            raise ValueError(f"unhandled company keys {sorted(unknown)}")
        companies.append(out)
    return {"companies": companies}


#: 18xx.games defaults for keys a corporation leaves out (see the data README).
DEFAULT_SHARES = [20] + [10] * 8
_CORP_KEYS = {
    "sym", "name", "type", "color", "text_color", "logo", "simple_logo", "tokens", "shares",
    "float_percent", "max_ownership_percent", "always_market_price", "hide_shares",
    "coordinates", "city", "destination_coordinates", "destination_exits", "destination_icon",
    "destination_icon_in_city_slot", "destination_loc", "overridden_fields",
}


def convert_corporations(ref: dict[str, Any]) -> dict[str, Any]:
    """The content of ``corporations.yaml`` (engine defaults written out)."""
    green = set(ref["map_facts"].get("GREEN_CORPORATIONS", {}).get("value", []))
    corps = []
    for c in ref["corporations"]:
        out: dict[str, Any] = {"sym": c["sym"], "name": c["name"], "type": c["type"]}
        if c["sym"] in green:
            out["green"] = True
        out["color"] = c["color"]
        if c.get("text_color"):
            out["text_color"] = c["text_color"]
        out["logo"] = c["logo"]
        if c.get("simple_logo"):
            out["simple_logo"] = c["simple_logo"]
        out["tokens"] = FlowList(c["tokens"])
        out["shares"] = FlowList(c.get("shares", DEFAULT_SHARES))
        out["float_percent"] = c.get("float_percent", 60)
        out["max_ownership_percent"] = c.get("max_ownership_percent", 60)
        out["always_market_price"] = bool(c.get("always_market_price", False))
        out["hide_shares"] = bool(c.get("hide_shares", False))
        if c.get("coordinates"):
            coords = c["coordinates"]
            home = Flow(hexes=FlowList([coords] if isinstance(coords, str) else coords))
            if c.get("city") is not None:
                home["city"] = c["city"]
            out["home"] = home
        if c.get("destination_coordinates"):
            dest = Flow(hex=c["destination_coordinates"])
            if c.get("destination_exits"):
                dest["exits"] = FlowList(c["destination_exits"])
            if c.get("destination_icon"):
                dest["icon"] = c["destination_icon"]
            slot = c.get("destination_icon_in_city_slot")
            if slot:
                dest["icon_city"], dest["icon_slot"] = slot
            if c.get("destination_loc"):
                dest["icon_loc"] = c["destination_loc"]
            out["destination"] = dest
        unknown = set(c) - _CORP_KEYS
        if unknown:
            raise ValueError(f"unhandled corporation keys {sorted(unknown)}")
        corps.append(out)
    return {"corporations": corps}


# --------------------------------------------------------------------------
# title.yaml


def _plain(value: Any) -> Any:
    """A JSON value with leaf lists and small leaf maps in flow style."""
    if isinstance(value, list):
        items = [_plain(v) for v in value]
        if all(not isinstance(v, dict | list) for v in items):
            return FlowList(items)
        return items
    if isinstance(value, dict):
        table = {str(k): _plain(v) for k, v in value.items()}
        if all(not isinstance(v, dict | list) for v in table.values()) and len(table) <= 8:
            return Flow(table)
        return table
    return value


def _by_players(table: dict[str, int]) -> Flow:
    return Flow({int(k): v for k, v in table.items()})


_LAY_KEYS = ("lay", "upgrade", "cost", "upgrade_cost", "cannot_reuse_same_hex")


def _tile_lays(value: list[dict[str, Any]]) -> list[Flow]:
    out = []
    for lay in value:
        unknown = set(lay) - set(_LAY_KEYS)
        if unknown:
            raise ValueError(f"unhandled tile-lay keys {sorted(unknown)}")
        out.append(Flow((k, lay[k]) for k in _LAY_KEYS if k in lay))
    return out


#: Supply of the unlimited 1867 tiles as printed on the summary card
#: (../shared/seeds/1867-summary-card.txt, "Tile manifest 183 tiles").
BOX_COUNTS_1867 = {"7": 3, "8": 19, "9": 24}

#: Constants that title.yaml gives typed keys (not repeated under ``constants``).
TYPED_CONSTANTS = {
    "BANK_CASH", "CERT_LIMIT", "STARTING_CASH", "CURRENCY_FORMAT_STR", "CAPITALIZATION",
    "GAME_END_CHECK", "TILE_LAYS", "MAJOR_TILE_LAYS", "BONUS_CAPITALS", "BONUS_REVENUE",
    "NATIONAL_RESERVATIONS", "GREEN_CORPORATIONS", "GRAIN_ELEVATORS", "WEST_PORTS",
    "EAST_PORTS", "DOUBLE_HEX", "DETROIT_TO_DULUTH_HEXES", "MOUNTAIN_PASS_HEXES",
    "MOUNTAIN_PASS_TILES", "MOUNTAIN_PASS_HEXES_TO_COMPANIES", "BIG_CITY_HEXES_TO_COMPANIES",
    "BIG_CITY_ILLEGAL_TILE_UPGRADES", "ICONS_IN_CITIES_HEXES", "MINOR_14_ID",
    "MINOR_14_HOME_HEX", "PENDING_HOME_TOKENERS", "TWO_HOME_CORPORATION",
    "GRAIN_ELEVATOR_COUNT", "EXCHANGE_TOKENS", "BIDDING_TOKENS", "STARTING_COMPANIES_TWOPLAYER",
    "TRAINS_REMOVE_2_PLAYER", "STOCKMARKET_COLORS", "MARKET_TEXT", "CERT_LIMIT_TYPES",
    "MULTIPLE_BUY_TYPES",
}


#: method_data entries that are prose rather than values; copied into ``notes``.
METHOD_NOTES = ("grain_and_port_bonus", "detroit_duluth", "game_end_extra_or",
                "wrs_home_tokens")


def _g1822ca(consts: dict[str, Any], method: dict[str, Any]) -> dict[str, Any]:
    ag13 = method["white_AG13_upgrades"]["value"]
    data: dict[str, Any] = {
        "grain_elevators": FlowList(consts["GRAIN_ELEVATORS"]),
        "grain_elevator_count": consts["GRAIN_ELEVATOR_COUNT"],
        "west_ports": FlowList(consts["WEST_PORTS"]),
        "east_ports": FlowList(consts["EAST_PORTS"]),
        "double_town_hexes": FlowList(consts["DOUBLE_HEX"]),
        "detroit_duluth_hexes": FlowList(consts["DETROIT_TO_DULUTH_HEXES"]),
        "mountain_pass_hexes": FlowList(consts["MOUNTAIN_PASS_HEXES"]),
        "mountain_pass_tiles": FlowList(consts["MOUNTAIN_PASS_TILES"]),
        "mountain_pass_companies": Flow(consts["MOUNTAIN_PASS_HEXES_TO_COMPANIES"]),
        "big_city_companies": Flow(consts["BIG_CITY_HEXES_TO_COMPANIES"]),
        "big_city_illegal_upgrades": Flow(consts["BIG_CITY_ILLEGAL_TILE_UPGRADES"]),
        "big_city_rotations": {
            k: FlowList(v) for k, v in method["big_city_legal_rotations"]["value"].items()
        },
        "icons_in_cities_hexes": FlowList(consts["ICONS_IN_CITIES_HEXES"]),
        "minor_14_id": consts["MINOR_14_ID"],
        "minor_14_home_hex": consts["MINOR_14_HOME_HEX"],
        "pending_home_tokeners": FlowList(consts["PENDING_HOME_TOKENERS"]),
        "two_home_corporation": consts["TWO_HOME_CORPORATION"],
        "white_hex_upgrades": {ag13["hex"]: FlowList(ag13["allowed_tiles"])},
        "company_trains": {
            k: Flow(train=v["train_id"], buyable=v["buyable"])
            for k, v in method["company_trains"]["value"].items()
        },
        "small_mail_subsidy": Flow(method["small_mail_subsidy_by_phase"]["value"]),
        "exchange_tokens": _plain(consts["EXCHANGE_TOKENS"]),
        "bidding_tokens": _by_players(consts["BIDDING_TOKENS"]),
        "extra_or_on_bank_break": "game_end_extra_or" not in method,
        "sell_movement": Flow(method["sell_movement"]["value"]),
    }
    if "STARTING_COMPANIES_TWOPLAYER" in consts:
        data["two_player_companies"] = FlowList(consts["STARTING_COMPANIES_TWOPLAYER"])
    return data


def convert_constants(ref: dict[str, Any]) -> dict[str, Any]:
    """The content of ``title.yaml``."""
    title = ref["title"]
    setup = ref["setup_values"]
    consts = {k: v["value"] for k, v in ref["constants"].items()}
    base = {k: v["value"] for k, v in ref["base_defaults_used"].items()}
    meta = ref["meta"]
    data: dict[str, Any] = {"id": title, "name": ref["engine_title"]}
    if title in SHARED_TILES:
        data["tiles_from"] = SHARED_TILES[title]
    data["players"] = Flow(min=meta["player_range"][0], max=meta["player_range"][1])
    data["optional_rules"] = [
        Flow(sym=r["sym"], name=r["short_name"], desc=r["desc"]) for r in meta["optional_rules"]
    ]
    data["bank_cash"] = setup["bank_cash"]["value"]
    data["currency_format"] = setup["currency_format"]["value"]
    data["capitalization"] = setup["capitalization"]["value"]
    data["cert_limit"] = _by_players(setup["cert_limit"]["value"])
    data["starting_cash"] = _by_players(setup["starting_cash"]["value"])
    data["game_end_check"] = Flow(setup["game_end_check"]["value"])
    data["tile_lays"] = _tile_lays(consts.get("TILE_LAYS") or base["TILE_LAYS"])
    if "MAJOR_TILE_LAYS" in consts:
        data["major_tile_lays"] = _tile_lays(consts["MAJOR_TILE_LAYS"])
    if title == "1867":
        data["g1867"] = {
            "bonus_capitals": FlowList(consts["BONUS_CAPITALS"]),
            "bonus_revenue_hex": consts["BONUS_REVENUE"],
            "national_reservations": FlowList(consts["NATIONAL_RESERVATIONS"]),
            "green_corporations": FlowList(consts["GREEN_CORPORATIONS"]),
            "trains_remove_2_player": Flow(consts["TRAINS_REMOVE_2_PLAYER"]),
        }
    else:
        data["g1822ca"] = _g1822ca(consts, ref["method_data"])
    data["notes"] = list(ref["notes"]) + [
        f"{v['source']}: {v['meaning']}" for k, v in ref.get("method_data", {}).items()
        if k in METHOD_NOTES
    ]
    data["constants"] = {
        k: _plain(v) for k, v in sorted({**base, **consts}.items()) if k not in TYPED_CONSTANTS
    }
    return data


def convert_title(ref: dict[str, Any], out: Path) -> None:
    """Write every YAML file of one title into ``out / title``."""
    title = ref["title"]
    folder = out / title
    dump(folder / "title.yaml", header(ref, "title constants"), convert_constants(ref))
    dump(folder / "map.yaml", header(ref, "board: printed hexes and setup additions"),
         convert_map(ref))
    if title not in SHARED_TILES:
        tiles = convert_tiles(ref)
        if title == "1867":
            for name, count in BOX_COUNTS_1867.items():
                tiles["tiles"][name]["box_count"] = count
        dump(folder / "tiles.yaml", header(ref, "tile manifest"), tiles)
    dump(folder / "market.yaml", header(ref, "stock market"), convert_market(ref))
    dump(folder / "trains.yaml", header(ref, "trains"),
         {"trains": [_train(t) for t in ref["trains"]]})
    dump(folder / "phases.yaml", header(ref, "phases"), convert_phases(ref))
    dump(folder / "companies.yaml", header(ref, "companies (privates, concessions, minors)"),
         convert_companies(ref))
    dump(folder / "corporations.yaml", header(ref, "corporations"), convert_corporations(ref))


def main(argv: list[str] | None = None) -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE)
    parser.add_argument("--out", type=Path, default=REPO / "maps")
    args = parser.parse_args(argv)
    for title in TITLES:
        ref = json.loads((args.reference / f"{title}.json").read_text(encoding="utf-8"))
        if title in SHARED_TILES:
            base = json.loads(
                (args.reference / f"{SHARED_TILES[title]}.json").read_text(encoding="utf-8")
            )
            if base["tiles"] != ref["tiles"]:
                raise SystemExit(f"{title}: tile manifest differs from {SHARED_TILES[title]}")
        convert_title(ref, args.out)


if __name__ == "__main__":
    main()
