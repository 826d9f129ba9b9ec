"""How a title prices the stops of one route, fast enough for search.

A :class:`TitleScoring` answers two questions for the search: which visited
stops use up a train's distance (:meth:`TitleScoring.distance`), and what a
route visiting given stops earns (:meth:`TitleScoring.revenue`).  The rules
are the title's own (1867: ``titles/g1867/revenue.py``); every optimum the
search finds is priced again by the engine's scorer (see :mod:`.engine`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from desk18xx.engine.optimizer.model import CITY, OFFBOARD, TOWN, Problem, Stop, TrainSpec


@dataclass(frozen=True, slots=True)
class Distance:
    """A train's distance: at most ``limit`` visited stops of ``kinds`` (None: any number).

    A stop uses its ``cost``; stops in ``free`` hexes use none.  This only
    bounds the search: :meth:`TitleScoring.revenue` rejects what else is illegal.
    """

    kinds: frozenset[str]
    limit: int | None
    free: frozenset[str] = frozenset()
    max_stops: int | None = None
    """At most this many stops of any kind (None: no cap)."""


class TitleScoring:
    """Generic scoring: every visited stop counts and pays (RB 5.4)."""

    def distance(self, train: TrainSpec) -> Distance:
        """Which stops use the train's distance, and how many it may visit."""
        return Distance(frozenset({CITY, TOWN, OFFBOARD}), train.distance)

    def revenue(self, train: TrainSpec, stops: Sequence[Stop]) -> int:
        """Revenue of a legal route visiting ``stops`` (in travel order)."""
        if not any(s.tokened for s in stops):
            return 0
        return sum(s.revenue for s in stops) * train.multiplier

    def variants(self, train: TrainSpec, stops: Sequence[Stop]) -> list[tuple[int, int]]:
        """Ways the route can earn: (revenue, extra resource bits it then takes).

        Extra bits model one-per-run bonuses (a destination bonus only one route
        collects) and one-use stops (1822CA L-train cities); see :meth:`prepare`.
        """
        rev = self.revenue(train, stops)
        return [(rev, 0)] if rev > 0 else []

    def prepare(self, problem: Problem) -> None:
        """Called once per search before anything else (allocate extra bits here)."""

    def patterns(self, train: TrainSpec) -> list[tuple[int, int]] | None:
        """The extra-bit patterns of :meth:`variants` and the most each adds (None: unknown).

        Used when the train is alone in its overlap group: then only the best
        route of each pattern is kept.
        """
        return [(0, self.max_bonus(train))]

    def pattern_needs(self, train: TrainSpec, pattern: int) -> list[set[int]]:
        """Stops a route needs for ``pattern``: one of each set (for bounds)."""
        return []

    def group(self, train: TrainSpec) -> int:
        """Overlap group: only routes of one group may not share track (1822CA E-trains: 1)."""
        return 0

    # -- run bonus (1822CA mail contracts): income that depends on the set of routes -------
    def has_run_bonus(self) -> bool:
        """The company earns something beyond its routes' revenue (see :meth:`run_bonus`)."""
        return False

    def mail_value(self, train: TrainSpec, stops: Sequence[Stop]) -> int | None:
        """A route's own value for the run bonus (None: it does not qualify)."""
        return None

    def run_bonus(self, values: Sequence[int | None]) -> int:
        """What the company earns besides, given :meth:`mail_value` of each route run."""
        return 0

    def run_bonus_cap(self, train: TrainSpec, value: int | None) -> int:
        """Most :meth:`run_bonus` can grow by one route of ``train`` with ``value``."""
        return 0

    def run_bonus_floor(self) -> int:
        """Least :meth:`run_bonus_cap` of any route of any train."""
        return 0

    def run_bonus_total(self) -> int:
        """Most :meth:`run_bonus` can be for any set of routes."""
        return 0

    def max_run_bonus(self, train: TrainSpec) -> int:
        """Most :meth:`run_bonus_cap` of any route of ``train`` (for bounds)."""
        return 0

    def mail_flag(self, train: TrainSpec) -> bool:
        """The run bonus may pay a route its own :meth:`mail_value` (keep the best by it)."""
        return False

    def contractible(self, train: TrainSpec) -> bool:
        """The train earns only at tokened cities and starts and ends at one (1822CA E).

        Then the stops between two tokened cities matter only through the
        hexes, track and exclusive groups they use (:mod:`.contract`).
        """
        return False

    def local(self, train: TrainSpec) -> bool:
        """The train may run inside one tokened city (1822CA L, LP)."""
        return False

    def bound_value(self, train: TrainSpec, stop: Stop) -> int:
        """Most a visit to ``stop`` adds before the multiplier (for bounds)."""
        return stop.revenue

    def paying(self, train: TrainSpec) -> int | None:
        """Most stops that can earn on one route (None: any number); for bounds."""
        return train.distance

    def max_bonus(self, train: TrainSpec) -> int:
        """Most a route can earn beyond ``multiplier x`` its paying stops' values; for bounds."""
        return 0


