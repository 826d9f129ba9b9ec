"""Play by e-mail: open a friend's file, see what they did, send yours (no Qt).

A PBEM game is a save passed around, its moves signed (`desk18xx.io.signing`).
`EmailDesk` is your side at this computer: `receive` checks a friend's file
and changes nothing, `keep` stores a move you accepted, `send` signs your
moves and writes the file to attach. Receiving checks, in order: the file
itself (schema, hash chain, replay, state digest:
`desk18xx.io.replaying.open_save`); that it is your game (your copy found by
the setup hash; a file holding your moves under a changed identity, by the
stable identity, is refused); that its log extends the one you have
(`compare_history`: a changed, removed or reordered entry is a rewritten
history with the first differing action; an older file never replaces yours);
and every signature, against the keys you pinned and your own. Then it lists
what happened since your last action, in the words of the log dock (the
action's sentence, `describe_in`, and the consequences the engine narrates).

`open_move` is the same without keys, pins or your copy's lookup;
`save_for_email` writes an unsigned file (both kept for tools and tests).
Files are named after the game, the round and the player to move
(`mail_file_name`), with a short mail body (`mail_text`). 18xx.games
programmed actions (``program_share_pass`` and friends, with their nested
``auto_actions``) travel in the log like any other entry.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any

from desk18xx.engine.actions import action_from_dict
from desk18xx.engine.describe import describe_in
from desk18xx.engine.digest import board_summary, changed_hexes
from desk18xx.engine.game import Game
from desk18xx.engine.log import RawAction
from desk18xx.engine.narration import who
from desk18xx.io.paths import keys_dir, pbem_dir
from desk18xx.io.replaying import OpenedSave, new_game, open_save, replay_log
from desk18xx.io.savechain import canonical_json
from desk18xx.io.savefile import SavedGame, SaveFormatError, SaveHeader, load_save, save_game
from desk18xx.io.signing import (
    KeyStore,
    LocalKey,
    Pins,
    SignatureError,
    Signatures,
    check_signatures,
    entry_text,
    expected_signers,
    parse_signatures,
    sign_entries,
    stable_identity,
)
from desk18xx.io.transfer import acting_player, controller, header_player


class PbemError(ValueError):
    """A friend's file that is valid but does not fit the game you have."""


class DifferentGameError(PbemError):
    """The file is another game (other title, players or seed)."""


class Cancelled(Exception):  # noqa: N818 - what the user did, not a fault
    """The user stopped a receive (raised by a `progress` callback); nothing was changed."""


