"""Compare two positions: each player's cash, certificates and value, each
company's cash, trains and price, side by side with the differences marked."""

from __future__ import annotations

from dataclasses import dataclass

from desk18xx.engine.game import Game


@dataclass(frozen=True, slots=True)
class CompareRow:
    """One line of a comparison."""

    section: str
    """``"player"`` or ``"company"``."""
    entity: str
    """Player or corporation id."""
    label: str
    """``"Ann cash"``, ``"CPR trains"`` …"""
    a: str
    b: str

    @property
    def differs(self) -> bool:
        """True when the two positions differ here."""
        return self.a != self.b


def _player_values(game: Game) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for p in game.players:
        shares = sorted(f"{s.corp} {s.percent}%{'P' if s.president else ''}"
                        for s in game.shares.values() if s.owner == p.id)
        privates = sorted(c.id for c in game.companies.values()
                          if c.owner == p.id and not c.closed)
        try:
            value = str(game.player_value(p.id))
        except Exception:  # a title's value may need a finished round; show the cash then
            value = str(game.cash.get(p.id, 0))
        out[p.id] = {
            "cash": str(game.cash.get(p.id, 0)),
            "certificates": f"{game.num_certs(p.id)}: " + ", ".join(shares + privates),
            "value": value,
        }
    return out


def _company_values(game: Game) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for c in game.corps.values():
        if not (c.ipoed or c.floated or c.trains or game.cash.get(c.id, 0)):
            continue
        trains = ", ".join(game.trains[t].name for t in c.trains)
        out[c.id] = {
            "cash": str(game.cash.get(c.id, 0)),
            "trains": trains or "-",
            "price": str(game.market.price(c.id)) if c.id in game.market.where else "-",
        }
        if c.closed:
            out[c.id]["price"] = "closed"
    return out


def compare_games(a: Game, b: Game) -> list[CompareRow]:
    """Rows for every player field, then every company started in either position."""
    rows: list[CompareRow] = []
    pa, pb = _player_values(a), _player_values(b)
    for p in a.players:
        for field in ("cash", "certificates", "value"):
            rows.append(CompareRow("player", p.id, f"{p.name} {field}",
                                   pa[p.id][field], pb.get(p.id, {}).get(field, "-")))
    ca, cb = _company_values(a), _company_values(b)
    for cid in [c for c in a.corps if c in ca or c in cb]:
        for field in ("cash", "trains", "price"):
            rows.append(CompareRow("company", cid, f"{cid} {field}",
                                   ca.get(cid, {}).get(field, "-"),
                                   cb.get(cid, {}).get(field, "-")))
    return rows


__all__ = ["CompareRow", "compare_games"]
