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
Then a link is dropped when another of its pair meets (shares a resource
with) only links and cities it meets itself (:func:`spare_links`): one
route takes one link per pair, so it can always take the other instead.

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


def _widths(problem: Problem) -> tuple[int, int]:
    """Bit widths of the hex and track parts of a packed resource int (:func:`_packed`)."""
    hb = max((s.hex_bit.bit_length() for s in problem.stops), default=0)
    hb = max([hb, *(sg.passed.bit_length() for sg in problem.segments)])
    return hb, problem.n_track


class _Front:
    """Resource sets no other of the set is a subset of, grouped by their hexes.

    Each set is (hexes, the rest packed in one int).  Many ways differ only in
    track (parallel track), so there are far fewer hex sets than sets: a test
    looks only at the groups whose hexes are a subset of the ones asked about.
    """

    __slots__ = ("by_hex", "items")

    def __init__(self) -> None:
        self.by_hex: dict[int, list[int]] = {}
        self.items: dict[int, list[Link]] = {}
        """Per hex set, the links of :attr:`by_hex` (same order; links only)."""

    def beaten(self, hexes: int, rest: int) -> bool:
        """Some set uses a subset of ``(hexes, rest)``."""
        missing = ~rest
        for hk, rests in self.by_hex.items():
            if not hk & ~hexes:
                for q in rests:
                    if not q & missing:
                        return True
        return False

    def add(self, hexes: int, rest: int) -> None:
        self.by_hex.setdefault(hexes, []).append(rest)

    def keep(self, hexes: int, rest: int, lk: Link) -> None:
        """Add the link unless beaten; drop the links it beats."""
        if self.beaten(hexes, rest):
            return
        for hk in [hk for hk in self.by_hex if not hexes & ~hk]:
            rests, lks = self.by_hex[hk], self.items[hk]
            keep = [i for i, q in enumerate(rests) if rest & ~q]
            if len(keep) < len(rests):
                if keep:
                    self.by_hex[hk] = [rests[i] for i in keep]
                    self.items[hk] = [lks[i] for i in keep]
                else:
                    del self.by_hex[hk], self.items[hk]
        self.by_hex.setdefault(hexes, []).append(rest)
        self.items.setdefault(hexes, []).append(lk)

    def links(self) -> list[Link]:
        return [lk for lks in self.items.values() for lk in lks]


def links(problem: Problem, nodes: list[int], poll: Callable[[], None],
          spare: frozenset[int] = frozenset(), needed: frozenset[int] = frozenset()
          ) -> list[Link]:
    """Subset-minimal links between the ``nodes`` (tokened cities), ``a < b`` each once.

    ``spare``: segments left out (:func:`.spare.spare_segments`).  ``needed``: stops
    a bonus needs; a link (or a way) that passes one of them is never beaten by
    one that does not (each one not passed counts as a resource used).

    Resources are the hexes and the rest (track, groups and, for links, the two
    terminal flags) packed into one int, kept by hex set (:class:`_Front`).  A partial way
    from ``a`` is dropped when, for every city it could still end at (``b > a``,
    its hex not yet used), a kept link from ``a`` to ``b``, not terminal at ``b``,
    uses a subset of what the way uses already (every link the way could become
    would be beaten by it); from the last city nothing is walked.
    """
    stops, segs, adj = problem.stops, problem.segments, problem.adjacency
    is_node = [False] * len(stops)
    for x in nodes:
        is_node[x] = True
    gbits = _group_bits(problem)
    hb, tb = _widths(problem)
    gw = max((g.bit_length() for g in gbits), default=0)
    need_bit = {y: 1 << k for k, y in enumerate(sorted(needed))}
    all_need = (1 << len(need_bit)) - 1
    found: dict[tuple[int, int], _Front] = {}
    steps = 0
    for a in nodes:
        targets = [b for b in nodes if b > a]
        if not targets:
            continue
        target_hex = [stops[b].hex_bit for b in targets]
        kept_of = [found.setdefault((a, b), _Front()) for b in targets]
        labels: dict[tuple[int, bool], _Front] = {}
        # breadth first, so that ways using fewer resources usually come first
        layer: list[tuple[int, int, int, int, tuple[int, ...], tuple[int, ...], int]] = [
            (a, 0, 0, 0, (a,), (), 0)]
        while layer:
            nxt: list[tuple[int, int, int, int, tuple[int, ...], tuple[int, ...], int]] = []
            for cur, hexes, track, groups, path, used, got in layer:
                steps += 1
                if steps & 1023 == 0:
                    poll()
                for si in adj[cur]:
                    sg = segs[si]
                    if sg.track & track or si in spare:
                        continue
                    if cur != a and sg.terminal_at(cur):
                        continue
                    o = sg.other(cur)
                    # no hex twice, passing through included (the far stop's too)
                    if o == a or stops[o].hex_bit & (hexes | stops[a].hex_bit) \
                            or sg.passed & (hexes | stops[a].hex_bit | stops[o].hex_bit):
                        continue
                    t2 = track | sg.track
                    if is_node[o]:
                        if o > a:
                            lk = Link(a, o, (*path, o), (*used, si), hexes | sg.passed, t2,
                                      groups, segs[used[0] if used else si].terminal_at(a),
                                      sg.terminal_at(o))
                            found.setdefault((a, o), _Front()).keep(
                                lk.hexes, _rest(lk, tb) | (all_need & ~got) << (tb + gw + 2),
                                lk)
                        continue
                    if not stops[o].passable or sg.terminal_at(o):
                        continue
                    g = gbits[o]
                    if g & groups:
                        continue
                    h2 = hexes | sg.passed | stops[o].hex_bit
                    g2 = groups | g
                    got2 = got | need_bit.get(o, 0)
                    first = segs[used[0] if used else si].terminal_at(a)
                    seen = labels.get((o, first))
                    if seen is None:
                        seen = labels[(o, first)] = _Front()
                    rest = t2 | g2 << tb
                    missing = rest | (all_need & ~got2) << (tb + gw)
                    if seen.beaten(h2, missing):
                        continue
                    seen.add(h2, missing)
                    # as a link (terminal flags below): beaten at every city it can reach?
                    # (by a link that passes every needed stop: the way may pass any yet)
                    as_link = int(first) | rest << 2
                    for hx, kept in zip(target_hex, kept_of, strict=True):
                        if not hx & h2 and not kept.beaten(h2, as_link):
                            break
                    else:
                        continue
                    nxt.append((o, h2, t2, g2, (*path, o), (*used, si), got2))
            layer = nxt
    out: list[Link] = []
    for key in sorted(found):
        out.extend(sorted(found[key].links(), key=lambda lk: (lk.segments, lk.stops)))
    return out


