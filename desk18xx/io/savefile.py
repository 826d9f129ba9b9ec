"""Save files: YAML, hash-chained actions, atomic writes (STYLE.md §7; docs/save-format.md).

A save holds the setup, the whole append-only action log (18xx.games field
names; undo, redo and chat entries included) and the digest of the game state
the log produces. Each action carries a short hash of the previous hash plus
its canonical JSON, so an edited, removed or reordered action is found and
reported by index. The chain detects accidents and casual edits; it is not a
signature (anyone can recompute it). The state digest, checked by replaying,
catches the rest. E-mail moves are signed as well: their ``signatures`` section
is carried here as plain data and checked by `desk18xx.io.signing`.

Reading never executes anything: the file is read by `desk18xx.io.filereader`
(regular files only, a size limit applied while reading), then parsed by a
plain-scalar YAML loader with aliases refused (`desk18xx.io.yamlio`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, NoReturn

import yaml

from desk18xx import __version__
from desk18xx.engine.log import RawAction, effective_actions
from desk18xx.io import filereader, migrations, yamlio
from desk18xx.io.atomic import write_atomic
from desk18xx.io.import_18xxgames import PLAYER_RANGE, ImportedGame
from desk18xx.io.savechain import link_hash, setup_hash

MAX_SAVE_BYTES: Final = 32 * 1024 * 1024
"""Larger files are refused before parsing (a long 1822CA game is well under 1 MB)."""


class SaveFormatError(ValueError):
    """A save that cannot be loaded. The message reads ``"<file>: <where>: <problem>"``."""

    def __init__(self, source: str, where: str, problem: str) -> None:
        super().__init__(f"{source}: {where}: {problem}")
        self.source = source
        self.where = where
        """Place in the file: ``"actions[12].action.type"``, ``"(file)"``, …"""
        self.problem = problem


class TamperedSaveError(SaveFormatError):
    """The hash chain does not match: something was edited, removed or reordered."""

    def __init__(self, source: str, where: str, problem: str, index: int | None) -> None:
        super().__init__(source, where, problem)
        self.index = index
        """0-based index of the first action that fails the chain; None for setup/end."""


class StateDigestError(SaveFormatError):
    """The actions replay to a different state than the one recorded."""


class SaveWriteError(OSError):
    """Saving failed; the previous file (if any) is untouched."""


@dataclass(frozen=True, slots=True)
class SavedPlayer:
    id: str
    """Stable player id (the 18xx.games id as a string for imported games)."""
    name: str


@dataclass(frozen=True, slots=True)
class SaveHeader:
    """How the game was set up: enough to rebuild the initial state."""

    title: str
    """Our title id: ``"1867"``, ``"1822CA"``, ``"1822CA-ERS"``, ``"1822CA-WRS"``."""
    players: tuple[SavedPlayer, ...]
    """Seating order at game start."""
    seed: int
    variant: str | None = None
    """Reserved for title variants; None for the standard game."""
    options: tuple[str, ...] = ()
    """Optional rules (18xx.games ``optional_rules`` names, e.g. ``"grid_market"``)."""

    def setup_mapping(self) -> dict[str, Any]:
        """The ``setup`` section as written in a save (what `setup_hash` hashes)."""
        return {
            "title": self.title,
            "variant": self.variant,
            "options": list(self.options),
            "players": [{"id": p.id, "name": p.name} for p in self.players],
            "seed": self.seed,
        }

    def identity(self) -> str:
        """The game's identity: `setup_hash` of the setup (title, variant, options,
        players, seed); the start of the hash chain."""
        return setup_hash(self.setup_mapping())

    @classmethod
    def from_import(cls, game: ImportedGame) -> SaveHeader:
        """The header of an imported 18xx.games game."""
        return cls(
            title=game.title,
            players=tuple(SavedPlayer(p.id, p.name) for p in game.players),
            seed=game.seed,
            options=game.optional_rules,
        )


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A loaded, verified save."""

    header: SaveHeader
    actions: tuple[RawAction, ...]
    """The raw log (undo/redo/chat included); see `effective_actions`."""
    state_digest: str
    """Digest of the state the actions lead to, as recorded by the writer."""
    app_version: str
    """The desk18xx version that wrote the file."""
    format_version: int
    """The version the file was written in (before migration)."""
    notes: Mapping[str, str] = field(default_factory=dict)
    """Player notes by player id (not part of the hash chain)."""
    study: Mapping[str, Any] | None = None
    """The ``study`` section (format 2: the variation tree), unchecked plain data;
    None for a plain game. Read it with `desk18xx.io.study.load_study`."""
    signatures: Mapping[str, Any] | None = None
    """The ``signatures`` section of a signed e-mail move, unchecked plain data; None
    for an unsigned file. Read it with `desk18xx.io.signing.parse_signatures`."""

    def effective_actions(self) -> list[RawAction]:
        """The live rules actions (undo/redo applied, chat removed)."""
        return effective_actions(self.actions)


