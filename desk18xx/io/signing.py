"""Signed e-mail moves: each player's Ed25519 key, the signatures in a save, their check (no Qt).

A PBEM file carries a ``signatures`` section (docs/save-format.md, "Signed
moves"): the public key of every player who has saved a move, and one
signature per entry of ``actions`` (or null). Entry ``i`` is signed over
`move_message`: the signer's player id, ``i``, and the full SHA-256 *move
chain* up to and including entry ``i`` (`move_chain`: the setup, then every
action in canonical JSON). A signature therefore covers the whole history
before it and cannot be moved to another place or another game.

Who must sign an entry (`expected_signers`): for a live rules action, the player
behind the acting entity just before it (a company's president at that time,
`desk18xx.io.transfer.controller`); for chat, its author; anything else (undo,
redo, an action later taken back) may be signed by any player of the game.

Keys (`KeyStore`) are made on first use, one per local player (by name), in
``<data>/keys`` (`desk18xx.io.paths.keys_dir`), private files (mode 600).
Receivers *pin* each player's key on first sight (`Pins`, kept beside the local
copy of the game); `check_signatures` refuses a move signed by the wrong
player, an unknown key for a known player, a changed or unsigned move of a
player whose key is known, naming the action and the player.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from desk18xx.engine.log import MESSAGE, RawAction
from desk18xx.io.atomic import write_atomic
from desk18xx.io.savechain import canonical_json
from desk18xx.io.savefile import SaveFormatError

SIGNATURE_VERSION: Final = 1
"""Version of the ``signatures`` section and of `move_message`."""
_CHAIN_TAG: Final = b"desk18xx-signed-moves-1\n"
_MESSAGE_TAG: Final = b"desk18xx-move-signature-1\n"
_SEAL_TAG: Final = b"desk18xx-file-seal-1\n"
_IDENTITY_TAG: Final = "desk18xx-stable-identity-1"
MAX_KEYS: Final = 16
"""More keys than this in a file are refused (a game has at most 7 players)."""
ANYONE: Final = None
"""`expected_signers` of an entry any player of the game may sign."""


class SignatureError(ValueError):
    """A signed move that does not hold: wrong player, unknown key, bad signature.

    The message names the action (its number in the file, 1-based, and its
    text) and the player.
    """

    def __init__(self, message: str, index: int | None, player: str | None) -> None:
        super().__init__(message)
        self.index = index
        """0-based index of the entry in ``actions`` (None: the file as a whole)."""
        self.player = player
        """The player id concerned."""


# --- identities ------------------------------------------------------------------------

def normal_name(name: str) -> str:
    """A player name as compared: NFKC, spaces collapsed and trimmed, case folded
    (``" Bob "`` and ``"bob"`` are the same player)."""
    return " ".join(unicodedata.normalize("NFKC", name).split()).casefold()


def stable_identity(title: str, players: Sequence[tuple[str, str]],
                    variant: str | None = None, options: Sequence[str] = ()) -> str:
    """The identity of a game that a sender cannot change without changing who plays:
    title, variant, options and the players (ids, `normal_name`), not the seed."""
    data = {"title": title, "variant": variant, "options": sorted(options),
            "players": [[pid, normal_name(name)] for pid, name in players]}
    text = f"{_IDENTITY_TAG}\n{canonical_json(data)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# --- the move chain and messages -------------------------------------------------------

def move_chain(setup: Mapping[str, Any], actions: Sequence[RawAction]) -> list[bytes]:
    """The full SHA-256 after each action: setup first, then each action's canonical JSON."""
    digest = hashlib.sha256(_CHAIN_TAG + canonical_json(setup).encode("utf-8")).digest()
    out: list[bytes] = []
    for action in actions:
        digest = hashlib.sha256(digest + b"\n" + canonical_json(action).encode("utf-8")).digest()
        out.append(digest)
    return out


def move_message(player: str, index: int, chain: bytes) -> bytes:
    """What the signature of entry `index` by `player` signs."""
    return _MESSAGE_TAG + f"{player}\n{index}\n".encode() + chain


