"""Acquiring privates from players and minors from players or the bid boxes (RB 5.3, 5.14).

18xx ``G1822::Step::AcquireCompany``, ``G1822::Step::MinorAcquisition``,
``G1822CA::Step::MinorAcquisition`` and ``AcquisitionTrack``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from desk18xx.engine.actions import AcquireCompany as AcquireCompanyAction
from desk18xx.engine.actions import Action, Choose, LayTile, Merge, Pass
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.state import BANK
from desk18xx.titles.g1822ca import rules as R
from desk18xx.titles.g1822ca.steps.base import OrStep, g

if TYPE_CHECKING:
    from desk18xx.engine.game import Game
    from desk18xx.titles.g1822ca.game import G1822CA
    from desk18xx.titles.g1822ca.rounds import OperatingRound

PAY_SHARES = {"money": 0, "one_share": 1, "two_shares": 2}


def acquirable_privates(gm: G1822CA, corp: str) -> list[str]:
    """Player-owned privates ``corp`` may take now (supplement §6, colour and phase)."""
    kind = "minor" if gm.is_minor(corp) else "major"
    phase = gm.phase_num
    out = []
    for cid, (kinds, since) in R.ACQUISITION.items():
        c = gm.companies.get(cid)
        if c is None or c.closed or c.owner is None or kind not in kinds or phase < since:
            continue
        if gm.is_player(c.owner):
            out.append(cid)
    if len(out) > 1:  # stack order, then the companies outside the stacks
        stacked = {cid: i for i, cid in enumerate(gm.company_order)}
        rest = {cid: i for i, cid in enumerate(gm.companies)}
        out.sort(key=lambda cid: (0, stacked[cid]) if cid in stacked else (1, rest[cid]))
    return out


def needs_consent(gm: G1822CA, corp: str, other_owner: str | None) -> bool:
    """Rulebook mode: a deal with another player's private, minor or company waits for
    that player's consent (RB 5.6.1, 5.13.3, 5.16.4; docs/rules-notes.md row 8)."""
    if gm.config.compat_18xxgames or other_owner is None or not gm.is_player(other_owner):
        return False
    return other_owner != gm.president(corp)


def deal_key(action: Action) -> tuple[str, str]:
    """What a proposed deal is about: its type and the private, minor or train asked for."""
    target = getattr(action, "company", None) or getattr(action, "corporation", None) \
        or getattr(action, "train", None) or ""
    return action.type, str(target)


def ask_consent(orr: OperatingRound, owner: str, action: Action) -> None:
    """Put a deal to its other player; one that player refused this turn may not be
    put again (docs/rules-notes.md row 8)."""
    if deal_key(action) in orr.refused:
        raise IllegalAction(f"{owner} refused this deal this turn")
    orr.consent = (owner, action)


class Consent(OrStep):
    """The other player answers ``choose "consent"`` or ``choose "refuse"`` to a deal
    the operating company proposed (rulebook mode only); a consent carries it out."""

    def skip(self, game: Game) -> None:
        """Never passed: a request may come at any point of the turn."""

    def active_entities(self, game: Game) -> list[str]:
        pending = self.orr().consent
        return [pending[0]] if pending is not None else []

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        pending = self.orr().consent
        return (Choose,) if pending is not None and entity == pending[0] else ()

    def process(self, game: Game, action: Action) -> None:
        orr = self.orr()
        pending = orr.consent
        if pending is None or not isinstance(action, Choose) \
                or action.choice not in ("consent", "refuse"):
            raise IllegalAction("answer consent or refuse")
        orr.consent = None
        if action.choice == "refuse":
            orr.refused.add(deal_key(pending[1]))
            return
        deal = pending[1]
        for step in self.round.steps:
            if step is not self and step.is_active(game) \
                    and type(deal) in step.legal(game, deal.entity):
                orr.consented = True
                try:
                    step.process(game, deal)
                finally:
                    orr.consented = False
                step.acted = True
                return
        raise IllegalAction(f"{deal.type} by {deal.entity} is no longer possible")


class AcquireCompany(OrStep):
    """Take over a player's private, free (RB 5.3; another player's consent is asked in
    rulebook mode only, supplement §14.8)."""

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        if not self.is_current(entity) or not acquirable_privates(g(game), entity):
            return ()
        return (AcquireCompanyAction, Pass)

    def process(self, game: Game, action: Action) -> None:
        gm = g(game)
        corp = self.corp()
        if isinstance(action, AcquireCompanyAction):
            if action.company not in acquirable_privates(gm, corp):
                raise IllegalAction(f"{corp} cannot acquire {action.company} now")
            owner = gm.companies[action.company].owner
            if needs_consent(gm, corp, owner) and not self.orr().consented:
                assert owner is not None
                ask_consent(self.orr(), owner, action)
                return
            gm.acquire_private(corp, action.company)
            self.orr().acquired.append(action.company)
            if not acquirable_privates(gm, corp):
                self.pass_(game)
        elif isinstance(action, Pass):
            self.pass_(game)
        else:
            raise IllegalAction(f"cannot {action.type} now")