# --- writing -------------------------------------------------------------------------

@dataclass(slots=True)
class EntryCache:
    """The written ``actions`` entries of a log, reused by the next `dump_save` of it.

    Saving a growing log after every action (autosave) then only converts
    and hashes the new actions. Entries are reused while the given actions
    equal the cached ones (compared with ``==``).
    """

    setup_hash: str = ""
    actions: list[dict[str, Any]] = field(default_factory=list)
    """The plain copies of the actions written."""
    hashes: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    study_lines: dict[int, tuple[Mapping[str, Any], str]] = field(default_factory=dict)
    """Study node id -> (the node written, its line): unchanged nodes are not redrawn."""


def _entries(first: str, actions: Sequence[RawAction],
             cache: EntryCache | None) -> tuple[list[str], list[str]]:
    """The chain hash and the text of each ``actions`` entry."""
    start = 0
    if cache is not None and cache.setup_hash == first:
        limit = min(len(cache.actions), len(actions))
        while start < limit and cache.actions[start] == actions[start]:
            start += 1
    kept = cache.actions[:start] if cache is not None else []
    hashes = cache.hashes[:start] if cache is not None else []
    lines = cache.lines[:start] if cache is not None else []
    previous = hashes[-1] if hashes else first
    for value in _plain(actions[start:], start):
        previous = link_hash(previous, value)
        kept.append(value)
        hashes.append(previous)
        lines.append(f"- hash: '{previous}'\n  action: {yamlio.flow_line(value)}\n")
    if cache is not None:
        cache.setup_hash, cache.actions, cache.hashes, cache.lines = first, kept, hashes, lines
    return hashes, lines


def _plain(actions: Sequence[RawAction], start: int = 0) -> list[dict[str, Any]]:
    """The actions as plain JSON data (tuples become lists, keys strings)."""
    plain: list[dict[str, Any]] = []
    for index, action in enumerate(actions, start):
        try:
            value = json.loads(json.dumps(action, ensure_ascii=False, allow_nan=False))
            value["type"].encode("utf-8")
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except (TypeError, ValueError, KeyError) as error:
            raise ValueError(f"actions[{index}] is not a plain JSON action: {error!r}") from error
        plain.append(value)
    return plain


def dump_save(
    header: SaveHeader,
    actions: Sequence[RawAction],
    state_digest: str,
    *,
    notes: Mapping[str, str] | None = None,
    study: Mapping[str, Any] | None = None,
    cache: EntryCache | None = None,
    signatures: Mapping[str, Any] | None = None,
) -> str:
    """The YAML text of a save.

    `study` is the ``study`` section of a study file (made by
    `desk18xx.io.study.study_section`); None writes a plain game. `cache`
    keeps the entries written, for the next save of the same growing log.
    `signatures` is the ``signatures`` section of a signed e-mail move
    (`desk18xx.io.signing.Signatures.to_data`).

    Raises:
        ValueError: an action is not plain JSON data with a string ``type``,
            or the header would not load (unknown title, player count, …).
    """
    setup = header.setup_mapping()
    try:
        _header(_Checker("<new save>"), setup)
    except SaveFormatError as error:
        raise ValueError(f"refusing to write an invalid save: {error}") from error
    first = setup_hash(setup)
    hashes, lines = _entries(first, actions, cache)
    head = {
        "format_version": migrations.CURRENT_VERSION,
        "app_version": __version__,
        "setup": setup,
        "setup_hash": first,
        "notes": {str(k): str(v) for k, v in (notes or {}).items()},
    }
    end = {"end": {"action_count": len(lines), "head": hashes[-1] if hashes else first,
                   "state_digest": state_digest}}
    parts = [yamlio.dump(head)]
    if lines:
        parts.append("actions:\n")
        parts.extend(lines)
    else:
        parts.append("actions: []\n")
    if study is not None:
        parts.append(_study_text(study, cache.study_lines if cache is not None else None))
    if signatures is not None:
        parts.append(_signatures_text(signatures))
    parts.append(yamlio.dump(end))
    return "".join(parts)


