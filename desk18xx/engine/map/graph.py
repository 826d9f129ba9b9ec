"""The track graph of a board and what a company can reach over it.

Mirrors 18xx.games ``Graph#compute``: from each city holding the company's
token, walk the track; a walk passes through towns and through cities with
a free slot or the company's own token, never through a city full of other
companies' tokens (RB 5.4.2-5.4.3), an off-board area, or a ``terminal``
path's node.  Blue-hex ``junction`` stubs with ``terminal`` are never walked.

What blocks is data: tokens in slots (the 1822CA ``DD`` blocker tokens in
Q19/Y27 keep Duluth-Detroit shut until the event removes them and lays the
DD tiles), neutral tokens never block, ``visit_cost: 99`` keeps a node from
being a stop (see :mod:`routes`).

18xx.games walks depth first, a path and a node once per walk and a hexside
once per route (``Path#walk``, D25).  Our search over (path, entry end) states
reaches exactly the same on track without converging exits (an edge two paths
of a tile share), every 1822CA map included, at a fraction of the cost; where
a tile has one, the reference's walk is made as well (:meth:`TrackGraph._walk`).
Results are cached
per board object and version (:func:`graph_for`).  A new version's graph is
derived from the previous one: only the hexes that changed (``Board.changed_since``)
and their neighbours get new rows, and each company's reach is kept unless its
walk looked at a changed hex, its tokens moved, or a city it walked through now
blocks it differently.  Copies of a board (snapshots, undo) get their own graphs.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from desk18xx.engine.ids import HexId
from desk18xx.engine.map.board import Board, HexState
from desk18xx.engine.map.hexgrid import opposite
from desk18xx.engine.map.tiles import NODE, Geometry
from desk18xx.engine.tiledef import Color, NodeKind

PathRef = tuple[HexId, int]
"""A path: hex and path index on its tile."""
NodeRef = tuple[HexId, int]
"""A node: hex and node index on its tile."""

DEFAULT_IMPASSABLE: frozenset[Color] = frozenset({Color.BLUE, Color.GRAY, Color.RED})


@dataclass(frozen=True, slots=True)
class Reach:
    """What one company reaches (18xx.games connected hexes/nodes/paths)."""

    nodes: frozenset[NodeRef]
    """Nodes on reached track, including full cities it may end at."""
    paths: frozenset[PathRef]
    """Paths it can trace a route over."""
    edges: Mapping[HexId, frozenset[int]]
    """Per hex, edges where its track arrives or leaves: where new track may connect."""

    def connected_edges(self, hex_id: str) -> frozenset[int] | None:
        """Edges of ``hex_id`` the company reaches (None: the hex is not reached)."""
        return self.edges.get(HexId(hex_id))

    @property
    def hexes(self) -> frozenset[HexId]:
        """Hexes with track the company can run on."""
        return frozenset(h for h, _ in self.paths)


class TrackGraph:
    """Links between the paths of adjacent tiles for one board version.

    A graph for a later version of the same board (or of a copy of it) is
    derived from the previous one (:func:`graph_for`): only the hexes whose
    state changed and their neighbours are relinked, and a company's reach is
    kept when no changed hex lies on or beside its walk and none holds its
    token before or after.

    Args:
        board: the board; the graph is valid while ``board.version`` is unchanged.
        impassable_colors: printed colours reached only across their own track.
        base: a graph of an earlier state of this board (or of the board it was
            copied from) to update instead of building from scratch.
    """

    def __init__(self, board: Board, impassable_colors: Collection[Color] = DEFAULT_IMPASSABLE,
                 base: TrackGraph | None = None):
        self.board = board
        self.version = board.version
        self.serial = board.serial
        self._impassable = frozenset(impassable_colors)
        self._states: dict[HexId, HexState] = board.state_map()
        self._rows: dict[HexId, _Row] = {}
        """Per hex, what a walk needs of it (:meth:`_row`)."""
        self._reach: dict[str, Reach] = {}
        self._walked: dict[str, frozenset[HexId]] = {}
        """Per searched company: the hexes its search read (:meth:`_region`), which
        hold all its walks read."""
        self._each: dict[str, list[frozenset[NodeRef]]] = {}
        self._regions: dict[str, _Walk] = {}
        """Per company, the search from all its tokens at this version (:meth:`_region`)."""
        self._enough: dict[str, bool] = {}
        self._tokens: dict[str, list[NodeRef]] | None = None
        """Per company, its token cities in board order (built when first asked)."""
        self._order: dict[HexId, int]
        """Position of each hex in board order."""
        self._converging: set[HexId]
        """Hexes whose tile has a converging exit (only there may the exact walk
        differ from the search, :meth:`_walk`)."""
        if base is not None and self._can_derive(base):
            self._order = base._order
            self._derive(base)
            return
        self._order = {hid: i for i, hid in enumerate(self._states)}
        self._converging = set()
        for hid in self._states:
            self._rows[hid] = row = self._row(hid)
            if row[5].converges:
                self._converging.add(hid)

    def _can_derive(self, base: TrackGraph) -> bool:
        return (base._impassable == self._impassable
                and base.board.neighbour_table is self.board.neighbour_table
                and base._states.keys() == self._states.keys())

    def _derive(self, base: TrackGraph) -> None:
        old, new = base._states, self._states
        if base.board is self.board:
            changed = {h for h in self.board.changed_since(base.version) if old[h] is not new[h]}
        else:
            changed = {h for h, st in new.items() if old[h] is not st}
        # only track and borders feed the links; tokens only decide blocking
        track = {h for h in changed
                 if old[h].geo is not new[h].geo or old[h].borders != new[h].borders}
        # a hex's openings and links depend on its neighbours' track as well
        around = set(changed)
        for hid in track:
            around.update(n for n in self.board.neighbours(hid) if n is not None)
        self._rows = dict(base._rows)
        self._converging = set(base._converging)
        for hid in around:
            self._rows[hid] = row = self._row(hid)
            if row[5].converges:
                self._converging.add(hid)
            else:
                self._converging.discard(hid)
        moved: set[str] = set()
        for hid in changed:
            moved |= _corps_on(old[hid])
            moved |= _corps_on(new[hid])
        tokens_only = changed - track
        # A walk reads the track, openings and cities of the hexes it walks and,
        # across each edge it leaves one by, the track of the neighbour there: it
        # records that neighbour's facing edge, so the neighbour is one of its edge
        # hexes (``_walked`` holds both).  Whether a side facing a hex of an
        # impassable colour is open depends on that hex's track as well.
        looked = set(track)
        for hid in track:
            if self.board.hex_def(hid).tile.color in self._impassable:
                looked.update(n for n in self.board.neighbours(hid) if n is not None)
        for corp, walked in list(base._walked.items()):  # a worker thread may add to it
            if corp in moved or not walked.isdisjoint(looked):
                continue
            if any(_blocking(old[h], corp) != _blocking(new[h], corp)
                   for h in tokens_only if h in walked):
                continue
            self._walked[corp] = walked  # before what it covers: a derived graph reads both
            region = base._regions.get(corp)
            if region is not None:
                self._regions[corp] = region
            reach = base._reach.get(corp)
            if reach is not None:
                self._reach[corp] = reach
            each = base._each.get(corp)
            if each is not None:
                self._each[corp] = each
        for key, enough in list(base._enough.items()):
            if key.partition("\0")[0] in self._walked:
                self._enough[key] = enough
        if base._tokens is not None:
            self._tokens = dict(base._tokens)
            for corp in moved:
                self._tokens[corp] = self._token_list(corp, base._tokens.get(corp, []), changed)

    def _row(self, hid: HexId) -> _Row:
        """The walk's view of one hex: its geometry, path table, open sides, the
        neighbour paths continuing each side, and per node who may pass a full city,
        and the exact walk's view of its paths."""
        st = self._states[hid]
        geo = st.geo
        opened = tuple(self._open_neighbour(hid, st, edge) for edge in range(6))
        links: list[tuple[PathRef, ...]] = []
        for edge, nid in enumerate(opened):
            if nid is None or edge not in geo.exits:
                links.append(())
                continue
            back = opposite(edge)
            links.append(tuple((nid, j) for j in self._states[nid].geo.edge_paths[back]))
        return geo, _table(geo), opened, tuple(links), _passers(st), _xtable(geo)

    def _open_neighbour(self, hid: HexId, st: HexState, edge: int) -> HexId | None:
        nid = self.board.neighbour(hid, edge)
        if nid is None:
            return None
        if st.borders and any(b.edge == edge and b.type == "impassable" for b in st.borders):
            return None
        if self.board.hex_def(nid).tile.color in self._impassable:
            if opposite(edge) not in self._states[nid].geo.exits:
                return None
        return nid

    def neighbour(self, hex_id: str, edge: int) -> HexId | None:
        """The hex across ``edge`` if track may cross that side."""
        return self._rows[HexId(hex_id)][2][edge]

    def links(self, hex_id: str, edge: int) -> tuple[PathRef, ...]:
        """Paths of the neighbour that continue track leaving ``hex_id`` at ``edge``."""
        return self._rows[HexId(hex_id)][3][edge]

    def state(self, hex_id: str) -> HexState:
        """The hex state this graph was built from."""
        return self._states[HexId(hex_id)]

    def blocks(self, hex_id: str, node: int, corp: str | None) -> bool:
        """True when a walk of ``corp`` may not pass through this node."""
        st = self._states[HexId(hex_id)]
        kind = st.geo.kinds[node]
        if kind is NodeKind.OFFBOARD:
            return True
        if kind is NodeKind.CITY:
            return st.city_blocks(st.geo.city_nodes.index(node), corp)
        return False

    def reach(self, corp: str) -> Reach:
        """What ``corp`` reaches from its tokens (cached)."""
        found = self._reach.get(corp)
        if found is None:
            found, touched = self._compute(corp)
            self._walked[corp] = touched  # before the reach: _derive reads both
            self._reach[corp] = found
        return found

    def walks_any(self, corp: str, wanted: Collection[PathRef]) -> bool:
        """True when ``corp``'s walk enters one of the ``wanted`` paths (one of them is
        in :meth:`reach` ``.paths``; the semi-restrictive new-track test).  The
        search alone decides where it can: it reaches all the walk reaches, and
        exactly that where no reached tile has a converging exit."""
        want = frozenset(wanted)
        known = self._reach.get(corp)
        if known is not None:
            return not want.isdisjoint(known.paths)
        region = self._region(corp)
        assert region is not None
        if want.isdisjoint(region.paths):
            return False
        if self._converging.isdisjoint(h for h, _p in region.paths):
            return True
        # the exact walks, stopped at the first wanted path they record
        order = list(dict.fromkeys(self.token_nodes(corp)))
        walk = _Walk(set(), set(order), {})
        missing = set(region.paths)
        everyone = frozenset(order)
        memo: _Memo = {}
        for start in order:
            if not missing:
                break
            try:
                _exact_walk(self._rows, corp, start, everyone - {start}, walk, missing, 0, 0,
                            want, memo)
            except _Found:
                return True
        return not want.isdisjoint(walk.paths)

    def reaches_any(self, corp: str, wanted: Collection[NodeRef]) -> bool:
        """True when ``corp``'s reach (:meth:`reach` ``.nodes``) holds one of the
        ``wanted`` nodes.  The search alone answers where it can: it reaches all
        the walk reaches, and exactly that where no reached tile has a converging
        exit; only otherwise is the reach walked."""
        want = frozenset(wanted)
        known = self._reach.get(corp)
        if known is None:
            region = self._region(corp)
            assert region is not None
            if want.isdisjoint(region.nodes):
                return False
            if self._converging.isdisjoint(h for h, _p in region.paths):
                return True
            if not want.isdisjoint(self.token_nodes(corp)):
                return True
            # a node is reached when a path ending at it is (:meth:`walks_any`)
            rows = self._rows
            return self.walks_any(corp, {(h, p) for h, n in want if h in rows
                                         for p in rows[h][0].node_paths[n]})
        return not want.isdisjoint(known.nodes)

    def _region(self, corp: str) -> _Walk:
        """:meth:`_search` from all of ``corp``'s tokens (kept for this version)."""
        found = self._regions.get(corp)
        if found is None:
            starts = self.token_nodes(corp)
            found = self._search(corp, starts, frozenset())
            assert found is not None
            # what the search read, and so every walk within it: token hexes, hexes
            # with track it may walk and the hexes across the edges it may leave by
            walked = {hid for hid, _p in found.paths}
            walked.update(found.edges)
            walked.update(hid for hid, _n in starts)
            walked.update(self._walked.get(corp, ()))  # a reach walked before it
            self._walked[corp] = frozenset(walked)  # before the region: _derive reads both
            self._regions[corp] = found
        return found

    def token_nodes(self, corp: str) -> list[NodeRef]:
        """The city nodes holding a ``corp`` token, in board order."""
        if self._tokens is None:
            index: dict[str, list[NodeRef]] = {}
            for hid, st in self._states.items():
                for c, n in enumerate(st.geo.city_nodes):
                    for who in dict.fromkeys(t.corp for t in st.city_tokens(c)
                                             if t.kind != "neutral"):
                        index.setdefault(who, []).append((hid, n))
            self._tokens = index
        return list(self._tokens.get(corp, ()))

    def _token_list(self, corp: str, before: list[NodeRef],
                    changed: Collection[HexId]) -> list[NodeRef]:
        """``corp``'s token cities now, from those ``before`` the ``changed`` hexes changed."""
        out = [x for x in before if x[0] not in changed]
        for hid in changed:
            st = self._states[hid]
            out.extend((hid, n) for c, n in enumerate(st.geo.city_nodes)
                       if any(t.corp == corp and t.kind != "neutral"
                              for t in st.city_tokens(c)))
        order = self._order
        out.sort(key=lambda x: (order[x[0]], x[1]))
        return out

    def reach_from_each_token(self, corp: str) -> list[frozenset[NodeRef]]:
        """Per token, the nodes its own walk reaches (18xx ``Graph#compute``
        ``local_nodes``): the other token cities are reached but not walked through."""
        found = self._each.get(corp)
        if found is None:
            self.reach(corp)  # the walks lie within it: its walked hexes cover them
            tokens = self.token_nodes(corp)
            found = []
            for t in tokens:
                walk = self._walk(corp, [t], frozenset(tokens) - {t})
                assert walk is not None
                found.append(frozenset(walk.nodes))
            self._each[corp] = found
        return list(found)

    def token_walk_reaches(self, corp: str, count: int) -> bool:
        """True when one token's own walk (:meth:`reach_from_each_token`) reaches
        ``count`` nodes other than junctions, its token city included."""
        key = f"{corp}\0{count}"
        found = self._enough.get(key)
        if found is None:
            # Each token's walk is the full walk's walk from it: it reads no hex the
            # full walk does not, so the answer is kept with that walk (:meth:`_derive`).
            # The search from a token reaches all its walk does, exactly that where
            # the board has no converging exit, and stops once it has enough.
            tokens = self.token_nodes(corp)
            found = False
            everyone = frozenset(tokens)
            for t in tokens:
                others = everyone - {t}
                if self._search(corp, [t], others, count) is not None:
                    continue  # even the search falls short
                if not self._converging or self._walk(corp, [t], others, count) is None:
                    found = True
                    break
            self._enough[key] = found
        return found

    def _compute(self, corp: str) -> tuple[Reach, frozenset[HexId]]:
        """The walk from ``corp``'s tokens, and the hexes whose state it read: token
        hexes, hexes with track it walked, and the hexes across the edges it left
        by (those of :meth:`_search`, which holds the walk, when that is known).

        Where the board has a converging exit and the search is not known, the
        exact walks are made at once, to their end: what they read is what they
        record (a path entered is recorded, a neighbour's paths are looked at only
        across the edges of a recorded path, whose facing sides are recorded)."""
        starts = self.token_nodes(corp)
        if corp in self._regions or not self._converging:
            region = self._region(corp)
            walk = self._walk(corp, starts, frozenset(), region=region)
            assert walk is not None
            walked = self._walked[corp]  # the walk lies within the search
        else:
            order = list(dict.fromkeys(starts))
            walk = _Walk(set(), set(order), {})
            everyone = frozenset(order)
            memo: _Memo = {}
            for start in order:
                _exact_walk(self._rows, corp, start, everyone - {start}, walk, None, 0, 0,
                            memo=memo)
            read = {hid for hid, _p in walk.paths}
            read.update(walk.edges)
            read.update(hid for hid, _n in starts)
            walked = frozenset(read)
        edges = dict(walk.edges)  # the walk may be the kept region: leave its sets alone
        for hid, _n in starts:  # new track may leave a token's hex at any open side
            edges[hid] = here = set(edges.get(hid, ()))
            here.update(e for e, nid in enumerate(self._rows[hid][2]) if nid is not None)
        reach = Reach(
            nodes=frozenset(walk.nodes),
            paths=frozenset(walk.paths),
            edges={h: frozenset(e) for h, e in edges.items()},
        )
        return reach, walked

    def _walk(self, corp: str, starts: Collection[NodeRef], stops: frozenset[NodeRef],
              enough: int = 0, region: _Walk | None = None) -> _Walk | None:
        """What the walks of ``corp`` from the ``starts`` nodes reach (18xx.games
        ``Graph#compute``): the union of one walk per start, each as
        :func:`_exact_walk`, the other starts and the ``stops`` counting as
        visited (reached, not walked through).

        With ``enough``, it ends early, returning None, once that many nodes other
        than junctions are reached (the starts included).  ``region`` is
        :meth:`_search` from the same starts and stops, if already made.

        The search over (path, entry end) states (:meth:`_search`) has every move
        of the walk but none of its per-route limits (a path, node or hexside once
        per route), so it reaches all the walk reaches.  Where no tile it
        reaches has a converging exit (an edge two paths share) it reaches
        exactly that: branches are only at nodes and junctions, which the walk
        enters once and leaves by every path (a hexside is used by one path of
        each hex there, so a route can only come back over it on a path it
        already walked).  Only then is the exact walk needed; it stops once it
        has recorded every path of the search (nothing more can be found).
        """
        if region is None:
            if not self._converging:
                return self._search(corp, starts, stops, enough)
            region = self._search(corp, starts, stops)
            assert region is not None
        if not self._converging or self._converging.isdisjoint(h for h, _p in region.paths):
            if enough:
                kinds = NodeKind.JUNCTION
                if sum(1 for h, n in region.nodes
                       if self._rows[h][0].kinds[n] is not kinds) >= enough:
                    return None
            return region
        rows = self._rows
        order = list(dict.fromkeys(starts))
        walk = _Walk(set(), set(order), {})
        count = 0
        if enough:
            count = sum(1 for h, n in order if rows[h][0].kinds[n] is not NodeKind.JUNCTION)
            if count >= enough:
                return None
        missing = set(region.paths)
        everyone = frozenset(order) | stops
        memo: _Memo = {}
        for start in order:
            if not missing:
                break
            try:
                count = _exact_walk(rows, corp, start, everyone - {start}, walk, missing,
                                    enough, count, memo=memo)
            except _Enough:
                return None
        return walk

    def _search(self, corp: str, starts: Collection[NodeRef], stops: frozenset[NodeRef],
                enough: int = 0) -> _Walk | None:
        """The paths, nodes and edges ``corp`` reaches from the ``starts`` nodes by
        a search over (path, entry end) states: the walk's moves without its
        per-route limits (:meth:`_walk`).

        The walk does not pass through ``stops`` nodes.  With ``enough``, it
        ends early, returning None, once it reaches that many nodes other than
        junctions (the starts included).

        Each path is entered at one end and left at the other: the nodes and
        edges recorded are those it is left by (and the starts), which with the
        sides of crossed edges cover both ends of every path walked.
        """
        rows = self._rows
        junction, city_kind, offboard = NodeKind.JUNCTION, NodeKind.CITY, NodeKind.OFFBOARD
        paths: set[PathRef] = set()
        nodes: set[NodeRef] = set(starts)
        edges: dict[HexId, set[int]] = {}
        count = 0
        if enough:
            count = sum(1 for h, n in nodes if rows[h][0].kinds[n] is not junction)
            if count >= enough:
                return None
        seen: set[tuple[HexId, int, int]] = set()
        stack: list[tuple[HexId, int, int]] = []
        for hid, n in starts:
            for p in rows[hid][0].node_paths[n]:
                item = (hid, p, NODE + n)
                if item not in seen:
                    seen.add(item)
                    stack.append(item)
        while stack:
            hid, p, came = stack.pop()
            geo, table, opened, links, passers, _xt = rows[hid]
            a, b, terminal, skip = table[p]
            if skip:
                continue
            paths.add((hid, p))
            if a == b:
                continue
            end = b if came == a else a
            if end < NODE:
                here = edges.get(hid)
                if here is None:
                    edges[hid] = here = set()
                here.add(end)
                nid = opened[end]
                if nid is None:
                    continue
                back = _OPPOSITE[end]
                there = edges.get(nid)
                if there is None:
                    edges[nid] = there = set()
                there.add(back)
                for nid, q in links[end]:
                    item = (nid, q, back)
                    if item not in seen:
                        seen.add(item)
                        stack.append(item)
                continue
            node = end - NODE
            kind = geo.kinds[node]
            ref = (hid, node)
            if ref not in nodes:
                nodes.add(ref)
                if enough and kind is not junction:
                    count += 1
                    if count >= enough:
                        return None
            if stops and ref in stops:
                continue
            if kind is not junction:
                if terminal or kind is offboard:
                    continue
                if kind is city_kind:
                    allowed = passers[node]
                    if allowed is not None and corp not in allowed:
                        continue
            for q in geo.node_paths[node]:
                if q != p:
                    item = (hid, q, end)
                    if item not in seen:
                        seen.add(item)
                        stack.append(item)
        return _Walk(paths, nodes, edges)


