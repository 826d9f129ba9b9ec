"""Study files: a save holding the whole variation tree (format 2; docs/save-format.md).

A study file is an ordinary save whose ``actions`` are the main line (so any
reader of plain games can replay it) plus a ``study`` section with every node
of the tree: its id, its parent's id, its action, a hash, and the optional
name, note, marks and state digest. Node hashes extend the save's hash chain
into a tree: ``hash = link(parent's hash, action)``, the root's hash being
``setup_hash``; an edited, moved or re-parented action is reported by node.
Names, notes, marks and digests are outside the hash, like player notes.

- `save_study` / `load_study`: the whole tree with notes.
- `export_line`: one line as a plain game file (for hot-seat or PBEM).
- `study_from_export`: a study from an 18xx.games export; actions that were
  taken back in the recorded game become variations. Its header adds
  `IMPORT_OPTIONS` so the game is played by 18xx.games' rules.
- A plain game (either format) loads as a study too (`load_study`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from desk18xx.engine.game import GameSetup
from desk18xx.engine.log import LogError, effective_actions
from desk18xx.engine.variations import (
    ROOT_ID,
    Node,
    TreeError,
    VariationTree,
    action_key,
    tree_from_log,
)
from desk18xx.io.import_18xxgames import ExportFormatError, parse_export, read_export_json
from desk18xx.io.savechain import link_hash
from desk18xx.io.savefile import (
    SavedGame,
    SaveFormatError,
    SaveHeader,
    TamperedSaveError,
    load_save,
    save_game,
)

IMPORT_OPTIONS: Final = ("compat_18xxgames",)
"""Options an imported game is played with: the rules as 18xx.games applies them
(see ``desk18xx replay``), so the recorded game replays to its result."""


def game_setup(header: SaveHeader) -> GameSetup:
    """The engine's setup for a save header."""
    return GameSetup(header.title, tuple((p.id, p.name) for p in header.players), header.seed,
                     header.options, header.variant)


@dataclass(frozen=True, slots=True)
class LoadedStudy:
    """A study read from a file."""

    saved: SavedGame
    """The save itself (header, main-line actions, player notes, versions)."""
    tree: VariationTree
    """The variation tree (one line for a plain game)."""

    @property
    def header(self) -> SaveHeader:
        """How the game was set up."""
        return self.saved.header


LINE_MAIN: Final = "main"
"""``study.line`` default: ``actions`` is the tree's main line (a study file)."""
LINE_CURRENT: Final = "current"
"""``study.line`` of an autosave: ``actions`` is the log of the line being played
(undo and redo entries included), ending at ``study.current``."""

NodeHashCache = dict[int, tuple[str, object, str]]
"""Node id -> (parent's hash, the action object, the node's hash): `study_section`
rehashes only nodes that are new or changed since the last call (autosave)."""


def study_section(header: SaveHeader, tree: VariationTree, *, line: str = LINE_MAIN,
                  cache: NodeHashCache | None = None) -> dict[str, Any]:
    """The ``study`` section of a save: the tree's plain data with node hashes.

    Args:
        line: which line of the tree the save's ``actions`` hold (`LINE_MAIN`,
            written as no key, or `LINE_CURRENT`).
        cache: keeps node hashes between calls (only new nodes are hashed).
    """
    data = tree.to_data()
    if line != LINE_MAIN:
        data["line"] = line
    hashes: dict[int, str] = {ROOT_ID: header.identity()}
    nodes: list[dict[str, Any]] = []
    for entry in data["nodes"]:
        parent_hash = hashes[entry["parent"]]
        known = cache.get(entry["id"]) if cache is not None else None
        if known is not None and known[0] == parent_hash and known[1] is entry["action"]:
            node_hash = known[2]
        else:
            node_hash = link_hash(parent_hash, entry["action"])
            if cache is not None:
                cache[entry["id"]] = (parent_hash, entry["action"], node_hash)
        hashes[entry["id"]] = node_hash
        nodes.append({"id": entry["id"], "parent": entry["parent"], "hash": node_hash,
                      **{k: v for k, v in entry.items() if k not in ("id", "parent")}})
    data["nodes"] = nodes
    return data


