"""Stock-round steps: bids, buying, selling, concessions, loans, the tax haven, P7.

RB 4; supplement §5, §6 (P7, P11), §7, §9; 18xx ``G1822::Step::BuySellParShares``,
``G1822::Step::Choose``, ``G1822::Step::DiscardTrain``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from desk18xx.engine.actions import (
    Action,
    Bid,
    BuyShares,
    Choose,
    ChooseAbility,
    Par,
    Pass,
    PayoffPlayerDebt,
    PayoffPlayerDebtPartial,
    SellShares,
)
from desk18xx.engine.actions import (
    DiscardTrain as DiscardTrainAction,
)
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.round import Step
from desk18xx.engine.state import BANK, POOL, CorpKind
from desk18xx.titles.g1822ca import rules as R
from desk18xx.titles.g1822ca.shares import (
    buy_share,
    float_check,
    par_major,
    sell_shares,
)
from desk18xx.titles.g1822ca.steps.base import g

if TYPE_CHECKING:
    from desk18xx.engine.game import Game


class DiscardTrain(Step):
    """A company over its train limit discards (RB 5.10.6; supplement §6.1)."""

    def active_entities(self, game: Game) -> list[str]:
        """Crowded companies, the one to discard first first.

        RB 2.1.5: "they decide which to discard in descending share price order".
        18xx.games (``compat_18xxgames``) shows them in company order and lets any of
        them discard (``Step::DiscardTrain#actions``), which recorded games rely on
        (the buyer discards before a company listed earlier).
        """
        gm = g(game)
        crowded = gm.crowded_corps()
        if gm.config.compat_18xxgames:
            return crowded
        return sorted(crowded, key=lambda c: gm.market.order_key(c, c))

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        ents = self.active_entities(game)
        allowed = ents if g(game).config.compat_18xxgames else ents[:1]
        return (DiscardTrainAction,) if entity in allowed else ()

    def is_active(self, game: Game) -> bool:
        return bool(self.active_entities(game))

    def process(self, game: Game, action: Action) -> None:
        gm = g(game)
        if not isinstance(action, DiscardTrainAction):
            raise IllegalAction(f"cannot {action.type} now")
        train = gm.take_train(action.train)
        if train.owner != action.entity:
            raise IllegalAction(f"{action.entity} does not own {train.id}")
        if train.id not in [t.id for t in gm.discardable(action.entity)]:
            raise IllegalAction(f"{action.entity} must discard one of the trains over its limit")
        if train.name in R.EXTRA_TRAINS:
            gm.remove_train(train)
        else:
            gm.corps[action.entity].trains.remove(train.id)
            gm.to_pool(train)

    def skip(self, game: Game) -> None:
        """Nothing to discard."""


class BuySellParShares(Step):
    """A player's stock-round turn (RB 4.2-4.8)."""

    share_programs: ClassVar[bool] = True

    def setup(self, game: Game) -> None:
        self.bid_actions = 0
        self.bought = False
        self.actions_this_turn = 0
        self.sold_now: set[str] = set()

    def _player(self) -> str:
        return self.round.entities[self.round.entity_index]

    def details(self, game: Game, entity: str) -> dict[str, Any]:
        """Bids placed this turn of the most allowed (RB 4.10.5), and whether the player
        acted this turn (then a pass ends the turn, not a pass of the round)."""
        if entity != self._player():
            return {}
        return {"bids_this_turn": self.bid_actions,
                "bids_per_turn": R.BIDDING_TOKENS_PER_ACTION,
                "acted_this_turn": self.actions_this_turn > 0}

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        gm = g(game)
        if entity == "P11":
            owner = gm.companies["P11"].owner
            if owner == self._player() and self.bid_actions == 0 and not gm.debt[owner] \
                    and not gm.tax_haven_bought and not self.bought:
                return (ChooseAbility,)
            return ()
        if entity != self._player():
            return ()
        if self.must_sell(game, entity):
            return (SellShares,)
        can_sell = self.can_sell_any(game, entity)
        if gm.debt[entity] > 0:
            out: list[type[Action]] = [SellShares] if can_sell else []
            if gm.cash[entity] > 0:
                out += [PayoffPlayerDebt, PayoffPlayerDebtPartial]
            return (*out, Pass) if out else ()
        out = [Bid, Pass]
        if can_sell:
            out.append(SellShares)
        if self.bid_actions == 0 and not self.bought:
            if any(corp.kind is CorpKind.MAJOR and corp.ipoed for corp in gm.corps.values()):
                out.append(BuyShares)
            if self._can_start_any(game, entity):
                out.append(Par)
        return tuple(out)

    def _can_start_any(self, game: Game, player: str) -> bool:
        """A concession to convert (phases 2-4) or, from phase 5, any unstarted major."""
        gm = g(game)
        if gm.has_status("can_par"):
            return any(corp.kind is CorpKind.MAJOR and not corp.ipoed
                       for corp in gm.corps.values())
        if not gm.has_status("can_convert_concessions"):
            return False
        return any(cid.startswith("C") and c.owner == player and not c.closed
                   for cid, c in gm.companies.items())

    def process(self, game: Game, action: Action) -> None:
        gm = g(game)
        player = self._player()
        match action:
            case Bid():
                company = action.company or action.corporation or ""
                gm.boxes.check_bid(player, company, action.price)
                gm.boxes.add_bid(player, company, action.price)
                gm.nothing_sold_in_sr = False
                self.bid_actions += 1
                self._acted(game)
                if self.bid_actions >= R.BIDDING_TOKENS_PER_ACTION:
                    self.pass_(game)
            case BuyShares():
                if self.bid_actions or self.bought:
                    raise IllegalAction("one share purchase per turn, and not after a bid")
                corp = gm.shares[action.shares[0]].corp
                if corp in self._sold_this_round(game, player):
                    raise IllegalAction(f"{player} sold {corp} this round")
                price = action.share_price or gm.price(corp)
                if price * gm.shares[action.shares[0]].percent // 10 > self.available(game):
                    raise IllegalAction("not enough cash beside the committed bids (RB 4.2.9)")
                buy_share(gm, player, action.shares, action.share_price)
                gm.nothing_sold_in_sr = False
                self.bought = True
                self._acted(game)
                self.pass_(game)
            case SellShares():
                corp = gm.shares[action.shares[0]].corp
                if corp in self.sold_now:
                    raise IllegalAction("all shares of a company go in one sale (RB 4.4.3)")
                sell_shares(gm, player, action.shares, action.share_price, action.percent)
                self.sold_now.add(corp)
                self._sold_this_round(game, player).add(corp)
                self._acted(game)
            case Par():
                if self.bid_actions or self.bought:
                    raise IllegalAction("one purchase per turn, and not after a bid")
                cost = gm.market.by_id(action.share_price).price * (
                    gm.shares[f"{action.corporation}_0"].percent // 10)
                if gm.concession_of(action.corporation) is not None:
                    cost -= 100
                if cost > self.available(game):
                    raise IllegalAction("not enough cash beside the committed bids (RB 4.2.9)")
                par_major(gm, player, action.corporation, action.share_price)
                gm.nothing_sold_in_sr = False
                self.bought = True
                self._acted(game)
                self.pass_(game)
            case PayoffPlayerDebt():
                gm.payoff_player_loan(player)
                self._acted(game)
            case PayoffPlayerDebtPartial():
                gm.payoff_player_loan(player, action.amount)
                self._acted(game)
            case ChooseAbility():
                self._tax_haven(game, action.choice)
                self._acted(game)
                self.pass_(game)
            case Pass():
                self.pass_(game)
            case _:
                raise IllegalAction(f"cannot {action.type} in the stock round")

    def available(self, game: Game) -> int:
        """Cash not committed to winning bids (18xx ``available_cash``)."""
        gm = g(game)
        player = self._player()
        return gm.cash[player] - gm.boxes.committed_cash(player)

    def must_sell(self, game: Game, entity: str) -> bool:
        """Over the certificate limit with a sale possible: only selling is allowed
        (18xx ``G1822::Step::BuySellParShares#must_sell?``)."""
        gm = g(game)
        return gm.num_certs(entity) > gm.cert_limit and self.can_sell_any(game, entity)

    def can_sell_any(self, game: Game, player: str) -> bool:
        """Some major share the player could sell now (RB 4.4)."""
        gm = g(game)
        for s in gm.shares.values():
            if s.owner != player or not gm.is_major(s.corp) or s.corp in self.sold_now:
                continue
            if gm.operating_history.get(s.corp, 0) < 1 or gm.percent_of(POOL, s.corp) >= 50:
                continue
            if s.president and not any(gm.percent_of(p.id, s.corp) >= s.percent
                                       for p in gm.players if p.id != player):
                continue
            return True
        return False

    def _sold_this_round(self, game: Game, player: str) -> set[str]:
        from desk18xx.titles.g1822ca.rounds import StockRound

        assert isinstance(self.round, StockRound)
        return self.round.players_sold.setdefault(player, set())

    def _acted(self, game: Game) -> None:
        self.actions_this_turn += 1
        game.player(self._player()).passed = False

    def pass_(self, game: Game) -> None:
        """End the turn; a turn without actions is a pass (18xx ``BuySellParShares#pass!``)."""
        self.passed = True
        game.player(self._player()).passed = self.actions_this_turn == 0

    def _tax_haven(self, game: Game, choice: str) -> None:
        """P11 buys one share into the tax haven (supplement §6.1 P11)."""
        gm = g(game)
        corp, _sep, source = choice.rpartition("_")
        if not gm.is_major(corp) or source not in ("ipo", "market"):
            raise IllegalAction(f"bad tax-haven choice {choice}")
        if gm.num_shares_of(R.TAX_HAVEN, corp):
            raise IllegalAction(f"the tax haven already holds {corp}")
        if corp in self._sold_this_round(game, self._player()):
            raise IllegalAction(f"{corp} was sold this round")
        holder = corp if source == "ipo" else POOL
        shares = [s for s in gm.shares.values() if s.corp == corp and s.owner == holder
                  and not s.president]
        if not shares:
            raise IllegalAction(f"no {corp} share in the {source}")
        if gm.config.compat_18xxgames:
            # 18xx.games takes the holder's first certificate by arrival
            # (``ipo_shares.first``), not the lowest number
            share = min(shares, key=lambda s: (s.since, int(s.id.rsplit("_", 1)[1])))
        else:
            share = min(shares, key=lambda s: int(s.id.rsplit("_", 1)[1]))
        haven_value = gm.cash[R.TAX_HAVEN] + gm.holdings_value(R.TAX_HAVEN)
        # RB 6.1.2: the owner funds every purchase; 18xx.games pays the second and
        # later shares from the haven's own cash (supplement §14.3).
        self_funded = gm.config.compat_18xxgames and haven_value > 0
        spender = R.TAX_HAVEN if self_funded else self._player()
        price = gm.price(corp)
        receiver = corp if source == "ipo" else BANK
        gm.transfer(spender, receiver, price)
        was_floated = gm.corps[corp].floated
        share.owner = R.TAX_HAVEN
        gm.tax_haven_bought = True
        if not was_floated:
            float_check(gm, corp)


class ChooseDouble(Step):
    """P7: the owner may double his cash for the player order (RB 4.11.13)."""

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        ents = self.round.entities
        if not ents or entity != ents[0]:
            return ()
        return (Choose, Pass)

    def process(self, game: Game, action: Action) -> None:
        if isinstance(action, Choose):
            if action.choice != "double":
                raise IllegalAction(f"bad choice {action.choice}")
            g(game).double_cash_choice = action.entity
        elif not isinstance(action, Pass):
            raise IllegalAction(f"cannot {action.type} now")
        self.pass_(game)
