"""The Recruitment Phase and the End of Turn refills: the card economy a table adds up by hand.

"Add up the total Recruitment Points from all of your cards in play ... You may recruit any number of cards
from the Training Ground that have a total Cost equal to or less than your total Recruitment Points." The
rulebook prints no Freedom Squadron card, so the table types each card's Recruitment Points and each recruited
card's Cost as printed; Tableside adds them up and checks the Cost. The Training Ground and the Recruitment
Deck are counts (like the Event deck), so the End of Turn says how many cards to draw, and which Zones to refill.
Sessions saved before this module have neither count: they start from the setup's (``.get`` below).
"""

from __future__ import annotations

from typing import Any

from tableside.core.errors import RuleError
from tableside.core.recorder import Context
from tableside.core.system import ActionSpec, Field
from tableside.core.systems.venom import combat, rules, setup
from tableside.core.systems.venom import combat_actions as fight
from tableside.core.systems.venom.state import State, active_name, captured_by, in_phases
from tableside.core.text import N_

Result = dict[str, Any]

# Not rules: caps on typing mistakes (one card's printed Recruitment Points or Cost; cards in one Turn, where a
# Hand is five and Abilities add some).
MAX_POINTS = 20
MAX_CARDS = 30


def training_ground(st: State) -> int:
    """Cards face up in the Training Ground: five at setup."""
    return st.get("training_ground", rules.TRAINING_GROUND_CARDS)


def recruitment_deck(st: State) -> int:
    """Cards left in the Recruitment Deck: the 84 Freedom Squadron Cards less the five dealt at setup."""
    return st.get("recruitment_deck", rules.FREEDOM_SQUADRON_CARDS - rules.TRAINING_GROUND_CARDS)


def this_turn(st: State) -> dict[str, Any] | None:
    """This Turn's Recruitment, once added up; None before (or from an earlier Turn)."""
    done = st.get("recruitment")
    return done if done and done["turn"] == st["turn"] else None


def to_refill(st: State) -> int:
    """Cards the End of Turn draws into the Training Ground: up to five, as many as the Recruitment Deck
    holds ("do not replenish this deck"), none above five ("do not discard down to five")."""
    return max(0, min(rules.TRAINING_GROUND_CARDS - training_ground(st), recruitment_deck(st)))


def empty_zones(st: State) -> list[str]:
    """Zones whose VENOM Leader was captured, with no Leader entered since ("Refill any empty Zones"). None
    once the VENOM Leader Deck given at setup is used up: "leave the Zone empty"."""
    if st.get("leader_deck") and not fight.in_deck(st):
        return []
    return [zone for zone, card in (st.get("zones") or {}).items() if captured_by(st, card["name"])]


def zone_to_refill(st: State) -> str | None:
    """The Zone an End of Turn refills next: the Enter a Leader form starts at it, so the card is one tap."""
    zones = empty_zones(st) if st.get("phase") == rules.END_OF_TURN else []
    return zones[0] if zones else None


# --- availability -------------------------------------------------------------------------------------------


in_recruitment = in_phases(rules.RECRUITMENT)
_in_end_of_turn = in_phases(rules.END_OF_TURN)


def can_refill(st: State, seat: str | None = None) -> str | None:
    """``refill_training_ground``: in the End of Turn Phase, with a card missing and one left to draw."""
    why = _in_end_of_turn(st, seat)
    if why:
        return why
    if not recruitment_deck(st):
        return N_("the Recruitment Deck is empty: there are no more assets to be found")
    if not to_refill(st):
        return N_(
            "the Training Ground has {cards}: no need to refill", cards=combat.counted(training_ground(st), "card")
        )
    return None


# --- handlers -------------------------------------------------------------------------------------------------


def _cards(rows: list[dict[str, Any]], key: str, word: str) -> str:
    """ "Hornet (Cost 4) and a card (Cost 5)": the cards recruited, named where the table named them."""
    named = [f"{row['name'] or 'a card'} ({word} {row[key]})" for row in rows]
    return " and ".join(named) if named else "nothing"


def _undo_earlier(st: State) -> None:
    """A second Recruitment in the same Turn replaces the first: its cards go back where they came from."""
    earlier = this_turn(st)
    if earlier:
        st["training_ground"] = training_ground(st) + len(earlier["recruited"])
        st["recruitment_deck"] = recruitment_deck(st) + earlier["from_deck"]


