"""Numbers and names straight from the VENOM Assault rulebook (seed 004).

Everything here is printed in the rulebook; anything the rulebook leaves open
(the Freedom Squadron / VENOM split of the Event deck, card values) is setup
data or action input instead, never a constant here.
"""

from __future__ import annotations

from tableside.core.text import N_

# Game Setup > Difficulty / Game Components: 37 Event Cards, of which
# 9 "All Is Quiet" and 10 "VENOM Strikes!"; the other 18 are Freedom Squadron
# or VENOM events in a split the rulebook does not give.
EVENT_CARDS = 37
ALL_IS_QUIET_CARDS = 9
VENOM_STRIKES_CARDS = 10
OTHER_EVENT_CARDS = EVENT_CARDS - ALL_IS_QUIET_CARDS - VENOM_STRIKES_CARDS  # 18
MAX_VENOM_STRIKES_REMOVED = 4  # "you may remove up to 4 of these VENOM Strikes! cards"
ALL_IS_QUIET_REMOVED_FROM = 4  # "In a game of 4-5 players, remove all 9 All is Quiet"

MIN_PLAYERS = 2
MAX_PLAYERS = 5
SUGGESTED_MISSION = "World in Darkness"  # Scenario Selection: recommended for first-time players

# Event Card kinds (Card Layouts > Event Card), as action values and as printed.
ALL_IS_QUIET = "all_is_quiet"
FREEDOM_SQUADRON = "freedom_squadron"
VENOM = "venom"
VENOM_STRIKES = "venom_strikes"
EVENT_KINDS = (ALL_IS_QUIET, FREEDOM_SQUADRON, VENOM, VENOM_STRIKES)
EVENT_NAMES = {
    ALL_IS_QUIET: "All Is Quiet",
    FREEDOM_SQUADRON: "Freedom Squadron",
    VENOM: "VENOM",
    VENOM_STRIKES: "VENOM Strikes!",
}
# Deck bucket for Freedom Squadron and VENOM events when the players gave no split.
FS_OR_VENOM = "freedom_squadron_or_venom"

# Event Track: 0 at setup (Marker Placement); "If the Event Track reaches 5 ...": it runs 0-5.
EVENT_TRACK_START = 0
EVENT_TRACK_FINAL = 5

# Glossary, Health Track / Defense Track: "No Ability can adjust this track over
# eight, or under one. Any additional adjustments in that direction are ignored."
TRACK_MIN = 1
TRACK_MAX = 8
# End of Turn example: "The VENOM Leader Tracks are reset to their lowest values."
TRACK_START = TRACK_MIN

COMBAT_DIE_SIDES = 6  # Rolled Value: "Rolled Values can go above six or below one"
VENOM_SUPPORT_CARDS = 56  # Game Components: no Leader can command more Support than this
# Game Components: "28 VENOM Leader Cards" and "1 Mission Specific VENOM Leader Card": the most a
# VENOM Leader Deck can hold (the Mission Card picks which; their names and numbers are setup data).
LEADER_CARDS = 28 + 1

# Turn Order.
SETUP = "Setup"
EVENT = "Event"
RECRUITMENT = "Recruitment"
TACTICAL = "Tactical"
COMBAT = "Combat"
RETIREMENT = "Retirement"
END_OF_TURN = "End of Turn"
GAME_OVER = "Game Over"
PHASES = (EVENT, RECRUITMENT, TACTICAL, COMBAT, RETIREMENT, END_OF_TURN)

# Glossary, Zone: the seven Zones and their types (Land, Air, Arctic, Sea).
ZONE_TYPES = ("Land", "Sea", "Air", "Arctic")
ZONES = {
    "VENOM Sky Temple": "Air",
    "VENOM Air Dominator": "Air",
    "VENOM Mountain Defense": "Arctic",
    "Arctic VENOM Stronghold": "Arctic",
    "VENOM Island": "Land",
    "Captured Oil Rig": "Sea",
    "VENOM Underwater Station": "Sea",
}

FREEDOM_SQUADRON_WINS = "freedom_squadron"
VENOM_WINS = "venom"
WINNERS = (FREEDOM_SQUADRON_WINS, VENOM_WINS)
WINNER_NAMES = {
    FREEDOM_SQUADRON_WINS: N_("Freedom Squadron: the Mission's Victory Conditions are met"),
    VENOM_WINS: N_("VENOM: their plot succeeds, all players lose"),
}

# Difficulty in words: how many VENOM Strikes! cards were taken out of the Event deck.
DIFFICULTY_NAMES = {
    0: N_("Normal: all 10 VENOM Strikes! cards"),
    1: N_("Easier: 1 VENOM Strikes! card removed (9 left)"),
    2: N_("Easier: 2 VENOM Strikes! cards removed (8 left)"),
    3: N_("Easier: 3 VENOM Strikes! cards removed (7 left)"),
    4: N_("Easiest: 4 VENOM Strikes! cards removed (6 left)"),
}

# The card economy. Game Components: "84 Freedom Squadron Cards"; Deck Shuffling and Placement: "Place the top
# five cards from the deck, face up, in the Training Ground"; End of Turn Phase: "Refill the Training Ground to
# five cards by drawing from the Recruitment Deck." No card's Recruitment Points or Cost is printed: input.
FREEDOM_SQUADRON_CARDS = 84
TRAINING_GROUND_CARDS = 5
