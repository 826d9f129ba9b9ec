"""The live board of a game as a :class:`~desk18xx.ui.map.boardview.BoardView`.

The map renderer draws frozen :class:`StaticHex` records; this module reads
the engine's board (tiles laid, rotations, token slots) and builds them.
Engine access for the map stays here, so a change of the engine's board
class is adapted in one place.
"""

from __future__ import annotations

from functools import lru_cache

from desk18xx.engine.data import TitleData, load_title
from desk18xx.engine.game import Game
from desk18xx.engine.map import board as mboard
from desk18xx.ui.map.boardview import Mark, MarkKind, StaticBoard, StaticHex
from desk18xx.ui.map.starting import corporation_marks, starting_hex

#: Token-slot value the engine uses for a neutral placeholder (1867 CN).
_DATA_TITLES = {"1822CA ERS": "1822CA-ERS", "1822CA WRS": "1822CA-WRS"}


def title_data(title: str) -> TitleData:
    """Printed data of ``title`` (an id or an 18xx.games title string)."""
    return load_title(_DATA_TITLES.get(title, title.replace(" ", "-")))


@lru_cache(maxsize=8)
def _marks(title: str) -> dict[str, Mark]:
    return corporation_marks(title_data(title))


@lru_cache(maxsize=8)
def _bases(title: str) -> dict[str, StaticHex]:
    """The printed, set-up hexes of ``title`` (reservations and markers)."""
    marks = _marks(title)
    return {h: starting_hex(d, marks) for h, d in title_data(title).hexes.items()}


def destinations(title: str) -> dict[str, str]:
    """Corporation id -> its destination hex (1822CA majors)."""
    out = {}
    for corp in title_data(title).corporations:
        if corp.destination is not None:
            out[corp.sym] = corp.destination.hex
    return out


def corp_colors(title: str) -> dict[str, tuple[str, str]]:
    """Corporation id -> (fill, text colour) as on its charter."""
    return {k: (m.fill, m.text) for k, m in _marks(title).items()}


def board_view(game: Game) -> StaticBoard:
    """What the map should draw for ``game`` now."""
    board = game.board
    if board is None:
        return StaticBoard({})
    return _map_board_view(game.setup.title, board)


def _mark(marks: dict[str, Mark], token: mboard.Token) -> Mark:
    base = marks.get(token.corp, Mark(token.corp))
    if token.kind == "neutral":
        return Mark(base.owner, base.fill, base.text, MarkKind.NEUTRAL)
    if token.kind == "destination":
        return Mark(base.owner, base.fill, base.text, MarkKind.DESTINATION)
    return base


#: Title -> hex id -> (the engine's frozen hex state, the hex drawn for it): a board
#: view after a move only builds the hexes whose state object was replaced.
_DRAWN: dict[str, dict[str, tuple[mboard.HexState, StaticHex]]] = {}


def _map_board_view(title: str, board: mboard.Board) -> StaticBoard:
    """The engine's map model (:mod:`desk18xx.engine.map.board`) as drawn hexes."""
    drawn = _DRAWN.get(title)
    if drawn is None:
        _DRAWN.clear()  # one title at a time
        drawn = _DRAWN[title] = {}
    out: dict[str, StaticHex] = {}
    for st in board:
        hit = drawn.get(st.hex_id)
        if hit is not None and hit[0] is st:
            out[st.hex_id] = hit[1]
            continue
        drawn_hex = _drawn_hex(title, board, st)
        drawn[st.hex_id] = (st, drawn_hex)
        out[st.hex_id] = drawn_hex
    return StaticBoard(out)


def _drawn_hex(title: str, board: mboard.Board, st: mboard.HexState) -> StaticHex:
    """The hex drawn for the engine's state ``st``."""
    marks = _marks(title)
    base = _bases(title).get(st.hex_id) or starting_hex(board.hex_def(st.hex_id), marks)
    tokens = tuple(tuple(None if t is None else _mark(marks, t) for t in slots)
                   for slots in st.tokens)
    return StaticHex(
        hex=base.hex,
        tile=st.tile,
        rotation=st.rotation,
        tokens=tokens,
        reservations=st.reserved if len(st.reserved) == len(tokens) else (),
        hex_reservations=st.hex_reservations,
        marks=base.marks if st.printed else (),
    )


#: The last board counted, its hex states and its counts (one entry, key "last").
_TILE_COUNTS: dict[str, tuple[mboard.Board, tuple[mboard.HexState, ...],
                              tuple[tuple[str, str, int | None], ...]]] = {}


def tile_counts(game: Game) -> list[tuple[str, str, int | None]]:
    """The manifest: (tile name, colour, copies left or None for unlimited)."""
    board = game.board
    out: list[tuple[str, str, int | None]] = []
    if board is None:
        return out
    states = tuple(board)  # every lay or removal replaces a (frozen) hex state
    last = _TILE_COUNTS.get("last")
    if last is not None and last[0] is board and last[1] == states:
        return list(last[2])
    for name, entry in board.manifest.items():
        out.append((name, entry.tile.color.value, board.remaining(name)))
    _TILE_COUNTS["last"] = (board, states, tuple(out))
    return out


def hex_summary(game: Game, hex_id: str) -> str:
    """One line about a hex for a tooltip: id, name, tile and tokens."""
    board = game.board
    if board is None or hex_id not in board:
        return hex_id
    st = board.hex(hex_id)
    hex_def = board.hex_def(hex_id)
    tile, printed = st.tile, st.printed
    tokens = [t.corp for slots in st.tokens for t in slots if t is not None]
    parts = [hex_id]
    if hex_def.location_name:
        parts.append(hex_def.location_name)
    parts.append("printed" if printed else f"tile {tile.name}")
    cost = sum(u.cost for u in tile.upgrades)
    if cost:
        parts.append(f"terrain ${cost}")
    if tokens:
        parts.append("tokens " + ", ".join(tokens))
    return " · ".join(parts)
