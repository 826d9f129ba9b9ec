"""Where a company may lay track, and with which tiles and rotations: read from
the engine's tile-lay offers (`desk18xx.engine.offers.TileLayOffer`).

No rule is decided here: the hexes outlined, the tiles usable on a hex with
their rotations and costs, and every reason a tile is greyed come from the
offers of the title: the hexes outlined and the tiles usable somewhere from the
offers' early-exit question (`Game.lay_choices`: `Game.lay_hexes` and
`Game.lay_tiles` at once; no hex's full offer is built for them), the full
offer of one hex only when it is selected (the door's own question
`Game.deciding_offers`); study mode's sandbox: `desk18xx.engine.sandbox.lay_offers`.
What this module adds is display data: the tile pictures and how many copies
are left, read from the game's view (`desk18xx.engine.view.GameView.tile_supply`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from desk18xx.engine.actions import LayTile
from desk18xx.engine.game import Game
from desk18xx.engine.offers import TileLayOffer, lay_hexes_of, lay_tiles_of
from desk18xx.engine.tiledef import Color, HexDef, TileDef
from desk18xx.engine.view import TileSupply

UNLIMITED = 99

_PLAYABLE = (Color.YELLOW, Color.GREEN, Color.BROWN, Color.GRAY)


@dataclass(frozen=True, slots=True)
class TileChoice:
    """A tile of the supply for the hex being built on."""

    name: str
    tile: TileDef
    rotations: tuple[int, ...]
    """Legal rotations (empty: not usable here)."""
    left: int
    """Copies left in the supply."""
    reason: str = ""
    """Why it cannot be laid here (when ``rotations`` is empty), from the offer."""


def lay_offers_of(game: Game, corp: str) -> tuple[TileLayOffer, ...]:
    """The engine's tile-lay offers of ``corp`` now (every hex it may build on)."""
    return tuple(o for o in game.offers(corp, (LayTile.type,)) if isinstance(o, TileLayOffer))


def hex_offer_of(game: Game, corp: str, hex_id: str) -> TileLayOffer | None:
    """The engine's offer of a lay by ``corp`` on ``hex_id`` (None: no lay is open
    to it now), as the door would build it for a lay there."""
    entity_type = "corporation" if game.view().corporation(corp) is not None else "company"
    found = game.deciding_offers(LayTile(entity=corp, entity_type=entity_type, hex=hex_id))
    if not found:
        return None
    return next((o for o in found if isinstance(o, TileLayOffer) and o.hex == hex_id), None)


