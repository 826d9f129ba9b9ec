"""Exceptions the engine raises."""


class DataError(Exception):
    """A game-data file is malformed; the message names the file and the key."""

    def __init__(self, path: str, key: str, problem: str) -> None:
        super().__init__(f"{path}: {key}: {problem}")
        self.path = path
        self.key = key
        self.problem = problem


class IllegalAction(Exception):
    """An action the rules do not allow now; the message is for the player."""
