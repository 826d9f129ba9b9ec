"""A corpus of broken and hostile files, generated: every reader must refuse each one
with a located message, without a traceback, a hang or a change to any file.

`build_corpus(folder)` writes the files and returns one `Case` per file. It is
shared by tests/io/test_hostile_files.py (the command line) and
tests/ui/test_hostile_open.py (the app's Open paths). Further makers can be
added to `MAKERS` (signed e-mail moves: re-signed by the wrong key, a move for
another player, an older file, a changed identity; see `pbem_cases`).
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import random
import signal
import socket
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desk18xx.engine.actions import action_from_dict
from desk18xx.engine.game import Game
from desk18xx.engine.variations import tree_from_log
from desk18xx.io import yamlio
from desk18xx.io.replaying import digest_of, new_game
from desk18xx.io.savefile import SavedPlayer, SaveHeader, dump_save
from desk18xx.io.study import study_section
from desk18xx.io.transfer import export_text

CALL_LIMIT_S = 30
"""A call that takes longer is a hang."""


class Hang(Exception):
    """A call ran over its time limit."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise `Hang` in this (main) thread after `seconds`; a blocked read is interrupted too."""
    def alarm(_signum: int, _frame: object) -> None:
        raise Hang()

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True, slots=True)
class Case:
    """One file of the corpus."""

    name: str
    path: Path
    group: str
    """empty, truncated, binary, types, values, huge, special, edited, study, pbem, …"""
    valid: bool = False
    """A control that every reader must accept (the corpus is refused otherwise)."""
    receiver: Path | None = None
    """For an e-mail move: the receiver's data folder (keys, copies, pins)."""
    me: str | None = None
    """For an e-mail move: the receiver's player id."""


@dataclass(slots=True)
class Base:
    """The good files the hostile ones are made from."""

    header: SaveHeader
    actions: list[dict[str, Any]]
    digest: str
    save_text: str
    study_text: str
    export_text: str
    extra: dict[str, Any] = field(default_factory=dict)


HEADER = SaveHeader("1867", (SavedPlayer("1", "Ann"), SavedPlayer("2", "Bob"),
                             SavedPlayer("3", "Cy")), seed=5)


def base_game(count: int = 14, seed: int = 3) -> Base:
    """A short 1867 game played with random legal moves, as a save, a study and an export."""
    game: Game = new_game(HEADER)
    rng = random.Random(seed)
    actions: list[dict[str, Any]] = []
    for _ in range(count):
        moves = game.legal_moves(rng)
        move = moves[0] if len(moves) == 1 else rng.choice(moves)
        game.process(move)
        actions.append({**move.to_dict(), "id": len(actions) + 1})
    digest = digest_of(game)
    tree = tree_from_log(actions)
    return Base(HEADER, actions, digest, dump_save(HEADER, actions, digest),
                dump_save(HEADER, actions, digest, study=study_section(HEADER, tree)),
                export_text(HEADER, actions, game))


def _edit(text: str, change: Callable[[dict[str, Any]], object]) -> str:
    """The save `text` with its data changed (hash chain NOT recomputed)."""
    document = yamlio.load(text)
    change(document)
    return yamlio.dump(document)


def _rechain(base: Base, actions: list[dict[str, Any]], header: SaveHeader | None = None,
             digest: str | None = None) -> str:
    """A save of other actions with a valid hash chain (an edit that recomputes it)."""
    return dump_save(header or base.header, actions, digest or base.digest)


Maker = Callable[[Path, Base], list[Case]]
"""Writes some files into a folder and returns their cases."""


def _writer(folder: Path, group: str, cases: list[Case]) -> Callable[..., None]:
    def write(name: str, content: bytes | str, *, valid: bool = False) -> None:
        path = folder / name
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
        cases.append(Case(name, path, group, valid))
    return write


def control_cases(folder: Path, base: Base) -> list[Case]:
    cases: list[Case] = []
    write = _writer(folder, "control", cases)
    write("good.d18xx", base.save_text, valid=True)
    write("good-study.d18xx", base.study_text, valid=True)
    write("good.json", base.export_text, valid=True)
    return cases


def empty_cases(folder: Path, base: Base) -> list[Case]:
    cases: list[Case] = []
    write = _writer(folder, "empty", cases)
    write("empty.d18xx", b"")
    write("empty.json", b"")
    write("blank.d18xx", "\n \n\t\n")
    write("bom-only.json", b"\xef\xbb\xbf")
    write("null.d18xx", "null\n")
    write("null.json", "null\n")
    write("comment-only.d18xx", "# nothing here\n")
    return cases


