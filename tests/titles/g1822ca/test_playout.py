"""Random legal 1822CA-family games run to the end with every invariant checked.

The invariants include the title's own (bid boxes, bidding tokens, loans,
purses; ``G1822CA.title_violations``) after every action.
"""

from __future__ import annotations

import random

import pytest

from desk18xx.commands.playout import play_one
from desk18xx.engine.game import Game

# 20 complete games (21 with the track-lay test), about 60 s of CPU together: all three
# variants, 2-7 players (2 only by 18xx.games' rules; the scenarios seat 3-5)
COMPAT = ("compat_18xxgames",)
GAMES: list[tuple[str, int, int, tuple[str, ...]]] = [
    ("1822CA", 11, 2, COMPAT), ("1822CA", 14, 5, COMPAT), ("1822CA", 15, 6, ()),
    ("1822CA", 16, 7, ()),
    *[("1822CA-ERS", 20 + i, 3 + i % 3, COMPAT if i % 4 == 3 else ()) for i in range(8)],
    *[("1822CA-WRS", 30 + i, 3 + i % 3, COMPAT if i % 4 == 1 else ()) for i in range(8)],
]


@pytest.mark.parametrize(("title", "seed", "players", "options"), GAMES,
                         ids=[f"{t}-{s}-{p}p{'-compat' if o else ''}" for t, s, p, o in GAMES])
def test_random_game_finishes_with_invariants_intact(
        title: str, seed: int, players: int, options: tuple[str, ...]) -> None:
    result = play_one(title, seed, players, options)
    assert result.error is None, f"{title} seed {seed}: {result.error}"
    assert result.finished and result.end_reason in {"bank", "stock_market"}
    assert result.players == players


def test_a_random_track_lay_looks_at_a_few_hexes_only(monkeypatch: pytest.MonkeyPatch) -> None:
    # a lay offer of every reached hex was most of a playout's time: random play
    # (`offers.random_offers`) asks TILE_HEX_PROBES hexes at most per track decision
    from desk18xx.titles.g1822ca import offers

    calls: list[int] = []
    lays: list[int] = []
    drawing = [False]
    real_hex, real_lays = offers._hex_lay, offers._lays_of

    def counting(*args: object, **kwargs: object) -> object:
        if drawing[0]:
            calls[-1] += 1
        return real_hex(*args, **kwargs)  # type: ignore[arg-type]

    def tracked(gm: object, kind: object, focus: object, rng: object = None) -> list[object]:
        if rng is None:  # the door's question, or a hex asked in full
            return real_lays(gm, kind, focus)  # type: ignore[arg-type,return-value]
        calls.append(0)
        drawing[0] = True
        try:
            out = real_lays(gm, kind, focus, rng)  # type: ignore[arg-type]
        finally:
            drawing[0] = False
        if getattr(kind, "rule", None) == offers.LAY_RULE:  # a normal lay, not a private's
            lays.append(len(out))
        return out  # type: ignore[return-value]

    monkeypatch.setattr(offers, "_hex_lay", counting)
    monkeypatch.setattr(offers, "_lays_of", tracked)
    result = play_one("1822CA-ERS", 5, 4, ())
    assert result.error is None and result.finished
    assert calls and max(calls) <= offers.TILE_HEX_PROBES
    # still finds a normal lay most turns (a private's lay on its one hex often has none)
    assert lays and sum(1 for n in lays if n) > len(lays) // 2, (sum(map(bool, lays)), len(lays))


@pytest.mark.slow
def test_random_full_game_by_18xx_games_rules_with_two_players() -> None:
    result = play_one("1822CA", 3, 2, ("compat_18xxgames",))
    assert result.error is None, result.error
    assert result.finished


def test_a_random_issue_names_the_price_the_company_receives() -> None:
    # 18xx.games writes the dropped price into an issue; a game exported from a
    # random playout must replay the same when the next OR adds private income


    from desk18xx.engine.game import GameSetup
    from desk18xx.titles import find_title

    title = find_title("1822CA")
    issues = 0
    for seed in (101, 102, 103):  # a random game may float no major at all
        if issues >= 3:
            break
        rng = random.Random(seed)
        game = title.new_game(GameSetup(
            title.id, tuple((str(i), f"Player {i}") for i in range(1, 5)), seed,
            ("compat_18xxgames",)))
        issues = _random_issues(game, rng, issues)
    assert issues == 3


def _random_issues(game: Game, rng: random.Random, issues: int) -> int:
    """Play ``game`` at random until three issues in all; the issues counted."""
    from desk18xx.engine.actions import SellShares

    while not game.finished and issues < 3:
        moves = game.legal_moves(rng)
        issue = next((m for m in moves if isinstance(m, SellShares)
                      and m.entity_type == "corporation"), None)
        if issue is not None:
            assert isinstance(issue, SellShares)
            issues += 1
            cash = game.cash[issue.entity]
            assert issue.share_price == game.market.relative(
                issue.entity, False, ["left"]).price
            game.process(issue)
            assert game.cash[issue.entity] - cash >= issue.share_price
            continue
        passes = [m for m in moves if m.type == "pass"]
        others = [m for m in moves if m.type != "pass"]
        if others and (not passes or rng.random() > 0.25):
            game.process(rng.choice(others))
        else:
            game.process(rng.choice(passes or moves))
    return issues


def test_no_second_lay_is_offered_on_a_hex_laid_this_turn() -> None:
    # 1822CA-ERS seed 4111: minor 6 upgrades Quebec with P17, then the random player
    # offered its normal lay on the same hex ("cannot lay twice on one hex")
    result = play_one("1822CA-ERS", 4111, None, ())
    assert result.error is None, result.error
    assert result.finished and result.actions > 302


def test_random_play_sells_when_over_the_certificate_limit() -> None:
    # RB 4.2.6 / 18xx must_sell?: only a sale is legal; random play used to offer
    # nothing there (1822CA-ERS 5 players seed 113 stopped at action 745)


    from desk18xx.engine.game import GameSetup
    from desk18xx.titles import find_title
    from desk18xx.titles.g1822ca.game import G1822CA

    title = find_title("1822CA")
    game = title.new_game(GameSetup(
        title.id, tuple((str(i), f"Player {i}") for i in range(1, 5)), 7,
        ("compat_18xxgames",)))
    assert isinstance(game, G1822CA)
    player = game.legal_actions().entity
    assert player is not None
    cell = next(c for c in game.market.cells.values() if c.price == 100)
    game.market.place("GT", cell.coord)
    game.corps["GT"].ipoed = game.corps["GT"].floated = True
    game.operating_history["GT"] = 1
    for sid in ("GT_0", "GT_1", "GT_2"):
        game.shares[sid].owner = player
    game.cert_limit = game.num_certs(player) - 1
    moves = game.legal_moves(random.Random(0))
    assert moves and all(m.type == "sell_shares" for m in moves)
    assert ["GT_1"] in [m.to_dict()["shares"] for m in moves]
    for move in moves:
        game.copy().process(move)
    game.process(moves[0])
    assert game.num_certs(player) == game.cert_limit
