"""Player actions as immutable values (STYLE.md §5).

Every action holds identifiers only.  The class attribute ``type`` is the
18xx.games action name (``lay_tile`` …) and ``from_dict``/``to_dict`` use the
export's field names (``../shared/reference/18xx-games-export-format.md`` §5),
so an action read from an export writes back to the same dictionary.

The acting entity is a string: a player's id in string form (``"4661"``), or
the id of a corporation or company.  ``entity_type`` keeps the export's
namespace (``"player"``, ``"corporation"``, ``"company"``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

#: Amount fields that are never negative (dollars, counts, percents).
_AMOUNTS = frozenset({"price", "percent", "share_price", "total_price", "cost", "amount",
                      "revenue", "subsidy", "extra_revenue", "shares_count"})

#: Keys of the envelope that are not action fields (kept in ``meta``).
_ENVELOPE = ("type", "entity", "entity_type", "id", "created_at", "user", "auto_actions",
             "original_id")


@dataclass(frozen=True, slots=True)
class Action:
    """Base of all actions.

    Attributes are the common envelope; subclasses add their own fields in
    18xx.games spelling.
    """

    type: ClassVar[str] = ""
    entity: str
    """Player id (as a string), corporation id or company id."""
    entity_type: str = "player"
    """``"player"``, ``"corporation"`` or ``"company"``."""
    id: int | None = field(default=None, compare=False)
    """The export's action id (informational; never used to sort)."""
    user: str | None = field(default=None, compare=False)
    """Who clicked, when not the entity's controller (informational)."""
    created_at: int | str | None = field(default=None, compare=False)
    auto_actions: tuple[Action, ...] = field(default=(), compare=False)
    """Actions the server generated right after this one; applied after it."""

    @property
    def is_player(self) -> bool:
        """True when a player acts."""
        return self.entity_type == "player"

    def shape_problem(self) -> str | None:
        """What makes this action malformed whatever the position (an empty list
        of shares, a repeated id, a negative amount), for the player; None if
        nothing.  `Game.process` refuses such an action before any rule runs."""
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name in _AMOUNTS and isinstance(value, int) and not isinstance(value, bool) \
                    and value < 0:
                return f"{self.type}: {f.name} cannot be negative ({value})"
        return None

    # -- conversion --------------------------------------------------------------------
    @classmethod
    def _fields_from(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """Subclass fields from the export dict; overridden where a field needs parsing."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name in _ENVELOPE:
                continue
            if f.name in data:
                out[f.name] = _freeze(data[f.name])
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Build from an export dictionary (the ``type`` key selects nothing here)."""
        entity = data["entity"]
        auto = tuple(action_from_dict(a) for a in data.get("auto_actions") or ())
        user = data.get("user")
        return cls(
            entity=str(entity),
            entity_type=str(data.get("entity_type") or "player"),
            id=data.get("id"),
            user=None if user is None else str(user),
            created_at=data.get("created_at"),
            auto_actions=auto,
            **cls._fields_from(data),
        )

    def to_dict(self) -> dict[str, Any]:
        """The export dictionary of this action (18xx.games field names)."""
        out: dict[str, Any] = {"type": self.type}
        entity: Any = self.entity
        if self.entity_type == "player" and self.entity.lstrip("-").isdigit():
            entity = int(self.entity)
        out["entity"] = entity
        out["entity_type"] = self.entity_type
        if self.id is not None:
            out["id"] = self.id
        if self.user is not None:
            out["user"] = int(self.user) if self.user.lstrip("-").isdigit() else self.user
        if self.created_at is not None:
            out["created_at"] = self.created_at
        for f in dataclasses.fields(self):
            if f.name in _ENVELOPE or f.name in ("entity", "entity_type", "id", "user",
                                                 "created_at", "auto_actions"):
                continue
            value = getattr(self, f.name)
            if value is None or (f.name in _OPTIONAL_EMPTY and not value):
                continue
            if f.name == "corporations_by_round":
                out[f.name] = {k: _thaw(v) for k, v in value}
            else:
                out[f.name] = _thaw(value)
        if self.auto_actions:
            out["auto_actions"] = [a.to_dict() for a in self.auto_actions]
        return out


#: Fields left out of ``to_dict`` when empty.
_OPTIONAL_EMPTY = frozenset({"options", "corporations_by_round"})


def _freeze(value: Any) -> Any:
    """Lists become tuples and dicts become item tuples (hashable values)."""
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, _freeze(v)) for k, v in value.items())
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, Route):
        return value.to_dict()
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


