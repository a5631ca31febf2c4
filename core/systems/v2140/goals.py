"""Books, goals, Player Points and the Murphy's Pool: what captures buy.

Books are counts. A goal's price is agreed at the table; the rulebook's examples are offered
as a guide (rules.GOAL_GUIDE) with one book more per power of ten people and per extra zone.
"""

from __future__ import annotations

from dataclasses import dataclass

from tableside.core.errors import RuleError
from tableside.core.systems.v2140 import effects, rules
from tableside.core.text import N_
from tableside.core.words import plural, plural_of


def guide_price(goal: str, powers_of_ten: int = 0, extra_zones: int = 0) -> int:
    """A guide price: persuade one person 4, ten people 5, a million people 10."""
    if goal not in rules.GOAL_GUIDE:
        raise RuleError(
            N_(
                "{goal} is not in the goal guide; known: {goal_guide}",
                goal=repr(goal),
                goal_guide=", ".join(rules.GOAL_GUIDE),
            )
        )
    if powers_of_ten < 0 or extra_zones < 0:
        raise RuleError(N_("scale and extra zones are 0 or more"))
    return (
        rules.GOAL_GUIDE[goal] + powers_of_ten * rules.BOOKS_PER_POWER_OF_TEN + extra_zones * rules.BOOKS_PER_EXTRA_ZONE
    )


@dataclass(frozen=True)
class Payment:
    """How a goal's price is paid: books first, then Player Points (players) or Murphy (GM)."""

    books: int
    points: int  # Player Points for a player, Murphy's Pool points for the GM

    @property
    def total(self) -> int:
        return self.books + self.points


def pay(price: int, books_held: int, points_held: int, points_used: int, who: str, points_name: str) -> Payment:
    """Pay ``price`` with ``points_used`` points and books for the rest; refuse what is not held.
    ``points_name`` names one point ("Player Point", "Murphy point"): the words count them."""
    if price < 1:
        raise RuleError(N_("a goal costs at least 1 book, got {price}", price=price), rule="goal_price")
    if points_used < 0:
        raise RuleError(
            N_(
                "{points} spent must be 0 or more, got {points_used}",
                points=plural_of(points_name),
                points_used=points_used,
            ),
            rule="points_buy",
        )
    if points_used > points_held:
        raise RuleError(
            N_(
                "{who} has {points}, cannot spend {points_used}",
                who=who,
                points=plural(points_held, points_name),
                points_used=points_used,
            ),
            rule="points_buy",
        )
    if points_used > price:
        raise RuleError(
            N_(
                "the goal costs {price}; spending {points} is more than it costs",
                price=price,
                points=plural(points_used, points_name),
            ),
            rule="points_buy",
        )
    books = price - points_used
    if books > books_held:
        paid = N_(" ({points_used} paid with {points})", points_used=points_used, points=plural_of(points_name))
        words = {"who": who, "held": plural(books_held, "book"), "price": price, "books": plural(books, "book")}
        words["paid"] = paid if points_used else ""
        if books == 1:
            raise RuleError(N_("{who} has {held}; the goal costs {price}{paid}, so {books} is needed", **words))
        raise RuleError(N_("{who} has {held}; the goal costs {price}{paid}, so {books} are needed", **words))
    return Payment(books, points_used)


def check_gift(books_held: int, count: int, who: str) -> None:
    """ "Each player keeps their books separate unless they give them to another player"."""
    if count != rules.GOALS_OR_GIFTS_PER_ROUND:
        raise RuleError(N_("one book may be given per round, not {count}", count=count))
    if books_held < count:
        raise RuleError(
            N_("{who} has {books} to give", who=who, books=plural(books_held, "book")), rule="books_separate"
        )


