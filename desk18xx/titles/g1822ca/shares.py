"""Share transactions: buying, selling, starting majors, floating, issuing, redeeming.

RB 4.3-4.8, 5.16; supplement §5, §7; 18xx ``SharePool``, ``G1822::Game#float_corporation``,
``G1822::Step::BuySellParShares#process_par``, ``G1822CA::Step::IssueShares``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.state import BANK, POOL

if TYPE_CHECKING:
    from desk18xx.titles.g1822ca.game import G1822CA


def buy_share(gm: G1822CA, player: str, share_ids: tuple[str, ...],
              share_price: int | None = None) -> None:
    """A player buys certificates from the treasury or the pool (RB 4.3)."""
    if not share_ids:
        raise IllegalAction("no share named")
    shares = [gm.shares[s] for s in share_ids]
    corp = shares[0].corp
    if not gm.is_major(corp) or not gm.corps[corp].ipoed:
        raise IllegalAction(f"{corp} shares are not for sale")
    owner = shares[0].owner
    if owner not in (corp, POOL) or any(s.owner != owner for s in shares):
        raise IllegalAction("shares must come from the treasury or the pool")
    price = share_price if share_price is not None else gm.price(corp)
    total = sum(price * s.percent // 10 for s in shares)
    held = gm.percent_of(player, corp) + sum(s.percent for s in shares)
    if held > gm.corps[corp].max_ownership:
        raise IllegalAction(f"{player} may not hold more than 60% of {corp} (RB 4.3.4)")
    counts = gm.price(corp) >= 50
    bids = len(gm.boxes.player_bids(player, committed_only=True))
    if counts and gm.num_certs(player) + bids >= gm.cert_limit:
        raise IllegalAction(f"{player} is at the certificate limit (RB 4.3.3)")
    receiver = corp if owner == corp and not _bank_holds_capital(gm, corp) else BANK
    gm.transfer(player, receiver, total)
    previous = gm.president(corp)
    for s in shares:
        s.owner = player
    gm.check_president(corp, previous)
    float_check(gm, corp)


def sell_shares(gm: G1822CA, player: str, share_ids: tuple[str, ...],
                share_price: int | None = None, percent: int | None = None) -> None:
    """A player sells certificates to the pool (RB 4.4; supplement §7.2, §7.3).

    ``percent`` below the certificates' total sells part of the director's
    certificate: the seller names all his certificates of the company and keeps
    10% (RB 4.4.7: the director's certificate is exchanged first; 18xx
    ``partial_bundles_for_presidents_share``)."""
    shares = [gm.shares[s] for s in share_ids]
    corp = shares[0].corp
    if any(s.owner != player or s.corp != corp for s in shares):
        raise IllegalAction(f"{player} does not hold {', '.join(share_ids)}")
    if not gm.is_major(corp):
        raise IllegalAction("only major shares can be sold")
    if gm.operating_history.get(corp, 0) < 1:
        raise IllegalAction(f"{corp} has not operated yet")
    full = sum(s.percent for s in shares)
    pct = full if percent is None else percent
    if pct != full:
        pres_cert = next((s for s in shares if s.president), None)
        if pres_cert is None or pct <= 0 or (full - pct) % 10 \
                or full - pct >= pres_cert.percent:
            raise IllegalAction(f"{pct}% does not match the certificates sold")
        if len(shares) != len(gm.shares_of(player, corp)):
            raise IllegalAction(f"part of the director's certificate is sold with all of "
                                f"{player}'s other {corp} certificates")
    if gm.percent_of(POOL, corp) + pct > 50:
        raise IllegalAction("the pool may hold at most 50%")
    price = share_price if share_price is not None else gm.price(corp)
    sitting = gm.president(corp)
    was_president = sitting == player
    if any(s.president for s in shares) and gm.percent_of(player, corp) - pct >= max(
            (gm.percent_of(p.id, corp) for p in gm.players if p.id != player), default=0):
        raise IllegalAction(f"{player} stays director of {corp}: sell ordinary certificates "
                            "(RB 3.3.3)")
    if any(s.president for s in shares) and any(
            s.owner == player and not s.president and s.id not in share_ids
            for s in gm.shares_of_corp(corp)):
        # 18xx.games bundles a player's certificates ordinary ones first (D21)
        raise IllegalAction(f"{player} sells the ordinary {corp} certificates before the "
                            "director's certificate")
    gm.transfer(BANK, player, price * pct // 10)
    pres = next(s for s in shares if s.president) if any(s.president for s in shares) else None
    for s in shares:
        if s is not pres:
            s.owner = POOL
    if pres is not None:
        _hand_over_presidency(gm, player, corp, pres.id)
        back = full - pct
        while back > 0:
            # 18xx ``handle_partial``: the seller takes the pool's longest-held certificate
            cert = gm.shares_in_arrival_order(POOL, corp)[0]
            cert.owner = player
            back -= cert.percent
    else:
        # 18xx share_pool.rb: a tie never takes the directorship from the sitting one
        gm.check_president(corp, sitting)
    n = len(gm.players)
    if n == 2:
        times = pct // 10 if was_president else 0
    else:
        times = pct // 10 if was_president else 1
    gm.move_price(corp, "left", times)


def _hand_over_presidency(gm: G1822CA, seller: str, corp: str, pres_id: str) -> None:
    """The director's certificate passes to the next player with the most shares; he
    hands ordinary certificates worth it to the pool (RB 4.4.7)."""
    pres = gm.shares[pres_id]
    order = [p.id for p in gm.players]
    start = order.index(seller)
    best: tuple[int, int] | None = None
    new: str | None = None
    for i in range(1, len(order)):
        pid = order[(start + i) % len(order)]
        pct = gm.percent_of(pid, corp)
        if pct >= pres.percent and (best is None or pct > best[0]):
            best, new = (pct, i), pid
    if new is None:
        raise IllegalAction("the director's certificate cannot go to the pool")
    need = pres.percent
    # 18xx ``change_president``: the new director's certificates held longest go
    for s in gm.shares_in_arrival_order(new, corp):
        if need <= 0:
            break
        s.owner = POOL
        need -= s.percent
    pres.owner = new


def par_major(gm: G1822CA, player: str, corp: str, price_id: str) -> None:
    """Convert a concession, or from phase 5 buy a director's certificate (RB 4.7; §5, §7.5)."""
    if not gm.is_major(corp) or gm.corps[corp].ipoed:
        raise IllegalAction(f"{corp} cannot be started")
    cell = gm.market.by_id(price_id)
    if cell.price not in (60, 70, 80, 90, 100):
        raise IllegalAction(f"${cell.price} is not a major start price")
    concession = gm.concession_of(corp)
    pres = gm.shares[f"{corp}_0"]
    mult = pres.percent // 10
    c = gm.corps[corp]
    if concession is not None:
        if not gm.has_status("can_convert_concessions"):
            raise IllegalAction("concessions convert in phases 2-4 only")
        if gm.companies[concession].owner != player:
            raise IllegalAction(f"{player} does not hold {concession}")
        exchange_price = cell.price * mult - 100
        gm.market.place(corp, cell.coord)
        c.par_price = cell.price
        c.ipoed = True
        if exchange_price > 0:
            gm.transfer(player, corp, exchange_price)
        pres.owner = player
        gm.transfer(BANK, corp, 100 if exchange_price >= 0 else cell.price)
        gm.close_company(concession)
    else:
        if not gm.has_status("can_par"):
            raise IllegalAction(f"{corp} needs its concession before phase 5")
        # RB 4.2.4; 18xx G1822 can_gain?: committed bids count, a conversion is exempt
        if gm.num_certs(player) + len(gm.boxes.player_bids(player, committed_only=True)) \
                >= gm.cert_limit:
            raise IllegalAction(f"{player} is at the certificate limit (RB 4.2.4)")
        gm.market.place(corp, cell.coord)
        c.par_price = cell.price
        c.ipoed = True
        gm.transfer(player, BANK if _bank_holds_capital(gm, corp) else corp, cell.price * mult)
        pres.owner = player
    float_check(gm, corp)


