"""d10 arithmetic: reading faces, the Q-Ray table and exact odds.

"There are three dice, with sides numbered 0 through 9. The 0 is always
considered to be a 10." The core already turns a 0 into 10; a face typed in as
0 is read the same way here, because that is the rule, not a correction.
"""

from __future__ import annotations

from fractions import Fraction

from tableside.core.odds import at_least_k, face_chance, percent
from tableside.core.systems.vnm import rules
from tableside.core.text import N_

# Q-Ray (Venus Weapon, revised card): die face -> outcome.
QRAY_OUTCOMES: dict[str, str] = {
    "both_destroyed": N_("target and attacking spaceship both destroyed"),
    "both_teleport": N_("target and attacking spaceship each teleport"),
    "no_effect": N_("no effect"),
    "roll_again": N_("roll again (Q-Ray 4-5 with Auto Fire Control or Energy Amplifier)"),
    "target_teleports": N_("target spaceship teleports"),
    "target_destroyed": N_("target spaceship destroyed"),
}


def destroy_chance(dice: int, defense: int) -> Fraction:
    """Chance that at least one of ``dice`` d10 reaches ``defense``: Basic is 2 dice vs 8 = 51/100."""
    return at_least_k(dice, face_chance(rules.D10, defense), 1)


def basic_destroy_chance() -> Fraction:
    """Basic attack: "roll two dice ... If either die is an 8 or higher": 1 - (7/10)^2."""
    return destroy_chance(rules.BASIC_DICE, rules.BASIC_HIT)


def qray_outcome(face: int, reroll: bool) -> str:
    """The Q-Ray table: 1 both destroyed, 2 both teleport, 3-5 nothing, 6-7 teleport, 8+ destroyed."""
    if face == 1:
        return "both_destroyed"
    if face == 2:
        return "both_teleport"
    if face in (4, 5) and reroll:
        return "roll_again"
    if face <= 5:
        return "no_effect"
    if face <= 7:
        return "target_teleports"
    return "target_destroyed"


def qray_chances(reroll: bool) -> dict[str, Fraction]:
    """Exact chance of each final Q-Ray outcome.

    With the re-roll every 4 or 5 is rolled again ("when you roll a 4 or 5, roll
    again"), so the final face is uniform over the other eight faces.
    """
    counts: dict[str, int] = {}
    for face in range(1, rules.D10 + 1):
        outcome = qray_outcome(face, reroll)
        counts[outcome] = counts.get(outcome, 0) + 1
    counts.pop("roll_again", None)
    faces = sum(counts.values())
    return {outcome: Fraction(n, faces) for outcome, n in counts.items()}


def qray_destroy_chance(reroll: bool) -> Fraction:
    """The target is destroyed on an 8+ and also on a 1 (both destroyed)."""
    chances = qray_chances(reroll)
    return chances["target_destroyed"] + chances["both_destroyed"]


def qray_hit_chance(reroll: bool) -> Fraction:
    """The chance that one Q-Ray die, as rolled, destroys the target (a 1 or an 8+; a 4-5 rolled again is no hit
    yet): the faces the table counts, out of ten."""
    hits = sum(qray_outcome(face, reroll) in ("both_destroyed", "target_destroyed") for face in range(1, rules.D10 + 1))
    return Fraction(hits, rules.D10)


def die_hit_chance(plan: dict) -> Fraction:
    """One attack die's exact chance to hit as ``plan`` (``fleet.attack_plan``) rolls it: a face reaching the
    plan's number (Basic's 8, the defense value of the area attacked), or the Q-Ray table's destroying faces."""
    if plan.get("weapon") == "q_ray":
        return qray_hit_chance(bool(plan.get("reroll")))
    return face_chance(rules.D10, plan["hit"])


def research_chance(roll_needed: int) -> Fraction:
    """Research: "If your roll is greater than or equal to the number indicated on the Upgrade card"."""
    return face_chance(rules.D10, roll_needed)


def show(p: Fraction) -> dict[str, str]:
    """A chance as the state keeps it: percent for the panel, the exact fraction for the log."""
    return {"chance": percent(p), "chance_exact": f"{p.numerator}/{p.denominator}"}
