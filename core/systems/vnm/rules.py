"""Venus Needs Men: the numbers the rulebook gives, in one place.

Everything here is transcribed from docs/rulebooks/vnm.txt
(the rulebook and six revised cards). Values the rulebook does not give are not
here: they are setup options the players confirm (see setup.py).
"""

from __future__ import annotations

from math import ceil

from tableside.core.text import N_

# "Choose a home world (one of the five alien planets or Earth)".
PLANETS: tuple[str, ...] = ("Venus", "Mars", "Ganymede", "Titan", "Pluto", "Earth")
# The ship colours in the Setup table, in the order of PLANETS (the screen's colour index).
COLOURS: tuple[str, ...] = ("Purple", "Red", "Blue", "Yellow", "Black", "Green")
VERSIONS: tuple[str, ...] = ("Basic", "Enhanced")
MIN_PLAYERS, MAX_PLAYERS = 2, 6

# "Each set has five spaceships, except Earth, which has four, and Ganymede, which has six."
FLEET_SIZE: dict[str, int] = {"Venus": 5, "Mars": 5, "Ganymede": 6, "Titan": 5, "Pluto": 5, "Earth": 4}

# Setup table: starting spaceships (Basic Game, Enhanced Game).
STARTING_SHIPS: dict[str, dict[str, int]] = {
    "Basic": {"Venus": 2, "Mars": 2, "Ganymede": 3, "Titan": 3, "Pluto": 5, "Earth": 0},
    "Enhanced": {"Venus": 2, "Mars": 2, "Ganymede": 2, "Titan": 2, "Pluto": 2, "Earth": 0},
}

# Build Action: "In the Basic Game, if you are Titan, you can build two spaceships with a
# single build action, and if you are Pluto, you can build three. In the Enhanced Game, you
# can normally only build one"; Amphibious (Ganymede Special, revised card) builds two.
BUILDS_PER_ACTION: dict[str, dict[str, int]] = {
    "Basic": {"Venus": 1, "Mars": 1, "Ganymede": 1, "Titan": 2, "Pluto": 3, "Earth": 1},
    "Enhanced": {"Venus": 1, "Mars": 1, "Ganymede": 2, "Titan": 1, "Pluto": 1, "Earth": 1},
}

# Where Earth keeps what it collects: "or to the Secret Underground Refuge, if you are the Earth player".
REFUGE = "Secret Underground Refuge"

# Game Length table. The transcription stops after "Australia" (no values), so only these
# five of the eight land areas are known; the Normal total (101) is in the Overview.
GAME_LENGTHS: tuple[str, ...] = ("Short", "Normal", "Long", "Epic")
KNOWN_LAND_AREAS: dict[str, dict[str, int]] = {
    "China": {"Short": 20, "Normal": 27, "Long": 34, "Epic": 40},
    "India": {"Short": 16, "Normal": 21, "Long": 26, "Epic": 31},
    "Europe": {"Short": 12, "Normal": 16, "Long": 20, "Epic": 24},
    "Africa": {"Short": 7, "Normal": 9, "Long": 11, "Epic": 13},
    "North America": {"Short": 6, "Normal": 8, "Long": 10, "Epic": 12},
}
LAND_AREA_COUNT = 8  # "13 Earth areas, including 8 land areas"
KNOWN_TOTALS: dict[str, int] = {"Normal": 101}  # "Earth's total population (101)"
# The row the seed cuts off, and a name for the land areas it never reaches: one pool for three areas, and its
# name says so ("Australia + 2 others" was read as one land area, #36). The old name still finds it.
MISSING_AREA_NAME = "Australia & 2 more, together"
OLD_MISSING_AREA_NAMES: tuple[str, ...] = ("Australia + 2 others",)

# Zap Cards: "36 Zap cards ... You can keep three Zap cards in your hand"; "Discard up to three".
ZAP_CARDS = 36
ZAP_HAND = 3
MAX_EXTENSIONS = 3

# Action names as the Turns section lists them; "population" is the Population Action
# (collect, infect or destroy population).
ACTIONS: dict[str, str] = {
    "build": N_("Build"),
    "move": N_("Move"),
    "attack": N_("Attack"),
    "population": N_("Collect"),
    "research": N_("Research"),
}

