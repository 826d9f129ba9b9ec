"""Operating-turn steps in rule order (RB 5.2): housekeeping, track, tokens, routes, dividends,
shares.

18xx ``g_1822/step/*.rb`` and ``g_1822_ca/step/*.rb``; money-relevant behaviour
matches the reference exactly; a declared route's revenue is the engine's own price
(`G1822CA.check_run`), never the action's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from desk18xx.engine.actions import (
    Action,
    Assign,
    BuyShares,
    BuyTrain,
    Choose,
    ChooseAbility,
    Dividend,
    HexToken,
    LayTile,
    Pass,
    PlaceToken,
    RunRoutes,
    SellShares,
)
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.state import BANK, POOL, Train
from desk18xx.titles.g1822ca import rules as R
from desk18xx.titles.g1822ca.shares import issue_shares, redeem_shares
from desk18xx.titles.g1822ca.steps.base import OrStep, g

if TYPE_CHECKING:
    from desk18xx.engine.game import Game
    from desk18xx.titles.g1822ca.game import G1822CA
    from desk18xx.titles.g1822ca.rounds import OperatingRound


class PendingToken(OrStep):
    """A token that must be placed now: M13's home in Toronto, QMOO's home (RB 7.1.4)."""

    def active_entities(self, game: Game) -> list[str]:
        pend = self.orr().pending_tokens
        return [pend[0][0]] if pend else []

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        pend = self.orr().pending_tokens
        return (PlaceToken,) if pend and pend[0][0] == entity else ()

    def is_active(self, game: Game) -> bool:
        return bool(self.orr().pending_tokens)

    def process(self, game: Game, action: Action) -> None:
        if not isinstance(action, PlaceToken):
            raise IllegalAction(f"cannot {action.type} now")
        gm = g(game)
        corp, hexes, price = self.orr().pending_tokens[0]
        hex_id, city = gm.map.parse_city_id(action.city)
        if hex_id not in hexes:
            raise IllegalAction(f"{corp} must place its token in {', '.join(hexes)}")
        # 18xx G1822CA PendingToken: no slot that is taken or reserved (supplement §14.16)
        if corp == "QMOO" and hex_id == gm.corp_defs[corp].home_hexes[0] \
                and gm.map.hex(hex_id).free_slots(city) == 0:
            raise IllegalAction(f"QMOO's home token needs an open slot in {action.city}")
        if gm.pending_token_needs_route(corp, price) and not gm.reaches_city(corp, hex_id, city):
            raise IllegalAction(f"{corp} has no route to {action.city} (RB 7.1.4)")
        gm.place_token(corp, hex_id, city, price, slot=action.slot, cheater=True)
        self.orr().pending_tokens.pop(0)

    def skip(self, game: Game) -> None:
        """Nothing pending."""


class FirstTurnHousekeeping(OrStep):
    """A minor's first turn: it may buy the next L-train (RB 5.5.3; supplement §14.7)."""

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        gm = g(game)
        if not self.is_current(entity) or not gm.is_minor(entity):
            return ()
        if gm.operating_history.get(entity, 0) > 0:
            return ()
        if not self.offers(game):
            return ()
        if len(gm.real_trains(entity)) >= gm.train_limit(entity):
            return ()
        return (BuyTrain, Pass)

    def offers(self, game: Game) -> list[Train]:
        """L-trains the minor can afford: the next depot train if it is an L, and in
        rulebook mode also pool L-trains (RB 5.5.3; supplement §14.7)."""
        gm = g(game)
        cash = gm.cash[self.corp()]
        out = []
        t = gm.upcoming()
        if t is not None and gm.train_base[t.id] == "L" and cash >= t.price:
            out.append(t)
        if not gm.config.compat_18xxgames:
            out.extend(p for p in gm.trains.values()
                       if p.owner == POOL and p.name == "L" and cash >= p.price)
        return out

    def process(self, game: Game, action: Action) -> None:
        gm = g(game)
        if isinstance(action, BuyTrain):
            offers = self.offers(game)
            pool = [t for t in offers if t.id == action.train and t.owner == POOL]
            # 18xx.games records "L-0" and gives the next depot L (export doc §6.6)
            t = pool[0] if pool else next((t for t in offers if t.owner != POOL), None)
            if t is None:
                raise IllegalAction("no L-train on offer")
            price = action.price or t.price
            from_depot = t.owner != POOL
            gm.transfer(action.entity, BANK, price)
            gm.give_train(t, action.entity)
            if from_depot:
                gm.train_bought(t)
        elif not isinstance(action, Pass):
            raise IllegalAction(f"cannot {action.type} now")
        self.pass_(game)


