"""Hex grid, tiles and the track graph."""
