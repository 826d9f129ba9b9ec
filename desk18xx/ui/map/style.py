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


#: Company fills that differ from the printed (18xx.games) ones, so that no two companies
#: of a title look alike on the map, the market and the tables: 18xx.games gives 1867's
#: CV and KP one blue, CNR and NTR one green, BBG, LPS and SLA one grey, GTR and three
#: minors one orange. The majors keep their colours where they were distinct; the others
#: take the nearest colour of a maximum-contrast palette (Kelly's, and a few web colours)
#: at least :data:`MIN_COMPANY_DISTANCE` from every other company.
COMPANY_FILLS: Final[dict[str, dict[str, str]]] = {
    "1867": {
        "GWR": "#00008b",  # "darkBlue", as a number
        "NTR": "#556b2f", "CN": "#be0032",
        "CV": "#1e90ff", "KP": "#708090", "TGB": "#6a5acd", "TN": "#800000",
        "AE": "#f6a600", "CA": "#875692", "NO": "#b8860b", "PM": "#5fd3c7",
        "QLS": "#bc8f8f", "THB": "#f99379", "BBG": "#2b3d26", "LPS": "#c2b280",
        "SLA": "#b3446c",
    },
}
#: The smallest CIE76 colour difference (in CIELAB) between two companies of a title
#: that are told apart by colour (a just noticeable difference is about 2.3).
MIN_COMPANY_DISTANCE: Final = 15.0


def company_fill(title: str, corp: str, printed: str) -> str:
    """The fill a company is drawn with: ``printed`` unless the title's palette changes it
    (:data:`COMPANY_FILLS`; a scenario of a title uses the title's)."""
    fills = COMPANY_FILLS.get(title) or COMPANY_FILLS.get(title.split("-")[0], {})
    return fills.get(corp, printed)


def lab(fill: str) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB ``#rrggbb`` colour.

    Raises:
        ValueError: ``fill`` is not ``#rrggbb``.
    """
    if len(fill) != 7 or not fill.startswith("#"):
        raise ValueError(f"not a #rrggbb colour: {fill!r}")
    rgb = [int(fill[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return float(t ** (1 / 3)) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def colour_distance(a: str, b: str) -> float:
    """CIE76 difference of two ``#rrggbb`` colours (Euclidean in CIELAB)."""
    la, lb = lab(a), lab(b)
    return float(sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5)
