"""The window's cheap updates show what a full rebuild would (issue #5).

The log appends rows, the tables announce changed cells, the build
highlight reuses what it worked out for the hex states it saw before, and
the idle collector frees what was frozen once the game is rebuilt.
"""

from __future__ import annotations

import gc
import random
import weakref
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex

from desk18xx.engine.actions import action_from_dict
from desk18xx.engine.data import load_title
from desk18xx.engine.game import GameSetup
from desk18xx.engine.map import upgrades
from desk18xx.engine.map.board import Board
from desk18xx.engine.map.graph import graph_for
from desk18xx.engine.tiledef import Color
from desk18xx.io.import_18xxgames import load_export
from desk18xx.titles import find_title
from desk18xx.ui.idlegc import IdleCollector
from desk18xx.ui.models.log import LogModel, log_entries
from desk18xx.ui.models.tables import Row, RowsModel
from desk18xx.ui.models.tracks import TrackOptions
from desk18xx.ui.session import IMPORT_OPTIONS, GameSession

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints")]

PLAYERS = (("1", "Alice"), ("2", "Bob"), ("3", "Carol"), ("4", "Dave"))
FIXTURES = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "18xx.games"


def _rows(model: LogModel) -> list[tuple[str, int | None]]:
    return [(model.entry(i).text, model.entry(i).count) for i in range(model.rowCount())]


def _play(session: GameSession, moves: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        options = session.game.legal_moves(rng)
        if not options:
            break
        session.submit(rng.choice(options))


def test_the_log_appends_the_same_rows_a_rebuild_shows(qtbot) -> None:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=7))
    names = {pid: name for pid, name in PLAYERS}
    model = LogModel()
    inserted: list[tuple[int, int]] = []
    resets: list[bool] = []
    model.rowsInserted.connect(lambda _parent, first, last: inserted.append((first, last)))
    model.modelReset.connect(lambda: resets.append(True))
    def headers() -> int:
        return sum(model.entry(i).count is None for i in range(1, model.rowCount()))

    for _ in range(200):  # until the log has passed a round's start (a header row)
        _play(session, 1, len(session.actions()))
        model.show_actions(session.actions(), session.rounds(), names)
        full = log_entries(session.actions(), session.rounds(), names)
        assert _rows(model) == [(e.text, e.count) for e in full]
        if len(session.actions()) > 20 and headers():
            break
    assert len(session.actions()) > 20
    assert inserted and not resets  # every move only inserted its rows
    assert headers()  # a round's header too

    removed: list[tuple[int, int]] = []
    model.rowsRemoved.connect(lambda _parent, first, last: removed.append((first, last)))
    session.undo(3)  # a shorter line: only the rows of the actions gone are removed
    built: list[int] = []
    import desk18xx.ui.models.log as log_module

    whole = log_module.log_entries
    log_module.log_entries = lambda *a, **k: (built.append(1), whole(*a, **k))[1]  # type: ignore[assignment]
    try:
        assert model.show_actions(session.actions(), session.rounds(), names)
    finally:
        log_module.log_entries = whole
    assert built == []  # nothing described again
    assert _rows(model) == [(e.text, e.count) for e in log_entries(
        session.actions(), session.rounds(), names)]
    assert removed and not resets
    assert not model.show_actions(session.actions(), session.rounds(), names)
    # back over a round's start: its header goes with its first action
    for _ in range(300):
        before = headers()
        _play(session, 1, len(session.actions()) + 1)
        model.show_actions(session.actions(), session.rounds(), names)
        if headers() > before:
            break
    assert headers() > before
    rows = model.rowCount()
    session.undo()
    assert model.show_actions(session.actions(), session.rounds(), names)
    assert _rows(model) == [(e.text, e.count) for e in log_entries(
        session.actions(), session.rounds(), names)]
    assert headers() == before and model.rowCount() < rows - 1 and not resets


def test_tables_announce_only_the_changed_cells(qtbot) -> None:  # type: ignore[no-untyped-def]
    model = RowsModel(("A", "B", "C"))
    model.set_rows([Row(("a", "1", "x")), Row(("b", "2", "y")), Row(("c", "3", "z"))])
    changes: list[tuple[int, int, int, int]] = []
    resets: list[bool] = []

    def changed(first: QModelIndex, last: QModelIndex) -> None:
        changes.append((first.row(), first.column(), last.row(), last.column()))

    model.dataChanged.connect(changed)
    model.modelReset.connect(lambda: resets.append(True))
    assert model.set_rows([Row(("a", "1", "x")), Row(("b", "5", "y")), Row(("c", "3", "z"))])
    assert changes == [(1, 1, 1, 1)] and not resets
    assert model.data(model.index(1, 1)) == "5"
    assert model.set_rows([Row(("a", "1", "x"), background="#ffe680"),
                           Row(("b", "5", "y")), Row(("c", "3", "w"))])
    assert changes[-1] == (0, 0, 2, 2)  # a colour: whole rows, down to the last change
    assert not model.set_rows(model.rows())
    assert model.set_rows([Row(("a", "1", "x"))]) and resets  # fewer rows: a reset
    assert model.rowCount() == 1