def truncated_cases(folder: Path, base: Base) -> list[Case]:
    cases: list[Case] = []
    write = _writer(folder, "truncated", cases)
    for percent in (5, 25, 50, 75, 95):
        write(f"cut-{percent}.d18xx", base.save_text[:len(base.save_text) * percent // 100])
        write(f"cut-{percent}.json", base.export_text[:len(base.export_text) * percent // 100])
    write("cut-before-end.d18xx", base.save_text[:base.save_text.index("\nend:") + 1])
    write("cut-study-nodes.d18xx", base.study_text[:base.study_text.index("  nodes:")])
    encoded = base.save_text.encode("utf-8")
    write("cut-mid-utf8.d18xx", encoded[:encoded.index(b"action:") + 3] + "é".encode()[:1])
    return cases


def binary_cases(folder: Path, base: Base) -> list[Case]:
    cases: list[Case] = []
    write = _writer(folder, "binary", cases)
    rng = random.Random(1)
    write("random.d18xx", bytes(rng.randrange(256) for _ in range(4096)))
    write("random.json", bytes(rng.randrange(256) for _ in range(4096)))
    write("png.d18xx", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64))
    write("all-bytes.d18xx", bytes(range(256)) * 4)
    write("utf16.d18xx", base.save_text.encode("utf-16"))
    write("utf16.json", base.export_text.encode("utf-16"))
    write("latin1.d18xx", base.save_text.replace("Ann", "Ånn").encode("latin-1"))
    write("nul-inside.d18xx", base.save_text.replace("Bob", "B\x00b"))
    write("nul-inside.json", base.export_text.replace("Bob", "B\x00b"))
    write("gzip.d18xx", gzip.compress(base.save_text.encode("utf-8")))
    write("control-chars.d18xx", base.save_text.replace("Cy", "C\x07\x1by"))
    return cases


def type_cases(folder: Path, base: Base) -> list[Case]:
    cases: list[Case] = []
    write = _writer(folder, "types", cases)
    edits: dict[str, Callable[[dict[str, Any]], object]] = {
        "version-string": lambda d: d.update(format_version="2"),
        "version-list": lambda d: d.update(format_version=[2]),
        "setup-list": lambda d: d.update(setup=[1, 2]),
        "players-string": lambda d: d["setup"].update(players="Ann, Bob"),
        "player-name-int": lambda d: d["setup"]["players"][0].update(name=5),
        "player-id-null": lambda d: d["setup"]["players"][1].update(id=None),
        "seed-string": lambda d: d["setup"].update(seed="five"),
        "seed-float": lambda d: d["setup"].update(seed=5.5),
        "options-mapping": lambda d: d["setup"].update(options={"a": 1}),
        "actions-mapping": lambda d: d.update(actions={"a": 1}),
        "action-list": lambda d: d["actions"][0].update(action=[1, 2]),
        "action-type-int": lambda d: d["actions"][1]["action"].update(type=7),
        "hash-int": lambda d: d["actions"][2].update(hash=12),
        "end-list": lambda d: d.update(end=[1]),
        "count-string": lambda d: d["end"].update(action_count="14"),
        "notes-list": lambda d: d.update(notes=["x"]),
        "note-int": lambda d: d.update(notes={"1": 5}),
        "top-list": lambda d: d.clear(),
    }
    for name, change in edits.items():
        text = _edit(base.save_text, change) if name != "top-list" else "- 1\n- 2\n"
        write(f"type-{name}.d18xx", text)
    export = json.loads(base.export_text)
    export_edits: dict[str, Callable[[dict[str, Any]], object]] = {
        "title-int": lambda d: d.update(title=1867),
        "players-object": lambda d: d.update(players={"a": 1}),
        "action-id-string": lambda d: d["actions"][0].update(id="1"),
        "actions-string": lambda d: d.update(actions="none"),
        "result-list": lambda d: d.update(result=[1]),
        "seed-string": lambda d: d["settings"].update(seed="x"),
        "bid-price-string": lambda d: next(a for a in d["actions"] if a["type"] == "bid"
                                           ).update(price="much"),
        "bid-company-int": lambda d: next(a for a in d["actions"] if a["type"] == "bid"
                                          ).update(company=17),
    }
    for name, change in export_edits.items():
        data = json.loads(json.dumps(export))
        change(data)
        write(f"type-{name}.json", json.dumps(data))
    write("top-list.json", "[1, 2]")
    return cases


def value_cases(folder: Path, base: Base) -> list[Case]:
    """YAML tags and values the safe loader would build, NaN, infinities, long integers."""
    cases: list[Case] = []
    write = _writer(folder, "values", cases)
    text = base.save_text
    head, rest = text.split("\nsetup:\n", 1)
    def in_setup(line: str) -> str:
        return f"{head}\nsetup:\n  {line}\n{rest}"
    write("timestamp.d18xx", in_setup("created_at: 2021-01-05 02:10:01"))
    write("timestamp-seed.d18xx", text.replace("  seed: 5\n", "  seed: 2021-01-05\n"))
    write("binary-tag.d18xx", in_setup("blob: !!binary aGVsbG8="))
    write("set-tag.d18xx", in_setup("who: !!set {Ann, Bob}"))
    write("omap-tag.d18xx", in_setup("order: !!omap [a: 1, b: 2]"))
    write("pairs-tag.d18xx", in_setup("pairs: !!pairs [a: 1]"))
    write("python-tag.d18xx", in_setup("x: !!python/object/apply:os.system ['echo hi']"))
    write("local-tag.d18xx", in_setup("x: !mine 3"))
    write("merge-key.d18xx", text.replace("notes: {}", "base: &b {x: 1}\nnotes:\n  <<: *b"))
    write("alias.d18xx", in_setup("a: &x [1, 2]\n  b: *x"))
    lol = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lol += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]" for i in range(1, 10)]
    write("billion-laughs.d18xx", "format_version: 2\n" + "\n".join(lol) + "\n")
    write("nan-seed.d18xx", text.replace("  seed: 5\n", "  seed: .nan\n"))
    write("inf-seed.d18xx", text.replace("  seed: 5\n", "  seed: -.inf\n"))
    write("huge-float.d18xx", text.replace("  seed: 5\n", "  seed: 1.0e+999\n"))
    write("int-5000.d18xx", text.replace("  seed: 5\n", "  seed: " + "7" * 5000 + "\n"))
    write("int-1200.d18xx", text.replace("  seed: 5\n", "  seed: " + "7" * 1200 + "\n"))
    write("int-binary.d18xx", text.replace("  seed: 5\n", "  seed: 0b" + "1" * 20000 + "\n"))
    write("int-in-action.d18xx", text.replace('"id": 3}', '"id": ' + "9" * 5000 + "}", 1))
    write("nan-in-action.d18xx", text.replace('"id": 3}', '"id": .nan}', 1))
    export = base.export_text
    write("nan.json", export.replace('"seed": 5', '"seed": NaN', 1))
    write("infinity.json", export.replace('"seed": 5', '"seed": Infinity', 1))
    write("minus-infinity.json", export.replace('"seed": 5', '"seed": -Infinity', 1))
    write("float-1e999.json", export.replace('"seed": 5', '"seed": 1e999', 1))
    write("int-5000.json", export.replace('"seed": 5', '"seed": ' + "7" * 5000, 1))
    write("int-id-5000.json", export.replace('"id": 1}', '"id": ' + "9" * 5000 + "}", 1))
    return cases


def huge_cases(folder: Path, base: Base) -> list[Case]:
    """Huge names and messages, huge and deeply nested files."""
    cases: list[Case] = []
    write = _writer(folder, "huge", cases)
    long_name = "N" * (2 * 1024 * 1024)
    header = SaveHeader(base.header.title, (SavedPlayer("1", long_name),
                                            *base.header.players[1:]), base.header.seed)
    write("name-2mb.d18xx", _rechain(base, base.actions, header))
    write("name-300.d18xx", _rechain(base, base.actions, SaveHeader(
        base.header.title, (SavedPlayer("1", "N" * 300), *base.header.players[1:]),
        base.header.seed)))
    chat = {"type": "message", "entity": "1", "entity_type": "player", "id": 999,
            "message": "M" * (2 * 1024 * 1024)}
    write("chat-2mb.d18xx", _rechain(base, [*base.actions, chat]))
    write("note-2mb.d18xx", dump_save(base.header, base.actions, base.digest,
                                      notes={"1": "x" * (2 * 1024 * 1024)}))
    export = json.loads(base.export_text)
    export["players"][0]["name"] = long_name
    write("name-2mb.json", json.dumps(export))
    export = json.loads(base.export_text)
    export["actions"].append({**chat, "id": len(export["actions"]) + 1})
    write("chat-2mb.json", json.dumps(export))
    write("nested-100k.d18xx", "format_version: 2\nx: " + "[" * 100_000 + "]" * 100_000)
    write("nested-900.d18xx", "format_version: 2\nx: " + "[" * 900 + "]" * 900 + "\n")
    write("nested-100k.json", "[" * 100_000 + "]" * 100_000)
    write("nested-object.json", '{"a":' * 50_000 + "1" + "}" * 50_000)
    deep = '{"a": ' * 980 + "1" + "}" * 980
    write("nested-action.d18xx", base.save_text.replace('"id": 3}', '"id": 3, "x": ' + deep + "}",
                                                        1))
    write("nested-yaml-map.d18xx", base.save_text.replace("notes: {}", "notes: " + "{a: " * 500
                                                          + "1" + "}" * 500))
    export = json.loads(base.export_text)
    export["actions"][2]["x"] = json.loads('{"a": ' * 500 + "1" + "}" * 500)
    write("nested-action.json", json.dumps(export))
    write("wide-notes.d18xx", "format_version: 2\nnotes:\n" +
          "".join(f"  k{i}: v\n" for i in range(200_000)))
    write("one-long-line.d18xx", "format_version: 2\nx: " + "y" * (8 * 1024 * 1024))
    big = folder / "sparse-100mb.d18xx"
    with big.open("wb") as handle:
        handle.write(b"format_version: 2\n")
        handle.truncate(100 * 1024 * 1024)
    cases.append(Case(big.name, big, "huge"))
    big = folder / "sparse-100mb.json"
    with big.open("wb") as handle:
        handle.write(b'{"title": "1867",')
        handle.truncate(100 * 1024 * 1024)
    cases.append(Case(big.name, big, "huge"))
    return cases


def special_cases(folder: Path, base: Base) -> list[Case]:
    """FIFOs, directories, devices, sockets, symbolic link loops (POSIX only)."""
    cases: list[Case] = []

    def add(name: str) -> None:
        cases.append(Case(name, folder / name, "special"))

    for name in ("dir.d18xx", "dir.json"):
        (folder / name).mkdir()
        add(name)
    if hasattr(os, "mkfifo"):
        for name in ("fifo.d18xx", "fifo.json"):
            os.mkfifo(folder / name)
            add(name)
    links = {"zero.d18xx": "/dev/zero", "zero.json": "/dev/zero", "devnull.d18xx": "/dev/null",
             "urandom.json": "/dev/urandom", "tty.d18xx": "/dev/tty",
             "dangling.d18xx": str(folder / "nowhere"), "to-dir.d18xx": str(folder / "dir.d18xx"),
             "to-fifo.json": str(folder / "fifo.json"), "self.d18xx": str(folder / "self.d18xx"),
             "loop-a.d18xx": str(folder / "loop-b.d18xx"),
             "loop-b.d18xx": str(folder / "loop-a.d18xx")}
    for name, target in links.items():
        (folder / name).symlink_to(target)
        add(name)
    sock = folder / "sock.d18xx"
    if hasattr(socket, "AF_UNIX") and len(str(sock)) < 100:
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(str(sock))
        server.close()  # the socket file stays
        add(sock.name)
    return cases


def _telling_bid(base: Base) -> int:
    """The first bid whose amount, raised by 5, leaves another final position (a bid
    outbid later leaves none: the edit would be a legal game with the same digest)."""
    from desk18xx.io.replaying import replay_log

    for i, a in enumerate(base.actions):
        if a["type"] != "bid":
            continue
        edited = [{**b, "price": b["price"] + 5} if j == i else b
                  for j, b in enumerate(base.actions)]
        replayed = replay_log(base.header, edited)
        if replayed.failure is None and digest_of(replayed.game) != base.digest:
            return i
    raise AssertionError("no bid of the base game shows in its final position")


def edited_cases(folder: Path, base: Base) -> list[Case]:
    """Edited files, with the hash chain left broken or recomputed."""
    cases: list[Case] = []
    write = _writer(folder, "edited", cases)
    acts = base.actions

    def first(kind: str) -> int:
        return next(i for i, a in enumerate(acts) if a["type"] == kind)

    bid = _telling_bid(base)
    write("edit-price.d18xx", _edit(base.save_text, lambda d: d["actions"][bid]["action"].update(
        price=d["actions"][bid]["action"].get("price", 0) + 1)))
    write("edit-entity.d18xx", _edit(base.save_text, lambda d: d["actions"][3]["action"].update(
        entity="2" if d["actions"][3]["action"].get("entity") != "2" else "3")))
    write("edit-setup.d18xx", _edit(base.save_text, lambda d: d["setup"].update(seed=6)))
    write("edit-count.d18xx", _edit(base.save_text, lambda d: d["end"].update(action_count=13)))
    write("edit-head.d18xx", _edit(base.save_text, lambda d: d["end"].update(head="0" * 16)))
    write("drop-last.d18xx", _edit(base.save_text, lambda d: d["actions"].pop()))
    write("swap.d18xx", _edit(base.save_text, lambda d: d["actions"].insert(
        2, d["actions"].pop(5))))
    write("rechain-price.d18xx", _rechain(base, [
        {**a, "price": a.get("price", 0) + 5} if i == bid else a for i, a in enumerate(acts)]))
    write("rechain-drop.d18xx", _rechain(base, acts[:5] + acts[6:]))
    write("rechain-swap.d18xx", _rechain(base, [acts[1], acts[0], *acts[2:]]))
    write("rechain-dup.d18xx", _rechain(base, [*acts[:4], acts[3], *acts[4:]]))
    write("rechain-illegal.d18xx", _rechain(base, [*acts[:4], {
        "type": "lay_tile", "entity": "1", "entity_type": "player", "id": 99,
        "hex": "Z99", "tile": "5-0", "rotation": 0}, *acts[4:]]))
    write("rechain-garbage-action.d18xx", _rechain(base, [*acts[:2], {
        "type": "bid", "entity": [1], "price": {"x": 1}}, *acts[2:]]))
    write("rechain-unknown-type.d18xx", _rechain(base, [*acts[:2], {
        "type": "teleport", "entity": "1"}, *acts[2:]]))
    write("rechain-title.d18xx", _rechain(base, acts, SaveHeader(
        "1822CA", base.header.players, base.header.seed)))
    write("rechain-digest.d18xx", _rechain(base, acts, digest="1:" + "0" * 64))
    write("rechain-digest-junk.d18xx", _rechain(base, acts, digest="not a digest"))
    write("future-version.d18xx", base.save_text.replace("format_version: 2",
                                                         "format_version: 99", 1))
    write("version-0.d18xx", base.save_text.replace("format_version: 2", "format_version: 0", 1))
    write("one-player.d18xx", _edit(base.save_text, lambda d: d["setup"]["players"].pop()))
    write("unknown-title.d18xx", _edit(base.save_text, lambda d: d["setup"].update(
        title="1830")))
    write("same-ids.d18xx", _edit(base.save_text, lambda d: d["setup"]["players"][1].update(
        id="1")))
    export = json.loads(base.export_text)
    export["actions"].insert(3, {"type": "lay_tile", "entity": "CNR", "entity_type":
                                 "corporation", "id": 4242, "hex": "Z99", "tile": "5-0",
                                 "rotation": 0})
    write("illegal-action.json", json.dumps(export))
    export = json.loads(base.export_text)
    export["title"] = "1830"
    write("unknown-title.json", json.dumps(export))
    export = json.loads(base.export_text)
    export["players"] = export["players"][:1]
    write("one-player.json", json.dumps(export))
    export = json.loads(base.export_text)
    export["actions"] = [*export["actions"][:3], {"type": "redo", "entity": 1, "id": 4}]
    write("redo-nothing.json", json.dumps(export))
    return cases


def study_cases(folder: Path, base: Base) -> list[Case]:
    """Study files whose ``study`` section is malformed (the app refuses them: so must verify)."""
    cases: list[Case] = []
    write = _writer(folder, "study", cases)
    edits: dict[str, Callable[[dict[str, Any]], object]] = {
        "nodes-mapping": lambda d: d["study"].update(nodes={"a": 1}),
        "node-hash": lambda d: d["study"]["nodes"][2].update(hash="0" * 16),
        "node-parent": lambda d: d["study"]["nodes"][3].update(parent=77),
        "node-id-string": lambda d: d["study"]["nodes"][1].update(id="2"),
        "node-action": lambda d: d["study"]["nodes"][4]["action"].update(price=1),
        "node-list": lambda d: d["study"]["nodes"].__setitem__(0, [1]),
        "line-bogus": lambda d: d["study"].update(line="sideways"),
        "main-line-other": lambda d: d["study"].update(nodes=d["study"]["nodes"][:5]),
        "study-list": lambda d: d.update(study=[1]),
        "mark-bogus": lambda d: d["study"]["nodes"][2].update(marks=["excellent!!"]),
    }
    for name, change in edits.items():
        write(f"study-{name}.d18xx", _edit(base.study_text, change))
    tree = tree_from_log(base.actions)
    tree.go_to(tree.main_line()[5])
    tree.play({"type": "bid", "entity": 9, "entity_type": "player", "price": -5,
               "company": "NOPE", "id": 500})  # hashed correctly, but never legal
    write("study-illegal-current.d18xx", dump_save(base.header, base.actions, base.digest,
                                                   study=study_section(base.header, tree)))
    return cases


PBEM_HEADER = SaveHeader("1867", (SavedPlayer("1", "Ann"), SavedPlayer("2", "Bob"),
                                  SavedPlayer("3", "Cy")), seed=11)
PBEM_NAMES = {p.id: p.name for p in PBEM_HEADER.players}


def play_turn(game: Game, me: str, raw: list[dict[str, Any]], rng: random.Random) -> int:
    """`me` plays random legal moves until someone else must act; returns how many."""
    from desk18xx.engine.actions import Pass
    from desk18xx.io.transfer import acting_player

    played = 0
    while not game.finished and acting_player(game) == me:
        moves = game.legal_moves(rng)
        others = [m for m in moves if not isinstance(m, Pass)]
        move = rng.choice(others) if others and rng.random() > 0.3 else rng.choice(moves)
        game.process(move)
        raw.append({**move.to_dict(), "id": len(raw) + 1})
        played += 1
    return played


@dataclass(slots=True)
class PbemWorld:
    """Ann, Bob and Cy playing 1867 by signed e-mail, each with their own data folder
    (keys, copies, pins), stopped when a file reaches Ann (`good`, not yet opened)."""

    data: dict[str, Path]
    """Player id -> that player's data folder."""
    raw: list[dict[str, Any]]
    """The log of `good`."""
    good: Path
    sender: str
    older: Path
    """A file Ann received before (older than her copy)."""
    ann_known: int
    """Entries in Ann's copy."""


def pbem_world(folder: Path, seed: int = 5) -> PbemWorld:
    """Play until the file reaching Ann holds new moves by both Bob and Cy (seed 5: one
    of them tells a consequence, an auction won, for the narration test)."""
    from desk18xx.io.pbem import EmailDesk
    from desk18xx.io.transfer import acting_player

    data = {pid: folder / f"pbem-data-{name.lower()}" for pid, name in PBEM_NAMES.items()}
    desks = {pid: EmailDesk(path) for pid, path in data.items()}
    from desk18xx.io.pbem import game_identity, game_stable_identity

    for pid, path in data.items():  # "which player are you?", as the app remembers it
        path.mkdir(parents=True, exist_ok=True)
        (path / "settings.ini").write_text(
            f"[pbem]\n{game_identity(PBEM_HEADER)}={pid}\n\n"
            f"[pbem-players]\n{game_stable_identity(PBEM_HEADER)}={pid}\n", encoding="utf-8")
    mail = folder / "pbem-mail"
    mail.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    game, raw = new_game(PBEM_HEADER), []
    sender = acting_player(game) or "1"
    play_turn(game, sender, raw, rng)
    sent = desks[sender].send(mail, PBEM_HEADER, raw, digest_of(game), sender)
    older: Path | None = None
    ann_known = 0
    for _ in range(200):
        receiver = acting_player(game) or ""
        move = desks[receiver].receive(sent.path, receiver)
        if receiver == "1" and older is not None and ann_known:
            if {"2", "3"} <= set(move.signers[ann_known:]):
                good = folder / "pbem-good.d18xx"
                good.write_bytes(sent.path.read_bytes())
                return PbemWorld(data, list(raw), good, sender, older, ann_known)
        desks[receiver].keep(move)
        if receiver == "1":
            kept = folder / "pbem-older.d18xx"
            kept.write_bytes(sent.path.read_bytes())
            older, ann_known = kept, len(raw)
        play_turn(game, receiver, raw, rng)
        sent = desks[receiver].send(mail, PBEM_HEADER, raw, digest_of(game), receiver)
        sender = receiver
    raise AssertionError("no file with moves of both Bob and Cy reached Ann")


def _signed(path: Path) -> tuple[dict[str, Any], Any]:
    """The document of a signed file and its parsed signatures."""
    from desk18xx.io.signing import parse_signatures

    document = yamlio.load(path.read_text(encoding="utf-8"))
    sigs = parse_signatures(document["signatures"], str(path), len(document["actions"]),
                            list(PBEM_NAMES))
    return document, sigs


def _write_signed(header: SaveHeader, actions: list[dict[str, Any]], digest: str,
                  sigs: Any, sealer: tuple[str, Any] | None = None) -> str:
    """A signed save; `sealer` (player id, `LocalKey`) seals it again, as a forger who
    sends it would."""
    from desk18xx.io.signing import seal_message

    if sealer is not None:
        by, key = sealer
        sigs.seal = (by, key.sign(seal_message(by, header.setup_mapping(), actions)))
    return dump_save(header, actions, digest, signatures=sigs.to_data())


def _resign(header: SaveHeader, actions: list[dict[str, Any]], sigs: Any, index: int,
            by: str, key: Any) -> None:
    """Sign entry `index` as `by` with `key` (a `LocalKey`) over the current chain."""
    from desk18xx.io.signing import move_chain, move_message

    chain = move_chain(header.setup_mapping(), actions)
    sigs.moves[index] = (by, key.sign(move_message(by, index, chain[index])))


def pbem_cases(folder: Path, base: Base) -> list[Case]:
    """Signed e-mail moves reaching Ann, who has her copy, her key and the keys she
    pinned (in ``pbem-data-ann``, `Case.receiver`): one good file, and a rewrite
    under a changed identity (a trailing space, another seed), a move signed by
    another player, an older file, a wrong key, re-signed by the wrong key,
    edited and re-chained, unsigned, her own key replaced, a stripped signature,
    a malformed section. Plain verification accepts most of them: only the
    receive path (`EmailDesk.receive`) can tell."""
    from desk18xx.io.pbem import EmailDesk
    from desk18xx.io.signing import KeyStore
    from desk18xx.io.transfer import acting_player, controller, header_player

    cases: list[Case] = []
    world = pbem_world(folder)
    ann = world.data["1"]

    def write(name: str, content: str | bytes, *, valid: bool = False) -> None:
        path = folder / name
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
        cases.append(Case(name, path, "pbem", valid, receiver=ann, me="1"))

    cases.append(Case(world.good.name, world.good, "pbem", True, receiver=ann, me="1"))
    cases.append(Case(world.older.name, world.older, "pbem", receiver=ann, me="1"))
    header, raw = PBEM_HEADER, world.raw
    document, sigs = _signed(world.good)
    game = new_game(header)
    owners: list[str | None] = []
    for entry in raw:
        owners.append(header_player(game, controller(game, str(entry["entity"]))))
        game.process(action_from_dict(entry))
    digest = digest_of(game)
    sender = world.sender
    third = next(p for p in ("2", "3") if p != sender)
    theirs = max(i for i in range(world.ann_known, len(raw)) if owners[i] == third)
    forger = KeyStore(folder / "pbem-forger-keys")

    # a move for Ann (whose turn it is), signed by the sender
    rng = random.Random(1)
    extra = list(raw)
    more = new_game(header)
    for entry in raw:
        more.process(action_from_dict(entry))
    assert acting_player(more) == "1"
    move = more.legal_moves(rng)[0]
    extra.append({**move.to_dict(), "id": len(extra) + 1})
    more.process(move)
    other = type(sigs)(dict(sigs.keys), list(sigs.moves) + [None])
    sender_key = KeyStore(world.data[sender] / "keys").key_for(PBEM_NAMES[sender])
    sealer = (sender, sender_key)
    _resign(header, extra, other, len(extra) - 1, sender, sender_key)
    write("pbem-move-for-another-player.d18xx",
          _write_signed(header, extra, digest_of(more), other, sealer))

    # a wrong key: the third player's move re-signed by a key the forger made for them
    wrong = type(sigs)(dict(sigs.keys), list(sigs.moves))
    fake = forger.key_for(PBEM_NAMES[third])
    wrong.keys[third] = fake.public
    for i in range(len(raw)):
        if wrong.moves[i] is not None and wrong.moves[i][0] == third:
            _resign(header, raw, wrong, i, third, fake)
    write("pbem-wrong-key.d18xx", _write_signed(header, raw, digest, wrong, sealer))

    # an edit (the third player's move gets another id), re-chained and re-signed by the
    # sender's own key in the sender's name
    edited = [dict(a) for a in raw]
    edited[theirs]["id"] = 9000 + theirs
    resigned = type(sigs)(dict(sigs.keys), list(sigs.moves))
    for i in range(theirs, len(edited)):
        if resigned.moves[i] is not None:
            _resign(header, edited, resigned, i, sender if i == theirs else resigned.moves[i][0],
                    sender_key)
    write("pbem-resigned-by-the-wrong-key.d18xx",
          _write_signed(header, edited, digest, resigned, sealer))

    # the same edit, re-chained and sealed again, the moves' signatures left as they were
    write("pbem-edited-rechained.d18xx", _write_signed(
        header, edited, digest, type(sigs)(dict(sigs.keys), list(sigs.moves)), sealer))

    # cut short by one action (a relay, or a sender taking a move back), seal kept
    cut = new_game(header)
    for entry in raw[:-1]:
        cut.process(action_from_dict(entry))
    write("pbem-cut-short.d18xx", dump_save(header, raw[:-1], digest_of(cut), signatures={
        **sigs.to_data(), "moves": sigs.to_data()["moves"][:-1]}))

    # no signatures at all
    write("pbem-unsigned.d18xx", dump_save(header, raw, digest))

    # one of the third player's new moves without its signature
    stripped = type(sigs)(dict(sigs.keys), list(sigs.moves))
    stripped.moves[theirs] = None
    write("pbem-signature-removed.d18xx", _write_signed(header, raw, digest, stripped, sealer))

    # Ann's own key replaced and her moves re-signed by the forger
    as_ann = type(sigs)(dict(sigs.keys), list(sigs.moves))
    fake_ann = forger.key_for("Ann")
    as_ann.keys["1"] = fake_ann.public
    for i in range(len(raw)):
        if as_ann.moves[i] is not None and as_ann.moves[i][0] == "1":
            _resign(header, raw, as_ann, i, "1", fake_ann)
    write("pbem-own-key-replaced.d18xx", _write_signed(header, raw, digest, as_ann, sealer))

    # a malformed section: one signature too few
    short = dict(document)
    short["signatures"] = {**document["signatures"],
                           "moves": document["signatures"]["moves"][:-1]}
    write("pbem-signatures-short.d18xx", yamlio.dump(short))

    # the history rewritten from the start, sent under a changed identity (a trailing
    # space in Ann's name; another seed), signed by the sender where he can
    for label, changed in (("name-space", SaveHeader(header.title, (
            SavedPlayer("1", "Ann "), *header.players[1:]), header.seed)),
            ("seed", SaveHeader(header.title, header.players, header.seed + 1))):
        forged_game, forged = new_game(changed), []
        rng = random.Random(99)
        while len(forged) < len(raw) and not forged_game.finished:
            play_turn(forged_game, acting_player(forged_game) or "", forged, rng)
        scratch = folder / f"pbem-forger-{label}"
        scratch.mkdir()
        sent = EmailDesk(world.data[sender]).send(scratch, changed, forged,
                                                  digest_of(forged_game), sender)
        write(f"pbem-rewrite-{label}.d18xx", sent.path.read_bytes())
    return cases


MAKERS: list[Maker] = [control_cases, empty_cases, truncated_cases, binary_cases, type_cases,
                       value_cases, huge_cases, special_cases, edited_cases, study_cases,
                       pbem_cases]
"""Every maker of the corpus, in order."""


def build_corpus(folder: Path, makers: list[Maker] | None = None) -> list[Case]:
    """Write the corpus into `folder` (created) and return its cases."""
    folder.mkdir(parents=True, exist_ok=True)
    base = base_game()
    cases: list[Case] = []
    for maker in makers if makers is not None else MAKERS:
        cases.extend(maker(folder, base))
    return cases


def fingerprint(folder: Path) -> dict[str, tuple[Any, ...]]:
    """Every entry under `folder` (links not followed, FIFOs never opened): its kind,
    size, mode and modification time, and the SHA-256 of each regular file."""
    prints: dict[str, tuple[Any, ...]] = {}
    for path in sorted(folder.rglob("*")):
        info = path.lstat()
        digest = ""
        if stat.S_ISREG(info.st_mode):
            with path.open("rb") as handle:  # sparse giants: their ends and their size
                head = handle.read(1 << 20)
                handle.seek(max(0, info.st_size - (1 << 20)))
                digest = hashlib.sha256(head + handle.read()).hexdigest()
        elif stat.S_ISLNK(info.st_mode):
            digest = os.readlink(path)
        prints[str(path.relative_to(folder))] = (stat.S_IFMT(info.st_mode), info.st_size,
                                                 info.st_mode, info.st_mtime_ns, digest)
    return prints
