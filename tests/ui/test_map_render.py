"""Rendering whole boards: image size and colours at known hexes."""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication

from desk18xx.commands import render_map
from desk18xx.engine.data import load_title
from desk18xx.engine.map import hexgrid
from desk18xx.engine.tiledef import Color
from desk18xx.ui.map import geometry as geo
from desk18xx.ui.map import style
from desk18xx.ui.map.boardview import MarkKind, StaticBoard, StaticHex
from desk18xx.ui.map.hexlayout import layout_hex
from desk18xx.ui.map.render import render_scene
from desk18xx.ui.map.scene import MapScene
from desk18xx.ui.map.starting import starting_board

pytestmark = pytest.mark.gui

SIZE = 30.0


def _render(title: str) -> tuple[MapScene, QImage]:
    scene = MapScene(starting_board(load_title(title)), SIZE)
    return scene, render_scene(scene)


def _pixel(scene: MapScene, image: QImage, hex_id: str, dx: float = 0.0,
           dy: float = 0.0) -> tuple[int, int]:
    """Image pixel of a point given in tile units relative to a hex centre."""
    cx, cy = hexgrid.center(hexgrid.parse_hex(hex_id), SIZE)
    rect = scene.sceneRect()
    scale = SIZE / geo.UNIT
    return (round(cx + dx * scale - rect.left()), round(cy + dy * scale - rect.top()))


def _main_color(scene: MapScene, image: QImage, hex_id: str) -> str:
    """Most common colour over a grid of points inside the hex."""
    counts: Counter[str] = Counter()
    for dx in range(-60, 61, 10):
        for dy in range(-60, 61, 10):
            x, y = _pixel(scene, image, hex_id, dx, dy)
            counts[image.pixelColor(x, y).name()] += 1
    return counts.most_common(1)[0][0]


def _tile(color: Color) -> str:
    return QColor(style.TILE_COLORS[color]).name()


@pytest.fixture(scope="module")
def board_1867(qapp: QApplication) -> tuple[MapScene, QImage]:
    return _render("1867")


@pytest.fixture(scope="module")
def board_1822ca(qapp: QApplication) -> tuple[MapScene, QImage]:
    return _render("1822CA")


def test_1867_image_covers_the_board(board_1867: tuple[MapScene, QImage]) -> None:
    scene, image = board_1867
    # Columns A-P, rows 1-19: about 16 x 1.5 hexes wide, 10 x sqrt(3) hexes tall.
    assert 22 * SIZE < image.width() < 28 * SIZE
    assert 16 * SIZE < image.height() < 21 * SIZE
    assert len(scene.hex_ids()) == 94


@pytest.mark.parametrize(("hex_id", "color"), [
    ("A7", Color.RED),      # Sault Ste. Marie
    ("A19", Color.RED),     # Detroit
    ("B16", Color.GRAY),
    ("F16", Color.YELLOW),  # Toronto
    ("L12", Color.YELLOW),  # Montreal
    ("E19", Color.BLUE),
    ("G7", Color.WHITE),
])
def test_1867_hex_colours(board_1867: tuple[MapScene, QImage], hex_id: str,
                          color: Color) -> None:
    scene, image = board_1867
    assert _main_color(scene, image, hex_id) == _tile(color)


def test_1867_borders_are_drawn(board_1867: tuple[MapScene, QImage]) -> None:
    scene, image = board_1867
    # C9 has an impassable border on edge 0 (bottom), N8 a river on edge 0.
    x, y = _pixel(scene, image, "C9", 0, geo.EDGE_R - 1)
    assert image.pixelColor(x, y).name() == QColor(style.IMPASSABLE).name()
    x, y = _pixel(scene, image, "N8", 0, geo.EDGE_R + 1)
    assert image.pixelColor(x, y).name() == QColor(style.WATER_BORDER).name()


