"""Setup values, rule knobs and raw constants of a title (``title.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TypeAlias

from desk18xx.engine.errors import DataError
from desk18xx.engine.gamedata.yamlnode import (
    Node,
    int_map,
    items,
    items_map,
    opt_bool,
    opt_int,
    opt_str,
    str_map,
    strs,
    type_name,
)

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


def _const_value(node: Node) -> ConstValue:
    value = node.value
    if isinstance(value, list):
        return tuple(_const_value(n) for n in node.as_list())
    if isinstance(value, dict):
        return MappingProxyType({k: _const_value(v) for k, v in node.items()})
    if value is None or isinstance(value, str | int | float | bool):
        return value
    node.fail(f"unsupported value of type {type_name(value)}")


def _tile_lays(node: Node | None) -> tuple[TileLay, ...]:
    lays = []
    for lay in [] if node is None else node.as_list():
        lay.only("lay", "upgrade", "cost", "upgrade_cost", "cannot_reuse_same_hex")
        upgrade_cost = lay.opt("upgrade_cost")
        lays.append(TileLay(
            lay=_lay_flag(lay.get("lay")),
            upgrade=_lay_flag(lay.get("upgrade")),
            cost=opt_int(lay, "cost", 0),
            upgrade_cost=None if upgrade_cost is None else upgrade_cost.as_int(),
            cannot_reuse_same_hex=opt_bool(lay, "cannot_reuse_same_hex"),
        ))
    return tuple(lays)


def _lay_flag(node: Node) -> bool | str:
    if isinstance(node.value, bool):
        return node.value
    if node.value == "not_if_upgraded":
        return "not_if_upgraded"
    node.fail("expected true, false or not_if_upgraded")


def _by_players(node: Node) -> Mapping[int, int]:
    table: dict[int, int] = {}
    for key, value in node.mapping().items():
        child = Node(value, node.file, node.sub(str(key)))
        if isinstance(key, bool) or not isinstance(key, int):
            child.fail("key must be a player count (int)")
        table[key] = child.as_int()
    return MappingProxyType(table)


def _rules_1867(node: Node) -> Rules1867:
    node.only("bonus_capitals", "bonus_revenue_hex", "national_reservations",
              "green_corporations", "trains_remove_2_player")
    return Rules1867(
        bonus_capitals=strs(node, "bonus_capitals"),
        bonus_revenue_hex=node.get("bonus_revenue_hex").as_str(),
        national_reservations=strs(node, "national_reservations"),
        green_corporations=strs(node, "green_corporations"),
        trains_remove_2_player=int_map(node, "trains_remove_2_player"),
    )


def _rules_1822ca(node: Node) -> Rules1822CA:
    fields = {f for f in Rules1822CA.__dataclass_fields__}
    node.only(*fields)
    trains = {}
    for sym, t in items_map(node, "company_trains"):
        t.only("train", "buyable")
        trains[sym] = CompanyTrain(t.get("train").as_str(), t.get("buyable").as_bool())
    return Rules1822CA(
        grain_elevators=strs(node, "grain_elevators"),
        grain_elevator_count=node.get("grain_elevator_count").as_int(),
        west_ports=strs(node, "west_ports"),
        east_ports=strs(node, "east_ports"),
        double_town_hexes=strs(node, "double_town_hexes"),
        detroit_duluth_hexes=strs(node, "detroit_duluth_hexes"),
        mountain_pass_hexes=strs(node, "mountain_pass_hexes"),
        mountain_pass_tiles=strs(node, "mountain_pass_tiles"),
        mountain_pass_companies=str_map(node, "mountain_pass_companies"),
        big_city_companies=str_map(node, "big_city_companies"),
        big_city_illegal_upgrades=str_map(node, "big_city_illegal_upgrades"),
        big_city_rotations=MappingProxyType(
            {k: v.ints() for k, v in items_map(node, "big_city_rotations")}),
        icons_in_cities_hexes=strs(node, "icons_in_cities_hexes"),
        minor_14_id=opt_str(node, "minor_14_id"),
        minor_14_home_hex=opt_str(node, "minor_14_home_hex"),
        pending_home_tokeners=strs(node, "pending_home_tokeners"),
        two_home_corporation=node.get("two_home_corporation").as_str(),
        white_hex_upgrades=MappingProxyType(
            {k: v.strs() for k, v in items_map(node, "white_hex_upgrades")}),
        company_trains=MappingProxyType(trains),
        small_mail_subsidy=int_map(node, "small_mail_subsidy"),
        exchange_tokens=int_map(node, "exchange_tokens"),
        bidding_tokens=_by_players(node.get("bidding_tokens")),
        extra_or_on_bank_break=node.get("extra_or_on_bank_break").as_bool(),
        sell_movement=str_map(node, "sell_movement"),
        two_player_companies=strs(node, "two_player_companies"),
    )


def parse_config(root: Node) -> TitleConfig:
    """The content of ``title.yaml``."""
    root.only("id", "name", "tiles_from", "players", "optional_rules", "bank_cash",
              "currency_format", "capitalization", "cert_limit", "starting_cash",
              "game_end_check", "tile_lays", "major_tile_lays", "g1867", "g1822ca", "notes",
              "constants")
    players = root.get("players").only("min", "max")
    rules = []
    for r in items(root, "optional_rules"):
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
        game_end_check=str_map(root, "game_end_check"),
        tile_lays=_tile_lays(root.get("tile_lays")),
        major_tile_lays=_tile_lays(root.opt("major_tile_lays")),
        constants=MappingProxyType(
            {} if constants is None else {k: _const_value(v) for k, v in constants.items()}),
        notes=strs(root, "notes"),
        g1867=None if g1867 is None else _rules_1867(g1867),
        g1822ca=None if g1822ca is None else _rules_1822ca(g1822ca),
        source=root.file,
    )
