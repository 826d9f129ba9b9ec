"""Buying trains, L→2 upgrades and the forced purchase with emergency money (RB 5.10, 5.15).

18xx ``G1822::Step::BuyTrain`` over ``Engine::Step::BuyTrain``/``Train``:
``EBUY_FROM_OTHERS = :never``, ``EBUY_CAN_TAKE_PLAYER_LOAN = :after_sell``.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from desk18xx.engine.actions import Action, BuyTrain, Pass, SellShares
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.state import BANK, DEPOT, POOL, Train
from desk18xx.titles.g1822ca import rules as R
from desk18xx.titles.g1822ca.shares import sell_shares
from desk18xx.titles.g1822ca.steps.acquisition import ask_consent, needs_consent
from desk18xx.titles.g1822ca.steps.base import OrStep, g

if TYPE_CHECKING:
    from desk18xx.engine.game import Game
    from desk18xx.titles.g1822ca.game import G1822CA


def depot_offer(gm: G1822CA) -> list[Train]:
    """New trains on offer (first of each type available) and, of the discarded
    ones, the first discarded of each name (18xx ``Depot#depot_trains``:
    ``@discarded.uniq(&:name)``)."""
    out: list[Train] = []
    up = gm.upcoming()
    if up is not None:
        out.append(up)
    names: set[str] = set()
    for t in sorted((t for t in gm.trains.values() if t.owner == POOL), key=lambda t: t.pooled):
        if t.name not in names:
            names.add(t.name)
            out.append(t)
    return out


def min_depot_price(gm: G1822CA) -> int | None:
    """Cheapest price of a depot or pool train (cheapest side of a double card)."""
    prices = []
    for t in depot_offer(gm):
        if t.owner == DEPOT:
            base = gm.train_base[t.id]
            prices.append(min(v[1] for v in gm.train_variants[base].values()))
        else:
            prices.append(t.price)
    return min(prices) if prices else None


def forced_train(gm: G1822CA) -> tuple[int, frozenset[str]] | None:
    """The train a forced purchase must be (RB 5.5.4, 5.14.3): the cheapest the
    bank offers, the pool's included, of a double card its cheaper side.  The
    rulebook is silent on a tie; as 18xx.games (``check_for_cheapest_train``:
    ``Depot#min_depot_train``), the first cheapest of the depot's list (the next
    new train, then the pool's by name in order of discard), and only the names
    of its cheapest sides.  Returns (price, names), or None when the bank has none."""
    best: tuple[int, frozenset[str]] | None = None
    for t in depot_offer(gm):
        variants = gm.train_variants.get(gm.train_base.get(t.id, ""), {})
        price = t.price if t.owner != DEPOT or not variants else min(
            v[1] for v in variants.values())
        if best is not None and price >= best[0]:
            continue
        cheapest = min((v[1] for v in variants.values()), default=t.price)
        names = frozenset(side for side, v in variants.items() if v[1] == cheapest) \
            or frozenset({t.name})
        best = (price, names)
    return best


def forced_problem(gm: G1822CA, name: str) -> str | None:
    """Why a forced purchase may not be a ``name`` train (None: it may)."""
    found = forced_train(gm)
    if found is None or name in found[1]:
        return None
    price, names = found
    return (f"a forced purchase is the cheapest train: the {'/'.join(sorted(names))} "
            f"at ${price} (RB 5.14.3)")


def other_trains(gm: G1822CA, corp: str) -> list[Train]:
    """Trains of other companies (buyable from phase 3, RB 5.10.4).

    18xx.games counts them at $1 when deciding whether the buy-train step
    waits for the company, in every phase (``Depot#min_price``).
    """
    return [t for t in gm.trains.values() if t.owner in gm.corps and t.owner != corp
            and t.buyable and t.name not in R.EXTRA_TRAINS]


def e_train_problem(gm: G1822CA, corp: str, name: str) -> str | None:
    """Why ``corp`` may not take a train named ``name``: a second E-train (RB 5.17.7),
    from the depot, the pool or another company alike; or None."""
    if name == R.E_TRAIN and any(t.name == R.E_TRAIN for t in gm.corp_trains(corp)):
        return f"{corp} may own only one E-train (RB 5.17.7)"
    return None


def must_buy_train(gm: G1822CA, corp: str) -> bool:
    """A company without a (real) train must buy one while the depot has trains."""
    return not gm.real_trains(corp) and bool(depot_offer(gm))


def sellable_shares(gm: G1822CA, player: str, corp: str,
                    sold: Collection[str] = ()) -> list[str]:
    """Shares the director could sell to raise money now (keeping ``corp``).

    ``sold``: companies already sold from in this emergency; each is sold in
    one action (RB 5.15.5; 18xx ``MUST_SELL_IN_BLOCKS``).
    """
    out = []
    for s in sorted(gm.shares.values(), key=lambda s: s.id):
        if s.owner != player or not gm.is_major(s.corp) or s.corp in sold:
            continue
        if s.president and (s.corp == corp or not any(
                gm.percent_of(p.id, s.corp) >= s.percent for p in gm.players if p.id != player)):
            # 18xx EmergencyMoney#can_sell? (bundle.can_dump?): another player takes over
            continue
        if s.president and gm.percent_of(player, s.corp) - s.percent >= max(
                gm.percent_of(p.id, s.corp) for p in gm.players if p.id != player):
            continue  # still the director (RB 3.3.3): an ordinary certificate goes instead
        if s.president and any(o.owner == player and o.corp == s.corp and not o.president
                               for o in gm.shares.values()):
            continue  # ordinary certificates go first (18xx.games sells them first, D21)
        # SELL_AFTER = :full_or_turn: the operating company's current turn does not count
        needed = 2 if s.corp == corp else 1
        if gm.operating_history.get(s.corp, 0) < needed \
                or gm.percent_of(POOL, s.corp) + sale_percent(gm, player, s.id) > 50:
            continue
        if s.corp == corp:
            others = max((gm.percent_of(p.id, corp) for p in gm.players if p.id != player),
                         default=0)
            if gm.percent_of(player, corp) - s.percent < others:
                continue
        out.append(s.id)
    return out


def sale_percent(gm: G1822CA, player: str, share_id: str) -> int:
    """Percent an emergency sale of ``share_id`` sells: the certificate, or for a
    director's certificate that does not fit the pool (at most 50%), all of the
    player's certificates but 10% (RB 4.4.7; 18xx ``partial_bundles_for_presidents_share``)."""
    s = gm.shares[share_id]
    if not s.president or gm.percent_of(POOL, s.corp) + s.percent <= 50 or s.percent <= 10:
        return s.percent
    return gm.percent_of(player, s.corp) - 10


def l_upgrade_price(gm: G1822CA) -> int:
    """L→2 flip price (RB 5.10.3; $70 from phase 2 in the scenarios)."""
    return gm.config.l_upgrade_cost_phase2 if gm.phase_num >= 2 else R.UPGRADE_COST_L_TO_2


def can_buy_train(gm: G1822CA, corp: str) -> bool:
    """18xx ``can_buy_train?``: room and cash for the cheapest offer, or an L to flip."""
    room = len(gm.real_trains(corp)) < gm.train_limit(corp)
    cash = gm.cash[corp]
    prices = []
    depot = min_depot_price(gm)
    if depot is not None:
        prices.append(depot)
    if other_trains(gm, corp):
        prices.append(1)
    if room and prices and cash >= min(prices):
        return True
    has_l = any(t.name == "L" for t in gm.corp_trains(corp))
    return has_l and cash >= l_upgrade_price(gm)


class BuyTrainStep(OrStep):
    """Buy trains (RB 5.10); forced purchase with director's money and loans (RB 5.15)."""

    corporations_sold: list[str]
    """Companies the director sold from in this emergency (RB 5.15.5)."""

    def setup(self, game: Game) -> None:
        self.corporations_sold = []

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        gm = g(game)
        corp = self.corp() if self.round.entities else None
        if corp is None:
            return ()
        if entity == gm.president(corp) and must_buy_train(gm, corp) \
                and gm.cash[corp] < (min_depot_price(gm) or 0):
            return (SellShares,)
        if entity != corp:
            return ()
        if must_buy_train(gm, corp):
            return (BuyTrain,)
        if can_buy_train(gm, corp):
            return (BuyTrain, Pass)
        return ()

    def is_blocking(self, game: Game) -> bool:
        return bool(self.legal(game, self.corp())) if self.round.entities else False

    def process(self, game: Game, action: Action) -> None:
        gm = g(game)
        corp = self.corp()
        if isinstance(action, Pass):
            if must_buy_train(gm, corp):
                raise IllegalAction(f"{corp} must buy a train (RB 5.10.5)")
            self.pass_(game)
            return
        if isinstance(action, SellShares):
            player = action.entity
            sold = gm.shares[action.shares[0]].corp
            # RB 5.15.5: one sale per company; 18xx step/train.rb can_sell? (MUST_SELL_IN_BLOCKS)
            if sold in self.corporations_sold:
                raise IllegalAction(f"Cannot sell shares of {sold}: one sale per company "
                                    "(RB 5.15.5)")
            if sold == corp:
                if gm.operating_history.get(corp, 0) < 2:
                    raise IllegalAction(f"{corp} has not completed an operating turn")
                pct = action.percent or sum(gm.shares[s].percent for s in action.shares)
                if gm.percent_of(player, corp) - pct < max(
                        gm.percent_of(p.id, corp) for p in gm.players if p.id != player):
                    raise IllegalAction("the director may not lose the operating company")
            sell_shares(gm, player, action.shares, action.share_price, action.percent)
            self.corporations_sold.append(sold)
            self.orr().recalculate_order(game)
            return
        if not isinstance(action, BuyTrain):
            raise IllegalAction(f"cannot {action.type} now")
        self.buy(gm, corp, action)
        if not can_buy_train(gm, corp):
            self.pass_(game)

    def buy(self, gm: G1822CA, corp: str, action: BuyTrain) -> None:
        """Pay for and take one train."""
        train = gm.take_train(action.train)
        price = action.price
        if action.exchange:
            if train.owner != corp or train.name != "L":
                raise IllegalAction(f"{corp} has no L-train {train.id} to flip")
            if price != l_upgrade_price(gm):
                raise IllegalAction(f"the L→2 flip costs ${l_upgrade_price(gm)}")
            gm.transfer(corp, BANK, price)
            gm.set_variant(train, action.variant or "2")
            if gm.phase_num == 1:
                gm.train_bought(train, "2")
            return
        if train.owner == corp:
            raise IllegalAction("a company cannot buy its own train")
        source = train.owner
        if source in gm.corps:
            if not gm.has_status("can_buy_trains"):
                raise IllegalAction("trains change hands between companies from phase 3")
            if not train.buyable or train.name in R.EXTRA_TRAINS:
                raise IllegalAction(f"{train.id} cannot be sold")
            if price < 1 or price > gm.cash[corp]:
                raise IllegalAction("a train between companies costs $1 up to the buyer's cash")
            if len(gm.real_trains(corp)) >= gm.train_limit(corp):
                raise IllegalAction(f"{corp} is at its train limit")
            if why := e_train_problem(gm, corp, train.name):
                raise IllegalAction(why)
            seller = gm.president(source)
            if needs_consent(gm, corp, seller) and not self.orr().consented:
                assert seller is not None
                ask_consent(self.orr(), seller, action)  # RB 5.13.3: the seller consents
                return
            gm.transfer(corp, source, price)
            gm.give_train(train, corp)
            return
        if source == DEPOT:
            up = gm.upcoming()
            if up is None or gm.train_base[up.id] != gm.train_base[train.id]:
                if train.id not in [t.id for t in depot_offer(gm)]:
                    raise IllegalAction(f"{train.id} is not on offer")
        elif source != POOL:
            raise IllegalAction(f"{train.id} is not for sale")
        elif train.id not in [t.id for t in depot_offer(gm)]:
            raise IllegalAction(f"Not a buyable train: {train.id} (an earlier discarded "
                                f"{train.name} is bought first)")
        variant = action.variant
        if why := e_train_problem(gm, corp, variant or train.name):
            raise IllegalAction(why)
        base = gm.train_base[train.id]
        if source == DEPOT:
            sides = gm.train_variants[base]
            side = variant or train.name
            if side not in sides or price != sides[side][1]:
                raise IllegalAction(f"a new {side} train costs ${sides.get(side, (0, 0))[1]}")
        elif price != train.price:
            raise IllegalAction(f"the pool's {train.name} train costs ${train.price}")
        if len(gm.real_trains(corp)) >= gm.train_limit(corp):
            raise IllegalAction(f"{corp} is at its train limit")
        if variant and variant != train.name:
            gm.set_variant(train, variant)
        if gm.cash[corp] < price:
            self.emergency(gm, corp, price, variant or train.name)
        gm.transfer(corp, BANK, price)
        gm.give_train(train, corp)
        if source == DEPOT:
            gm.train_bought(train)
            if train.name == "2":
                gm.train_bought(train, "2")

    def emergency(self, gm: G1822CA, corp: str, price: int, name: str) -> None:
        """The director adds the shortfall, borrowing from the bank if he must (RB 5.15.6)."""
        if not must_buy_train(gm, corp):
            raise IllegalAction(f"{corp} cannot afford ${price}")
        player = gm.president(corp)
        assert player is not None
        why = forced_problem(gm, name)
        if why is not None:
            raise IllegalAction(why)
        remaining = price - gm.cash[corp]
        if gm.cash[player] < remaining:
            if sellable_shares(gm, player, corp, self.corporations_sold):
                raise IllegalAction(f"{player} must sell shares before borrowing (RB 5.15.6)")
            gm.take_player_loan(player, remaining - gm.cash[player])
        gm.transfer(player, corp, remaining)
