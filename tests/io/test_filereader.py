"""The one file reader (desk18xx.io.filereader) and the plain-scalar YAML loader."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest
import yaml

from desk18xx.io import filereader, yamlio
from desk18xx.io.filereader import FileKind, FileRefused, kind_of, parse_json, read_bytes
from desk18xx.io.savechain import link_hash


def test_a_fifo_swapped_in_after_the_check_is_refused_without_blocking(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fifo = tmp_path / "game.d18xx"
    os.mkfifo(fifo)
    regular = os.stat(__file__)
    real_stat = os.stat

    def stat_says_regular(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        return regular if str(path) == str(fifo) else real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat_says_regular)  # the race: a FIFO after the check
    with pytest.raises(FileRefused, match=r"is a FIFO \(named pipe\), not a file"):
        read_bytes(fifo, 1 << 20)  # a blocking open would never return (no writer)


def test_the_limit_is_read_from_the_stream_not_from_st_size(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "big.d18xx"
    path.write_bytes(b"x" * 5000)
    small = os.stat_result((stat.S_IFREG | 0o644, 0, 0, 1, 0, 0, 10, 0, 0, 0))
    real_stat = os.stat
    monkeypatch.setattr(os, "stat", lambda p, *a, **k: small if str(p) == str(path)
                        else real_stat(p, *a, **k))
    monkeypatch.setattr(os, "fstat", lambda fd: small)  # /proc files say 0, a file may grow
    with pytest.raises(FileRefused, match="is larger than 4000 bytes"):
        read_bytes(path, 4000)
    assert read_bytes(path, 5000) == b"x" * 5000


@pytest.mark.parametrize(("target", "problem"), [
    ("/dev/zero", "is a device, not a file"),
    ("/dev/null", "is a device, not a file"),
    (".", "is a directory, not a file"),
])
def test_links_are_followed_to_what_they_name(tmp_path: Path, target: str, problem: str) -> None:
    link = tmp_path / "link.d18xx"
    link.symlink_to(target if target != "." else str(tmp_path))
    with pytest.raises(FileRefused, match=problem):
        read_bytes(link, 1 << 20)


def test_a_link_loop_is_named(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    with pytest.raises(FileRefused, match="symbolic link loop"):
        read_bytes(tmp_path / "a", 100)
    with pytest.raises(FileRefused, match=f"{tmp_path / 'a'}: \\(file\\): is a symbolic"):
        kind_of(tmp_path / "a")


@pytest.mark.parametrize(("head", "kind"), [
    (b'{"title": "1867"}', FileKind.EXPORT),
    (b'\xef\xbb\xbf\n  [1]', FileKind.EXPORT),
    (b"format_version: 2\napp_version: 0.1.0\n", FileKind.SAVE),
    (b"# a comment\n---\nformat_version: 2\n", FileKind.SAVE),
    (b"title: 1867\n", FileKind.OTHER),
    (b"", FileKind.OTHER),
    (b"\x89PNG\r\n", FileKind.OTHER),
])
def test_one_detection_by_content(tmp_path: Path, head: bytes, kind: FileKind) -> None:
    path = tmp_path / "game.json"  # the name says nothing
    path.write_bytes(head)
    assert kind_of(path) is kind


@pytest.mark.parametrize(("text", "problem"), [
    ('{"a": NaN}', "NaN is not a number"),
    ('{"a": -Infinity}', "-Infinity is not a number"),
    ('{"a": 1e999}', "too large"),
    ('{"a": ' + "1" * 1001 + "}", "an integer of 1001 digits"),
])
def test_json_refuses_what_is_not_a_plain_number(text: str, problem: str) -> None:
    with pytest.raises(filereader.JsonValueError, match=problem) as caught:
        parse_json(text)
    assert filereader.json_position(text, caught.value.token) == (1, 7)


def test_a_timestamp_stays_a_string_and_can_be_hashed() -> None:
    document = yamlio.load("created_at: 2021-01-05 02:10:01\nday: 2021-01-05\n")
    assert document == {"created_at": "2021-01-05 02:10:01", "day": "2021-01-05"}
    assert link_hash("0" * 16, document)  # the TypeError of issue 14 is gone


@pytest.mark.parametrize(("text", "problem"), [
    ("a: !!binary aGVsbG8=", "tag 'tag:yaml.org,2002:binary' is not allowed"),
    ("a: !!set {x, y}", "tag 'tag:yaml.org,2002:set' is not allowed"),
    ("a: !!omap [x: 1]", "tag 'tag:yaml.org,2002:omap' is not allowed"),
    ("a: !!timestamp 2021-01-05", "tag 'tag:yaml.org,2002:timestamp' is not allowed"),
    ("a: .nan", "not a finite number"),
    ("a: -.inf", "not a finite number"),
    ("a: " + "7" * 5000, "an integer of 5000 digits"),
    ("d: !!merge {c: 1}", "merge"),
    ("b: {c: 1}\nd: {!!merge <<: {c: 2}}", "merge keys"),
])
def test_yaml_keeps_plain_scalars_only(text: str, problem: str) -> None:
    with pytest.raises(yaml.YAMLError, match=problem):
        yamlio.load(text)


def test_field_sizes_are_bounded_with_their_place() -> None:
    name = "N" * 300
    text = f"setup:\n  players:\n  - id: '1'\n    name: {name}\n"
    with pytest.raises(yamlio.LimitError) as caught:
        yamlio.load(text)
    assert "setup.players[0].name is a string of 300 characters; at most 200" in str(caught.value)
    assert caught.value.problem_mark is not None and caught.value.problem_mark.line == 3
    assert yamlio.load(f"notes:\n  '1': {name}\n") == {"notes": {"1": name}}  # notes are longer
