"""Both 1867 markets move as the card and 18xx.games say (rules/1867.md §5)."""

from __future__ import annotations

from desk18xx.engine.market import Market
from desk18xx.titles.g1867.rules import COLUMN_MARKET, GRID_MARKET


def column() -> Market:
    return Market.from_rows(COLUMN_MARKET)


def grid() -> Market:
    return Market.from_rows(GRID_MARKET)


def at(m: Market, corp: str, price: int, row: int | None = None) -> None:
    cell = next(c for c in m.cells.values() if c.price == price and (row is None or c.row == row))
    m.place(corp, cell.coord)


def test_column_left_right_and_ends() -> None:
    m = column()
    at(m, "A", 35)
    m.move("A", False, "left")
    assert m.price("A") == 35  # no move past the end
    m.move("A", False, "right")
    assert m.price("A") == 40
    at(m, "A", 540)
    m.move("A", False, "right")
    assert m.price("A") == 540


def test_column_up_is_right_and_down_is_left() -> None:
    m = column()
    at(m, "A", 100)
    m.move("A", False, "up")
    assert m.price("A") == 110
    m.move("A", False, "down")
    m.move("A", False, "down")
    assert m.price("A") == 90


def test_column_minor_never_crosses_the_thick_border() -> None:
    m = column()
    at(m, "M", 165)
    m.move("M", True, "right")
    assert m.price("M") == 165  # card: "A minor never crosses the thick border: it stays"
    at(m, "J", 165)
    m.move("J", False, "right")
    assert m.price("J") == 180


def test_grid_moves() -> None:
    m = grid()
    at(m, "A", 100, row=4)  # (4,5)
    m.move("A", False, "right")
    assert m.cell("A") is not None and m.cell("A").coord == (4, 6)  # type: ignore[union-attr]
    m.move("A", False, "up")
    assert m.cell("A").coord == (3, 6)  # type: ignore[union-attr]
    m.move("A", False, "down")
    assert m.cell("A").coord == (4, 6)  # type: ignore[union-attr]
    # left without a cell falls to down: (6,0) -> (7,0)
    m.place("B", (6, 0))
    m.move("B", False, "left")
    assert m.cell("B").coord == (7, 0)  # type: ignore[union-attr]
    # down without a cell does not move: (3,11) has no (4,11)
    m.place("C", (3, 11))
    m.move("C", False, "down")
    assert m.cell("C").coord == (3, 11)  # type: ignore[union-attr]


def test_grid_top_row_and_thick_border() -> None:
    m = grid()
    m.place("J", (0, 8))
    m.move("J", False, "up")  # a major in row 0 goes to (1, c+1): same price
    assert m.cell("J").coord == (1, 9) and m.price("J") == 200  # type: ignore[union-attr]
    m.place("M", (2, 6))  # 135 pmC: a minor there moves up instead of right
    m.move("M", True, "right")
    assert m.cell("M").coord == (1, 6)  # type: ignore[union-attr]
    m.place("N", (0, 6))
    m.move("N", True, "right")
    assert m.cell("N").coord == (0, 6)  # type: ignore[union-attr]
    m.move("N", True, "up")
    assert m.cell("N").coord == (0, 6)  # type: ignore[union-attr]


def test_end_of_row_right_is_up() -> None:
    m = grid()
    m.place("A", (5, 7))  # 110, last cell of row 5
    m.move("A", False, "right")
    assert m.cell("A").coord == (4, 7)  # type: ignore[union-attr]


def test_operating_order_key_prefers_price_then_right_then_top_then_arrival() -> None:
    m = grid()
    m.place("A", (3, 6))  # 120
    m.place("B", (4, 7))  # 120, further right
    m.place("C", (4, 7))  # same cell, arrived later
    order = sorted(["A", "B", "C"], key=lambda c: m.order_key(c, c))
    assert order == ["B", "C", "A"]
