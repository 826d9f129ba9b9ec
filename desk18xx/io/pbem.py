"""Play by e-mail: open a friend's file, see what they did, send yours (no Qt).

A PBEM game is an ordinary save passed around. Opening a friend's file
(`open_move`) checks, in order: the file itself (schema, hash chain, replay,
state digest: `desk18xx.io.replaying.open_save`); that it is the same game
(`game_identity`, the setup hash); and that its log extends the one you have
(`compare_history`): a changed, removed or reordered entry is reported as a
rewritten history with the first differing action. Then it lists what
happened since your last action, in words (`describe_action`).

`save_for_email` writes the file to attach, named after the game, the round
and the player to move (`mail_file_name`), and a short mail body.
18xx.games programmed actions (``program_share_pass`` and friends, with their
nested ``auto_actions``) travel in the log like any other entry.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from desk18xx.engine.actions import action_from_dict
from desk18xx.engine.describe import describe
from desk18xx.engine.digest import board_summary, changed_hexes
from desk18xx.engine.game import Game
from desk18xx.engine.log import RawAction
from desk18xx.io.replaying import OpenedSave, new_game, open_save, replay_log
from desk18xx.io.savechain import canonical_json
from desk18xx.io.savefile import SavedGame, SaveHeader, save_game
from desk18xx.io.transfer import acting_player, controller, header_player


class PbemError(ValueError):
    """A friend's file that is valid but does not fit the game you have."""


class DifferentGameError(PbemError):
    """The file is another game (other title, players or seed)."""


class RewrittenHistoryError(PbemError):
    """The file changes actions you already had."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index
        """0-based index of the first action that differs."""


def game_identity(header: SaveHeader) -> str:
    """The game's identity: its setup hash (same title, variant, options, players, seed)."""
    return header.identity()


class History(Enum):
    """How a friend's log relates to yours."""

    SAME = "same"
    EXTENDS = "extends"
    OLDER = "older"
    """The friend's file is a prefix of yours (an old mail)."""
    REWRITTEN = "rewritten"


@dataclass(frozen=True, slots=True)
class HistoryCheck:
    """The result of `compare_history`."""

    kind: History
    known: int
    """Entries in your log."""
    incoming: int
    """Entries in the friend's log."""
    first_difference: int | None = None
    """For REWRITTEN: index of the first entry that differs."""

    def message(self) -> str:
        """A sentence for the player."""
        match self.kind:
            case History.SAME:
                return "This file has no new actions."
            case History.EXTENDS:
                new = self.incoming - self.known
                return f"{new} new action{'' if new == 1 else 's'}."
            case History.OLDER:
                return (f"This file is older than your game: it has {self.incoming} actions, "
                        f"you have {self.known}.")
        return (f"History was rewritten: action {self.first_difference} differs from the one "
                "you have (or was removed).")


def compare_history(known: Sequence[RawAction], incoming: Sequence[RawAction]) -> HistoryCheck:
    """Compare two raw logs entry by entry (canonical JSON, as the hash chain does)."""
    for index, (ours, theirs) in enumerate(zip(known, incoming, strict=False)):
        if canonical_json(ours) != canonical_json(theirs):
            return HistoryCheck(History.REWRITTEN, len(known), len(incoming), index)
    if len(incoming) == len(known):
        return HistoryCheck(History.SAME, len(known), len(incoming))
    if len(incoming) > len(known):
        return HistoryCheck(History.EXTENDS, len(known), len(incoming))
    return HistoryCheck(History.OLDER, len(known), len(incoming))


# --- describing actions --------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Event:
    """One action in words."""

    index: int
    """0-based index in the raw log (auto actions share their parent's)."""
    player: str | None
    """The player who acted (a corporation's president); None if nobody controls it."""
    round: str
    """The round it was taken in, e.g. ``"OR 2.1"``."""
    text: str
    auto: bool = False
    """An action 18xx.games generated (programmed pass, automatic token …)."""
    hexes: tuple[str, ...] = ()
    """Hexes the action names: a tile laid, a hex token, the hexes of routes run."""
    type: str = ""
    """The action's type (``lay_tile`` …)."""


def round_label(game: Game) -> str:
    """``"SR 3"``, ``"OR 2.1"``, ``"Auction"``, ``"Merger 4"``; ``"end"`` after the game."""
    if game.finished:
        return "end"
    r = game.round
    if r is None:
        return "start"
    match r.kind.value:
        case "operating":
            return f"OR {game.turn}.{r.round_num}"
        case "stock":
            return f"SR {game.turn}"
        case "auction":
            return "Auction"
    return f"{r.kind.value.capitalize()} {game.turn}"


