"""The stock market(s) of a title (``market.yaml``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from desk18xx.engine.gamedata.yamlnode import Node, items_map, strs


@dataclass(frozen=True, slots=True)
class MarketCell:
    """One space of a stock market."""

    price: int
    types: tuple[str, ...] = ()
    """18xx.games share-price types: ``par``, ``par_1``, ``par_2``, ``no_cert_limit``
    (1822CA yellow zone), ``endgame``, ``max_price``, ``convert_range`` …"""

    def is_type(self, name: str) -> bool:
        """True when the cell carries the type ``name``."""
        return name in self.types


@dataclass(frozen=True, slots=True)
class MarketGrid:
    """A market layout: rows of cells, ``None`` where there is no space.

    A one-row grid is a column (1-D) market; 1867's grid market has 10 rows.
    """

    name: str
    rows: tuple[tuple[MarketCell | None, ...], ...]

    def cell(self, row: int, column: int) -> MarketCell | None:
        """The cell at ``(row, column)``, None outside the grid or on a gap."""
        if 0 <= row < len(self.rows) and 0 <= column < len(self.rows[row]):
            return self.rows[row][column]
        return None


@dataclass(frozen=True, slots=True)
class CellType:
    """Display of a share-price type (legend colour and text)."""

    color: str
    text: str


@dataclass(frozen=True, slots=True)
class MarketDef:
    """The stock market(s) of a title."""

    markets: Mapping[str, MarketGrid]
    """``"main"`` (1822CA), or ``"column"`` and ``"grid"`` (1867)."""
    default: str
    optional_rules: Mapping[str, str]
    """Optional rule → market used instead of the default (1867 ``grid_market``)."""
    cell_types: Mapping[str, CellType]
    cert_limit_types: tuple[str, ...]
    multiple_buy_types: tuple[str, ...]

    def grid(self, optional_rules: Iterable[str] = ()) -> MarketGrid:
        """The market in use with these optional rules."""
        for rule in optional_rules:
            if rule in self.optional_rules:
                return self.markets[self.optional_rules[rule]]
        return self.markets[self.default]


def parse_market(root: Node) -> MarketDef:
    """The content of ``market.yaml``."""
    root.only("default", "optional_rules", "markets", "cell_types", "cert_limit_types",
              "multiple_buy_types")
    markets: dict[str, MarketGrid] = {}
    for name, node in root.get("markets").items():
        node.only("rows")
        rows = []
        for row in node.get("rows").as_list():
            cells: list[MarketCell | None] = []
            for cell in row.as_list():
                if cell.value is None:
                    cells.append(None)
                elif isinstance(cell.value, dict):
                    cell.only("price", "types")
                    cells.append(MarketCell(cell.get("price").as_int(), strs(cell, "types")))
                else:
                    cells.append(MarketCell(cell.as_int()))
            rows.append(tuple(cells))
        markets[name] = MarketGrid(name, tuple(rows))
    default = root.get("default")
    if default.as_str() not in markets:
        default.fail(f"no market named {default.value!r}")
    rules = {k: v.as_str() for k, v in items_map(root, "optional_rules")}
    types = {}
    for name, node in root.get("cell_types").items():
        node.only("color", "text")
        types[name] = CellType(node.get("color").as_str(), node.get("text").as_str())
    return MarketDef(
        markets=MappingProxyType(markets),
        default=default.as_str(),
        optional_rules=MappingProxyType(rules),
        cell_types=MappingProxyType(types),
        cert_limit_types=strs(root, "cert_limit_types"),
        multiple_buy_types=strs(root, "multiple_buy_types"),
    )