def save_study(path: str | Path, header: SaveHeader, tree: VariationTree, state_digest: str,
               *, notes: Mapping[str, str] | None = None) -> None:
    """Write the whole tree (atomically, like `save_game`).

    Args:
        state_digest: digest of the position at the end of the main line.

    Raises:
        ValueError, desk18xx.io.savefile.SaveWriteError: as `save_game`.
    """
    main = tree.main_line()
    actions = [n.action for n in main if n.action is not None]
    save_game(path, header, actions, state_digest, notes=notes,
              study=study_section(header, tree))


def export_line(path: str | Path, header: SaveHeader, tree: VariationTree, node: Node,
                state_digest: str, *, notes: Mapping[str, str] | None = None) -> None:
    """Write the line from the start to `node` as a plain game file (no study section).

    Args:
        state_digest: digest of the position at `node`.
    """
    save_game(path, header, tree.actions(node), state_digest, notes=notes)


def load_study(path: str | Path, *,
               replay_digest: Callable[[SavedGame], str] | None = None,
               check_line: bool = False) -> LoadedStudy:
    """Read a study file, or a plain game as a one-line study.

    A plain game's log keeps its undo and redo entries; what they took back
    becomes variations (see `desk18xx.engine.variations.tree_from_log`).
    `check_line`: see `study_of`.

    Raises:
        SaveFormatError: as `load_save`, or a bad ``study`` section (the
            place is ``study.nodes[i]…``; hash failures are `TamperedSaveError`),
            or a main line that differs from ``actions``.
    """
    return study_of(load_save(path, replay_digest=replay_digest), str(path),
                    check_line=check_line)


def study_of(saved: SavedGame, source: str, *, check_line: bool = False) -> LoadedStudy:
    """The variation tree of a loaded save, checked (`load_study` without reading
    the file again; ``desk18xx verify`` checks a save's study section with it, as
    the app does when it opens the file).

    Args:
        source: the file, for messages.
        check_line: also replay the line the window shows first when it is not
            the main line (``study.current`` on a variation), so that a file never
            opens cut short at an action our rules refuse (the app and ``verify``).

    Raises:
        SaveFormatError: as `load_study`.
    """
    if saved.study is None:
        try:
            tree = tree_from_log(saved.actions)
        except LogError as error:
            raise SaveFormatError(source, f"actions[{error.position}]", error.problem) from error
        return LoadedStudy(saved, tree)
    tree = _tree(saved, source)
    line = saved.study.get("line", LINE_MAIN) if saved.study is not None else LINE_MAIN
    if line == LINE_CURRENT:  # an autosave: the log of the line being played
        played, what = tree.actions(tree.current), "current line"
    elif line == LINE_MAIN:
        played = [n.action for n in tree.main_line() if n.action is not None]
        what = "main line"
    else:
        raise SaveFormatError(source, "study.line",
                              f"must be {LINE_MAIN!r} or {LINE_CURRENT!r}, not {line!r}")
    live = list(effective_actions(saved.actions))
    same = played == live if line == LINE_MAIN else (  # a replayed line has new action ids
        [action_key(a) for a in played] == [action_key(a) for a in live])
    if not same:
        raise SaveFormatError(source, "study.nodes",
                              f"the tree's {what} is not the game in 'actions'")
    if check_line and line == LINE_MAIN and not tree.current.is_main_line:
        _check_current_line(saved, tree, source)
    return LoadedStudy(saved, tree)


def _check_current_line(saved: SavedGame, tree: VariationTree, source: str) -> None:
    """The line the window shows first (``study.current``, off the main line) must
    replay whole: a file never opens cut short at an action our rules refuse."""
    from desk18xx.io.replaying import ENGINE_ERRORS, replay_log

    try:
        failure = replay_log(saved.header, tree.actions(tree.current)).failure
    except ENGINE_ERRORS:  # no game to replay at all: the main line's replay says why
        return
    if failure is not None:
        path = tree.path(tree.current)
        node = path[failure.index].id if failure.index < len(path) else "?"
        raise SaveFormatError(source, "study.current",
                              f"the line of node {tree.current.id} stops at node {node}: "
                              f"{failure.describe()}")