Progress = Callable[[int, int], None]
"""Called during a receive with (actions replayed, actions in the file; 0 when not
known yet); it may raise `Cancelled` to stop."""


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
    details: tuple[str, ...] = ()
    """What followed from it, as the engine tells it (`desk18xx.engine.narration`):
    the consequence lines the log dock shows under the action."""

    def lines(self) -> list[str]:
        """The action's sentence, then its consequences (indented)."""
        return [self.text + (" (auto)" if self.auto else ""),
                *(f"    {line}" for line in self.details)]


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
    """`raw` in words, for the game just before it: the sentence the log dock shows
    (`desk18xx.engine.describe.describe_in`: names, places)."""
    try:
        action = action_from_dict(raw)
    except (ValueError, KeyError, TypeError):
        return f"{who(game, str(raw.get('entity')))}: {raw.get('type')}"
    return describe_in(game, action)


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
    """Collects `Event`s during a replay (the ``each`` hook of `replay_log`): each
    action's sentence and the consequences the engine narrates (`Game.events`, the
    lines of the log dock), who acted, and the board just after `me`'s last own
    action (for what changed since: taken on the way when another player acts after
    `me` from raw index `since` on, usually the end of your copy, where your last
    action is; a second replay to it only when it came earlier).

    `progress` (`Progress`) is told each action replayed out of `total`."""

    def __init__(self, me: str | None = None, progress: Progress | None = None,
                 total: int = 0, since: int = 0) -> None:
        self.events: list[Event] = []
        self.me = me
        self.progress = progress
        self.total = total
        self.since = since
        self._summary_at: int | None = None
        """How many live actions lead to `after_mine` when taken on the way."""
        self.acting: dict[int, str | None] = {}
        """Raw index of each live action -> the player who acted (header id)."""
        self.after_mine: dict[str, Any] | None = None
        """`board_summary` after `me`'s last own action (None: `me` has not acted),
        set by `finish`."""
        self.live: list[RawAction] = []
        """The live actions seen, in order."""
        self.last_mine: int | None = None
        """How many live actions lead to the position after `me`'s last one."""
        self._told = 0
        """`Game.events` entries already attached."""
        self._parent: int | None = None
        """Index in `events` of the last action's own event."""
        self._previous: str | None = None
        """The player behind the last live action seen."""

    def __call__(self, position: int, entry: RawAction, game: Game) -> None:
        if self.progress is not None:
            self.progress(position, self.total)
        game.narrating = True
        self._attach(game)
        player = header_player(game, controller(game, str(entry.get("entity"))))
        if self.me is not None and self._previous == self.me and player != self.me and \
                position >= self.since:
            self.after_mine = board_summary(game)  # the board after `me`'s last action so far
            self._summary_at = len(self.live)
        self._previous = player
        self.live.append(entry)
        label = round_label(game)
        self.acting[position] = player
        self._parent = len(self.events)
        self.events.append(Event(position, player, label, describe_action(entry, game),
                                 hexes=action_hexes(entry), type=str(entry.get("type"))))
        for auto in entry.get("auto_actions") or ():
            who_ = header_player(game, controller(game, str(auto.get("entity"))))
            self.events.append(Event(position, who_, label,
                                     describe_action(auto, game), auto=True,
                                     hexes=action_hexes(auto), type=str(auto.get("type"))))
        if self.me is not None and player == self.me:
            self.last_mine = len(self.live)

    def _attach(self, game: Game) -> None:
        """Give the last action the consequence lines the engine told since."""
        told = game.events[self._told:]
        self._told = len(game.events)
        lines = tuple(line for _count, chunk in told for line in chunk)
        if lines and self._parent is not None:
            event = self.events[self._parent]
            self.events[self._parent] = replace(event, details=event.details + lines)

    def finish(self, game: Game, header: SaveHeader | None = None) -> None:
        """After the replay: the last action's consequences, and the board after
        `me`'s last action (replayed to it again with `header` when it was not
        taken on the way)."""
        self._attach(game)
        if self.last_mine is None:
            self.after_mine = None
        elif self.last_mine == len(self.live):
            self.after_mine = board_summary(game)
        elif self._summary_at != self.last_mine:
            self.after_mine = None if header is None else \
                board_summary(replay_log(header, self.live[:self.last_mine]).game)


def describe_log(header: SaveHeader, raw: Sequence[RawAction]) -> tuple[list[Event], Game]:
    """Every live action of `raw` in words, and the game they lead to (chat left out)."""
    events, game, _acting = _described_log(header, raw)
    return events, game


def _described_log(header: SaveHeader, raw: Sequence[RawAction]
                   ) -> tuple[list[Event], Game, dict[int, str | None]]:
    recorder = _Recorder()
    replayed = replay_log(header, raw, each=recorder)
    recorder.finish(replayed.game)
    return recorder.events, replayed.game, recorder.acting


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
    signers: tuple[str | None, ...] = ()
    """Who must sign each entry of the file (`desk18xx.io.signing.expected_signers`)."""
    texts: tuple[str, ...] = ()
    """Each entry of the file in words (for messages naming an action)."""
    known: SavedGame | None = None
    """Your copy it was compared with."""
    signatures: Signatures | None = None
    """The file's signatures (None: an unsigned file)."""
    pins: Mapping[str, str] = field(default_factory=dict)
    """The keys to pin once the move is loaded (`EmailDesk.keep`)."""
    new_keys: tuple[str, ...] = ()
    """Players whose key this file shows you for the first time."""

    def highlight_hexes(self) -> tuple[str, ...]:
        """Every hex touched since your last action: tiles, tokens, routes."""
        return tuple(dict.fromkeys(self.changed_hexes + self.route_hexes))


