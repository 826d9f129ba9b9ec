"""1867 merger round steps (card: "Merger round"); see 18xx ``g_1867/step/merge.rb``."""

from __future__ import annotations

from desk18xx.engine.round import Step


class ReduceTokens(Step):
    """Remove tokens above the limit after a merger."""


class PostMergerShares(Step):
    """Share buying after a conversion or merger."""


class MergeStep(Step):
    """Convert or merge."""
