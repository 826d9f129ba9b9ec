"""What the map needs to know about a board: a small read-only protocol.

The renderer never looks at the rules engine.  A live game's board (landing
as ``desk18xx/engine/map/board.py``) only has to offer :class:`BoardView`:
for each hex its printed :class:`HexDef`, the tile now on it, the rotation,
and the tokens, reservations and markers to draw.  :class:`StaticHex` and
:class:`StaticBoard` are plain frozen implementations, used for the
starting board (see :mod:`desk18xx.ui.map.starting`) and in tests.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from desk18xx.engine.tiledef import COLOR_ORDER, BorderDef, FutureLabel, HexDef, TileDef


class MarkKind(StrEnum):
    """What a round mark on the map stands for."""

    TOKEN = "token"
    """A corporation's station token."""
    NEUTRAL = "neutral"
    """A neutral token (1867 CN)."""
    BLOCKER = "blocker"
    """A token or company that blocks (1822CA DD, 1867 private blocking a hex)."""
    DESTINATION = "destination"
    """A corporation's destination marker."""


@dataclass(frozen=True, slots=True)
class Mark:
    """A token or marker: who owns it and how to colour it."""

    owner: str
    """Corporation or company id, drawn as text ("CN", "GT", "DD", "3")."""
    fill: str = "#808080"
    """Fill colour: ``#rrggbb`` or an SVG colour name."""
    text: str = "#ffffff"
    """Colour of the owner text."""
    kind: MarkKind = MarkKind.TOKEN


@dataclass(frozen=True, slots=True)
class PlacedMark:
    """A marker not inside a token slot, or drawn in a given slot (city, slot)."""

    mark: Mark
    city: int | None = None
    """Index into the tile's cities (not nodes), or None for loose markers."""
    slot: int | None = None
    loc: str | None = None
    """18xx.games ``loc`` hint for loose markers."""


class HexState(Protocol):
    """One hex as the map draws it."""

    @property
    def hex(self) -> HexDef:
        """The printed hex (id, location name, printed content)."""

    @property
    def tile(self) -> TileDef:
        """The tile now on the hex (the printed content if none was laid)."""

    @property
    def rotation(self) -> int:
        """Rotation of ``tile``, 0-5 clockwise sixths."""

    @property
    def borders(self) -> Sequence[BorderDef]:
        """Borders now on the hex, by absolute edge (paid rivers disappear)."""

    @property
    def future_label(self) -> FutureLabel | None:
        """The label the hex will need at a later colour (printed reminder)."""

    @property
    def tokens(self) -> Sequence[Sequence[Mark | None]]:
        """Per city (in city order), per slot: the token there, or None."""

    @property
    def reservations(self) -> Sequence[Sequence[str | None]]:
        """Per city, per slot: the corporation holding a home reservation, or None."""

    @property
    def hex_reservations(self) -> Sequence[str]:
        """Reservations on the whole hex (no slot given)."""

    @property
    def marks(self) -> Sequence[PlacedMark]:
        """Blockers and destination markers."""


class BoardView(Protocol):
    """A board the map can draw."""

    def hex_states(self) -> Iterable[HexState]:
        """Every hex of the board, in a stable order."""


@dataclass(frozen=True, slots=True)
class StaticHex:
    """A frozen :class:`HexState`."""

    hex: HexDef
    tile: TileDef
    rotation: int = 0
    tokens: tuple[tuple[Mark | None, ...], ...] = ()
    reservations: tuple[tuple[str | None, ...], ...] = ()
    hex_reservations: tuple[str, ...] = ()
    marks: tuple[PlacedMark, ...] = ()
    current_borders: tuple[BorderDef, ...] | None = None
    """Borders now on the hex; None means the printed ones."""

    @property
    def borders(self) -> tuple[BorderDef, ...]:
        """``current_borders``, or the printed borders of the hex."""
        if self.current_borders is not None:
            return self.current_borders
        return self.hex.tile.borders

    @property
    def future_label(self) -> FutureLabel | None:
        """The printed future label while the tile is of an earlier colour."""
        label = self.hex.tile.future_label
        if label is None or label.color not in COLOR_ORDER or self.tile.color not in COLOR_ORDER:
            return label
        if COLOR_ORDER.index(self.tile.color) >= COLOR_ORDER.index(label.color):
            return None
        return label


@dataclass(frozen=True, slots=True)
class StaticBoard:
    """A frozen :class:`BoardView` over a mapping of hex id to :class:`StaticHex`."""

    hexes: Mapping[str, StaticHex]

    def hex_states(self) -> Iterable[HexState]:
        """The hexes in the mapping's order."""
        return self.hexes.values()


def printed_board(hexes: Mapping[str, HexDef]) -> StaticBoard:
    """A board showing only the printed hexes, no tokens or markers."""
    return StaticBoard({hid: printed_hex(h) for hid, h in hexes.items()})


def printed_hex(hex_def: HexDef) -> StaticHex:
    """A hex with its printed tile, borders and future label, nothing on it."""
    return StaticHex(hex_def, hex_def.tile)
