"""Plain-data YAML: safe loading without aliases, fast dumping (no Qt, no code execution).

Loading uses `PlainLoader`, PyYAML's safe loader (libyaml's C one when
available) cut down to plain scalars: mappings, lists, strings, integers,
finite numbers, booleans and null, never Python objects, and none of the
other types the safe loader builds (``!!timestamp``: ``2021-01-05 02:10:01``
stays a string; ``!!binary``, ``!!set``, ``!!omap``, ``!!pairs``, merge keys
are refused). NaN, infinities and integers over
`desk18xx.io.filereader.MAX_INT_DIGITS` digits are refused with their line.
Aliases are refused after loading, since a few kilobytes of nested aliases
can stand for billions of nodes ("billion laughs"). Strings are bounded
(`MAX_STRING_CHARS`, and less for names and chat: `FIELD_LIMITS`).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Final

import yaml

from desk18xx.io.filereader import MAX_INT_DIGITS, JsonValueError, parse_json

try:  # libyaml's C classes are much faster; the pure-Python ones behave the same
    from yaml import CSafeDumper as BaseDumper
    from yaml import CSafeLoader as BaseLoader
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    from yaml import SafeDumper as BaseDumper  # type: ignore[assignment]
    from yaml import SafeLoader as BaseLoader  # type: ignore[assignment]


class Dumper(BaseDumper):
    """The safe dumper, never writing anchors and aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


class AliasError(yaml.YAMLError):
    """The document uses an alias (``*name``)."""


class LimitError(yaml.MarkedYAMLError):
    """A string longer than its field allows (`FIELD_LIMITS`, `MAX_STRING_CHARS`)."""


MAX_STRING_CHARS: Final = 100_000
"""No string of a save is longer (a note of a few pages is 10 000 characters)."""

MAX_DEPTH: Final = 64
"""Deepest nesting of lists and mappings (a save needs 6)."""

MAX_NAME_CHARS: Final = 200
MAX_MESSAGE_CHARS: Final = 10_000

FIELD_LIMITS: Final[dict[tuple[str, ...], int]] = {
    ("setup", "players", "*", "name"): MAX_NAME_CHARS,
    ("setup", "players", "*", "id"): MAX_NAME_CHARS,
    ("actions", "*", "action", "message"): MAX_MESSAGE_CHARS,
    ("actions", "*", "action", "entity"): MAX_NAME_CHARS,
    ("actions", "*", "action", "type"): MAX_NAME_CHARS,
    ("study", "nodes", "*", "name"): MAX_NAME_CHARS,
    ("study", "nodes", "*", "action", "message"): MAX_MESSAGE_CHARS,
}
"""Tighter bounds for the strings of a save that the window shows in small places
(``*`` is any list index or mapping key)."""

_PLAIN_TAGS: Final = frozenset("tag:yaml.org,2002:" + name for name in (
    "null", "bool", "int", "float", "str", "seq", "map"))


class PlainLoader(BaseLoader):
    """The safe loader reduced to plain scalars.

    Only null, booleans, integers, floats, strings, lists and mappings are
    resolved or constructed; any other tag (``!!timestamp``, ``!!binary``,
    ``!!set``, ``!!omap``, ``!!pairs``, ``!!merge``, ``!!python/…``, ``!local``)
    raises a `yaml.constructor.ConstructorError` with its position.
    """

    yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag in _PLAIN_TAGS]
        for first, resolvers in BaseLoader.yaml_implicit_resolvers.items()
    }
    yaml_constructors = {tag: constructor for tag, constructor
                         in BaseLoader.yaml_constructors.items() if tag in _PLAIN_TAGS}

    def construct_undefined(self, node: yaml.Node) -> Any:
        raise yaml.constructor.ConstructorError(
            None, None, f"the tag {node.tag!r} is not allowed (plain values only)",
            node.start_mark)

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        text = str(node.value)
        if len(text) > MAX_INT_DIGITS:
            raise yaml.constructor.ConstructorError(
                None, None, f"an integer of {len(text)} digits (at most {MAX_INT_DIGITS} "
                "are allowed)", node.start_mark)
        value: int = super().construct_yaml_int(node)
        return value

    def construct_yaml_float(self, node: yaml.ScalarNode) -> float:
        value: float = super().construct_yaml_float(node)
        if not math.isfinite(value):
            raise yaml.constructor.ConstructorError(
                None, None, f"{str(node.value)[:40]!r} is not a finite number (NaN and "
                "infinities are not allowed)", node.start_mark)
        return value

    def flatten_mapping(self, node: yaml.MappingNode) -> None:
        for key, _value in node.value:
            if key.tag == "tag:yaml.org,2002:merge":
                raise yaml.constructor.ConstructorError(
                    None, None, "merge keys (<<) are not allowed", key.start_mark)
        super().flatten_mapping(node)