# Area types for Defense: "a space area (including Orbit), a land area, or an ocean area".
AREA_TYPES: tuple[str, ...] = ("space", "land", "ocean")
AREA_TYPE_WORDS: dict[str, str] = {
    "space": N_("Space area or Orbit"),
    "land": N_("Land area"),
    "ocean": N_("Ocean area"),
}
BASIC_HIT = 8  # "If either die is an 8 or higher, the target is destroyed"
BASIC_DICE = 2
D10 = 10

# Alluring (Venus Special, revised card): "each of your spaceships in a populated area may collect two
# population units ... instead of one"; a Zap card extension still collects only one.
ALLURING_WORLD = "Venus"
ALLURING_UNITS = 2

# Technology Upgrades whose text is on the revised card sheet.
UPGRADE_ROLL_NEEDED: dict[str, int] = {"Gatling Lasers": 5, "Yttrium Alloys": 5}
GATLING_DICE = 2
YTTRIUM_DEFENSE: dict[str, int] = {"space": 8, "land": 7, "ocean": 9}
DUPLICATES: dict[str, tuple[str, ...]] = {
    "Yttrium Alloys": ("Baryonite Armor", "Biometallic Hull", "Ultronium Shielding"),
}
OBSOLETED_BY: dict[str, tuple[str, ...]] = {
    "Gatling Lasers": (
        "Auto Fire Control",
        "Energy Amplifier",
        "Disintegration Ray",
        "Long-Range Missiles",
        "Magneto-Blasters",
        "Plasma Cannon",
    ),
    "Yttrium Alloys": (
        "Adamantium Armor",
        "Adaptive Shield",
        "Impervite Armor",
        "Phased Shield Array",
        "Chameleon Screen",
        "Force Barrier",
    ),
}
# Gatling Lasers: "If you already have the Q-Ray (Venus) ... this card is not obsoleted by
# Auto Fire Control or Energy Amplifier." Q-Ray: those two upgrades re-roll a 4 or 5.
QRAY = "Q-Ray"
QRAY_REROLL_UPGRADES: tuple[str, ...] = ("Auto Fire Control", "Energy Amplifier")
# The cards the seed tags with a planet ("Disintegration Ray (Pluto)", "Baryonite Armor (Venus)", ...), as it
# tags "Q-Ray (Venus, Technology — Weapon)" and no Upgrade card ("Gatling Lasers (Technology Upgrade)"): read
# as that planet's Technology cards (one a Weapon, one a Defense; Earth has none named). The seed does not
# say so in words, so a game starts with them as setup data the players confirm (setup.py).
PLANET_CARDS: dict[str, tuple[str, ...]] = {
    "Venus": ("Baryonite Armor",),
    "Mars": ("Magneto-Blasters", "Chameleon Screen"),
    "Ganymede": ("Long-Range Missiles", "Biometallic Hull"),
    "Titan": ("Plasma Cannon", "Force Barrier"),
    "Pluto": ("Disintegration Ray", "Ultronium Shielding"),
    "Earth": (),
}
# Mind Control (Mars Special, revised card): "each of your spaceships may either attack using your Weapon
# Technology or use mind control to take over one target spaceship in the same area".
MIND_CONTROL_WORLD = "Mars"
# "if the target player has the Robotic Special card (Pluto), the target is only disabled".
ROBOTIC_WORLD = "Pluto"


def threshold(total: int, players: int) -> int:
    """Population needed to win: "the total population divided by the number of players, rounded up"."""
    if players < 1:
        raise ValueError("a game needs players")
    return ceil(total / players)


def zap_deal(players: int) -> tuple[int, int]:
    """(cards per player, cards set aside): "deal out an equal number to each player"."""
    return ZAP_CARDS // players, ZAP_CARDS % players


def canonical(name: str, known: tuple[str, ...] | list[str]) -> str | None:
    """The known spelling of ``name``, ignoring case and spaces at the ends, or None."""
    wanted = name.strip().casefold()
    for item in known:
        if item.casefold() == wanted:
            return item
    return None
