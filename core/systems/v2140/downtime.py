"""Tests outside a conflict: downtime healing, training and Connections.

A test is a conflict in small: the rulebook gives the dice on each side ("a test against three
dice for each level of the wound"; "a test with a skill you plan to use against two racks"; for
Connections "for each lifestyle the character has that relates to what they are seeking, the
players roll two dice") and counts books ("Every book you pull out ..."). Reading: both sides roll
their dice in as a scene pool does (sixes roll in, 1-3 are tossed) and every kept die is compared
in one exchange, high against high (exchange.normal); the books the character's side captures are
the test's books. Books the other side wins "don't count for anything".
"""

from __future__ import annotations

from dataclasses import dataclass

from tableside.core.systems.v2140 import exchange, pool, rules
from tableside.core.systems.v2140.pool import Draw

# "The player or his doctor makes a test against three dice for each level of the wound. It costs 2
# books to get rid of a wound, and 3 to make a wound permanent."
DOWNTIME_DICE_PER_LEVEL = 3
RID_OF_WOUND = "get rid of it"
MAKE_PERMANENT = "make it permanent"
DOWNTIME_COSTS = {RID_OF_WOUND: 2, MAKE_PERMANENT: 3}
# "Make a test with a skill you plan to use against two racks."
TRAINING_RACKS = 2
# Connections: "the players roll two dice" per relevant lifestyle; "If a player has chosen a Network
# as a memento of their lifestyle, then they get an extra two dice."
CONNECTION_DICE_PER_LIFESTYLE = 2
NETWORK_DICE = 2
AGAINST = ": against"  # the end of a test's roll against the player (the GM rolls it)
TESTS_KEEP = 30  # tests kept in the state for the screen (the log keeps them all)


@dataclass(frozen=True)
class Test:
    """A test's two rolls and the books the character's side pulled out."""

    own: pool.RollIn
    against: pool.RollIn
    outcome: exchange.Outcome

    @property
    def books(self) -> int:
        return self.outcome.books.get(exchange.ACTOR, 0)

    def to_dict(self) -> dict:
        return {
            "own": list(self.own.kept),
            "against": list(self.against.kept),
            "books": self.books,
            "their_books": self.outcome.books.get(exchange.TARGET, 0),
        }


def run_test(own_dice: int, against_dice: int, draw: Draw, label: str) -> Test:
    """Roll both sides in and compare every kept die at once; the character's books are what they capture."""
    own = pool.roll_in(own_dice, draw, label=f"{label}")
    against = pool.roll_in(against_dice, draw, label=f"{label}{AGAINST}")
    outcome = exchange.normal(own.kept, against.kept, 0, 0)
    return Test(own, against, outcome)


def downtime_dice(level: int) -> int:
    return DOWNTIME_DICE_PER_LEVEL * level


def training_dice(rack: int) -> int:
    return TRAINING_RACKS * rack


def connection_dice(lifestyles: int, secondary_skills: int, network: bool) -> int:
    """Two dice per relevant lifestyle, one per matching secondary skill, two more for a Network."""
    return (
        lifestyles * CONNECTION_DICE_PER_LIFESTYLE
        + secondary_skills * rules.SECONDARY_DICE_PER_SKILL
        + (NETWORK_DICE if network else 0)
    )