def seal_message(player: str, setup: Mapping[str, Any], actions: Sequence[RawAction],
                 chain: Sequence[bytes] | None = None) -> bytes:
    """What the sender's seal signs: the whole file's history (its length and the
    last link of `move_chain`, or the setup's when there are no actions)."""
    links = move_chain(setup, actions) if chain is None else chain
    head = links[-1] if links else hashlib.sha256(
        _CHAIN_TAG + canonical_json(setup).encode("utf-8")).digest()
    return _SEAL_TAG + f"{player}\n{len(actions)}\n".encode() + head


def expected_signers(actions: Sequence[RawAction], acting: Mapping[int, str | None],
                     players: Sequence[str]) -> list[str | None]:
    """Who must sign each entry: for a live action, the acting player (`acting`: raw
    index -> header id of the player behind its entity just before it); for a chat
    line, its author (when a player of the game); else `ANYONE`."""
    out: list[str | None] = []
    for index, entry in enumerate(actions):
        if index in acting:
            out.append(acting[index])
        elif entry.get("type") == MESSAGE and str(entry.get("entity")) in players:
            out.append(str(entry.get("entity")))
        else:
            out.append(ANYONE)
    return out


# --- keys ------------------------------------------------------------------------------

def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def public_text(key: Ed25519PublicKey) -> str:
    """A public key as written in a file (base64 of the 32 raw bytes)."""
    return _b64(key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw))


def fingerprint(public: str) -> str:
    """A short fingerprint of a public key, for messages: ``"3f2a 9c1b 77d0"``."""
    digest = hashlib.sha256(public.encode("ascii")).hexdigest()[:12]
    return " ".join(digest[i:i + 4] for i in range(0, 12, 4))


@dataclass(frozen=True, slots=True)
class LocalKey:
    """A local player's key pair."""

    name: str
    private: Ed25519PrivateKey
    public: str
    """`public_text` of the public key."""

    def sign(self, message: bytes) -> str:
        """The base64 signature of `message`."""
        return _b64(self.private.sign(message))


_UNSAFE = re.compile(r"[^a-z0-9]+")


class KeyStore:
    """The local players' key pairs, one file per player name in `folder`.

    A key is made on first use (`key_for`), written atomically with mode 600.
    """

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)

    def path_for(self, name: str) -> Path:
        """The key file of `name` (by `normal_name`)."""
        normal = normal_name(name)
        slug = _UNSAFE.sub("-", normal).strip("-")[:24] or "player"
        digest = hashlib.sha256(normal.encode("utf-8")).hexdigest()[:12]
        return self.folder / f"{slug}-{digest}.key"

    def find(self, name: str) -> LocalKey | None:
        """`name`'s key if this computer has one (never made here).

        Raises:
            OSError: the key file cannot be read.
            ValueError: the key file is not an Ed25519 private key.
        """
        path = self.path_for(name)
        if not path.is_file():
            return None
        data = path.read_bytes()[:4096]
        try:
            private = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError) as error:
            raise ValueError(f"{path}: not a desk18xx key ({error})") from error
        if not isinstance(private, Ed25519PrivateKey):
            raise ValueError(f"{path}: not an Ed25519 key")
        return LocalKey(name, private, public_text(private.public_key()))

    def key_for(self, name: str) -> LocalKey:
        """`name`'s key, made and stored now if this computer has none.

        Raises:
            OSError: the key cannot be written; ValueError: as `find`.
        """
        found = self.find(name)
        if found is not None:
            return found
        private = Ed25519PrivateKey.generate()
        data = private.private_bytes(serialization.Encoding.PEM,
                                     serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption())
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.path_for(name)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL
                             | getattr(os, "O_BINARY", 0), 0o600)  # private from the start
        try:
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            if path.exists():  # made meanwhile by another window: keep that one
                temporary.unlink()
                found = self.find(name)
                if found is not None:
                    return found
            os.replace(temporary, path)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        return LocalKey(name, private, public_text(private.public_key()))


# --- the section in a file -------------------------------------------------------------

