"""Conversions and mergers (card: "Merger round"), checked on recorded games."""

from __future__ import annotations

from g1867_helpers import replay_prefix

from desk18xx.titles.g1867.rounds import MergerRound


def test_conversion_keeps_the_price_and_gives_the_presidency() -> None:
    game = replay_prefix("21268.json", 347)
    price = game.price("BBG")
    owner = game.owner("BBG")
    game2 = replay_prefix("21268.json", 349)
    assert game2.corps["BBG"].closed
    assert game2.price("NYC") == max(p for p in (70, 80, 90, 100, 110, 120, 135, 150, 165, 180,
                                                  200) if p <= price)
    assert game2.president("NYC") == owner
    tokens = [t for t in game2.corps["NYC"].tokens if t.hex]
    assert len(tokens) == 1 and len(game2.corps["NYC"].tokens) == 3


def test_merge_price_tokens_and_shares() -> None:
    before = replay_prefix("hs_ahjzadkh_19792.json", 207)
    minors = ("AE", "CV", "CA", "TN")
    prices = [before.price(m) for m in minors]
    game = replay_prefix("hs_ahjzadkh_19792.json", 211)
    target = min(200, max(100, min(prices) + max(prices)))
    assert game.price("CNR") == max(p for p in (100, 110, 120, 135, 150, 165, 180, 200)
                                    if p <= target)
    assert all(game.corps[m].closed for m in minors)
    assert isinstance(game.round, MergerRound) and game.round.removing_tokens == ["CNR"]
    game = replay_prefix("hs_ahjzadkh_19792.json", 213)
    placed = [t for t in game.corps["CNR"].tokens if t.hex]
    assert len(placed) == 2 and len({t.hex for t in placed}) == 2
    assert len(game.corps["CNR"].tokens) == 3 and game.corps["CNR"].tokens[-1].price == 40
    assert game.president("CNR") is not None


def test_card_mode_asks_the_other_owners_to_consent() -> None:
    import dataclasses

    from desk18xx.engine.actions import Choose, Merge

    for answer, joined in (("consent", True), ("refuse", False)):
        game = replay_prefix("hs_ahjzadkh_19792.json", 207)
        game.config = dataclasses.replace(game.config, compat_18xxgames=False)
        assert game.legal_actions().entity == "AE"
        game.process(Merge(entity="AE", entity_type="corporation", corporation="CV"))
        assert game.legal_actions().entity == "AE"  # same owner: no consent needed
        other = game.owner("CA")
        assert other is not None and other != game.owner("AE")
        game.process(Merge(entity="AE", entity_type="corporation", corporation="CA"))
        la = game.legal_actions()
        assert la.entity == other and la.types == ("choose",)
        game.process(Choose(entity=other, choice=answer))
        step = game.round.active_step(game)  # type: ignore[union-attr]
        merging = getattr(step, "merging", None) or []
        assert ("CA" in merging) is joined and "CV" in merging


def test_card_mode_undoes_a_merge_that_leaves_no_president() -> None:
    import dataclasses

    from desk18xx.engine.actions import Choose, Merge, Pass

    game = replay_prefix("hs_ahjzadkh_19792.json", 207)
    game.config = dataclasses.replace(game.config, compat_18xxgames=False)
    money = game.total_money()
    owner_ae, owner_ca = game.owner("AE"), game.owner("CA")
    assert owner_ae and owner_ca and owner_ae != owner_ca
    game.process(Merge(entity="AE", entity_type="corporation", corporation="CA"))
    game.process(Choose(entity=owner_ca, choice="consent"))
    if game.legal_actions().entity == "AE":
        game.process(Pass(entity="AE"))  # done adding minors
    game.process(Merge(entity="AE", entity_type="corporation", corporation="ICR"))
    # nobody buys the second share that would make a president
    for _ in range(10):
        la = game.legal_actions()
        if la.round != "merger" or la.entity in (None, "AE") or "buy_shares" not in la.types:
            break
        game.process(Pass(entity=la.entity))
    assert not game.corps["AE"].closed and not game.corps["CA"].closed
    assert not game.corps["ICR"].ipoed
    assert game.legal_actions().entity == "AE" and game.total_money() == money
