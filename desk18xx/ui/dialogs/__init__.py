"""Dialogs: a new game, the end of a game."""