class _Enough(Exception):
    """A walk reached the number of nodes asked for."""


class _Found(Exception):
    """A walk recorded one of the paths it was asked to look for."""


class _Complete(Exception):
    """A walk recorded every path its region holds: it can find nothing new."""


def _exact_walk(rows: Mapping[HexId, _Row], corp: str, start: NodeRef,
                visited: frozenset[NodeRef], out: _Walk, missing: set[PathRef] | None,
                enough: int, count: int, wanted: frozenset[PathRef] = frozenset(),
                memo: _Memo | None = None) -> int:
    """One walk from ``start``, recording into ``out``; returns the node count.

    18xx.games ``Node#walk`` and ``Path#walk``, whose visiting order decides what
    is reached: paths in tile order, a path's ends in its own order, nodes
    before the track leaving by its edges.  Within the walk a path and a node
    are entered once; a path with an edge the route has left its hex by
    (``counter``, each hexside once per route) is not entered, nor a junction
    path when the route already went through that junction; past a converging
    exit (a tile edge two paths share) paths and nodes are released again on the
    way back.  ``visited`` nodes are reached but not walked through; full
    cities of others and off-boards end a route, a terminal path's nodes are
    reached but not left.  Recording a path records its nodes, its edges and
    the sides facing them.  Raises :class:`_Complete` once ``missing`` (the
    paths still to record; None: walk to the end) is empty, :class:`_Enough` once ``enough`` nodes
    other than junctions are recorded, :class:`_Found` once it records one of
    ``wanted``.

    ``memo`` (a dict the walks from every start of one search share, recording
    into the same ``out``) skips repeated walks past converging exits that can
    find nothing new; without it the walk is the plain one, which the tests
    compare it with (tests/engine/map/test_graph_walk_oracle.py).  Past a converging exit
    a walk leaves nothing behind but what it records (it releases every path,
    node, hexside and junction count it took), so it tries every route the marks
    taken before it allow.  What stopped it is known: the marks older than its
    start that a test found taken (its *blockers*; a junction's count of one and
    of two are two marks).  A later walk from the same path, entry edge and
    entry junction, started while all those blockers are taken again, can only
    follow routes the first one followed and record nothing new: it is skipped
    (its blockers passed on to the walk it is part of).  Recording is the only
    thing skipped, so what is recorded, in which order, and where ``enough``,
    ``wanted`` or ``missing`` stop the walk, are the same.
    """
    paths, nodes, edges = out.paths, out.nodes, out.edges
    counter: dict[tuple[HexId, int], int] = {}
    jcount: dict[NodeRef, int] = {}
    vpaths: set[PathRef] = set()
    vnodes: set[NodeRef] = set(visited)
    total = [count]
    # memo: the tick at which each mark was taken (per kind of mark), and per walk
    # state the blockers of finished converging walks from it
    clock = [0]
    t_path: dict[PathRef, int] = {}
    t_node: dict[NodeRef, int] = dict.fromkeys(visited, 0)
    t_side: dict[tuple[HexId, int], int] = {}
    t_one: dict[NodeRef, int] = {}
    t_two: dict[NodeRef, int] = {}
    done = memo

    def taken(mark: _Mark) -> bool:
        kind, key = mark
        if kind == _PATH:
            return key in vpaths
        if kind == _NODE:
            return key in vnodes
        if kind == _SIDE:
            return bool(counter.get(key))
        return jcount.get(key, 0) >= (2 if kind == _TWO else 1)

    def tick_of(mark: _Mark) -> int:
        kind, key = mark
        table = (t_path, t_node, t_side, t_one, t_two)[kind]
        return table[key]

    def record(hid: HexId, p: int, xt: _XRow, opened: tuple[HexId | None, ...]) -> None:
        ref = (hid, p)
        paths.add(ref)
        if wanted and ref in wanted:
            raise _Found
        for m in xt.junctions[p]:
            nodes.add((hid, m))
        for m in xt.nodes[p]:
            nref = (hid, m)
            if nref not in nodes:
                nodes.add(nref)
                if enough:
                    total[0] += 1
                    if total[0] >= enough:
                        raise _Enough
        for e in xt.edges[p]:
            here = edges.get(hid)
            if here is None:
                edges[hid] = here = set()
            here.add(e)
            nid = opened[e]
            if nid is not None:
                there = edges.get(nid)
                if there is None:
                    edges[nid] = there = set()
                there.add(_OPPOSITE[e])
        if missing is not None:
            missing.discard(ref)
            if not missing:
                raise _Complete

    def walk_node(ref: NodeRef, converging: bool, hits: list[_Hit] | None) -> None:
        vnodes.add(ref)
        if done is not None:
            clock[0] += 1
            t_node[ref] = clock[0]
        hid, node = ref
        for p in rows[hid][0].node_paths[node]:
            pref = (hid, p)
            if pref not in vpaths:
                walk_path(hid, p, -1, None, converging, ref, converging, hits)
            elif hits is not None:
                hits.append((t_path[pref], _PATH, pref))
        if converging:
            vnodes.discard(ref)

    def walk_path(hid: HexId, p: int, skip: int, jskip: NodeRef | None, converging: bool,
                  origin: NodeRef, origin_converging: bool, hits: list[_Hit] | None) -> None:
        geo, table, opened, links, passers, xt = rows[hid]
        if table[p][3]:
            return  # a terminal junction stub is never walked
        junction = xt.junctions[p]
        jref = (hid, junction[0]) if junction else None
        if jref is not None and jcount.get(jref, 0) > 1:
            if hits is not None:
                hits.append((t_one[jref], _ONE, jref))
                hits.append((t_two[jref], _TWO, jref))
            return
        path_edges = xt.edges[p]
        for e in path_edges:
            if counter.get((hid, e)):
                if hits is not None:
                    hits.append((t_side[(hid, e)], _SIDE, (hid, e)))
                return
        mine = hits
        entry = clock[0]
        found: list[frozenset[_Mark]] | None = None
        if done is not None and converging:
            state = (hid, p, skip, jskip)
            found = done.get(state)
            if found is None:
                done[state] = []  # seen: a walk from here again keeps its blockers
            else:
                for blockers in found:
                    if all(taken(b) for b in blockers):
                        if hits is not None:  # the skipped walk's blockers are the caller's
                            hits.extend((tick_of(b), b[0], b[1]) for b in blockers)
                        return
                mine = []
        pref = (hid, p)
        vpaths.add(pref)
        if done is not None:
            clock[0] += 1
            t_path[pref] = clock[0]
        if jref is not None:
            jcount[jref] = n = jcount.get(jref, 0) + 1
            if done is not None:
                (t_one if n == 1 else t_two)[jref] = clock[0]
        if pref not in paths:
            record(hid, p, xt, opened)
        if not table[p][2]:
            for m in xt.nodes[p]:
                ref = (hid, m)
                if ref == origin or ref in vnodes:
                    if mine is not None:
                        mine.append((t_node[ref], _NODE, ref))
                    continue
                kind = geo.kinds[m]
                if kind is NodeKind.OFFBOARD:
                    continue
                if kind is NodeKind.CITY:
                    allowed = passers[m]
                    if allowed is not None and corp not in allowed:
                        continue
                walk_node(ref, origin_converging or converging, mine)
        if jref is not None and jref != jskip:
            for q in geo.node_paths[jref[1]]:
                qref = (hid, q)
                if qref not in vpaths:
                    walk_path(hid, q, -1, jref, converging, origin, origin_converging, mine)
                elif mine is not None:
                    mine.append((t_path[qref], _PATH, qref))
        for e in path_edges:
            if e == skip:
                continue
            nid = opened[e]
            if nid is None:
                continue
            key = (hid, e)
            counter[key] = counter.get(key, 0) + 1
            if done is not None:
                clock[0] += 1
                t_side[key] = clock[0]
            back = _OPPOSITE[e]
            onward = converging or xt.converging[e]
            for _nid, q in links[e]:
                qref = (nid, q)
                if qref not in vpaths:
                    walk_path(nid, q, back, None, onward, origin, origin_converging, mine)
                elif mine is not None:
                    mine.append((t_path[qref], _PATH, qref))
            counter[key] -= 1
        if converging:
            vpaths.discard(pref)
        if jref is not None:
            jcount[jref] -= 1
        if found is not None and mine is not None:
            older = [hit for hit in mine if hit[0] <= entry]
            if len(found) < _MEMO_WIDTH:
                found.append(frozenset((kind, key) for _t, kind, key in older))
            if hits is not None:
                hits.extend(older)

    if sys.getrecursionlimit() < 20_000:
        sys.setrecursionlimit(20_000)
    try:
        walk_node(start, False, None)
    except _Complete:
        pass
    return total[0]