class AssignSawmill(OrStep):
    """P13: place the sawmill, then choose open or closed (supplement §6.1 P13)."""

    blocks = True

    def setup(self, game: Game) -> None:
        self.state = getattr(self, "state", "none")
        if self.state == "chosen":
            self.state = "none"

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        gm = g(game)
        if self.state == "assigned":
            return (Choose,) if entity in ("P13", self.corp()) else ()
        p13 = gm.companies.get(R.SAWMILL)
        if entity == R.SAWMILL and p13 is not None and not p13.closed \
                and p13.owner == self.corp():
            return (Assign,)
        return ()

    def is_blocking(self, game: Game) -> bool:
        return self.state == "assigned"

    def process(self, game: Game, action: Action) -> None:
        gm = g(game)
        if isinstance(action, Assign):
            if action.target not in R.SAWMILL_HEXES or not gm.sawmill_place(action.target):
                raise IllegalAction(f"the sawmill cannot go to {action.target} "
                                    f"(supplement §6.1 P13: one of its hexes with a town "
                                    f"or a city on this map)")
            gm.sawmill_hex = action.target
            self.owner = self.corp()
            self.state = "assigned"
            gm.close_company(R.SAWMILL)
        elif isinstance(action, Choose):
            if action.choice == "open":
                gm.sawmill_bonus = 20
            elif action.choice == "closed":
                gm.sawmill_bonus = 10
                gm.sawmill_owner = self.owner
            else:
                raise IllegalAction(f"bad sawmill choice {action.choice}")
            self.state = "chosen"
        else:
            raise IllegalAction(f"cannot {action.type} now")

    def skip(self, game: Game) -> None:
        """Assigning is optional."""


def grant_lays_left(gm: G1822CA, orr: OperatingRound) -> int:
    """P21 grant lays still open to its owner now.

    18xx.games (``compat_18xxgames``): three in the track step where the first
    is used (the rest are lost when the step ends).  Rulebook mode: three over
    the game; the card closes after placing the third.
    """
    if gm.config.compat_18xxgames:
        return 3 - orr.grant_lays
    return 3 - gm.grant_lays_placed


