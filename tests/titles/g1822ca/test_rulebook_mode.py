"""Rulebook mode against ``compat_18xxgames`` (docs/rules-notes.md, 1822CA table)."""

from __future__ import annotations

import pytest

from desk18xx.engine.actions import LayTile, Pass
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import GameSetup
from desk18xx.engine.state import DEPOT
from desk18xx.titles.g1822ca.game import G1822CA
from desk18xx.titles.g1822ca.rounds import OperatingRound
from desk18xx.titles.g1822ca.steps.operating import SpecialTrack, TrackStep

SEED = 337421161


def _game(title: str, compat: bool) -> G1822CA:
    ids = tuple((str(100 + i), f"P{i}") for i in range(4))
    options = ("compat_18xxgames",) if compat else ()
    return G1822CA(GameSetup(title, ids, SEED, options))


def _depot_sevens(game: G1822CA) -> list[str]:
    return [tid for tid in game.depot if game.train_base[tid] == "7"]


@pytest.mark.parametrize("title", ["1822CA-ERS", "1822CA-WRS"])
@pytest.mark.parametrize("compat", [False, True])
def test_scenario_seven_e_supply(title: str, compat: bool) -> None:
    """RB §9: unlimited 7/E-trains; 18xx.games stocks 20 (row 9)."""
    game = _game(title, compat)
    bought = 0
    while _depot_sevens(game) and bought < 30:
        game.give_train(game.trains[_depot_sevens(game)[0]], "CPR")
        bought += 1
    if compat:
        assert bought == 20 and not _depot_sevens(game)
    else:
        assert bought == 30 and len(_depot_sevens(game)) == 1
        assert all(game.trains[t].owner == "CPR" for t in game.corps["CPR"].trains)
        assert len(set(game.corps["CPR"].trains)) == 30


def test_a_removed_depot_seven_is_replaced_in_rulebook_mode() -> None:
    game = _game("1822CA-ERS", False)
    first = _depot_sevens(game)[0]
    game.remove_train(game.trains[first])
    assert game.trains[first].owner != DEPOT
    assert len(_depot_sevens(game)) == 1 and _depot_sevens(game)[0] != first


def _grant_turn(compat: bool) -> tuple[G1822CA, OperatingRound, SpecialTrack, TrackStep,
                                        list[str]]:
    """GT floated, owning P21, at the start of its OR turn; tile lays are recorded
    (their placement rules are tested elsewhere)."""
    game = _game("1822CA", compat)
    cells = {c.price: c.coord for c in game.market.cells.values()}
    game.market.place("GT", cells[100])
    game.corps["GT"].ipoed = game.corps["GT"].floated = True
    game.shares["GT_0"].owner = "100"
    game.companies["P21"].owner = "GT"
    game.corps["GT"].companies.append("P21")
    laid: list[str] = []
    game.lay_tile = lambda corp, hex_id, *a, **k: laid.append(hex_id)  # type: ignore[method-assign]
    orr = OperatingRound(game, 1)
    special = next(s for s in orr.steps if isinstance(s, SpecialTrack))
    track = next(s for s in orr.steps if isinstance(s, TrackStep))
    return game, orr, special, track, laid


def _grant_lay(game: G1822CA, special: SpecialTrack, hex_id: str) -> None:
    special.process(game, LayTile("P21", entity_type="company", hex=hex_id, tile="8-0"))


def test_p21_keeps_unused_grant_lays_in_rulebook_mode() -> None:
    """The card: "may close this company to place three yellow tiles" (row 12)."""
    game, orr, special, track, laid = _grant_turn(compat=False)
    _grant_lay(game, special, "AF14")
    track.process(game, Pass("GT", entity_type="corporation"))
    p21 = game.companies["P21"]
    assert not p21.closed and "P21" in game.corps["GT"].companies
    orr.reset_turn()  # a later turn: the two remaining lays are still there
    assert track.ability_blocks(game, "GT")
    _grant_lay(game, special, "AF16")
    assert not p21.closed
    _grant_lay(game, special, "AG15")
    assert p21.closed and "P21" not in game.corps["GT"].companies
    assert laid == ["AF14", "AF16", "AG15"]
    assert not track.ability_blocks(game, "GT")


def test_p21_loses_unused_grant_lays_with_compat() -> None:
    """18xx.games: once one is used, P21 closes when the track step ends."""
    game, _, special, track, laid = _grant_turn(compat=True)
    _grant_lay(game, special, "AF14")
    assert not game.companies["P21"].closed
    track.process(game, Pass("GT", entity_type="corporation"))
    assert game.companies["P21"].closed and laid == ["AF14"]


@pytest.mark.parametrize("compat", [False, True])
def test_p21_refuses_a_fourth_grant_lay(compat: bool) -> None:
    game, _, special, _, laid = _grant_turn(compat)
    for hex_id in ("AF14", "AF16", "AG15"):
        _grant_lay(game, special, hex_id)
    if not compat:
        assert game.companies["P21"].closed
        assert special.legal(game, "P21") == ()
    with pytest.raises(IllegalAction, match="no grant lay left"):
        _grant_lay(game, special, "AG17")
    assert len(laid) == 3