# -- the actions -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """End a step or turn; meaning depends on the active step."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """A bid on a private (``company``) or, 1867, a minor (``corporation``)."""

    type: ClassVar[str] = "bid"
    price: int = 0
    company: str | None = None
    corporation: str | None = None
    minor: str | None = None


@dataclass(frozen=True, slots=True)
class Par(Action):
    """Start a major at ``share_price`` (``"price,row,column"``)."""

    type: ClassVar[str] = "par"
    corporation: str = ""
    share_price: str = ""
    slot: int | None = None
    purchase_for: str | None = None
    borrow_from: str | None = None


@dataclass(frozen=True, slots=True)
class BuyShares(Action):
    """Buy certificates ``shares`` (ids like ``"CNR_1"``)."""

    type: ClassVar[str] = "buy_shares"
    shares: tuple[str, ...] = ()
    percent: int | None = None
    share_price: int | None = None
    swap: str | None = None
    purchase_for: str | None = None
    borrow_from: str | None = None
    total_price: int | None = None
    discounter: str | None = None

    def shape_problem(self) -> str | None:
        """A share action names at least one certificate, each once."""
        if not self.shares:
            return f"{self.type}: name at least one share"
        if len(set(self.shares)) != len(self.shares):
            return f"{self.type}: a share is named twice"
        return Action.shape_problem(self)


@dataclass(frozen=True, slots=True)
class SellShares(Action):
    """Sell certificates ``shares`` to the pool."""

    type: ClassVar[str] = "sell_shares"
    shares: tuple[str, ...] = ()
    percent: int | None = None
    share_price: int | None = None
    swap: str | None = None

    def shape_problem(self) -> str | None:
        """A share action names at least one certificate, each once."""
        if not self.shares:
            return f"{self.type}: name at least one share"
        if len(set(self.shares)) != len(self.shares):
            return f"{self.type}: a share is named twice"
        return Action.shape_problem(self)


@dataclass(frozen=True, slots=True)
class BuyCompany(Action):
    """A corporation buys private ``company`` for ``price``."""

    type: ClassVar[str] = "buy_company"
    company: str = ""
    price: int = 0


@dataclass(frozen=True, slots=True)
class LayTile(Action):
    """Lay tile copy ``tile`` on ``hex`` turned ``rotation`` × 60° clockwise."""

    type: ClassVar[str] = "lay_tile"
    hex: str = ""
    tile: str = ""
    rotation: int = 0
    combo_entities: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class PlaceToken(Action):
    """Place a station token in ``city`` (``"<tile id>-<index>"``), slot ``slot``."""

    type: ClassVar[str] = "place_token"
    city: str = ""
    slot: int | None = None
    tokener: str | None = None
    token_type: str | None = None
    cost: int | None = None


@dataclass(frozen=True, slots=True)
class HexToken(Action):
    """Place a token on a hex (1822CA destination tokens, nested only)."""

    type: ClassVar[str] = "hex_token"
    hex: str = ""
    token_type: str | None = None
    cost: int | None = None


@dataclass(frozen=True, slots=True)
class RemoveToken(Action):
    """Remove the token in ``city`` slot ``slot`` (1867 token reduction)."""

    type: ClassVar[str] = "remove_token"
    city: str = ""
    slot: int = 0