class SpecialTrack(OrStep):
    """Tile lays by a company's ability (P12, P14-P21, P29, P30; supplement §6.1)."""

    blocks = False

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        gm = g(game)
        c = gm.companies.get(entity)
        if c is None or c.closed or c.owner != self.corp():
            return ()
        active = self.round.active_step(game)
        if not (isinstance(active, OrStep) and active.lays_track):
            return ()  # in the owner's tile-laying step only (18xx.games: when "track")
        if entity in R.BIG_CITY_COMPANIES or entity in R.MOUNTAIN_PASS_COMPANIES \
                or entity in R.REMOVE_TOWN or entity in (R.ADVANCED_TILE_LAY, R.TILE_GRANT):
            return (LayTile,)
        return ()

    def process(self, game: Game, action: Action) -> None:
        if not isinstance(action, LayTile):
            raise IllegalAction(f"cannot {action.type} now")
        gm = g(game)
        corp = self.corp()
        company = action.entity
        orr = self.orr()
        consume = company in R.MOUNTAIN_PASS_COMPANIES or company in R.REMOVE_TOWN \
            or company == R.ADVANCED_TILE_LAY
        if consume and orr.num_laid_track > 0:
            raise IllegalAction(f"{company} replaces the normal track lay")
        free = company in R.BIG_CITY_COMPANIES or company in R.MOUNTAIN_PASS_COMPANIES \
            or company == R.TILE_GRANT
        only = R.PRIVATE_LAY_HEXES.get(company)
        if only is not None and action.hex != only:
            raise IllegalAction(f"{company} lays only on {only} (supplement §6.1)")
        if company == R.TILE_GRANT and grant_lays_left(gm, orr) == 0:
            raise IllegalAction(f"{company} has no grant lay left")
        if company == R.TILE_GRANT and (why := gm.grant_hex_problem(action.hex)):
            raise IllegalAction(why)
        if action.hex in orr.laid_hexes and not (gm.config.compat_18xxgames and gm.loading):
            # RB 5.7.38: never placed and upgraded in one tile-laying step, a private's
            # lay included.  18xx.games offers no such hex (``cannot_reuse_same_hex``)
            # but its ``process_lay_tile`` does not check it: a reload keeps it.
            raise IllegalAction(f"{action.hex} was laid this turn: {company} may not "
                                f"upgrade it now (RB 5.7.38)")
        allowed = R.ABILITY_TILES.get(company)
        try:
            name: str | None = gm.map.tile_def(action.tile).name
        except IllegalAction:
            name = None  # gm.lay_tile refuses it
        if allowed is not None and name is not None and name not in allowed:
            raise IllegalAction(f"{company} lays only tiles {', '.join(sorted(allowed))}, "
                                f"not {name} (supplement §6.1)")
        upgrade = gm.map.hex(action.hex).geo.tile.color.value != "white"
        gm.lay_tile(corp, action.hex, action.tile, action.rotation, free=free,
                    special=company in R.SPECIAL_LAYS, remove_town=company in R.REMOVE_TOWN,
                    ahead=company == R.ADVANCED_TILE_LAY)
        orr.laid_hexes.append(action.hex)
        if consume:
            # 18xx ``lay_tile_action`` counts the lay; P19/P20/P29/P30 count once more
            # (``COMPANIES_CONSUME_TILE_LAY``), so a major's second lay is gone too.
            orr.num_laid_track += 1 if company == R.ADVANCED_TILE_LAY else 2
            orr.upgraded = orr.upgraded or upgrade
            gm.close_company(company)
        if company == R.TILE_GRANT:
            orr.grant_used = True
            orr.grant_lays += 1
            gm.grant_lays_placed += 1
            if not gm.config.compat_18xxgames and gm.grant_lays_placed >= 3:
                gm.close_company(company)  # the card: "close this company to place three"
        elif company in R.BIG_CITY_COMPANIES:
            orr.big_city_used.add(company)


class SpecialToken(OrStep):
    """P10: an exchange token into Winnipeg, free, outside the token step (RB 6.1.1)."""

    blocks = False

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        gm = g(game)
        if not gm.winnipeg_token_open(self.corp(), entity):
            return ()
        # RB 6.1.1: or move an exchange token to "available" (not on 18xx.games)
        return (PlaceToken,) if gm.config.compat_18xxgames else (PlaceToken, ChooseAbility)

    def process(self, game: Game, action: Action) -> None:
        gm = g(game)
        if isinstance(action, ChooseAbility):
            if action.choice != "available":
                raise IllegalAction(f"bad P10 choice {action.choice}")
            gm.winnipeg_exchange(self.corp())
            return
        if not isinstance(action, PlaceToken):
            raise IllegalAction(f"cannot {action.type} now")
        gm.winnipeg_token(self.corp(), action.city, action.slot)


