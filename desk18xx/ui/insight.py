"""Whether a widget can be seen now, for updates put off while it cannot.

A dock behind another one's tab stays "visible" to Qt (its dock area moves it out of
the window instead of hiding it), so ``isVisible()`` alone would have every tab of a
group filled on every move. :func:`in_sight` also asks whether any of it is on screen;
a dock's ``visibilityChanged`` tells when its tab comes to the front.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget


def in_sight(widget: QWidget) -> bool:
    """True when ``widget`` is shown and some of it is on screen (not behind a tab)."""
    return widget.isVisible() and not widget.visibleRegion().isEmpty()


__all__ = ["in_sight"]
