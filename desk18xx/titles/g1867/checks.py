"""1867 state invariants checked by playouts and tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

from desk18xx.engine.state import POOL, CorpKind
from desk18xx.titles.g1867 import board as B
from desk18xx.titles.g1867 import rules as R

if TYPE_CHECKING:
    from desk18xx.titles.g1867.game import G1867


def violations(game: G1867) -> list[str]:
    """1867-specific invariants: loans, tiles, holdings, pool, train limits."""
    out: list[str] = []
    loans = sum(c.loans for c in game.corps.values())
    if loans + game.loans_left + game.loans_cancelled != R.LOAN_COUNT:
        out.append(f"{loans} loans out, {game.loans_left} left and "
                   f"{game.loans_cancelled} cancelled, not {R.LOAN_COUNT}")
    for cid, corp in game.corps.items():
        if corp.loans > (5 if corp.kind is CorpKind.MAJOR else 2) and \
                corp.kind is not CorpKind.NATIONAL:
            out.append(f"{cid} has {corp.loans} loans")
    assert game.board is not None
    used: dict[str, int] = {}
    for tid in B.laid_tiles(game.board):
        name = tid.rpartition("-")[0]
        used[name] = used.get(name, 0) + 1
    for name, n in used.items():
        count = game.board.manifest[name].count
        if count is not None and n > count:
            out.append(f"{n} tiles {name} on the map, only {count} exist")
    holdings: dict[str, dict[str, int]] = {}
    for share in game.shares.values():
        per = holdings.setdefault(share.corp, {})
        per[share.owner] = per.get(share.owner, 0) + share.percent
    pending_discard = game.round is not None and any(
        type(s).__name__ == "DiscardTrains" and s.is_active(game) for s in game.round.steps)
    players = game.player_ids
    for cid in game.live_corps():
        corp = game.corps[cid]
        per = holdings.get(cid, {})
        if corp.kind is CorpKind.MAJOR:
            if per.get(POOL, 0) > R.MARKET_SHARE_LIMIT:
                out.append(f"the pool holds {per[POOL]}% of {cid}")
            for holder, pct in per.items():
                if holder in players and pct > corp.max_ownership:
                    out.append(f"{holder} holds {pct}% of {cid}")
        elif per.get(POOL, 0):
            out.append(f"a minor certificate of {cid} is in the pool")
        if not pending_discard and len(corp.trains) > game.train_limit(cid):
            out.append(f"{cid} has {len(corp.trains)} trains")
    for company in game.companies.values():
        owner = company.owner
        if owner in game.corps and company.id not in game.corps[owner].companies:
            out.append(f"{company.id} owner mismatch")
    return out