@dataclass(frozen=True, slots=True)
class Route:
    """One train's route inside :class:`RunRoutes`."""

    train: str
    connections: tuple[tuple[str, ...], ...] = ()
    hexes: tuple[str, ...] | None = None
    revenue: int | None = None
    revenue_str: str | None = None
    nodes: tuple[str, ...] | None = None
    subsidy: int | None = None
    halts: int | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Route:
        """From an export route object."""
        conns = tuple(
            (c,) if isinstance(c, str) else tuple(str(h) for h in c)
            for c in data.get("connections") or ()
        )
        hexes = data.get("hexes")
        nodes = data.get("nodes")
        return cls(
            train=str(data["train"]),
            connections=conns,
            hexes=None if hexes is None else tuple(hexes),
            revenue=data.get("revenue"),
            revenue_str=data.get("revenue_str"),
            nodes=None if nodes is None else tuple(nodes),
            subsidy=data.get("subsidy"),
            halts=data.get("halts"),
        )

    def to_dict(self) -> dict[str, Any]:
        """The export route object."""
        out: dict[str, Any] = {"train": self.train,
                               "connections": [list(c) for c in self.connections]}
        for name in ("hexes", "revenue", "revenue_str", "nodes", "subsidy", "halts"):
            value = getattr(self, name)
            if value is not None:
                out[name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True, slots=True)
class RunRoutes(Action):
    """Declare the routes of this operating turn."""

    type: ClassVar[str] = "run_routes"
    routes: tuple[Route, ...] = ()
    extra_revenue: int | None = None
    subsidy: int | None = None

    @classmethod
    def _fields_from(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "routes": tuple(Route.from_dict(r) for r in data.get("routes") or ()),
            "extra_revenue": data.get("extra_revenue"),
            "subsidy": data.get("subsidy"),
        }


@dataclass(frozen=True, slots=True)
class Dividend(Action):
    """Pay out (``payout``), ``half`` or ``withhold`` the last run's revenue."""

    type: ClassVar[str] = "dividend"
    kind: str = "payout"
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class BuyTrain(Action):
    """Buy ``train`` for ``price``; ``exchange`` is a traded-in train."""

    type: ClassVar[str] = "buy_train"
    train: str = ""
    price: int = 0
    variant: str | None = None
    exchange: str | None = None
    shell: str | None = None
    slots: tuple[int, ...] | None = None
    extra_due: bool | None = None
    warranties: int | None = None


@dataclass(frozen=True, slots=True)
class DiscardTrain(Action):
    """Discard ``train`` (over the train limit)."""

    type: ClassVar[str] = "discard_train"
    train: str = ""


@dataclass(frozen=True, slots=True)
class Convert(Action):
    """1867: a minor starts converting into a major (a ``merge`` names it)."""

    type: ClassVar[str] = "convert"


@dataclass(frozen=True, slots=True)
class Merge(Action):
    """Add ``corporation`` to a merger (1867) or acquire it (1822CA)."""

    type: ClassVar[str] = "merge"
    corporation: str = ""
    minor: str | None = None


@dataclass(frozen=True, slots=True)
class Choose(Action):
    """A named choice (1867 ``"nationalize"``; 1822CA many)."""

    type: ClassVar[str] = "choose"
    choice: str = ""


@dataclass(frozen=True, slots=True)
class ChooseAbility(Action):
    """A company's ability choice (1822CA P11, P28)."""

    type: ClassVar[str] = "choose_ability"
    choice: str = ""


@dataclass(frozen=True, slots=True)
class TakeLoan(Action):
    """Take a loan (titles where it is a decision)."""

    type: ClassVar[str] = "take_loan"
    loan: int | None = None


@dataclass(frozen=True, slots=True)
class PayoffLoan(Action):
    """Repay a loan."""

    type: ClassVar[str] = "payoff_loan"
    loan: int | None = None