def open_move(
    path: str | Path,
    known: SavedGame | None = None,
    me: str | None = None,
    *,
    allow_rewrite: bool = False,
    progress: Progress | None = None,
    total: int = 0,
) -> ReceivedMove:
    """Open a friend's PBEM file and say what changed.

    Args:
        path: the received file.
        known: the game you have locally (None: first file of a game).
        me: your player id (for "since your last action").
        allow_rewrite: accept a file that changes actions you had (after
            an agreed correction); the check still reports it.
        progress: told each action replayed (out of `total`, the file's
            actions when known); it may raise `Cancelled`, which passes through.

    Raises:
        SaveFormatError: the file itself is bad (`open_save`: unreadable,
            tampered, illegal action, state digest).
        DifferentGameError: the file is another game.
        RewrittenHistoryError: the file changes your history (first difference named).
    """
    recorder = _Recorder(me, progress, total,
                         since=0 if known is None else max(len(known.actions) - 1, 0))
    opened = open_save(path, each=recorder)
    recorder.finish(opened.game, opened.saved.header)
    theirs = opened.saved
    if known is not None and game_identity(known.header) != game_identity(theirs.header):
        raise DifferentGameError(
            f"{path}: this is another game ({_setup_text(theirs.header)}), not yours "
            f"({_setup_text(known.header)})")
    history = compare_history(known.actions if known else (), theirs.actions)
    if history.kind is History.REWRITTEN and not allow_rewrite:
        index = history.first_difference or 0
        assert known is not None
        names = {p.id: p.name for p in theirs.header.players}
        ours = _entry_text(known.actions, index, names)
        new = next((f"{e.text} (id {theirs.actions[index].get('id')})" for e in recorder.events
                    if e.index == index and not e.auto), None) or \
            _entry_text(theirs.actions, index, names)
        raise RewrittenHistoryError(
            f"{path}: history was rewritten at action {index + 1}: you have {ours}, "
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
    players = [p.id for p in theirs.header.players]
    texts = [entry_text(entry) for entry in theirs.actions]
    for event in events:
        if not event.auto:
            texts[event.index] = event.text
    return ReceivedMove(opened, history, tuple(events),
                        tuple(e for e in events if e.index >= start), tuple(since),
                        header_player(game, acting_player(game)),
                        tuple(changed_hexes(before, board_summary(game))), routes,
                        tuple(expected_signers(theirs.actions, recorder.acting, players)),
                        tuple(texts), known)


def _setup_text(header: SaveHeader) -> str:
    names = ", ".join(p.name for p in header.players)
    return f"{header.title}, seed {header.seed}, {names}"


def _entry_text(actions: Sequence[RawAction], index: int,
                names: Mapping[str, str] | None = None) -> str:
    if index >= len(actions):
        return "nothing there"
    entry = actions[index]
    return f"{entry_text(entry, names)} (id {entry.get('id')})"


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
    unsigned: Mapping[str, int] = field(default_factory=dict)
    """Player id -> how many of their moves made at this computer (not in your copy
    before) go unsigned: they are not among the players at this computer. A
    receiver who knows their key refuses such a move."""


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
        for event in since:
            first, *rest = event.lines()
            lines.append(f"  {event.round}: {first}")
            lines += [f"  {line}" for line in rest]
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


# --- signed e-mail games: your copies, your keys, the keys you pinned ----------------------

class BadSignatureError(PbemError):
    """A move signed by the wrong player or key, changed after signing, or unsigned."""

    def __init__(self, message: str, index: int | None, player: str | None) -> None:
        super().__init__(message)
        self.index = index
        """0-based index of the entry in the file (None: the file as a whole)."""
        self.player = player


class ChangedIdentityError(PbemError):
    """Your game, sent back under another identity (seed, spelling of a name)."""


class OlderFileError(PbemError):
    """The file is older than your copy: it never replaces it."""


class UnsignedMoveError(PbemError):
    """An unsigned file for a game whose moves you have signed."""


def game_stable_identity(header: SaveHeader) -> str:
    """`desk18xx.io.signing.stable_identity` of a save header."""
    return stable_identity(header.title, [(p.id, p.name) for p in header.players],
                           header.variant, header.options)


_INDEX = "identities.json"
"""In the copies folder: file name of each copy -> its stable identity."""


class EmailDesk:
    """Your side of e-mail games at this computer: copies, keys, pins (no Qt).

    Args:
        data: the user data folder (`desk18xx.io.paths.data_dir`; tests pass a
            temporary folder): copies in ``data/pbem``, keys in ``data/keys``.

    `receive` checks a friend's file and changes nothing; `keep` stores a move
    you accepted (your copy with your own study tree, the keys pinned);
    `send` signs your moves and writes the file to attach and your copy.
    """

    def __init__(self, data: str | Path) -> None:
        self.data = Path(data)
        self.folder = pbem_dir(self.data)
        self.keys = KeyStore(keys_dir(self.data))

    # -- where things are -------------------------------------------------------------
    def copy_path(self, header: SaveHeader) -> Path:
        """Your copy of the game (`local_copy`)."""
        return local_copy(self.folder, header)

    def pins(self, header: SaveHeader) -> Pins:
        """The keys you pinned for the players of games like this one."""
        return Pins(self.folder, game_stable_identity(header))

    def known(self, header: SaveHeader) -> SavedGame | None:
        """Your copy of this very game, or None.

        Raises:
            SaveFormatError: your copy cannot be read (named).
        """
        path = self.copy_path(header)
        return load_save(path) if path.is_file() else None

    def others_like(self, header: SaveHeader, *, seats_only: bool = False
                    ) -> list[SavedGame]:
        """Your copies of games with the same title and players (same stable
        identity) but another exact identity (seed, spelling of a name); with
        `seats_only`, of every game with the same title, options and player ids
        whatever the names (a sender may rename you)."""
        def loose(h: SaveHeader) -> tuple[object, ...]:
            return (h.title, h.variant, tuple(sorted(h.options)),
                    tuple(p.id for p in h.players))

        stable, own = game_stable_identity(header), self.copy_path(header).name
        index = {} if seats_only else self._index()
        found: list[SavedGame] = []
        for path in sorted(self.folder.glob(f"*{MAIL_SUFFIX}")):
            if path.name == own or index.get(path.name, stable) != stable:
                continue
            try:
                saved = load_save(path)
            except (SaveFormatError, OSError):
                continue
            if (loose(saved.header) == loose(header)) if seats_only else \
                    game_stable_identity(saved.header) == stable:
                found.append(saved)
        return found

    def _index(self) -> dict[str, str]:
        import json

        try:
            data = json.loads((self.folder / _INDEX).read_bytes()[:1 << 20])
        except (OSError, ValueError):
            return {}
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}

    def _add_to_index(self, header: SaveHeader) -> None:
        import json

        from desk18xx.io.atomic import write_atomic

        index = self._index()
        index[self.copy_path(header).name] = game_stable_identity(header)
        write_atomic(self.folder / _INDEX, json.dumps(index, indent=1).encode("utf-8"))

    def local_keys(self, header: SaveHeader, players: Sequence[str], *, create: bool
                   ) -> dict[str, LocalKey]:
        """The keys of `players` (ids of `header`) at this computer; made on first
        use when `create`."""
        names = {p.id: p.name for p in header.players}
        out: dict[str, LocalKey] = {}
        for pid in players:
            if pid not in names:
                continue
            key = self.keys.key_for(names[pid]) if create else self.keys.find(names[pid])
            if key is not None:
                out[pid] = key
        return out

    # -- receiving --------------------------------------------------------------------
    def receive(self, path: str | Path, me: str | None, *, local: Sequence[str] = (),
                header: SaveHeader | None = None, progress: Progress | None = None,
                total: int = 0) -> ReceivedMove:
        """Check a friend's file against your copy, your keys and your pins; nothing
        is written.

        Args:
            me: your player id in the game (None: not told).
            local: further players at this computer (hot-seat), whose keys count
                as yours: a new move of theirs must carry their signature, as yours.
            header: the file's header if already read (only to find your copy: the
                file is read and checked again in full).
            progress: told each action replayed (`Progress`; out of `total`, the
                file's actions, when `header` is given); it may raise `Cancelled`.

        Raises:
            SaveFormatError: the file itself is bad (see `open_move`).
            DifferentGameError, RewrittenHistoryError, ChangedIdentityError,
            OlderFileError, BadSignatureError, UnsignedMoveError: the file does
                not fit your game; the message names the action and the player.
        """
        if header is None:
            first = load_save(path)  # schema and chain: which game is it?
            header, total = first.header, len(first.actions)
        known = self.known(header)
        move = open_move(path, known, me, progress=progress, total=total)
        if game_identity(move.opened.saved.header) != game_identity(header):
            raise PbemError(f"{path}: (file): changed while it was being read: refused")
        header = move.opened.saved.header
        saved = move.opened.saved
        names = {p.id: p.name for p in header.players}
        mine = [pid for pid in (me, *local) if pid is not None]
        try:
            keys = self.local_keys(header, mine, create=False)
        except (OSError, ValueError) as error:
            raise PbemError(f"{path}: your key cannot be read to check this file: {error}") \
                from error
        local_public = {pid: key.public for pid, key in keys.items()}
        pins_file = self.pins(header)
        try:
            pins = pins_file.load()
        except ValueError as error:
            raise PbemError(str(error)) from error
        if known is None:
            self._refuse_changed_identity(path, move, mine, names)
        history = move.history
        if history.kind is History.OLDER:
            assert known is not None
            last, ours = len(saved.actions), len(known.actions)
            raise OlderFileError(
                f"{path}: this file is older than your copy: it ends at action {last} "
                f"({_text_at(move, last - 1)}); your copy goes on to action {ours} "
                f"({entry_text(known.actions[-1], names)}). It was not loaded; your copy is kept.")
        if known is not None:
            self._refuse_taken_back(path, known, move, names)
        if saved.signatures is None:
            if (known is not None and known.signatures is not None) or pins:
                raise UnsignedMoveError(
                    f"{path}: signatures: this file is not signed, but the moves of this "
                    "game are (a file edited or made by hand?): refused")
            return move
        try:
            signatures = parse_signatures(saved.signatures, str(path), len(saved.actions),
                                          list(names))
            check = check_signatures(saved.header.setup_mapping(), saved.actions, move.signers,
                                     signatures, pins, local_public, names, move.texts,
                                     start=len(known.actions) if known is not None else 0,
                                     me=me, ours=mine)
        except SignatureError as error:
            raise BadSignatureError(_signature_place(path, error), error.index, error.player) \
                from error
        return replace(move, signatures=signatures, pins=check.keys, new_keys=check.new_pins)

    def _refuse_changed_identity(self, path: str | Path, move: ReceivedMove,
                                 mine: Sequence[str], names: Mapping[str, str]) -> None:
        """A game new to you that holds your own moves, while you have a copy of a
        game with the same players: your game under a changed identity."""
        yours = [i for i, who_ in enumerate(move.signers) if who_ in mine]
        if not yours:
            return
        header = move.opened.saved.header
        for other in self.others_like(header) or self.others_like(header, seats_only=True):
            check = compare_history(other.actions, move.opened.saved.actions)
            i = yours[0] if check.first_difference is None else check.first_difference
            differs = "" if check.first_difference is None else \
                f"; its history differs from your copy from action {i + 1} on"
            raise ChangedIdentityError(
                f"{path}: this file is your game under a changed identity "
                f"({_setup_text(other.header)} -> {_setup_text(move.opened.saved.header)})"
                f"{differs}: action {i + 1} ({_text_at(move, i)}) is "
                f"{names.get(move.signers[i] or '', '?') if i < len(move.signers) else '?'}'s. "
                "Refused; your copy is kept.")

    def _refuse_taken_back(self, path: str | Path, known: SavedGame, move: ReceivedMove,
                           names: Mapping[str, str]) -> None:
        """The file's live line must go on from yours (no undo of what you had)."""
        from desk18xx.engine.log import effective_actions

        ours = effective_actions(known.actions)
        theirs = effective_actions(move.opened.saved.actions)
        for i, action in enumerate(ours):
            if i >= len(theirs) or canonical_json(theirs[i]) != canonical_json(action):
                raise RewrittenHistoryError(
                    f"{path}: the file takes back live action {i + 1} "
                    f"({entry_text(action, names)}) that you had: refused", i)

    def keep(self, move: ReceivedMove, *, study: Mapping[str, Any] | None = None,
             notes: Mapping[str, str] | None = None) -> Path:
        """Store a move you accepted: your copy (the file's actions and signatures,
        your notes and study tree), the keys pinned. Returns your copy's path.

        Raises:
            OSError, ValueError: the disk refused (your previous copy is kept).
        """
        saved = move.opened.saved
        path = self.copy_path(saved.header)
        self.folder.mkdir(parents=True, exist_ok=True)
        save_game(path, saved.header, saved.actions, saved.state_digest, notes=notes,
                  study=study, signatures=None if move.signatures is None
                  else move.signatures.to_data())
        if move.pins:
            self.pins(saved.header).save(move.pins)
        self._add_to_index(saved.header)
        return path

    # -- sending ----------------------------------------------------------------------
    def send(self, folder: str | Path, header: SaveHeader, actions: Sequence[RawAction],
             state_digest: str, me: str, *, local: Sequence[str] = (),
             notes: Mapping[str, str] | None = None,
             study: Mapping[str, Any] | None = None,
             carried: SavedGame | None = None) -> MailMove:
        """Sign your moves (your key is made on first use) and write the file to
        attach, and your copy (with your `notes` and `study` tree, which the mail
        file never carries). `carried`: another file of this game whose
        signatures to keep (a received move opened with plain Open).

        Raises:
            ValueError: invalid header or actions; SaveFormatError: your copy
                cannot be read; OSError: the disk refused.
        """
        events, game, acting = _described_log(header, actions)
        players = [p.id for p in header.players]
        signers = expected_signers(actions, acting, players)
        known = self.known(header)
        previous: list[Signatures] = []
        for source in (known, carried):
            if source is not None and source.signatures is not None and \
                    game_identity(source.header) == game_identity(header):
                try:
                    previous.append(parse_signatures(source.signatures, "(earlier file)",
                                                     len(source.actions), players))
                except SaveFormatError:
                    if source is known:
                        raise

        keys = self.local_keys(header, [me, *local], create=True)
        signed = sign_entries(header.setup_mapping(), actions, signers, previous, keys, me)
        path = Path(folder) / mail_file_name(header, game)
        save_game(path, header, actions, state_digest, signatures=signed.to_data())
        self.folder.mkdir(parents=True, exist_ok=True)
        save_game(self.copy_path(header), header, actions, state_digest, notes=notes,
                  study=study, signatures=signed.to_data())
        self._add_to_index(header)
        pins = self.pins(header)
        try:
            known_pins = pins.load()
        except ValueError:
            known_pins = {}
        pins.save({**known_pins, **{pid: key.public for pid, key in keys.items()}})
        subject, body = mail_text(header, events, game, me)
        before = compare_history(known.actions if known is not None else (), actions)
        fresh = min(before.known, before.incoming) if before.first_difference is None \
            else before.first_difference  # the entries your copy did not have
        unsigned: dict[str, int] = {}
        for i in range(fresh, len(actions)):
            who_ = signers[i]
            if signed.moves[i] is None and who_ is not None:
                unsigned[who_] = unsigned.get(who_, 0) + 1
        return MailMove(path, subject, body, unsigned)


