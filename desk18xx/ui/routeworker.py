"""The route optimizer off the GUI thread: progress, cancel, and stale results dropped.

:class:`RouteSearch` runs :func:`desk18xx.ui.models.routes.best` (the
engine's :func:`~desk18xx.engine.optimizer.best_routes`) for one company on
a snapshot of the game in a :class:`QThreadPool` worker.  It reports progress
and hands back a :class:`Proposal`; cancelling makes the search return its
best routes so far (``complete`` False).  Every state change of the session
makes a running search stale: it is cancelled and its answer dropped, never
shown for a position it was not computed for.  :class:`RouteSearchBar` is the
progress line with its Cancel button.

:class:`TaskRunner` does the same for any search the caller writes as a task
(the study sandbox: a company's best routes before and after a tile tried):
one at a time, progress, cancel, and an answer for a dropped task thrown away.

:class:`AttachmentHints` takes the turn panel's "best run with this choice"
searches (1822CA's Pullman and grain train) off the GUI thread: the buttons
show at once, their hints when the search is done.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import (
    QCoreApplication,
    QObject,
    QRunnable,
    QThreadPool,
    QTimer,
    Signal,
    SignalInstance,
)
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from desk18xx.engine.game import Game
from desk18xx.ui.models.routes import (
    ATTACH_BUDGET,
    AttachmentRuns,
    TrainRoute,
    best,
    register_attachment_search,
    search_attachment_runs,
)

START_DELAY_MS = 40
"""How long after the position is shown the attachment search's worker starts: after
the paint (a zero timer can come before it), as the map's automatic route search."""

Search = Callable[[Game, str, Callable[[], bool], Callable[[float, int], None]],
                  tuple[list[TrainRoute], int, bool]]
"""``search(game, corp, cancel, progress) -> (routes, revenue, complete)``."""


def default_search(game: Game, corp: str, cancel: Callable[[], bool],
                   progress: Callable[[float, int], None]) -> tuple[list[TrainRoute], int, bool]:
    """The route optimizer (:func:`desk18xx.ui.models.routes.best`)."""
    return best(game, corp, cancel=cancel, progress=progress)


Task = Callable[[Callable[[], bool], Callable[[float, int], None]], object]
"""``task(cancel, progress) -> answer``, run in the worker thread: it polls ``cancel``
(True: return the best so far) and calls ``progress(fraction, best so far)``."""


class Searching(Protocol):
    """What :class:`RouteSearchBar` shows: a :class:`RouteSearch` or a :class:`TaskRunner`."""

    started: SignalInstance
    progress: SignalInstance
    stopped: SignalInstance

    def cancel(self) -> None: ...


class SessionLike(Protocol):
    """What the search needs of a :class:`~desk18xx.ui.session.GameSession`."""

    @property
    def game(self) -> Game: ...

    state_changed: SignalInstance
    game_replaced: SignalInstance


@dataclass(frozen=True, slots=True)
class Proposal:
    """The optimizer's routes for one company at one position."""

    corp: str
    routes: list[TrainRoute]
    revenue: int
    complete: bool
    """False when cancelled: the best routes found so far, not proven best."""
    auto: bool
    """Started by reaching the run (not by the player's "Best routes")."""


class _Relay(QObject):
    """Carries the worker thread's news to the GUI thread (queued signals)."""

    progress = Signal(int, float, int)
    done = Signal(int, object)
    failed = Signal(int, str)


class _TaskJob(QRunnable):
    def __init__(self, number: int, task: Task, relay: _Relay) -> None:
        super().__init__()
        self.setAutoDelete(False)  # Python owns it (TaskRunner/RouteSearch._alive) until it reports
        self.number = number
        self.task = task
        self.relay = relay
        self.cancelled = threading.Event()
        self._last = -1

    def _progress(self, fraction: float, best: int) -> None:
        percent = int(fraction * 100)
        if percent != self._last:
            self._last = percent
            self.relay.progress.emit(self.number, fraction, best)

    def run(self) -> None:
        try:
            answer = self.task(self.cancelled.is_set, self._progress)
        except Exception as exc:  # noqa: BLE001 - reported to the player, never raised in Qt
            self.relay.failed.emit(self.number, f"{type(exc).__name__}: {exc}")
            return
        self.relay.done.emit(self.number, answer)


