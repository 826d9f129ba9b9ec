"""Plain-data YAML: safe loading without aliases, fast dumping (no Qt, no code execution).

Loading uses PyYAML's safe loader (libyaml's C one when available): only
mappings, lists, strings, numbers, booleans and null, never Python objects.
Aliases are refused after loading, since a few kilobytes of nested aliases
can stand for billions of nodes ("billion laughs").
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml

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


def load(text: str) -> Any:
    """Parse plain YAML data.

    Lines that end in a JSON object (how `flow_line` writes actions) are read
    with the JSON parser, which is many times faster than PyYAML's constructor;
    the result is the same data (see `_load_flow_lines`).

    Raises:
        yaml.YAMLError: not valid YAML, a non-plain tag, or an alias
            (`AliasError`); `yaml.MarkedYAMLError` carries the position.
    """
    document = _load_flow_lines(text)
    if document is _NO_FAST_PATH:
        document = yaml.load(text, Loader=BaseLoader)  # a safe loader: plain data only
    refuse_aliases(document)
    return document


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
            value = json.loads(match.group(3 if entry else 2))
        except ValueError:
            return match.group(0)
        if not isinstance(value, dict) or _has_float(value):
            return match.group(0)
        values.append({"hash": match.group(2), "action": value} if entry else value)
        return match.group(1) + _PLACEHOLDER.format(len(values) - 1)

    skeleton = _FLOW_LINE.sub(swap, _ENTRY.sub(swap, text))
    if len(values) < 8:
        return _NO_FAST_PATH
    document = yaml.load(skeleton, Loader=BaseLoader)
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
