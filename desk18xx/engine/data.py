"""Load a title's game data from ``maps/<title>/*.yaml`` into frozen dataclasses.

The public API: :func:`load_title`, :func:`maps_dir`, :data:`TITLE_IDS` and
:class:`TitleData`, and every dataclass of the data, re-exported from
:mod:`desk18xx.engine.gamedata` (one module per file kind).  Every malformed
node is reported as :class:`~desk18xx.engine.errors.DataError` naming the file
and the key path (``hexes.L12.nodes[2].city.slots: expected int``).  The YAML
schema is described in ``maps/README.md``.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from desk18xx.engine.errors import DataError
from desk18xx.engine.gamedata.config import (
    CompanyTrain,
    ConstValue,
    OptionalRule,
    Rules1822CA,
    Rules1867,
    TileLay,
    TitleConfig,
    parse_config,
)
from desk18xx.engine.gamedata.entities import (
    AbilityDef,
    AbilityValue,
    CompanyDef,
    CompanyKind,
    CorporationDef,
    CorpType,
    Destination,
    parse_company,
    parse_corporation,
)
from desk18xx.engine.gamedata.market import (
    CellType,
    MarketCell,
    MarketDef,
    MarketGrid,
    parse_market,
)
from desk18xx.engine.gamedata.tiles import parse_board, parse_manifest
from desk18xx.engine.gamedata.trains import (
    Distance,
    DistancePart,
    PhaseDef,
    TrainDef,
    TrainVariant,
    parse_phase,
    parse_train,
)
from desk18xx.engine.gamedata.yamlnode import Node, opt_str, read_yaml
from desk18xx.engine.tiledef import HexDef, ManifestTile

__all__ = [
    "MAPS_ENV",
    "TITLE_IDS",
    "AbilityDef",
    "AbilityValue",
    "CellType",
    "CompanyDef",
    "CompanyKind",
    "CompanyTrain",
    "ConstValue",
    "CorpType",
    "CorporationDef",
    "DataError",
    "Destination",
    "Distance",
    "DistancePart",
    "HexDef",
    "ManifestTile",
    "MarketCell",
    "MarketDef",
    "MarketGrid",
    "OptionalRule",
    "PhaseDef",
    "Rules1822CA",
    "Rules1867",
    "TileLay",
    "TitleConfig",
    "TitleData",
    "TrainDef",
    "TrainVariant",
    "load_title",
    "maps_dir",
]

#: Title ids that :func:`load_title` accepts.
TITLE_IDS: tuple[str, ...] = ("1867", "1822CA", "1822CA-ERS", "1822CA-WRS")
#: Environment variable that overrides the ``maps/`` folder.
MAPS_ENV = "DESK18XX_MAPS"


def maps_dir() -> Path:
    """The folder holding ``<title>/*.yaml``.

    ``$DESK18XX_MAPS`` wins (the frozen bundles set it); otherwise
    ``desk18xx/maps`` inside the package (an installed wheel: ``setup.py``
    copies ``maps/`` there), and finally ``maps/`` next to the package (the
    source tree and editable installs).  The package copy is tried first so
    that an unrelated top-level ``maps`` folder in ``site-packages`` is never
    taken for ours.
    """
    env = os.environ.get(MAPS_ENV)
    if env:
        return Path(env)
    package = Path(__file__).resolve().parents[1]
    for candidate in (package / "maps", package.parent / "maps"):
        if candidate.is_dir():
            return candidate
    return package.parent / "maps"


@dataclass(frozen=True, slots=True)
class TitleData:
    """Everything printed for one title, as loaded from ``maps/<id>/``."""

    id: str
    """Title id, e.g. ``"1867"`` or ``"1822CA-ERS"``."""
    name: str
    """Display name (18xx.games title, e.g. ``"1822CA ERS"``)."""
    layout: str
    """``"flat"`` (all four titles)."""
    hexes: Mapping[str, HexDef]
    """Every hex of the board, in source order."""
    tiles: Mapping[str, ManifestTile]
    """The tile manifest, in source order, keyed by tile name."""
    market: MarketDef
    trains: tuple[TrainDef, ...]
    """In depot order."""
    phases: tuple[PhaseDef, ...]
    companies: tuple[CompanyDef, ...]
    """In source order (1822CA: privates, concessions, minor certificates)."""
    corporations: tuple[CorporationDef, ...]
    config: TitleConfig

    def train(self, name: str) -> TrainDef:
        """The train type ``name``; raises KeyError."""
        for t in self.trains:
            if t.name == name:
                return t
        raise KeyError(name)

    def company(self, sym: str) -> CompanyDef:
        """The company ``sym``; raises KeyError."""
        for c in self.companies:
            if c.sym == sym:
                return c
        raise KeyError(sym)

    def corporation(self, sym: str) -> CorporationDef:
        """The corporation ``sym``; raises KeyError."""
        for c in self.corporations:
            if c.sym == sym:
                return c
        raise KeyError(sym)


def load_title(title_id: str) -> TitleData:
    """Load and validate the data of one title from :func:`maps_dir`.

    Args:
        title_id: one of :data:`TITLE_IDS`.

    Returns:
        The title's data, cached per title and maps folder (it is immutable).

    Raises:
        DataError: a file is missing or malformed, or the title is unknown.
    """
    return _load_title(title_id, maps_dir())


def _list_of(root: Node, key: str) -> list[Node]:
    root.only(key)
    return root.get(key).as_list()


@functools.lru_cache(maxsize=16)
def _load_title(title_id: str, root: Path) -> TitleData:
    folder = root / title_id
    if title_id not in TITLE_IDS or not folder.is_dir():
        raise DataError(str(folder), "<title>", f"unknown title {title_id!r}")
    title = read_yaml(folder / "title.yaml")
    tiles_from = opt_str(title, "tiles_from")
    tiles_path = (root / tiles_from if tiles_from else folder) / "tiles.yaml"
    board = read_yaml(folder / "map.yaml")
    layout, hexes = parse_board(board)
    trains_root = read_yaml(folder / "trains.yaml")
    phases_root = read_yaml(folder / "phases.yaml")
    companies_root = read_yaml(folder / "companies.yaml")
    corps_root = read_yaml(folder / "corporations.yaml")
    data = TitleData(
        id=title.get("id").as_str(),
        name=title.get("name").as_str(),
        layout=layout,
        hexes=MappingProxyType(hexes),
        tiles=MappingProxyType(parse_manifest(read_yaml(tiles_path))),
        market=parse_market(read_yaml(folder / "market.yaml")),
        trains=tuple(parse_train(n) for n in _list_of(trains_root, "trains")),
        phases=tuple(parse_phase(n) for n in _list_of(phases_root, "phases")),
        companies=tuple(parse_company(n) for n in _list_of(companies_root, "companies")),
        corporations=tuple(parse_corporation(n) for n in _list_of(corps_root, "corporations")),
        config=parse_config(title),
    )
    if data.id != title_id:
        title.get("id").fail(f"does not match folder {title_id!r}")
    _check_refs(data, trains_root, phases_root, corps_root, board)
    return data


def _check_refs(data: TitleData, trains: Node, phases: Node, corps: Node,
                board: Node) -> None:
    """Cross-file checks: names used in one file exist in the others."""
    train_names = {t.name for t in data.trains} | {v.name for t in data.trains
                                                   for v in t.variants}
    for t, node in zip(data.trains, trains.get("trains").as_list(), strict=True):
        for key in ("rusts_on", "obsolete_on"):
            ref = getattr(t, key)
            if ref is not None and ref not in train_names:
                node.get(key).fail(f"no train named {ref!r}")
    for p, node in zip(data.phases, phases.get("phases").as_list(), strict=True):
        for i, name in enumerate(p.on):
            if name not in train_names:
                Node(name, node.file, f"{node.key}.on[{i}]").fail(f"no train named {name!r}")
    for c, node in zip(data.corporations, corps.get("corporations").as_list(), strict=True):
        for i, hex_id in enumerate(c.home_hexes):
            if hex_id not in data.hexes:
                Node(hex_id, node.file, f"{node.key}.home.hexes[{i}]").fail(
                    f"no hex {hex_id!r} on the map")
        if c.destination is not None and c.destination.hex not in data.hexes:
            node.get("destination").get("hex").fail(f"no hex {c.destination.hex!r} on the map")
    corp_syms = {c.sym for c in data.corporations} | {"DD"}
    company_syms = {c.sym for c in data.companies}
    hexes = board.get("hexes")
    for hex_id, h in data.hexes.items():
        n_cities = len(h.tile.cities)
        for i, r in enumerate(h.reservations):
            key = f"{hex_id}.setup.reservations[{i}]"
            if r.entity not in corp_syms:
                Node(r.entity, hexes.file, f"{hexes.key}.{key}.entity").fail(
                    f"no corporation {r.entity!r}")
            if r.city is not None and not 0 <= r.city < n_cities:
                Node(r.city, hexes.file, f"{hexes.key}.{key}.city").fail(
                    f"hex has {n_cities} cities")
        for i, token in enumerate(h.tokens):
            if not 0 <= token.city < n_cities:
                Node(token.city, hexes.file, f"{hexes.key}.{hex_id}.setup.tokens[{i}].city").fail(
                    f"hex has {n_cities} cities")
        for i, b in enumerate(h.blockers):
            if b not in company_syms:
                Node(b, hexes.file, f"{hexes.key}.{hex_id}.setup.blockers[{i}]").fail(
                    f"no company {b!r}")