class _Job(_TaskJob):
    """A route search for ``corp`` at ``game``: a task whose answer is
    ``(routes, revenue, complete)``."""

    def __init__(self, number: int, game: Game, corp: str, search: Search,
                 relay: _Relay, auto: bool) -> None:
        super().__init__(number, lambda cancelled, progress: tuple(
            search(game, corp, cancelled, progress)), relay)
        self.auto = auto
        self.game = game
        self.corp = corp


class RouteSearch(QObject):
    """One route search at a time for the session's acting company.

    Connect it to the session before anything that starts searches on a state
    change (slots run in connection order): a change first makes the running
    search stale, then a new one may start.

    Signals:
        started(str): a search for the company began.
        progress(int, int): percent done and the best revenue found so far.
        proposal_ready(object): a :class:`Proposal` for the current position.
        failed(str): the search raised (an unsupported title or an optimizer bug).
        dropped(): an answer came back for an older position and was thrown away.
        stopped(): no search is running any more (after any of the three above).
    """

    #: A search for the company began.
    started = Signal(str)
    #: Percent done, best revenue so far.
    progress = Signal(int, int)
    #: The routes for the current position (a Proposal).
    proposal_ready = Signal(object)
    #: The search failed; the reason.
    failed = Signal(str)
    #: A stale answer was thrown away.
    dropped = Signal()
    #: No search runs any more.
    stopped = Signal()

    def __init__(self, session: SessionLike, parent: QObject | None = None,
                 search: Search = default_search) -> None:
        super().__init__(parent)
        self._session = session
        self._search = search
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._job: _Job | None = None
        self._alive: dict[int, _Job] = {}
        """Every job not yet reported back (kept alive while its thread runs)."""
        self._numbers = 0
        self._connect_signals()

    def _connect_signals(self) -> None:
        self._session.state_changed.connect(self._position_changed)
        self._session.game_replaced.connect(self._position_changed)
        self._relay.progress.connect(self._on_progress)
        self._relay.done.connect(self._on_done)
        self._relay.failed.connect(self._on_failed)

    @property
    def running(self) -> bool:
        """A search for the current position is under way."""
        return self._job is not None

    def start(self, corp: str, *, auto: bool = False) -> None:
        """Search the best routes of ``corp`` now (any running search is dropped)."""
        self._drop()
        self._numbers += 1
        self._job = _Job(self._numbers, self._session.game.copy(), corp, self._search,
                         self._relay, auto)
        self._alive[self._numbers] = self._job
        self._pool.start(self._job)
        self.started.emit(corp)

    def cancel(self) -> None:
        """Stop the search: its best routes so far come back as the proposal."""
        if self._job is not None:
            self._job.cancelled.set()

    def shutdown(self, msecs: int = 5000) -> None:
        """Cancel and wait for the worker (before the application quits)."""
        self._drop()
        self._pool.waitForDone(msecs)

    def _drop(self) -> None:
        """Forget the running search; its answer will be thrown away."""
        if self._job is not None:
            self._job.cancelled.set()
            self._job = None
            self.stopped.emit()

    def _position_changed(self, *_args: object) -> None:
        self._drop()

    def _current(self, number: int) -> _Job | None:
        job = self._job
        return job if job is not None and job.number == number else None

    def _on_progress(self, number: int, fraction: float, revenue: int) -> None:
        if self._current(number) is not None:
            self.progress.emit(int(fraction * 100), revenue)

    def _on_done(self, number: int, answer: object) -> None:
        self._alive.pop(number, None)
        job = self._current(number)
        if job is None:
            self.dropped.emit()
            return
        self._job = None
        assert isinstance(answer, tuple)
        routes, revenue, complete = answer
        self.proposal_ready.emit(Proposal(job.corp, list(routes), int(revenue), bool(complete),
                                          job.auto))
        self.stopped.emit()

    def _on_failed(self, number: int, reason: str) -> None:
        self._alive.pop(number, None)
        if self._current(number) is None:
            self.dropped.emit()
            return
        self._job = None
        self.failed.emit(reason)
        self.stopped.emit()


