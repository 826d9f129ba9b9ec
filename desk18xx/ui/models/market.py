"""Market cells of a game for :class:`~desk18xx.ui.docks.market.MarketWidget`."""

from __future__ import annotations

from dataclasses import dataclass

from desk18xx.engine.game import Game
from desk18xx.engine.market import CellType


@dataclass(frozen=True, slots=True)
class MarketCellView:
    """One market space as drawn."""

    row: int
    col: int
    price: int
    color: str
    tokens: tuple[tuple[str, str, str], ...] = ()
    """(corporation, fill, text colour), first placed first."""


_CELL_COLORS = {
    CellType.PAR: "#c8f0c8",
    CellType.PAR_1: "#fff3a0",
    CellType.PAR_2: "#f8c8f8",
    CellType.CONVERT_RANGE: "#c8e0ff",
    CellType.MAX_PRICE: "#ffc8c8",
}


def market_cells(game: Game, colors: dict[str, tuple[str, str]]) -> list[MarketCellView]:
    """Every space with its tokens in stacking order (first placed first)."""
    out = []
    for cell in game.view().market():
        color = "#f4f4f4"
        for t in sorted(cell.types, key=str):
            color = _CELL_COLORS.get(t, color)
        tokens = tuple((c, *colors.get(c, ("#888888", "#ffffff"))) for c in cell.corporations)
        out.append(MarketCellView(cell.row, cell.col, cell.price, color, tokens))
    return out