class TrackStep(OrStep):
    """Lay or upgrade track (RB 5.7; supplement §8.2 tile lays)."""

    lays_track = True

    def lay_options(self, game: Game) -> tuple[bool, bool] | None:
        """(may lay yellow, may upgrade) for the next lay, None when done."""
        gm = g(game)
        orr = self.orr()
        corp = self.corp()
        if gm.is_major(corp) and gm.phase_num >= 3:
            if orr.num_laid_track == 0:
                return (True, True)
            if orr.num_laid_track == 1 and not orr.upgraded:
                return (True, False)
            return None
        return (True, True) if orr.num_laid_track == 0 else None

    def details(self, game: Game, entity: str) -> dict[str, Any]:
        """What the next lay may be, for the map: yellow and/or an upgrade, never on a
        hex laid this turn, no brown or grey for a minor (RB 5.7.9), within the cash."""
        if not self.is_current(entity):
            return {}
        gm = g(game)
        opts = self.lay_options(game)
        return {"may_lay_yellow": opts is not None and opts[0],
                "may_upgrade": opts is not None and opts[1],
                "laid_hexes": list(self.orr().laid_hexes),
                "no_colors": ["brown", "gray"] if gm.is_minor(entity) else [],
                "cash": gm.cash.get(entity, 0)}

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        gm = g(game)
        if entity == R.TOKEN_SWAP:
            return (ChooseAbility,) if gm.token_swap_choices(self.corp()) else ()
        if not self.is_current(entity):
            return ()
        if entity == "13" and gm.operating_history.get(entity, 0) == 0:
            return ()
        if self.lay_options(game) is None and not self.ability_blocks(game, entity):
            return ()
        return (LayTile, Pass)

    def ability_blocks(self, game: Game, corp: str) -> bool:
        """A non-consuming tile-lay ability keeps the step open.

        18xx ``tile_lay_abilities_should_block?``: P14-P18 until used this OR or
        their city is grey, P21 while grant lays remain.
        """
        gm = g(game)
        orr = self.orr()
        for cid in gm.corps[corp].companies:
            c = gm.companies[cid]
            if c.closed:
                continue
            if cid in R.BIG_CITY_COMPANIES and cid not in orr.big_city_used:
                if gm.map.hex(R.BIG_CITY_COMPANIES[cid]).geo.tile.color.value != "gray":
                    return True
            if cid == R.TILE_GRANT and grant_lays_left(gm, orr) > 0:
                return True
        return False

    def process(self, game: Game, action: Action) -> None:
        gm = g(game)
        orr = self.orr()
        if isinstance(action, Pass):
            self.pass_(game)
            return
        if isinstance(action, ChooseAbility):
            gm.token_swap(self.corp(), action.choice)
            return
        if not isinstance(action, LayTile):
            raise IllegalAction(f"cannot {action.type} now")
        opts = self.lay_options(game)
        if opts is None:
            raise IllegalAction(f"{self.corp()} has no tile lay left")
        upgrade = gm.map.hex(action.hex).geo.tile.color.value != "white"
        if upgrade and not opts[1]:
            raise IllegalAction("the second lay must be a yellow tile (RB 5.7.3)")
        if upgrade and action.hex in orr.laid_hexes:
            raise IllegalAction("cannot lay twice on one hex")
        gm.lay_tile(self.corp(), action.hex, action.tile, action.rotation)
        orr.laid_hexes.append(action.hex)
        orr.num_laid_track += 1
        orr.upgraded = orr.upgraded or upgrade
        if self.lay_options(game) is None and not self.ability_blocks(game, self.corp()):
            self.pass_(game)

    def pass_(self, game: Game) -> None:
        """End of the track step: an used P21 closes (supplement §14.12).

        Only with ``compat_18xxgames``: in rulebook mode P21 keeps its unused
        grant lays and closes after the third (docs/rules-notes.md row 12).
        """
        self.passed = True
        gm = g(game)
        if gm.config.compat_18xxgames and getattr(self.orr(), "grant_used", False):
            p21 = gm.companies.get(R.TILE_GRANT)
            if p21 is not None and not p21.closed:
                gm.close_company(R.TILE_GRANT)