def describe_action(raw: RawAction, game: Game) -> str:
    """`raw` in words, for the game just before it (`desk18xx.engine.describe`)."""
    entity = str(raw.get("entity"))
    name = game.name_of(entity)
    if entity in game.corps and entity.isdigit():
        name = f"Minor {entity}"  # 1822CA numbers its minors
    try:
        action = action_from_dict(raw)
    except (ValueError, KeyError, TypeError):
        return f"{name}: {raw.get('type')}"
    return describe(action, name)


def action_hexes(raw: RawAction) -> tuple[str, ...]:
    """Hexes an action names: ``hex`` (a tile, a hex token) and the hexes of its
    routes (``routes[].hexes``, else the hexes of ``routes[].connections``)."""
    out: list[str] = []
    if isinstance(raw.get("hex"), str):
        out.append(raw["hex"])
    for route in raw.get("routes") or ():
        if not isinstance(route, dict):
            continue
        hexes = route.get("hexes")
        if not isinstance(hexes, list):
            hexes = [h for chain in route.get("connections") or () if isinstance(chain, list)
                     for h in chain]
        out += [h for h in hexes if isinstance(h, str)]
    return tuple(dict.fromkeys(out))


class _Recorder:
    """Collects `Event`s during a replay (the ``each`` hook of `replay_log`), and the
    board just after `me`'s last own action (for what changed since)."""

    def __init__(self, me: str | None = None) -> None:
        self.events: list[Event] = []
        self.me = me
        self.after_mine: dict[str, Any] | None = None
        """`board_summary` after `me`'s last own action (None: `me` has not acted)."""
        self._mine_pending = False

    def __call__(self, position: int, entry: RawAction, game: Game) -> None:
        if self._mine_pending:
            self.after_mine = board_summary(game)
            self._mine_pending = False
        label = round_label(game)
        player = header_player(game, controller(game, str(entry.get("entity"))))
        self.events.append(Event(position, player, label, describe_action(entry, game),
                                 hexes=action_hexes(entry), type=str(entry.get("type"))))
        for auto in entry.get("auto_actions") or ():
            who = header_player(game, controller(game, str(auto.get("entity"))))
            self.events.append(Event(position, who, label,
                                     describe_action(auto, game), auto=True,
                                     hexes=action_hexes(auto), type=str(auto.get("type"))))
        if self.me is not None and player == self.me:
            self._mine_pending = True

    def finish(self, game: Game) -> None:
        """After the replay: `me`'s last action may have been the last one."""
        if self._mine_pending:
            self.after_mine = board_summary(game)
            self._mine_pending = False


def describe_log(header: SaveHeader, raw: Sequence[RawAction]) -> tuple[list[Event], Game]:
    """Every live action of `raw` in words, and the game they lead to (chat left out)."""
    recorder = _Recorder()
    replayed = replay_log(header, raw, each=recorder)
    return recorder.events, replayed.game


# --- opening a friend's file ---------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ReceivedMove:
    """A friend's file, checked against the game you have."""

    opened: OpenedSave
    history: HistoryCheck
    events: tuple[Event, ...]
    """Every live action in words."""
    new_events: tuple[Event, ...]
    """The actions you did not have (all of them for a game new to you)."""
    since_yours: tuple[Event, ...]
    """What happened after your last own action (everything if you have not acted)."""
    next_player: str | None
    """Who must act now."""
    changed_hexes: tuple[str, ...] = ()
    """Hexes whose tile or tokens changed since your last action (all changes from the
    start if you have not acted), sorted."""
    route_hexes: tuple[str, ...] = ()
    """Hexes of the routes run since your last action, in order."""

    def highlight_hexes(self) -> tuple[str, ...]:
        """Every hex touched since your last action: tiles, tokens, routes."""
        return tuple(dict.fromkeys(self.changed_hexes + self.route_hexes))