_PATH, _NODE, _SIDE, _ONE, _TWO = range(5)
"""Kinds of the exact walk's marks: a path, a node, a hexside, a junction entered
once, twice."""

_Mark = tuple[int, tuple[HexId, int]]
"""A mark of the exact walk: its kind and what it marks."""

_Hit = tuple[int, int, tuple[HexId, int]]
"""A mark a test found taken: the tick it was taken at, its kind, what it marks."""

_MEMO_WIDTH = 8
"""Blocker sets kept per walk state."""

_Memo = dict[tuple[HexId, int, int, "NodeRef | None"], list[frozenset[_Mark]]]
"""Per walk state (path, entry edge, entry junction), the blocker sets of the
converging walks finished from it (:func:`_exact_walk`)."""


@dataclass(slots=True)
class _Walk:
    """What one walk reached."""

    paths: set[PathRef]
    nodes: set[NodeRef]
    edges: dict[HexId, set[int]]
    """Per hex, the edges of walked paths there and the facing sides across them."""


_OPPOSITE = tuple(opposite(e) for e in range(6))

PathRow = tuple[int, int, bool, bool]
"""Per path: its two ends, terminal, and never walked (terminal at a junction)."""

_TABLES: dict[Geometry, tuple[PathRow, ...]] = {}


