"""An action redraws only what it changed (late 1822CA game, the whole window open).

Counts, not timings: a tile lay rebuilds one drawn hex and repaints one hex item,
the board view hands back the very same hex records for the rest, the shared
river costs are not recomputed, and the log only inserts the new lines.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from desk18xx.engine.actions import LayTile, action_from_dict
from desk18xx.engine.game import GameSetup
from desk18xx.io.import_18xxgames import load_export
from desk18xx.ui.map.items import HexItem
from desk18xx.ui.map.scene import MapScene
from desk18xx.ui.models.board import board_view
from desk18xx.ui.session import IMPORT_OPTIONS, GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
LATE = FIXTURES / "1822CA" / "1822CA_game_end_bank.json"
#: actions before the export's end where the game is taken up (as benchmarks/gui.py)
LATE_OFFSET = 120


def test_a_tile_lay_redraws_only_its_hex(qtbot, show_window,  # type: ignore[no-untyped-def]
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    imported = load_export(LATE)
    raws = [dict(a) for a in imported.actions]
    late = len(raws) - LATE_OFFSET
    lay_at = next(i for i in range(late, len(raws)) if raws[i]["type"] == "lay_tile")
    session = GameSession()
    session.new_game(GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                               imported.seed, tuple(imported.optional_rules) + IMPORT_OPTIONS),
                     raws[:lay_at])
    window = show_window(session)
    scene = window.map_view.map_scene
    assert scene is not None
    before = board_view(session.game)

    redrawn: list[str] = []
    original_set_state = HexItem.set_state
    monkeypatch.setattr(HexItem, "set_state",
                        lambda self, state: (redrawn.append(state.hex.id),
                                             original_set_state(self, state)))
    shared_passes: list[bool] = []
    original_shared = MapScene._update_shared_costs
    monkeypatch.setattr(MapScene, "_update_shared_costs",
                        lambda self: (shared_passes.append(True), original_shared(self)))
    inserted: list[int] = []
    resets: list[bool] = []
    window.log_model.rowsInserted.connect(lambda _p, first, last: inserted.append(last - first + 1))
    window.log_model.modelReset.connect(lambda: resets.append(True))
    rows = window.log_model.rowCount()

    lay = action_from_dict(raws[lay_at])
    assert isinstance(lay, LayTile)
    assert session.submit(lay)
    qtbot.wait(10)

    assert redrawn == [lay.hex]  # one hex item repainted, every other left as it was
    after = board_view(session.game)
    unchanged = [h for h in before.hexes if after.hexes[h] is before.hexes[h]]
    assert len(unchanged) == len(before.hexes) - 1 and lay.hex not in unchanged
    assert scene.hex_item(lay.hex).state is after.hexes[lay.hex]
    assert after.hexes[lay.hex].tile.name == lay.tile.split("-")[0]
    had_borders = before.hexes[lay.hex].borders != after.hexes[lay.hex].borders
    assert shared_passes == ([True] if had_borders else [])
    assert not resets and sum(inserted) == window.log_model.rowCount() - rows > 0


def test_a_table_measures_again_only_the_columns_that_changed(qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QTableView

    from desk18xx.ui.models.tables import Row, RowsModel
    from desk18xx.ui.tableviews import fit_columns

    model = RowsModel(("A", "B", "C"))
    model.set_rows([Row(("a", "1", "x")), Row(("b", "2", "y"))])
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    view.resize(400, 200)
    view.show()
    qtbot.wait_exposed(view)
    fitter = fit_columns(view)
    fitter.fit()
    measured: list[int] = []
    original = view.sizeHintForColumn
    view.sizeHintForColumn = lambda c: (measured.append(c), original(c))[1]  # type: ignore[method-assign]
    fitter.fit()
    assert measured == []  # nothing changed: the widths are known
    model.set_rows([Row(("a", "1", "x")), Row(("b", "2", "a much longer cell"))])
    fitter.fit()
    assert measured == [2]
    model.set_rows([Row(("a", "1", "x"))])  # a row fewer: every column again
    measured.clear()
    fitter.fit()
    assert sorted(measured) == [0, 1, 2]


def test_the_name_labels_wait_for_the_first_frame(qtbot, show_window,  # type: ignore[no-untyped-def]
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """At a launch the labels (which need the hex layout, shapely) are placed after
    the first frame, with the hexes drawn in full, not before it."""
    from desk18xx.ui.map import items

    loaded = [False]  # as if shapely were not imported yet
    monkeypatch.setattr(items, "_DEFER", [False])
    monkeypatch.setattr(items, "_AFTER", [])
    monkeypatch.setattr(items, "layout_loaded", lambda: loaded[0])
    monkeypatch.setattr(items, "load_layout", lambda: loaded.__setitem__(0, True))
    items.draw_plain_until_idle()  # as run_app does
    session = GameSession()
    session.new_game(GameSetup("1867", (("1", "Ann"), ("2", "Ben"), ("3", "Cid")), seed=5))
    from desk18xx.ui.mainwindow import MainWindow

    window = MainWindow(session, restore_layout=False)
    qtbot.addWidget(window)
    assert not loaded[0] and not window.map_labels.labels()  # nothing laid out yet
    window.show()
    qtbot.waitUntil(lambda: loaded[0])  # the turn after the first frame imports it ...
    qtbot.waitUntil(lambda: bool(window.map_labels.labels()))  # ... then the labels come
    assert items.drawn_in_full()


def test_the_labels_are_placed_at_once_without_the_launch_deferral(  # type: ignore[no-untyped-def]
        qtbot, show_window) -> None:
    session = GameSession()
    session.new_game(GameSetup("1867", (("1", "Ann"), ("2", "Ben"), ("3", "Cid")), seed=5))
    window = show_window(session)
    assert window.map_labels.labels()


def test_a_repaint_replays_the_hex_drawings(qtbot, show_window,  # type: ignore[no-untyped-def]
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A zoom repaints every hex in sight: from its recorded drawing, not laid out
    again; only a hex whose state changed is laid out anew."""
    from desk18xx.ui.map import items
    from desk18xx.ui.map.render import render_scene

    session = GameSession()
    session.new_game(GameSetup("1867", (("1", "Ann"), ("2", "Ben"), ("3", "Cid")), seed=5))
    window = show_window(session)
    scene = window.map_view.map_scene
    assert scene is not None
    first = render_scene(scene)  # every hex drawn (and recorded) once
    laid_out: list[str] = []
    original = items.paint_hex
    monkeypatch.setattr(items, "paint_hex", lambda painter, state, *a, **k: (
        laid_out.append(state.hex.id), original(painter, state, *a, **k))[1])
    assert render_scene(scene) == first  # the same picture ...
    assert laid_out == []  # ... from the recorded drawings
    hex_id = scene.hex_ids()[0]
    item = scene.hex_item(hex_id)
    item.set_state(dataclasses.replace(item.state, tokens=item.state.tokens))
    render_scene(scene)
    assert laid_out == [hex_id]
