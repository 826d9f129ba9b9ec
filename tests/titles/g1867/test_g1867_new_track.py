"""The new-track rule for lays (18xx.games ``Tracker#check_track_restrictions!``,
``:semi_restrictive``): a lay must give the company new track or change a city value."""

from __future__ import annotations

import pytest
from g1867_helpers import replay_prefix

from desk18xx.engine.actions import LayTile
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.map.tiles import geometry
from desk18xx.engine.map.upgrades import new_track_paths
from desk18xx.titles.g1867 import board as B
from desk18xx.titles.g1867.steps.track import Track


def test_an_upgrade_whose_new_track_the_company_cannot_reach_is_refused() -> None:
    # 21268.json action 142: CA lays track; N8 holds tile 7 (a sharp curve) at rotation 1.
    game = replay_prefix("21268.json", 142)
    board = game.board
    assert board is not None and board.hex("N8").tile.name == "7"
    old = board.hex("N8")
    tile = board.manifest["18"].tile
    # tile 18 at rotation 0 keeps the curve and adds a straight: new track, but not
    # track CA's network reaches once it is laid
    gains = new_track_paths(old.geo, geometry(tile, 0))
    assert gains and not B.gives_new_track(board, "CA", "N8", tile, "18-0", 0)
    version_before = board.version
    step = game.round.active_step(game) if game.round else None
    assert isinstance(step, Track)
    offered = dict(step.legal_tiles(game, "CA", "N8"))
    assert 0 not in offered.get("18-0", [])
    with pytest.raises(IllegalAction, match="must give CA new track or change a city value"):
        game.process(LayTile(entity="CA", hex="N8", tile="18-0", rotation=0))
    # the trial lay left the board alone
    assert board.version == version_before and board.hex("N8") is old
    assert "18-0" not in B.laid_tiles(board)
    # every rotation offered is accepted
    rot = offered["29-0"][0]
    game.process(LayTile(entity="CA", hex="N8", tile="29-0", rotation=rot))
    assert board.hex("N8").tile.name == "29"


def test_an_upgrade_changing_only_a_city_value_is_accepted() -> None:
    # 21268.json action 458: CPR lays track; O7 holds green city tile 207 at rotation 5.
    game = replay_prefix("21268.json", 458)
    board = game.board
    assert board is not None and board.hex("O7").tile.name == "207"
    old = board.hex("O7")
    tile = board.manifest["801"].tile
    # brown 801 at rotation 5 has the same track; only the city's value changes
    gains = new_track_paths(old.geo, geometry(tile, 5))
    assert gains is not None and gains
    game.process(LayTile(entity="CPR", hex="O7", tile="801-0", rotation=5))
    new = board.hex("O7")
    assert new.tile.name == "801" and new.geo.exits == old.geo.exits
    old_value = max(n.revenue.flat for n in old.tile.nodes)
    assert max(n.revenue.flat for n in new.tile.nodes) > old_value


def test_a_stored_game_replays_a_lay_without_new_track() -> None:
    # 18xx.games skips the rule while loading a game; so does a replay of our logs
    game = replay_prefix("21268.json", 142)
    game.loading = True
    game.process(LayTile(entity="CA", hex="N8", tile="18-0", rotation=0))
    assert game.board is not None and game.board.hex("N8").tile.name == "18"


def test_the_map_view_offers_only_rotations_the_engine_accepts() -> None:
    from desk18xx.ui.models.tracks import TrackOptions  # no Qt: a plain model

    game = replay_prefix("21268.json", 142)
    step = game.round.active_step(game) if game.round else None
    assert isinstance(step, Track)
    offered = TrackOptions(game, "CA").legal("N8")
    assert offered and 0 not in offered.get("18", ())
    engine = {tid.rpartition("-")[0]: tuple(rots)
              for tid, rots in step.legal_tiles(game, "CA", "N8")}
    assert offered == engine


def test_a_saved_or_mailed_game_is_checked_against_the_rule() -> None:
    # our own saves and e-mail moves replay with every live rule on: an edited file
    # carrying a lay without new track is refused with the reason, at its index
    from pathlib import Path

    from desk18xx.io.import_18xxgames import load_export
    from desk18xx.io.replaying import replay_log
    from desk18xx.io.savefile import SavedPlayer, SaveHeader

    root = Path(__file__).resolve().parents[3].parent / "shared" / "fixtures" / "18xx.games"
    imported = load_export(root / "1867" / "21268.json")
    header = SaveHeader("1867", tuple(SavedPlayer(p.id, p.name) for p in imported.players),
                        imported.seed, options=("compat_18xxgames",))
    raw = [dict(a, id=i + 1) for i, a in enumerate(imported.actions[:142])]
    assert replay_log(header, raw).failure is None
    bad = {"type": "lay_tile", "entity": "CA", "entity_type": "corporation",
           "hex": "N8", "tile": "18-0", "rotation": 0, "id": 143}
    replayed = replay_log(header, [*raw, bad])
    assert replayed.failure is not None and replayed.failure.index == 142
    assert "new track" in replayed.failure.reason
