"""Open a save by replaying it through the rules engine (docs/save-format.md, "Loading").

`load_save` checks the file (schema, version, hash chain); this module then
folds the live actions into a fresh game and compares the state digest with
the recorded one. An action the engine refuses is reported with its 0-based
index in the file's ``actions`` list, its id and the engine's reason.

Nothing here writes a file: a failed open leaves everything as it was.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from desk18xx.engine.actions import action_from_dict
from desk18xx.engine.digest import KNOWN_VERSIONS, digest_version, position_digest, state_digest
from desk18xx.engine.errors import IllegalAction
from desk18xx.engine.game import Game
from desk18xx.engine.log import LogError, RawAction, filter_log
from desk18xx.io.savefile import SavedGame, SaveFormatError, SaveHeader, load_save
from desk18xx.io.study import game_setup

ENGINE_ERRORS: tuple[type[Exception], ...] = (
    IllegalAction, KeyError, ValueError, AssertionError, StopIteration, IndexError, TypeError,
    AttributeError, RuntimeError,
)
"""What a refused (or engine-breaking) action raises while it is processed."""


class IllegalSaveError(SaveFormatError):
    """The engine refuses one of the file's actions (or its undo/redo entries)."""

    def __init__(self, source: str, where: str, problem: str, index: int) -> None:
        super().__init__(source, where, problem)
        self.index = index
        """0-based index of the refused entry in the file's ``actions`` list."""


@dataclass(frozen=True, slots=True)
class ReplayFailure:
    """The first action the engine refused."""

    index: int
    """0-based position in the raw log (the file's ``actions`` list)."""
    id: Any
    """The action's ``id`` as written (None for an action without one)."""
    type: str
    entity: str
    reason: str

    def describe(self) -> str:
        """One line for people: ``action 41 (id 42, lay_tile by CPR) is illegal: …``."""
        return (f"action {self.index} (id {self.id}, {self.type} by {self.entity}) "
                f"is illegal: {self.reason}")


@dataclass(frozen=True, slots=True)
class Replayed:
    """A game folded from a log."""

    game: Game
    """The state after the last action that could be applied."""
    applied: int
    """Live actions applied."""
    positions: tuple[int, ...]
    """Raw-log index of each applied live action."""
    failure: ReplayFailure | None
    """The first refused action; None when the whole log replayed."""


def new_game(header: SaveHeader) -> Game:
    """A fresh game for `header`.

    Raises:
        KeyError: the title's rules are not available in this build.
    """
    from desk18xx.titles import find_title

    return find_title(header.title).new_game(game_setup(header))


def replay_log(
    header: SaveHeader,
    raw: Sequence[RawAction],
    *,
    each: Callable[[int, RawAction, Game], None] | None = None,
) -> Replayed:
    """Fold the live actions of `raw` into a new game; never raises for a rules failure.

    Args:
        header: the setup.
        raw: the whole log (undo/redo/chat included).
        each: called before each live action with its raw index, the raw
            entry and the game it is about to change (for per-action notes).

    Raises:
        KeyError: the title's rules are not available in this build.
    """
    game = new_game(header)
    try:
        filtered = filter_log(raw)
    except LogError as error:
        return Replayed(game, 0, (), _failure(raw, error.position, error.problem))
    applied: list[int] = []
    # ``game.loading`` stays off: a save or an e-mail move is checked against every
    # rule, live-play ones included (18xx.games skips those when it reloads a game;
    # we must not, or an edited file could carry a lay no player could have made).
    for position, entry in zip(filtered.positions, filtered.actions, strict=True):
        try:
            action = action_from_dict(entry)
            if each is not None:
                each(position, entry, game)
            game.process(action)
        except ENGINE_ERRORS as error:
            reason = str(error) if isinstance(error, IllegalAction) else \
                f"{type(error).__name__}: {error}"
            return Replayed(game, len(applied), tuple(applied),
                            _failure(raw, position, reason))
        applied.append(position)
    return Replayed(game, len(applied), tuple(applied), None)


def _failure(raw: Sequence[RawAction], index: int, reason: str) -> ReplayFailure:
    entry = raw[index] if 0 <= index < len(raw) else {}
    return ReplayFailure(index, entry.get("id"), str(entry.get("type")),
                         str(entry.get("entity")), reason)


