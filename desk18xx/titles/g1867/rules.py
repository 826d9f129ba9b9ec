"""1867 rule knobs and printed tables (trains, phases, companies, corporations, markets).

The tables mirror ``../shared/reference/data/1867.json`` (18xx ``g_1867/game.rb``
and ``entities.rb``).  FIXME: switch trains/phases/market/companies to
``engine.data.load_title`` once the data engineer's loader carries them.
"""

from __future__ import annotations

from dataclasses import dataclass

STARTING_CASH = {2: 420, 3: 420, 4: 315, 5: 252, 6: 210}
"""1867 card: start cash by players (2 players: 18xx.games only)."""
CERT_LIMIT = {2: 21, 3: 21, 4: 16, 5: 13, 6: 11}
BANK_CASH = 15_000
LOAN_VALUE = 50
LOAN_COUNT = 72
MIN_MINOR_BID = 100
MAX_MINOR_PAR = 135
MAJOR_PHASE = 4
MARKET_SHARE_LIMIT = 50
BONUS_CAPITALS = ("F16", "L12", "O7")
BONUS_REVENUE = "D2"
GREEN_MINORS = ("BBG", "LPS", "QLS", "SLA", "TGB", "THB")
LIMIT_TOKENS_AFTER_MERGER = 2


@dataclass(frozen=True, slots=True)
class RulesConfig:
    """Rule choices of one 1867 game.

    Where the summary card is explicit its rule is the default; the 18xx.games
    behaviour is switched on by ``compat_18xxgames`` (imported games set it).
    See ``docs/rules-notes.md``.
    """

    grid_market: bool = False
    """Optional rule "Grid Stock Market" (card: "Choose market")."""
    compat_18xxgames: bool = False
    """Follow 18xx.games where it differs from the card (rules/1867.md §16,
    docs/rules-notes.md): 2 players, an upgrade as the second tile, export of the
    next new train, the CN's Montreal token on tile 639, merge connectivity by each
    minor's own graph.  Games imported from 18xx.games set it."""


# name, distance, price, count (None = unlimited), rusts_on, events, multiplier, available_on
TRAINS: tuple[tuple[str, int, int, int | None, str | None, tuple[str, ...], int, str | None],
              ...] = (
    ("2", 2, 100, 10, "4", (), 1, None),
    ("3", 3, 225, 7, "6", ("green_minors_available",), 1, None),
    ("4", 4, 350, 4, "8", ("majors_can_ipo", "trainless_nationalization"), 1, None),
    ("5", 5, 550, 4, None, ("minors_cannot_start",), 1, None),
    ("6", 6, 650, 2, None, ("nationalize_companies", "trainless_nationalization"), 1, None),
    ("7", 7, 800, 2, None, (), 1, None),
    ("8", 8, 1000, None, None,
     ("minors_nationalized", "trainless_nationalization", "train_trade_allowed"), 1, None),
    ("2+2", 2, 600, None, None, (), 2, "8"),
    ("5+5E", 5, 1500, None, None, (), 2, "8"),
)
TRADE_IN = {"5": 275, "6": 325, "7": 400, "8": 500, "2+2": 300, "5+5E": 750}
"""Phase 8 trade-in value when buying an 8, 2+2 or 5+5E (card: "trade in ... half")."""
TRADE_FOR = ("8", "2+2", "5+5E")

# name, tiles, minor limit, major limit, on, status
PHASES: tuple[tuple[str, tuple[str, ...], int, int, tuple[str, ...]], ...] = (
    ("2", ("yellow",), 2, 0, ()),
    ("3", ("yellow", "green"), 2, 4, ("can_buy_companies",)),
    ("4", ("yellow", "green"), 1, 3, ("can_buy_companies", "export_train")),
    ("5", ("yellow", "green", "brown"), 1, 3, ("can_buy_companies", "export_train")),
    ("6", ("yellow", "green", "brown"), 1, 2, ("export_train",)),
    ("7", ("yellow", "green", "brown", "gray"), 1, 2, ("export_train",)),
    ("8", ("yellow", "green", "brown", "gray"), 0, 2, ()),
)

# id, name, value, revenue, bonus hexes
COMPANIES: tuple[tuple[str, str, int, int, tuple[str, ...]], ...] = (
    ("C&SL", "Champlain & St. Lawrence", 30, 10, ()),
    ("NFB", "Niagara Falls Bridge", 45, 15, ("F18",)),
    ("MB", "Montreal Bridge", 60, 20, ("L12",)),
    ("QB", "Quebec Bridge", 75, 25, ("O7",)),
    ("SCT", "St. Clair Tunnel", 90, 30, ("A19", "A17")),
)

MAJORS: tuple[tuple[str, str], ...] = (
    ("CNR", "Canadian Northern Railway"), ("CPR", "Canadian Pacific Railway"),
    ("C&O", "Chesapeake and Ohio Railway"), ("GTR", "Grand Trunk Railway"),
    ("GWR", "Great Western Railway"), ("ICR", "Intercolonial Railway"),
    ("NTR", "National Transcontinental Railway"), ("NYC", "New York Central Railroad"),
)
MINORS: tuple[tuple[str, str], ...] = (
    ("BO", "Brockville and Ottawa"), ("CS", "Canada Southern"), ("CV", "Credit Valley Railway"),
    ("KP", "Kingston and Pembroke"), ("OP", "Ottawa and Prescott"),
    ("TN", "Toronto and Nipissing"), ("AE", "Algoma Eastern Railway"),
    ("CA", "Canada Atlantic Railway"), ("NO", "New York and Ottawa"),
    ("PM", "Pere Marquette Railway"), ("BBG", "Buffalo, Brantford, and Goderich"),
    ("LPS", "London and Port Stanley"), ("QLS", "Quebec and Lake St. John"),
    ("SLA", "St. Lawrence and Atlantic"), ("TGB", "Toronto, Grey, and Bruce"),
    ("THB", "Toronto, Hamilton and Buffalo"),
)

COLUMN_MARKET: tuple[tuple[str, ...], ...] = ((
    "35", "40", "45", "50x", "55x", "60x", "65x", "70p", "80p", "90p", "100pC", "110pC",
    "120pC", "135pC", "150zC", "165zCm", "180z", "200z", "220", "245", "270", "300", "330",
    "360", "400", "440", "490", "540"),)

GRID_MARKET: tuple[tuple[str, ...], ...] = (
    ("", "", "", "", "135", "150", "165mC", "180", "200z", "220", "245", "270", "300", "330",
     "360", "400", "440", "490", "540"),
    ("", "", "", "110", "120", "135", "150mC", "165z", "180z", "200", "220", "245", "270",
     "300", "330", "360", "400", "440", "490"),
    ("", "", "90", "100", "110", "120", "135pmC", "150z", "165", "180", "200", "220", "245",
     "270", "300", "330", "360", "400", "440"),
    ("", "70", "80", "90", "100", "110p", "120pmC", "135", "150", "165", "180", "200"),
    ("60", "65", "70", "80", "90p", "100p", "110mC", "120", "135", "150"),
    ("55", "60", "65", "70p", "80p", "90", "100mC", "110"),
    ("50", "55", "60x", "65x", "70", "80"),
    ("45", "50x", "55x", "60", "65"),
    ("40", "45", "50", "55"),
    ("35", "40", "45"),
)