def _table(geo: Geometry) -> tuple[PathRow, ...]:
    """The walk's view of a tile's paths, built once per geometry."""
    found = _TABLES.get(geo)
    if found is None:
        rows = []
        for (a, b), terminal in zip(geo.ends, geo.terminal, strict=True):
            junction = any(x >= NODE and geo.kinds[x - NODE] is NodeKind.JUNCTION
                           for x in (a, b))
            rows.append((a, b, terminal, terminal and junction))
        found = tuple(rows)
        _TABLES[geo] = found
    return found


@dataclass(frozen=True, slots=True)
class _XRow:
    """A tile's paths as the exact walk reads them (built once per geometry)."""

    edges: tuple[tuple[int, ...], ...]
    """Per path, its edges in end order."""
    nodes: tuple[tuple[int, ...], ...]
    """Per path, its nodes other than junctions, in end order."""
    junctions: tuple[tuple[int, ...], ...]
    """Per path, its junction node (at most one)."""
    converging: tuple[bool, ...]
    """Per edge 0-5, more than one path leaves by it (18xx ``converging_exit?``)."""
    converges: bool
    """Some edge is a converging exit."""


_XTABLES: dict[Geometry, _XRow] = {}


def _xtable(geo: Geometry) -> _XRow:
    """The exact walk's view of a tile's paths (cached per geometry)."""
    found = _XTABLES.get(geo)
    if found is None:
        junction = NodeKind.JUNCTION
        found = _XRow(
            edges=tuple(tuple(x for x in ends if x < NODE) for ends in geo.ends),
            nodes=tuple(tuple(x - NODE for x in ends
                              if x >= NODE and geo.kinds[x - NODE] is not junction)
                        for ends in geo.ends),
            junctions=tuple(tuple(x - NODE for x in ends
                                  if x >= NODE and geo.kinds[x - NODE] is junction)
                            for ends in geo.ends),
            converging=tuple(len(geo.edge_paths[e]) > 1 for e in range(6)),
            converges=any(len(geo.edge_paths[e]) > 1 for e in range(6)),
        )
        _XTABLES[geo] = found
    return found


