"""Read a game exported from 18xx.games (JSON; export-format doc §1–§3).

`load_export` checks the file's shape, maps the title to our spelling, works
out the seed the reference engine would use, and filters the action log with
`desk18xx.engine.log.filter_log`. It does not replay anything: the result is
the input of ``replay(new_game(...), imported.actions)``.

Every problem is an `ExportFormatError` naming the file, the place in it
(``players[2].id``, ``actions[41].type``) and what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, NoReturn

from desk18xx.engine.ids import PlayerId
from desk18xx.engine.log import LogError, RawAction, filter_log, with_auto_actions
from desk18xx.engine.rng import seed_from
from desk18xx.io import filereader
from desk18xx.titles import TITLES as REGISTRY

TITLES: Final[dict[str, str]] = {t.reference_title: t.id for t in REGISTRY.values()}
"""18xx.games ``title`` -> our title id (from the one registry, `desk18xx.titles.TITLES`)."""

PLAYER_RANGE: Final[dict[str, range]] = {
    t.id: range(t.min_players, t.max_players + 1) for t in REGISTRY.values()}
"""Player counts per title (18xx ``meta.rb`` ``PLAYER_RANGE``)."""

MAX_EXPORT_BYTES: Final = 64 * 1024 * 1024
"""Larger files are refused before parsing (the biggest known export is ~2 MB)."""

MAX_NAME_CHARS: Final = 200
"""Longest player name (18xx.games user names are much shorter)."""
MAX_STRING_CHARS: Final = 100_000
"""Longest string anywhere in an export (chat messages included)."""


class ExportFormatError(ValueError):
    """An 18xx.games export that cannot be imported.

    The message reads ``"<file>: <where>: <problem>"``.
    """

    def __init__(self, source: str, where: str, problem: str) -> None:
        super().__init__(f"{source}: {where}: {problem}")
        self.source = source
        """The file (or other source) being read."""
        self.where = where
        """The place in it, e.g. ``"actions[41].type"``; ``"(file)"`` for the file itself."""
        self.problem = problem


@dataclass(frozen=True, slots=True)
class ImportedPlayer:
    """One seat, in the export's seating order."""

    id: PlayerId
    """The export's player id as a string (``"4661"``), as in ``result`` keys."""
    name: str


@dataclass(frozen=True, slots=True)
class ImportedGame:
    """Everything needed to replay an export, and what it should end with."""

    title: str
    """Our title id: ``"1867"``, ``"1822CA"``, ``"1822CA-ERS"`` or ``"1822CA-WRS"``."""
    export_title: str
    """The title as written in the file, e.g. ``"1822CA ERS"``."""
    game_id: int | str | None
    """The export's ``id`` (informational)."""
    players: tuple[ImportedPlayer, ...]
    """Seating order at game start."""
    seed: int
    """The seed the reference engine uses (settings.seed, else digits of the id)."""
    optional_rules: tuple[str, ...]
    actions: tuple[RawAction, ...]
    """Live actions after undo/redo filtering, chat excluded, file order; nested
    ``auto_actions`` are kept inside their parent."""
    messages: tuple[RawAction, ...]
    """Chat messages (never part of the rules stream)."""
    raw_action_count: int
    """Number of entries in the file's ``actions`` array."""
    result: Mapping[PlayerId, int] | None
    """Recorded final scores by player id, if the file has them."""
    game_end_reason: str | None
    """Recorded end reason (``"bank"``, ``"manually_ended"``, …), if present."""

    def applied_actions(self) -> list[RawAction]:
        """`actions` with each one's ``auto_actions`` right after it: the order to apply them."""
        return list(with_auto_actions(self.actions))


def load_export(path: str | Path) -> ImportedGame:
    """Read and check an 18xx.games export file.

    Args:
        path: the ``.json`` file.

    Returns:
        The imported game.

    Raises:
        ExportFormatError: unreadable, too large, not JSON, or not an export
            of a title we play; the message says where and why.
    """
    return parse_export(read_export_json(path), str(path))


