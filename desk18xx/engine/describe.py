"""Actions in words, for the game log and play-by-e-mail summaries (no Qt)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from desk18xx.engine.actions import (
    Action,
    Bid,
    BuyCompany,
    BuyShares,
    BuyTrain,
    Choose,
    DiscardTrain,
    Dividend,
    EndGame,
    HexToken,
    LayTile,
    Merge,
    Message,
    Par,
    Pass,
    PayoffLoan,
    PlaceToken,
    ProgramBuyShares,
    ProgramDisable,
    ProgramMergerPass,
    ProgramSharePass,
    RunRoutes,
    SellShares,
    TakeLoan,
)
from desk18xx.engine.programs import describe_program

if TYPE_CHECKING:
    from desk18xx.engine.game import Game


Places = Callable[[str], str]
"""Hex id -> ``"Ottawa (J12)"`` (`desk18xx.engine.narration.place` for a game)."""


def _hex_of(city: str) -> str:
    """``"J12"`` of a city id ``"J12-0-0"`` (18xx.games: hex, tile index, city)."""
    return city.split("-")[0]


def _tile_number(tile: str) -> str:
    """``"57"`` of ``"57-0"`` (the copy suffix is not the players' business)."""
    head, _sep, tail = tile.rpartition("-")
    return head if head and tail.isdigit() else tile


def describe(action: Action, name: str, places: Places | None = None) -> str:
    """A readable sentence for `action` taken by `name` (``"Ann bids $30 on C&SL"``).

    With ``places`` (hex id -> place name) tiles, tokens and routes name their
    places: ``"CA lays tile 57 in Toronto (M9)"``."""
    if places is not None:
        text = _with_places(action, name, places)
        if text is not None:
            return text
    match action:
        case Bid():
            what = action.company or action.corporation or action.minor or ""
            return f"{name} bids ${action.price} on {what}"
        case Par():
            price = action.share_price.split(",")[0]
            return f"{name} starts {action.corporation} at ${price}"
        case BuyShares():
            return f"{name} buys {', '.join(action.shares)}"
        case SellShares():
            return f"{name} sells {', '.join(action.shares)}"
        case LayTile():
            return f"{name} lays tile {action.tile} on {action.hex} (rotation {action.rotation})"
        case PlaceToken():
            return f"{name} places a token in {action.city}"
        case HexToken():
            return f"{name} places a token on {action.hex}"
        case RunRoutes():
            trains = ", ".join(f"{r.train}" for r in action.routes)
            earned = [r.revenue for r in action.routes if r.revenue is not None]
            total = f" for ${sum(earned)}" if action.routes and len(earned) == len(
                action.routes) else ""
            return f"{name} runs {trains or 'no trains'}{total}"
        case Dividend():
            return f"{name} chooses {action.kind}"
        case BuyTrain():
            return f"{name} buys train {action.train} for ${action.price}"
        case DiscardTrain():
            return f"{name} discards train {action.train}"
        case BuyCompany():
            return f"{name} buys {action.company} for ${action.price}"
        case TakeLoan():
            return f"{name} takes a loan"
        case PayoffLoan():
            return f"{name} repays a loan"
        case Merge():
            return f"{name} merges with {action.corporation}"
        case ProgramSharePass() | ProgramBuyShares() | ProgramMergerPass():
            return f"{name} programs: {describe_program(action)}"
        case ProgramDisable():
            return f"{name} stops the programmed action ({action.reason or 'by hand'})"
        case EndGame():
            return f"{name} ends the game"
        case Message():
            return f"{name}: {action.message}"
        case Pass():
            return f"{name} passes"
        case Choose():
            # the offer's words follow as the first detail line (`Game.process`)
            what = action.choice.replace("_", " ")
            if what.isdigit():
                what = f"option {int(what) + 1}"
            elif what in ("", "None"):
                what = "none of them"
            return f"{name} chooses {what}"
    return f"{name}: {action.type.replace('_', ' ')}"


def _article(kind: str) -> str:
    """``an`` before a train name read with a vowel sound (L, E, 8, 11), else ``a``."""
    return "an" if kind[:1] in tuple("AEFHILMNORSX8") or kind.startswith("11") else "a"


def _with_places(action: Action, name: str, places: Places) -> str | None:
    match action:
        case LayTile():
            return f"{name} lays tile {_tile_number(action.tile)} in {places(action.hex)}"
        case PlaceToken():
            return f"{name} places a token in {places(_hex_of(action.city))}"
        case HexToken():
            return f"{name} places a token in {places(action.hex)}"
        case RunRoutes() if action.routes:
            runs = []
            for route in action.routes:
                stops = route.hexes or tuple(_hex_of(n) for n in route.nodes or ())
                where = " – ".join(places(h).split(" (")[0] for h in stops) or "no stops"
                earned = "" if route.revenue is None else f" (${route.revenue})"
                runs.append(f"{route.train.split('-')[0]}-train {where}{earned}")
            return f"{name} runs " + "; ".join(runs)
        case BuyTrain():
            kind = action.train.split("-")[0]
            return f"{name} buys {_article(kind)} {kind}-train for ${action.price}"
        case DiscardTrain():
            kind = action.train.split("-")[0]
            return f"{name} discards {_article(kind)} {kind}-train"
    return None


def describe_in(game: Game, action: Action) -> str:
    """`describe` with the game's names: who acted, and the places of the map."""
    from desk18xx.engine.narration import place, who

    return describe(action, who(game, action.entity), lambda h: place(game, h))