class TrackOptions:
    """Buildable hexes and tiles for ``corp`` on the board of ``game``, from the offers.

    Args:
        source: where the offers come from: (all offers, one hex's offer); the
            game's own offers by default (then the hexes and the tiles usable
            somewhere come from the game's early-exit question, `Game.lay_choices`
            (`Game.lay_hexes` and `Game.lay_tiles` at once), and no hex's full
            offer is built until it is asked for by :meth:`offer`).
        known: the :meth:`choices` of this very position asked before (the same
            game, the same actions: a position shown again after an undo).
    """

    def __init__(self, game: Game, corp: str,
                 *,
                 source: tuple[Callable[[], tuple[TileLayOffer, ...]],
                               Callable[[str], TileLayOffer | None]] | None = None,
                 known: tuple[frozenset[str], frozenset[str]] | None = None) -> None:
        self._game = game
        self._corp = corp
        self._choices: Callable[[], tuple[frozenset[str], frozenset[str]]]
        if source is None:
            source = (lambda: lay_offers_of(game, corp),
                      lambda hex_id: hex_offer_of(game, corp, hex_id))
            self._choices = lambda: game.lay_choices(corp)
        else:
            self._choices = lambda: (lay_hexes_of(self._offers().values()),
                                     lay_tiles_of(self._offers().values()))
        self._all_source, self._one_source = source
        self._all: dict[str, TileLayOffer] | None = None
        self._one: dict[str, TileLayOffer | None] = {}
        self._hexes: frozenset[str] | None = None if known is None else known[0]
        self._usable: frozenset[str] | None = None if known is None else known[1]
        self._tiles: Mapping[str, TileSupply] | None = None

    # -- the offers ----------------------------------------------------------------------
    def _offers(self) -> dict[str, TileLayOffer]:
        if self._all is None:
            self._all = {o.hex: o for o in self._all_source()}
        return self._all

    def offer(self, hex_id: str) -> TileLayOffer | None:
        """The offer of a lay on ``hex_id`` (with the reasons tiles do not fit): that
        hex's alone, built when first asked for (every hex's when they are built)."""
        found = self._all.get(hex_id) if self._all is not None else None
        if found is not None:
            return found
        if hex_id not in self._one:
            self._one[hex_id] = self._one_source(hex_id)
        return self._one[hex_id]

    def _hex_set(self) -> frozenset[str]:
        if self._hexes is None:
            self._hexes, self._usable = self._choices()
        return self._hexes

    def choices(self) -> tuple[frozenset[str], frozenset[str]]:
        """(the hexes where some tile may be laid, the tiles usable on some hex)."""
        return self._hex_set(), self.usable()

    def hexes(self) -> list[str]:
        """Hexes where at least one tile may be laid now."""
        return sorted(self._hex_set())

    def any_legal(self, hex_id: str) -> bool:
        """True when some tile may be laid on ``hex_id``."""
        return hex_id in self._hex_set()

    def usable(self) -> frozenset[str]:
        """The tiles that may be laid on some hex now."""
        if self._usable is None:
            self._hexes, self._usable = self._choices()
        return self._usable

    def legal(self, hex_id: str) -> dict[str, tuple[int, ...]]:
        """Tile name -> legal rotations on ``hex_id``."""
        if not self.any_legal(hex_id):
            return {}
        found = self.offer(hex_id)
        if found is None or not found.allowed:
            return {}
        return dict(found.tiles)

    def why_not(self, hex_id: str, name: str | None = None) -> str:
        """Why no tile (or tile ``name``) may be laid on ``hex_id``, in the engine's words."""
        found = self.offer(hex_id)
        if found is None:
            return f"{self._corp} cannot lay a tile on {hex_id} now"
        if name is None:
            if found.why_not is not None:
                return found.why_not
            if found.tiles:
                return ""
            reasons = sorted({why for _n, why in found.refused})
            if len(reasons) == 1:
                return reasons[0]
            return f"no tile fits {found.where} now"
        return found.refusal(name) or ""

    def cost(self, hex_id: str, name: str, rotation: int) -> int:
        """What laying ``name`` at ``rotation`` costs (the offer's cost)."""
        found = self.offer(hex_id)
        return 0 if found is None else found.cost_of(name, rotation)

    def copy_id(self, name: str, hex_id: str | None = None) -> str | None:
        """The supply copy id to lay for tile ``name`` (the offer's of ``hex_id``,
        else the supply's next copy)."""
        offer = self.offer(hex_id) if hex_id else None
        copy = dict(offer.copies).get(name) if offer is not None else None
        return copy if copy is not None else self._supply_copy(name)

    # -- display data ----------------------------------------------------------------------
    def _supply(self) -> Mapping[str, TileSupply]:
        if self._tiles is None:
            self._tiles = self._game.view().tile_supply()
        return self._tiles

    def _supply_copy(self, name: str) -> str | None:
        return self._game.view().next_copy(name)

    def left(self, name: str) -> int:
        """Copies of ``name`` in the supply."""
        entry = self._supply().get(name)
        if entry is None or entry.left is None:
            return UNLIMITED
        return min(entry.left, UNLIMITED)

    def tile(self, name: str) -> TileDef:
        """The definition of tile ``name``."""
        entry = self._supply().get(name)
        return entry.tile if entry is not None else self._game.view().tile_def(name)

    def hex_def(self, hex_id: str) -> HexDef:
        """The printed hex."""
        return self._game.view().hex_def(hex_id)

    def tray(self, hex_id: str | None) -> list[TileChoice]:
        """Every tile of the phase colours, usable on ``hex_id`` or greyed with the
        offer's reason; with no hex, the tiles some outlined hex takes."""
        colors = {c for c in _PLAYABLE if c.value in self._game.phase.tiles}
        if hex_id is None:
            legal: dict[str, tuple[int, ...]] = {n: (0,) for n in self.usable()}
            offer = None
        else:
            legal = self.legal(hex_id)
            offer = self.offer(hex_id)
        out: list[TileChoice] = []
        for name in self._supply():
            tile = self.tile(name)
            if tile.color not in colors:
                continue
            left = self.left(name)
            rots = legal.get(name, ())
            if rots:
                reason = ""
            elif left <= 0:
                reason = "none left"
            elif hex_id is None:
                reason = "no outlined hex takes it now"
            else:
                why = offer.refusal(name) if offer is not None else None
                reason = why or f"does not fit {hex_id}"
            out.append(TileChoice(name, tile, rots, left, reason))
        out.sort(key=lambda c: (not c.rotations, c.tile.color.value, _num(c.name)))
        return out


def _num(name: str) -> tuple[int, str]:
    digits = "".join(ch for ch in name if ch.isdigit())
    return (int(digits) if digits else 0, name)
