"""1867 nationalisation, closing and resetting companies, and the CN's tokens.

Card: "Nationalization", "The Canadian National"; 18xx ``G1867::Game#nationalize!``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from desk18xx.engine.state import BANK, CorpKind, Token
from desk18xx.titles.g1867 import board as B
from desk18xx.titles.g1867 import rules as R

if TYPE_CHECKING:
    from desk18xx.titles.g1867.game import G1867

NATIONAL = "CN"


def nationalize(game: G1867, cid: str, move_on: bool = True, stale: bool = False) -> None:
    """Nationalise ``cid``: repay, price moves, shareholders paid, CN takes tokens.

    When ``cid`` is the operator its turn ends, unless ``move_on`` is False
    (18xx.games keeps the turn in one case, see ``MajorTrainless``).  ``stale``
    (``compat_18xxgames``, D31): 18xx.games will still list the major among the
    trainless majors (see `G1867.stale_trainless`); its key there is noted.
    """
    corp = game.corps[cid]
    if not corp.floated or corp.closed:
        return
    while game.cash[cid] >= R.LOAN_VALUE and corp.loans:
        game.repay_loan(cid)
    game.move_price(cid, "left")
    game.move_price(cid, "left", 2 * corp.loans)
    # unpaid loans are cancelled and leave the game (18xx: the loan objects vanish)
    game.loans_cancelled += corp.loans
    corp.loans = 0
    game.transfer(cid, BANK, game.cash[cid])
    if stale and game.is_major(cid):
        cell = game.market.cells[game.market.where[cid]]
        # 18xx ``Corporation#sort_order_key`` of the replaced object: off its cell's
        # list, so its place there counts as 0
        game.stale_trainless[cid] = (-cell.price, -cell.col, cell.row, 0, cid)
    per_share = game.price(cid)
    for p in game.players:
        amount = game.num_shares_of(p.id, cid) * per_share
        if amount:
            game.transfer(BANK, p.id, amount)
    replace_tokens(game, cid)
    was_current = game.round is not None and game.round.operator() == cid
    if game.is_minor(cid):
        close_corporation(game, cid, force=False)
    else:
        reset_corporation(game, cid)
    if was_current and move_on and game.round is not None:
        game.round.force_next_entity(game)


def replace_tokens(game: G1867, cid: str) -> None:
    assert game.board is not None
    corp = game.corps[cid]
    cn = game.corps[NATIONAL]
    used = [t for t in corp.tokens if t.hex is not None]

    def max_rev(t: Token) -> int:
        assert game.board is not None and t.hex is not None and t.city is not None
        st = game.board.hex(t.hex)
        node = st.tile.nodes[st.geo.city_nodes[t.city]]
        rev = node.revenue
        return max([rev.flat] + [v for _c, v in rev.by_color])

    used.sort(key=lambda t: (max_rev(t), t.hex or ""), reverse=True)
    for token in used:
        assert token.hex is not None and token.city is not None
        hex_id, city = token.hex, token.city
        slots = B.slots(game.board, hex_id, city)
        B.set_slot(game.board, hex_id, city, slots.index(cid), None)
        slots = B.slots(game.board, hex_id, city)
        token.hex = token.city = None
        if any(NATIONAL in s for s in B.hex_slots(game.board, hex_id)):
            continue
        new = cn.next_token()
        if new is None:
            continue
        if hex_id in game.national_reservations:
            game.national_reservations.remove(hex_id)
        elif sum(1 for t in cn.tokens if not t.used) == len(game.national_reservations):
            continue
        B.set_slot(game.board, hex_id, city, slots.index(None), NATIONAL)
        new.hex, new.city = hex_id, city


def close_corporation(game: G1867, cid: str, force: bool = True) -> None:
    """A minor closes: trains leave play, privates close, certificates vanish."""
    corp = game.corps[cid]
    assert game.board is not None
    for t in corp.tokens:
        if t.hex is not None and t.city is not None:
            slots = B.slots(game.board, t.hex, t.city)
            if cid in slots:
                B.set_slot(game.board, t.hex, t.city, slots.index(cid), None)
            t.hex = t.city = None
    if game.cash[cid]:
        game.transfer(cid, BANK, game.cash[cid])
    for tid in corp.trains:
        game.trains[tid].buyable = False
        game.trains[tid].owner = "closed"
    corp.trains = []
    for comp in corp.companies:
        game.companies[comp].closed = True
        game.companies[comp].owner = None
    corp.companies = []
    for sid in [s.id for s in game.shares.values() if s.corp == cid]:
        del game.shares[sid]
    game._share_index = None
    game.market.remove(cid)
    corp.closed = True
    corp.floated = False
    if cid in game.available:
        game.available.remove(cid)
    if force and game.round is not None and game.round.operator() == cid:
        game.round.force_next_entity(game)


def reset_corporation(game: G1867, cid: str) -> None:
    """A nationalised major becomes an unstarted major again (card: "may restart")."""
    corp = game.corps[cid]
    game.token_graph.pop(cid, None)  # 18xx: a new corporation object, no cached graph
    ghost = nationalised_holder(cid)
    for tid in corp.trains:
        if game.config.compat_18xxgames:
            # 18xx.games: the old corporation object keeps them, and other companies
            # may buy them from it ($1 or more; the money leaves play with it)
            game.trains[tid].owner = ghost
            game.cash.setdefault(ghost, 0)
        else:  # card: "Its money goes to the bank and the rest to the CN"
            game.trains[tid].buyable = False
            game.trains[tid].owner = "closed"
    for comp in corp.companies:
        game.companies[comp].closed = True
        game.companies[comp].owner = None
    for sid in [s.id for s in game.shares.values() if s.corp == cid]:
        del game.shares[sid]
    game.market.remove(cid)
    del game.corps[cid]
    name = corp.name
    game._new_corp(cid, name, CorpKind.MAJOR)
    # keep definition order stable for live_corps
    game.corps = dict(sorted(game.corps.items(), key=lambda kv: corp_order(kv[0])))


def corp_order(cid: str) -> int:
    """Definition order of the corporations (keeps ``live_corps`` stable)."""
    order = [c for c, _ in R.MAJORS] + [c for c, _ in R.MINORS] + [NATIONAL]
    return order.index(cid)


def cn_tokens_montreal(game: G1867) -> None:
    """Card: at the first 8 the CN places its reserved token in Montreal (room allowing)."""
    assert game.board is not None
    if "L12" not in game.national_reservations:
        return
    if any(NATIONAL in slots for slots in B.hex_slots(game.board, "L12")):
        game.national_reservations.remove("L12")
        return
    token = game.corps[NATIONAL].next_token()
    for ci, slots in enumerate(B.hex_slots(game.board, "L12")):
        if token is not None and None in slots:
            B.set_slot(game.board, "L12", ci, slots.index(None), NATIONAL)
            token.hex, token.city = "L12", ci
            game.national_reservations.remove("L12")
            return


def place_639_token(game: G1867, hex_id: str) -> None:
    """The CN's reserved Montreal token goes on grey tile 639 (18xx ``place_639_token``)."""
    assert game.board is not None
    if not game.national_reservations or not game.config.compat_18xxgames:
        return
    if any(NATIONAL in slots for slots in B.hex_slots(game.board, hex_id)):
        return
    token = game.corps[NATIONAL].next_token()
    if token is None:
        return
    game.national_reservations.remove(hex_id) if hex_id in game.national_reservations \
        else None
    B.add_token(game.board, hex_id, 0, NATIONAL, cheater=True)
    token.hex, token.city = hex_id, 0


def nationalised_holder(cid: str) -> str:
    """Who holds a nationalised major's trains under ``compat_18xxgames``
    (18xx.games' replaced corporation object): ``"<major>~"``."""
    return f"{cid}~"


def is_nationalised_holder(owner: object) -> bool:
    """`nationalised_holder`'s form."""
    return isinstance(owner, str) and owner.endswith("~")