@dataclass(slots=True)
class Signatures:
    """The ``signatures`` section: keys by player id, one (signer, signature) per entry."""

    keys: dict[str, str] = field(default_factory=dict)
    moves: list[tuple[str, str] | None] = field(default_factory=list)
    seal: tuple[str, str] | None = None
    """(sender, signature of `seal_message`): the sender vouches for the whole file."""

    def to_data(self) -> dict[str, Any]:
        """Plain data for the file."""
        data: dict[str, Any] = {"version": SIGNATURE_VERSION,
                                "keys": dict(sorted(self.keys.items()))}
        if self.seal is not None:
            data["seal"] = {"by": self.seal[0], "sig": self.seal[1]}
        data["moves"] = [None if m is None else {"by": m[0], "sig": m[1]} for m in self.moves]
        return data

    @property
    def signed(self) -> int:
        """How many entries carry a signature."""
        return sum(m is not None for m in self.moves)


def parse_signatures(data: Any, source: str, count: int, players: Sequence[str]
                     ) -> Signatures:
    """The ``signatures`` section of a file, checked (types, sizes, one per action).

    Raises:
        SaveFormatError: the place (``signatures.moves[3].sig``) and the problem.
    """
    def fail(where: str, problem: str) -> SaveFormatError:
        return SaveFormatError(source, where, problem)

    if not isinstance(data, dict):
        raise fail("signatures", "must be a mapping")
    if data.get("version") != SIGNATURE_VERSION:
        raise fail("signatures.version", f"must be {SIGNATURE_VERSION}, not "
                   f"{str(data.get('version'))[:40]!r}")
    keys = data.get("keys")
    if not isinstance(keys, dict) or len(keys) > MAX_KEYS:
        raise fail("signatures.keys", f"must be a mapping of at most {MAX_KEYS} keys")
    out = Signatures()
    for pid, text in keys.items():
        where = f"signatures.keys.{str(pid)[:40]}"
        if not isinstance(pid, str) or pid not in players:
            raise fail(where, "is not a player of this game")
        if not isinstance(text, str) or len(_unb64(text, 32)) != 32:
            raise fail(where, "is not an Ed25519 public key (base64 of 32 bytes)")
        out.keys[pid] = text
    seal = data.get("seal")
    if seal is not None:
        out.seal = _signature_pair(seal, "signatures.seal", out.keys, fail)
    moves = data.get("moves")
    if not isinstance(moves, list):
        raise fail("signatures.moves", "must be a list")
    if len(moves) != count:
        raise fail("signatures.moves", f"has {len(moves)} entries for {count} actions "
                   "(actions added or removed after signing?)")
    for i, move in enumerate(moves):
        where = f"signatures.moves[{i}]"
        out.moves.append(None if move is None else
                         _signature_pair(move, where, out.keys, fail))
    return out


def _signature_pair(value: Any, where: str, keys: Mapping[str, str],
                    fail: Callable[[str, str], SaveFormatError]) -> tuple[str, str]:
    if not isinstance(value, dict) or set(value) != {"by", "sig"}:
        raise fail(where, "must be null or a mapping with 'by' and 'sig'")
    by, sig = value["by"], value["sig"]
    if not isinstance(by, str) or by not in keys:
        raise fail(f"{where}.by", f"{str(by)[:40]!r} has no key in signatures.keys")
    if not isinstance(sig, str) or len(_unb64(sig, 64)) != 64:
        raise fail(f"{where}.sig", "is not an Ed25519 signature (base64 of 64 bytes)")
    return by, sig


def _unb64(text: str, size: int) -> bytes:
    if len(text) > 4 * size:
        return b""
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        return b""


def verify(public: str, message: bytes, signature: str) -> bool:
    """True when `signature` (base64) is `public`'s signature of `message`."""
    try:
        Ed25519PublicKey.from_public_bytes(_unb64(public, 32)).verify(
            _unb64(signature, 64), message)
    except (InvalidSignature, ValueError):
        return False
    return True


# --- pins ------------------------------------------------------------------------------

