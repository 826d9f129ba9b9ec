"""1822CA rule constants and the title's knobs (STYLE.md §3: one frozen RulesConfig).

Numbers come from the rulebook (``seeds/1822CA-rulebook.txt``) and the
implementer's supplement (``rules/1822CA-supplement.md``); where 18xx.games
deviates from an explicit rule, the rulebook is the default and the
18xx.games behaviour is a named compatibility switch (supplement §14).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

TAX_HAVEN: Final = "P11~haven"
"""Holder id of the P11 tax haven (its cash and shares)."""
PURSE_PREFIX: Final = "purse:"
"""Holder-id prefix of the P8/P9 phase-revenue purses."""
DD_BLOCKER: Final = "DD"
"""Token owner blocking Q19 and Y27 until the first 3-train (RB 1.4.12)."""

TOKEN_PRICE: Final = 100
MINOR_BIDBOX_PRICE: Final = 200
MINOR_START_PAR_PRICE: Final = 50
MAJOR_PAR_PRICES: Final = (60, 70, 80, 90, 100)
"""Start prices of a major (RB 4.7)."""
BIDDING_TOKENS_PER_ACTION: Final = 3
UPGRADE_COST_L_TO_2: Final = 80
MINOR_13_TOKEN_PRICE: Final = 20

LOCAL_TRAINS: Final = frozenset({"L", "LP"})
EXTRA_TRAINS: Final = frozenset({"2P", "P", "LP", "G"})
EXTRA_TRAIN_PERMANENTS: Final = frozenset({"2P", "LP"})
PULLMAN: Final = "P"
GRAIN: Final = "G"
E_TRAIN: Final = "E"

PRIVATE_MAIL_CONTRACTS: Final = frozenset({"P22", "P23"})
PRIVATE_SMALL_MAIL_CONTRACTS: Final = frozenset({"P24", "P25"})
PRIVATE_PHASE_REVENUE: Final = {"P8": 10, "P9": 5}
PRIVATE_REMOVE_REVENUE: Final = frozenset(
    {"P1", "P5", "P6", "P7", "P14", "P15", "P16", "P17", "P18", "P22", "P23", "P24", "P25",
     "P26", "P27", "P28"})
PRIVATE_TRAINS: Final = {"P1": "5P-0", "P2": "LP-0", "P3": "2P-0", "P4": "2P-1", "P5": "P-0",
                         "P6": "P-1", "P26": "G-0", "P27": "G-1"}
DOUBLE_CASH: Final = "P7"
DOUBLE_CASH_REVENUE: Final = {1: 0, 2: 0, 3: 20, 4: 20, 5: 40, 6: 40, 7: 60}
WINNIPEG_TOKEN: Final = "P10"
ADVANCED_TILE_LAY: Final = "P12"
SAWMILL: Final = "P13"
BIG_CITY_COMPANIES: Final = {"P14": "AC21", "P15": "AE15", "P16": "AF12", "P17": "AH8",
                             "P18": "N16"}
MOUNTAIN_PASS_COMPANIES: Final = {"P19": "F16", "P20": "E11"}
PRIVATE_LAY_HEXES: Final = {**BIG_CITY_COMPANIES, **MOUNTAIN_PASS_COMPANIES}
"""The one hex a private's lay may use (its city; its mountain pass)."""
TILE_GRANT: Final = "P21"
TOKEN_SWAP: Final = "P28"
RULEBOOK_UNLIMITED_TRAINS: Final = frozenset({"7"})
"""Trains the rulebook supplies without limit in every 1822CA game (RB 5.13 table,
§9 scenario setup: "Unlimited 7/E-trains"); 18xx.games has 20 in ERS/WRS."""
REMOVE_TOWN: Final = frozenset({"P29", "P30"})
_PLAIN_UPGRADES: Final = "80 81 82 83 544 545 546 60 169"
ABILITY_TILES: Final = {company: frozenset(names.split()) for company, names in {
    "P12": _PLAIN_UPGRADES + " 141 142 143 144 767 768 769",
    "P14": "T1 T2 T3 T4 T5 T6 T7", "P15": "O1 O2 O3 O4 O5 O6 O7 O8",
    "P16": "M1 M2 M3 M4 M5 M6 M7 M8", "P17": "Q1 Q2 Q3 Q4 Q5 Q6 Q7 Q8",
    "P18": "W1 W2 W3 W4 W5 W6 W7", "P19": "7 8 9", "P20": "7 8 9",
    "P21": "1 2 3 4 5 6 7 8 9 55 56 57 58 69 201 202 621 630 631 632 633",
    "P29": "7 8 9 " + _PLAIN_UPGRADES, "P30": "7 8 9 " + _PLAIN_UPGRADES}.items()}