def spare_links(problem: Problem, lks: list[Link], nodes: list[int],
                needed: frozenset[int] = frozenset()) -> list[Link]:
    """The links a route over them may need, in their order (the others are spare).

    A route takes one link per pair of cities it goes between.  Link ``k`` can
    stand in for link ``m`` of the same pair in every route when it is
    terminal only where ``m`` is, passes every stop of ``needed`` that ``m``
    passes (the stops a bonus needs), and every link of another pair and every
    other city that shares a resource with ``k`` shares one with ``m`` too:
    the route with ``k`` visits the same cities and is legal.  Such an ``m``
    is spare (of equal ones the first stays), and so is a link that shares a
    resource with one of its own cities (exclusive groups); dropping links may
    make others spare, so the rule is applied until nothing changes.
    """
    hb, tb = _widths(problem)
    stops = problem.stops
    gbits = _group_bits(problem)
    own = {x: stops[x].hex_bit | gbits[x] << (hb + tb) for x in nodes}
    res = [lk.hexes | lk.track << hb | lk.groups << (hb + tb) for lk in lks]
    passes = [sum(1 << k for k, y in enumerate(sorted(needed)) if y in lk.stops[1:-1])
              for lk in lks]
    n_links = len(lks)
    node_no = {x: k for k, x in enumerate(nodes)}
    alive = [not res[n] & (own[lk.a] | own[lk.b]) for n, lk in enumerate(lks)]
    by_pair: dict[tuple[int, int], list[int]] = {}
    for n, lk in enumerate(lks):
        by_pair.setdefault((lk.a, lk.b), []).append(n)
    changed = True
    while changed:
        changed = False
        users: dict[int, int] = {}
        for n in range(n_links):
            if not alive[n]:
                continue
            e = res[n]
            while e:
                low = e & -e
                users[low] = users.get(low, 0) | 1 << n
                e ^= low
        for (a, b), ids in by_pair.items():
            live = [n for n in ids if alive[n]]
            if len(live) < 2:
                continue
            pair_mask = 0
            for n in live:
                pair_mask |= 1 << n
            meets: dict[int, int] = {}
            for n in live:
                m = 0
                e = res[n]
                while e:
                    low = e & -e
                    m |= users[low]
                    e ^= low
                m &= ~pair_mask
                for x in nodes:
                    if x != a and x != b and own[x] & res[n]:
                        m |= 1 << (n_links + node_no[x])
                meets[n] = m
            for n in live:
                ln = lks[n]
                for k in live:
                    if k == n or not alive[k]:
                        continue
                    lk = lks[k]
                    if lk.terminal_a > ln.terminal_a or lk.terminal_b > ln.terminal_b \
                            or passes[n] & ~passes[k] or meets[k] & ~meets[n]:
                        continue
                    if k > n and (lk.terminal_a, lk.terminal_b, passes[k], meets[k]) == (
                            ln.terminal_a, ln.terminal_b, passes[n], meets[n]):
                        continue  # equal: the first stays
                    alive[n] = False
                    changed = True
                    break
    return [lk for n, lk in enumerate(lks) if alive[n]]


