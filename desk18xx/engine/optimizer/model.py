"""The optimizer's view of a position: stops, track segments between them, trains.

Board-independent and title-independent: an adapter (:mod:`.adapters`) turns a
replayed game into a :class:`Problem`; a :class:`TitleScoring` prices the
stops a route visits.  Track between two stops is contracted into a
:class:`Segment` (one way over plain track from stop to stop), so a route is
an alternating sequence stop, segment, stop, ... .
"""

from __future__ import annotations

from dataclasses import dataclass, field

CITY = "city"
TOWN = "town"
OFFBOARD = "offboard"


@dataclass(frozen=True, slots=True)
class Stop:
    """A node a route can visit."""

    index: int
    hex: str
    node: int
    kind: str
    """``city``, ``town`` or ``offboard``."""
    revenue: int
    """Printed value in the current phase."""
    tokened: bool
    """The operating company has a token here."""
    passable: bool
    """A route may pass through (not an off-board, not a city full of others' tokens)."""
    hex_bit: int
    """``1 << hex number`` (one stop per hex, no hex twice)."""
    groups: tuple[str, ...] = ()
    """Stops in one group may not both be on a route (1822CA Detroit, Chicago ...)."""
    cost: int = 1
    """Distance used by a visit (``visit_cost``)."""

    @property
    def signature(self) -> str:
        """18xx.games node signature ``"L12-0"``."""
        return f"{self.hex}-{self.node}"


@dataclass(frozen=True, slots=True)
class Segment:
    """Track from one stop to another over plain track only."""

    index: int
    a: int
    b: int
    hexes: tuple[str, ...]
    """Hex chain from ``a``'s hex to ``b``'s hex (18xx.games ``connections`` entry)."""
    track: int
    """Bit set of the track pieces used (two routes may not share one)."""
    passed: int
    """Hex bits of the hexes strictly between the two stops."""
    terminal_a: bool = False
    """The route may not pass through stop ``a`` when it uses this segment."""
    terminal_b: bool = False

    def other(self, stop: int) -> int:
        """The far stop seen from ``stop``."""
        return self.b if stop == self.a else self.a

    def chain_from(self, stop: int) -> tuple[str, ...]:
        """Hex chain oriented from ``stop``."""
        return self.hexes if stop == self.a else tuple(reversed(self.hexes))

    def terminal_at(self, stop: int) -> bool:
        """True when a route may only end at ``stop`` on this segment."""
        return self.terminal_a if stop == self.a else self.terminal_b


@dataclass(frozen=True, slots=True)
class TrainSpec:
    """A train of the operating company, as the title's scoring sees it."""

    id: str
    name: str
    distance: int
    multiplier: int = 1
    kind: str = "normal"
    """Title-defined (1867: ``normal`` or ``express``)."""


@dataclass(slots=True)
class Problem:
    """One company's routing problem."""

    corp: str
    stops: tuple[Stop, ...]
    segments: tuple[Segment, ...]
    trains: tuple[TrainSpec, ...]
    hex_ids: tuple[str, ...]
    adjacency: tuple[tuple[int, ...], ...] = ()
    """Per stop: indexes of the segments touching it (filled by :meth:`finish`)."""
    info: dict[str, object] = field(default_factory=dict)
    n_track: int = 0
    """Track bits in use (segments' ``track`` lie below ``1 << n_track``); 0: compute."""

    def finish(self) -> Problem:
        """Fill :attr:`adjacency` (sorted for determinism)."""
        adj: list[list[int]] = [[] for _ in self.stops]
        for seg in self.segments:
            adj[seg.a].append(seg.index)
            if seg.b != seg.a:
                adj[seg.b].append(seg.index)
        self.adjacency = tuple(tuple(sorted(x)) for x in adj)
        if not self.n_track:
            bits = 0
            for seg in self.segments:
                bits |= seg.track
            self.n_track = bits.bit_length()
        return self


@dataclass(frozen=True, slots=True)
class PlannedRoute:
    """One train's route in a solution."""

    train: str
    stops: tuple[int, ...]
    """Stops in travel order."""
    segments: tuple[int, ...]
    """Segments in travel order (``len(stops) - 1`` of them)."""
    revenue: int

    def connections(self, problem: Problem) -> list[list[str]]:
        """18xx.games ``connections``: one hex chain per segment, in travel order."""
        if len(self.stops) == 1:
            return [["local", problem.stops[self.stops[0]].hex]]
        out: list[list[str]] = []
        for stop, seg in zip(self.stops, self.segments, strict=False):
            out.append(list(problem.segments[seg].chain_from(stop)))
        return out

    def hexes(self, problem: Problem) -> list[str]:
        """Hexes of the stops in travel order."""
        return [problem.stops[s].hex for s in self.stops]
