"""The mutable board of one game: tiles, tokens, reservations, borders, markers.

Every hex holds a frozen :class:`HexState`; a change replaces the state of one
hex, so :meth:`Board.copy` is two dict copies (snapshots for undo are cheap).
``Board.version`` grows on every change; caches such as the track graph key on
it.  Rules checks live in :mod:`upgrades`; this module only keeps the books
(which copy of each tile is where, which token sits in which slot) and refuses
what is physically impossible.

Ids follow 18xx.games (export format §6.3-6.4): a tile id is ``"57-0"``; a
printed tile is named after its hex with the index of the hex among the hexes
printed with the same content (``"N12-6"``); a city id is
``"<tile id>-<node index>"`` and a node signature ``"<hex id>-<node index>"``.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.ids import HexId, TileId
from desk18xx.engine.map import hexgrid
from desk18xx.engine.map.tiles import Geometry, geometry, map_cities
from desk18xx.engine.tiledef import BorderDef, FutureLabel, HexDef, ManifestTile, TileDef


@dataclass(frozen=True, slots=True)
class Token:
    """A station token (or a neutral/blocker marker that sits in a slot)."""

    corp: str
    kind: str = "normal"
    """``"normal"``, ``"neutral"`` (never blocks, 1867 placeholders) or ``"destination"``."""


Slots = tuple[Token | None, ...]


@dataclass(frozen=True, slots=True)
class HexState:
    """What lies on one hex now."""

    hex_id: HexId
    geo: Geometry
    """The tile at its rotation (``geo.tile``, ``geo.rotation``)."""
    tile_id: TileId
    printed: bool
    """The tile is the printed hex (discarded, not pooled, when replaced)."""
    tokens: tuple[Slots, ...] = ()
    """Per city (city order), per slot."""
    extra_tokens: tuple[tuple[Token, ...], ...] = ()
    """Per city: tokens beside the slots (1822CA destination tokens in a full city)."""
    reserved: tuple[tuple[str | None, ...], ...] = ()
    """Per city, per slot: the entity whose home reservation holds the slot."""
    hex_reservations: tuple[str, ...] = ()
    """Reservations of the whole hex (no city given)."""
    borders: tuple[BorderDef, ...] = ()
    """Current borders (river borders vanish once paid)."""
    future_label: FutureLabel | None = None
    markers: frozenset[str] = field(default_factory=frozenset)
    blockers: tuple[str, ...] = ()
    """Companies whose ability blocks tile lays here."""

    @property
    def tile(self) -> TileDef:
        """The tile definition at rotation 0."""
        return self.geo.tile

    @property
    def rotation(self) -> int:
        """The tile's rotation."""
        return self.geo.rotation

    def city_node(self, city: int) -> int:
        """Node index of city number ``city``."""
        return self.geo.city_nodes[city]

    def city_tokens(self, city: int) -> tuple[Token, ...]:
        """Tokens of a city, slots first, then the extra tokens."""
        return tuple(t for t in self.tokens[city] if t is not None) + self.extra_tokens[city]

    def tokened_by(self, corp: str) -> bool:
        """True when ``corp`` has a station token in any city of the hex (a neutral
        placeholder is nobody's station)."""
        return any(t.corp == corp and t.kind != "neutral"
                   for c in range(len(self.tokens)) for t in self.city_tokens(c))

    def city_blocks(self, city: int, corp: str | None) -> bool:
        """A full city of other companies' tokens stops ``corp``'s routes (RB 5.4.3)."""
        if corp is None:
            return False
        slots = self.tokens[city]
        if any(t is None for t in slots):
            return False
        if any(t is not None and (t.corp == corp or t.kind == "neutral") for t in slots):
            return False
        return not any(t.corp == corp for t in self.extra_tokens[city])

    def free_slots(self, city: int) -> int:
        """Slots with no token and no reservation."""
        res = self.reserved[city]
        return sum(1 for i, t in enumerate(self.tokens[city]) if t is None and res[i] is None)


_SERIAL = itertools.count()


def _empty_slots(tile: TileDef) -> tuple[Slots, ...]:
    return tuple((None,) * max(c.slots, 1) for c in tile.cities)


def _strip_name(tile: TileDef) -> TileDef:
    return dataclasses.replace(tile, name="")