_Row = tuple[
    Geometry,
    tuple[PathRow, ...],
    tuple[HexId | None, ...],
    tuple[tuple[PathRef, ...], ...],
    tuple[frozenset[str] | None, ...],
    "_XRow",
]


def _passers(st: HexState) -> tuple[frozenset[str] | None, ...]:
    """Per node of the hex: for a city full of tokens, the companies that may pass
    it (tokens in a slot or beside; :meth:`HexState.city_blocks`), else None."""
    out: list[frozenset[str] | None] = [None] * len(st.geo.kinds)
    for c, n in enumerate(st.geo.city_nodes):
        slots = st.tokens[c]
        if any(t is None or t.kind == "neutral" for t in slots):
            continue
        out[n] = frozenset(t.corp for t in slots if t is not None).union(
            t.corp for t in st.extra_tokens[c])
    return tuple(out)


def _blocking(st: HexState, corp: str) -> tuple[bool, ...]:
    """Per city of the hex, whether it blocks ``corp``."""
    return tuple(st.city_blocks(c, corp) for c in range(len(st.tokens)))


def _corps_on(st: HexState) -> set[str]:
    """Companies with a token (slot or extra) in the hex."""
    out = {t.corp for slots in st.tokens for t in slots if t is not None}
    out.update(t.corp for extra in st.extra_tokens for t in extra)
    return out


