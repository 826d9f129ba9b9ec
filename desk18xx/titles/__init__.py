"""Game titles: each a package with its rules, registered in TITLES (STYLE.md §1)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from desk18xx.engine.game import Game, GameSetup


@dataclass(frozen=True, slots=True)
class Title:
    """A playable title: its id, player range and game factory."""

    id: str
    name: str
    min_players: int
    max_players: int
    options: tuple[str, ...]
    """Optional rules (18xx.games names)."""
    factory: Callable[[GameSetup], Game]
    option_labels: tuple[str, ...] = ()
    """A label for each of `options`, for a new-game dialog."""
    export_title: str = ""
    """The title's name in 18xx.games exports (``"1822CA ERS"``); empty: the id."""

    @property
    def reference_title(self) -> str:
        """The ``title`` of this title's 18xx.games exports."""
        return self.export_title or self.id

    def new_game(self, setup: GameSetup) -> Game:
        """A fresh game for ``setup``."""
        return self.factory(setup)


def _new_1867(setup: GameSetup) -> Game:
    from desk18xx.titles.g1867.game import G1867

    return G1867(setup)


TITLES: dict[str, Title] = {
    "1867": Title("1867", "1867: Railways of Canada", 2, 6, ("grid_market",), _new_1867,
                  ("Grid stock market (optional rule)",)),
}
"""Title id -> title.  "1822CA", "1822CA-ERS" and "1822CA-WRS" are added by their package."""


def find_title(name: str) -> Title:
    """The title for an id or an 18xx.games title string (``"1822CA ERS"``).

    Raises:
        KeyError: unknown title.
    """
    key = name.replace(" ", "-")
    if key in TITLES:
        return TITLES[key]
    raise KeyError(f"unknown title {name!r}; known: {', '.join(sorted(TITLES))}")


def new_game(setup: GameSetup) -> Game:
    """A fresh game of ``setup`` by its title's rules (the registry's factory).

    Raises:
        KeyError: unknown title.
    """
    return find_title(setup.title).new_game(setup)


def _new_1822ca(setup: GameSetup) -> Game:
    from desk18xx.titles.g1822ca.game import G1822CA

    return G1822CA(setup)


TITLES.update({
    "1822CA": Title("1822CA", "1822CA: The Railways of Canada", 2, 7, (), _new_1822ca),
    "1822CA-ERS": Title("1822CA-ERS", "1822CA: Eastern Regional Scenario", 2, 5, (),
                        _new_1822ca, export_title="1822CA ERS"),
    "1822CA-WRS": Title("1822CA-WRS", "1822CA: Western Regional Scenario", 2, 5, (),
                        _new_1822ca, export_title="1822CA WRS"),
})
