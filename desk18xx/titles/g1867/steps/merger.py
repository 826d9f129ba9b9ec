"""1867 merger round steps (card: "Merger round").

Order (18xx ``g_1867/game.rb#merger_round``): trainless major, reduce tokens,
post-merger share buying, discard trains, convert/merge.  18xx.games puts the
token reduction before the share dealing (designer-confirmed, issue #9655).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from desk18xx.engine.actions import (
    Action,
    BuyShares,
    Choose,
    Convert,
    Merge,
    Pass,
    RemoveToken,
)
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.market import CellType
from desk18xx.engine.round import Step
from desk18xx.engine.state import Token
from desk18xx.titles.g1867 import board as B
from desk18xx.titles.g1867 import rules as R
from desk18xx.titles.g1867.steps.stock import g

if TYPE_CHECKING:
    from desk18xx.engine.game import Game
    from desk18xx.titles.g1867.game import G1867
    from desk18xx.titles.g1867.rounds import MergerRound

LIMIT_OWNED_BY_ONE = 6
LIMIT_MERGE = 10


def mround(step: Step) -> MergerRound:
    """The step's round as a merger round."""
    from desk18xx.titles.g1867.rounds import MergerRound

    assert isinstance(step.round, MergerRound)
    return step.round


def treasury(gm: G1867, cid: str) -> list[str]:
    """Share ids held by the corporation itself, in certificate order."""
    return sorted((s.id for s in gm.shares.values() if s.corp == cid and s.owner == cid),
                  key=lambda sid: int(sid.rpartition("_")[2]))


def update_float(gm: G1867, cid: str) -> None:
    """A major floats once 20% is out of its treasury (18xx ``floated?``)."""
    corp = gm.corps[cid]
    if not corp.floated and gm.percent_of(cid, cid) <= 80:
        corp.floated = True


def move_tokens(gm: G1867, src: str, dst: str) -> None:
    """Every token of ``src`` on the map becomes a token of ``dst``."""
    assert gm.board is not None
    target = gm.corps[dst]
    for token in gm.corps[src].tokens:
        if token.hex is None or token.city is None:
            continue
        new = target.next_token()
        if new is None:
            new = Token(0)
            target.tokens.append(new)
        slots = B.slots(gm.board, token.hex, token.city)
        B.set_slot(gm.board, token.hex, token.city, slots.index(src), dst)
        new.hex, new.city = token.hex, token.city
        token.hex = token.city = None


def move_assets(gm: G1867, src: str, dst: str) -> None:
    """Cash, privates, loans and trains pass to the major."""
    if gm.cash[src]:
        gm.transfer(src, dst, gm.cash[src])
    a, b = gm.corps[src], gm.corps[dst]
    b.companies.extend(a.companies)
    for comp in a.companies:
        gm.companies[comp].owner = dst
    a.companies = []
    b.loans += a.loans
    a.loans = 0
    for tid in a.trains:
        gm.trains[tid].owner = dst
    b.trains.extend(a.trains)
    a.trains = []


def fix_token_count(gm: G1867, cid: str) -> None:
    """A merged major always has a third ($40/hex) token (18xx ``fix_token_count!``)."""
    corp = gm.corps[cid]
    if len(corp.tokens) != 3:
        corp.tokens.append(Token(40))


def tokens_above_limit(gm: G1867, cid: str) -> bool:
    """Two tokens in one hex, or more than two on the map."""
    hexes = [t.hex for t in gm.corps[cid].tokens if t.hex is not None]
    return len(set(hexes)) != len(hexes) or len(hexes) > R.LIMIT_TOKENS_AFTER_MERGER