@dataclass(frozen=True, slots=True)
class EndGame(Action):
    """End the game now (``manually_ended``)."""

    type: ClassVar[str] = "end_game"


@dataclass(frozen=True, slots=True)
class AcquireCompany(Action):
    """1822CA: the corporation takes a player's private."""

    type: ClassVar[str] = "acquire_company"
    company: str = ""


@dataclass(frozen=True, slots=True)
class Assign(Action):
    """1822CA: place a marker (P13 sawmill) on ``target``."""

    type: ClassVar[str] = "assign"
    target: str = ""
    target_type: str = "hex"
    city: str | None = None


@dataclass(frozen=True, slots=True)
class PayoffPlayerDebt(Action):
    """1822CA: repay the whole player debt."""

    type: ClassVar[str] = "payoff_player_debt"


@dataclass(frozen=True, slots=True)
class PayoffPlayerDebtPartial(Action):
    """1822CA: repay ``amount`` of the player debt."""

    type: ClassVar[str] = "payoff_player_debt_partial"
    amount: int = 0


@dataclass(frozen=True, slots=True)
class Message(Action):
    """Chat; never changes state and is never undone."""

    type: ClassVar[str] = "message"
    message: str = ""


@dataclass(frozen=True, slots=True)
class Log(Action):
    """A client-added log line; no state change."""

    type: ClassVar[str] = "log"
    message: str = ""


@dataclass(frozen=True, slots=True)
class Undo(Action):
    """Take back actions (consumed by the log filter)."""

    type: ClassVar[str] = "undo"
    action_id: int | None = None


@dataclass(frozen=True, slots=True)
class Redo(Action):
    """Restore the last undone actions (consumed by the log filter)."""

    type: ClassVar[str] = "redo"


@dataclass(frozen=True, slots=True)
class ProgramSharePass(Action):
    """Program: auto-pass in stock rounds (no state change)."""

    type: ClassVar[str] = "program_share_pass"
    unconditional: bool | None = None
    indefinite: bool | None = None


@dataclass(frozen=True, slots=True)
class ProgramBuyShares(Action):
    """Program: auto-buy shares (no state change)."""

    type: ClassVar[str] = "program_buy_shares"
    corporation: str | None = None
    until_condition: int | str | None = None
    from_market: bool | None = None
    auto_pass_after: bool | None = None


@dataclass(frozen=True, slots=True)
class ProgramMergerPass(Action):
    """Program: auto-pass in merger rounds (no state change)."""

    type: ClassVar[str] = "program_merger_pass"
    corporations_by_round: tuple[tuple[str, Any], ...] = ()
    options: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ProgramDisable(Action):
    """Program: switch programs off (no state change)."""

    type: ClassVar[str] = "program_disable"
    reason: str | None = None
    original_type: str | None = None


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (
        Pass, Bid, Par, BuyShares, SellShares, BuyCompany, LayTile, PlaceToken, HexToken,
        RemoveToken, RunRoutes, Dividend, BuyTrain, DiscardTrain, Convert, Merge, Choose,
        ChooseAbility, TakeLoan, PayoffLoan, EndGame, AcquireCompany, Assign,
        PayoffPlayerDebt, PayoffPlayerDebtPartial, Message, Log, Undo, Redo,
        ProgramSharePass, ProgramBuyShares, ProgramMergerPass, ProgramDisable,
    )
}
"""18xx.games type name -> action class."""

#: Actions that never change game state (STYLE.md §5, export format §3.4).
STATE_NEUTRAL: frozenset[str] = frozenset(
    {"message", "log", "program_share_pass", "program_buy_shares", "program_merger_pass",
     "program_disable"}
)


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Build the action an export dictionary describes.

    Raises:
        ValueError: the ``type`` is unknown.
    """
    kind = data.get("type")
    cls = ACTION_TYPES.get(str(kind))
    if cls is None:
        raise ValueError(f"unknown action type {kind!r}")
    return cls.from_dict(data)