def recruit(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """Add up the Recruitment Points of the cards in play; what Abilities spend and the Cost of the cards
    recruited from the Training Ground must come to no more. Excess points are not carried over."""
    points = [card["points"] for card in action["in_play"]]
    if not points:
        raise RuleError(N_("Recruit: give the Recruitment Points of each card in play (0 for a card without any)"))
    total, abilities, from_deck = sum(points), action["abilities"], action["from_deck"]
    recruited = [{"name": row["name"], "cost": row["cost"]} for row in action["recruited"]]
    cost = sum(row["cost"] for row in recruited)
    added = f"{'+'.join(map(str, points))} = {total}" if len(points) > 1 else str(total)
    if abilities > total:
        raise RuleError(
            N_(
                "Recruit: {abilities} spent on Abilities is more than the Recruitment Points ({added})",
                abilities=abilities,
                added=added,
            )
        )
    if cost > total - abilities:
        spent = N_(", {abilities} spent on Abilities", abilities=abilities) if abilities else ""
        raise RuleError(
            N_(
                "Recruit: a total Cost of {cost} is more than the {left} Recruitment Points left "
                "({added}{spent}); the total Cost must be equal to or less",
                cost=cost,
                left=total - abilities,
                added=added,
                spent=spent,
            )
        )
    _undo_earlier(state)
    if len(recruited) > training_ground(state):
        raise RuleError(
            N_("Recruit: the Training Ground holds {cards}", cards=combat.counted(training_ground(state), "card"))
        )
    if from_deck > recruitment_deck(state):
        raise RuleError(
            N_("Recruit: the Recruitment Deck holds {cards}", cards=combat.counted(recruitment_deck(state), "card"))
        )
    state["training_ground"] = training_ground(state) - len(recruited)
    state["recruitment_deck"] = recruitment_deck(state) - from_deck
    left = total - abilities - cost
    state["recruitment"] = {
        "turn": state["turn"],
        "player": active_name(state),
        "points": points,
        "total": total,
        "abilities": abilities,
        "from_deck": from_deck,
        "recruited": recruited,
        "left": left,
    }
    notes = [f"Recruitment Points {added}"]
    if abilities:
        took = N_(" ({cards} from the Recruitment Deck)", cards=combat.counted(from_deck, "card")) if from_deck else ""
        notes.append(f"{abilities} on Abilities{took}")
    notes.append(f"recruits {_cards(recruited, 'cost', 'Cost')}")
    notes.append(f"{left} left, not carried over" if left else "none left")
    return state, {
        "summary": f"{active_name(state)}: {'; '.join(notes)}",
        "total": total,
        "left": left,
        "training_ground": state["training_ground"],
    }


def refill(state: State) -> str:
    """Draw the Training Ground back up to five; the words of what was drawn ("" when nothing was)."""
    drawn = to_refill(state)
    if not drawn:
        return ""
    state["training_ground"] = training_ground(state) + drawn
    state["recruitment_deck"] = recruitment_deck(state) - drawn
    empty = N_("; the Recruitment Deck is empty, no more assets to be found") if not state["recruitment_deck"] else ""
    return N_(
        "Training Ground refilled to {count} ({cards} from the Recruitment Deck, {left} left{empty})",
        count=state["training_ground"],
        cards=combat.counted(drawn, "card"),
        left=state["recruitment_deck"],
        empty=empty,
    )


def leave_empty(state: State) -> str:
    """Leaving the End of Turn with a Zone still empty: "If there are no more VENOM Leaders or Reward Cards, then
    leave the Zone empty". Tableside forgets its captured Leader there, so no later End of Turn asks again."""
    empty = empty_zones(state)
    if not empty:
        return ""
    state["zones"] = {zone: card for zone, card in state["zones"].items() if zone not in empty}
    return N_("{empty} left empty", empty=" and ".join(empty))


def refill_training_ground(state: State, action: dict[str, Any], ctx: Context) -> tuple[State, Result]:
    """End of Turn: "Refill the Training Ground to five cards by drawing from the Recruitment Deck"."""
    words = refill(state)
    return state, {"summary": f"{active_name(state)}: {words}", "training_ground": state["training_ground"]}


# --- the actions --------------------------------------------------------------------------------------------

RECRUITMENT = N_("Recruitment Phase")  # where the phone lists them
_NAME = Field("name", "text", label=N_("Card (optional)"), required=False, default="", max_length=setup.NAME_LENGTH)

SPECS = (
    ActionSpec(
        "recruit",
        N_("Recruit from the Training Ground"),
        N_(
            "Recruitment Phase: the Recruitment Points of the cards in play added up; Abilities and "
            "the Cost of the cards recruited may spend no more. Excess points are not carried over."
        ),
        recruit,
        (
            Field(
                "in_play",
                "rows",
                label=N_("Cards in play: Recruitment Points"),
                fields=(_NAME, Field("points", "count", label=N_("Recruitment Points"), minimum=0, maximum=MAX_POINTS)),
                minimum=1,
                maximum=MAX_CARDS,
                help=N_("one row per card you played, its Recruitment Points as printed (0 for a card without any)"),
            ),
            Field(
                "abilities",
                "count",
                label=N_("Points spent on Abilities"),
                required=False,
                default=0,
                minimum=0,
                maximum=MAX_POINTS * MAX_CARDS,
                help=N_("Recruitment Points a supporting Ability uses"),
            ),
            Field(
                "from_deck",
                "count",
                label=N_("Cards an Ability takes from the Recruitment Deck"),
                required=False,
                default=0,
                minimum=0,
                maximum=MAX_CARDS,
                help=N_("a card taken from the top of the Recruitment Deck, not the Training Ground"),
            ),
            Field(
                "recruited",
                "rows",
                label=N_("Cards recruited: Cost"),
                required=False,
                default=[],
                fields=(_NAME, Field("cost", "count", label=N_("Cost"), minimum=0, maximum=MAX_POINTS)),
                minimum=0,
                maximum=MAX_CARDS,
                help=N_("one row per card taken from the Training Ground, its Cost as printed"),
            ),
        ),
        group=RECRUITMENT,
        available=in_recruitment,
        # The rulebook's Example Recruitment Phase: "1+1+2+2+2 = 8. He spends 5 on "Hornet's" Ability".
        example={
            "in_play": [{"points": 1}, {"points": 1}, {"points": 2}, {"points": 2}, {"points": 2}],
            "abilities": 5,
            "from_deck": 1,
        },
    ),
    ActionSpec(
        "refill_training_ground",
        N_("Refill the Training Ground"),
        N_("End of Turn: the Training Ground is drawn back up to five cards from the Recruitment Deck."),
        refill_training_ground,
        group=RECRUITMENT,
        available=can_refill,
        example={},
    ),
)
