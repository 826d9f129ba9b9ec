"""The starting board of a title as a :class:`~desk18xx.ui.map.boardview.BoardView`.

Printed hexes with what setup adds: home reservations, the 1867 CN tokens,
the 1822CA ``DD`` blockers, blocking companies and destination markers.
"""

from __future__ import annotations

from desk18xx.engine.data import TitleData
from desk18xx.engine.tiledef import HexDef, NodeKind
from desk18xx.ui.map import style
from desk18xx.ui.map.boardview import Mark, MarkKind, PlacedMark, StaticBoard, StaticHex

#: Colour of tokens whose owner is not a corporation (1822CA ``DD``).
BLOCKER_FILL = "#6e6e6e"


def corporation_marks(data: TitleData, kind: MarkKind = MarkKind.TOKEN) -> dict[str, Mark]:
    """A mark per corporation, coloured as on its charter."""
    out = {}
    for corp in data.corporations:
        fill = style.company_fill(data.id, corp.sym, corp.color)  # distinct (issue 18)
        text = (corp.text_color if fill == corp.color else None) or style.text_color_for(fill)
        out[corp.sym] = Mark(corp.sym, fill, text, kind)
    return out


def starting_hex(hex_def: HexDef, marks: dict[str, Mark]) -> StaticHex:
    """One hex as set up, before any tile is laid."""
    slots = [max(n.slots, 1) for n in hex_def.tile.nodes if n.kind is NodeKind.CITY]
    tokens: list[list[Mark | None]] = [[None] * n for n in slots]
    reserved: list[list[str | None]] = [[None] * n for n in slots]
    whole: list[str] = []
    for r in hex_def.reservations:
        if r.city is None or r.city >= len(slots):
            whole.append(r.entity)
        else:
            slot = r.slot if r.slot is not None and r.slot < slots[r.city] else 0
            reserved[r.city][slot] = r.entity
    for t in hex_def.tokens:
        if t.city >= len(slots) or t.slot >= slots[t.city]:
            continue
        base = marks.get(t.corporation)
        if base is None:
            mark = Mark(t.corporation, BLOCKER_FILL, "#ffffff", MarkKind.BLOCKER)
        elif t.type == "neutral":
            mark = Mark(base.owner, base.fill, base.text, MarkKind.NEUTRAL)
        else:
            mark = base
        tokens[t.city][t.slot] = mark
    placed = [PlacedMark(Mark(b, "", "#000000", MarkKind.BLOCKER)) for b in hex_def.blockers]
    for icon in hex_def.setup_icons:
        owner = icon.owner or icon.name
        base = marks.get(owner, Mark(owner))
        placed.append(PlacedMark(Mark(owner, base.fill, base.text, MarkKind.DESTINATION),
                                 icon.city, icon.slot, icon.loc))
    return StaticHex(
        hex=hex_def,
        tile=hex_def.tile,
        tokens=tuple(tuple(row) for row in tokens),
        reservations=tuple(tuple(row) for row in reserved),
        hex_reservations=tuple(whole),
        marks=tuple(placed),
    )


def starting_board(data: TitleData) -> StaticBoard:
    """The board of ``data`` as printed and set up."""
    marks = corporation_marks(data)
    return StaticBoard({hid: starting_hex(h, marks) for hid, h in data.hexes.items()})
