"""The 18xx.games generator (desk18xx.engine.rng) reproduces known sequences."""

import pytest

from desk18xx.engine.rng import RAND_M, Rng, seed_from


def test_worked_values_from_the_export_format_doc() -> None:
    # export-format doc §7.1, confirmed against the reference engine.
    assert Rng(1705813307).draws(5) == [729580632, 677861809, 20663958, 1983273495, 1768001028]


def test_ansi_c_sequence_for_seeds_0_and_1() -> None:
    # The same constants as the C standard's example rand(): state sequence.
    assert Rng(0).draws(3) == [12345, 1406932606, 654583775]
    assert Rng(1).rand() == 1103527590


def test_first_draw_is_not_the_seed_and_state_follows() -> None:
    rng = Rng(42)
    assert rng.state == 42
    value = rng.rand()
    assert value != 42 and rng.state == value
    assert 0 <= value < RAND_M


def test_seed_is_reduced_modulo_2_pow_31_like_ruby() -> None:
    assert Rng(RAND_M + 7).draws(4) == Rng(7).draws(4)
    # Ruby's -5 % 2**31 is non-negative, as is Python's.
    assert Rng(-5).state == RAND_M - 5


def test_sort_by_rand_sorts_by_one_draw_per_item_in_order() -> None:
    items = ["a", "b", "c", "d", "e", "f"]
    keys = Rng(337421161).draws(len(items))
    expected = [item for _key, item in sorted(zip(keys, items, strict=True))]
    rng = Rng(337421161)
    assert rng.sort_by_rand(items) == expected
    assert rng.state == keys[-1]


def test_sort_by_rand_of_nothing_draws_nothing() -> None:
    rng = Rng(9)
    assert rng.sort_by_rand([]) == []
    assert rng.state == 9


@pytest.mark.parametrize(
    ("seed", "game_id", "expected"),
    [
        (337421161, None, 337421161),
        ("425", None, 425),
        (None, "hs_ahjzadkh_19792", 19792),
        ("", "hs_ab12_345", 12),
        (None, 21268, 21268),
        (None, "no digits", 0),
        (None, None, 0),
    ],
)
def test_seed_from_follows_initialize_seed(
    seed: int | str | None, game_id: int | str | None, expected: int
) -> None:
    assert seed_from(seed, game_id) == expected


@pytest.mark.parametrize("bad", ["abc", True])
def test_seed_from_rejects_non_integers(bad: str | bool) -> None:
    with pytest.raises(ValueError, match="seed must be an integer"):
        seed_from(bad)
