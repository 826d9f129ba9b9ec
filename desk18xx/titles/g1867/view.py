"""1867's part of the UI's read-only view (`desk18xx.engine.view`): the certificate
limit, loans, trains without a limit, the corporations open to start, and the tile
supply of its board."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from desk18xx.engine.tiledef import HexDef
from desk18xx.engine.view import GameView, StandingBid, TileSupply
from desk18xx.titles.g1867 import board as B
from desk18xx.titles.g1867.steps.auction import PrivateAuction
from desk18xx.titles.g1867.steps.stock import BuySellParShares

if TYPE_CHECKING:
    from desk18xx.titles.g1867.game import G1867


class View1867(GameView):
    """The view of a 1867 game."""

    def __init__(self, game: G1867) -> None:
        super().__init__(game)
        self._g = game

    def cert_limit(self) -> int | None:
        """The certificate limit by the number of players (card: "Certificate limit")."""
        return self._g.cert_limit

    def has_loans(self) -> bool:
        """Corporations take loans (card: "OR Loans")."""
        return True

    def loans_left(self) -> int | None:
        """Loans the bank can still give."""
        return self._g.loans_left

    def unlimited_trains(self) -> frozenset[str]:
        """The train names of unlimited count."""
        return frozenset(self._g.unlimited)

    def startable(self) -> tuple[str, ...]:
        """The minors and majors available to start now."""
        return tuple(self._g.available)

    def standing_bid(self) -> StandingBid | None:
        """The high bid on the private or minor auctioned now (the first of equal bids
        leads, card: "SR Minors")."""
        r = self._g.round
        step = None if r is None else r.active_step(self._g)
        if not isinstance(step, PrivateAuction | BuySellParShares) \
                or step.auctioning is None or not step.bids:
            return None
        top = max(step.bids.values())
        who = next((p for p in step.order if step.bids.get(p) == top),
                   next(p for p, v in step.bids.items() if v == top))
        return StandingBid(step.auctioning, who, top)

    def tile_supply(self) -> Mapping[str, TileSupply]:
        """Every manifest tile with the copies left."""
        board = self._g.board
        if board is None:
            return {}
        return {name: TileSupply(name, mt.tile, board.remaining(name))
                for name, mt in board.manifest.items()}

    def next_copy(self, name: str) -> str | None:
        """The lowest-numbered copy of ``name`` in the supply."""
        board = self._g.board
        return None if board is None else B.free_copy(board, name)

    def hex_def(self, hex_id: str) -> HexDef:
        """The printed hex."""
        board = self._g.board
        if board is None or hex_id not in board:
            raise KeyError(hex_id)
        return board.hex_def(hex_id)
