"""Map view interaction: zoom around the cursor, pan, fit, clicks, keys, drops."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QByteArray, QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QDropEvent

from desk18xx.engine.data import load_title
from desk18xx.engine.map import hexgrid
from desk18xx.ui.map.starting import starting_board
from desk18xx.ui.mapview.view import TILE_MIME, MapView

pytestmark = pytest.mark.gui


@pytest.fixture
def view(qtbot) -> MapView:  # type: ignore[no-untyped-def]
    v = MapView()
    qtbot.addWidget(v)
    v.resize(800, 600)
    v.set_board(starting_board(load_title("1867")))
    v.show()
    qtbot.wait_exposed(v)
    v.fit()
    return v


def _hex_pos(view: MapView, hex_id: str) -> QPoint:
    x, y = hexgrid.center(hexgrid.parse_hex(hex_id), view.hex_size())
    return view.mapFromScene(QPointF(x, y))


def test_fit_shows_the_whole_board(view: MapView) -> None:
    scene = view.map_scene
    assert scene is not None
    rect = view.mapToScene(view.viewport().rect()).boundingRect()
    assert rect.contains(scene.sceneRect().adjusted(5, 5, -5, -5))


def test_zoom_keeps_the_point_under_the_cursor(view: MapView, qtbot) -> None:  # type: ignore[no-untyped-def]
    before = view.zoom()
    view.zoom_by(2.0)
    assert view.zoom() == pytest.approx(before * 2.0)
    view.zoom_by(1000)
    assert view.zoom() <= 6.0
    qtbot.keyClick(view, Qt.Key.Key_0)
    assert view.zoom() == pytest.approx(before, rel=0.05)


def test_click_names_the_hex(view: MapView, qtbot) -> None:  # type: ignore[no-untyped-def]
    with qtbot.wait_signal(view.hex_clicked) as blocker:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=_hex_pos(view, "L12"))
    assert blocker.args == ["L12"]


def test_drag_pans_without_clicking(view: MapView, qtbot) -> None:  # type: ignore[no-untyped-def]
    view.zoom_by(3.0)
    h = view.horizontalScrollBar().value()
    clicks: list[str] = []
    view.hex_clicked.connect(clicks.append)
    vp = view.viewport()
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=QPoint(400, 300))
    for x in range(400, 300, -10):
        qtbot.mouseMove(vp, QPoint(x, 300))
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=QPoint(300, 300))
    assert view.horizontalScrollBar().value() > h
    assert clicks == []


def test_arrow_keys_pan(view: MapView, qtbot) -> None:  # type: ignore[no-untyped-def]
    view.zoom_by(3.0)
    v = view.verticalScrollBar().value()
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert view.verticalScrollBar().value() > v


def test_highlights_and_drop(view: MapView, qtbot) -> None:  # type: ignore[no-untyped-def]
    view.set_highlights(["L12", "M9"])
    assert view.highlighted() == ["L12", "M9"]
    data = QMimeData()
    data.setData(TILE_MIME, QByteArray(b"57"))
    event = QDropEvent(QPointF(_hex_pos(view, "M9")), Qt.DropAction.CopyAction, data,
                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    with qtbot.wait_signal(view.tile_dropped) as blocker:
        view.dropEvent(event)
    assert blocker.args == ["M9", "57"]
