"""The 18xx.games fixtures against the map model.

The tile lays of each fixture are applied to a :class:`Board`; each must
pass :func:`check_tile_lay` (colour order, labels, kept track, rotations,
most-exits; no phase, connection or money checks).  The 1822CA
Detroit-Duluth event is applied with the first 3-train, and at each
``run_routes`` every route's ``connections`` must resolve to track whose
stops are the recorded ``hexes`` (and ``nodes`` when present).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from maphelpers import RULES_1822CA, RULES_1867

from desk18xx.engine.data import load_title
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.log import effective_actions, with_auto_actions
from desk18xx.engine.map.board import Board
from desk18xx.engine.map.graph import PathRef
from desk18xx.engine.map.routes import Train, parse_route
from desk18xx.engine.map.upgrades import check_tile_lay, lay_tile
from desk18xx.engine.tiledef import Color

FIXTURES = Path(__file__).resolve().parents[4] / "shared" / "fixtures" / "18xx.games"
FILES = sorted(FIXTURES.glob("*/*.json")) if FIXTURES.is_dir() else []
ALL_COLORS = (Color.YELLOW, Color.GREEN, Color.BROWN, Color.GRAY)


def _title_id(title: str) -> str:
    return title.replace(" ", "-")


def _open_detroit_duluth(board: Board) -> None:
    board.remove_corp_tokens("DD")
    for hex_id in ("Q19", "Y27"):
        if hex_id in board:
            board.lay_tile(hex_id, f"DD-{hex_id}-0", 0)


def replay_routes(path: Path) -> tuple[int, list[str]]:
    data: dict[str, Any] = json.loads(path.read_text())
    title = _title_id(data["title"])
    td = load_title(title)
    board = Board(td.hexes, td.tiles)
    rules = RULES_1867 if title == "1867" else RULES_1822CA
    dd_open = False
    checked = 0
    problems: list[str] = []
    for action in with_auto_actions(effective_actions(data["actions"])):
        kind = action.get("type")
        if kind == "lay_tile":
            hex_id, tile_id, rot = action["hex"], action["tile"], int(action["rotation"])
            board.set_blockers(hex_id, [])  # the 1867 M13 blocker lifts with phase 3
            try:
                check_tile_lay(
                    board, hex_id, tile_id, rot, ALL_COLORS, rules,
                    remove_town=action["entity"] in ("P29", "P30"),
                )
            except IllegalAction as exc:
                problems.append(f"{path.name} action {action.get('id')} lay: {exc}")
            lay_tile(board, hex_id, tile_id, rot, rules)
        elif (
            kind == "buy_train"
            and title.startswith("1822CA")
            and str(action.get("train", "")).startswith("3-")
            and not dd_open
        ):
            _open_detroit_duluth(board)
            dd_open = True
        elif kind == "run_routes":
            used: list[PathRef] = []
            for raw in action["routes"]:
                where = f"{path.name} action {action.get('id')} train {raw['train']}"
                route = None
                # E-trains may share track with other trains (an overlap group the
                # title defines), so retry without the other routes' track.
                for taken in (used, []):
                    try:
                        route = parse_route(
                            board,
                            Train(raw["train"], "x", 99, local=True),
                            raw["connections"],
                            corp=action["entity"],
                            phase_colors=(Color.YELLOW,),
                            nodes=raw.get("nodes", ()),
                            used=taken,
                            require_token=False,
                        )
                        break
                    except IllegalAction as exc:
                        error = exc
                if route is None:
                    problems.append(f"{where}: {error}")
                    continue
                used.extend(route.paths)
                checked += 1
                got_hexes = Counter(s.hex for s in route.visits)
                if "hexes" in raw and got_hexes != Counter(raw["hexes"]):
                    problems.append(f"{where}: stops {dict(got_hexes)} != {raw['hexes']}")
                # Local runs: without the tokens we cannot tell which city it uses.
                if raw.get("nodes") and not route.is_local and (
                    set(route.node_signatures()) != set(raw["nodes"])
                ):
                    problems.append(f"{where}: nodes {route.node_signatures()} != {raw['nodes']}")
    return checked, problems


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_recorded_lays_and_routes(path: Path) -> None:
    checked, problems = replay_routes(path)
    assert checked > 0
    assert problems == []
