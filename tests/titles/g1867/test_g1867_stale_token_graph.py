"""18xx.games' cached "can token" after a nationalisation (issue 16).

The reference caches ``Graph#can_token?`` per company and clears the cache only
when a tile is laid (``Tracker#lay_tile``) or a token placed
(``Tokener#place_token``); a nationalisation takes tokens off the board without
clearing it.  Case d42: NYC's token step found nothing in the previous OR; CNR
and GTR are nationalised (their tokens freed), no tile or token follows, and the
reference skips NYC's token step.  A recorded game holds that path, so under
``compat_18xxgames`` we follow it; by the rules NYC may token.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from desk18xx.engine.actions import PlaceToken, action_from_dict
from desk18xx.engine.game import GameSetup
from desk18xx.titles.g1867 import board as B
from desk18xx.titles.g1867.game import G1867
from desk18xx.titles.g1867.steps.track import TokenStep

CASE = Path(__file__).resolve().parents[2] / "golden" / "divergences" / \
    "d42_1867_stale_token_graph.json"


def _case() -> tuple[G1867, dict[str, Any]]:
    data = json.loads(CASE.read_text(encoding="utf-8"))
    game = G1867(GameSetup("1867", tuple((str(p["id"]), p["name"]) for p in data["players"]),
                           data["settings"]["seed"], ("compat_18xxgames",)))
    game.loading = True
    for raw in data["actions"]:
        game.process(action_from_dict(raw))
    game.loading = False
    return game, data["probe"]


def test_compat_follows_the_cached_cannot_token() -> None:
    game, probe = _case()
    assert game.legal_actions().entity == "NYC"
    assert not probe["reference_legal"]
    assert game.legal_actions().types == ("buy_train",)
    assert game.token_graph.get("NYC") is False


def test_by_the_rules_nyc_may_token() -> None:
    game, _probe = _case()
    assert game.round is not None
    step = next(s for s in game.round.steps if isinstance(s, TokenStep))
    game.config = replace(game.config, compat_18xxgames=False)
    assert step.can_token(game, "NYC")
    assert PlaceToken in step.legal(game, "NYC")


def test_a_lay_or_a_token_clears_the_cache() -> None:
    game, _probe = _case()
    assert game.token_graph
    assert game.board is not None
    free = next((h, c) for h, cities in B.all_slots(game.board)
                for c, slots in enumerate(cities) if slots and all(s is None for s in slots))
    token = game.corps["NYC"].next_token()
    assert token is not None
    game.put_token("NYC", free[0], free[1], None, token)
    assert not game.token_graph
