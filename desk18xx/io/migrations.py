"""Save-format versions and the steps that bring an old save up to date.

Like qutebrowser's ``config/configfiles.py`` (``VERSION``, ``YamlMigrations``):
each entry of `MIGRATIONS` turns a document of version *n* into version *n+1*;
`migrate` applies them in order. A save newer than `CURRENT_VERSION` is
refused (it was written by a newer app).

A migration gets and returns the parsed YAML document (plain dicts, lists,
str, int, …). If it changes ``setup`` or ``actions`` it must leave the hash
chain valid: call `desk18xx.io.savechain.rechain` on the result.

Version history:

- 1: first format (docs/save-format.md).
- 2: optional ``study`` section (study mode: the variation tree with names,
  notes and marks). A version-1 file is a version-2 plain game: the step
  only checks there is no ``study`` key yet.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

CURRENT_VERSION: Final = 2
"""The version `desk18xx.io.savefile.save_game` writes."""

Migration = Callable[[dict[str, Any]], dict[str, Any]]
"""Turns a version-n document into a version-(n+1) document."""

class MigrationError(ValueError):
    """A document whose version cannot be brought to `CURRENT_VERSION`."""


def v1_to_v2(document: dict[str, Any]) -> dict[str, Any]:
    """Version 2 adds the optional ``study`` section; a version-1 save is a plain game.

    Raises:
        MigrationError: a version-1 file already has a ``study`` key (it cannot
            have been written by a version-1 app).
    """
    if "study" in document:
        raise MigrationError("format_version 1 has no 'study' section; is the version wrong?")
    return dict(document)


MIGRATIONS: Final[dict[int, Migration]] = {1: v1_to_v2}
"""From-version -> migration."""


def migrate(
    document: dict[str, Any],
    version: int,
    *,
    current: int | None = None,
    steps: Mapping[int, Migration] | None = None,
) -> dict[str, Any]:
    """Bring `document` from `version` to `current`.

    Args:
        document: the parsed save (not modified; migrations may return a new dict).
        version: its ``format_version``.
        current: the target version; `CURRENT_VERSION` when None.
        steps: the migration table; `MIGRATIONS` when None.

    Returns:
        The document at version `current`, with ``format_version`` set.

    Raises:
        MigrationError: `version` is below 1, above `current`, or a step is missing.
    """
    current = CURRENT_VERSION if current is None else current
    steps = MIGRATIONS if steps is None else steps
    if version < 1:
        raise MigrationError(f"format_version {version} does not exist (versions start at 1)")
    if version > current:
        raise MigrationError(
            f"format_version {version} was written by a newer desk18xx; this version reads "
            f"formats up to {current}: update the app"
        )
    result = dict(document)
    while version < current:
        step = steps.get(version)
        if step is None:
            raise MigrationError(f"no migration from format_version {version} to {version + 1}")
        result = step(result)
        version += 1
        result["format_version"] = version
    return result
