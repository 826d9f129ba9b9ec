"""1822CA tile lays where the rulebook and 18xx.games differ (rules-notes rows 4 and 5)."""

from __future__ import annotations

import pytest

from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import GameSetup
from desk18xx.engine.map import upgrades as U
from desk18xx.engine.map.board import Board
from desk18xx.engine.tiledef import Color
from desk18xx.titles.g1822ca.game import G1822CA

SEED = 1


def _game(compat: bool) -> G1822CA:
    ids = tuple((str(100 + i), f"P{i}") for i in range(4))
    return G1822CA(GameSetup("1822CA", ids, SEED, ("compat_18xxgames",) if compat else ()))


def _plain_hexes(board: Board) -> list[str]:
    """Printed white hexes with no city, town, terrain or river, all six neighbours on the map."""
    out = []
    for h in board.hex_ids():
        st = board.hex(h)
        if (st.printed and st.tile.color == "white" and not st.geo.city_nodes
                and not st.geo.town_nodes and not st.tile.upgrades and not st.tile.borders
                and not st.tile.stubs and all(board.neighbour(h, e) for e in range(6))):
            out.append(h)
    return out


@pytest.mark.parametrize("compat", [False, True])
def test_grey_plain_track_must_use_six_exits(compat: bool) -> None:
    """RB 5.7.35: no five-track grey tile (#169) where a six-track one (#60) fits;
    18xx.games applies its most-exits rule to unlabelled cities only."""
    game = _game(compat)
    board = game.board
    hex_id = _plain_hexes(board)[0]
    board.lay_tile(hex_id, board.next_copy("544"), 0)
    legal = U.legal_tiles(board, hex_id, [Color.GRAY], game.track_rules)
    assert "60" in legal
    lay = (board, hex_id, board.next_copy("169"), 0, [Color.GRAY], game.track_rules)
    if compat:
        assert "169" in legal
        U.check_tile_lay(*lay)
    else:
        assert "169" not in legal
        with pytest.raises(IllegalAction, match=r"more exits must be laid on .*\(60\)"):
            U.check_tile_lay(*lay)


def test_five_track_grey_allowed_once_the_six_track_tiles_are_used() -> None:
    """RB 5.7.35 refuses #169 only "where a six-track tile could be placed"."""
    game = _game(False)
    board = game.board
    hex_id, *others = _plain_hexes(board)
    board.lay_tile(hex_id, board.next_copy("544"), 0)
    for other in others[:2]:
        board.lay_tile(other, board.next_copy("60"), 0)
    assert "60" not in board.available_names()
    assert "169" in U.legal_tiles(board, hex_id, [Color.GRAY], game.track_rules)
    U.check_tile_lay(board, hex_id, board.next_copy("169"), 0, [Color.GRAY], game.track_rules)


@pytest.mark.parametrize("compat", [False, True])
def test_l_cities_take_unlabelled_green_tiles(compat: bool) -> None:
    """Row 4: RB 5.7.16 says the L cities have labelled green tiles, but no source has one
    (no green L tile in 18xx.games or the supplement, §15.3), so both modes lay the
    unlabelled green city tiles on Saint John and Moncton and the L tiles from brown."""
    game = _game(compat)
    board = game.board
    for hex_id in ("AN6", "AO3"):
        st = board.hex(hex_id)
        assert st.future_label is not None and st.future_label.label == "L"
        assert st.future_label.color == "brown"
        assert U.upgrade_problem(board, hex_id, board.tile_def("57"), game.track_rules) is None
        board.lay_tile(hex_id, board.next_copy("57"), 0)
        for name in ("14", "15", "619"):
            assert board.tile_def(name).label is None
            assert U.upgrade_problem(board, hex_id, board.tile_def(name), game.track_rules) is None
        assert not any(board.tile_def(n).color is Color.GREEN and board.tile_def(n).label == "L"
                       for n in board.manifest)


@pytest.mark.parametrize("compat", [False, True])
def test_the_lay_offers_hold_the_grey_plain_tiles_the_rules_allow(compat: bool) -> None:
    """The lay offer of a brown plain hex never holds #169 where the rulebook asks for
    #60 (RB 5.7.35); it names the rule for #169 instead."""
    from desk18xx.engine.tiledef import Color as C
    from desk18xx.titles.g1822ca import offers as O

    game = _game(compat)
    board = game.board
    hex_id = _plain_hexes(board)[0]
    board.lay_tile(hex_id, board.next_copy("544"), 0)
    game.phase_colors = lambda: (C.YELLOW, C.GREEN, C.BROWN, C.GRAY)  # type: ignore[method-assign]
    game.cash["CPR"] = 1000
    offer = O._hex_lay(game, O._LayKind(corp="CPR"), hex_id, frozenset(range(6)), set())
    grey = {n for n, _r in offer.tiles if board.tile_def(n).color is Color.GRAY}
    assert grey == ({"60", "169"} if compat else {"60"})
    if not compat:
        assert "RB 5.7.34" in (offer.refusal("169") or "")