class DestinationToken(OrStep):
    """The destination token goes down once home and destination connect (RB 5.8.6)."""

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        gm = g(game)
        if not self.is_current(entity) or not gm.is_major(entity):
            return ()
        if entity in gm.destinated:
            return ()
        return (HexToken, PlaceToken, Pass)

    def process(self, game: Game, action: Action) -> None:
        gm = g(game)
        corp = self.corp()
        # RB 5.8.3: placed at the first connection, never deferred; 18xx
        # G1822::Step::DestinationToken checks both in live play only (``loading``)
        live = not game.loading
        if live and isinstance(action, (HexToken, PlaceToken, Pass)):
            connected = gm.destination_connected(corp)
            if isinstance(action, Pass) and connected:
                raise IllegalAction(f"{corp} must place its destination token now (RB 5.8.3)")
            if not isinstance(action, Pass) and not connected:
                raise IllegalAction(f"{corp} is not connected to its destination (RB 5.8.3)")
            if isinstance(action, HexToken) and len(gm.destination_cities(corp)) > 1:
                # 18xx G1822CA DestinationToken: where the destination exits reach several
                # cities its client names one (``place_token``); a ``hex_token`` crashes
                # ``place_destination_token`` (differential 1822CA seed 31006)
                raise IllegalAction(
                    f"{action.hex} has {len(gm.destination_cities(corp))} cities on "
                    f"{corp}'s destination: name the city for its destination token "
                    f"(RB 5.8.6)")
            if isinstance(action, PlaceToken) \
                    and gm.map.parse_city_id(action.city)[1] not in connected:
                raise IllegalAction(f"{corp} is not connected to {action.city} (RB 5.8.3)")
        if isinstance(action, HexToken):
            gm.place_destination(corp, action.hex, None)
        elif isinstance(action, PlaceToken):
            hex_id, city = gm.map.parse_city_id(action.city)
            gm.place_destination(corp, hex_id, city)
            # 18xx G1822CA DestinationToken: ICR's token in Quebec moves QMOO's home
            if corp == "ICR":
                gm.update_qmoo_home(hex_id, tile_trigger=False)
        elif not isinstance(action, Pass):
            raise IllegalAction(f"cannot {action.type} now")
        self.pass_(game)


class TokenStep(OrStep):
    """Place one station token, $100 (RB 5.8)."""

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        gm = g(game)
        if entity == R.TOKEN_SWAP:
            return (ChooseAbility,) if gm.token_swap_choices(self.corp()) else ()
        if entity == R.WINNIPEG_TOKEN:
            return (PlaceToken,) if gm.winnipeg_token_open(self.corp(), entity) else ()
        if not self.is_current(entity):
            return ()
        choices = gm.token_swap_choices(entity)
        # 18xx G1822 Token#actions: with nothing to place, P28 keeps the step open
        # only with an exchange token to make available (``ability_chpr_lcdr?``, D33)
        swap = "exchange" in choices if gm.config.compat_18xxgames else bool(choices)
        tok = gm.corps[entity].next_token()
        # 18xx g_1822/step/token.rb can_place_token?: no token of its own left, no wait
        p10 = gm.winnipeg_token_open(entity, R.WINNIPEG_TOKEN)
        if gm.config.compat_18xxgames and not p10:
            # the P10 ability opens the step without an exchange token too (D36)
            c = gm.companies.get(R.WINNIPEG_TOKEN)
            p10 = c is not None and not c.closed and c.owner == entity
        if p10 and not self.orr().tokened and tok is not None:
            return (PlaceToken, Pass)
        if self.orr().tokened or tok is None or gm.cash[entity] < tok.price \
                or not gm.can_token_now(entity):
            return (Pass,) if swap else ()
        return (PlaceToken, Pass)

    def process(self, game: Game, action: Action) -> None:
        gm = g(game)
        if isinstance(action, ChooseAbility):
            gm.token_swap(self.corp(), action.choice)
            return
        if isinstance(action, PlaceToken) and action.entity == R.WINNIPEG_TOKEN:
            gm.winnipeg_token(self.corp(), action.city, action.slot)
            return
        if isinstance(action, PlaceToken):
            corp = self.corp()
            hex_id, city = gm.map.parse_city_id(action.city)
            tok = gm.corps[corp].next_token()
            if tok is None:
                raise IllegalAction(f"{corp} has no token left")
            if not gm.can_token_in(corp, hex_id, city):
                raise IllegalAction(f"{corp} cannot reach an open slot in {hex_id} (RB 5.8)")
            price = tok.price
            gm.place_token(corp, hex_id, city, price, slot=action.slot)
            gm.update_qmoo_home(hex_id, tile_trigger=False)
            self.orr().tokened = True
        elif not isinstance(action, Pass):
            raise IllegalAction(f"cannot {action.type} now")
        self.pass_(game)


