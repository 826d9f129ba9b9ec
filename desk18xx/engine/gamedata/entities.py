"""Companies and corporations (``companies.yaml``, ``corporations.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from desk18xx.engine.gamedata.yamlnode import (
    Node,
    items,
    opt_bool,
    opt_index,
    opt_int,
    opt_str,
    scalar,
    strs,
)


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


def _ability(node: Node) -> AbilityDef:
    params: dict[str, AbilityValue] = {}
    for key, child in node.items():
        if key in ("type", "hexes", "tiles", "when", "owner_type", "count"):
            continue
        if isinstance(child.value, list):
            params[key] = tuple(scalar(item, (str, int)) for item in child.as_list())
        else:
            params[key] = scalar(child, (str, int, bool))
    count = node.opt("count")
    return AbilityDef(
        type=node.get("type").as_str(),
        hexes=strs(node, "hexes"),
        tiles=strs(node, "tiles"),
        when=strs(node, "when"),
        owner_type=opt_str(node, "owner_type"),
        count=None if count is None else count.as_int(),
        params=MappingProxyType(params),
    )


def parse_company(node: Node) -> CompanyDef:
    """One entry of ``companies.yaml``."""
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
        discount=opt_int(node, "discount", 0),
        color=opt_str(node, "color"),
        text_color=opt_str(node, "text_color"),
        abilities=tuple(_ability(a) for a in items(node, "abilities")),
        in_starting_set=opt_bool(node, "in_starting_set", True),
        in_two_player_set=None if two is None else two.as_bool(),
    )


def parse_corporation(node: Node) -> CorporationDef:
    """One entry of ``corporations.yaml``."""
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
            icon=opt_str(dest, "icon"),
            icon_city=opt_index(dest, "icon_city"),
            icon_slot=opt_index(dest, "icon_slot"),
            icon_loc=opt_str(dest, "icon_loc"),
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
        float_percent=opt_int(node, "float_percent", 60),
        max_ownership_percent=opt_int(node, "max_ownership_percent", 60),
        always_market_price=opt_bool(node, "always_market_price"),
        hide_shares=opt_bool(node, "hide_shares"),
        text_color=opt_str(node, "text_color"),
        simple_logo=opt_str(node, "simple_logo"),
        home_hexes=() if home is None else strs(home, "hexes"),
        home_city=None if home is None else opt_index(home, "city"),
        destination=destination,
        green=opt_bool(node, "green"),
    )