def _tree(saved: SavedGame, source: str) -> VariationTree:
    study = saved.study
    assert study is not None
    nodes = study.get("nodes")
    if not isinstance(nodes, list):
        raise SaveFormatError(source, "study.nodes", "must be a list")
    hashes: dict[int, str] = {ROOT_ID: saved.header.identity()}
    for index, entry in enumerate(nodes):
        where = f"study.nodes[{index}]"
        if not isinstance(entry, dict):
            raise SaveFormatError(source, where, "must be a mapping")
        for key, kind in (("id", int), ("parent", int), ("hash", str), ("action", dict)):
            value = entry.get(key)
            if key not in entry:
                raise SaveFormatError(source, f"{where}.{key}", "is missing")
            if isinstance(value, bool) or not isinstance(value, kind):
                raise SaveFormatError(source, f"{where}.{key}", f"must be {kind.__name__}")
        parent_hash = hashes.get(entry["parent"])
        if parent_hash is None:
            raise SaveFormatError(source, f"{where}.parent",
                                  f"no earlier node {entry['parent']} (nodes are parents first)")
        if link_hash(parent_hash, entry["action"]) != entry["hash"]:
            raise TamperedSaveError(
                source, where,
                f"fails the hash chain: node {entry['id']} (action id "
                f"{entry['action'].get('id')!r}) was edited or moved to another parent", index)
        hashes[entry["id"]] = entry["hash"]
    try:
        return VariationTree.from_data(study)
    except TreeError as error:
        raise SaveFormatError(source, "study", str(error)) from error


def study_from_export(path: str | Path, *, check: bool = True
                      ) -> tuple[SaveHeader, VariationTree]:
    """A study from an 18xx.games export: the recorded game is the main line, and
    the actions its players took back are variations where they were played.

    Args:
        check: replay the game first: an export with an action our rules refuse
            is refused whole (as ``desk18xx import`` and ``replay`` refuse it),
            never opened cut short.

    Raises:
        ExportFormatError: as `load_export`, or an illegal action (``where`` is
            ``actions[i]``, the engine's reason follows).
    """
    source = str(path)
    data = read_export_json(path)  # read once: what is checked is what is opened
    imported = parse_export(data, source)
    raw = data["actions"]
    try:
        tree = tree_from_log(raw)
    except LogError as error:  # load_export already filtered it; kept for safety
        raise ExportFormatError(str(path), f"actions[{error.position}]", error.problem) \
            from error
    if tree.actions(tree.main_line()[-1] if tree.main_line() else tree.root) != \
            [dict(a) for a in imported.actions]:
        raise ExportFormatError(str(path), "actions", "the study's main line differs from "
                                "the game's live actions")
    header = SaveHeader.from_import(imported)
    extra = tuple(o for o in IMPORT_OPTIONS if o not in header.options)
    header = replace(header, options=header.options + extra)
    if check:
        from desk18xx.io.replaying import replay_log

        try:
            failure = replay_log(header, raw).failure
        except KeyError as error:
            raise ExportFormatError(source, "title", f"the rules of {header.title} are not "
                                    f"available in this version of desk18xx ({error})") \
                from error
        if failure is not None:  # refused whole, as ``desk18xx import`` refuses it
            raise ExportFormatError(source, f"actions[{failure.index}]", failure.describe())
    return header, tree


__all__ = [
    "IMPORT_OPTIONS",
    "LINE_CURRENT",
    "LINE_MAIN",
    "NodeHashCache",
    "LoadedStudy",
    "export_line",
    "game_setup",
    "load_study",
    "save_study",
    "study_from_export",
    "study_of",
    "study_section",
]