def _bank_holds_capital(gm: G1822CA, corp: str) -> bool:
    """18xx.games (``capitalization = :full`` from the full-capitalisation event): a
    major that floats fully capitalised is paid for its treasury certificates by the
    bank until it floats; the rulebook pays the treasury (RB 4.8.2). The money is the
    same once it floats (:func:`float_check`), only the bank's cash differs before,
    and with it when the bank breaks (D35)."""
    return gm.config.compat_18xxgames and corp in gm.full_capitalisation \
        and not gm.corps[corp].floated


def float_check(gm: G1822CA, corp: str) -> None:
    """Float when enough shares left the treasury (RB 4.8; ``float_corporation``)."""
    c = gm.corps[corp]
    if c.floated:
        return
    out = 100 - gm.percent_of(corp, corp)
    if out < gm.float_percent[corp]:
        return
    c.floated = True
    if corp in gm.full_capitalisation:
        gm.transfer(corp, BANK, gm.cash[corp])
        for s in gm.shares_of(corp, corp):
            s.owner = POOL
        gm.transfer(BANK, corp, c.par_price * 10)


def issue_shares(gm: G1822CA, corp: str, share_ids: tuple[str, ...],
                 share_price: int | None) -> None:
    """A major issues treasury shares to the pool at the dropped price (RB 5.16)."""
    shares = [gm.shares[s] for s in share_ids]
    if any(s.owner != corp for s in shares):
        raise IllegalAction(f"{corp} does not hold {', '.join(share_ids)}")
    k = len(shares)
    if share_price is None:
        share_price = gm.market.relative(corp, False, ["left"] * k).price
    for s in shares:
        s.owner = POOL
    gm.transfer(BANK, corp, share_price * k)
    gm.move_price(corp, "left", k)
    # every pool transfer checks the directorship (18xx SharePool#transfer_shares):
    # a majority left by shares paid for a minor (D20) changes hands here
    gm.check_president(corp, gm.president(corp))


def redeem_shares(gm: G1822CA, corp: str, share_ids: tuple[str, ...],
                  share_price: int | None) -> None:
    """A major buys shares back from the pool at the market price (RB 5.16)."""
    shares = [gm.shares[s] for s in share_ids]
    if any(s.owner != POOL for s in shares):
        raise IllegalAction("redeemed shares come from the pool")
    price = share_price if share_price is not None else gm.price(corp)
    gm.transfer(corp, BANK, price * len(shares))
    for s in shares:
        s.owner = corp
    gm.check_president(corp, gm.president(corp))  # as for an issue (D20)
