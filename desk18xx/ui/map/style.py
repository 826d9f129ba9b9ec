"""Colours and sizes of the drawn map, as 18xx.games shows them (``lib/hex.rb``).

Plain strings, no Qt: the painter turns them into ``QColor``.
"""

from __future__ import annotations

from typing import Final

from desk18xx.engine.tiledef import Color

#: Hex fill by tile colour (18xx.games ``Lib::Hex::COLOR``).
TILE_COLORS: Final[dict[Color, str]] = {
    Color.WHITE: "#EAE0C8",
    Color.YELLOW: "#fde900",
    Color.GREEN: "#71bf44",
    Color.BROWN: "#cb7745",
    Color.GRAY: "#bcbdc0",
    Color.RED: "#ec232a",
    Color.BLUE: "#35A7FF",
}

TRACK: Final = "#000000"
OUTLINE: Final = "#4d4d4d"
CITY_FILL: Final = "#ffffff"
IMPASSABLE: Final = "#d90000"
WATER_BORDER: Final = "#1f6fd1"
MOUNTAIN: Final = "#9b5d2e"
HILL: Final = "#7c8f3a"
WATER: Final = "#1f6fd1"
SWAMP: Final = "#3b7d3b"
PORT: Final = "#1c3f7a"
ELEVATOR: Final = "#8a6d3b"
BACKGROUND: Final = "#ffffff"
COORD_TEXT: Final = "#333333"
FONT_FAMILY: Final = "DejaVu Sans"


def text_color_for(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (``#rrggbb`` only; else white)."""
    if len(fill) != 7 or not fill.startswith("#"):
        return "#ffffff"
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"
