"""The map asks the engine's early-exit lay question once per position shown
(issue 18, speed): a position shown again after an undo outlines the same hexes
and greys the same tray tiles without asking again; another move from there is
a new position, asked afresh.  Played on 21268.json (1867) at a recorded lay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from desk18xx.engine.actions import LayTile, action_from_dict
from desk18xx.engine.offers import TileLayOffer, lay_hexes_of, lay_tiles_of, tile_name
from desk18xx.ui.mainwindow import MainWindow
from desk18xx.ui.session import GameSession

GAME = (Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "18xx.games"
        / "1867" / "21268.json")

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("propagateSizeHints", "raise")]


@pytest.fixture
def window(show_window) -> MainWindow:  # type: ignore[no-untyped-def]
    session = GameSession()
    session.load(GAME)
    win: MainWindow = show_window(session)
    return win


def _shown(window: MainWindow) -> tuple[list[str], set[str]]:
    """(the hexes outlined, the tray's usable tiles) of the window now."""
    track = window.controller.track
    assert track is not None
    usable = {c.name for c in track.tray(None) if c.rotations}
    return track.hexes(), usable


def _offered(window: MainWindow) -> tuple[list[str], set[str]]:
    """The same, from the full offers of the position."""
    game = window.session.game
    entity = game.legal_actions().entity
    assert entity is not None
    offers = game.offers(entity, (LayTile.type,))
    return sorted(lay_hexes_of(offers)), set(lay_tiles_of(offers))


def test_a_position_shown_again_is_not_asked_again(window: MainWindow,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    session = window.session
    main = session.tree.main_line()
    index = next(i for i, n in enumerate(main) if i > 40 and n.type == "lay_tile")
    game = session.game
    asked: list[str] = []
    original = type(game).lay_choices

    def counted(self: Any, entity: str) -> tuple[frozenset[str], frozenset[str]]:
        asked.append(entity)
        return original(self, entity)

    monkeypatch.setattr(type(game), "lay_choices", counted)
    session.go_to(main[index - 1])  # the lay position, asked here
    before = _shown(window)
    assert before == _offered(window) and before[0], before
    assert len(asked) == 1, asked
    session.go_to(main[index - 2])
    session.go_to(main[index - 1])  # shown again: not asked again
    assert _shown(window) == before
    assert len(asked) == 1, asked
    recorded = main[index].action
    assert recorded is not None
    assert session.submit(action_from_dict(dict(recorded)))
    session.undo()
    assert _shown(window) == before
    assert _shown(window) == _offered(window)
    assert len(asked) <= 2, asked  # the lay position: not asked again (the next may be)
    # another lay from there: a new position, asked afresh, and what it shows is its own
    entity = session.game.legal_actions().entity
    assert entity is not None
    laid = (recorded.get("hex"), tile_name(str(recorded.get("tile"))), recorded.get("rotation"))
    move = next(m for o in session.game.offers(entity, (LayTile.type,))
                if isinstance(o, TileLayOffer) for m in o.moves(entity, "corporation")
                if isinstance(m, LayTile) and (m.hex, tile_name(m.tile), m.rotation) != laid)
    count = len(asked)
    assert session.submit(move)
    if window.controller.track is not None:
        assert len(asked) == count + 1
        assert _shown(window) == _offered(window)
