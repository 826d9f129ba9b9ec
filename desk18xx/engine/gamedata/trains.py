"""Train types and phases (``trains.yaml``, ``phases.yaml``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from desk18xx.engine.gamedata.yamlnode import (
    Node,
    items,
    items_map,
    opt_int,
    opt_str,
    strs,
)
from desk18xx.engine.tiledef import Color


@dataclass(frozen=True, slots=True)
class DistancePart:
    """Part of a multi-part train distance (18xx.games ``distance`` list)."""

    nodes: tuple[str, ...]
    """Stop kinds counted by this part: ``city``, ``town``, ``offboard``, ``grain_elevator``."""
    pay: int
    """How many of these stops may be counted for revenue."""
    visit: int
    """How many may be visited (99: any number)."""


#: A train's reach: a number of stops, or parts (1867 towns are free fillers, 5+5E, L).
Distance = int | tuple[DistancePart, ...]


@dataclass(frozen=True, slots=True)
class TrainVariant:
    """The other face of a double-sided train (1822CA L/2, 7/E)."""

    name: str
    distance: Distance
    price: int
    rusts_on: str | None = None
    obsolete_on: str | None = None
    available_on: str | None = None
    multiplier: int = 1


@dataclass(frozen=True, slots=True)
class TrainDef:
    """A train type in the depot."""

    name: str
    distance: Distance
    price: int
    num: int | None
    """Copies in the depot; None = unlimited."""
    rusts_on: str | None = None
    """Train name whose first purchase rusts this one."""
    obsolete_on: str | None = None
    available_on: str | None = None
    """Phase from which it may be bought (1867 2+2 and 5+5E: ``"8"``)."""
    multiplier: int = 1
    """Revenue multiplier (1867 2+2 and 5+5E, 1822CA E)."""
    events: tuple[str, ...] = ()
    """Events fired when the first one is bought."""
    discount: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    """Trade-in value by train name (1867 phase 8)."""
    variants: tuple[TrainVariant, ...] = ()


@dataclass(frozen=True, slots=True)
class PhaseDef:
    """A game phase."""

    name: str
    on: tuple[str, ...]
    """Train names whose first purchase starts the phase (empty: the starting phase)."""
    train_limit: Mapping[str, int]
    """By corporation type (``minor``, ``major``); a missing type may own no trains."""
    tiles: tuple[Color, ...]
    operating_rounds: int
    status: tuple[str, ...] = ()

    def train_limit_for(self, corp_type: str) -> int:
        """The train limit of ``corp_type`` in this phase (0 when not listed)."""
        return self.train_limit.get(corp_type, 0)


def _distance(node: Node) -> Distance:
    if isinstance(node.value, list):
        parts = []
        for part in node.as_list():
            part.only("nodes", "pay", "visit")
            parts.append(DistancePart(strs(part, "nodes"), part.get("pay").as_int(),
                                      part.get("visit").as_int()))
        return tuple(parts)
    return node.as_int()


def parse_train(node: Node) -> TrainDef:
    """One entry of ``trains.yaml``."""
    node.only("name", "distance", "price", "num", "rusts_on", "obsolete_on", "available_on",
              "multiplier", "events", "discount", "variants")
    num = node.get("num")
    variants = []
    for v in items(node, "variants"):
        v.only("name", "distance", "price", "rusts_on", "obsolete_on", "available_on",
               "multiplier")
        variants.append(TrainVariant(
            name=v.get("name").as_str(), distance=_distance(v.get("distance")),
            price=v.get("price").as_int(), rusts_on=opt_str(v, "rusts_on"),
            obsolete_on=opt_str(v, "obsolete_on"), available_on=opt_str(v, "available_on"),
            multiplier=opt_int(v, "multiplier", 1)))
    return TrainDef(
        name=node.get("name").as_str(),
        distance=_distance(node.get("distance")),
        price=node.get("price").as_int(),
        num=None if num.value == "unlimited" else num.as_int(),
        rusts_on=opt_str(node, "rusts_on"),
        obsolete_on=opt_str(node, "obsolete_on"),
        available_on=opt_str(node, "available_on"),
        multiplier=opt_int(node, "multiplier", 1),
        events=strs(node, "events"),
        discount=MappingProxyType({k: v.as_int() for k, v in items_map(node, "discount")}),
        variants=tuple(variants),
    )


def parse_phase(node: Node) -> PhaseDef:
    """One entry of ``phases.yaml``."""
    node.only("name", "on", "train_limit", "tiles", "operating_rounds", "status")
    return PhaseDef(
        name=node.get("name").as_str(),
        on=strs(node, "on"),
        train_limit=MappingProxyType(
            {k: v.as_int() for k, v in node.get("train_limit").items()}),
        tiles=tuple(n.enum_color() for n in node.get("tiles").as_list()),
        operating_rounds=node.get("operating_rounds").as_int(),
        status=strs(node, "status"),
    )
