"""1867 operating-round steps (card: "Operating round" … "Buy trains").

Order (18xx ``g_1867/game.rb#operating_round``): trainless major, buy private
(non-blocking), redeem, track, token, routes, dividend, buy private before
loans, loans, discard, buy trains, buy private.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from desk18xx.engine.actions import (
    Action,
    BuyCompany,
    BuyShares,
    BuyTrain,
    Dividend,
    LayTile,
    Pass,
    PlaceToken,
    RunRoutes,
)
from desk18xx.engine.board_lite import stop_counts
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.round import Step
from desk18xx.engine.state import BANK, DEPOT, POOL, CorpKind
from desk18xx.engine.tiledef import COLOR_ORDER, Color, NodeKind, TileDef
from desk18xx.titles.g1867 import rules as R
from desk18xx.titles.g1867.revenue import check_routes
from desk18xx.titles.g1867.steps.stock import g

if TYPE_CHECKING:
    from desk18xx.engine.game import Game


class BuyCompanyStep(Step):
    """A corporation buys a private from a player, $1 to face, phases 3-5."""

    blocks: ClassVar[bool] = False

    def purchasable(self, game: Game) -> list[str]:
        """Privates owned by players."""
        return [c.id for c in game.companies.values()
                if c.owner is not None and game.is_player(c.owner) and not c.closed]

    def can_buy(self, game: Game, entity: str) -> bool:
        """Phase allows and the company has at least $1."""
        return (entity == self.current_entity(game) and entity in game.corps
                and "can_buy_companies" in game.phase.status
                and bool(self.purchasable(game)) and game.cash[entity] >= 1)

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        if not self.can_buy(game, entity):
            return ()
        return (BuyCompany, Pass) if self.blocks else (BuyCompany,)

    def details(self, game: Game, entity: str) -> dict[str, Any]:
        return {"companies": [{"company": c, "owner": game.companies[c].owner, "min_price": 1,
                               "max_price": min(game.companies[c].value, game.cash[entity])}
                              for c in self.purchasable(game)]}

    def process(self, game: Game, action: Action) -> None:
        match action:
            case BuyCompany():
                company = game.companies.get(action.company)
                if company is None or action.company not in self.purchasable(game):
                    raise IllegalAction(f"{action.company} cannot be bought")
                if not 1 <= action.price <= company.value:
                    raise IllegalAction(f"price must be $1 to ${company.value}")
                assert company.owner is not None
                game.transfer(action.entity, company.owner, action.price)
                company.owner = action.entity
                game.corps[action.entity].companies.append(company.id)
            case Pass():
                self.pass_(game)
            case _:
                raise IllegalAction(f"{action.type} is not a private purchase")


class BuyCompanyBlocking(BuyCompanyStep):
    """The same, as a stop of its own."""

    blocks: ClassVar[bool] = True


class RedeemShares(Step):
    """A major buys back pool shares at the current price (card: "OR Redeem")."""

    def redeemable(self, game: Game, entity: str) -> list[str]:
        """Pool shares it can pay for."""
        gm = g(game)
        if not gm.is_major(entity):
            return []
        pool = [s for s in gm.shares_of(POOL, entity)]
        if not pool:
            return []
        price = gm.price(entity)
        return [s.id for s in pool] if game.cash[entity] >= price else []

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        if entity != self.current_entity(game) or not self.redeemable(game, entity):
            return ()
        return (BuyShares, Pass)

    def process(self, game: Game, action: Action) -> None:
        match action:
            case BuyShares():
                gm = g(game)
                ok = set(self.redeemable(game, action.entity))
                if not action.shares or any(s not in ok for s in action.shares):
                    raise IllegalAction("only pool shares can be redeemed")
                cost = gm.price(action.entity) * len(action.shares)
                game.transfer(action.entity, BANK, cost)
                game.move_shares(action.shares, action.entity)
                self.passed = True
            case Pass():
                self.pass_(game)
            case _:
                raise IllegalAction(f"{action.type} is not a redemption")


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
        _nodes, reached = board.reach(entity)
        edges = {h: set(es) for h, es in reached.items()}
        for h, es in board.token_hex_edges(entity).items():
            edges.setdefault(h, set()).update(es)
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
            copy = board.free_copy(name)
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

    def check_lay(self, game: Game, entity: str, hex_id: str, tile_id: str, rotation: int,
                  max_exits: bool = True, edges: dict[str, set[int]] | None = None
                  ) -> tuple[TileDef, int]:
        """Validate a lay without changing anything; return the tile and its cost.

        Raises:
            IllegalAction: the lay breaks a rule.
        """
        gm = g(game)
        board = gm.board
        assert board is not None
        lay = self.tile_lay()
        if lay is None:
            raise IllegalAction("no more tile lays this turn")
        if hex_id not in board.placed:
            raise IllegalAction(f"no hex {hex_id}")
        if hex_id in board.blocked:
            raise IllegalAction(f"{hex_id} is blocked until the first 3")
        if hex_id in self.laid_hexes:
            raise IllegalAction(f"{hex_id} was already laid on this turn")
        name = tile_id.rpartition("-")[0]
        entry = board.manifest.get(name)
        if entry is None or not board.tile_available(tile_id):
            raise IllegalAction(f"tile {tile_id} is not available")
        tile = entry.tile
        old = board.placed[hex_id]
        upgrade = old.tile.color is not Color.WHITE
        if upgrade and not lay[1]:
            raise IllegalAction("cannot lay an upgrade now")
        if tile.color is Color.YELLOW and not lay[0]:
            raise IllegalAction("cannot lay a yellow now")
        if tile.color.value not in gm.phase.tiles:
            raise IllegalAction(f"{tile.color.value} tiles are not available yet")
        if old.tile.color in (Color.RED, Color.BLUE, Color.GRAY):
            raise IllegalAction(f"{hex_id} cannot be upgraded")
        if COLOR_ORDER.index(tile.color) != COLOR_ORDER.index(old.tile.color) + 1:
            raise IllegalAction(f"{old.tile.name} does not upgrade to {tile.name}")
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
        return tile, cost

    def _max_exits(self, game: Game, entity: str, hex_id: str, color: Color,
                   edges: dict[str, set[int]]) -> int:
        board = g(game).board
        assert board is not None
        old = board.placed[hex_id].tile
        same = [e.tile for n, e in board.manifest.items()
                if e.tile.color is color and stop_counts(e.tile)[0] == stop_counts(old)[0]
                and board.free_copy(n) is not None]
        widest = max((len(t.exits) for t in same), default=0)
        if all(len(t.exits) == widest for t in same):
            return widest  # every candidate has the same number of exits
        best = 0
        for name, entry in board.manifest.items():
            if entry.tile.color is not color or len(entry.tile.exits) <= best:
                continue
            copy = board.free_copy(name)
            if copy is None:
                continue
            for rot in range(6):
                try:
                    self.check_lay(game, entity, hex_id, copy, rot, max_exits=False,
                                   edges=edges)
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
        upgrade = board.placed[hex_id].tile.color is not Color.WHITE
        for key, _c in self._borders(game, hex_id, tile, action.rotation):
            board.paid_borders.add(key[0])
            board.paid_borders.add(key[1])
        gm.take_loans_for(action.entity, cost)
        if cost:
            game.transfer(action.entity, BANK, cost)
        board.lay(hex_id, tile, action.tile, action.rotation)
        gm.resync_tokens(hex_id)
        if upgrade:
            self.upgraded = True
        self.laid += 1
        self.laid_hexes.append(hex_id)
        if tile.name == "639":
            gm.place_639_token(hex_id)

    def _check_shape(self, game: Game, hex_id: str, tile: Any, rotation: int,
                     entity: str, reach: dict[str, set[int]]) -> None:
        gm = g(game)
        board = gm.board
        assert board is not None
        from desk18xx.engine.board_lite import shape

        old = board.placed[hex_id]
        new_shape = shape(tile, rotation)
        if not new_shape.exits & reach.get(hex_id, set()):
            raise IllegalAction(f"{entity} cannot reach {hex_id} with that tile")
        if not old.shape.exits <= new_shape.exits:
            raise IllegalAction(f"{tile.name} must keep the track of {old.tile.name}")
        hd = board.hexdefs[hex_id]
        label = old.tile.label
        if hd.tile.future_label and tile.color == hd.tile.future_label.color:
            label = hd.tile.future_label.label
        if (label or None) != (tile.label or None):
            raise IllegalAction(f"{tile.name} does not fit the label of {hex_id}")
        (old_cities, old_towns), (new_cities, new_towns) = (stop_counts(old.tile),
                                                            stop_counts(tile))
        if old_cities != new_cities and old.tile.color is not Color.WHITE \
                and label not in ("T", "M", "O"):
            raise IllegalAction(f"{tile.name} does not match the cities of {hex_id}")
        if old_towns != new_towns or bool(old_cities) != bool(new_cities):
            raise IllegalAction(f"{tile.name} does not match the stops of {hex_id}")
        # every old connected city keeps exactly one new city (18xx legal_tile_rotation?)
        osh = old.shape
        old_ct = [osh.node_edges[i] for i, n in enumerate(old.tile.nodes)
                  if n.kind in (NodeKind.CITY, NodeKind.TOWN) and osh.node_edges[i]]
        new_ct = [new_shape.node_edges[i] for i, n in enumerate(tile.nodes)
                  if n.kind in (NodeKind.CITY, NodeKind.TOWN) and new_shape.node_edges[i]]
        for oc in old_ct:
            matches = sum(1 for nc in new_ct if oc <= nc)
            if matches == 0 or (new_cities > 1 and old_cities > 1
                                and matches != 1):
                raise IllegalAction(f"{tile.name} does not keep the stations of {hex_id}")
        for stub in hd.tile.stubs:
            if stub not in new_shape.exits:
                raise IllegalAction(f"the yellow triangle of {hex_id} must be joined")
        for b in hd.tile.borders:
            if b.type == "impassable" and b.edge in new_shape.exits:
                raise IllegalAction(f"track cannot cross the border of {hex_id}")
        from desk18xx.engine.map.hexgrid import neighbour_id

        for e in new_shape.exits:
            if not board.passable(hex_id, e):
                raise IllegalAction(f"track of {tile.name} would leave the map or cross "
                                    "an impassable border")
        for e in new_shape.exits - old.shape.exits:
            other = neighbour_id(hex_id, e)
            other_color = board.placed[other].tile.color
            if other_color in (Color.GRAY, Color.RED, Color.BLUE) and not board.neighbour_enterable(
                    hex_id, e):
                raise IllegalAction(f"track of {tile.name} runs into {other}")

    def _borders(self, game: Game, hex_id: str, tile: TileDef, rotation: int
                 ) -> list[tuple[tuple[tuple[str, int], tuple[str, int]], int]]:
        """River crossings this lay completes: $80 once, when track meets from both sides."""
        board = g(game).board
        assert board is not None
        from desk18xx.engine.board_lite import shape
        from desk18xx.engine.map.hexgrid import neighbour_id, opposite

        out: list[tuple[tuple[tuple[str, int], tuple[str, int]], int]] = []
        exits = shape(tile, rotation).exits
        for b in board.hexdefs[hex_id].tile.borders:
            if not b.cost or (hex_id, b.edge) in board.paid_borders or b.edge not in exits:
                continue
            other = neighbour_id(hex_id, b.edge)
            if other in board.placed and opposite(b.edge) in board.placed[other].shape.exits:
                out.append((((hex_id, b.edge), (str(other), opposite(b.edge))), b.cost))
        return out


class TokenStep(Step):
    """A major places one token per OR (card: "OR Tokens")."""

    def tokenable(self, game: Game, entity: str) -> list[tuple[str, int]]:
        """(hex, city) the company can reach with a free slot, not in a hex it holds."""
        gm = g(game)
        board = gm.board
        assert board is not None
        nodes, _edges = board.reach(entity)
        out: list[tuple[str, int]] = []
        for h, node in nodes:
            placed = board.placed[h]
            if node not in placed.city_nodes:
                continue
            ci = placed.city_nodes.index(node)
            if board.hex_has_token_of(h, entity):
                continue
            if None in board.tokens[h][ci]:
                out.append((h, ci))
        return out

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
        if not self.tokenable(game, entity):
            return ()
        return (PlaceToken, Pass)

    def process(self, game: Game, action: Action) -> None:
        match action:
            case PlaceToken():
                gm = g(game)
                hex_id, city = gm.token_city(action.city)
                if (hex_id, city) not in self.tokenable(game, action.entity):
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


class RouteStep(Step):
    """Declare routes; each is validated and its revenue recomputed."""

    def setup(self, game: Game) -> None:
        self.revenue = 0
        self.ran = False

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        if entity != self.current_entity(game) or entity not in game.corps:
            return ()
        if not game.corps[entity].trains:
            return ()
        return (RunRoutes,)

    def process(self, game: Game, action: Action) -> None:
        if not isinstance(action, RunRoutes):
            raise IllegalAction(f"{action.type} is not a run")
        revenues = check_routes(g(game), action.entity, action.routes)
        self.revenue = sum(revenues) + (action.extra_revenue or 0)
        self.ran = True
        self.passed = True


class DividendStep(Step):
    """Majors pay out, withhold or half pay; minors always half pay (card: "OR Pay dividends")."""

    def revenue(self) -> int:
        """Revenue of this turn's run."""
        step = self.round.step_of(RouteStep)
        return step.revenue if isinstance(step, RouteStep) else 0

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        gm = g(game)
        if entity != self.current_entity(game) or not gm.is_major(entity):
            return ()
        return (Dividend,) if self.revenue() else ()

    def details(self, game: Game, entity: str) -> dict[str, Any]:
        revenue = self.revenue()
        return {"revenue": revenue, "kinds": ["payout", "half", "withhold"],
                "half_kept": revenue // 2 // 10 * 10}

    def skip(self, game: Game) -> None:
        entity = self.current_entity(game)
        if entity is None:
            self.passed = True
            return
        kind = "payout" if g(game).is_minor(entity) and self.revenue() > 0 else "withhold"
        self._pay(game, entity, kind)

    def process(self, game: Game, action: Action) -> None:
        if not isinstance(action, Dividend) or action.kind not in ("payout", "half",
                                                                     "withhold"):
            raise IllegalAction("choose payout, half or withhold")
        self._pay(game, action.entity, action.kind)

    def _pay(self, game: Game, entity: str, kind: str) -> None:
        gm = g(game)
        revenue = self.revenue()
        corp = gm.corps[entity]
        if corp.is_minor:
            kept = revenue // 2 if kind == "payout" else revenue
            if kept:
                gm.transfer(BANK, entity, kept)
            paid = revenue - kept
            owner = gm.owner(entity)
            if paid and revenue // 2 > 0 and owner is not None:
                gm.transfer(BANK, owner, paid)
            gm.move_price(entity, "right" if paid > 0 else "left")
        else:
            if kind == "withhold":
                kept = revenue
            elif kind == "half":
                kept = revenue // 2 // 10 * 10
            else:
                kept = 0
            if kept:
                gm.transfer(BANK, entity, kept)
            paid = revenue - kept
            if paid:
                per_share = paid / 10
                for holder in [p.id for p in gm.players] + [entity]:
                    n = gm.num_shares_of(holder, entity)
                    amount = int(-(-(n * per_share) // 1))
                    if amount:
                        gm.transfer(BANK, holder, amount)
            price = gm.price(entity)
            if paid <= 0:
                gm.move_price(entity, "left")
            elif paid >= price:
                gm.move_price(entity, "right")
        corp.operated = True
        for tid in corp.trains:
            game.trains[tid].operated = True
        self.passed = True


class LoanOperations(Step):
    """Interest on the loans held at the OR start, then automatic repayment (card: "OR Loans")."""

    def skip(self, game: Game) -> None:
        self.passed = True
        gm = g(game)
        entity = self.current_entity(game)
        if entity is None or entity not in gm.corps:
            return
        owed = 5 * gm.interest.get(entity, 0)
        while owed > game.cash[entity] and gm.can_take_loan(entity):
            gm.take_loan(entity)
        if owed > game.cash[entity]:
            gm.nationalize(entity)
            return
        if owed:
            game.transfer(entity, BANK, owed)
        while gm.corps[entity].loans and game.cash[entity] >= R.LOAN_VALUE:
            gm.repay_loan(entity)
        gm.interest[entity] = gm.corps[entity].loans


class BuyTrainStep(Step):
    """Buy trains; a trainless company must (card: "OR Buy trains")."""

    def min_depot_price(self, game: Game) -> int:
        """Cheapest train the bank offers."""
        trains = game.depot_trains()
        return min((t.price for t in trains), default=0)

    def other_trains(self, game: Game, entity: str) -> list[str]:
        """Trains of other companies (any owner may sell)."""
        out = []
        for cid, corp in game.corps.items():
            if cid == entity or corp.closed or corp.kind is CorpKind.NATIONAL:
                continue
            out.extend(corp.trains)
        return out

    def must_buy(self, game: Game, entity: str) -> bool:
        """Trainless and able to afford the cheapest bank train with loans."""
        gm = g(game)
        return (not gm.corps[entity].trains and bool(game.depot_trains())
                and gm.buying_power(entity, full=True) >= self.min_depot_price(game))

    def room(self, game: Game, entity: str) -> bool:
        """Below the train limit."""
        gm = g(game)
        return len(gm.corps[entity].trains) < gm.train_limit(entity)

    def power(self, game: Game, entity: str) -> int:
        """Buying power for this purchase."""
        return g(game).buying_power(entity, full=self.must_buy(game, entity))

    def can_buy(self, game: Game, entity: str) -> bool:
        """Some train is buyable."""
        gm = g(game)
        prices = [t.price for t in game.depot_trains()]
        if self.other_trains(game, entity):
            prices.append(1)
        can = self.room(game, entity) and bool(prices) and self.power(game, entity) >= min(
            prices)
        if not can and gm.phase.name == "8":
            for t in game.depot_trains():
                if t.name in R.TRADE_FOR:
                    for own in gm.corp_trains(entity):
                        # 18xx.games counts any trade-in, even one priced below $1
                        net = t.price - t.discount.get(own.name, t.price)
                        if own.name in t.discount and net <= self.power(game, entity):
                            return True
        return can

    def details(self, game: Game, entity: str) -> dict[str, Any]:
        return {"must_buy": self.must_buy(game, entity),
                "buying_power": self.power(game, entity),
                "bank": [{"train": t.id, "name": t.name, "price": t.price}
                         for t in game.depot_trains()],
                "others": [{"train": t, "owner": game.trains[t].owner,
                            "max_price": game.cash[entity]}
                           for t in self.other_trains(game, entity)]}

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        if entity != self.current_entity(game) or entity not in game.corps:
            return ()
        if self.must_buy(game, entity):
            return (BuyTrain,)
        if self.can_buy(game, entity):
            return (BuyTrain, Pass)
        return ()

    def pass_(self, game: Game) -> None:
        self.passed = True
        entity = self.current_entity(game)
        if entity is not None and entity in game.corps and not game.corps[entity].trains:
            g(game).nationalize(entity)

    def process(self, game: Game, action: Action) -> None:
        match action:
            case BuyTrain():
                self._buy(game, action)
            case Pass():
                self.pass_(game)
            case _:
                raise IllegalAction(f"{action.type} is not a train purchase")

    def _buy(self, game: Game, action: BuyTrain) -> None:
        gm = g(game)
        entity = action.entity
        train = game.trains.get(action.train)
        if train is None:
            raise IllegalAction(f"no train {action.train}")
        from_bank = train.owner in (DEPOT, POOL)
        if from_bank and train not in game.depot_trains():
            raise IllegalAction(f"{action.train} is not for sale")
        if not from_bank and action.train not in self.other_trains(game, entity):
            raise IllegalAction(f"{action.train} is not for sale")
        exchange = action.exchange
        price = action.price
        if exchange is not None:
            if gm.phase.name != "8" or train.name not in R.TRADE_FOR:
                raise IllegalAction("trade-ins are only for 8, 2+2 and 5+5E trains in phase 8")
            old = game.trains.get(exchange)
            if old is None or old.owner != entity or old.name not in train.discount:
                raise IllegalAction(f"{exchange} cannot be traded in")
            if price != train.price - train.discount[old.name]:
                raise IllegalAction("a traded-in train is worth half its price")
        elif from_bank and price != train.price:
            raise IllegalAction(f"{train.name} costs ${train.price}")
        if not self.room(game, entity) and exchange is None:
            raise IllegalAction(f"{entity} is at its train limit")
        if price < 1:
            raise IllegalAction("the price must be at least $1")
        if price > game.cash[entity]:
            if self.must_buy(game, entity) and from_bank:
                gm.take_loans_for(entity, price)
            else:
                raise IllegalAction(f"{entity} cannot take a loan for this train")
        if exchange is not None:
            old = game.trains[exchange]
            gm.corps[entity].trains.remove(exchange)
            old.owner = POOL
        gm.buy_train(entity, action.train, price)
        if not self.can_buy(game, entity):
            self.passed = True
        gm.post_train_buy()