@dataclass(frozen=True, slots=True)
class Scoring1867(TitleScoring):
    """1867 (rules/1867.md §6.6; Impl ``compute_stops`` and ``revenue_for``).

    Attributes:
        hex_bonus: per hex, the private-company bonus the company collects when a
            counted stop is there (+$10 per route, not doubled).
        capitals: Toronto, Montreal, Quebec; ``timmins``: D2 (+$40 x multiplier
            when a route counts Timmins and a capital).
    """

    hex_bonus: Mapping[str, int] = field(default_factory=dict)
    capitals: frozenset[str] = frozenset({"F16", "L12", "O7"})
    timmins: str = "D2"

    def distance(self, train: TrainSpec) -> Distance:
        if train.kind == "express":
            return Distance(frozenset({OFFBOARD}), train.distance)
        return Distance(frozenset({CITY, OFFBOARD}), train.distance)

    def max_bonus(self, train: TrainSpec) -> int:
        return 40 * train.multiplier + sum(sorted(self.hex_bonus.values())[-train.distance:])

    def _value(self, train: TrainSpec, stops: Sequence[Stop]) -> int:
        mult = train.multiplier
        total = sum(s.revenue for s in stops) * mult
        bonus = self.hex_bonus
        if bonus:
            total += sum(bonus.get(s.hex, 0) for s in stops)
        hexes = {s.hex for s in stops}
        if self.timmins in hexes and hexes & self.capitals:
            total += 40 * mult
        return total

    def revenue(self, train: TrainSpec, stops: Sequence[Stop]) -> int:
        fast = self._fast_revenue(train, stops)
        if fast is not None:
            return fast
        return self._revenue(train, stops)

    def _fast_revenue(self, train: TrainSpec, stops: Sequence[Stop]) -> int | None:
        """:meth:`_revenue` when no optional stop earns a bonus (values then add up)."""
        express = train.kind == "express"
        mult = train.multiplier
        pay = train.distance
        bonus = self.hex_bonus
        special = self.capitals
        total = 0
        n = 0
        token = False
        timmins = capital = False
        optional: list[Stop] = []
        for s in stops:
            if (s.kind == OFFBOARD) if express else (s.kind != TOWN):
                n += 1
                total += s.revenue
                token = token or s.tokened
                h = s.hex
                if h == self.timmins:
                    timmins = True
                elif h in special:
                    capital = True
            else:
                h = s.hex
                if h == self.timmins or h in special or h in bonus:
                    return None
                optional.append(s)
        if n > pay:
            return 0
        room = pay - n
        if room and optional:
            if express and not token:
                tokened = [s.revenue for s in optional if s.tokened]
                if not tokened:
                    return 0
                best_token = max(tokened)
                others = sorted((s.revenue for s in optional), reverse=True)
                others.remove(best_token)
                total += best_token + sum(others[: room - 1])
            else:
                values = sorted((s.revenue for s in optional), reverse=True)
                total += sum(values[:room])
        elif room and express and not token:
            return 0
        value = total * mult
        if bonus:
            value += sum(bonus.get(s.hex, 0) for s in stops
                         if ((s.kind == OFFBOARD) if express else (s.kind != TOWN)))
        if timmins and capital:
            value += 40 * mult
        return value if value > 0 else 0

    def _revenue(self, train: TrainSpec, stops: Sequence[Stop]) -> int:
        express = train.kind == "express"
        pay = train.distance
        if express:
            mandatory = [s for s in stops if s.kind == OFFBOARD]
            optional = [s for s in stops if s.kind != OFFBOARD]
        else:
            mandatory = [s for s in stops if s.kind != TOWN]
            optional = [s for s in stops if s.kind == TOWN]
        if len(mandatory) > pay:
            return 0
        if len(mandatory) == pay or not optional:
            value = self._value(train, mandatory)
            if len(mandatory) < pay and express and not any(s.tokened for s in mandatory):
                return 0
            return value if value > 0 else 0
        need_token = express and not any(s.tokened for s in mandatory)
        room = pay - len(mandatory)
        best = 0
        for chosen in self._candidates(train, optional, room, need_token):
            value = self._value(train, [*mandatory, *chosen])
            if value > best:
                best = value
        return best

    def _candidates(
        self, train: TrainSpec, optional: Sequence[Stop], room: int, need_token: bool
    ) -> list[list[Stop]]:
        """Choices of optional stops that contain the best one.

        The value of a choice is additive except for the Timmins pair bonus and
        the one-token rule, so the best choice is the best ``room`` stops
        after forcing in Timmins, a capital or both, and then the best tokened
        stop if none is in: every such case is returned.
        """
        if len(optional) <= room:
            if need_token and not any(s.tokened for s in optional):
                return []
            return [list(optional)]
        mult = train.multiplier
        weight = {s.index: s.revenue * mult + self.hex_bonus.get(s.hex, 0) for s in optional}
        order = sorted(optional, key=lambda s: (-weight[s.index], s.index))
        forced: list[list[Stop]] = [[]]
        tim = [s for s in optional if s.hex == self.timmins]
        caps = [s for s in optional if s.hex in self.capitals]
        forced += [[s] for s in tim + caps]
        if room >= 2:
            forced += [[t, c] for t in tim for c in caps]
        out: list[list[Stop]] = []
        for base in forced:
            picks = list(base)
            if need_token and not any(s.tokened for s in picks):
                tokened = [s for s in order if s.tokened and s not in picks]
                if not tokened:
                    continue
                picks.append(tokened[0])
            for s in order:
                if len(picks) >= room:
                    break
                if s not in picks:
                    picks.append(s)
            out.append(picks)
        return out
