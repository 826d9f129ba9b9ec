"""Generic rules steps shared by titles; a title subclasses one and overrides named hooks."""
