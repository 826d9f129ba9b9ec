"""Interaction on top of the map renderer: the view, highlights, previews, routes."""