class RouteStep(OrStep):
    """Run trains; the engine prices each route (RB 5.9; Pullman and grain via ``choose``).

    Skipped when no route is possible at all (18xx ``can_run_route?``).
    """

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        gm = g(game)
        if not self.is_current(entity):
            return ()
        trains = gm.route_trains(entity)
        if not trains:
            return ()
        if gm.is_minor(entity) and all(t.name == R.E_TRAIN for t in trains):
            return ()
        if not any(t.name in R.LOCAL_TRAINS for t in trains) and not gm.can_run_route(entity):
            return ()
        if any(t.name in (R.PULLMAN, R.GRAIN) for t in gm.corp_trains(entity)):
            return (RunRoutes, Choose)  # a spent choice is refused with its reason
        return (RunRoutes,)

    def details(self, game: Game, entity: str) -> dict[str, Any]:
        """The attachment choices open now, each with its label (``choice_labels``)."""
        if not self.is_current(entity):
            return {}
        labels = g(game).attach_labels(entity)
        return {"choice_labels": labels} if labels else {}

    def process(self, game: Game, action: Action) -> None:
        gm = g(game)
        orr = self.orr()
        if isinstance(action, Choose):
            gm.attach_choice(self.corp(), action.choice)
            return
        if not isinstance(action, RunRoutes):
            raise IllegalAction(f"cannot {action.type} now")
        corp = self.corp()
        seen: set[str] = set()
        for route in action.routes:
            t = gm.take_train(route.train)
            if t.owner != corp:
                raise IllegalAction(f"{corp} does not own {route.train}")
            if route.train in orr.routes_revenue or route.train in seen:
                raise IllegalAction(f"{route.train} runs twice")
            seen.add(route.train)
        if gm.config.check_routes and action.routes:
            revenues = gm.check_run(corp, action.routes)  # the engine's price, never the action's
        elif any(r.revenue is None for r in action.routes):
            raise IllegalAction("1822CA routes must carry their revenue")
        else:
            revenues = [r.revenue or 0 for r in action.routes]
        for route, revenue in zip(action.routes, revenues, strict=True):
            orr.routes_revenue[route.train] = revenue
            orr.route_nodes[route.train] = gm.route_stops(route)
        orr.recorded_subsidy = action.subsidy
        self.pass_(game)


class DividendStep(OrStep):
    """Pay out, half pay or withhold (RB 5.11; minors automatic; special-train split)."""

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        gm = g(game)
        if not self.is_current(entity) or not gm.is_major(entity):
            return ()
        if not self.orr().routes_revenue:
            return ()
        if self.orr().extra_choice is None and gm.find_extra_train(entity, self.orr()):
            return (Dividend, Choose)
        return (Dividend,)

    def process(self, game: Game, action: Action) -> None:
        gm = g(game)
        if isinstance(action, Choose):
            if action.choice not in ("payout", "half", "withhold"):
                raise IllegalAction(f"bad choice {action.choice}")
            self.orr().extra_choice = action.choice
            return
        if not isinstance(action, Dividend):
            raise IllegalAction(f"cannot {action.type} now")
        gm.pay_dividend(self.corp(), action.kind, self.orr())
        self.pass_(game)

    def skip(self, game: Game) -> None:
        """Minors pay automatically; a major that did not run withholds."""
        gm = g(game)
        corp = self.corp()
        revenue = sum(self.orr().routes_revenue.values())
        kind = "half" if gm.is_minor(corp) and revenue > 0 else "withhold"
        gm.pay_dividend(corp, kind, self.orr())
        self.pass_(game)


class IssueShares(OrStep):
    """A major issues or redeems one share (RB 5.16)."""

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        gm = g(game)
        if not self.is_current(entity) or not gm.is_major(entity):
            return ()
        out: list[type[Action]] = []
        price = gm.price(entity)
        if gm.percent_of(POOL, entity) > 0 and gm.cash[entity] >= price:
            out.append(BuyShares)
        if gm.ipo_shares(entity) and gm.operating_history.get(entity, 0) >= 2 \
                and gm.percent_of(POOL, entity) + 10 <= 50:
            out.append(SellShares)
        return (*out, Pass) if out else ()

    def process(self, game: Game, action: Action) -> None:
        gm = g(game)
        corp = self.corp()
        if isinstance(action, SellShares):
            issue_shares(gm, corp, action.shares, action.share_price)
        elif isinstance(action, BuyShares):
            redeem_shares(gm, corp, action.shares, action.share_price)
        elif not isinstance(action, Pass):
            raise IllegalAction(f"cannot {action.type} now")
        self.pass_(game)