def test_the_build_highlight_matches_the_rules(qtbot) -> None:  # type: ignore[no-untyped-def]
    imported = load_export(FIXTURES / "1822CA" / "1822CA_game_end_bank.json")
    setup = GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                      imported.seed, tuple(imported.optional_rules) + IMPORT_OPTIONS)
    game = find_title(setup.title).new_game(setup)
    checked = nonempty = 0
    for i, raw in enumerate(imported.actions[:700]):
        game.process(action_from_dict(raw))
        legal = game.legal_actions()
        if i % 5 or "lay_tile" not in legal.types or legal.entity not in game.corps:
            continue
        corp = str(legal.entity)
        options = TrackOptions(game, corp)
        board = game.board
        assert isinstance(board, Board)
        reach = {str(h): e for h, e in graph_for(board).reach(corp).edges.items()}
        layable = upgrades.layable_hexes(board, reach, [Color(c) for c in game.phase.tiles],
                                         game.track_rules, entity=corp)
        expected = [h for h, tiles in sorted(layable.items())
                    if any(options.left(name) > 0 for name in tiles)]
        # the offers also leave out what the company cannot pay and hexes laid this turn
        assert set(options.hexes()) <= set(expected), f"after action {i}"
        nonempty += bool(options.hexes())
        assert TrackOptions(game, corp).hexes() == options.hexes()  # again
        checked += 1
    assert checked >= 5 and nonempty >= 5


class _Cycle:
    """Cyclic garbage once dropped: only the cycle collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_idle_collection_frees_frozen_garbage_after_a_rebuild(qtbot) -> None:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.new_game(GameSetup("1867", PLAYERS, seed=3))
    collector = IdleCollector(session)
    try:
        _play(session, 5, 1)
        assert collector.pending
        collector.settle()
        assert not collector.pending and gc.get_freeze_count() > 0
        obj = _Cycle()
        ref = weakref.ref(obj)
        collector.settle()  # survives, so it is frozen
        del obj
        _play(session, 1, 2)
        collector.settle()  # after a move only what is new is looked at
        assert ref() is not None
        session.undo()  # a rebuild: the old game is garbage, so look at everything
        assert collector.pending
        collector.settle()
        assert ref() is None
        assert session.game.legal_actions().entity is not None
    finally:
        gc.unfreeze()


def test_the_first_frame_draws_plain_hexes_then_the_full_map(  # type: ignore[no-untyped-def]
        qtbot, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QApplication

    from desk18xx.ui.map import items
    from desk18xx.ui.map.render import render_scene
    from desk18xx.ui.map.scene import MapScene
    from desk18xx.ui.map.starting import starting_board

    loaded = [False]  # as if shapely were not imported yet

    def load() -> None:
        loaded[0] = True

    monkeypatch.setattr(items, "_DEFER", [False])  # restored whatever happens below
    monkeypatch.setattr(items, "layout_loaded", lambda: loaded[0])
    monkeypatch.setattr(items, "load_layout", load)
    board = starting_board(load_title("1867"))
    full = render_scene(MapScene(board))  # not asked for: every hex in full at once
    assert items.drawn_in_full()
    items.draw_plain_until_idle()
    scene = MapScene(board)
    plain = render_scene(scene)
    assert not items.drawn_in_full() and not loaded[0]
    assert plain != full  # colours and outlines only: no track, names or revenues
    qtbot.waitUntil(items.drawn_in_full)  # the next turn of the event loop imports it
    QApplication.processEvents()
    assert loaded[0]
    assert render_scene(scene) == full


def test_the_tray_draws_its_tiles_ahead_and_keeps_equal_items(qtbot) -> None:  # type: ignore[no-untyped-def]
    from desk18xx.ui import actionpanel
    from desk18xx.ui.actionpanel import TileTray
    from desk18xx.ui.models.tracks import TileChoice

    data = load_title("1867")
    tiles = [entry.tile for entry in data.tiles.values()][:6]
    tray = TileTray()
    qtbot.addWidget(tray)
    actionpanel._PIXMAPS.clear()
    tray.warm(tiles)
    assert tray.warming
    qtbot.waitUntil(lambda: not tray.warming)
    for tile in tiles:
        assert (tile.name, 0, actionpanel.TILE_ICON, False) in actionpanel._PIXMAPS
        assert (tile.name, 0, actionpanel.TILE_ICON, True) in actionpanel._PIXMAPS
    choices = [TileChoice(t.name, t, (0,), 3) for t in tiles]
    tray.set_tiles(choices)
    first = tray.item(0)
    tray.set_tiles(list(choices))  # the same tiles: the items stay
    assert tray.item(0) is first and tray.count() == len(tiles)
    tray.set_tiles([TileChoice(t.name, t, (), 0, "none left") for t in tiles])
    assert tray.count() == len(tiles) and tray.item(0) is not first
    assert tray.tile_names(usable_only=True) == []


def test_asking_the_engine_for_some_move_types_gives_those_moves(qtbot) -> None:  # type: ignore[no-untyped-def]
    imported = load_export(FIXTURES / "1822CA" / "1822CA_game_end_bank.json")
    setup = GameSetup(imported.title, tuple((p.id, p.name) for p in imported.players),
                      imported.seed, tuple(imported.optional_rules) + IMPORT_OPTIONS)
    game = find_title(setup.title).new_game(setup)
    runs = compared = 0
    for i, raw in enumerate(imported.actions[:900]):
        game.process(action_from_dict(raw))
        if i % 9:
            continue
        legal = game.legal_actions().types
        types = frozenset(t for t in legal if t != "run_routes") | {"choose"}
        everything = game.legal_moves(random.Random(0))
        assert game.legal_moves_of(random.Random(0), types) == [
            m for m in everything if m.type in types], f"after action {i}"
        compared += 1
        runs += "run_routes" in legal  # a run's routes are not searched for these
    assert compared > 50 and runs > 3