class ReduceTokens(Step):
    """The merged major keeps at most two tokens, in different hexes."""

    def is_active(self, game: Game) -> bool:
        return bool(mround(self).removing_tokens)

    def active_entities(self, game: Game) -> list[str]:
        return mround(self).removing_tokens[:1]

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        return (RemoveToken,) if entity == self.current_entity(game) else ()

    @staticmethod
    def removal_ok(game: Game, cid: str, token: Token) -> bool:
        """Removing ``token`` does not leave two or more tokens all in one hex
        (18xx ``G1867::Step::ReduceTokens#process_remove_token``)."""
        placed = [t for t in g(game).corps[cid].tokens if t.hex is not None]
        rest = [t for t in placed if t is not token]
        return not (len({t.hex for t in placed}) > 1 and len({t.hex for t in rest}) <= 1
                    and len(rest) > 1)

    def details(self, game: Game, entity: str) -> dict[str, Any]:
        tokens = [{"hex": t.hex, "city": t.city} for t in g(game).corps[entity].tokens
                  if t.hex is not None and self.removal_ok(game, entity, t)]
        return {"tokens": tokens, "keep": R.LIMIT_TOKENS_AFTER_MERGER}

    def process(self, game: Game, action: Action) -> None:
        gm = g(game)
        if not isinstance(action, RemoveToken):
            raise IllegalAction("remove tokens down to the limit first")
        cid = action.entity
        hex_id, city = gm.token_city(action.city)
        assert gm.board is not None
        slots = B.slots(gm.board, hex_id, city)
        slot = action.slot if action.slot < len(slots) else -1
        if slot < 0 or slots[slot] != cid:
            raise IllegalAction(f"{cid} has no token there")
        token = next(t for t in gm.corps[cid].tokens if t.hex == hex_id and t.city == city)
        if not self.removal_ok(game, cid, token):
            raise IllegalAction(f"{cid} must have two tokens in different hexes")
        B.set_slot(gm.board, hex_id, city, slot, None)
        token.hex = token.city = None
        if tokens_above_limit(gm, cid):
            return
        corp = gm.corps[cid]
        used = [t for t in corp.tokens if t.hex is not None]
        unused = sorted((t for t in corp.tokens if t.hex is None), key=lambda t: t.price)
        corp.tokens = (used + unused)[:R.LIMIT_TOKENS_AFTER_MERGER]
        fix_token_count(gm, cid)
        mround(self).removing_tokens = []


class PostMergerShares(Step):
    """Owners of the merged minors (or the converter) buy, then everyone one share."""

    entities_mutate: ClassVar[bool] = True  # active_entities may complete the merge

    def is_active(self, game: Game) -> bool:
        return mround(self).converted is not None

    def corporation(self) -> str:
        """The new major."""
        converted = mround(self).converted
        assert converted is not None
        return converted

    def buyable(self, game: Game, player: str) -> str | None:
        """The 10% treasury share ``player`` could buy now."""
        gm = g(game)
        cid = self.corporation()
        for sid in treasury(gm, cid)[:2]:
            share = gm.shares[sid]
            if share.percent != 10:
                continue
            if game.cash[player] < gm.price(cid):
                continue
            if gm.percent_of(player, cid) + 10 > gm.corps[cid].max_ownership:
                continue
            if gm.num_certs(player) >= gm.cert_limit:
                continue
            return sid
        return None

    def eligible(self, game: Game) -> list[str]:
        """Dealing players still in, who can buy."""
        return [p for p in mround(self).dealing_players
                if not game.player(p).passed and self.buyable(game, p) is not None]

    def active_entities(self, game: Game) -> list[str]:
        if mround(self).converted is None:
            return []
        if self.broken:
            return [p.id for p in game.players]
        players = self.eligible(game)
        if not players:
            self.check_merge(game)
            players = self.eligible(game)
        return players[:1]

    def __init__(self, round_: Any) -> None:
        super().__init__(round_)
        self.broken = False

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        if not game.is_player(entity) or mround(self).converted is None:
            return ()
        return (BuyShares, Pass) if self.buyable(game, entity) is not None else ()

    def details(self, game: Game, entity: str) -> dict[str, Any]:
        cid = self.corporation()
        return {"corporation": cid, "share": self.buyable(game, entity),
                "price": g(game).price(cid),
                "multiple": entity in mround(self).dealing_multiple}

    def check_merge(self, game: Game) -> None:
        """After the holders: everyone one share; no president means a failed merge."""
        if self.eligible(game):
            return
        gm = g(game)
        r = mround(self)
        cid = self.corporation()
        pres = next(s for s in gm.shares.values() if s.corp == cid and s.president)
        if pres.owner == cid:
            if r.pre_merge is not None and not gm.config.compat_18xxgames:
                # card: "A merge leaving no president is undone"
                game.pending_restore = r.pre_merge
                r.pre_merge = None
                return
            self.broken = True  # 18xx.games: "Merge failed ... please undo"
        elif r.merge_type == "merge" and r.dealing_multiple:
            for p in r.dealing_players:
                game.player(p).passed = False
            ids = [p.id for p in game.players]
            owner = gm.president(cid)
            assert owner is not None
            k = ids.index(owner)
            r.dealing_players = ids[k:] + ids[:k]
            r.dealing_multiple = []

    def process(self, game: Game, action: Action) -> None:
        gm = g(game)
        r = mround(self)
        match action:
            case BuyShares():
                player = action.entity
                cid = self.corporation()
                sid = self.buyable(game, player)
                if sid is None or list(action.shares) != [sid] and not (
                        len(action.shares) == 1 and action.shares[0] in treasury(gm, cid)[:2]):
                    raise IllegalAction(f"{game.name_of(player)} cannot buy that share")
                sid = action.shares[0]
                pres = next(s for s in gm.shares.values() if s.corp == cid and s.president)
                price = gm.price(cid)
                if pres.owner == cid and gm.percent_of(player, cid) == 10:
                    # the second 10% makes a president: both go back for the 20%
                    own = gm.shares_of(player, cid)[0]
                    own.owner = cid
                    gm.transfer(player, cid, price)
                    pres.owner = player
                else:
                    previous = gm.president(cid)
                    gm.transfer(player, cid, price)
                    gm.shares[sid].owner = player
                    gm.check_president(cid, previous)
                update_float(gm, cid)
                if player not in r.dealing_multiple or self.buyable(game, player) is None:
                    game.player(player).passed = True
                self.check_merge(game)
            case Pass():
                game.player(action.entity).passed = True
                first = self.active_entities(game)
                self.check_merge(game)
                if first and first[0] == action.entity and action.entity in r.dealing_players:
                    r.dealing_players.remove(action.entity)
            case _:
                raise IllegalAction(f"{action.type} is not a post-merger purchase")


