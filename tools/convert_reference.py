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


class Flow(dict[str, Any]):
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


def convert_map(ref: dict[str, Any]) -> dict[str, Any]:
    """The content of ``map.yaml``."""
    markers = hex_markers(ref)
    extras = ref["hex_extras"]["hexes"]
    hexes: dict[str, Any] = {}
    for h in ref["hexes"]:
        entry: dict[str, Any] = {"color": h["color"]}
        if h["location_name"] is not None:
            entry["location_name"] = h["location_name"]
        if h["id"] in markers:
            entry["markers"] = FlowList(markers[h["id"]])
        entry.update(parse_code(h["code"]))
        if h["id"] in extras:
            entry["setup"] = hex_setup(extras[h["id"]])
        hexes[h["id"]] = Flow(entry) if list(entry) == ["color"] else entry
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


def convert_title(ref: dict[str, Any], out: Path) -> None:
    """Write every YAML file of one title into ``out / title``."""
    title = ref["title"]
    folder = out / title
    dump(folder / "map.yaml", header(ref, "board: printed hexes and setup additions"),
         convert_map(ref))
    if title not in SHARED_TILES:
        dump(folder / "tiles.yaml", header(ref, "tile manifest"), convert_tiles(ref))
    dump(folder / "title.yaml", header(ref, "title constants"), convert_constants(ref))


def convert_constants(ref: dict[str, Any]) -> dict[str, Any]:
    """The content of ``title.yaml``."""
    data: dict[str, Any] = {"id": ref["title"], "name": ref["engine_title"]}
    if ref["title"] in SHARED_TILES:
        data["tiles_from"] = SHARED_TILES[ref["title"]]
    return data


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
