"""Typed identifiers (18xx.games spellings)."""

from typing import NewType

HexId = NewType("HexId", str)
"""A hex on the board, e.g. ``"L12"`` (letter column, doubled row number)."""
TileId = NewType("TileId", str)
"""One physical tile: manifest name and copy index, e.g. ``"57-0"``."""
TileName = NewType("TileName", str)
"""A manifest entry, e.g. ``"57"`` or ``"X1"``."""
TrainId = NewType("TrainId", str)
"""One train: type and copy index, e.g. ``"2-0"``."""
CorpId = NewType("CorpId", str)
"""A corporation (minor, major, national), e.g. ``"CPR"``, ``"M3"``."""
CompanyId = NewType("CompanyId", str)
"""A private company or concession, e.g. ``"C&SL"``, ``"P14"``."""
PlayerId = NewType("PlayerId", str)
"""A player, as the string form of the export's numeric id."""
