"""Driving a 1867 game to a given point in tests."""

from __future__ import annotations

from desk18xx.engine.actions import Bid, Pass, PlaceToken
from desk18xx.engine.state import POOL
from desk18xx.titles.g1867.game import G1867


def finish_auction(game: G1867) -> None:
    """Each private goes to whoever opens it, at the minimum."""
    for company in ("C&SL", "NFB", "MB", "QB", "SCT"):
        player = game.legal_actions().entity
        assert player is not None
        game.process(Bid(entity=player, company=company,
                         price=game.companies[company].min_bid))
        while game.companies[company].owner is None:
            nxt = game.legal_actions().entity
            assert nxt is not None
            game.process(Pass(entity=nxt))


def start_minor(game: G1867, player: str, minor: str, price: int, city: str) -> None:
    """Open a minor auction, place its home, and let everyone else pass."""
    game.process(Bid(entity=player, corporation=minor, price=price))
    game.process(PlaceToken(entity=minor, entity_type="corporation", city=city, slot=0))
    while not game.corps[minor].floated:
        nxt = game.legal_actions().entity
        assert nxt is not None
        game.process(Pass(entity=nxt))


def give_major(game: G1867, major: str, holder: str, percent: int, price_cell: tuple[int, int],
               president: str | None = None) -> None:
    """Put a started major on the market with ``percent`` held by ``holder``."""
    corp = game.corps[major]
    corp.ipoed = corp.floated = True
    if major not in game.available:
        game.available.append(major)
    game.market.place(major, price_cell)
    pres = game.shares[f"{major}_0"]
    pres.owner = president or holder
    need = percent - (20 if pres.owner == holder else 0)
    for i in range(1, 9):
        if need <= 0:
            break
        game.shares[f"{major}_{i}"].owner = holder
        need -= 10


def pool_percent(game: G1867, corp: str) -> int:
    return game.percent_of(POOL, corp)


def replay_prefix(name: str, count: int) -> G1867:
    """A 1867 fixture replayed for its first ``count`` live actions."""
    from pathlib import Path

    from desk18xx.commands.replay import import_setup
    from desk18xx.engine.actions import action_from_dict
    from desk18xx.io.import_18xxgames import load_export

    root = Path(__file__).resolve().parents[3].parent / "shared" / "fixtures" / "18xx.games"
    imported = load_export(root / "1867" / name)
    game = G1867(import_setup(imported))
    for raw in imported.actions[:count]:
        game.process(action_from_dict(raw))
    return game
