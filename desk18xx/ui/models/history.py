"""Player values over the rounds and the final standings (for the game-end dialog)."""

from __future__ import annotations

from desk18xx.engine.game import Game
from desk18xx.ui.dialogs.gameend import Standing
from desk18xx.ui.session import GameSession, round_key


def standings(game: Game) -> list[Standing]:
    """Cash, other holdings and value of each player."""
    return [Standing(name, cash, value - cash, value)
            for name, cash, value in game.view().player_values()]


def values_by_round(session: GameSession) -> tuple[list[str], dict[str, list[int]]]:
    """Round labels and each player's value at the start of every round (and at the end)."""
    game = session.game_at(0)
    labels: list[str] = []
    series: dict[str, list[int]] = {name: [] for name, _c, _v in game.view().player_values()}

    def sample(label: str) -> None:
        labels.append(label)
        for name, _cash, value in game.view().player_values():
            series.setdefault(name, []).append(value)

    last = round_key(game)
    sample("start")
    for action in session.actions():
        try:
            game.process(action)
        except Exception:  # noqa: BLE001 - the live log replayed once already
            break
        key = round_key(game)
        if key != last:
            short = {"stock": "SR", "operating": "OR", "merger": "MR",
                     "auction": "PA"}.get(key.kind, key.kind)
            sample(f"{short}{key.turn}" + (f".{key.number}" if key.kind != "stock" else ""))
            last = key
    sample("end")
    return labels, series