class MinorAcquisition(OrStep):
    """A major takes over a minor (RB 5.14): merge, then choose payment, then the token."""

    def setup(self, game: Game) -> None:
        self.state = "select"
        self.minor: str | None = None
        self.shares = 0

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        if not self.is_current(entity):
            return ()
        if self.state != "select":
            return (Choose,)
        gm = g(game)
        if not gm.is_major(entity) or gm.operating_history.get(entity, 0) <= 1:
            return ()
        if not self.candidates(gm, entity):
            return ()
        return (Merge, Pass)

    def candidates(self, gm: G1822CA, corp: str) -> list[str]:
        """Minors whose acquisition ``corp`` could pay for (connection not checked)."""
        out = []
        for cid, c in gm.corps.items():
            if c.floated and not c.closed and gm.is_minor(cid) \
                    and gm.operating_history.get(cid, 0) > 1 and self.pay_choices(gm, corp, cid):
                out.append(cid)
        if gm.has_status("can_acquire_minor_bidbox") and gm.cash[corp] >= R.MINOR_BIDBOX_PRICE:
            out.extend(gm.corp_of_company(m) for m in gm.boxes.minors())
        return out

    def pay_choices(self, gm: G1822CA, corp: str, minor: str) -> list[str]:
        """Payment forms (18xx ``pay_choices``)."""
        owner = gm.president(minor)
        if owner is None:
            return ["money"] if gm.cash[corp] >= R.MINOR_BIDBOX_PRICE else []
        out = []
        value = gm.price(minor) * 2
        if gm.cash[corp] >= value:
            out.append("money")
        ipo = len(gm.ipo_shares(corp))
        for n, name in ((1, "one_share"), (2, "two_shares")):
            if ipo < n:
                continue
            # RB 5.17.3: two shares would put a player at the limit over it, "unless
            # the major company is in the yellow zone of the stock market"
            if n == 2 and gm.counts_for_limit(corp) and gm.num_certs(owner) >= gm.cert_limit:
                continue
            diff = value - gm.price(corp) * n
            if (diff < 0 and -diff <= gm.cash[owner]) or diff == 0 or (
                    0 < diff <= gm.cash[corp]):
                out.append(name)
        return out

    def token_choices(self, gm: G1822CA, corp: str, minor: str) -> list[str]:
        """What may become of the minor's token (18xx ``token_choices``).  A bid-box M13
        is replaced only by a $20 token on the Toronto rondel (RB 7.1.4): the major must
        still afford it after paying the bid-box price, and reach a Toronto city free of
        its own tokens."""
        if gm.exchange_tokens.get(corp, 0) <= 0:
            return ["remove"]
        if minor == "13" and gm.president(minor) is None:
            cash = gm.cash[corp] - R.MINOR_BIDBOX_PRICE
            st = gm.map.hex(gm.corp_defs[minor].home_hexes[0])
            free_city = any(all(t.corp != corp for t in st.city_tokens(i))
                            and gm.reaches_city(corp, st.hex_id, i)
                            for i in range(len(st.tokens)))
            if cash < R.MINOR_13_TOKEN_PRICE or not free_city:
                return ["exchange"]
        return ["replace", "exchange"]

    def process(self, game: Game, action: Action) -> None:
        gm = g(game)
        corp = self.corp()
        if isinstance(action, Pass):
            self.pass_(game)
            return
        if isinstance(action, Merge):
            minor = action.corporation or ""
            if minor not in self.candidates(gm, corp):
                raise IllegalAction(f"{corp} cannot acquire {minor}")
            if not gm.connects_to_minor(corp, minor):
                raise IllegalAction(f"{corp} is not connected to {minor} (RB 5.14.3)")
            owner = gm.president(minor)
            if needs_consent(gm, corp, owner) and not self.orr().consented:
                assert owner is not None
                ask_consent(self.orr(), owner, action)
                return
            self.minor = minor
            self.state = "pay"
            return
        if not isinstance(action, Choose) or self.minor is None:
            raise IllegalAction(f"cannot {action.type} now")
        if self.state == "pay":
            if action.choice not in self.pay_choices(gm, corp, self.minor):
                raise IllegalAction(f"{action.choice} is not a payment option")
            self.shares = PAY_SHARES[action.choice]
            self.state = "token"
            return
        if action.choice not in self.token_choices(gm, corp, self.minor):
            raise IllegalAction(f"{action.choice} is not a token option")
        gm.acquire_minor(corp, self.minor, self.shares, action.choice, self.orr())
        self.orr().acquiring_major = corp
        self.state = "select"
        self.pass_(game)


class AcquisitionTrack(OrStep):
    """A bonus track action for the acquiring major (supplement §6 'bonus tile'); not a
    private's tile-laying step (18xx.games: its type is ``acquisition_track``, not the
    abilities' ``track``)."""

    def legal(self, game: Game, entity: str) -> tuple[type[Action], ...]:
        if not self.is_current(entity) or self.orr().acquiring_major != entity:
            return ()
        return (LayTile, Pass)

    def process(self, game: Game, action: Action) -> None:
        gm = g(game)
        if isinstance(action, LayTile):
            if action.hex in self.orr().laid_hexes:
                # 18xx MAJOR_TILE_LAYS cannot_reuse_same_hex
                raise IllegalAction(f"{action.hex} was already laid or upgraded this turn "
                                    "(RB 5.17.13)")
            gm.lay_tile(self.corp(), action.hex, action.tile, action.rotation)
            self.orr().laid_hexes.append(action.hex)
        elif not isinstance(action, Pass):
            raise IllegalAction(f"cannot {action.type} now")
        self.orr().acquiring_major = None
        self.pass_(game)


__all__ = ["BANK", "AcquireCompany", "AcquisitionTrack", "Consent", "MinorAcquisition"]
