"""1822CA's part of the UI's read-only view (`desk18xx.engine.view`): the certificate
limit, player debts, trains without a limit, a deal waiting for consent, the Pullman
and grain-train attachments, and the tile supply of its map."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.tiledef import HexDef
from desk18xx.engine.view import Consent, GameView, TileSupply
from desk18xx.titles.g1822ca.rounds import OperatingRound

if TYPE_CHECKING:
    from desk18xx.titles.g1822ca.game import G1822CA


class View1822CA(GameView):
    """The view of a 1822CA game (and its regional scenarios)."""

    def __init__(self, game: G1822CA) -> None:
        super().__init__(game)
        self._g = game

    def cert_limit(self) -> int | None:
        """The certificate limit now (RB 4.2.3)."""
        return self._g.cert_limit

    def debt(self, pid: str) -> int:
        """What ``pid`` owes the bank after emergency money raising."""
        return self._g.debt.get(pid, 0)

    def unlimited_trains(self) -> frozenset[str]:
        """The train names of unlimited count (RB §9 in the scenarios)."""
        return frozenset(self._g.unlimited)

    def acquires_minors(self) -> bool:
        """A major acquires a minor (RB 5.16), it does not merge with it."""
        return True

    def pending_consent(self) -> Consent | None:
        """The deal waiting for a player's consent (rulebook mode), or None."""
        r = self._g.round
        pending = r.consent if isinstance(r, OperatingRound) else None
        return None if pending is None else Consent(pending[0], pending[1])

    def attach_labels(self, corp: str) -> Mapping[str, str]:
        """The Pullman or grain-train choices open to ``corp`` now."""
        return self._g.attach_labels(corp)

    def route_trains(self, corp: str) -> tuple[str, ...]:
        """The trains that run (not the Pullman or the grain train, RB 5.11.12, 5.11.20)."""
        return tuple(t.id for t in self._g.route_trains(corp))

    def tile_supply(self) -> Mapping[str, TileSupply]:
        """Every manifest tile with the copies left."""
        board = self._g.map
        return {name: TileSupply(name, mt.tile, board.remaining(name))
                for name, mt in board.manifest.items()}

    def next_copy(self, name: str) -> str | None:
        """The lowest-numbered copy of ``name`` in the supply."""
        try:
            return str(self._g.map.next_copy(name))
        except IllegalAction:
            return None

    def hex_def(self, hex_id: str) -> HexDef:
        """The printed hex."""
        return self._g.map.hex_def(hex_id)
