"""The stock market: cells, tokens on cells and their movement.

Movement follows the reference engine (18xx ``stock_market.rb``,
``stock_movement.rb``): a one-row market moves left/right, "down" = left and
"up" = right; a grid moves left/right within a row and up/down within a
column, with the fall-backs of ``TwoDimensionalMovement``.  Titles adjust
"up" and "right" through :class:`MarketHooks`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from desk18xx.engine.errors import IllegalAction


class UnknownCell(IllegalAction, KeyError):
    """A market cell id that names no cell (refused like any illegal action)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class CellType(StrEnum):
    """Market cell marks (18xx ``share_price.rb`` TYPE_MAP letters)."""

    PAR = "par"  # p
    PAR_1 = "par_1"  # x (1867: minors only)
    PAR_2 = "par_2"  # z (1867: majors only)
    CONVERT_RANGE = "convert_range"  # C
    MAX_PRICE = "max_price"  # m


_LETTERS = {"p": CellType.PAR, "x": CellType.PAR_1, "z": CellType.PAR_2,
            "C": CellType.CONVERT_RANGE, "m": CellType.MAX_PRICE}

Coord = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Cell:
    """One space of the market."""

    price: int
    row: int
    col: int
    types: frozenset[CellType] = frozenset()

    @property
    def id(self) -> str:
        """18xx.games share-price id ``"price,row,column"``."""
        return f"{self.price},{self.row},{self.col}"

    @property
    def coord(self) -> Coord:
        """(row, column)."""
        return (self.row, self.col)


def parse_market(rows: Sequence[Sequence[str]]) -> dict[Coord, Cell]:
    """Cells from the 18xx market notation (``"100pC"``, ``""`` = no cell)."""
    cells: dict[Coord, Cell] = {}
    for r, row in enumerate(rows):
        for c, code in enumerate(row):
            if not code:
                continue
            digits = "".join(ch for ch in code if ch.isdigit())
            types = frozenset(_LETTERS[ch] for ch in code if ch in _LETTERS)
            cells[(r, c)] = Cell(int(digits), r, c, types)
    return cells


@dataclass
class Market:
    """Cells and which corporations sit on them, in arrival order."""

    cells: dict[Coord, Cell]
    row_sizes: tuple[int, ...]
    minor_max_stays: bool = True
    """1867: a minor on a ``max_price`` cell does not move right (thick border)."""
    major_top_row_up_right: bool = True
    """1867 grid: a major in row 0 moving up goes to (1, c+1)."""
    stacks: dict[Coord, list[str]] = field(default_factory=dict)
    """Corporations on each cell, first arrival first."""
    where: dict[str, Coord] = field(default_factory=dict)

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[str]]) -> Market:
        """Build from 18xx notation rows."""
        return cls(parse_market(rows), tuple(len(r) for r in rows))

    @property
    def one_d(self) -> bool:
        """True for a single-row market."""
        return len(self.row_sizes) == 1

    def __deepcopy__(self, memo: dict[int, object]) -> Market:
        """Deep copies (game snapshots) share the immutable cells."""
        return self.copy()

    def copy(self) -> Market:
        """Independent copy (cells are shared, they are immutable)."""
        return Market(self.cells, self.row_sizes, self.minor_max_stays,
                      self.major_top_row_up_right,
                      {k: list(v) for k, v in self.stacks.items()}, dict(self.where))

    # -- queries -------------------------------------------------------------------------
    def cell(self, corp: str) -> Cell | None:
        """The cell of ``corp`` (None when not on the market)."""
        coord = self.where.get(corp)
        return None if coord is None else self.cells[coord]

    def price(self, corp: str) -> int:
        """Current price of ``corp`` (0 when not on the market)."""
        cell = self.cell(corp)
        return 0 if cell is None else cell.price

    def by_id(self, cell_id: str) -> Cell:
        """Cell from its ``"price,row,column"`` id.

        Raises:
            UnknownCell: no such cell (an `IllegalAction` and a ``KeyError``).
        """
        try:
            _price, row, col = (int(x) for x in str(cell_id).split(","))
            return self.cells[(row, col)]
        except (KeyError, ValueError):
            raise UnknownCell(f"{cell_id!r} is not a space of the stock market") from None

    def cells_with(self, types: Iterable[CellType]) -> list[Cell]:
        """Cells carrying any of ``types``, highest price first (18xx order)."""
        wanted = set(types)
        found = [c for c in self.cells.values() if c.types & wanted]
        found.sort(key=lambda c: (-c.price, c.row, c.col))
        return found

    def order_key(self, corp: str, name: str) -> tuple[int, int, int, int, str]:
        """Operating-order key (18xx ``Corporation#sort_order_key``)."""
        coord = self.where[corp]
        cell = self.cells[coord]
        return (-cell.price, -cell.col, cell.row, self.stacks[coord].index(corp), name)

    # -- movement ------------------------------------------------------------------------
    def place(self, corp: str, coord: Coord) -> None:
        """Put ``corp`` on ``coord`` (par); it arrives last there."""
        self.remove(corp)
        self.where[corp] = coord
        self.stacks.setdefault(coord, []).append(corp)

    def remove(self, corp: str) -> None:
        """Take ``corp`` off the market."""
        old = self.where.pop(corp, None)
        if old is not None:
            self.stacks[old].remove(corp)

    def _move(self, corp: str, coord: Coord) -> None:
        if coord not in self.cells or self.where.get(corp) == coord:
            return
        self.place(corp, coord)

    def _exists(self, coord: Coord) -> bool:
        return coord in self.cells

    def _right(self, corp: str, minor: bool, coord: Coord) -> Coord:
        r, c = coord
        if minor and self.minor_max_stays and CellType.MAX_PRICE in self.cells[coord].types:
            return coord if self.one_d else self._up(corp, minor, coord)
        if self.one_d:
            return (r, c + 1) if c + 1 < self.row_sizes[r] else coord
        if c + 1 >= self.row_sizes[r]:
            return self._up(corp, minor, coord)
        return (r, c + 1)

    def _left(self, corp: str, minor: bool, coord: Coord) -> Coord:
        r, c = coord
        if self.one_d:
            return (r, c - 1) if c - 1 >= 0 else coord
        if c > 0 and self._exists((r, c - 1)):
            return (r, c - 1)
        return self._down(corp, minor, coord)

    def _up(self, corp: str, minor: bool, coord: Coord) -> Coord:
        if self.one_d:
            return self._right(corp, minor, coord)
        r, c = coord
        if r - 1 >= 0:
            return (r - 1, c)
        if not minor and self.major_top_row_up_right:
            return (r + 1, c + 1)
        return coord

    def _down(self, corp: str, minor: bool, coord: Coord) -> Coord:
        if self.one_d:
            return self._left(corp, minor, coord)
        r, c = coord
        return (r + 1, c) if r + 1 < len(self.row_sizes) else coord

    def relative(self, corp: str, minor: bool, moves: Iterable[str]) -> Cell:
        """The cell ``corp`` would reach after ``moves`` (``"left"`` …), without moving."""
        coord = self.where[corp]
        for move in moves:
            nxt = getattr(self, "_" + move)(corp, minor, coord)
            if nxt in self.cells:
                coord = nxt
        return self.cells[coord]

    def move(self, corp: str, minor: bool, direction: str) -> None:
        """Move one step: ``"left"``, ``"right"``, ``"up"`` or ``"down"``."""
        coord = self.where.get(corp)
        if coord is None:
            return
        step = {"left": self._left, "right": self._right, "up": self._up,
                "down": self._down}[direction]
        self._move(corp, step(corp, minor, coord))