"""The tiles a private's lay may use (supplement §6.1: a city's own tiles for P14-P18,
the mountain pass's plain track for P19/P20, yellow for P21; 18xx.games' ability
``tiles``, which its lay step checks: another tile, even one that fits the hex by its
track, is refused)."""
SPECIAL_LAYS: Final = frozenset({"P12", "P29", "P30"})
"""Privates whose lay skips the label and city/town-count checks (their tiles say what
they may be: the next colour's plain track, a town removed); 18xx.games' ability
``special``, false for P14-P21, whose lays follow the normal upgrade rules."""

# Which corporation types may acquire a private, from which phase (supplement §6 table).
ACQUISITION: Final[dict[str, tuple[frozenset[str], int]]] = {
    **{p: (frozenset({"major"}), 5) for p in ("P1", "P5", "P6")},
    **{p: (frozenset({"major", "minor"}), 1)
       for p in ("P2", "P12", "P14", "P15", "P16", "P17", "P18", "P29", "P30")},
    **{p: (frozenset({"major"}), 2) for p in ("P3", "P4")},
    **{p: (frozenset({"major", "minor"}), 2) for p in ("P8", "P9")},
    **{p: (frozenset({"major"}), 3)
       for p in ("P7", "P10", "P13", "P19", "P20", "P21", "P22", "P23", "P24", "P25", "P26",
                 "P27")},
    "P28": (frozenset({"major", "minor"}), 3),
}

SAWMILL_HEXES: Final = frozenset(
    "A9 AA15 AA9 AB22 AD18 AD20 AE17 AF16 AG13 AG3 AG9 AH10 AH12 AK3 AK5 AL2 AM5 AM9 AO9 AP6 "
    "C9 D10 D12 D14 D16 F10 F8 G11 G13 G17 H16 H8 I11 I15 I17 J12 J16 K11 K13 K17 K9 L10 L16 "
    "L8 M17 M9 N6 O15 O9 P14 Q7 S15 U11 W9 X12 Y17 Z10 Z26".split())


@dataclass(frozen=True, slots=True)
class RulesConfig:
    """The knobs of one 1822CA-family game.

    The ``compat_*`` switches select 18xx.games behaviour where it differs
    from an explicit rulebook rule (supplement §14); imported games turn
    them all on.
    """

    title: str = "1822CA"
    """``"1822CA"``, ``"1822CA-ERS"`` or ``"1822CA-WRS"``."""
    scenario: bool = False
    """ERS/WRS (rulebook §9)."""
    extra_or_on_bank_break: bool = True
    """Full game: the OR set in which the bank breaks gets one more OR."""
    end_on_nothing_sold_in_sr1: bool = True
    """Full game: the game ends if nobody buys or bids in SR 1."""
    l_upgrade_cost_phase2: int = 80
    """L→2 flip price from phase 2 (70 in the scenarios)."""
    check_routes: bool = True
    """Rebuild every recorded route on the map and recompute its revenue."""
    strict_routes: bool = True
    """A route that does not validate, or a declared revenue other than the
    engine's price, is refused.  Off for imports (``compat_18xxgames``): the problem
    is counted in ``G1822CA.route_problems``, and the engine's price is used (the
    recorded revenue only when the route does not validate at all)."""
    check_track: bool = True
    """Check every tile lay against the upgrade rules and the company's reach."""
    compat_18xxgames: bool = False
    """Play exactly as 18xx.games (imported games; game option ``compat_18xxgames``).

    Off (the default for new games) switches on the rulebook's explicit rules
    listed in docs/rules-notes.md: the owner funds every tax-haven purchase
    (RB 6.1.2 P11), a second E-train after an acquisition must be discarded
    (RB 5.17.7), 2-player games are not offered (RB 1.7.2), the scenarios'
    7/E-trains are unlimited (RB §9), P21 keeps its unused grant lays
    until it has placed three, and deals with another player's private,
    minor or company wait for that player's consent (RB 5.6.1, 5.13.3, 5.16.4).
    """


def config_for(title: str, compat_18xxgames: bool = True) -> RulesConfig:
    """The configuration of a title; ``compat_18xxgames`` selects 18xx.games' behaviour."""
    scenario = title != "1822CA"
    return RulesConfig(title=title, scenario=scenario, extra_or_on_bank_break=not scenario,
                       end_on_nothing_sold_in_sr1=not scenario,
                       l_upgrade_cost_phase2=70 if scenario else 80,
                       compat_18xxgames=compat_18xxgames,
                       strict_routes=not compat_18xxgames)
