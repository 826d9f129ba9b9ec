"""Move a game between 18xx.games exports (JSON) and desk18xx saves (YAML).

`save_from_export` reads an export, replays it through our engine and gives
what `desk18xx.io.savefile.save_game` needs; the whole raw log is kept
(undo, redo and chat included, every 18xx.games field as written), so
exporting again gives back the same actions. `export_document` builds an
18xx.games export (../shared/reference/18xx-games-export-format.md §1) from a
save: the file format 18xx.games' hotseat import and our importer read.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from desk18xx.engine.game import Game
from desk18xx.engine.log import RawAction
from desk18xx.io.filereader import FileKind, kind_of
from desk18xx.io.import_18xxgames import (
    TITLES,
    ExportFormatError,
    ImportedGame,
    parse_export,
    read_export_json,
)
from desk18xx.io.replaying import Replayed, replay_log
from desk18xx.io.savefile import SaveHeader
from desk18xx.io.study import IMPORT_OPTIONS

EXPORT_TITLES: dict[str, str] = {ours: theirs for theirs, ours in TITLES.items()}
"""Our title id -> 18xx.games title (``"1822CA-ERS"`` -> ``"1822CA ERS"``)."""

ROUND_NAMES: dict[str, str] = {
    "auction": "Auction Round", "stock": "Stock Round", "operating": "Operating Round",
    "merger": "Merger Round",
}
"""Our round kinds -> 18xx.games round names (the export's informational ``round``)."""


@dataclass(frozen=True, slots=True)
class ConvertedGame:
    """An 18xx.games export, replayed and ready to be saved."""

    imported: ImportedGame
    header: SaveHeader
    actions: tuple[RawAction, ...]
    """The export's whole ``actions`` array, as written."""
    replayed: Replayed


def save_from_export(path: str | Path) -> ConvertedGame:
    """Read an 18xx.games export and replay it with our rules.

    Raises:
        ExportFormatError: the file is not an export of a title we play, or an
            action is illegal (``where`` is ``actions[i]``, the engine's reason
            follows); nothing is written either way.
        KeyError: the title's rules are not available in this build.
    """
    data = read_export_json(path)  # read once: what is checked is what is replayed
    imported = parse_export(data, str(path))  # all shape checks and messages
    raw = data["actions"]
    header = _header_from_export(SaveHeader.from_import(imported))
    replayed = replay_log(header, raw)
    if replayed.failure is not None:
        failure = replayed.failure
        raise ExportFormatError(str(path), f"actions[{failure.index}]", failure.describe())
    return ConvertedGame(imported, header, tuple(raw), replayed)


CARD_RULES_MARK = "desk18xx_card_rules"
"""Written to ``settings.optional_rules`` when a game played in desk18xx by the
rules card (without ``compat_18xxgames``) is exported; 18xx.games ignores unknown
rule names, and `save_from_export` then keeps the card rules, so the game
comes back as it was."""


def _header_from_export(header: SaveHeader) -> SaveHeader:
    """Play an export by 18xx.games' rules, unless desk18xx wrote it from a card-rules game."""
    if CARD_RULES_MARK in header.options:
        return replace(header, options=tuple(o for o in header.options
                                             if o != CARD_RULES_MARK))
    return replace(header, options=header.options + tuple(
        o for o in IMPORT_OPTIONS if o not in header.options))


def _export_options(header: SaveHeader) -> list[str]:
    """`settings.optional_rules` for `header`: the inverse of `_header_from_export`."""
    if all(o in header.options for o in IMPORT_OPTIONS):
        return [o for o in header.options if o not in IMPORT_OPTIONS]
    return [*header.options, CARD_RULES_MARK]


def looks_like_export(path: str | Path) -> bool:
    """True when the file starts like JSON (an export), False for anything else (a save):
    `desk18xx.io.filereader.kind_of`, the detection the app uses too.

    Raises:
        desk18xx.io.filereader.FileRefused: not a regular file, or unreadable.
    """
    return kind_of(path) is FileKind.EXPORT


def _json_id(value: str) -> int | str:
    """18xx.games writes numeric player ids as integers."""
    return int(value) if value.lstrip("-").isdigit() else value


def game_id(header: SaveHeader) -> str:
    """A stable id for a game: ``desk18xx-`` and its identity (the setup hash)."""
    return "desk18xx-" + header.identity()


def controller(game: Game, entity: str) -> str | None:
    """The player behind `entity` now: itself, a corporation's president or a
    company's owner; otherwise the player whose turn it is in the round (a
    corporation being started, before its president is recorded)."""
    if game.is_player(entity):
        return entity
    owner = game.president(entity) or game.owner(entity) if entity in game.corps else None
    company = game.companies.get(entity)
    if owner is None and company is not None and company.owner not in (None, entity):
        owner = controller(game, str(company.owner))
    if owner is None and game.round is not None and game.round.entities:
        turn = game.round.entities[game.round.entity_index % len(game.round.entities)]
        owner = turn if game.is_player(turn) else None
    return owner


def header_player(game: Game, player: str | None) -> str | None:
    """The save file's id of a player the game names by its own id: 1822CA plays its
    players as ``"player:1"`` (``G1822CA.player_alias``); the header says ``"1"``."""
    unalias = getattr(game, "player_unalias", None)  # the 1822CA games' renaming only
    if player is None or not isinstance(unalias, dict):
        return player
    return str(unalias.get(player, player))


def acting_player(game: Game) -> str | None:
    """The player who must act now (None when the game is over)."""
    entity = game.legal_actions().entity
    return None if entity is None else controller(game, entity)


def export_document(header: SaveHeader, actions: Sequence[RawAction],
                    game: Game) -> dict[str, Any]:
    """The 18xx.games export of a saved game whose actions lead to `game`.

    Raises:
        KeyError: the title has no 18xx.games name.
    """
    kind = game.round_kind()
    acting = header_player(game, acting_player(game))
    document: dict[str, Any] = {
        "id": game_id(header),
        "title": EXPORT_TITLES[header.title],
        "description": "",
        "players": [{"id": _json_id(p.id), "name": p.name} for p in header.players],
        "settings": {"seed": header.seed, "optional_rules": _export_options(header)},
        "status": "finished" if game.finished else "active",
        "turn": game.turn,
        "round": "" if kind is None else ROUND_NAMES.get(kind.value, kind.value),
        "acting": [] if acting is None or game.finished else [_json_id(acting)],
        "loaded": True,
        "mode": "hotseat",
        "actions": [_reference_ids(dict(a), game) for a in actions],
    }
    if game.finished:
        document["result"] = dict(game.result())
        document["game_end_reason"] = game.end_reason
    return document


def _reference_ids(action: dict[str, Any], game: Game) -> dict[str, Any]:
    """`action` with its city named as 18xx.games names it: saves of desk18xx 0.1.0
    named a 1867 city on a printed tile ``"E15-0-0"`` for 18xx.games' ``"E15-3-0"``
    (`Game.reference_city_id`); other ids stay."""
    city = action.get("city")
    if isinstance(city, str):
        action["city"] = game.reference_city_id(city)
    return action


def export_text(header: SaveHeader, actions: Sequence[RawAction], game: Game) -> str:
    """`export_document` as JSON text (UTF-8, one line per action for readable diffs)."""
    document = export_document(header, actions, game)
    body = ",\n".join(json.dumps(a, ensure_ascii=False) for a in document.pop("actions"))
    head = json.dumps(document, ensure_ascii=False, indent=1)
    return head[:-2] + ',\n "actions": [\n' + body + "\n ]\n}\n"