def _packed(lk: Link, hb: int, tb: int) -> int:
    """A link's resources in one int: the terminal flags (a link terminal at an end does
    less than one that is not), then hexes, track and groups."""
    return (int(lk.terminal_a) | int(lk.terminal_b) << 1 | lk.hexes << 2
            | lk.track << (hb + 2) | lk.groups << (hb + tb + 2))


def _rest(lk: Link, tb: int) -> int:
    """A link's resources but its hexes, in one int (terminal flags, track, groups)."""
    return int(lk.terminal_a) | int(lk.terminal_b) << 1 | lk.track << 2 | lk.groups << (tb + 2)


def token_nodes(problem: Problem, live: list[bool]) -> list[int]:
    """The tokened cities a route can reach."""
    return [s.index for s in problem.stops if live[s.index] and s.tokened and s.kind == CITY]


class LinkTables:
    """The links per pair of tokened cities as bit sets, for a walk over them.

    Per pair ``(a, b)`` (``a < b``), its links in order; for each resource bit (hexes,
    track, groups packed in one int), the links of the pair that use it; per end, the
    links terminal there.  A way that took link ``n`` may not go on over a link that
    shares a resource with ``n`` or with its two ends (:meth:`clash`).
    """

    def __init__(self, problem: Problem, lks: list[Link]) -> None:
        hb, tb = _widths(problem)
        stops = problem.stops
        self.links = lks
        self.ids: dict[tuple[int, int], list[int]] = {}
        """Per pair, its links' numbers in increasing order."""
        for n, lk in enumerate(lks):
            self.ids.setdefault((lk.a, lk.b), []).append(n)
        self.full = {pair: (1 << len(ids)) - 1 for pair, ids in self.ids.items()}
        self.around: dict[int, list[tuple[int, tuple[int, int]]]] = {}
        """Per city, the cities it has links to (increasing) and the pair."""
        for a, b in sorted(self.ids):
            self.around.setdefault(a, []).append((b, (a, b)))
            self.around.setdefault(b, []).append((a, (a, b)))
        for x in self.around:
            self.around[x].sort()
        self.res = [lk.hexes | lk.track << hb | lk.groups << (hb + tb) for lk in lks]
        self.ext = [r | stops[lk.a].hex_bit | stops[lk.b].hex_bit
                    for r, lk in zip(self.res, lks, strict=True)]
        """Per link: its resources and the hexes of its two ends."""
        self.terminal: dict[tuple[int, tuple[int, int]], int] = {}
        """(city, pair) -> the pair's links terminal at that city."""
        self._users: dict[tuple[int, int], tuple[int, dict[int, int]]] = {}
        self._clash: dict[tuple[int, tuple[int, int]], int] = {}
        for pair, ids in self.ids.items():
            ta = tb_ = 0
            for pos, n in enumerate(ids):
                if lks[n].terminal_a:
                    ta |= 1 << pos
                if lks[n].terminal_b:
                    tb_ |= 1 << pos
            self.terminal[(pair[0], pair)] = ta
            self.terminal[(pair[1], pair)] = tb_

    def _users_of(self, pair: tuple[int, int]) -> tuple[int, dict[int, int]]:
        got = self._users.get(pair)
        if got is None:
            users: dict[int, int] = {}
            union = 0
            for pos, n in enumerate(self.ids[pair]):
                e = self.res[n]
                union |= e
                bit = 1 << pos
                while e:
                    low = e & -e
                    users[low] = users.get(low, 0) | bit
                    e ^= low
            got = self._users[pair] = (union, users)
        return got

    def blocked_union(self, pair: tuple[int, int]) -> int:
        """Every resource bit a link of ``pair`` uses."""
        return self._users_of(pair)[0]

    def blocked(self, used: int, pair: tuple[int, int]) -> int:
        """The links of ``pair`` that use one of the resource bits ``used``."""
        union, users = self._users_of(pair)
        e = used & union
        m = 0
        while e:
            low = e & -e
            m |= users[low]
            e ^= low
        return m

    def clash(self, n: int, pair: tuple[int, int]) -> int:
        """The links of ``pair`` a way that took link ``n`` can no longer take."""
        key = (n, pair)
        got = self._clash.get(key)
        if got is None:
            got = self._clash[key] = self.blocked(self.ext[n], pair)
        return got