PlainLoader.add_constructor("tag:yaml.org,2002:int", PlainLoader.construct_yaml_int)
PlainLoader.add_constructor("tag:yaml.org,2002:float", PlainLoader.construct_yaml_float)
PlainLoader.add_constructor(None, PlainLoader.construct_undefined)


def load(text: str) -> Any:
    """Parse plain YAML data.

    Lines that end in a JSON object (how `flow_line` writes actions) are read
    with the JSON parser, which is many times faster than PyYAML's constructor;
    the result is the same data (see `_load_flow_lines`).

    Raises:
        yaml.YAMLError: not valid YAML, a non-plain tag, a refused value (NaN,
            an over-long integer), an alias (`AliasError`) or an over-long
            string (`LimitError`); `yaml.MarkedYAMLError` carries the position.
    """
    document = _load_flow_lines(text)
    if document is _NO_FAST_PATH:
        document = yaml.load(text, Loader=PlainLoader)  # plain data only
    refuse_aliases(document)
    check_limits(document, text)
    return document


def _limit(path: tuple[Any, ...]) -> int:
    for pattern, limit in FIELD_LIMITS.items():
        if len(pattern) == len(path) and all(p == "*" or p == k for p, k in zip(pattern, path,
                                                                               strict=True)):
            return limit
    return MAX_STRING_CHARS


def check_limits(document: Any, text: str = "") -> None:
    """Raise `LimitError` for a string longer than its field allows, or lists and
    mappings nested deeper than `MAX_DEPTH`.

    Args:
        text: the document's text, to name the line of the string.
    """
    stack: list[tuple[Any, tuple[Any, ...]]] = [(document, ())]
    while stack:
        node, path = stack.pop()
        if len(path) > MAX_DEPTH:
            where = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path[:6])
            raise LimitError(None, None, f"{where.lstrip('.')}… is nested more than "
                             f"{MAX_DEPTH} levels deep", None)
        items = node.items() if isinstance(node, dict) else enumerate(node) \
            if isinstance(node, list) else ()
        for key, child in items:
            if isinstance(child, dict | list):
                stack.append((child, (*path, key)))
            elif isinstance(child, str) and len(child) > MAX_NAME_CHARS:
                limit = _limit((*path, key))
                if len(child) > limit:
                    _too_long((*path, key), child, limit, text)
            if isinstance(key, str) and len(key) > MAX_NAME_CHARS:
                _too_long((*path, key), key, MAX_NAME_CHARS, text, what="a key")


def _too_long(path: tuple[Any, ...], value: str, limit: int, text: str,
              what: str = "a string") -> None:
    where = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path).lstrip(".")
    mark = None
    index = text.find(value[:60]) if text else -1
    if index >= 0:
        line = text.count("\n", 0, index)
        mark = yaml.Mark("<file>", index, line, index - (text.rfind("\n", 0, index) + 1),
                         None, 0)
    raise LimitError(None, None, f"{where} is {what} of {len(value)} characters; at most "
                     f"{limit} are allowed", mark)


_FLOW_LINE = re.compile(r"^((?: *- | *[A-Za-z_][A-Za-z0-9_]*: | *- [A-Za-z_][A-Za-z0-9_]*: ))"
                        r"(\{.*\})[ \t]*$", re.MULTILINE)