class TaskRunner(QObject):
    """One background search at a time, off the GUI thread (the study sandbox's).

    Starting a task, or :meth:`drop`, makes the running one stale: it is cancelled
    and its answer thrown away.

    Signals:
        started(str): a task began (what it searches, for the progress line).
        progress(int, int): percent done and the best found so far.
        finished(object, object): the task's tag and its answer.
        failed(str): the task raised.
        dropped(): an answer came back for a dropped task and was thrown away.
        stopped(): no task is running any more (just before finished; after failed
            or a drop).
    """

    #: A task began: what it searches.
    started = Signal(str)
    #: Percent done, best so far.
    progress = Signal(int, int)
    #: (tag, answer) of the task running now.
    finished = Signal(object, object)
    #: The task failed; the reason.
    failed = Signal(str)
    #: A stale answer was thrown away.
    dropped = Signal()
    #: No task runs any more.
    stopped = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._job: _TaskJob | None = None
        self._tag: object = None
        self._alive: dict[int, _TaskJob] = {}
        """Every job not yet reported back (kept alive while its thread runs)."""
        self._numbers = 0
        self._relay.progress.connect(self._on_progress)
        self._relay.done.connect(self._on_done)
        self._relay.failed.connect(self._on_failed)
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)

    @property
    def running(self) -> bool:
        """A task is under way (and not dropped)."""
        return self._job is not None

    @property
    def tag(self) -> object:
        """The tag of the running task (None when none runs)."""
        return self._tag if self._job is not None else None

    def start(self, label: str, task: Task, tag: object = None) -> None:
        """Run ``task`` in the worker thread (any running task is dropped).

        Args:
            label: what it searches (``started``; e.g. the company).
            task: the search; it must not touch objects the GUI thread changes.
            tag: handed back with the answer (``finished``).
        """
        self.drop()
        self._numbers += 1
        self._job = _TaskJob(self._numbers, task, self._relay)
        self._tag = tag
        self._alive[self._numbers] = self._job
        self._pool.start(self._job)
        self.started.emit(label)

    def cancel(self) -> None:
        """Stop the task: it returns its best so far (``finished`` still comes)."""
        if self._job is not None:
            self._job.cancelled.set()

    def drop(self) -> None:
        """Forget the running task; its answer will be thrown away."""
        if self._job is not None:
            self._job.cancelled.set()
            self._job = None
            self._tag = None
            self.stopped.emit()

    def shutdown(self, msecs: int = 5000) -> None:
        """Drop the task and wait for the worker (before the application quits)."""
        self.drop()
        self._pool.waitForDone(msecs)

    def _current(self, number: int) -> _TaskJob | None:
        job = self._job
        return job if job is not None and job.number == number else None

    def _on_progress(self, number: int, fraction: float, best: int) -> None:
        if self._current(number) is not None:
            self.progress.emit(int(fraction * 100), best)

    def _on_done(self, number: int, answer: object) -> None:
        self._alive.pop(number, None)
        if self._current(number) is None:
            self.dropped.emit()
            return
        tag = self._tag
        self._job, self._tag = None, None
        self.stopped.emit()  # first: a slot of ``finished`` may start the next task
        self.finished.emit(tag, answer)

    def _on_failed(self, number: int, reason: str) -> None:
        self._alive.pop(number, None)
        if self._current(number) is None:
            self.dropped.emit()
            return
        self._job, self._tag = None, None
        self.failed.emit(reason)
        self.stopped.emit()


