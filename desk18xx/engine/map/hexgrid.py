"""Hex coordinates, neighbours and edge geometry for the flat layout.

All four titles use 18xx.games' flat layout: the hex has flat top and bottom
sides, the letter is the column and the number the row in doubled coordinates
(each column uses only odd or only even rows).  Edge 0 is the bottom side and
edges go clockwise as seen on screen: 0 S, 1 SW, 2 NW, 3 N, 4 NE, 5 SE.

Pure maths, no Qt: the renderer and the engine share it.
"""

from __future__ import annotations

import functools
import math
import re
from typing import Final, NamedTuple

from desk18xx.engine.ids import HexId

_HEX_RE: Final = re.compile(r"^([A-Za-z]+)(-?\d+)$")

#: (column delta, row delta) across each edge, indexed by edge number.
EDGE_DELTAS: Final[tuple[tuple[int, int], ...]] = (
    (0, 2),    # 0 S
    (-1, 1),   # 1 SW
    (-1, -1),  # 2 NW
    (0, -2),   # 3 N
    (1, -1),   # 4 NE
    (1, 1),    # 5 SE
)

SQRT3: Final = math.sqrt(3.0)


class Coord(NamedTuple):
    """A hex position: column index (A = 0, ``a`` = -1) and doubled row."""

    col: int
    row: int


def column_index(letters: str) -> int:
    """Column number of a column name: A=0 … Z=25, AA=26 …; a=-1, b=-2 …."""
    if letters.islower():
        return -(ord(letters) - ord("a") + 1) if len(letters) == 1 else _bad(letters)
    value = 0
    for ch in letters:
        if not "A" <= ch <= "Z":
            return _bad(letters)
        value = value * 26 + (ord(ch) - ord("A") + 1)
    return value - 1


def column_name(col: int) -> str:
    """Inverse of :func:`column_index`."""
    if col < 0:
        return chr(ord("a") - col - 1)
    name = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        name = chr(ord("A") + rem) + name
    return name


def _bad(letters: str) -> int:
    raise ValueError(f"not a hex column: {letters!r}")


@functools.lru_cache(maxsize=8192)
def parse_hex(hex_id: str) -> Coord:
    """Coordinates of a hex id such as ``"L12"`` or ``"a6"`` (cached: ids repeat).

    Raises:
        ValueError: the id is not of that form.
    """
    m = _HEX_RE.match(hex_id)
    if not m:
        raise ValueError(f"not a hex id: {hex_id!r}")
    return Coord(column_index(m.group(1)), int(m.group(2)))


def hex_name(coord: Coord) -> HexId:
    """The hex id of a coordinate."""
    return HexId(f"{column_name(coord.col)}{coord.row}")


def neighbour(coord: Coord, edge: int) -> Coord:
    """The coordinate across ``edge`` (0-5)."""
    dc, dr = EDGE_DELTAS[edge % 6]
    return Coord(coord.col + dc, coord.row + dr)


def neighbour_id(hex_id: str, edge: int) -> HexId:
    """The hex id across ``edge``, whether or not that hex is on the board."""
    return hex_name(neighbour(parse_hex(hex_id), edge))


def opposite(edge: int) -> int:
    """The edge of the neighbour that faces ``edge``."""
    return (edge + 3) % 6


def rotate_edge(edge: int, rotation: int) -> int:
    """Edge ``edge`` of a tile turned clockwise by ``rotation`` sixths."""
    return (edge + rotation) % 6


def edge_between(a: Coord, b: Coord) -> int | None:
    """The edge of ``a`` that touches ``b``, or None if they are not adjacent."""
    delta = (b.col - a.col, b.row - a.row)
    try:
        return EDGE_DELTAS.index(delta)
    except ValueError:
        return None


def distance(a: Coord, b: Coord) -> int:
    """Number of hex steps between two hexes (doubled-height coordinates)."""
    dc = abs(a.col - b.col)
    dr = abs(a.row - b.row)
    return dc + max(0, (dr - dc) // 2)


# --- geometry (screen coordinates: x right, y down; ``size`` = centre to corner)


def center(coord: Coord, size: float) -> tuple[float, float]:
    """Pixel centre of a hex."""
    return (coord.col * 1.5 * size, coord.row * SQRT3 / 2 * size)


def edge_angle(edge: int) -> float:
    """Screen angle in radians from the centre to the middle of ``edge``."""
    return math.radians(90 + 60 * edge)


def edge_midpoint(edge: int, size: float) -> tuple[float, float]:
    """Middle of ``edge`` relative to the hex centre."""
    r = size * SQRT3 / 2
    a = edge_angle(edge)
    return (r * math.cos(a), r * math.sin(a))


def corner(index: int, size: float) -> tuple[float, float]:
    """Corner between edge ``index`` and edge ``index + 1``, relative to the centre."""
    a = math.radians(120 + 60 * index)
    return (size * math.cos(a), size * math.sin(a))


def corners(size: float) -> list[tuple[float, float]]:
    """The six corners of a hex relative to its centre, clockwise from SW of edge 0."""
    return [corner(i, size) for i in range(6)]


def loc_offset(loc: str | float | None, size: float, fraction: float = 0.55) -> tuple[float, float]:
    """Drawing offset for an 18xx.games ``loc`` value (edge number, ``x.5`` corner or centre)."""
    if loc is None or loc == "center":
        return (0.0, 0.0)
    value = float(loc)
    a = math.radians(90 + 60 * value)
    r = size * SQRT3 / 2 * fraction
    return (r * math.cos(a), r * math.sin(a))
