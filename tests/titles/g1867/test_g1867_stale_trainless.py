"""The first 8 exported after the OR's last company, whose trains all rust, while a minor
holds a train (D31; differential 1867 seeds 32022 pass50 and 32085 pass05).

Card ("Nationalization"): "A trainless major after a rust, if its president chooses."
18xx.games nationalises that last operator at once (closing the minor passes the
round's steps) and then restores its list of corporations from before the minors
closed, so the replaced object is still listed among the trainless majors; when its
turn to choose comes no action is accepted (an action naming it reaches the new
object).  ``compat_18xxgames`` follows, the card mode lets it choose.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

from desk18xx.engine.actions import Choose, Pass, action_from_dict
from desk18xx.engine.game import Game, GameSetup
from desk18xx.titles import find_title
from desk18xx.titles.g1867.game import G1867

CASE = (Path(__file__).resolve().parents[2] / "golden" / "divergences"
        / "d31_1867_grid_first_8_export_nationalises_operator.json")
LAST = 859
"""CPR's pass in Buy Trains: the OR's last action (the CN then exports the first 8)."""


def _before_last(compat: bool) -> tuple[G1867, list[dict[str, object]]]:
    data = json.loads(CASE.read_text(encoding="utf-8"))
    title = find_title(data["title"])
    options = tuple(data["settings"].get("optional_rules") or ()) + ("compat_18xxgames",)
    game: Game = title.new_game(GameSetup(
        title.id, tuple((str(p["id"]), p["name"]) for p in data["players"]),
        data["settings"]["seed"], options))
    game.loading = True
    for raw in data["actions"][:LAST]:
        game.process(action_from_dict(raw))
    game.loading = False
    assert isinstance(game, G1867)
    if not compat:
        game.config = dataclasses.replace(game.config, compat_18xxgames=False)  # type: ignore[attr-defined]
    return game, data["actions"]


def _choose_all_but(game: G1867, last: str) -> None:
    """Every trainless major before ``last`` nationalises itself."""
    while game.trainless_major and game.trainless_major[0] != last:
        who = game.trainless_major[0]
        game.process(Choose(entity=who, entity_type="corporation", choice="nationalize"))


def test_compat_lists_the_nationalised_last_operator_and_waits_for_an_undo() -> None:
    game, actions = _before_last(compat=True)
    game.process(action_from_dict(actions[LAST]))
    assert game.phase.name == "8" and game.corps["LPS"].closed
    assert not game.corps["CPR"].floated  # nationalised at once
    # CPR's replaced object, at its price after the nationalisation ($50 < CNR's, GTR's)
    assert game.trainless_major == ["CNR", "GTR", "CPR"]
    assert game.stale_trainless == {}
    _choose_all_but(game, "CPR")
    held = game.legal_actions()
    assert (held.entity, held.types) == ("CPR", ("undo",))
    assert game.legal_moves(random.Random(0)) == []
    for move in (Pass(entity="CPR", entity_type="corporation"),
                 Choose(entity="CPR", entity_type="corporation", choice="nationalize")):
        assert game.why_illegal(move) is not None


def test_card_lets_the_last_operator_choose() -> None:
    game, actions = _before_last(compat=False)
    game.process(action_from_dict(actions[LAST]))
    assert game.phase.name == "8" and game.corps["LPS"].closed
    assert game.corps["CPR"].floated and "CPR" in game.trainless_major
    _choose_all_but(game, "CPR")
    assert game.trainless_major == ["CPR"]
    assert game.legal_actions().entity == "CPR"
    assert game.why_illegal(Pass(entity="CPR", entity_type="corporation")) is None
    game.process(Pass(entity="CPR", entity_type="corporation"))
    assert game.corps["CPR"].floated and not game.trainless_major
