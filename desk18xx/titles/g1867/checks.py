"""1867 state invariants checked by playouts and tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

from desk18xx.engine.state import POOL, CorpKind
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
    for tid in game.board.used_tiles:
        name = tid.rpartition("-")[0]
        used[name] = used.get(name, 0) + 1
    for name, n in used.items():
        count = game.board.manifest[name].count
        if count is not None and n > count:
            out.append(f"{n} tiles {name} on the map, only {count} exist")
    for cid in game.live_corps():
        if not game.is_major(cid):
            continue
        if game.percent_of(POOL, cid) > R.MARKET_SHARE_LIMIT:
            out.append(f"the pool holds {game.percent_of(POOL, cid)}% of {cid}")
    pending_discard = game.round is not None and any(
        type(s).__name__ == "DiscardTrains" and s.is_active(game) for s in game.round.steps)
    if not pending_discard:
        for cid in game.live_corps():
            if len(game.corps[cid].trains) > game.train_limit(cid):
                out.append(f"{cid} has {len(game.corps[cid].trains)} trains")
    for share in game.shares.values():
        corp = game.corps[share.corp]
        if corp.kind is CorpKind.MINOR and share.owner == POOL:
            out.append(f"a minor certificate ({share.id}) is in the pool")
    for p in game.players:
        for cid in game.live_corps():
            corp = game.corps[cid]
            if corp.kind is CorpKind.MAJOR and game.percent_of(p.id, cid) > corp.max_ownership:
                out.append(f"{p.id} holds {game.percent_of(p.id, cid)}% of {cid}")
    for company in game.companies.values():
        owner = company.owner
        if owner in game.corps and company.id not in game.corps[owner].companies:
            out.append(f"{company.id} owner mismatch")
    return out