def _signature_place(path: str | Path, error: SignatureError) -> str:
    """``"<file>: signatures.moves[9]: action 10 (…) …"``: the place, then the reason."""
    where = "signatures" if error.index is None else f"signatures.moves[{error.index}]"
    return f"{path}: {where}: {error}"


def _text_at(move: ReceivedMove, index: int) -> str:
    return move.texts[index] if 0 <= index < len(move.texts) else "nothing"


def check_file_signatures(path: str | Path) -> int:
    """Check a save's signatures on their own, without your copy, keys or pins (for
    ``desk18xx verify``): every signature is by the player who had to sign it and
    holds, and the sender's seal holds. Returns how many moves are signed (0 for an
    unsigned file).

    Raises:
        SaveFormatError: as `desk18xx.io.replaying.open_save`, or a malformed
            ``signatures`` section (``signatures.moves[3].sig: …``).
        BadSignatureError: the first signature that does not hold, naming the
            action and the player.
    """
    move = open_move(path)
    saved = move.opened.saved
    if saved.signatures is None:
        return 0
    names = {p.id: p.name for p in saved.header.players}
    signatures = parse_signatures(saved.signatures, str(path), len(saved.actions), list(names))
    try:
        check = check_signatures(saved.header.setup_mapping(), saved.actions, move.signers,
                                 signatures, {}, {}, names, move.texts,
                                 start=len(saved.actions))
    except SignatureError as error:
        raise BadSignatureError(_signature_place(path, error), error.index, error.player) \
            from error
    return check.signed