def printed_tile_ids(hexes: Mapping[str, HexDef]) -> dict[str, TileId]:
    """The 18xx.games ids of the printed tiles (export format §6.3).

    A hex's own ``tile_id`` wins.  Otherwise the index is the hex's position
    among the hexes, in map order, printed with the same colour and content.
    That equals 18xx.games' index when each content appears in one list of
    the title's HEXES; 1822CA's full map joins the western and eastern lists,
    so its data must give ``tile_id`` for the eastern hexes.
    """
    seen: dict[TileDef, int] = {}
    out: dict[str, TileId] = {}
    for hex_id, hd in hexes.items():
        if hd.tile_id is not None:
            out[hex_id] = TileId(hd.tile_id)
            continue
        key = _strip_name(hd.tile)
        index = seen.get(key, 0)
        seen[key] = index + 1
        out[hex_id] = TileId(f"{hex_id}-{index}")
    return out


def tile_name(tile_id: str) -> str:
    """The manifest name of a tile id: ``"57-0"`` -> ``"57"``, ``"DD-Q19-0"`` -> ``"DD-Q19"``."""
    name, sep, index = tile_id.rpartition("-")
    if not sep or not index.isdigit():
        raise IllegalAction(f"Not a tile id: {tile_id}")
    return name


def tile_index(tile_id: str) -> int:
    """The copy index of a tile id."""
    tile_name(tile_id)
    return int(tile_id.rpartition("-")[2])