_ENTRY = re.compile(r"^(- )hash: '([0-9a-f]*)'\n  action: (\{.*\})[ \t]*$", re.MULTILINE)
_PLACEHOLDER = "__desk18xx_json_{}__"
_NO_FAST_PATH: Any = object()


def _load_flow_lines(text: str) -> Any:
    """The fast path of `load`, or `_NO_FAST_PATH` when it does not apply.

    Each save entry ``- hash: '…'`` + ``  action: {...}`` and each line
    ``<indent>[- ][key: ]{...}`` whose ``{...}`` is a JSON object
    without floats (where YAML 1.1 and JSON agree) is replaced by a
    placeholder scalar; the rest is parsed as YAML and the placeholders are
    swapped for the JSON values. If any placeholder does not come back as a
    whole value (it sat inside a block scalar, say), the whole text is
    parsed as YAML instead.
    """
    if "__desk18xx_json_" in text or "{" not in text:
        return _NO_FAST_PATH
    values: list[Any] = []

    def swap(match: re.Match[str]) -> str:
        """``<prefix>{json}`` or a save entry ``- hash: '…'\n  action: {json}``."""
        entry = match.re is _ENTRY
        try:
            value = parse_json(match.group(3 if entry else 2))
        except (ValueError, JsonValueError, RecursionError):  # YAML then reads (or refuses) it
            return match.group(0)
        try:
            if not isinstance(value, dict) or _has_float(value):
                return match.group(0)
        except RecursionError:  # YAML reads it, and `check_limits` refuses it
            return match.group(0)
        values.append({"hash": match.group(2), "action": value} if entry else value)
        return match.group(1) + _PLACEHOLDER.format(len(values) - 1)

    skeleton = _FLOW_LINE.sub(swap, _ENTRY.sub(swap, text))
    if len(values) < 8:
        return _NO_FAST_PATH
    document = yaml.load(skeleton, Loader=PlainLoader)
    found = [0]

    def put(node: Any) -> Any:
        if isinstance(node, str) and node.startswith("__desk18xx_json_") and node.endswith("__"):
            found[0] += 1
            return values[int(node[16:-2])]
        if isinstance(node, dict):
            for key, child in node.items():
                node[key] = put(child)
        elif isinstance(node, list):
            for i, child in enumerate(node):
                node[i] = put(child)
        return node

    refuse_aliases(document)  # before filling in: the JSON values are fresh objects
    document = put(document)
    return document if found[0] == len(values) else _NO_FAST_PATH


def dump(data: Any, *, flow: bool = False) -> str:
    """YAML text for plain data: no aliases, Unicode kept, keys in their order."""
    return yaml.dump(data, Dumper=Dumper, sort_keys=False, allow_unicode=True,
                     default_flow_style=True if flow else False, width=1_000_000)


_UNSAFE = re.compile("[\x85\u2028\u2029]|" + yaml.reader.Reader.NON_PRINTABLE.pattern)
"""Characters YAML would not read back verbatim inside a JSON string (line breaks, controls)."""


def _has_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_has_float(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_float(v) for v in value)
    return False


def flow_line(action: dict[str, Any]) -> str:
    """A mapping as a one-line YAML flow mapping.

    JSON is YAML flow syntax, and far faster to write than PyYAML's emitter;
    where YAML 1.1 would read the JSON differently (floats such as ``1e-05``,
    YAML line-break characters) PyYAML writes it instead.
    """
    text = json.dumps(action, ensure_ascii=False)
    if _has_float(action) or _UNSAFE.search(text):
        text = dump(action, flow=True).rstrip("\n")
    return text


def refuse_aliases(document: Any) -> None:
    """Raise if a list or mapping occurs twice in the tree: only a YAML alias does that.

    Aliases could expand a small file into a huge tree (billion laughs);
    saves never contain them. Stops at the first repeat, so it is linear.
    """
    seen: set[int] = set()
    stack = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, dict | list):
            if id(node) in seen:
                raise AliasError("aliases (*name) are not allowed")
            seen.add(id(node))
            stack.extend(node.values() if isinstance(node, dict) else node)