_CACHE: dict[int, TrackGraph] = {}


def graph_for(
    board: Board, impassable_colors: Collection[Color] = DEFAULT_IMPASSABLE
) -> TrackGraph:
    """The graph of ``board`` at its current version, built once per version.

    A new version is derived from the board's previous graph; a new board (a
    copy) from the last graph of the same map, so snapshots stay cheap.
    """
    g = _CACHE.get(board.serial)
    if g is not None and g.version == board.version and g.board is board:
        return g
    base = g if g is not None and g.board is board else None
    if base is None:
        base = next((x for x in reversed(_CACHE.values())
                     if x.board.neighbour_table is board.neighbour_table), None)
    g = TrackGraph(board, impassable_colors, base)
    _CACHE.pop(board.serial, None)
    if len(_CACHE) > 64:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[board.serial] = g
    return g


def tokenable_cities(board: Board, corp: str) -> list[tuple[HexId, int]]:
    """Cities (hex, city number) where ``corp`` may place a token now.

    The city must be reached by ``corp``'s track, have a free slot that no
    other company has reserved, and lie in a hex without a ``corp`` token
    (18xx.games ``City#tokenable?`` with the default same-hex rule).  Whole-hex
    reservations of other companies keep one free slot each.
    """
    reach = graph_for(board).reach(corp)
    out: list[tuple[HexId, int]] = []
    for hid, node in sorted(reach.nodes):
        st = board.hex(hid)
        if node not in st.geo.city_nodes or st.tokened_by(corp):
            continue
        city = st.geo.city_nodes.index(node)
        own = any(r == corp for r in st.reserved[city])
        if not own and st.free_slots(city) == 0:
            continue
        others = [r for r in st.hex_reservations if r != corp]
        free_total = sum(st.free_slots(c) for c in range(len(st.tokens)))
        if others and not own and free_total <= len(others):
            continue
        out.append((hid, city))
    return out
