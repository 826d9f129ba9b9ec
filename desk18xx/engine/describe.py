"""Actions in words, for the game log and play-by-e-mail summaries (no Qt)."""

from __future__ import annotations

from desk18xx.engine.actions import (
    Action,
    Bid,
    BuyCompany,
    BuyShares,
    BuyTrain,
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


def describe(action: Action, name: str) -> str:
    """A readable sentence for `action` taken by `name` (``"Ann bids $30 on C&SL"``)."""
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
    return f"{name}: {action.type.replace('_', ' ')}"
