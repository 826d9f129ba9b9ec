"""A cursor over parsed YAML that knows its file and key path, for error messages.

This is the YAML edge of the game data: ``Any`` appears only here and in the
parsers of this package.  Every malformed node is reported as
:class:`~desk18xx.engine.errors.DataError` naming the file and the key path
(``hexes.L12.nodes[2].city.slots: expected int, got str``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, NoReturn

import yaml

from desk18xx.engine.errors import DataError
from desk18xx.engine.tiledef import Color

#: ``yaml.safe_load``'s loader, in its libyaml (C) form when available (4-8x faster).
_SAFE_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(path: Path) -> Node:
    """The top-level mapping of a YAML file.

    Raises:
        DataError: the file cannot be read, is not YAML or is not a mapping.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(str(path), "<file>", f"cannot read: {exc.strerror or exc}") from exc
    try:
        value = yaml.load(text, Loader=_SAFE_LOADER)
    except yaml.YAMLError as exc:
        raise DataError(str(path), "<file>", f"invalid YAML: {exc}") from exc
    node = Node(value, str(path))
    node.mapping()
    return node


class Node:
    """A YAML value with its file and key path."""

    __slots__ = ("value", "file", "key")

    def __init__(self, value: Any, file: str, key: str = "") -> None:
        self.value = value
        self.file = file
        self.key = key

    def fail(self, problem: str) -> NoReturn:
        """Raise :class:`DataError` for this node's file and key path."""
        raise DataError(self.file, self.key or "<top>", problem)

    def sub(self, key: str | int) -> str:
        """The key path of the child ``key`` (a mapping key or a list index)."""
        if isinstance(key, int):
            return f"{self.key}[{key}]"
        return f"{self.key}.{key}" if self.key else key

    def mapping(self) -> dict[Any, Any]:
        """The value as a mapping; fails when it is not one."""
        if not isinstance(self.value, dict):
            self.fail(f"expected mapping, got {type_name(self.value)}")
        return self.value

    def has(self, key: str) -> bool:
        return key in self.mapping()

    def get(self, key: str) -> Node:
        """The required child ``key`` of a mapping."""
        mapping = self.mapping()
        if key not in mapping:
            Node(None, self.file, self.sub(key)).fail("missing")
        return Node(mapping[key], self.file, self.sub(key))

    def opt(self, key: str) -> Node | None:
        """The optional child ``key`` of a mapping (None when absent or null)."""
        mapping = self.mapping()
        if mapping.get(key) is None:
            return None
        return Node(mapping[key], self.file, self.sub(key))

    def only(self, *allowed: str) -> Node:
        """Fail on any key of this mapping not in ``allowed``; returns self."""
        for key in self.mapping():
            if key not in allowed:
                Node(None, self.file, self.sub(str(key))).fail("unknown key")
        return self

    def items(self) -> Iterator[tuple[str, Node]]:
        """Key/value pairs of a mapping with string keys, in file order."""
        for key, value in self.mapping().items():
            if not isinstance(key, str):
                Node(None, self.file, self.sub(str(key))).fail(
                    f"key must be a string (quote it), got {type_name(key)}"
                )
            yield key, Node(value, self.file, self.sub(key))

    def as_list(self) -> list[Node]:
        if not isinstance(self.value, list):
            self.fail(f"expected list, got {type_name(self.value)}")
        return [Node(v, self.file, self.sub(i)) for i, v in enumerate(self.value)]

    def as_int(self) -> int:
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            self.fail(f"expected int, got {type_name(self.value)}")
        return self.value

    def as_str(self) -> str:
        if not isinstance(self.value, str):
            self.fail(f"expected str, got {type_name(self.value)}")
        return self.value

    def as_bool(self) -> bool:
        if not isinstance(self.value, bool):
            self.fail(f"expected bool, got {type_name(self.value)}")
        return self.value

    def enum_color(self) -> Color:
        try:
            return Color(self.as_str())
        except ValueError:
            self.fail(f"unknown colour {self.value!r}")

    def strs(self) -> tuple[str, ...]:
        return tuple(n.as_str() for n in self.as_list())

    def ints(self) -> tuple[int, ...]:
        return tuple(n.as_int() for n in self.as_list())


def type_name(value: Any) -> str:
    """``null``, ``mapping`` or the Python type name, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "mapping"
    return type(value).__name__


# --------------------------------------------------------------------------
# Optional children of a mapping


def opt_int(node: Node, key: str, default: int) -> int:
    child = node.opt(key)
    return default if child is None else child.as_int()


def opt_str(node: Node, key: str) -> str | None:
    child = node.opt(key)
    return None if child is None else child.as_str()


def opt_bool(node: Node, key: str, default: bool = False) -> bool:
    child = node.opt(key)
    return default if child is None else child.as_bool()


def opt_index(node: Node, key: str) -> int | None:
    child = node.opt(key)
    return None if child is None else child.as_int()


def items(node: Node, key: str) -> list[Node]:
    """The list ``key`` (empty when absent)."""
    child = node.opt(key)
    return [] if child is None else child.as_list()


def strs(node: Node, key: str) -> tuple[str, ...]:
    """The list of str ``key`` (empty when absent)."""
    child = node.opt(key)
    return () if child is None else child.strs()


def items_map(node: Node, key: str) -> list[tuple[str, Node]]:
    """The pairs of the mapping ``key`` (empty when absent)."""
    child = node.opt(key)
    return [] if child is None else list(child.items())


def int_map(node: Node, key: str) -> Mapping[str, int]:
    return MappingProxyType({k: v.as_int() for k, v in items_map(node, key)})


def str_map(node: Node, key: str) -> Mapping[str, str]:
    return MappingProxyType({k: v.as_str() for k, v in items_map(node, key)})


def scalar(node: Node, types: tuple[type, ...]) -> Any:
    """The value of ``node`` when it is one of ``types``."""
    if not isinstance(node.value, types):
        node.fail(f"expected {' or '.join(t.__name__ for t in types)}")
    return node.value