def open_move(
    path: str | Path,
    known: SavedGame | None = None,
    me: str | None = None,
    *,
    allow_rewrite: bool = False,
) -> ReceivedMove:
    """Open a friend's PBEM file and say what changed.

    Args:
        path: the received file.
        known: the game you have locally (None: first file of a game).
        me: your player id (for "since your last action").
        allow_rewrite: accept a file that changes actions you had (after
            an agreed correction); the check still reports it.

    Raises:
        SaveFormatError: the file itself is bad (`open_save`: unreadable,
            tampered, illegal action, state digest).
        DifferentGameError: the file is another game.
        RewrittenHistoryError: the file changes your history (first difference named).
    """
    recorder = _Recorder(me)
    opened = open_save(path, each=recorder)
    recorder.finish(opened.game)
    theirs = opened.saved
    if known is not None and game_identity(known.header) != game_identity(theirs.header):
        raise DifferentGameError(
            f"{path}: this is another game ({_setup_text(theirs.header)}), not yours "
            f"({_setup_text(known.header)})")
    history = compare_history(known.actions if known else (), theirs.actions)
    if history.kind is History.REWRITTEN and not allow_rewrite:
        index = history.first_difference or 0
        assert known is not None
        ours = _entry_text(known.actions, index)
        new = _entry_text(theirs.actions, index)
        raise RewrittenHistoryError(
            f"{path}: history was rewritten at action {index}: you have {ours}, "
            f"the file has {new}", index)
    events, game = recorder.events, opened.game
    start = history.known if history.kind is History.EXTENDS else len(theirs.actions)
    if known is None:
        start = 0
    mine = [i for i, e in enumerate(events) if e.player == me and not e.auto]
    since = events[mine[-1] + 1:] if mine else events
    before = recorder.after_mine if recorder.after_mine is not None else \
        board_summary(new_game(theirs.header))
    routes = tuple(dict.fromkeys(h for e in since if e.type == "run_routes" for h in e.hexes))
    return ReceivedMove(opened, history, tuple(events),
                        tuple(e for e in events if e.index >= start), tuple(since),
                        header_player(game, acting_player(game)),
                        tuple(changed_hexes(before, board_summary(game))), routes)


def _setup_text(header: SaveHeader) -> str:
    names = ", ".join(p.name for p in header.players)
    return f"{header.title}, seed {header.seed}, {names}"


def _entry_text(actions: Sequence[RawAction], index: int) -> str:
    if index >= len(actions):
        return "nothing there"
    entry = actions[index]
    return f"{entry.get('type')} by {entry.get('entity')} (id {entry.get('id')})"


def local_copy(folder: str | Path, header: SaveHeader) -> Path:
    """Where your own copy of a PBEM game is kept (``<data dir>/pbem/<identity>.d18xx``).

    `open_move` compares a friend's file with it; write it with `save_game`
    after loading a move and after sending one.
    """
    return Path(folder) / f"{game_identity(header)}{MAIL_SUFFIX}"


# --- sending -------------------------------------------------------------------------

_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9]+")
MAIL_SUFFIX = ".d18xx"
"""The app's save extension (``desk18xx.ui.app.SAVE_EXTENSION``; io does not import Qt)."""


def mail_file_name(header: SaveHeader, game: Game) -> str:
    """``1867_3f2a9c1b_OR-2-1_Bob.d18xx``: title, game, round, player to move."""
    next_id = acting_player(game)
    name = "end" if next_id is None else game.name_of(next_id)
    parts = [header.title, game_identity(header)[:8], round_label(game), name]
    return "_".join(_UNSAFE_NAME.sub("-", p).strip("-") or "x" for p in parts) + MAIL_SUFFIX


@dataclass(frozen=True, slots=True)
class MailMove:
    """What to send."""

    path: Path
    """The file written (attach it)."""
    subject: str
    body: str


def mail_text(header: SaveHeader, events: Sequence[Event], game: Game,
              sender: str | None) -> tuple[str, str]:
    """Subject and body: who moved, what, who is next."""
    next_id = acting_player(game)
    next_name = "nobody (the game is over)" if next_id is None else game.name_of(next_id)
    sender_name = game.name_of(sender) if sender else "?"
    subject = (f"{header.title} {game_identity(header)[:8]}: {round_label(game)}, "
               f"{next_name} to move")
    mine = [i for i, e in enumerate(events) if e.player == next_id and not e.auto]
    since = list(events[mine[-1] + 1:] if mine else events)
    if not since and sender is not None:  # the sender moves again: show their last turn
        others = [i for i, e in enumerate(events) if e.player != sender]
        since = list(events[others[-1] + 1:] if others else events)
    lines = [f"{sender_name} moved ({header.title}, game {game_identity(header)[:8]}).", ""]
    if since:
        lines.append("Since your last action:" if mine else "So far:")
        lines += [f"  {e.round}: {e.text}" + (" (auto)" if e.auto else "") for e in since]
    else:
        lines.append("No new actions.")
    lines += ["", f"Next: {next_name}.", "",
              "Open the attached file in desk18xx (Game > Open e-mail move):",
              "it is checked and the moves are shown."]
    return subject, "\n".join(lines) + "\n"


def save_for_email(
    folder: str | Path,
    header: SaveHeader,
    actions: Sequence[RawAction],
    state_digest: str,
    *,
    sender: str | None = None,
    notes: Mapping[str, str] | None = None,
) -> MailMove:
    """Write the file to attach (atomic, previous one kept as ``.bak``) and the mail text.

    Raises:
        ValueError: invalid header or actions; SaveWriteError: the disk refused.
    """
    events, game = describe_log(header, actions)
    path = Path(folder) / mail_file_name(header, game)
    save_game(path, header, actions, state_digest, notes=notes)
    subject, body = mail_text(header, events, game, sender)
    return MailMove(path, subject, body)
