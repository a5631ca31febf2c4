"""Books and what they buy: goals, gifts, leftover dice, reputation; Player Points and the Murphy's Pool.

"You can only buy one goal or give one book per round": a round is one participant's turn
(C moves on), and the table may mark a purchase as the exception (the end of a conflict, when
"Unused or extra books can be spent").
"""

from __future__ import annotations

from typing import Any

from tableside.core.errors import RuleError
from tableside.core.systems.v2140 import campaign_actions, effects, goals, rules
from tableside.core.systems.v2140.state import is_gm, opponents_have_dice, participant, who
from tableside.core.text import N_
from tableside.core.words import plural

State = dict[str, Any]
DONE = {"bought a goal": N_("bought a goal"), "given a book": N_("given a book")}  # what a player did, as said
GOALS_KEEP = 30  # goals bought, kept in the state for the screen (the log keeps them all)


def _once_per_round(state: State, name: str, what: str, exception: bool) -> None:
    done = state["acted"].get(name)
    if done and not exception:
        raise RuleError(
            N_(
                "{name} has already {done} this round (one goal bought or one book given per round); the table may "
                "mark it as the exception",
                name=name,
                done=DONE.get(done, done),
            )
        )
    state["acted"][name] = what


def _check_chart_goal(state: State, name: str, chart: str) -> str:
    """A chart goal (the field offers only those whose root is a root of the conflict's skills or of a Fly-Dice
    skill) from a Fly-Dice skill's root alone goes "by the winning party only". Returns the goal's own name."""
    root, _, goal = chart.partition(":")
    skills = state["skills"]
    roots = {campaign_actions.root(skills["primary"]), campaign_actions.root(skills["secondary"])} - {""}
    if not any(goals.same(root, r) for r in roots):
        winners = [f["winner"] for f in state["fly_goals"] if goals.same(f["root"], root) and f["winner"]]
        if name not in winners:
            raise RuleError(
                N_(
                    '{chart} comes from the Fly-Dice skill: "Any goals from the skill used can be purchased in the '
                    'original conflict by the winning party only" ({winners})',
                    chart=chart,
                    winners=", ".join(winners) or N_("nobody won"),
                )
            )
    return goal.strip()


def _restricted(state: State, name: str, p: dict, count: int) -> str:
    """Spend ``count`` restricted Player Points trained for a skill the conflict uses; returns that skill."""
    if not count:
        return ""
    if not any(state["skills"].values()):
        raise RuleError(
            N_("restricted points are used with the skill they were trained for: set the conflict's skills")
        )
    usable = [
        r
        for r in p["restricted"]
        if r["usable_from"] <= state["campaign"]["session"] and goals.uses_skill(r["skill"], state["skills"])
    ]
    held = sum(r["points"] for r in usable)
    if count > held:
        trained = ", ".join(
            N_(
                "{points} for {skill} from session {session}",
                points=r["points"],
                skill=r["skill"],
                session=r["usable_from"],
            )
            for r in p["restricted"]
        )
        skills = state["skills"]["primary"] + (
            f" / {state['skills']['secondary']}" if state["skills"]["secondary"] else ""
        )
        raise RuleError(
            N_(
                "{name} has {held} usable with {skills}{trained}, cannot spend {count}",
                name=name,
                held=plural(held, "restricted point"),
                skills=skills,
                trained=N_(" (trained: {trained})", trained=trained) if trained else "",
                count=count,
            )
        )
    left = count
    for r in usable:
        take = min(left, r["points"])
        r["points"] -= take
        left -= take
    p["restricted"] = [r for r in p["restricted"] if r["points"]]
    return usable[0]["skill"]