def read_export_json(path: str | Path) -> Any:
    """The decoded JSON of an export file, through the one file reader
    (`desk18xx.io.filereader`): regular files only, at most `MAX_EXPORT_BYTES`,
    UTF-8 (a byte order mark is dropped), NaN, infinities and over-long
    integers refused.

    Raises:
        ExportFormatError: see `load_export`.
    """
    source = str(path)
    try:
        text = filereader.read_text(path, MAX_EXPORT_BYTES, what="exports", bom=True)
    except filereader.FileRefused as error:
        raise ExportFormatError(source, "(file)", error.problem) from error
    return _decode(text, source)


def parse_export_text(text: str, source: str = "<export>") -> ImportedGame:
    """Like `load_export`, for JSON text already in memory (e.g. pasted)."""
    return parse_export(_decode(text, source), source)


def _decode(text: str, source: str) -> Any:
    if not text.strip():
        raise ExportFormatError(source, "(file)", "is empty")
    try:
        return filereader.parse_json(text)
    except json.JSONDecodeError as error:
        raise ExportFormatError(
            source, f"line {error.lineno} column {error.colno}", f"not JSON: {error.msg}"
        ) from error
    except filereader.JsonValueError as error:
        place = filereader.json_position(text, error.token)
        where = "(file)" if place is None else f"line {place[0]} column {place[1]}"
        raise ExportFormatError(source, where, f"not allowed: {error.problem}") from error
    except RecursionError as error:
        raise ExportFormatError(source, "(file)", "JSON nested too deeply") from error


def parse_export(data: Any, source: str = "<export>") -> ImportedGame:
    """Check decoded export JSON and build an `ImportedGame`.

    Raises:
        ExportFormatError: see `load_export`.
    """
    reader = _Reader(source)
    top = reader.object(data, "(top level)")
    export_title = reader.string(reader.required(top, "title", ""), "title")
    if export_title not in TITLES:
        known = ", ".join(repr(t) for t in TITLES)
        reader.fail("title", f"{export_title!r} is not a title we play (known: {known})")
    title = TITLES[export_title]
    game_id = top.get("id")
    if game_id is not None and (isinstance(game_id, bool) or not isinstance(game_id, int | str)):
        reader.fail("id", f"must be an integer or a string, not {_kind(game_id)}")

    players = _players(reader, reader.required(top, "players", ""), title)
    settings = reader.object(top.get("settings", {}), "settings")
    try:
        seed = seed_from(settings.get("seed"), game_id)
    except ValueError:
        reader.fail("settings.seed", f"must be an integer, not {settings.get('seed')!r}")
    rules = reader.array(settings.get("optional_rules") or [], "settings.optional_rules")
    optional_rules = tuple(
        reader.string(rule, f"settings.optional_rules[{i}]") for i, rule in enumerate(rules)
    )

    raw = reader.array(reader.required(top, "actions", ""), "actions")
    _check_actions(reader, raw)
    _check_strings(reader, top)
    try:
        filtered = filter_log(raw)
    except LogError as error:
        reader.fail(f"actions[{error.position}]", error.problem)

    return ImportedGame(
        title=title,
        export_title=export_title,
        game_id=game_id,
        players=players,
        seed=seed,
        optional_rules=optional_rules,
        actions=filtered.actions,
        messages=filtered.messages,
        raw_action_count=len(raw),
        result=_result(reader, top.get("result"), players),
        game_end_reason=(
            None
            if top.get("game_end_reason") is None
            else reader.string(top["game_end_reason"], "game_end_reason")
        ),
    )


def _players(reader: _Reader, value: Any, title: str) -> tuple[ImportedPlayer, ...]:
    entries = reader.array(value, "players")
    allowed = PLAYER_RANGE[title]
    if len(entries) not in allowed:
        reader.fail(
            "players",
            f"{title} is for {allowed.start}-{allowed.stop - 1} players, not {len(entries)}",
        )
    players: list[ImportedPlayer] = []
    for i, entry in enumerate(entries):
        where = f"players[{i}]"
        player = reader.object(entry, where)
        name = reader.string(reader.required(player, "name", where), f"{where}.name",
                             MAX_NAME_CHARS)
        raw_id = player.get("id", name)
        if isinstance(raw_id, bool) or not isinstance(raw_id, int | str):
            reader.fail(f"{where}.id", f"must be an integer or a string, not {_kind(raw_id)}")
        if isinstance(raw_id, str):
            reader.string(raw_id, f"{where}.id", MAX_NAME_CHARS)
        player_id = PlayerId(str(raw_id))
        if any(p.id == player_id for p in players):
            reader.fail(f"{where}.id", f"{player_id!r} is used by two players")
        players.append(ImportedPlayer(player_id, name))
    return tuple(players)


