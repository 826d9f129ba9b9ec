"""Hand-built routing problems and an independent brute force (tests only)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from desk18xx.engine.optimizer.model import Problem, Segment, Stop, TrainSpec
from desk18xx.engine.optimizer.scoring import TitleScoring


def stop(
    i: int, kind: str, value: int, *, hex_id: str | None = None, token: bool = False,
    passable: bool | None = None, hex_no: int | None = None,
) -> Stop:
    """Stop ``i`` in its own hex ``H<i>`` unless told otherwise."""
    return Stop(
        index=i, hex=hex_id or f"H{i}", node=0, kind=kind, revenue=value, tokened=token,
        passable=(kind != "offboard") if passable is None else passable,
        hex_bit=1 << (i if hex_no is None else hex_no),
    )


def problem(
    stops: Sequence[Stop],
    links: Sequence[tuple[int, int] | tuple[int, int, int]],
    trains: Sequence[TrainSpec],
    *,
    shared: dict[int, int] | None = None,
) -> Problem:
    """Segments from (a, b) pairs; ``(a, b, k)`` marks a parallel segment ``k``.

    ``shared`` maps a segment number to another whose track it also uses.
    """
    segs = []
    for n, link in enumerate(links):
        a, b = link[0], link[1]
        track = 1 << n
        if shared and n in shared:
            track |= 1 << shared[n]
        segs.append(Segment(n, a, b, (stops[a].hex, stops[b].hex), track, 0))
    hex_ids = tuple(sorted({s.hex for s in stops}))
    return Problem("X", tuple(stops), tuple(segs), tuple(trains), hex_ids).finish()


def train(name: str, distance: int, mult: int = 1, kind: str = "normal", n: int = 0) -> TrainSpec:
    """A train ``<name>-<n>``."""
    return TrainSpec(f"{name}-{n}", name, distance, mult, kind)


def brute_force(p: Problem, scoring: TitleScoring) -> int:
    """The best total by listing every walk and every combination (small problems only)."""
    walks: list[tuple[tuple[int, ...], int, int]] = []  # stops, track, hexes

    def extend(path: list[int], track: int, hexes: int, segs: list[int]) -> None:
        if len(path) >= 2:
            walks.append((tuple(path), track, hexes))
        cur = path[-1]
        if len(path) >= 2 and not p.stops[cur].passable:
            return
        if len(segs) >= 1 and p.segments[segs[-1]].terminal_at(cur):
            return
        for sg in p.segments:
            if cur not in (sg.a, sg.b) or sg.track & track:
                continue
            if len(path) >= 2 and sg.terminal_at(cur):
                continue
            o = sg.other(cur)
            # no hex twice, passing included: not the far stop's hex either (else a
            # route would be legal one way round and not the other)
            if p.stops[o].hex_bit & (hexes | sg.passed) or sg.passed & hexes:
                continue
            extend([*path, o], track | sg.track, hexes | p.stops[o].hex_bit | sg.passed,
                   [*segs, sg.index])

    for s in p.stops:
        extend([s.index], 0, s.hex_bit, [])
    for s in p.stops:
        if s.kind == "city" and s.tokened:
            walks.append(((s.index,), 0, s.hex_bit))  # local runs (only local trains earn)
    scoring.prepare(p)
    span = p.n_track
    per_train: list[list[tuple[int, int, int | None, bool]]] = []
    for t in p.trains:
        dist = scoring.distance(t)
        shift = scoring.group(t) * span
        options: list[tuple[int, int, int | None, bool]] = [(0, 0, None, False)]
        for stops, track, _h in walks:
            if len(stops) == 1 and not scoring.local(t):
                continue
            visited = [p.stops[i] for i in stops]
            if not any(s.tokened for s in visited):
                continue
            n = sum(s.cost for s in visited if s.kind in dist.kinds and s.hex not in dist.free)
            if dist.limit is not None and n > dist.limit:
                continue
            mail = scoring.mail_value(t, visited)
            for rev, extra in scoring.variants(t, visited):
                options.append((rev, (track << shift) | extra, mail, True))
        per_train.append(options)

    def combine(i: int, used: int, mails: tuple[int | None, ...]) -> int:
        """Best revenue of trains ``i..`` plus the run bonus of the whole run (mail)."""
        if i == len(per_train):
            return scoring.run_bonus(list(mails))
        return max(rev + combine(i + 1, used | track, (*mails, mail) if ran else mails)
                   for rev, track, mail, ran in per_train[i] if not track & used)

    best = combine(0, 0, ())
    return best


def revenue_1867_by_combinations(
    t: TrainSpec, stops: Sequence[Stop], hex_bonus: dict[str, int] | None = None
) -> int:
    """1867 revenue straight from the rules text: try every choice of counted stops."""
    bonus = hex_bonus or {}
    express = t.kind == "express"
    mandatory = [s for s in stops if (s.kind == "offboard" if express else s.kind != "town")]
    optional = [s for s in stops if s not in mandatory]
    if len(mandatory) > t.distance:
        return 0
    choices: list[list[Stop]]
    if len(mandatory) == t.distance:
        choices = [mandatory]
    else:
        room = min(t.distance - len(mandatory), len(optional))
        choices = [mandatory + list(c) for c in itertools.combinations(optional, room)]
        if express and not any(s.tokened for s in mandatory):
            choices = [c for c in choices if any(s.tokened for s in c)]
    best = 0
    for c in choices:
        hexes = {s.hex for s in c}
        value = sum(s.revenue for s in c) * t.multiplier + sum(bonus.get(h, 0) for h in hexes)
        if "D2" in hexes and hexes & {"F16", "L12", "O7"}:
            value += 40 * t.multiplier
        best = max(best, value)
    return best