def buy_goal(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """Spend books (and Player Points, or the GM's Murphy points) on a goal at an agreed price."""
    name = who(state, action)
    p = participant(state, name)
    guide = action["guide"]
    chart = action["chart_goal"]
    chart_goal = _check_chart_goal(state, name, chart) if chart else ""
    if action["price"]:
        price = action["price"]
    elif guide:
        price = goals.guide_price(guide, action["scale"], action["zones"])
    else:
        raise RuleError(N_("give the goal's price in books, or pick a guide price"))
    if action["restricted"] > price:
        raise RuleError(
            N_(
                "the goal costs {price}; {points} is more than it costs",
                price=price,
                points=plural(action["restricted"], "restricted point"),
            ),
            rule="trained",
        )
    gm = is_gm(state, name)
    if gm and action["restricted"]:
        raise RuleError(N_("restricted points are trained by player characters, not the GM"), rule="trained")
    trained = _restricted(state, name, p, action["restricted"])
    points_name = "Murphy point" if gm else "Player Point"  # one of them: words.plural says more
    held = state["murphy"] if gm else p["player_points"]
    rest = price - action["restricted"]
    paid = goals.pay(rest, p["books"], held, action["points"], name, points_name) if rest else goals.Payment(0, 0)
    _once_per_round(state, name, "bought a goal", action["exception"])
    p["books"] -= paid.books
    if gm:
        state["murphy"] -= paid.points
    else:
        p["player_points"] -= paid.points
    goal = action["goal"] or chart_goal or guide or "a goal"
    target = action["target"]
    if target:
        participant(state, target)
    effect = action["effect"] or (chart_goal if chart_goal in state["readings"] else "")
    placed = ""
    if not effect:  # the goal's own result may be an effect ("knock out one person"): it applies, or waits
        effect, placed = _effect_of_goal(state, action, name, goal)
    if effect:
        character = action["character"] or target
        if not character:
            raise RuleError(
                N_("{effect}: name the character who bears it (on whom, or the NPC's name)", effect=effect),
                rule="effects",
            )
        placed = campaign_actions.place_effect(
            state, character, effect, name, applies_to=action["applies_to"], until=action["until"]
        )
    state["goals"] = [
        *state["goals"],
        {
            "who": name,
            "goal": goal,
            "target": target,
            "price": price,
            "books": paid.books,
            "points": paid.points,
            "conflict": state["conflict"],
        },
    ][-GOALS_KEEP:]
    on = f" on {target}" if target else ""
    with_points = f" and {plural(paid.points, points_name)}" if paid.points else ""
    if action["restricted"]:
        with_points += f" and {plural(action['restricted'], 'restricted point')} trained for {trained}"
    summary = f"{name} buys {goal}{on} for {price}: {plural(paid.books, 'book')}{with_points}"
    return state, {"summary": summary + (f"; effect: {placed}" if placed else ""), "price": price}


def _effect_of_goal(state: State, action: dict, name: str, goal: str) -> tuple[str, str]:
    """(effect to place, words) for a goal whose result is an effect. On a player character (or a character
    named) it is placed; on the GM's side, which plays every NPC, it waits as the table's next moment."""
    found = goals.effect_of(state["readings"], action["goal"], action["guide"], action["scale"], action["zones"])
    target = action["target"]
    if not found or action["character"] or (target and not is_gm(state, target)):
        return found, ""
    effects.make_due(state, found, name, goal)
    return "", f"{found}, for {state['gm']} to note on the character who bears it"


def give_book(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """Give one book to another participant ("unless they give them to another player")."""
    name = who(state, action)
    to = action["to"]
    participant(state, to)
    if to == name:
        raise RuleError(N_("{name} cannot give a book to themselves", name=name))
    p = participant(state, name)
    goals.check_gift(p["books"], 1, name)
    _once_per_round(state, name, "given a book", action["exception"])
    p["books"] -= 1
    participant(state, to)["books"] += 1
    return state, {"summary": N_("{name} gives a book to {to}", name=name, to=to)}


def pair_leftovers(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """ "Any leftover dice can be used two at a time as books", once the other side is out of dice."""
    name = who(state, action)
    if opponents_have_dice(state, name):
        raise RuleError(
            N_(
                "{name}'s opponents still have dice: leftover dice pair up into books only once they are out (Jack "
                "'cannot pair them up' while the conflict goes on)",
                name=name,
            )
        )
    p = participant(state, name)
    count = action["count"] or (len(p["pool"]) - len(p["pool"]) % rules.DICE_PER_LEFTOVER_BOOK)
    books = goals.leftover_books(len(p["pool"]), count, name)
    p["pool"] = p["pool"][count:]  # any dice: they are counted, not compared
    p["books"] += books
    return state, {
        "summary": N_(
            "{name} pairs {dice} into {books}",
            name=name,
            dice=plural(count, "leftover die"),
            books=plural(books, "book"),
        )
    }


def reputation(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """ "Unused or extra books can be spent at the end of a conflict to increase reputations"."""
    name = who(state, action)
    p = participant(state, name)
    count = action["books"] or p["books"]
    if count < 1:
        raise RuleError(N_("{name} has no books to put into reputation", name=name))
    if count > p["books"]:
        raise RuleError(
            N_(
                "{name} has {books}, cannot spend {count} on reputation",
                name=name,
                books=plural(p["books"], "book"),
                count=count,
            )
        )
    p["books"] -= count
    p["reputation"] += count
    what = f": {action['note']}" if action["note"] else ""
    return state, {
        "summary": N_("{name} puts {books} into reputation{note}", name=name, books=plural(count, "book"), note=what)
    }


def _player(state: State, name: str) -> dict:
    """A player's record: Player Points are the players', never the GM's."""
    p = participant(state, name)
    if p["role"] != "player":
        raise RuleError(N_("{name} is the GM: Player Points are the players'", name=name))
    return p


def award_player_points(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """Player Points the GM awards: a compel, being outnumbered by a full rack, training, enemies."""
    name = action["player"]
    p = _player(state, name)
    p["player_points"] += action["count"]
    why = f" ({action['reason']})" if action["reason"] else ""
    return state, {
        "summary": N_("{name} gains {points}{why}", name=name, points=plural(action["count"], "Player Point"), why=why)
    }


def grant_player_points(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """A player begs: Player Points "at the 1- for- 1 cost of Murphy's Dice to their character"."""
    name = action["player"]
    p = _player(state, name)
    count = action["count"]
    murphy = count * rules.MURPHY_PER_PLAYER_POINT
    p["player_points"] += count
    state["murphy"] += murphy
    state["murphy_against"][name] = state["murphy_against"].get(name, 0) + murphy
    return state, {
        "summary": N_(
            "The GM grants {name} {points} for {dice} against {name}; Murphy's Pool {murphy}",
            name=name,
            points=plural(count, "Player Point"),
            dice=plural(murphy, "Murphy die"),
            murphy=state["murphy"],
        )
    }


def murphy(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """Add to the Murphy's Pool (a refused compel, an enemy, gear with PMP) or spend from it."""
    change = action["add"] - action["spend"]
    if action["add"] and action["spend"]:
        raise RuleError(N_("add to or spend from the Murphy's Pool, not both at once"))
    if change == 0:
        raise RuleError(N_("name how many Murphy points to add or spend"))
    if state["murphy"] + change < 0:
        raise RuleError(
            N_("the Murphy's Pool holds {murphy}, cannot spend {spend}", murphy=state["murphy"], spend=action["spend"])
        )
    state["murphy"] += change
    against = action["against"]
    if against:
        participant(state, against)
        if action["spend"]:
            owed = state["murphy_against"].get(against, 0)
            state["murphy_against"][against] = max(owed - action["spend"], 0)
    why = f" ({action['reason']})" if action["reason"] else ""
    verb = f"+{action['add']}" if action["add"] else f"-{action['spend']}"
    return state, {"summary": N_("Murphy's Pool {change}{why}: {murphy}", change=verb, why=why, murphy=state["murphy"])}


def set_rack(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """A character's Lifestyles: the size of a rack ("Usually this is six per person")."""
    name = who(state, action)
    p = participant(state, name)
    p["rack"] = action["rack"]
    return state, {"summary": N_("{name}'s rack is {dice}", name=name, dice=plural(action["rack"], "die"))}