class Pins:
    """The keys a receiver has seen for each player of the games with one stable
    identity (`stable_identity`), kept in ``<folder>/<identity>.keys`` (JSON)."""

    def __init__(self, folder: str | Path, identity: str) -> None:
        self.path = Path(folder) / f"{identity}.keys"

    def load(self) -> dict[str, str]:
        """Player id -> pinned public key (empty when none were seen yet).

        Raises:
            ValueError: the pins file is damaged (named).
        """
        if not self.path.is_file():
            return {}
        try:
            data = json.loads(self.path.read_bytes()[:1 << 16].decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as error:
            raise ValueError(f"{self.path}: the keys you pinned cannot be read ({error})") \
                from error
        if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                  for k, v in data.items()):
            raise ValueError(f"{self.path}: the keys you pinned cannot be read")
        return dict(data)

    def save(self, pins: Mapping[str, str]) -> None:
        """Write the pins (atomically).

        Raises:
            OSError: the disk refused.
        """
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(self.path, json.dumps(dict(sorted(pins.items())), indent=1)
                     .encode("utf-8"))


# --- signing and checking --------------------------------------------------------------

def sign_entries(setup: Mapping[str, Any], actions: Sequence[RawAction],
                 signers: Sequence[str | None], previous: Signatures | Sequence[Signatures] | None,
                 local: Mapping[str, LocalKey], me: str | None) -> Signatures:
    """The signatures of a file to send.

    Valid signatures of `previous` (received or earlier files of this game, the
    first that holds wins) are kept where the history is the same; every other
    entry is signed by its expected signer when that player is local (`local`:
    player id -> key), an entry anyone may sign by `me`. Other players' entries without a valid
    signature stay unsigned: a receiver accepts that only for entries it already
    has, or of a player whose key is not in the game yet.
    """
    chain = move_chain(setup, actions)
    earlier = [] if previous is None else \
        [previous] if isinstance(previous, Signatures) else list(previous)
    out = Signatures()
    for sigs in reversed(earlier):
        out.keys.update(sigs.keys)
    out.keys.update({pid: key.public for pid, key in local.items()})
    for i, link in enumerate(chain):
        want = signers[i] if i < len(signers) else ANYONE
        kept = next((m for sigs in earlier
                     for m in [sigs.moves[i] if i < len(sigs.moves) else None]
                     if m is not None and (want is ANYONE or m[0] == want)
                     and sigs.keys.get(m[0]) == out.keys.get(m[0])
                     and verify(sigs.keys[m[0]], move_message(m[0], i, link), m[1])), None)
        if kept is not None:
            out.moves.append(kept)
            continue
        signer = want if want is not ANYONE else me
        if signer is not None and signer in local:
            out.moves.append((signer, local[signer].sign(move_message(signer, i, link))))
        else:
            out.moves.append(None)
    if me is not None and me in local:
        out.seal = (me, local[me].sign(seal_message(me, setup, actions, chain)))
    return out


def entry_text(entry: RawAction, names: Mapping[str, str] | None = None) -> str:
    """A short text for an entry without a game: its type and who (`names`: id -> name)."""
    entity = str(entry.get("entity"))[:40]
    kind = str(entry.get("type"))[:40].replace("_", " ")
    return f"{kind} by {(names or {}).get(entity, entity)}"


@dataclass(frozen=True, slots=True)
class SignatureCheck:
    """What `check_signatures` found."""

    signed: int
    """Entries with a valid signature."""
    keys: Mapping[str, str]
    """The keys to pin after accepting the file (pins plus the file's new keys)."""
    new_pins: tuple[str, ...]
    """Players whose key is seen for the first time."""