def _study_text(study: Mapping[str, Any],
                cache: dict[int, tuple[Mapping[str, Any], str]] | None = None) -> str:
    """The ``study`` section: its scalars, then one flow line per node (a node equal
    to the one `cache` holds for its id reuses that line)."""
    head = {k: v for k, v in study.items() if k != "nodes"}
    nodes = study.get("nodes") or []
    lines = ["study:\n"]
    if head:
        lines.extend("  " + line + "\n" for line in yamlio.dump(head).splitlines())
    if nodes:
        lines.append("  nodes:\n")
        for node in nodes:
            known = cache.get(node.get("id")) if cache is not None else None
            if known is not None and known[0] == node:
                lines.append(known[1])
                continue
            line = f"  - {yamlio.flow_line(dict(node))}\n"
            if cache is not None and isinstance(node.get("id"), int):
                cache[node["id"]] = (node, line)
            lines.append(line)
    else:
        lines.append("  nodes: []\n")
    return "".join(lines)


def _signatures_text(signatures: Mapping[str, Any]) -> str:
    """The ``signatures`` section: its scalars and keys, then one line per entry."""
    head = {k: v for k, v in signatures.items() if k != "moves"}
    lines = ["signatures:\n"]
    lines.extend("  " + line + "\n" for line in yamlio.dump(head).splitlines())
    moves = signatures.get("moves") or []
    lines.append("  moves:\n" if moves else "  moves: []\n")
    lines.extend("  - null\n" if move is None else f"  - {yamlio.flow_line(dict(move))}\n"
                 for move in moves)
    return "".join(lines)


def save_game(
    path: str | Path,
    header: SaveHeader,
    actions: Sequence[RawAction],
    state_digest: str,
    *,
    notes: Mapping[str, str] | None = None,
    study: Mapping[str, Any] | None = None,
    signatures: Mapping[str, Any] | None = None,
) -> None:
    """Write a save atomically; the file it replaces is kept as ``NAME.bak``.

    The text goes to a temporary file in the same folder, is flushed and
    fsynced, and replaces `path` with ``os.replace``. Until then `path` is
    untouched; if anything fails, the temporary file is removed.

    Raises:
        ValueError: invalid header or actions (nothing is written).
        SaveWriteError: the file system refused; the old file is intact.
    """
    target = Path(path)
    data = dump_save(header, actions, state_digest, notes=notes, study=study,
                     signatures=signatures).encode("utf-8")
    try:
        write_atomic(target, data, keep_backup=True)
    except OSError as error:
        raise SaveWriteError(error.errno, f"cannot save {target}: {error.strerror or error}") \
            from error


# --- reading -------------------------------------------------------------------------

def load_save(
    path: str | Path, *, replay_digest: Callable[[SavedGame], str] | None = None
) -> SavedGame:
    """Read, migrate and verify a save.

    Args:
        path: the save file.
        replay_digest: if given, replays the loaded game and returns its state
            digest, which must equal the recorded one.

    Raises:
        SaveFormatError: unreadable, too large, not text, not YAML, wrong
            schema or version (message names the place and the problem).
        TamperedSaveError: the hash chain fails; ``index`` is the first bad action.
        StateDigestError: `replay_digest` disagrees with the file.
    """
    source = str(path)
    try:  # regular files only, the limit read from the stream, UTF-8 without NUL
        text = filereader.read_text(path, MAX_SAVE_BYTES, what="saves")
    except filereader.FileRefused as error:
        raise SaveFormatError(source, "(file)", error.problem) from error
    game = _verify(_parse(text, source), source)
    if replay_digest is not None:
        actual = replay_digest(game)
        if actual != game.state_digest:
            raise StateDigestError(
                source, "end.state_digest",
                f"the actions replay to state {actual}, the file says {game.state_digest} "
                "(edited file, or the rules changed since it was saved)",
            )
    return game


def _parse(text: str, source: str) -> dict[str, Any]:
    if not text.strip():
        _fail(source, "(file)", "is empty")
    try:
        document = yamlio.load(text)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        where = f"line {mark.line + 1} column {mark.column + 1}" if mark else "(file)"
        raise SaveFormatError(source, where, f"not valid YAML: {error.problem}") from error
    except (yaml.YAMLError, RecursionError) as error:
        raise SaveFormatError(source, "(file)", f"not valid YAML: {error}") from error
    if not isinstance(document, dict):
        _fail(source, "(top level)", f"must be a mapping, not {_kind(document)}")
    version = document.get("format_version")
    if isinstance(version, bool) or not isinstance(version, int):
        _fail(source, "format_version", f"must be an integer, not {_kind(version)}"
              if "format_version" in document else "is missing (not a desk18xx save?)")
    try:
        migrated = migrations.migrate(document, version)
    except migrations.MigrationError as error:
        raise SaveFormatError(source, "format_version", str(error)) from error
    migrated["_written_as"] = version
    return migrated


