"""Route optimizer: the best legal routes for every train of a company, proven optimal.

Entry points: :func:`best_routes` (a replayed game and a company in, the
routes to declare out; pure, with a progress callback and a cancel token, for
a worker thread) and :func:`solve` (the search on a :class:`Problem`).
"""

from desk18xx.engine.optimizer.games import (
    Mismatch,
    Solution,
    Unsupported,
    best_routes,
    engine_revenues,
    engine_subsidy,
    problem_for,
)
from desk18xx.engine.optimizer.model import PlannedRoute, Problem, Segment, Stop, TrainSpec
from desk18xx.engine.optimizer.search import CancelToken, Result, solve

__all__ = [
    "CancelToken",
    "Mismatch",
    "PlannedRoute",
    "Problem",
    "Result",
    "Segment",
    "Solution",
    "Stop",
    "TrainSpec",
    "Unsupported",
    "best_routes",
    "engine_revenues",
    "engine_subsidy",
    "problem_for",
    "solve",
]
