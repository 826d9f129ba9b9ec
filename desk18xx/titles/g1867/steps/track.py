"""1867 track and token steps (card: "OR Lay track", "OR Tokens")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from desk18xx.engine.actions import Action, LayTile, Pass, PlaceToken
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.map.tiles import geometry, paths_kept
from desk18xx.engine.round import Step
from desk18xx.engine.state import BANK
from desk18xx.engine.tiledef import COLOR_ORDER, Color, NodeKind, TileDef
from desk18xx.titles.g1867 import board as B
from desk18xx.titles.g1867.board import stop_counts
from desk18xx.titles.g1867.steps.stock import g

if TYPE_CHECKING:
    from desk18xx.engine.game import Game
    from desk18xx.titles.g1867.game import G1867


_MOST_EXITS: dict[int, tuple[object, tuple[object, ...], int]] = {}
"""id(board) -> (the board, what the answer depends on, the most exits): the last
question of `Track._max_exits` per board."""


class Track(Step):
    """Two lays, at most one an upgrade, the second $20 (card: "OR Lay track")."""

    def setup(self, game: Game) -> None:
        self.compat = g(game).config.compat_18xxgames
        self.laid = 0
        self.upgraded = False
        self.laid_hexes: list[str] = []

    def connected_edges(self, game: Game, entity: str) -> dict[str, set[int]]:
        """Edges of each hex the company's network reaches (18xx ``connected_hexes``)."""
        board = g(game).board
        assert board is not None
        _nodes, reached = B.reach(board, entity)
        edges = {h: set(es) for h, es in reached.items()}
        for h, _c, _s in B.corp_tokens(board, entity):
            edges.setdefault(h, set()).update(e for e in range(6) if B.passable(board, h, e))
        return edges

    def tile_lay(self) -> tuple[bool, bool, int] | None:
        """(may lay yellow, may upgrade, extra cost) for the next lay."""
        if self.laid == 0:
            return (True, True, 0)
        if self.laid == 1:
            # card: "plus one more yellow for $20";
            # 18xx.games: {lay: true, upgrade: :not_if_upgraded, cost: 20}
            return (True, not self.upgraded and self.compat, 20)
        return None

    def details(self, game: Game, entity: str) -> dict[str, Any]:
        lay = self.tile_lay()
        if lay is None:
            return {}
        return {"may_lay_yellow": lay[0], "may_upgrade": lay[1], "extra_cost": lay[2],
                "hexes": sorted(h for h in self.connected_edges(game, entity)
                                if h not in self.laid_hexes)}

    def legal_tiles(self, game: Game, entity: str, hex_id: str) -> list[tuple[str, list[int]]]:
        """Tiles (a free copy id) and rotations ``entity`` may lay on ``hex_id`` now."""
        board = g(game).board
        assert board is not None
        edges = self.connected_edges(game, entity)
        out: list[tuple[str, list[int]]] = []
        for name in board.manifest:
            copy = B.free_copy(board, name)
            if copy is None:
                continue
            rots = []
            for rot in range(6):
                try:
                    self.check_lay(game, entity, hex_id, copy, rot, edges=edges)
                except IllegalAction:
                    continue
                rots.append(rot)
            if rots:
                out.append((copy, rots))
        return out

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        if entity != self.current_entity(game):
            return ()
        lay = self.tile_lay()
        if lay is None or not (lay[0] or lay[1]):
            return ()
        if g(game).buying_power(entity, full=True) < lay[2]:
            return ()
        return (LayTile, Pass)

    def process(self, game: Game, action: Action) -> None:
        match action:
            case LayTile():
                self._lay(game, action)
                if not self.legal(game, action.entity):
                    self.passed = True
            case Pass():
                self.pass_(game)
            case _:
                raise IllegalAction(f"{action.type} is not a tile lay")

    def hex_problem(self, game: Game, hex_id: str) -> str | None:
        """Why no tile may be laid on ``hex_id`` by the next lay (None: some may)."""
        board = g(game).board
        assert board is not None
        if self.tile_lay() is None:
            return "no more tile lays this turn (the card, OR Lay track)"
        if hex_id not in board:
            return f"no hex {hex_id}"
        if B.blocked(board, hex_id):
            return f"{hex_id} is blocked until the first 3"
        if hex_id in self.laid_hexes:
            return f"{hex_id} was already laid on this turn"
        return None

    def tile_problem(self, game: Game, hex_id: str, tile_id: str) -> str | None:
        """Why copy ``tile_id`` fits ``hex_id`` at no rotation (supply, the kind of lay,
        phase, colour, label, stops), or None; :meth:`hex_problem` found nothing."""
        gm = g(game)
        board = gm.board
        assert board is not None
        lay = self.tile_lay()
        assert lay is not None
        name = tile_id.rpartition("-")[0]
        entry = board.manifest.get(name)
        if entry is None or not board.is_available(tile_id):
            return f"tile {tile_id} is not available"
        tile = entry.tile
        old = board.hex(hex_id)
        upgrade = old.tile.color is not Color.WHITE
        if upgrade and not lay[1]:
            if self.upgraded:
                return "one upgrade per turn (the card, OR Lay track)"
            return "the second lay is a yellow tile (the card, OR Lay track)"
        if tile.color is Color.YELLOW and not lay[0]:
            return "cannot lay a yellow now"
        if tile.color.value not in gm.phase.tiles:
            return f"{tile.color.value} tiles come in a later phase"
        if old.tile.color in (Color.RED, Color.BLUE, Color.GRAY):
            return f"{hex_id} cannot be upgraded"
        if COLOR_ORDER.index(tile.color) != COLOR_ORDER.index(old.tile.color) + 1:
            return f"{old.tile.name} does not upgrade to {tile.name}"
        return self._fixed_shape_problem(game, hex_id, tile)

    def check_lay(self, game: Game, entity: str, hex_id: str, tile_id: str, rotation: int,
                  max_exits: bool = True, edges: dict[str, set[int]] | None = None,
                  new_track: bool = True) -> tuple[TileDef, int]:
        """Validate a lay without changing anything; return the tile and its cost.

        ``max_exits`` and ``new_track`` switch off the most-exits rule and the
        new-track rule (probing which tiles fit).

        Raises:
            IllegalAction: the lay breaks a rule.
        """
        gm = g(game)
        lay = self.tile_lay()
        why = self.hex_problem(game, hex_id) or self.tile_problem(game, hex_id, tile_id)
        if why is not None:
            raise IllegalAction(why)
        assert lay is not None and gm.board is not None
        tile = gm.board.manifest[tile_id.rpartition("-")[0]].tile
        old = gm.board.hex(hex_id)
        if edges is None:
            edges = self.connected_edges(game, entity)
        self._check_shape(game, hex_id, tile, rotation, entity, edges)
        if max_exits and stop_counts(old.tile)[0]:
            # card: "When upgrading a city to brown, use a 6 exit tile if possible"
            best = self._max_exits(game, entity, hex_id, tile.color, edges)
            if len(tile.exits) < best:
                raise IllegalAction(f"use a tile with {best} exits on {hex_id}")
        cost = sum(u.cost for u in old.tile.upgrades) + lay[2]
        cost += sum(c for _k, c in self._borders(game, hex_id, tile, rotation))
        if gm.buying_power(entity, full=True) < cost:
            raise IllegalAction(f"{entity} cannot pay ${cost} for this tile")
        if new_track:
            self._check_new_track(game, entity, hex_id, tile_id, tile, rotation)
        return tile, cost

    @staticmethod
    def _check_new_track(game: Game, entity: str, hex_id: str, tile_id: str, tile: TileDef,
                         rotation: int) -> None:
        """A lay must give the company new track or a new city value (rules silent;
        18xx.games ``Tracker#check_track_restrictions!``, ``:semi_restrictive``):
        some path of the new tile the company reaches once it is laid is not old
        track, or changes the value of the stops on it.

        Raises:
            IllegalAction: the lay gives the company neither.
        """
        if game.loading:
            return  # as on 18xx.games: a stored game replays as it was played
        board = g(game).board
        assert board is not None
        if not B.gives_new_track(board, entity, hex_id, tile, tile_id, rotation):
            raise IllegalAction(f"{tile.name} on {hex_id} must give {entity} new track "
                                "or change a city value")

    def _max_exits(self, game: Game, entity: str, hex_id: str, color: Color,
                   edges: dict[str, set[int]]) -> int:
        """The most exits a ``color`` tile that fits ``hex_id`` has (remembered per
        position: the door's offer and the lay itself ask the same question)."""
        gm = g(game)
        board = gm.board
        assert board is not None
        key = (entity, hex_id, color, gm.phase.name, self.tile_lay(), tuple(self.laid_hexes),
               gm.buying_power(entity, full=True), frozenset(edges.get(hex_id, ())),
               board.serial, board.version)
        hit = _MOST_EXITS.get(id(board))
        if hit is not None and hit[0] is board and hit[1] == key:
            return hit[2]
        best = self._widest_fit(game, entity, hex_id, color, edges)
        if len(_MOST_EXITS) > 64:
            _MOST_EXITS.clear()
        _MOST_EXITS[id(board)] = (board, key, best)
        return best

    def _widest_fit(self, game: Game, entity: str, hex_id: str, color: Color,
                    edges: dict[str, set[int]]) -> int:
        board = g(game).board
        assert board is not None
        old = board.hex(hex_id).tile
        same = [e.tile for n, e in board.manifest.items()
                if e.tile.color is color and stop_counts(e.tile)[0] == stop_counts(old)[0]
                and B.free_copy(board, n) is not None]
        widest = max((len(t.exits) for t in same), default=0)
        if all(len(t.exits) == widest for t in same):
            return widest  # every candidate has the same number of exits
        best = 0
        # widest first: the first tile that fits is the answer
        widest_first = sorted((n for n, e in board.manifest.items() if e.tile.color is color),
                              key=lambda n: -len(board.manifest[n].tile.exits))
        for name in widest_first:
            entry = board.manifest[name]
            if len(entry.tile.exits) <= best:
                break
            copy = B.free_copy(board, name)
            if copy is None:
                continue
            for rot in range(6):
                try:
                    self.check_lay(game, entity, hex_id, copy, rot, max_exits=False,
                                   edges=edges, new_track=False)
                except IllegalAction:
                    continue
                best = len(entry.tile.exits)
                break
        return best

    def _lay(self, game: Game, action: LayTile) -> None:
        gm = g(game)
        board = gm.board
        assert board is not None
        hex_id = action.hex
        tile, cost = self.check_lay(game, action.entity, hex_id, action.tile, action.rotation)
        upgrade = board.hex(hex_id).tile.color is not Color.WHITE
        paid = [key for key, _c in self._borders(game, hex_id, tile, action.rotation)]
        gm.take_loans_for(action.entity, cost)
        if cost:
            game.transfer(action.entity, BANK, cost)
        B.lay(board, hex_id, action.tile, action.rotation)
        for here, there in paid:
            board.remove_border(*here)
            board.remove_border(*there)
        gm.token_graph.clear()  # 18xx ``Tracker#lay_tile`` clears the graph
        gm.resync_tokens(hex_id)
        if upgrade:
            self.upgraded = True
        self.laid += 1
        self.laid_hexes.append(hex_id)
        if tile.name == "639":
            gm.place_639_token(hex_id)

    @staticmethod
    def _fixed_shape_problem(game: Game, hex_id: str, tile: TileDef) -> str | None:
        """Label, cities and towns: what does not depend on the rotation."""
        board = g(game).board
        assert board is not None
        old = board.hex(hex_id)
        hd = board.hex_def(hex_id)
        label = old.tile.label
        if hd.tile.future_label and tile.color == hd.tile.future_label.color:
            label = hd.tile.future_label.label
        if (label or None) != (tile.label or None):
            where = f"{hd.location_name} ({hex_id})" if hd.location_name else hex_id
            if not label:
                return f"{where} takes only tiles without a label"
            fits = sorted((n for n, e in board.manifest.items() if e.tile.label == label
                           and e.tile.color is tile.color), key=_tile_order)
            listed = f": {', '.join(fits)}" if fits else ""
            return f"{where} takes only its {label} tiles{listed}"
        (old_cities, old_towns), (new_cities, new_towns) = (stop_counts(old.tile),
                                                            stop_counts(tile))
        if old_cities != new_cities and old.tile.color is not Color.WHITE \
                and label not in ("T", "M", "O"):
            return f"{tile.name} does not match the cities of {hex_id}"
        if old_towns != new_towns or bool(old_cities) != bool(new_cities):
            return f"{tile.name} does not match the stops of {hex_id}"
        return None

    def _check_shape(self, game: Game, hex_id: str, tile: Any, rotation: int,
                     entity: str, reach: dict[str, set[int]]) -> None:
        gm = g(game)
        board = gm.board
        assert board is not None
        old = board.hex(hex_id)
        hd = board.hex_def(hex_id)
        why = self._fixed_shape_problem(game, hex_id, tile)
        if why is not None:
            raise IllegalAction(why)
        (old_cities, _), (new_cities, _) = stop_counts(old.tile), stop_counts(tile)
        new_shape = geometry(tile, rotation)
        if not new_shape.exits & reach.get(hex_id, set()):
            raise IllegalAction(f"{entity} cannot reach {hex_id} with that tile")
        # 18xx upgrades_to? / legal_tile_rotation?: every old path is kept, not just its exits
        if not paths_kept(old.geo, new_shape):
            raise IllegalAction(f"{tile.name} must keep the track of {old.tile.name}")
        # every old connected city keeps exactly one new city (18xx legal_tile_rotation?)
        osh = old.geo
        old_ct = [osh.node_edges[i] for i, n in enumerate(old.tile.nodes)
                  if n.kind in (NodeKind.CITY, NodeKind.TOWN) and osh.node_edges[i]]
        new_ct = [new_shape.node_edges[i] for i, n in enumerate(tile.nodes)
                  if n.kind in (NodeKind.CITY, NodeKind.TOWN) and new_shape.node_edges[i]]
        for oc in old_ct:
            matches = sum(1 for nc in new_ct if oc <= nc)
            if matches == 0 or (new_cities > 1 and old_cities > 1
                                and matches != 1):
                raise IllegalAction(f"{tile.name} does not keep the stations of {hex_id}")
        # no more wholly new cities than the tile adds (18xx legal_tile_rotation?
        # valid_added_city_count): two old stations may not share one new city (D27)
        fresh = sum(1 for nc in new_ct if not any(nc & oc for oc in old_ct))
        if fresh > max(0, len(new_ct) - len(old_ct)):
            raise IllegalAction(f"{tile.name} does not keep the stations of {hex_id}")
        for stub in hd.tile.stubs:
            if stub not in new_shape.exits:
                raise IllegalAction(f"the yellow triangle of {hex_id} must be joined")
        for b in hd.tile.borders:
            if b.type == "impassable" and b.edge in new_shape.exits:
                raise IllegalAction(f"track cannot cross the border of {hex_id}")
        from desk18xx.engine.map.hexgrid import neighbour_id

        for e in new_shape.exits:
            if not B.passable(board, hex_id, e):
                raise IllegalAction(f"track of {tile.name} would leave the map or cross "
                                    "an impassable border")
        for e in new_shape.exits - old.geo.exits:
            other = neighbour_id(hex_id, e)
            other_color = board.hex(other).tile.color
            if other_color in (Color.GRAY, Color.RED, Color.BLUE) and not B.neighbour_enterable(
                    board, hex_id, e):
                raise IllegalAction(f"track of {tile.name} runs into {other}")

    def _borders(self, game: Game, hex_id: str, tile: TileDef, rotation: int
                 ) -> list[tuple[tuple[tuple[str, int], tuple[str, int]], int]]:
        """River crossings this lay completes: $80 once, when track meets from both sides."""
        board = g(game).board
        assert board is not None
        from desk18xx.engine.map.hexgrid import neighbour_id, opposite

        out: list[tuple[tuple[tuple[str, int], tuple[str, int]], int]] = []
        exits = geometry(tile, rotation).exits
        for b in board.hex(hex_id).borders:
            if not b.cost or b.edge not in exits:
                continue
            other = neighbour_id(hex_id, b.edge)
            if other in board and opposite(b.edge) in board.hex(other).geo.exits:
                out.append((((hex_id, b.edge), (str(other), opposite(b.edge))), b.cost))
        return out