def _verify(document: dict[str, Any], source: str) -> SavedGame:
    check = _Checker(source)
    app_version = check.typed(document, "app_version", str, "")
    setup = check.typed(document, "setup", dict, "")
    header = _header(check, setup)
    stored_setup_hash = check.typed(document, "setup_hash", str, "")
    notes = check.typed(document, "notes", dict, "") if "notes" in document else {}
    for player_id, text in notes.items():
        if not isinstance(text, str):
            check.fail(f"notes.{player_id}", f"must be a string, not {_kind(text)}")
    entries = check.typed(document, "actions", list, "")
    study = document.get("study")
    if study is not None:
        check.value(study, dict, "study")
    signatures = document.get("signatures")
    if signatures is not None:
        check.value(signatures, dict, "signatures")
    end = check.typed(document, "end", dict, "")
    actions: list[RawAction] = []
    hashes: list[str] = []
    for index, entry in enumerate(entries):
        where = f"actions[{index}]"
        entry = check.value(entry, dict, where)
        hashes.append(check.typed(entry, "hash", str, where))
        action = check.typed(entry, "action", dict, where)
        check.typed(action, "type", str, f"{where}.action")
        actions.append(action)
    count = check.typed(end, "action_count", int, "end")
    head = check.typed(end, "head", str, "end")
    digest = check.typed(end, "state_digest", str, "end")

    if setup_hash(setup) != stored_setup_hash:
        raise TamperedSaveError(source, "setup", "does not match setup_hash: it was edited", None)
    previous = stored_setup_hash
    for index, (action, stored) in enumerate(zip(actions, hashes, strict=True)):
        if link_hash(previous, action) != stored:
            raise TamperedSaveError(
                source, f"actions[{index}]",
                f"fails the hash chain: action {index} (id {action.get('id')!r}) or the one "
                "before it was edited, removed, inserted or moved", index,
            )
        previous = stored
    if count != len(actions):
        raise TamperedSaveError(
            source, "end.action_count",
            f"says {count} actions but the file has {len(actions)} (actions removed at the end?)",
            min(count, len(actions)),
        )
    if head != previous:
        raise TamperedSaveError(source, "end.head", "does not match the last action's hash",
                                len(actions))
    return SavedGame(
        header=header,
        actions=tuple(actions),
        state_digest=digest,
        app_version=app_version,
        format_version=document["_written_as"],
        notes={str(k): v for k, v in notes.items()},
        study=study,
        signatures=signatures,
    )


def _header(check: _Checker, setup: dict[str, Any]) -> SaveHeader:
    title = check.typed(setup, "title", str, "setup")
    if title not in PLAYER_RANGE:
        check.fail("setup.title", f"{title!r} is not a title we play")
    variant = setup.get("variant")
    if variant is not None and not isinstance(variant, str):
        check.fail("setup.variant", f"must be a string or null, not {_kind(variant)}")
    options = check.typed(setup, "options", list, "setup")
    for i, option in enumerate(options):
        check.value(option, str, f"setup.options[{i}]")
    players: list[SavedPlayer] = []
    for i, entry in enumerate(check.typed(setup, "players", list, "setup")):
        where = f"setup.players[{i}]"
        player = check.value(entry, dict, where)
        players.append(SavedPlayer(check.typed(player, "id", str, where),
                                   check.typed(player, "name", str, where)))
    allowed = PLAYER_RANGE[title]
    if len(players) not in allowed:
        check.fail("setup.players", f"{title} is for {allowed.start}-{allowed.stop - 1} players, "
                   f"not {len(players)}")
    if len({p.id for p in players}) != len(players):
        check.fail("setup.players", "two players have the same id")
    return SaveHeader(title=title, players=tuple(players), seed=check.typed(setup, "seed", int,
                      "setup"), variant=variant, options=tuple(options))


def _kind(value: Any) -> str:
    names = {dict: "a mapping", list: "a list", str: "a string", bool: "a boolean",
             int: "an integer", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _fail(source: str, where: str, problem: str) -> NoReturn:
    raise SaveFormatError(source, where, problem)


class _Checker:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, problem: str) -> NoReturn:
        _fail(self.source, where, problem)

    def value(self, value: Any, kind: type[Any], where: str) -> Any:
        if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
            self.fail(where, f"must be {_kind(kind())}, not {_kind(value)}")
        return value

    def typed(self, mapping: Mapping[str, Any], key: str, kind: type[Any], where: str) -> Any:
        place = f"{where}.{key}" if where else key
        if key not in mapping:
            self.fail(place, "is missing (file truncated?)" if key == "end" else "is missing")
        return self.value(mapping[key], kind, place)