class Board:
    """The hexes of a game and the tile supply.

    Args:
        hexes: the printed map (``TitleData.hexes``).
        tiles: the manifest (``TitleData.tiles``).
        printed_ids: ids of the printed tiles; computed with
            :func:`printed_tile_ids` when not given.
    """

    def __init__(
        self,
        hexes: Mapping[str, HexDef],
        tiles: Mapping[str, ManifestTile],
        printed_ids: Mapping[str, str] | None = None,
    ) -> None:
        given = printed_tile_ids(hexes) if printed_ids is None else printed_ids
        ids: dict[str, str] = {str(k): str(v) for k, v in given.items()}
        self._tiles: Mapping[str, ManifestTile] = tiles
        self._defs: Mapping[str, HexDef] = hexes
        self._hexes: dict[HexId, HexState] = {}
        self._on_board: dict[TileId, HexId] = {}
        self._tile_hex: dict[TileId, HexId] = {}
        self.version = 0
        #: Identity of this board object (copies get a new one); caches key on (serial, version).
        self.serial = next(_SERIAL)
        self._changes: list[HexId] = []
        """The hex each version step changed (``version == len(_changes)``)."""
        coords = {HexId(h): hexgrid.parse_hex(h) for h in hexes}
        by_coord = {c: h for h, c in coords.items()}
        self._neighbours: dict[HexId, tuple[HexId | None, ...]] = {
            h: tuple(by_coord.get(hexgrid.neighbour(c, e)) for e in range(6))
            for h, c in coords.items()
        }
        for hex_id, hd in hexes.items():
            hid = HexId(hex_id)
            tile = hd.tile
            tid = TileId(ids.get(hex_id, f"{hex_id}-0"))
            tokens = [list(s) for s in _empty_slots(tile)]
            reserved: list[list[str | None]] = [[None] * len(s) for s in tokens]
            hex_res: list[str] = []
            for r in hd.reservations:
                city = r.city if r.city is not None else (0 if len(tokens) == 1 else None)
                if city is None:
                    hex_res.append(r.entity)
                    continue
                slot = r.slot
                if slot is None:
                    slot = next((i for i, x in enumerate(reserved[city]) if x is None), None)
                if slot is None:
                    hex_res.append(r.entity)
                else:
                    reserved[city][slot] = r.entity
            for st in hd.tokens:
                tokens[st.city][st.slot] = Token(st.corporation, st.type)
            self._hexes[hid] = HexState(
                hex_id=hid,
                geo=geometry(tile, 0),
                tile_id=tid,
                printed=True,
                tokens=tuple(tuple(s) for s in tokens),
                extra_tokens=tuple(() for _ in tokens),
                reserved=tuple(tuple(r) for r in reserved),
                hex_reservations=tuple(hex_res),
                borders=tile.borders,
                future_label=tile.future_label,
                markers=hd.markers,
                blockers=hd.blockers,
            )
            self._tile_hex[tid] = hid

    # --- copying and reading

    def copy(self) -> Board:
        """An independent board sharing the immutable parts."""
        other = Board.__new__(Board)
        other._tiles = self._tiles
        other._defs = self._defs
        other._hexes = dict(self._hexes)
        other._on_board = dict(self._on_board)
        other._tile_hex = dict(self._tile_hex)
        other._neighbours = self._neighbours
        other.version = self.version
        other.serial = next(_SERIAL)
        other._changes = list(self._changes)
        return other

    def __deepcopy__(self, memo: dict[int, object]) -> Board:
        """Deep copies (game snapshots) share the immutable parts (:meth:`copy`)."""
        return self.copy()

    def __contains__(self, hex_id: object) -> bool:
        return hex_id in self._hexes

    def __iter__(self) -> Iterator[HexState]:
        return iter(self._hexes.values())

    def hex(self, hex_id: str) -> HexState:
        """The state of a hex.

        Raises:
            IllegalAction: no such hex on this map.
        """
        try:
            return self._hexes[HexId(hex_id)]
        except KeyError:
            raise IllegalAction(f"There is no hex {hex_id} on this map") from None

    def hex_def(self, hex_id: str) -> HexDef:
        """The printed hex."""
        return self._defs[hex_id]

    def hex_ids(self) -> list[HexId]:
        """All hex ids in map order."""
        return list(self._hexes)

    def state_map(self) -> dict[HexId, HexState]:
        """A copy of every hex's state by hex id, in map order."""
        return dict(self._hexes)

    def changed_since(self, version: int) -> set[HexId]:
        """Hexes whose state was replaced after ``version`` of this board (or of
        the board it was copied from); the state may since have been put back."""
        return set(self._changes[version:])

    def neighbour(self, hex_id: str, edge: int) -> HexId | None:
        """The hex across ``edge`` if it is on the map."""
        return self._neighbours[HexId(hex_id)][edge]

    def neighbours(self, hex_id: str) -> tuple[HexId | None, ...]:
        """The six neighbours (None off the map), by edge."""
        return self._neighbours[HexId(hex_id)]

    @property
    def neighbour_table(self) -> Mapping[HexId, tuple[HexId | None, ...]]:
        """Neighbours of every hex; one object per map, shared by :meth:`copy`
        (caches use it to tell boards of one map apart from others)."""
        return self._neighbours

    @property
    def manifest(self) -> Mapping[str, ManifestTile]:
        """The title's tile manifest."""
        return self._tiles

    # --- the tile supply

    def tile_def(self, name_or_id: str) -> TileDef:
        """The definition of a manifest tile, by name (``"57"``) or id (``"57-0"``).

        Raises:
            IllegalAction: no such tile in this title.
        """
        mt = self._tiles.get(name_or_id)
        if mt is None:
            mt = self._tiles.get(tile_name(name_or_id))
        if mt is None:
            raise IllegalAction(f"There is no tile {name_or_id} in this game")
        return mt.tile

    def remaining(self, name: str) -> int | None:
        """Copies of a tile still in the supply (None = unlimited)."""
        mt = self._tiles[name]
        if mt.count is None:
            return None
        return mt.count - self._used_counts().get(name, 0)

    def _used_counts(self) -> dict[str, int]:
        """Copies of each tile name on the board (kept per :attr:`version`)."""
        hit: tuple[int, dict[str, int]] | None = getattr(self, "_used_cache", None)
        if hit is not None and hit[0] == self.version:
            return hit[1]
        used: dict[str, int] = {}
        for tid in self._on_board:
            name = tile_name(tid)
            used[name] = used.get(name, 0) + 1
        self._used_cache = (self.version, used)
        return used

    def is_available(self, tile_id: str) -> bool:
        """The copy ``tile_id`` exists and is in the supply."""
        try:
            name, index = tile_name(tile_id), tile_index(tile_id)
        except IllegalAction:
            return False
        mt = self._tiles.get(name)
        if mt is None or TileId(tile_id) in self._on_board:
            return False
        return mt.count is None or index < mt.count

    def available_names(self) -> list[str]:
        """Names of the tiles with at least one copy in the supply (manifest order)."""
        used = self._used_counts()
        out = []
        for name, mt in self._tiles.items():
            if mt.hidden:
                continue
            if mt.count is None or mt.count - used.get(name, 0) > 0:
                out.append(name)
        return out

    def next_copy(self, name: str) -> TileId:
        """The lowest-numbered copy of ``name`` in the supply.

        Raises:
            IllegalAction: none is left.
        """
        mt = self._tiles.get(name)
        if mt is None:
            raise IllegalAction(f"There is no tile {name} in this game")
        i = 0
        while TileId(f"{name}-{i}") in self._on_board:
            i += 1
        if mt.count is not None and i >= mt.count:
            raise IllegalAction(f"No tile {name} is left")
        return TileId(f"{name}-{i}")

    # --- changes

    def _set(self, state: HexState) -> None:
        self._hexes[state.hex_id] = state
        self._changes.append(state.hex_id)
        self.version += 1

    def lay_tile(self, hex_id: str, tile_id: str, rotation: int) -> HexState:
        """Put a supply tile on a hex, moving tokens and reservations (18xx.games ``Hex#lay``).

        No rules are checked here (see :mod:`upgrades`); the replaced tile
        returns to the supply unless it was printed.  Returns the old state.

        Raises:
            IllegalAction: the copy is not in the supply.
        """
        old = self.hex(hex_id)
        if not self.is_available(tile_id):
            raise IllegalAction(f"Tile {tile_id} is not available")
        tile = self.tile_def(tile_id)
        geo = geometry(tile, rotation)
        city_map = map_cities(old.geo, geo)
        n_new = len(geo.city_nodes)
        tokens: list[list[Token | None]] = [[None] * max(c.slots, 1) for c in tile.cities]
        reserved: list[list[str | None]] = [[None] * len(s) for s in tokens]
        extra: list[list[Token]] = [[] for _ in range(n_new)]
        for oc, nc in enumerate(city_map):
            if nc is None:
                continue
            for slot, who in enumerate(old.reserved[oc]):
                if who is not None:
                    _reserve(reserved[nc], tokens[nc], slot, who)
        moved: list[list[Token]] = [[] for _ in range(n_new)]
        for oc, nc in enumerate(city_map):
            kept = [t for t in old.tokens[oc] if t is not None]
            if nc is None:
                if kept:
                    raise IllegalAction(f"Tile {tile_id} has no city for the tokens on {hex_id}")
                continue
            if len(city_map) == 1:
                for slot, t in enumerate(old.tokens[oc]):
                    if t is not None:
                        _settle(tokens[nc], reserved[nc], slot, t)
            else:
                moved[nc].extend(kept)
            extra[nc].extend(old.extra_tokens[oc])
        for nc, toks in enumerate(moved):
            for t in toks:
                _settle(tokens[nc], reserved[nc], None, t)
        future = old.future_label
        if future is not None and future.color == tile.color:
            future = None
        if tile.future_label is not None:
            future = tile.future_label
        new = dataclasses.replace(
            old,
            geo=geo,
            tile_id=TileId(tile_id),
            printed=False,
            tokens=tuple(tuple(s) for s in tokens),
            extra_tokens=tuple(tuple(e) for e in extra),
            reserved=tuple(tuple(r) for r in reserved),
            borders=tile.borders + old.borders,
            future_label=future,
        )
        if not old.printed:
            self._on_board.pop(old.tile_id, None)
        del self._tile_hex[old.tile_id]
        self._on_board[TileId(tile_id)] = HexId(hex_id)
        self._tile_hex[TileId(tile_id)] = HexId(hex_id)
        self._set(new)
        return old

    def remove_border(self, hex_id: str, edge: int) -> None:
        """Drop the border of ``hex_id`` on ``edge`` (a paid river crossing)."""
        st = self.hex(hex_id)
        self._set(dataclasses.replace(st, borders=tuple(b for b in st.borders if b.edge != edge)))

    def set_markers(self, hex_id: str, markers: Iterable[str]) -> None:
        """Replace the markers of a hex (sawmill, destination icons, …)."""
        st = self.hex(hex_id)
        self._set(dataclasses.replace(st, markers=frozenset(markers)))

    def set_blockers(self, hex_id: str, blockers: Iterable[str]) -> None:
        """Replace the companies blocking tile lays on a hex."""
        st = self.hex(hex_id)
        self._set(dataclasses.replace(st, blockers=tuple(blockers)))

    def place_token(
        self,
        hex_id: str,
        city: int,
        corp: str,
        *,
        slot: int | None = None,
        kind: str = "normal",
        extra: bool = False,
        cheater: bool = False,
    ) -> int:
        """Put ``corp``'s token in a city; returns the slot used (-1 for an extra token).

        The slot is the corp's reserved slot if it has one, else ``slot`` if
        free, else the first free unreserved slot (18xx.games ``get_slot``).
        ``cheater`` adds a slot when none is free; ``extra`` puts the token
        beside the city.  Placing also clears the corp's reservations here.

        Raises:
            IllegalAction: no such city, or no free slot.
        """
        st = self.hex(hex_id)
        if not 0 <= city < len(st.tokens):
            raise IllegalAction(f"{hex_id} has no city {city}")
        token = Token(corp, kind)
        slots = list(st.tokens[city])
        res = list(st.reserved[city])
        extras = list(st.extra_tokens)
        used = -1
        if extra:
            extras[city] = extras[city] + (token,)
        else:
            mine = [i for i, r in enumerate(res) if r == corp and slots[i] is None]
            if mine:
                used = mine[0]
            elif slot is not None and 0 <= slot < len(slots) and slots[slot] is None and (
                res[slot] is None
            ):
                used = slot
            else:
                free = [i for i, t in enumerate(slots) if t is None and res[i] is None]
                if free:
                    used = free[0]
                elif cheater:
                    slots.append(None)
                    res.append(None)
                    used = len(slots) - 1
                else:
                    raise IllegalAction(f"No free token slot in {hex_id}")
            slots[used] = token
        all_res = [tuple(None if r == corp else r for r in rr) for rr in st.reserved]
        all_res[city] = tuple(None if r == corp else r for r in res)
        tokens = list(st.tokens)
        tokens[city] = tuple(slots)
        self._set(
            dataclasses.replace(
                st,
                tokens=tuple(tokens),
                extra_tokens=tuple(extras),
                reserved=tuple(all_res),
                hex_reservations=tuple(r for r in st.hex_reservations if r != corp),
            )
        )
        return used

    def remove_token(self, hex_id: str, city: int, slot: int) -> Token:
        """Take the token out of a slot and return it (``slot = -1``: the last extra token).

        Raises:
            IllegalAction: the slot is empty.
        """
        st = self.hex(hex_id)
        if slot < 0:
            if not st.extra_tokens[city]:
                raise IllegalAction(f"No extra token in {hex_id}")
            extras = list(st.extra_tokens)
            token = extras[city][-1]
            extras[city] = extras[city][:-1]
            self._set(dataclasses.replace(st, extra_tokens=tuple(extras)))
            return token
        found = st.tokens[city][slot]
        if found is None:
            raise IllegalAction(f"No token in {hex_id} city {city} slot {slot}")
        tokens = list(st.tokens)
        row = list(tokens[city])
        row[slot] = None
        tokens[city] = tuple(row)
        self._set(dataclasses.replace(st, tokens=tuple(tokens)))
        return found

    def compact_city(self, hex_id: str, city: int) -> None:
        """Move tokens of added (cheater) slots into free slots and drop the empty added
        slots (18xx.games ``remove_cheater_slot!`` after a token leaves a city)."""
        st = self.hex(hex_id)
        normal = max(st.tile.cities[city].slots, 1)
        slots = list(st.tokens[city])
        res = list(st.reserved[city])
        while len(slots) > normal:
            free = [i for i in range(normal) if slots[i] is None and res[i] is None]
            if slots[-1] is not None and not free:
                break
            last = slots.pop()
            res.pop()
            if last is not None:
                slots[free[0]] = last
        if len(slots) == len(st.tokens[city]):
            return
        tokens, reserved = list(st.tokens), list(st.reserved)
        tokens[city], reserved[city] = tuple(slots), tuple(res)
        self._set(dataclasses.replace(st, tokens=tuple(tokens), reserved=tuple(reserved)))

    def remove_corp_tokens(self, corp: str) -> list[tuple[HexId, int, int]]:
        """Remove every token of ``corp``; returns (hex, city, slot) of each (slot -1 extra)."""
        out: list[tuple[HexId, int, int]] = []
        for st in list(self._hexes.values()):
            for c, slots in enumerate(st.tokens):
                for s, t in enumerate(slots):
                    if t is not None and t.corp == corp:
                        self.remove_token(st.hex_id, c, s)
                        out.append((st.hex_id, c, s))
                while any(t.corp == corp for t in self.hex(st.hex_id).extra_tokens[c]):
                    cur = self.hex(st.hex_id)
                    extras = list(cur.extra_tokens)
                    extras[c] = tuple(t for t in extras[c] if t.corp != corp)
                    self._set(dataclasses.replace(cur, extra_tokens=tuple(extras)))
                    out.append((st.hex_id, c, -1))
        return out

    def tokens_of(self, corp: str) -> list[tuple[HexId, int]]:
        """(hex, city) of every token of ``corp``, in map order."""
        out = []
        for st in self._hexes.values():
            for c in range(len(st.tokens)):
                if any(t.corp == corp and t.kind != "neutral" for t in st.city_tokens(c)):
                    out.append((st.hex_id, c))
        return out

    def summary(self) -> str:
        """A compact text of everything that changed since setup, for snapshots in tests.

        One line per hex with a laid tile, a token or a paid border, in map
        order: ``L12 X1-0@1 [CPR,-|GT|CN~]``: tile id and rotation, then the
        slots of each city (``-`` empty, ``~`` neutral, ``+`` before extras).
        """
        lines = []
        for st in self._hexes.values():
            printed = self._defs[st.hex_id].tile
            has_tokens = any(t is not None for c in st.tokens for t in c) or any(st.extra_tokens)
            if st.printed and not has_tokens and st.borders == printed.borders:
                continue
            cities = []
            for c, slots in enumerate(st.tokens):
                names = [
                    "-" if t is None else t.corp + ("~" if t.kind == "neutral" else "")
                    for t in slots
                ]
                names += ["+" + t.corp for t in st.extra_tokens[c]]
                cities.append(",".join(names))
            text = f"{st.hex_id} {st.tile_id}@{st.rotation}"
            if cities:
                text += " [" + "|".join(cities) + "]"
            paid = sorted({b.edge for b in printed.borders} - {b.edge for b in st.borders})
            if paid:
                text += " paid:" + ",".join(map(str, paid))
            lines.append(text)
        return "\n".join(lines)

    # --- ids

    def city_id(self, hex_id: str, city: int) -> str:
        """18xx.games city id, e.g. ``"57-0-0"`` or ``"L12-0-2"``."""
        st = self.hex(hex_id)
        return f"{st.tile_id}-{st.city_node(city)}"

    def parse_city_id(self, city_id: str) -> tuple[HexId, int]:
        """(hex, city number) of an 18xx.games city id.

        Raises:
            IllegalAction: the tile is not on the board or has no such city.
        """
        tile_id, sep, part = city_id.rpartition("-")
        hex_id = self._tile_hex.get(TileId(tile_id))
        if not sep or not part.isdigit() or hex_id is None:
            raise IllegalAction(f"No city {city_id} on the board")
        st = self._hexes[hex_id]
        node = int(part)
        if node not in st.geo.city_nodes:
            raise IllegalAction(f"No city {city_id} on the board")
        return hex_id, st.geo.city_nodes.index(node)

    def hex_of_tile(self, tile_id: str) -> HexId | None:
        """Where a tile copy (laid or printed) lies, if on the board."""
        return self._tile_hex.get(TileId(tile_id))