def test_1867_straight_track_and_cn_token(board_1867: tuple[MapScene, QImage]) -> None:
    scene, image = board_1867
    # Timmins (D2): track from the centre down to edge 0.
    x, y = _pixel(scene, image, "D2", 0, 80)
    assert min(image.pixelColor(x + d, y).lightness() for d in (-1, 0, 1)) < 60
    # Montreal's third city (loc 5) holds the neutral CN token.
    tokens = scene.hex_item("L12").state.tokens
    assert tokens[2][0] is not None and tokens[2][0].kind is MarkKind.NEUTRAL


def test_1822ca_board(board_1822ca: tuple[MapScene, QImage]) -> None:
    scene, image = board_1822ca
    assert len(scene.hex_ids()) == 279
    assert image.width() > 2 * image.height()  # the long map, Vancouver to Halifax
    assert _main_color(scene, image, "C17") == _tile(Color.GRAY)  # Seattle
    assert _main_color(scene, image, "AK1") == _tile(Color.BLUE)
    assert _main_color(scene, image, "G15") == _tile(Color.WHITE)  # Calgary
    west = hexgrid.center(hexgrid.parse_hex("C15"), SIZE)[0]
    east = hexgrid.center(hexgrid.parse_hex("AP4"), SIZE)[0]
    assert west < east


@pytest.mark.parametrize(("title", "gray"), [("1822CA-ERS", "T12"), ("1822CA-WRS", "C17")])
def test_scenario_boards(qapp: QApplication, title: str, gray: str) -> None:
    scene, image = _render(title)
    assert image.width() > 10 * SIZE
    assert _main_color(scene, image, gray) == _tile(Color.GRAY)


def test_hex_item_shape_contains_its_centre(board_1867: tuple[MapScene, QImage]) -> None:
    scene, _ = board_1867
    item = scene.hex_item("L12")
    assert item.shape().contains(item.mapFromScene(item.pos()))
    assert scene.itemAt(item.pos(), item.transform()) is item


def test_refresh_redraws_changed_hexes(board_1867: tuple[MapScene, QImage]) -> None:
    scene, _ = board_1867
    board = starting_board(load_title("1867"))
    changed = dict(board.hexes)
    old = changed["G7"]
    turned = type(old)(old.hex, load_title("1867").tiles["9"].tile, rotation=1)
    changed["G7"] = turned
    scene.refresh(StaticBoard(changed))
    assert scene.hex_item("G7").state.rotation == 1
    scene.refresh(board)


def test_render_map_command_writes_png(qapp: QApplication, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "1867.png"
    args = argparse.Namespace(title="1867", out=str(out), size=20.0, no_names=False,
                              verbose=False)
    assert render_map.run(args) == 0
    assert capsys.readouterr().out.strip() == str(out)
    image = QImage(str(out))
    assert not image.isNull() and image.width() > 300


def test_render_map_rejects_unknown_title(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(title="1830", out=str(tmp_path / "x.png"), size=50.0,
                              no_names=False, verbose=False)
    assert render_map.run(args) == 2
    assert "unknown title" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_laid_tile_keeps_printed_borders_and_drops_future_label(qapp: QApplication) -> None:
    data = load_title("1867")
    ottawa = data.hexes["J12"]  # Y label, river cost, future label O at gray
    green = StaticHex(ottawa, data.tiles["14"].tile, rotation=0)
    assert green.future_label is not None and green.future_label.label == "O"
    gray = StaticHex(ottawa, data.tiles["X8"].tile)
    assert gray.tile.color is Color.GRAY and gray.future_label is None
    n8 = StaticHex(data.hexes["N8"], data.tiles["9"].tile)
    assert {b.edge for b in n8.borders} == {0, 5}
    assert StaticHex(data.hexes["N8"], data.tiles["9"].tile, current_borders=()).borders == ()


def test_sticky_icons_stay_on_laid_tiles() -> None:
    data = load_title("1822CA")
    moose_jaw = data.hexes["J16"]  # grain elevator, sticky
    laid = StaticHex(moose_jaw, data.tiles["3"].tile, rotation=1)
    assert [p.kind for p in layout_hex(laid).icons] == ["elevator"]
