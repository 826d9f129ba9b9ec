"""Routes of trains that earn only at the company's own tokens, on a contracted graph.

An E-train (1822CA) earns only at the tokened cities it visits and must
start and end at one: the stops in between matter only through what they
use up (their hexes, track pieces and exclusive groups).  So the route
search runs on a small graph whose nodes are the tokened cities and whose
edges ("links") are the ways from one tokened city to another through
untokened stops.  Of two links between the same cities, one that uses a
subset of the other's resources is at least as good in every route, so only
subset-minimal links are kept (dominance); the walk that lists links also
drops a partial way when an earlier one reached the same stop with a subset
of its resources (every continuation of the later one fits the earlier).

Only used for trains alone in their overlap group (pattern mode): the best
route per extra-bit pattern is what is needed, and it is found exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from desk18xx.engine.optimizer.model import CITY, Problem


@dataclass(frozen=True, slots=True)
class Link:
    """A way from tokened city ``a`` to tokened city ``b`` through untokened stops only."""

    a: int
    b: int
    stops: tuple[int, ...]
    """Stops from ``a`` to ``b`` inclusive, in travel order."""
    segments: tuple[int, ...]
    hexes: int
    """Hex bits of the stops strictly between and the hexes passed."""
    track: int
    groups: int
    """Bits of the exclusive groups of the stops strictly between."""
    terminal_a: bool
    terminal_b: bool


def _group_bits(problem: Problem) -> list[int]:
    names = sorted({g for s in problem.stops for g in s.groups})
    bit = {g: 1 << i for i, g in enumerate(names)}
    out = []
    for s in problem.stops:
        m = 0
        for g in s.groups:
            m |= bit[g]
        out.append(m)
    return out


def _dominated(labels: list[tuple[int, int, int]], h: int, t: int, g: int) -> bool:
    for lh, lt, lg in labels:
        if not (lh & ~h) and not (lt & ~t) and not (lg & ~g):
            return True
    return False


def links(problem: Problem, nodes: list[int], poll: Callable[[], None]) -> list[Link]:
    """Subset-minimal links between the ``nodes`` (tokened cities), ``a < b`` each once."""
    stops, segs, adj = problem.stops, problem.segments, problem.adjacency
    is_node = [False] * len(stops)
    for x in nodes:
        is_node[x] = True
    gbits = _group_bits(problem)
    found: dict[tuple[int, int], list[Link]] = {}
    steps = 0
    for a in nodes:
        labels: dict[tuple[int, bool], list[tuple[int, int, int]]] = {}
        # breadth first, so that ways using fewer resources usually come first
        layer: list[tuple[int, int, int, int, tuple[int, ...], tuple[int, ...]]] = [
            (a, 0, 0, 0, (a,), ())]
        while layer:
            nxt: list[tuple[int, int, int, int, tuple[int, ...], tuple[int, ...]]] = []
            for cur, hexes, track, groups, path, used in layer:
                steps += 1
                if steps & 1023 == 0:
                    poll()
                for si in adj[cur]:
                    sg = segs[si]
                    if sg.track & track:
                        continue
                    if cur != a and sg.terminal_at(cur):
                        continue
                    o = sg.other(cur)
                    if o == a or stops[o].hex_bit & (hexes | stops[a].hex_bit) \
                            or sg.passed & (hexes | stops[a].hex_bit):
                        continue
                    t2 = track | sg.track
                    if is_node[o]:
                        if o > a:
                            lk = Link(a, o, (*path, o), (*used, si), hexes | sg.passed, t2,
                                      groups, segs[used[0] if used else si].terminal_at(a),
                                      sg.terminal_at(o))
                            _keep(found.setdefault((a, o), []), lk)
                        continue
                    if not stops[o].passable or sg.terminal_at(o):
                        continue
                    g = gbits[o]
                    if g & groups:
                        continue
                    h2 = hexes | sg.passed | stops[o].hex_bit
                    g2 = groups | g
                    first = segs[used[0] if used else si].terminal_at(a)
                    seen = labels.setdefault((o, first), [])
                    if _dominated(seen, h2, t2, g2):
                        continue
                    seen.append((h2, t2, g2))
                    nxt.append((o, h2, t2, g2, (*path, o), (*used, si)))
            layer = nxt
    out: list[Link] = []
    for key in sorted(found):
        out.extend(sorted(found[key], key=lambda lk: (lk.segments, lk.stops)))
    return out


def _keep(kept: list[Link], lk: Link) -> None:
    """Add ``lk`` unless a kept link uses a subset of its resources; drop those it beats."""
    if _dominated([(k.hexes, k.track, k.groups) for k in kept
                   if (k.terminal_a <= lk.terminal_a and k.terminal_b <= lk.terminal_b)],
                  lk.hexes, lk.track, lk.groups):
        return
    kept[:] = [k for k in kept
               if not (not (lk.hexes & ~k.hexes) and not (lk.track & ~k.track)
                       and not (lk.groups & ~k.groups)
                       and lk.terminal_a <= k.terminal_a and lk.terminal_b <= k.terminal_b)]
    kept.append(lk)


def token_nodes(problem: Problem, live: list[bool]) -> list[int]:
    """The tokened cities a route can reach."""
    return [s.index for s in problem.stops if live[s.index] and s.tokened and s.kind == CITY]