class MergeStep(Step):
    """Each minor by price may convert (price $100-165) or merge with connected minors."""

    def __init__(self, round_: Any) -> None:
        super().__init__(round_)
        self.converting: str | None = None
        self.merging: list[str] | None = None
        self.merge_major = False
        self.consent: tuple[str, str] | None = None
        """(minor, its owner) waiting for the owner's consent (card mode)."""

    def active_entities(self, game: Game) -> list[str]:
        if self.consent is not None:
            return [self.consent[1]]
        return super().active_entities(game)

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        gm = g(game)
        if self.consent is not None:
            return (Choose,) if entity == self.consent[1] else ()
        if entity not in gm.corps or entity != self.current_entity(game):
            return ()
        if mround(self).converted is not None:
            return ()
        if self.converting or self.merge_major:
            return (Merge,)
        out: list[type[Action]] = []
        # card: a minor "may become an unstarted major" - none left, nothing to do
        if self.merging is not None or self.majors_available(game):
            out.append(Merge)
            if self.merging is None and self.can_convert(game, entity):
                out.append(Convert)
        out.append(Pass)
        return tuple(out)

    merger_programs: ClassVar[bool] = True

    def is_normal_pass(self, game: Game, entity: str) -> bool:
        """Not while choosing the major of a conversion or merger (18xx
        ``merger_auto_pass_entity``), nor while asking for consent."""
        return self.converting is None and not self.merge_major and self.consent is None

    def others_acted(self, game: Game) -> bool:
        """18xx ``!@round.converts.empty?``: the major a conversion or merger formed
        takes its minor's place among the round's entities, which start as minors only
        (derived, so that the state digest of saves stays as it was)."""
        gm = g(game)
        return any(gm.is_major(e) for e in mround(self).entities)

    def can_convert(self, game: Game, entity: str) -> bool:
        """Card: "Convert a minor priced $100-165" (grid: conversion column only)."""
        gm = g(game)
        cell = gm.market.cell(entity)
        return gm.is_minor(entity) and cell is not None and \
            CellType.CONVERT_RANGE in cell.types

    def candidates(self, game: Game, entity: str) -> list[str]:
        """Minors connected to the group (18xx ``mergeable_candidates``)."""
        gm = g(game)
        assert gm.board is not None
        group = self.merging if self.merging is not None else [entity]
        if len(group) >= LIMIT_MERGE:
            return []
        owners: dict[str | None, int] = {}
        for c in group:
            owners[gm.owner(c)] = owners.get(gm.owner(c), 0) + 1
        at_limit = {o for o, n in owners.items() if n >= LIMIT_OWNED_BY_ONE}
        out: list[str] = []
        # card: "their own tokens never block"; 18xx.games: each member's normal graph
        friends = frozenset() if gm.config.compat_18xxgames else frozenset(group)
        for corp in group:
            nodes = B.reach_nodes(gm.board, corp, friends)
            for h, node in sorted(nodes):
                city_nodes = gm.board.hex(h).geo.city_nodes
                if node not in city_nodes:
                    continue
                for s in B.slots(gm.board, h, city_nodes.index(node)):
                    if s and s in gm.corps and s not in group and s not in out \
                            and gm.is_minor(s) and gm.owner(s) not in at_limit:
                        out.append(s)
        return out

    def majors_available(self, game: Game) -> list[str]:
        """Majors not in play."""
        gm = g(game)
        return [c for c in gm.live_corps() if gm.is_major(c) and not gm.corps[c].floated
                and not gm.corps[c].ipoed]

    def details(self, game: Game, entity: str) -> dict[str, Any]:
        if self.converting or self.merge_major:
            return {"majors": self.majors_available(game)}
        return {"candidates": self.candidates(game, entity),
                "can_convert": self.can_convert(game, entity)}

    def process(self, game: Game, action: Action) -> None:
        match action:
            case Convert():
                if not self.can_convert(game, action.entity):
                    raise IllegalAction(f"{action.entity} cannot convert at its price")
                self.converting = action.entity
            case Merge() if self.converting:
                self._finish_convert(game, action)
            case Merge() if self.merge_major:
                self._finish_merge(game, action)
            case Merge():
                if action.corporation not in self.candidates(game, action.entity):
                    raise IllegalAction(f"cannot merge with {action.corporation}")
                gm = g(game)
                if self.merging is None and not gm.config.compat_18xxgames:
                    mround(self).pre_merge = None
                    mround(self).pre_merge = game.copy()  # to undo a merge without president
                other = gm.owner(action.corporation)
                if not gm.config.compat_18xxgames and other != gm.owner(action.entity) \
                        and other is not None:
                    # card: "all owners willing" (18xx.games does not ask, issue #9177)
                    self.consent = (action.corporation, other)
                    if self.merging is None:
                        self.merging = [action.entity]
                    return
                self._add(game, action.entity, action.corporation)
            case Choose() if self.consent is not None:
                if action.choice not in ("consent", "refuse"):
                    raise IllegalAction("answer consent or refuse")
                minor, _owner = self.consent
                self.consent = None
                assert self.merging is not None
                acting = self.merging[0]
                if action.choice == "consent":
                    self._add(game, acting, minor)
                elif action.choice != "refuse":
                    raise IllegalAction("answer consent or refuse")
                elif len(self.merging) == 1:
                    self.merging = None
            case Pass():
                if self.merging is not None:
                    self._close_group(game)
                else:
                    self.pass_(game)
            case _:
                raise IllegalAction(f"{action.type} is not a merger decision")

    def _add(self, game: Game, acting: str, minor: str) -> None:
        if self.merging is None:
            self.merging = [acting]
        self.merging.append(minor)
        if not self.candidates(game, acting):
            self._close_group(game)

    def _close_group(self, game: Game) -> None:
        """Done adding minors: name the major next, unless nobody could be president."""
        self.merge_major = True
        gm = g(game)
        r = mround(self)
        if not self.feasible(game) and not gm.config.compat_18xxgames and r.pre_merge:
            game.pending_restore = r.pre_merge  # card: such a merge is undone
            r.pre_merge = None

    def feasible(self, game: Game) -> bool:
        """Some owner holds two of the minors or can pay the start price (18xx check)."""
        gm = g(game)
        assert self.merging is not None
        prices = [gm.price(c) for c in self.merging]
        par = gm.market.cells[self._merge_cell(game, prices)].price
        owners = [gm.owner(c) for c in self.merging]
        return any(o is not None and (game.cash[o] >= par or owners.count(o) >= 2)
                   for o in owners)

    def _merge_cell(self, game: Game, prices: list[int]) -> tuple[int, int]:
        """Where a merged major starts: the card's "Price lowest + highest", rounded
        down to a market space (the major start spaces up to $200; above, the spaces
        right of the $200 start space on its row).  18xx.games (``compat_18xxgames``)
        clamps the sum to $100-$200 first."""
        gm = g(game)
        total = min(prices) + max(prices)
        if gm.config.compat_18xxgames:
            return self._par_cell(game, min(200, max(100, total)))
        top = gm.market.cells_with((CellType.PAR, CellType.PAR_2))[0]
        if total <= top.price:
            return self._par_cell(game, total)
        row = [c for c in gm.market.cells.values()
               if c.row == top.row and c.col >= top.col and c.price <= total]
        return max(row, key=lambda c: c.price).coord

    def _par_cell(self, game: Game, price: int) -> tuple[int, int]:
        gm = g(game)
        cells = gm.market.cells_with((CellType.PAR, CellType.PAR_2))
        return next(c for c in cells if c.price <= price).coord

    def _finish_convert(self, game: Game, action: Merge) -> None:
        gm = g(game)
        minor = action.entity
        target = action.corporation
        if target not in self.majors_available(game):
            raise IllegalAction(f"choose a major not in play, not {target}")
        coord = self._par_cell(game, gm.price(minor))
        gm.market.place(target, coord)
        corp = gm.corps[target]
        corp.ipoed = True
        corp.par_price = gm.market.cells[coord].price
        owner = gm.owner(minor)
        assert owner is not None
        gm.shares[f"{target}_0"].owner = owner
        update_float(gm, target)
        move_tokens(gm, minor, target)
        move_assets(gm, minor, target)
        self.converting = None
        r = mround(self)
        r.entities[r.entity_index] = target
        gm.close_corporation(minor)
        if target not in gm.available:
            gm.available.append(target)
        r.converted = target
        r.merge_type = "convert"
        ids = [p.id for p in game.players]
        k = ids.index(owner)
        r.dealing_players = ids[k:] + ids[:k]
        r.dealing_multiple = [owner]

    def _finish_merge(self, game: Game, action: Merge) -> None:
        gm = g(game)
        target = action.corporation
        if target not in self.majors_available(game):
            raise IllegalAction(f"choose a major not in play, not {target}")
        assert self.merging is not None
        merging = sorted(self.merging, key=lambda c: gm.market.order_key(c, c))
        prices = [gm.price(c) for c in merging]
        coord = self._merge_cell(game, prices)
        par = gm.market.cells[coord].price
        owners = [gm.owner(c) for c in merging]
        ids = [p.id for p in game.players]
        players = [p for p in ids if p in owners]
        first = owners[0]
        assert first is not None
        k = players.index(first)
        players = players[k:] + players[:k]
        if not any(game.cash[p] >= par or owners.count(p) >= 2 for p in players):
            raise IllegalAction("merge impossible: no player can become president")
        gm.market.place(target, coord)
        corp = gm.corps[target]
        corp.ipoed = True
        corp.par_price = par
        r = mround(self)
        r.entities[r.entity_index] = target
        self.merge_major = False
        for minor in merging:
            owner = gm.owner(minor)
            assert owner is not None
            pres = gm.shares[f"{target}_0"]
            if pres.owner == target and gm.percent_of(owner, target) == 10:
                gm.shares_of(owner, target)[0].owner = target
                pres.owner = owner
            else:
                gm.shares[treasury(gm, target)[-1]].owner = owner
            update_float(gm, target)
            # a token in a city already held by the group is dropped
            minor_cities = {(t.hex, t.city) for m in merging for t in gm.corps[m].tokens
                            if t.hex is not None}
            for t in corp.tokens:
                if t.hex is not None and (t.hex, t.city) in minor_cities:
                    assert gm.board is not None and t.city is not None
                    slots = B.slots(gm.board, t.hex, t.city)
                    B.set_slot(gm.board, t.hex, t.city, slots.index(target), None)
                    t.hex = t.city = None
            move_tokens(gm, minor, target)
            move_assets(gm, minor, target)
            gm.close_corporation(minor)
            if minor in r.entities:
                r.entities.remove(minor)
        if target not in gm.available:
            gm.available.append(target)
        if tokens_above_limit(gm, target):
            r.removing_tokens = [target]
        else:
            fix_token_count(gm, target)
        if r.entities:
            r.entity_index = r.entities.index(target)
        self.merging = None
        r.converted = target
        r.merge_type = "merge"
        r.dealing_players = players
        r.dealing_multiple = list(players)