def leftover_books(pool_size: int, dice: int, who: str) -> int:
    """Leftover dice "two at a time as books": ``dice`` (an even count) make dice / 2 books."""
    if dice < 1 or dice % rules.DICE_PER_LEFTOVER_BOOK:
        raise RuleError(N_("leftover dice make books two at a time: {dice} is not a positive even count", dice=dice))
    if dice > pool_size:
        raise RuleError(
            N_(
                "{who} holds {held} in the scene pool, cannot pair up {dice}",
                who=who,
                held=plural(pool_size, "die"),
                dice=dice,
            )
        )
    return dice // rules.DICE_PER_LEFTOVER_BOOK


def chin_dice(leftover: int) -> int:
    """Take it on the chin: "Two leftover dice makes one extra die in the next follow up"."""
    return leftover // rules.DICE_PER_CHIN_DIE


# Goal charts: "Skill groups and various types of technologies have implicit goals built into them";
# "they add the goals associated with their root skills to the potential goals". The charts themselves
# are not in the transcription: the goals it names are the defaults, setup data the table confirms.
DEFAULT_CHARTS: tuple[dict[str, str], ...] = (
    # "Looking at the Coordination goal chart, he could Wound, Scar, Knock Out, or Cripple Jack."
    {"root": "Coordination", "goal": "Wound"},
    {"root": "Coordination", "goal": "Scar"},
    {"root": "Coordination", "goal": "Knock Out"},
    {"root": "Coordination", "goal": "Cripple"},
    # "Physique has a number of goals attached including the crucial one: Escape."
    {"root": "Physique", "goal": "Escape"},
    # "the Cognition goal 'Create Major Detail'"
    {"root": "Cognition", "goal": "Create Major Detail"},
)


def chart_name(row: dict[str, str]) -> str:
    return f"{row['root']}: {row['goal']}"


def same(a: str, b: str) -> bool:
    return a.strip().casefold() == b.strip().casefold()


def chart_goals(state: dict, roots: set[str]) -> list[str]:
    """The chart goals of these roots ("Coordination: Scar"), in the order the table entered them."""
    return [chart_name(r) for r in state.get("charts", []) if any(same(r["root"], root) for root in roots)]


def all_chart_goals(state: dict) -> list[str]:
    return [chart_name(r) for r in state.get("charts", [])] if state else []


def offered_chart_goals(state: dict) -> list[str]:
    """The chart goals on offer now: the roots of the conflict's primary and secondary skills ("they add
    the goals associated with their root skills to the potential goals"), and a Fly-Dice skill's root (for
    its winner only, which ``buy_goal`` checks)."""
    if not state or "skills" not in state:
        return []
    roots = {s.split(":")[0].strip() for s in state["skills"].values() if s.strip()}
    roots |= {f["root"] for f in state.get("fly_goals", [])}
    return chart_goals(state, roots)


def uses_skill(trained: str, skills: dict[str, str]) -> bool:
    """A skill trained for is used when it is the conflict's primary or secondary skill, or one of its
    parents ("You get two dice for each skill your character has that matches either the Primary Skill or
    its parents")."""
    want = [x.strip().casefold() for x in trained.split(":")]
    for skill in (skills.get("primary", ""), skills.get("secondary", "")):
        have = [x.strip().casefold() for x in skill.split(":")] if skill else []
        if have and want == have[: len(want)]:
            return True
    return False


# "You knock out one person. 3 books.": the guide goal whose result is an effect, knocked out ("You aren't
# wounded, but you stop doing anything"). A room of people or a zone is nameless people ("Named NPCs won't
# usually be affected by this type of thing"): no one character bears it.
GUIDE_EFFECTS = {"knock out one person": effects.STOPPED}


def effect_of(readings: dict[str, str], goal: str, guide: str | None, scale: int, zones: int) -> str:
    """The campaign's effect a goal's result is, or "": a goal named as an effect ("Wound", "Knock Out"), or the
    guide's "knock out one person" (the effect that reads "you stop doing anything")."""
    for name in readings:
        if goal and same(name, goal):
            return name
    reads = GUIDE_EFFECTS.get(guide or "") if not scale and not zones else None
    return next((name for name, paragraph in readings.items() if reads and paragraph == reads), "")
