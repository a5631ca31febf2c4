"""Venus 2140 conflicts: the numbers and names the rulebook gives, in one place.

Everything here is transcribed from docs/rulebooks/v2140.txt. Where the text
leaves a number open it is an action field the table fills in, never a constant
here; where the text is ambiguous the reading chosen is named in
docs/systems/v2140.md.
"""

from __future__ import annotations

from fractions import Fraction

# "All dice in Venus are six sided normal dice."
SIDES = 6
# "Any dice that show 3 or lower are tossed aside. For each 6 that you roll, add an
# additional die into the pool."
TOSS_AT_MOST = 3
ROLL_IN_FACE = 6
# Resist Dice: "add any dice with four or higher to the scene pool".
RESIST_KEEP_AT_LEAST = 4

# Primary Skill: "two dice for each matching skill"; Secondary Skill: "one die per matching skill".
PRIMARY_DICE_PER_SKILL = 2
SECONDARY_DICE_PER_SKILL = 1
# A skill matches with its parents: Specialty, Focus and root ("Boat, Pilot, & Coordination").
MAX_MATCHING_SKILLS = 3
# "Gear either acts as an assist, in which case it adds half its quality in dice to your pool
# (rounded down), or as a circumstance, in which case you get a single extra die."
ASSIST_DIVISOR = 2
# "Roll secondary dice at half value, which is half the dice for skill and appropriate Gear."
SECONDARY_ASSIST_DIVISOR = 4
GEAR_CIRCUMSTANCE_DICE = 1
CIRCUMSTANCE_DICE = 1  # "Each separate circumstance ... is worth one additional die."

# Rack: "one die per Lifestyle of the character. Usually this is six per person."
DEFAULT_RACK = 6
# Session Budget: "The GM gets one rack for each player".
SESSION_RACKS_PER_PLAYER = 1

# Exchange: "You shouldn't use more than half of your dice in one pull."
# Leftover dice: "Any leftover dice can be used two at a time as books."
DICE_PER_LEFTOVER_BOOK = 2
# A side with no dice to answer: "Two of the dice are paired up and make a book ... The other
# one is lost."
DICE_PER_UNANSWERED_BOOK = 2
# Take it on the chin: "Two leftover dice makes one extra die in the next follow up."
DICE_PER_CHIN_DIE = 2
# Follow Up: "Everyone takes half their dice in their scene pool (rounding down) and tosses them out."
FOLLOW_UP_TOSS_DIVISOR = 2
# "You can only buy one goal or give one book per round."
GOALS_OR_GIFTS_PER_ROUND = 1
# Player Points from the GM "at the 1- for- 1 cost of Murphy's Dice".
MURPHY_PER_PLAYER_POINT = 1

# Goal guide prices in books (the rulebook's examples): "At the cost of one book, you can say that
# it hurt him a little"; "You knock out one person. 3 books"; "to persuade one person takes 4
# books"; "7 for kill"; downtime: "2 books to get rid of a wound, and 3 to make a wound permanent".
GOAL_GUIDE: dict[str, int] = {
    "small hurt": 1,
    "get rid of a wound": 2,
    "knock out one person": 3,
    "make a wound permanent": 3,
    "persuade one person": 4,
    "kill": 7,
}
# "to buy a goal for a lot of people or places, it works on a logarithmic scale. Powers of ten":
# one more book per power of ten people (persuade ten people 5, a million 10); a gang of
# about ten "count as Scale 1. Doing anything to them costs one extra book"; "each extra zone
# probably costs 1 extra book".
BOOKS_PER_POWER_OF_TEN = 1
BOOKS_PER_EXTRA_ZONE = 1

ROLES = ("player", "gm")
GM_NAME = "GM"

# Size limits for input (every input has one).
MAX_PARTICIPANTS = 12
MAX_POOL = 200  # dice one scene pool may hold
MAX_DICE_IN_ROLL = 100  # dice one roll action may start with
MAX_ROLL_INS = 100  # extra dice one roll may add by rolling in
MAX_COUNT = 99  # skills, circumstances, racks, books in one action
MAX_QUALITY = 20  # a gear quality
MAX_TEXT = 60


def expected_kept_per_die() -> Fraction:
    """Dice one starting die leaves in the pool on average: E = P(4-6) + P(6)·E, so E = 3/5.

    A 4, 5 or 6 stays (1/2); a 6 also rolls in one more die that is worth E again (1/6).
    """
    keep = Fraction(SIDES - TOSS_AT_MOST, SIDES)
    roll_in = Fraction(1, SIDES)
    return keep / (1 - roll_in)


def variance_kept_per_die() -> Fraction:
    """Variance of the dice one starting die leaves: E[K²] = 1/2 + 2·(1/6)·E + (1/6)·E[K²]."""
    e = expected_kept_per_die()
    keep = Fraction(SIDES - TOSS_AT_MOST, SIDES)
    roll_in = Fraction(1, SIDES)
    second = (keep + 2 * roll_in * e) / (1 - roll_in)
    return second - e * e
