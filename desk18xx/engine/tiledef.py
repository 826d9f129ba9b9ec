"""Typed, frozen description of track content: printed hexes and manifest tiles.

A printed hex and a manifest tile have the same structure (18xx.games uses one
tile-code language for both), so both are a :class:`TileDef`.  Nodes are
numbered from 0 in the order they appear; a path joins two ends, each an edge
(0-5, at rotation 0) or a node index.  See ``maps/README.md`` for the YAML
form and ``../shared/reference/data/README.md`` for the 18xx.games meaning.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum


class Color(StrEnum):
    """Tile and hex colours."""

    WHITE = "white"
    YELLOW = "yellow"
    GREEN = "green"
    BROWN = "brown"
    GRAY = "gray"
    RED = "red"
    BLUE = "blue"


#: Upgrade order of the colours that can be laid.
COLOR_ORDER: tuple[Color, ...] = (Color.WHITE, Color.YELLOW, Color.GREEN, Color.BROWN, Color.GRAY)


class NodeKind(StrEnum):
    """What a node on a tile is."""

    CITY = "city"
    TOWN = "town"
    OFFBOARD = "offboard"
    JUNCTION = "junction"


@dataclass(frozen=True, slots=True)
class Revenue:
    """A stop's revenue: one number, or one per phase colour.

    ``by_color`` is ordered as written (yellow, green, brown, gray); the value
    in a phase is that of the last colour of the phase's tile colours that is
    present (18xx.games rule, see the data README).
    """

    flat: int = 0
    by_color: tuple[tuple[Color, int], ...] = ()

    def value(self, phase_colors: Sequence[Color]) -> int:
        """Revenue in a phase whose tiles are ``phase_colors``."""
        if not self.by_color:
            return self.flat
        table = dict(self.by_color)
        for color in reversed(phase_colors):
            if color in table:
                return table[color]
        return self.by_color[0][1]


@dataclass(frozen=True, slots=True)
class NodeDef:
    """A city, town, off-board area or junction on a tile."""

    kind: NodeKind
    revenue: Revenue = Revenue()
    slots: int = 0
    """Token spaces (cities; 0 for the other kinds)."""
    groups: tuple[str, ...] = ()
    """A route may visit only one stop per group (big cities, Detroit)."""
    visit_cost: int = 1
    """Train range used by a visit; 99 makes the stop unusable."""
    hidden: bool = False
    """Off-board revenue not drawn (second hex of a two-hex area)."""
    loc: str | None = None
    """Drawing position only: ``"0"``-``"5"``, ``"x.5"`` or ``"center"``."""


@dataclass(frozen=True, slots=True)
class PathEnd:
    """One end of a path: an edge (0-5) or a node index."""

    edge: int | None = None
    node: int | None = None

    @property
    def is_edge(self) -> bool:
        """True when this end is a hex edge."""
        return self.edge is not None


@dataclass(frozen=True, slots=True)
class PathDef:
    """A piece of track between two ends."""

    a: PathEnd
    b: PathEnd
    terminal: bool = False
    """A route may end on this path but never pass through it."""
    lanes: int = 1


@dataclass(frozen=True, slots=True)
class UpgradeCost:
    """Cost of laying on this hex (printed) or of replacing this tile."""

    cost: int
    terrains: tuple[str, ...] = ()
    loc: str | None = None


@dataclass(frozen=True, slots=True)
class BorderDef:
    """A feature on one edge: impassable, a river with a cost, or a hidden outline."""

    edge: int
    type: str | None = None
    """``"impassable"``, ``"water"``, or None (outline not drawn, no rules effect)."""
    cost: int = 0


@dataclass(frozen=True, slots=True)
class IconDef:
    """A picture on the hex (port, elevator, …); ``sticky`` keeps it on upgrade."""

    image: str
    sticky: bool = False
    loc: str | None = None

    @property
    def name(self) -> str:
        """Last path segment of the image, e.g. ``"port"``."""
        return self.image.rsplit("/", 1)[-1]


@dataclass(frozen=True, slots=True)
class FutureLabel:
    """The label a hex must carry once upgraded to ``color``."""

    label: str
    color: Color


@dataclass(frozen=True, slots=True)
class TileDef:
    """Track content of a printed hex or of a manifest tile (at rotation 0)."""

    name: str
    color: Color
    nodes: tuple[NodeDef, ...] = ()
    paths: tuple[PathDef, ...] = ()
    label: str | None = None
    upgrades: tuple[UpgradeCost, ...] = ()
    borders: tuple[BorderDef, ...] = ()
    stubs: tuple[int, ...] = ()
    icons: tuple[IconDef, ...] = ()
    future_label: FutureLabel | None = None

    @property
    def exits(self) -> frozenset[int]:
        """Edges with track at rotation 0."""
        out: set[int] = set()
        for p in self.paths:
            for end in (p.a, p.b):
                if end.edge is not None:
                    out.add(end.edge)
        return frozenset(out)

    @property
    def cities(self) -> tuple[NodeDef, ...]:
        """The city nodes, in node order."""
        return tuple(n for n in self.nodes if n.kind is NodeKind.CITY)

    @property
    def towns(self) -> tuple[NodeDef, ...]:
        """The town nodes, in node order."""
        return tuple(n for n in self.nodes if n.kind is NodeKind.TOWN)


@dataclass(frozen=True, slots=True)
class ManifestTile:
    """A manifest entry: the tile and how many copies exist (None = unlimited)."""

    tile: TileDef
    count: int | None
    hidden: bool = False
    """Not shown in the manifest (laid by an event, e.g. 1822CA DD tiles)."""
    box_count: int | None = None
    """Physical supply printed for an unlimited tile (1867 card: 7, 8, 9)."""


@dataclass(frozen=True, slots=True)
class Reservation:
    """A home reservation added at setup (18xx.games ``hex_extras``)."""

    entity: str
    """Corporation id (minor or major)."""
    city: int | None = None
    """Index into the hex's cities; None reserves the whole hex."""
    slot: int | None = None


@dataclass(frozen=True, slots=True)
class SetupToken:
    """A token on the board at setup (1867 CN neutral tokens, 1822CA ``DD`` blockers)."""

    corporation: str
    city: int
    slot: int
    type: str = "normal"
    """``"normal"`` or ``"neutral"``."""
    price: int = 0


@dataclass(frozen=True, slots=True)
class SetupIcon:
    """A marker drawn at setup, e.g. a 1822CA destination icon."""

    name: str
    image: str
    owner: str | None = None
    city: int | None = None
    """City index when drawn in a token slot (with ``slot``)."""
    slot: int | None = None
    loc: str | None = None


@dataclass(frozen=True, slots=True)
class HexDef:
    """One hex of a board as printed, plus what setup adds to it."""

    id: str
    tile: TileDef
    location_name: str | None = None
    markers: frozenset[str] = field(default_factory=frozenset)
    """Title-specific marks (``"timmins"``, ``"elevator"``, ``"port_west"`` …)."""
    reservations: tuple[Reservation, ...] = ()
    tokens: tuple[SetupToken, ...] = ()
    blockers: tuple[str, ...] = ()
    """Companies whose ability blocks tile lays here (1867: ``"3"`` on M13)."""
    setup_icons: tuple[SetupIcon, ...] = ()
    tile_id: str | None = None
    """18xx.games id of the printed tile (``"N12-6"``, export format §6.3).

    ``maps/`` gives it for every hex; None (hexes built in code): the board computes it.
    """

    @property
    def color(self) -> Color:
        """Printed colour of the hex."""
        return self.tile.color
