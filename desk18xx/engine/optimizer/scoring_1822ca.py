"""1822CA route scoring for the search (titles/g1822ca/revenue.py, RB 5.9-5.11, supplement §8.1).

Mirrors the engine's :class:`~desk18xx.titles.g1822ca.revenue.Rules1822CA` on
the generic route checks of :mod:`desk18xx.engine.map.routes`: n-trains
count every stop (``visit_cost``), L and LP trains one city and one town or
a local run in a tokened city (each city once among the L-trains), E-trains
(their own track group) earn their doubled tokened cities between two
tokened cities, Pullman and grain attachments change the distance, grain
elevators and ports add to majors' routes, and the destination and sawmill
bonuses go to one route each (extra resource bits).  Every answer is priced
again by the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from desk18xx.engine.optimizer.model import CITY, OFFBOARD, TOWN, Problem, Stop, TrainSpec
from desk18xx.engine.optimizer.scoring import Distance, TitleScoring

ANY = frozenset({CITY, TOWN, OFFBOARD})
Part = tuple[frozenset[str], int]
"""A distance row: stop types and how many (pay equals visit in 1822CA)."""


@dataclass(frozen=True, slots=True)
class Train1822:
    """What the scoring knows of one train."""

    parts: tuple[Part, ...] | None
    """Distance rows, or None for a plain number (``TrainSpec.distance``)."""
    e_train: bool = False
    local: bool = False
    grain: bool = False
    pullman: bool = False


@dataclass
class Scoring1822CA(TitleScoring):
    """1822CA scoring for one company's run (built by :func:`games.problem_for`)."""

    trains: dict[str, Train1822]
    major: bool
    grain_elevators: frozenset[str] = frozenset()
    east_ports: frozenset[str] = frozenset()
    west_ports: frozenset[str] = frozenset()
    home: tuple[str, int] | None = None
    destination: tuple[str, int] | None = None
    sawmill_hex: str | None = None
    sawmill_bonus: int = 0
    mail_large: int = 0
    """Large mail contracts the company holds (P22/P23; 0 for minors)."""
    mail_small: int = 0
    """Small mail contracts (P24/P25; 0 for minors)."""
    mail_small_value: int = 0
    """What a small contract pays in this phase."""
    _max_stop: int = 0
    _dest_bit: int = 0
    _saw_bit: int = 0
    _city_base: int = 0
    _dest_value: int = 0
    _elevators: int = 0
    _home_stops: list[int] = field(default_factory=list)
    _dest_stops: list[int] = field(default_factory=list)
    _saw_stops: list[tuple[int, bool]] = field(default_factory=list)

    # -- search hooks ----------------------------------------------------------------------
    def prepare(self, problem: Problem) -> None:
        base = 2 * problem.n_track
        self._dest_bit = 1 << base
        self._saw_bit = 1 << (base + 1)
        self._city_base = base + 2
        self._dest_value = max((s.revenue for s in problem.stops
                                if (s.hex, s.node) == self.destination), default=0)
        self._elevators = sum(1 for s in problem.stops if s.hex in self.grain_elevators)
        self._home_stops = [s.index for s in problem.stops if (s.hex, s.node) == self.home]
        self._dest_stops = [s.index for s in problem.stops
                            if (s.hex, s.node) == self.destination]
        self._saw_stops = [(s.index, s.tokened) for s in problem.stops
                           if s.hex == self.sawmill_hex]
        self._max_stop = max((s.revenue for s in problem.stops), default=0)

    # -- mail contracts (supplement §6.1 P22-P25; G1822CA.mail_subsidy) -------------------
    def has_run_bonus(self) -> bool:
        return bool(self.mail_large or self.mail_small)

    def mail_value(self, train: TrainSpec, stops: Sequence[Stop]) -> int | None:
        """Half the base values of the first and last stop; L and LP routes do not qualify."""
        if not self.mail_large or train.name.startswith("L") or len(stops) < 2:
            return None
        return (stops[0].revenue + stops[-1].revenue) // 2

    def run_bonus(self, values: Sequence[int | None]) -> int:
        """The engine's mail subsidy (``G1822CA.mail_subsidy``), one value per route run."""
        return mail_income(self.mail_large, self.mail_small, self.mail_small_value, values)

    def run_bonus_cap(self, train: TrainSpec, value: int | None) -> int:
        small = self.mail_small_value if self.mail_small else 0
        return max(small, value if value is not None else 0)

    def run_bonus_floor(self) -> int:
        return self.mail_small_value if self.mail_small else 0

    def run_bonus_total(self) -> int:
        small = self.mail_small_value if self.mail_small else 0
        return self.mail_small * small + self.mail_large * self._max_stop

    def max_run_bonus(self, train: TrainSpec) -> int:
        small = self.mail_small_value if self.mail_small else 0
        large = self._max_stop if self.mail_large and not train.name.startswith("L") else 0
        return max(small, large)

    def mail_flag(self, train: TrainSpec) -> bool:
        return bool(self.mail_large) and not train.name.startswith("L")

    def group(self, train: TrainSpec) -> int:
        return 1 if self.trains[train.id].e_train else 0

    def contractible(self, train: TrainSpec) -> bool:
        return self.trains[train.id].e_train

    def local(self, train: TrainSpec) -> bool:
        return self.trains[train.id].local

    def distance(self, train: TrainSpec) -> Distance:
        info = self.trains[train.id]
        if info.e_train:
            return Distance(frozenset(), None)
        if info.parts is None:
            return Distance(ANY, train.distance)
        free = self.grain_elevators if info.grain else frozenset()
        cap = sum(n for _k, n in info.parts)
        if info.pullman:
            # towns are free for the search (revenue() checks their number)
            return Distance(frozenset({CITY, OFFBOARD}), train.distance, free, cap)
        total = sum(n for kinds, n in info.parts if kinds != frozenset({"grain_elevator"}))
        return Distance(ANY, total, free, cap)

    def paying(self, train: TrainSpec) -> int | None:
        info = self.trains[train.id]
        if info.e_train:
            return None
        limit = self.distance(train).limit or 0
        if info.pullman:
            return 3 * limit
        return limit + min(12, self._elevators) if info.grain else limit

    def _per_elevator(self, info: Train1822) -> int:
        """What an elevator adds to a route beyond its value (+$10 on majors' trains)."""
        if not self.major or info.e_train or info.pullman or info.grain:
            return 0
        return 10

    def _port_bonus(self, info: Train1822) -> int:
        """Most the ports add to one route (two ports: $20 each on the grain train)."""
        if not self.major or info.e_train or info.pullman:
            return 0
        return 40 if info.grain else 20

    def bound_value(self, train: TrainSpec, stop: Stop) -> int:
        info = self.trains[train.id]
        if info.e_train:
            return stop.revenue if stop.kind == CITY and stop.tokened else 0
        if stop.hex in self.grain_elevators:
            return stop.revenue + self._per_elevator(info)
        return stop.revenue

    def max_bonus(self, train: TrainSpec) -> int:
        bonus = self._port_bonus(self.trains[train.id])
        bonus += 2 * self.sawmill_bonus
        if self.destination is not None:
            bonus += self._dest_value * train.multiplier
        return bonus

    def pattern_needs(self, train: TrainSpec, pattern: int) -> list[set[int]]:
        e_train = self.trains[train.id].e_train
        out: list[set[int]] = []
        if pattern & self._dest_bit:
            out += [set(self._home_stops), set(self._dest_stops)]
        if pattern & self._saw_bit:
            out.append({s for s, tokened in self._saw_stops if tokened or not e_train})
        return out

    def patterns(self, train: TrainSpec) -> list[tuple[int, int]] | None:
        info = self.trains[train.id]
        if info.local:
            return None
        grain = self._port_bonus(info)
        out = [(0, grain)]
        dest = self._dest_value * train.multiplier
        saw = 4 * self.sawmill_bonus
        if self.destination is not None:
            out.append((self._dest_bit, grain + dest))
        if self.sawmill_hex is not None and self.sawmill_bonus:
            out.append((self._saw_bit, grain + saw))
            if self.destination is not None:
                out.append((self._dest_bit | self._saw_bit, grain + dest + saw))
        return out

    # -- rules -----------------------------------------------------------------------------
    def _fits_counts(self, info: Train1822, train: TrainSpec, grouped: dict[str, int]) -> bool:
        """``check_distance`` of the route model, on the stop counts per type."""
        if info.parts is None:
            return sum(grouped.values()) <= train.distance
        parts = info.parts
        room = [n for _k, n in parts]
        by_rows = sorted(grouped.items(),
                         key=lambda kv: sum(1 for k, _n in parts if kv[0] in k))
        for t, num in by_rows:
            for i, (kinds, _n) in enumerate(parts):
                if t not in kinds or room[i] <= 0:
                    continue
                take = min(num, room[i])
                room[i] -= take
                num -= take
                if num <= 0:
                    break
            if num > 0:
                return False
        return True

    def revenue(self, train: TrainSpec, stops: Sequence[Stop]) -> int:
        value = self.legal_revenue(train, stops)
        return value if value is not None else 0

    def legal_revenue(self, train: TrainSpec, stops: Sequence[Stop]) -> int | None:
        """:meth:`revenue`, or None when the route is not legal (a legal route may
        earn $0: a token in a white city and a town not yet laid)."""
        info = self.trains[train.id]
        if len(stops) < 2 and not (info.local and len(stops) == 1 and stops[0].kind == CITY):
            return None
        e_train = info.e_train
        elevators_hexes = self.grain_elevators
        grain = info.grain
        grouped: dict[str, int] = {}
        token = False
        groups: list[str] = []
        total = 0
        tokened_cities = 0
        elevators = 0
        east = west = False
        for s in stops:
            if s.tokened:
                token = True
            if s.groups:
                groups.extend(s.groups)
            if e_train:
                if s.kind == CITY and s.tokened:
                    tokened_cities += 1
                    total += s.revenue
                continue
            total += s.revenue
            h = s.hex
            if h in elevators_hexes:
                elevators += 1
                t = "grain_elevator" if grain else s.kind
            else:
                t = s.kind
            if h in self.east_ports:
                east = True
            if h in self.west_ports:
                west = True
            grouped[t] = grouped.get(t, 0) + s.cost
        if not token:
            return None
        if groups and len(set(groups)) < len(groups):
            return None
        if e_train:
            if tokened_cities < 2:
                return None
            for end in (stops[0], stops[-1]):
                if not (end.kind == CITY and end.tokened):
                    return None
            return total * train.multiplier
        if not self._fits_counts(info, train, grouped):
            return None
        value = total * train.multiplier
        if self.major and not info.pullman and elevators:
            ports = int(east) + int(west)
            value += 20 * ports if grain else 10 * elevators + 10 * ports
        return value

    def variants(self, train: TrainSpec, stops: Sequence[Stop]) -> list[tuple[int, int]]:
        base = self.legal_revenue(train, stops)
        if base is None or base == 0 and not self.mail_small and not self.sawmill_bonus:
            return []  # a $0 route earns only a small mail contract or the sawmill bonus
        info = self.trains[train.id]
        extra = 0
        if info.local:
            for s in stops:
                if s.kind == CITY:
                    extra |= 1 << (self._city_base + s.index)
        out = [(base, extra)]
        dest_value = 0
        dest_stop: Stop | None = None
        if self.home is not None and self.destination is not None:
            refs = {(s.hex, s.node): s for s in stops}
            if self.home in refs and self.destination in refs:
                dest_stop = refs[self.destination]
                dest_value = dest_stop.revenue * train.multiplier
                out.append((base + dest_value, extra | self._dest_bit))
        if self.sawmill_hex is not None and self.sawmill_bonus:
            saw = next((s for s in stops if s.hex == self.sawmill_hex), None)
            if saw is not None and (not info.e_train or saw.tokened):
                value = self.sawmill_bonus * (2 if info.e_train else 1)
                out.append((base + value, extra | self._saw_bit))
                if dest_stop is not None:
                    both = value * (2 if saw is dest_stop else 1)
                    out.append((base + dest_value + both,
                                extra | self._dest_bit | self._saw_bit))
        if base == 0 and not self.mail_small:
            return [v for v in out if v[0] > 0]
        return out


def mail_income(large_n: int, small_n: int, small_value: int,
                values: Sequence[int | None]) -> int:
    """Mail subsidy of one run, as ``G1822CA.mail_subsidy`` computes it.

    Args:
        large_n: large contracts held; ``small_n``: small ones, each worth ``small_value``.
        values: per route run, its large-contract value, or None when it does not
            qualify (L/LP trains, fewer than two stops).
    """
    if not large_n and not small_n:
        return 0
    large = sorted((v for v in values if v is not None), reverse=True)[:large_n]
    small = [small_value] * min(small_n, len(values))
    if len(values) >= len(large) + small_n or not large or not small:
        return sum(large) + sum(small)
    total = li = si = 0
    for _ in values:
        lv = large[li] if li < len(large) else 0
        sv = small[si] if si < len(small) else 0
        if sv > lv:
            si += 1
            total += sv
        else:
            li += 1
            total += lv
    return total