def node_signature(hex_id: str, node: int) -> str:
    """18xx.games node signature, e.g. ``"L12-0"``."""
    return f"{hex_id}-{node}"


def parse_node_signature(sig: str) -> tuple[HexId, int]:
    """(hex, node index) of a node signature.

    Raises:
        IllegalAction: malformed.
    """
    hex_id, sep, node = sig.rpartition("-")
    if not sep or not node.isdigit():
        raise IllegalAction(f"Not a node signature: {sig}")
    return HexId(hex_id), int(node)


def _reserve(reserved: list[str | None], tokens: list[Token | None], slot: int, who: str) -> None:
    """Keep a reservation at ``slot`` if possible, else in the first free place."""
    if slot < len(reserved) and reserved[slot] is None:
        reserved[slot] = who
        return
    for i, r in enumerate(reserved):
        if r is None:
            reserved[i] = who
            return
    reserved.append(who)
    tokens.append(None)


def _settle(
    tokens: list[Token | None], reserved: list[str | None], slot: int | None, token: Token
) -> None:
    """Put a moved token at ``slot`` if empty, else in a free slot, else in a new slot."""
    if slot is not None and slot < len(tokens) and tokens[slot] is None:
        tokens[slot] = token
        return
    for i, t in enumerate(tokens):
        if t is None and reserved[i] is None:
            tokens[i] = token
            return
    tokens.append(token)
    reserved.append(None)