class TokenStep(Step):
    """A major places one token per OR (card: "OR Tokens")."""

    def tokenable(self, game: Game, entity: str) -> list[tuple[str, int]]:
        """(hex, city) the company can reach with a free slot, not in a hex it holds."""
        gm = g(game)
        board = gm.board
        assert board is not None
        nodes = B.reach_nodes(board, entity)
        out: list[tuple[str, int]] = []
        for h, node in sorted(nodes):
            st = board.hex(h)
            if node not in st.geo.city_nodes:
                continue
            ci = st.geo.city_nodes.index(node)
            if B.hex_has_token_of(board, h, entity):
                continue
            if None in st.tokens[ci]:
                out.append((h, ci))
        return out

    @staticmethod
    def open_cities(game: Game, entity: str, only: str | None = None
                    ) -> frozenset[tuple[str, int]]:
        """(hex, node) of every city with a free slot in a hex without a token of
        ``entity`` (or only in hex ``only``): where a token could go if reached."""
        board = g(game).board
        assert board is not None
        out = []
        for h in (board.hex_ids() if only is None else (only,)):
            if h not in board:
                continue
            st = board.hex(h)
            if not st.geo.city_nodes or B.hex_has_token_of(board, h, entity):
                continue
            for ci, node in enumerate(st.geo.city_nodes):
                if None in st.tokens[ci]:
                    out.append((h, node))
        return frozenset(out)

    def can_token(self, game: Game, entity: str, hex_id: str | None = None,
                  city: int | None = None) -> bool:
        """:meth:`tokenable` is not empty (or holds that city), found by a walk that
        stops at the first open city reached."""
        board = g(game).board
        assert board is not None
        wanted = self.open_cities(game, entity, hex_id)
        if city is not None and hex_id is not None:
            nodes = board.hex(hex_id).geo.city_nodes
            if not 0 <= city < len(nodes):
                return False
            wanted = wanted & {(hex_id, nodes[city])}
        return B.reaches_any(board, entity, wanted)

    def details(self, game: Game, entity: str) -> dict[str, Any]:
        gm = g(game)
        token = gm.corps[entity].next_token()
        if token is None:
            return {}
        return {"cities": [{"hex": h, "city": c,
                            "cost": gm.token_distance_cost(entity, h, token)}
                           for h, c in self.tokenable(game, entity)]}

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        gm = g(game)
        if entity != self.current_entity(game) or not gm.is_major(entity):
            return ()
        token = gm.corps[entity].next_token()
        if token is None or game.cash[entity] < token.price:
            return ()
        if not self._can_token_now(gm, entity):
            return ()
        return (PlaceToken, Pass)

    def _can_token_now(self, gm: G1867, entity: str) -> bool:
        """Whether the step is open.  Under ``compat_18xxgames`` 18xx.games' cached
        answer (`G1867.token_graph`): it keeps what its token step found until a
        tile is laid or a token placed, even after a nationalisation freed or
        blocked cities, and a recorded game follows it (its next company's token
        step skipped).  By the rules, the board as it is."""
        if not gm.config.compat_18xxgames:
            return self.can_token(gm, entity)
        known = gm.token_graph.get(entity)
        if known is None:
            known = gm.token_graph[entity] = self.can_token(gm, entity)
        return known

    def process(self, game: Game, action: Action) -> None:
        match action:
            case PlaceToken():
                gm = g(game)
                hex_id, city = gm.token_city(action.city)
                if not self.can_token(game, action.entity, hex_id, city):
                    raise IllegalAction(f"{action.entity} cannot place a token on {hex_id}")
                token = gm.corps[action.entity].next_token()
                assert token is not None
                cost = gm.token_distance_cost(action.entity, hex_id, token)
                game.transfer(action.entity, BANK, cost)
                gm.put_token(action.entity, hex_id, city, action.slot, token)
                self.passed = True
            case Pass():
                self.pass_(game)
            case _:
                raise IllegalAction(f"{action.type} is not a token placement")


def _tile_order(name: str) -> tuple[int, str]:
    digits = "".join(ch for ch in name if ch.isdigit())
    return (int(digits) if digits else 0, name)