class RouteSearchBar(QWidget):
    """"Finding the best routes …" with a progress bar and a Cancel button."""

    def __init__(self, search: Searching, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._search = search
        self.label = QLabel("Finding the best routes…")
        self.bar = QProgressBar()
        self.bar.setRange(0, 100)
        self.bar.setTextVisible(False)
        self.bar.setMaximumHeight(10)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop the search and take the best routes found so far")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.bar, 1)
        layout.addWidget(self.cancel_button)
        self.setVisible(False)
        self._connect_signals()

    def _connect_signals(self) -> None:
        self._search.started.connect(self._started)
        self._search.progress.connect(self._progress)
        self._search.stopped.connect(lambda: self.setVisible(False))
        self.cancel_button.clicked.connect(self._search.cancel)

    def _started(self, corp: str) -> None:
        self.bar.setValue(0)
        self.label.setText(f"Finding {corp}'s best routes…")
        self.setVisible(True)

    def _progress(self, percent: int, revenue: int) -> None:
        self.bar.setValue(percent)
        if revenue:
            self.label.setText(f"Finding the best routes… ${revenue} so far")


class AttachmentHints(QObject):
    """Answers :func:`~desk18xx.ui.models.routes.attachment_runs` for the session's live
    game in a worker thread, so an action that offers the Pullman or the grain train
    does not wait for the searches behind the choices' hints.

    The answer handed out is empty, and filled when the search is done (then
    ``ready``); a state change drops a search of an older position.  Games other
    than the session's live one are searched at once, as without this object.

    Args:
        session: whose live game is searched.
        parent: Qt parent (the main window).

    Signals:
        ready(): the answer for the current position was filled in (show the turn again).
    """

    #: The answer for the current position is in.
    ready = Signal()

    def __init__(self, session: SessionLike, parent: QObject | None = None,
                 budget: float = ATTACH_BUDGET) -> None:
        super().__init__(parent)
        self._session = session
        self._budget = budget
        self._runner = TaskRunner(self)
        self._runner.finished.connect(self._finished)
        self._asked: tuple[Game, int, str, AttachmentRuns] | None = None
        """The question taken last: game, actions applied, company and its answer."""
        self._launched = False
        """The worker was given the question taken last."""
        session.state_changed.connect(self._position_changed)
        session.game_replaced.connect(self._position_changed)
        register_attachment_search(self.search)

    @property
    def running(self) -> bool:
        """A search is planned or under way."""
        return self._asked is not None and (self._runner.running or not self._launched)

    def search(self, game: Game, corp: str) -> AttachmentRuns | None:
        """Take the question if ``game`` is the session's live game (None otherwise)."""
        try:
            live = self._session.game
        except RuntimeError:
            return None
        if game is not live:
            return None
        asked = self._asked
        if (asked is not None and asked[0] is game and asked[1] == game.actions_applied
                and asked[2] == corp):
            return asked[3]
        self._runner.drop()
        runs = AttachmentRuns()
        self._asked = (game, game.actions_applied, corp, runs)
        self._launched = False
        # after this update is painted: the copy for the worker (and its search, holding
        # the interpreter) is not for the player to wait, and a zero timer can come
        # before the paint
        QTimer.singleShot(START_DELAY_MS, self, self._start)
        return runs

    def _current(self) -> bool:
        asked = self._asked
        if asked is None:
            return False
        try:
            live = self._session.game
        except RuntimeError:
            return False
        return asked[0] is live and asked[1] == live.actions_applied

    def _start(self) -> None:
        if not self._current() or self._launched:
            return
        assert self._asked is not None
        self._launched = True
        game, _count, corp, _runs = self._asked
        copy = game.copy()
        budget = self._budget

        def task(cancel: Callable[[], bool], _progress: Callable[[float, int], None]
                 ) -> AttachmentRuns:
            return search_attachment_runs(copy, corp, budget, cancel=cancel,
                                          clock=time.thread_time)

        self._runner.start(corp, task, tag=self._asked)

    def _finished(self, tag: object, answer: object) -> None:
        if tag is not self._asked or not self._current() or not isinstance(answer, dict):
            return
        assert self._asked is not None
        self._asked[3].update(answer)
        self.ready.emit()

    def _position_changed(self, *_args: object) -> None:
        if self._asked is not None and not self._current():
            self._runner.drop()
            self._asked = None

    def shutdown(self, msecs: int = 5000) -> None:
        """Drop the search and wait for the worker."""
        self._asked = None
        self._runner.shutdown(msecs)


def install_attachment_hints(session: SessionLike, window: QObject) -> AttachmentHints:
    """Search the choices' hints of ``session`` in the background (:class:`AttachmentHints`,
    owned by ``window``) and put them on ``window``'s turn panel buttons when found."""
    hints = AttachmentHints(session, window)

    def found() -> None:
        from desk18xx.ui.models.choices import turn_info

        panel = getattr(window, "action_panel", None)
        if getattr(window, "viewing", None) is not None or panel is None:
            return  # an earlier position is shown: the live turn comes back with the hints
        game = session.game
        if game.finished:
            return
        info = turn_info(game)
        panel.show_turn(info)
        for choice in info.choices:
            if choice.hint and not choice.disabled and choice.label in panel.choice_labels():
                panel.button(choice.label).set_hint(choice.hint)

    hints.ready.connect(found)
    return hints