def _check_actions(reader: _Reader, raw: list[Any]) -> None:
    for i, value in enumerate(raw):
        where = f"actions[{i}]"
        action = reader.object(value, where)
        reader.string(reader.required(action, "type", where), f"{where}.type")
        action_id = reader.required(action, "id", where)
        if isinstance(action_id, bool) or not isinstance(action_id, int):
            reader.fail(f"{where}.id", f"must be an integer, not {_kind(action_id)}")
        nested = reader.array(action.get("auto_actions") or [], f"{where}.auto_actions")
        for j, child in enumerate(nested):
            child_where = f"{where}.auto_actions[{j}]"
            child_action = reader.object(child, child_where)
            reader.string(
                reader.required(child_action, "type", child_where), f"{child_where}.type"
            )


MAX_MESSAGE_CHARS: Final = 10_000
"""Longest chat message."""
MAX_DEPTH: Final = 64
"""Deepest nesting of arrays and objects (an export needs 7)."""


def _check_strings(reader: _Reader, top: dict[str, Any]) -> None:
    """Refuse any string longer than `MAX_STRING_CHARS` (a chat message longer
    than `MAX_MESSAGE_CHARS`) and nesting deeper than `MAX_DEPTH`, naming the place."""
    stack: list[tuple[Any, str, int]] = [(top, "", 0)]
    while stack:
        node, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            reader.fail(where[:80], f"is nested more than {MAX_DEPTH} levels deep")
        items = node.items() if isinstance(node, dict) else enumerate(node) \
            if isinstance(node, list) else ()
        for key, child in items:
            place = f"{where}[{key}]" if isinstance(key, int) else \
                f"{where}.{key}" if where else str(key)
            if isinstance(child, dict | list):
                stack.append((child, place, depth + 1))
            elif isinstance(child, str) and len(child) > MAX_MESSAGE_CHARS:
                reader.string(child, place, MAX_MESSAGE_CHARS if key == "message"
                              else MAX_STRING_CHARS)
            if isinstance(key, str) and len(key) > MAX_NAME_CHARS:
                reader.fail(place[:80], f"is a key of {len(key)} characters; at most "
                            f"{MAX_NAME_CHARS} are allowed")


def _result(
    reader: _Reader, value: Any, players: tuple[ImportedPlayer, ...]
) -> dict[PlayerId, int] | None:
    if value is None:
        return None
    scores = reader.object(value, "result")
    known = {p.id for p in players}
    result: dict[PlayerId, int] = {}
    for key, score in scores.items():
        if key not in known:
            reader.fail(f"result.{key}", "is not one of the players' ids")
        if isinstance(score, bool) or not isinstance(score, int):
            reader.fail(f"result.{key}", f"must be an integer, not {_kind(score)}")
        result[PlayerId(key)] = score
    return result


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
             int: "an integer", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


class _Reader:
    """Type checks that raise `ExportFormatError` with the file and the place."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, problem: str) -> NoReturn:
        raise ExportFormatError(self.source, where, problem)

    def required(self, mapping: Mapping[str, Any], key: str, where: str) -> Any:
        if key not in mapping:
            place = f"{where}.{key}" if where else key
            self.fail(place, "is missing")
        return mapping[key]

    def object(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(where, f"must be an object, not {_kind(value)}")
        return value

    def array(self, value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            self.fail(where, f"must be an array, not {_kind(value)}")
        return value

    def string(self, value: Any, where: str, limit: int = MAX_STRING_CHARS) -> str:
        if not isinstance(value, str):
            self.fail(where, f"must be a string, not {_kind(value)}")
        if len(value) > limit:
            self.fail(where, f"is a string of {len(value)} characters; at most {limit} are "
                      "allowed")
        return value
