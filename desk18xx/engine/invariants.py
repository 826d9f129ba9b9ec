"""State invariants checked after every action by tests, replays and playouts."""

from __future__ import annotations

from desk18xx.engine.game import Game
from desk18xx.engine.state import DEPOT, POOL


def violations(game: Game, total_money: int) -> list[str]:
    """Every broken invariant, as a sentence (empty when all hold).

    Args:
        game: the game to inspect.
        total_money: the money in the game at the start (bank + everyone).
    """
    out: list[str] = []
    money = game.total_money()
    if money != total_money:
        out.append(f"money is {money}, expected {total_money}")
    for holder, cash in game.cash.items():
        if cash < 0 and holder != "bank":
            out.append(f"{holder} has negative cash {cash}")
    percents: dict[str, int] = {}
    for share in game.shares.values():
        percents[share.corp] = percents.get(share.corp, 0) + share.percent
        if share.owner not in game.corps and share.owner != POOL and not game.is_player(
                share.owner) and share.owner not in game.extra_share_holders():
            out.append(f"share {share.id} is held by unknown {share.owner}")
    for corp_id, pct in percents.items():
        if pct != 100:
            out.append(f"{corp_id} certificates add up to {pct}%")
    for cid, corp in game.corps.items():
        for tid in corp.trains:
            if game.trains[tid].owner != cid:
                out.append(f"train {tid} listed by {cid} but owned by {game.trains[tid].owner}")
    for tid in game.depot:
        if game.trains[tid].owner != DEPOT:
            out.append(f"depot train {tid} is owned by {game.trains[tid].owner}")
    seen: dict[str, str] = {}
    for cid, corp in game.corps.items():
        for comp in corp.companies:
            if comp in seen:
                out.append(f"private {comp} held twice")
            seen[comp] = cid
    out.extend(game.title_violations())
    return out
