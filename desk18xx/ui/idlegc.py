"""Keep the garbage collector's full passes off the moves.

Python's cycle collector now and then walks every object alive (its oldest
generation).  Late in an 1822CA game that is the game, its snapshots, the
board and the caches: ~100 ms, falling on whichever move happens to cross
the threshold.  :class:`IdleCollector` does that work while the window is idle
instead, and moves what survives out of the collector's sight
(``gc.freeze``), so the passes that still happen during a move only walk
what was made since.

Frozen objects that later become cyclic garbage are freed by a *deep* pass
(``gc.unfreeze`` then a full collection), run when idle after the game was
rebuilt (a new game, undo, a jump in the history) and every
:data:`DEEP_EVERY` idle passes otherwise.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

from desk18xx.ui.session import GameSession

#: Milliseconds without a state change before the idle pass runs.
IDLE_MS = 400
#: A deep pass after this many plain idle passes (frees frozen cyclic garbage).
DEEP_EVERY = 25


class IdleCollector(QObject):
    """Collects garbage when the session has been quiet for :data:`IDLE_MS`.

    Args:
        session: whose state changes count as activity.
        parent: Qt parent (the main window).
    """

    def __init__(self, session: GameSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(IDLE_MS)
        self._timer.timeout.connect(self.settle)
        self._deep = True
        """The next pass unfreezes first (the game was rebuilt, or nothing is frozen yet)."""
        self._applied = False
        self._passes = 0
        session.action_applied.connect(self._action_applied)
        session.state_changed.connect(self._state_changed)
        self._timer.start()

    @property
    def pending(self) -> bool:
        """True while an idle pass is waiting for the quiet moment."""
        return self._timer.isActive()

    def _action_applied(self, _count: int) -> None:
        self._applied = True

    def _state_changed(self, _count: int) -> None:
        # a state change without an applied action is a rebuild: the old game is garbage
        self._deep = self._deep or not self._applied
        self._applied = False
        self._timer.start()

    def settle(self) -> None:
        """The idle pass: collect, then freeze the survivors (deep: unfreeze first)."""
        self._timer.stop()
        self._passes += 1
        deep = self._deep or self._passes % DEEP_EVERY == 0
        if deep:
            gc.unfreeze()
        gc.collect()
        gc.freeze()
        self._deep = False


__all__ = ["DEEP_EVERY", "IDLE_MS", "IdleCollector"]
