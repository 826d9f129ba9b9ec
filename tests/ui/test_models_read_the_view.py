"""ui/models read the game through its declared view and the offers (issue 15, Build 4):
no ``vars()``, no ``getattr``/``hasattr`` probes, no ``title_id`` branches, and no
reads of the engine's internal tables (``game.corps``, ``game.round``, ...).

A source scan (the abstract syntax tree of each file), so a new probe fails here
whether or not a test reaches the line."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

UI = Path(__file__).resolve().parents[2] / "desk18xx" / "ui"
MODELS = sorted((UI / "models").glob("*.py"))
DOCKS = [UI / "docks" / "company_sheet.py", UI / "docks" / "sandbox.py"]

PROBES = frozenset({"vars", "getattr", "hasattr"})
INTERNAL = frozenset({
    "corps", "companies", "shares", "trains", "cash", "market", "round", "depot",
    "players", "phase", "phases", "turn", "finished", "actions_applied", "setup",
    "title_id", "map", "depot_trains", "unlimited", "cert_limit", "debt", "loans_left",
    "available", "board",
})
"""Attributes of the engine's game a model must not read (the view answers them)."""
GAME_NAMES = frozenset({"game", "g", "gm", "base", "trial"})
BOARD_READERS = frozenset({"board.py", "tokens.py", "routes.py"})
"""Files that still walk the board itself (`game.board`, `game.setup.title` for the
map marks): the track shapes the map draws (issue 15, Build 1 moves 1867 onto one
board first)."""


def _on_game(call: ast.Call) -> bool:
    """True when a probe's object is the game or one of its parts (``game.round``)."""
    arg = call.args[0] if call.args else None
    while isinstance(arg, ast.Attribute):
        arg = arg.value
    return isinstance(arg, ast.Name) and arg.id in GAME_NAMES


def _problems(text: str, name: str) -> list[str]:
    """Every probe (any object in ui/models; the game's in the docks), ``title_id``
    branch and internal read of the game in the source ``text`` of file ``name``."""
    models = "/models/" in name
    tree = ast.parse(text, filename=name)
    out = []
    for node in ast.walk(tree):
        where = f"{name}:{node.lineno}" if isinstance(node, ast.expr) else name
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in PROBES and (models or _on_game(node)):
            out.append(f"{where}: {node.func.id}() probe")
        if isinstance(node, ast.Attribute):
            if node.attr == "title_id":
                out.append(f"{where}: branches on title_id")
            elif node.attr in INTERNAL and isinstance(node.value, ast.Name) \
                    and node.value.id in GAME_NAMES:
                if node.attr in ("board", "setup") and Path(name).name in BOARD_READERS:
                    continue
                out.append(f"{where}: reads {node.value.id}.{node.attr}")
    return out


@pytest.mark.parametrize("path", MODELS + DOCKS, ids=lambda p: p.name)
def test_no_probe_or_internal_read(path: Path) -> None:
    assert _problems(path.read_text(encoding="utf-8"), str(path.relative_to(UI.parent))) == []


def test_the_scan_finds_what_it_forbids() -> None:
    """The scan itself can fail: each forbidden form in a sample is reported."""
    text = ("def f(game, g):\n"
            "    a = vars(game).get('cert_limit')\n"
            "    b = getattr(game, 'attach_labels', None)\n"
            "    c = game.corps['GT']\n"
            "    d = g.round\n"
            "    e = game.title_id == '1867'\n"
            "    return game.view().players(), game.name_of('1')\n")
    found = _problems(text, "ui/models/sample.py")
    assert sorted(f.split(": ", 1)[1] for f in found) == [
        "branches on title_id", "getattr() probe", "reads g.round", "reads game.corps",
        "vars() probe"]
    docks = _problems("def f(session, game):\n    return hasattr(session, 'x'), "
                      "getattr(game.round, 'consent')\n", "ui/docks/sample.py")
    assert sorted(f.split(": ", 1)[1] for f in docks) == ["getattr() probe", "reads game.round"]
