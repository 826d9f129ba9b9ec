"""No two companies of a title look alike: every pair told apart by colour is at least
a small CIELAB (CIE76) distance apart (issue 18: 1867's CV and KP were one blue)."""

from __future__ import annotations

import itertools

import pytest

from desk18xx.titles import TITLES
from desk18xx.ui.map.style import MIN_COMPANY_DISTANCE, colour_distance, lab
from desk18xx.ui.models.board import corp_colors


def test_the_distance_is_cie76_in_lab() -> None:
    assert lab("#ffffff") == pytest.approx((100.0, 0.0, 0.0), abs=0.05)
    assert lab("#000000") == pytest.approx((0.0, 0.0, 0.0), abs=0.05)
    assert colour_distance("#ff0000", "#ff0000") == 0
    assert colour_distance("#0097df", "#0097df") < MIN_COMPANY_DISTANCE  # CV and KP before
    assert colour_distance("#ffffff", "#000000") == pytest.approx(100.0, abs=0.1)
    with pytest.raises(ValueError, match="darkBlue"):
        lab("darkBlue")


@pytest.mark.parametrize("title", sorted(TITLES))
def test_no_two_companies_of_a_title_look_alike(title: str) -> None:
    colours = corp_colors(title)
    assert len(colours) >= 8
    # numbered minors (1822CA) are one plain token each with its number on it; every
    # other company is told apart by its colour, from the others and from those minors
    numbered = {fill for corp, (fill, _text) in colours.items() if corp.isdigit()}
    assert len(numbered) <= 1
    named = {corp: fill for corp, (fill, _text) in colours.items() if not corp.isdigit()}
    close = [(a, b, round(colour_distance(named[a], named[b]), 1))
             for a, b in itertools.combinations(sorted(named), 2)
             if colour_distance(named[a], named[b]) < MIN_COMPANY_DISTANCE]
    close += [(a, "the numbered minors", round(colour_distance(fill, m), 1))
              for a, fill in named.items() for m in numbered
              if colour_distance(fill, m) < MIN_COMPANY_DISTANCE]
    assert not close, close


def test_1867_cv_and_kp_are_far_apart() -> None:
    colours = corp_colors("1867")
    assert colour_distance(colours["CV"][0], colours["KP"][0]) >= 2 * MIN_COMPANY_DISTANCE