@dataclass(frozen=True, slots=True)
class OpenedSave:
    """A save that passed the file checks and was replayed.

    With ``open_save(partial=False)`` (the default) every action replayed and the
    position matched the recorded digest.  With ``partial=True`` `replayed` may
    stop at an action this version's rules refuse (`replayed.failure`), and
    `digest_note` says when the position could not be or was not confirmed."""

    saved: SavedGame
    replayed: Replayed
    digest_checked: bool = True
    """The recorded position digest was recomputed and matched."""
    digest_note: str | None = None
    """Why the digest was not confirmed (legacy digest, newer version, other result)."""

    @property
    def game(self) -> Game:
        """The game state the file leads to."""
        return self.replayed.game

    @property
    def complete(self) -> bool:
        """Every action of the file replayed."""
        return self.replayed.failure is None


_LEGACY_DIGEST = re.compile(r"[0-9a-f]{64}")
"""An unversioned digest (files written before position version 1)."""

LEGACY_NOTE = ("the file was written before positions were versioned; its actions were all "
               "replayed and its hash chain checked, but its recorded state digest cannot be "
               "recomputed")


def check_digest(game: Game, recorded: str) -> tuple[str | None, str | None]:
    """Compare ``game`` with a recorded ``end.state_digest``.

    Returns ``(digest, note)``: ``digest`` is what this build computes in the
    recorded digest's position version (None when it cannot: a legacy digest or a
    newer version, explained in ``note``)."""
    version = digest_version(recorded)
    if version is None:
        return None, LEGACY_NOTE
    if version not in KNOWN_VERSIONS:
        return None, (f"its position digest has version {version}, newer than this "
                      f"version of desk18xx knows ({max(KNOWN_VERSIONS)}); it was not checked")
    return position_digest(game, version), None


def open_save(path: str | Path, *,
              each: Callable[[int, RawAction, Game], None] | None = None,
              partial: bool = False) -> OpenedSave:
    """Load, verify and replay a save.

    The recorded digest is recomputed with this version's rules in the position
    version it was written with (`desk18xx.engine.digest`); a legacy digest
    (before versions) or a newer version cannot be recomputed and is reported in
    `OpenedSave.digest_note` instead.

    `each` is passed to `replay_log` (called before every live action).  With
    ``partial=True`` an action this version refuses, or a different final
    position, does not raise: the save opens up to the last legal action
    (`OpenedSave.replayed.failure` says which action and why) so that the user
    can continue from there as a new branch; the file is never changed.

    Raises:
        SaveFormatError: the file is unreadable or malformed (see `load_save`).
        TamperedSaveError: the hash chain fails.
        IllegalSaveError: the engine refuses an action (index and reason given;
            not with ``partial``).
        StateDigestError: the replay reaches a different position than recorded
            (not with ``partial``).
    """
    source = str(path)
    box: list[OpenedSave] = []

    def digest(saved: SavedGame) -> str:
        try:
            replayed = replay_log(saved.header, saved.actions, each=each)
        except KeyError as error:
            raise SaveFormatError(source, "setup.title",
                                  f"the rules of {saved.header.title} are not available in "
                                  f"this version of desk18xx ({error})") from error
        failure = replayed.failure
        if failure is not None:
            if not partial:
                raise IllegalSaveError(source, f"actions[{failure.index}]",
                                       failure.describe(), failure.index)
            box.append(OpenedSave(saved, replayed, False,
                                  f"this version's rules stop it at {failure.describe()}"))
            return saved.state_digest
        if digest_version(saved.state_digest) is None and \
                not _LEGACY_DIGEST.fullmatch(saved.state_digest):
            raise SaveFormatError(source, "end.state_digest",
                                  f"{saved.state_digest[:80]!r} is not a state digest "
                                  "(file cut short or edited?)")
        try:
            actual, note = check_digest(replayed.game, saved.state_digest)
        except ENGINE_ERRORS as error:  # a title the digest cannot summarise yet
            raise SaveFormatError(source, "end.state_digest", "the game's position "
                                  f"cannot be computed: {type(error).__name__}: {error}"
                                  ) from error
        if actual is None:
            box.append(OpenedSave(saved, replayed, False, note))
            return saved.state_digest
        if actual != saved.state_digest and partial:
            box.append(OpenedSave(saved, replayed, False,
                                  "its actions replay to another position under this "
                                  "version's rules than when it was saved"))
            return saved.state_digest
        box.append(OpenedSave(saved, replayed))
        return actual

    load_save(path, replay_digest=digest)
    return box[0]


def digest_of(game: Game) -> str:
    """The state digest written to ``end.state_digest`` (`desk18xx.engine.digest`)."""
    return state_digest(game)