def check_signatures(setup: Mapping[str, Any], actions: Sequence[RawAction],
                     signers: Sequence[str | None], signatures: Signatures,
                     pins: Mapping[str, str], local: Mapping[str, str],
                     names: Mapping[str, str], texts: Sequence[str],
                     start: int = 0, me: str | None = None, ours: Sequence[str] = ()
                     ) -> SignatureCheck:
    """Check every signature of a received file.

    Every signature present must be the expected player's and hold. An entry
    from `start` on (what the receiver did not have) may be unsigned only when
    its player has no key in the file, no pinned key and no local key (a move
    made at the sender's computer, hot-seat); the sender's seal must hold over the
    whole file (someone vouches for every entry).

    Args:
        start: entries the receiver already has (accepted before).
        me: the receiver: a new move of theirs must carry their signature even
            before they have a key (nobody else may make their moves).
        ours: further players at the receiver's computer (hot-seat), held to the
            same rule as `me`.
        signers: `expected_signers` of each entry.
        pins: player id -> the key seen before for that player.
        local: player id -> public key of the players at this computer (you).
        names: player id -> name.
        texts: each entry in words (for messages).

    Raises:
        SignatureError: the first entry that does not hold, naming the action
            (number and text) and the player.
    """
    def name(pid: str | None) -> str:
        return "?" if pid is None else names.get(pid, pid)

    def changed_key(pid: str) -> str | None:
        known = local.get(pid) or pins.get(pid)
        key = signatures.keys[pid]
        if known is None or known == key:
            return None
        whose = "your key" if pid in local else f"the key you have for {name(pid)}"
        return (f"a key for {name(pid)} (fingerprint {fingerprint(key)}) that is not {whose} "
                f"({fingerprint(known)}): refused, nothing was changed")

    chain = move_chain(setup, actions)
    signed = 0
    for i, link in enumerate(chain):
        want = signers[i] if i < len(signers) else ANYONE
        what = f"action {i + 1} ({texts[i] if i < len(texts) else entry_text(actions[i])})"
        move = signatures.moves[i] if i < len(signatures.moves) else None
        if move is None:
            if i < start:
                continue
            holder = want if want is not ANYONE else None
            if holder is None or holder in signatures.keys or holder in pins or \
                    holder in local or holder == me or holder in ours:
                raise SignatureError(
                    f"{what} carries no signature: refused" if holder is None else
                    f"{what} is {name(holder)}'s move but carries no signature by "
                    f"{name(holder)}: refused", i, holder)
            continue
        by, sig = move
        problem = changed_key(by)
        if problem is not None:
            raise SignatureError(f"{what} is signed by {problem}", i, by)
        if want is not ANYONE and by != want:
            raise SignatureError(f"{what} is {name(want)}'s move but is signed by {name(by)}: "
                                 "refused", i, want)
        if not verify(signatures.keys[by], move_message(by, i, link), sig):
            raise SignatureError(f"{what}: the signature of {name(by)} does not match it (the "
                                 "move or the history before it was changed after it was "
                                 "signed, or signed by another key): refused", i, by)
        signed += 1
    for pid in signatures.keys:  # a key no move uses
        problem = changed_key(pid)
        if problem is not None:
            raise SignatureError(f"the file has {problem}", None, pid)
    seal = signatures.seal
    if seal is None:
        raise SignatureError("signatures.seal: the file is not sealed by its sender: nobody "
                             "vouches for its end (cut short or edited?): refused", None, None)
    problem = changed_key(seal[0])
    if problem is not None:
        raise SignatureError(f"the sender's seal is signed by {problem}", None, seal[0])
    if not verify(signatures.keys[seal[0]], seal_message(seal[0], setup, actions, chain),
                  seal[1]):
        last = len(actions)
        raise SignatureError(f"the seal of {name(seal[0])} does not match the file's "
                             f"{last} actions (cut short, extended or edited after it was "
                             "sealed): refused", None, seal[0])
    merged = dict(pins)
    fresh = tuple(p for p in signatures.keys if p not in pins)
    merged.update({p: signatures.keys[p] for p in fresh})
    merged.update(local)
    return SignatureCheck(signed, merged, fresh)


__all__ = ["ANYONE", "KeyStore", "LocalKey", "Pins", "SignatureCheck", "SignatureError",
           "Signatures", "check_signatures", "entry_text", "expected_signers", "fingerprint",
           "move_chain", "move_message", "normal_name", "parse_signatures", "public_text",
           "seal_message",
           "sign_entries", "stable_identity", "verify"]
