"""VENOM Assault as a Tableside game system: options, actions, seats, prompts, laws, corrections, buttons."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tableside.core.screen import PLAYER_INKS
from tableside.core.system import (
    UNDO_REDO,
    ActionSpec,
    Binding,
    Field,
    GameSystem,
    Seat,
)
from tableside.core.systems.venom import combat_actions as fight
from tableside.core.systems.venom import laws, recruitment, rules, scoring, setup, state, turn_actions
from tableside.core.systems.venom.choices import (
    COMBAT,
    DECK_CARD,
    DICE,
    DIE_NUMBERS,
    EVENT,
    LEADER_CARD,
    PLAYER,
    SCORE,
    SETUP,
    TACTICAL,
    TRACKS,
    TURN,
    WINNERS,
    board_open,
    dice_choices,
    dice_not_auto,
    event_kinds,
    leader_choices,
    leaders_on_board,
    no_card_to_tap,
    no_deck_card,
    only_abilities_reach,
    player_choices,
)
from tableside.core.systems.venom.state import State
from tableside.core.text import N_

_SPECS = (
    ActionSpec(
        "commander_roll_off",
        N_("Roll off for the Commander"),
        N_(
            "Commander Token: every player still in the roll-off rolls one die; ties for the highest "
            "re-roll among the tied."
        ),
        turn_actions.commander_roll_off,
        group=SETUP,
        available=state.in_setup,
        rolls=True,
        example={},
    ),
    ActionSpec(
        "set_commander",
        N_("Set the Commander"),
        N_("Commander Token chosen by hand instead of a roll-off."),
        turn_actions.set_commander,
        (
            Field(
                "player",
                "pick",
                label=N_("Commander"),
                choices=player_choices,
                help=N_("the player who takes the Commander Token and the first Turn"),
            ),
        ),
        group=SETUP,
        available=state.in_setup,
        example={"player": "Ann"},
    ),
    ActionSpec(
        "draw_event",
        N_("Draw an Event card"),
        N_("An Event card drawn: its kind (and name); VENOM Strikes! moves the Event Track up by 1."),
        turn_actions.draw_event,
        (
            Field(
                "kind",
                "pick",
                label=N_("Event card"),
                choices=event_kinds,
                help=N_(
                    "the colour of the card: grey All Is Quiet, blue Freedom Squadron, yellow VENOM, red VENOM Strikes!"
                ),
            ),
            Field(
                "name",
                "text",
                label=N_("Card name (optional)"),
                required=False,
                default="",
                max_length=setup.NAME_LENGTH,
                help=N_("as printed, e.g. Red Rockets of Doom!"),
            ),
            Field(
                "discard",
                "flag",
                label=N_("Discarded at once by a card effect"),
                required=False,
                default=False,
                help=N_("a card effect (Vipress) discards it instead of making it active"),
            ),
        ),
        group=EVENT,
        available=state.can_draw,
        example={"kind": "venom_strikes", "name": "Red Rockets of Doom!"},
    ),
    ActionSpec(
        "next_phase",
        N_("Next phase"),
        N_("Next phase of the Turn; after End of Turn, the next player's Turn."),
        turn_actions.next_phase,
        group=TURN,
        available=state.can_move_on,
        example={},
    ),
    *recruitment.SPECS,
    ActionSpec(
        "place_leader",
        N_("Enter a Leader on the board"),
        N_("A VENOM Leader card face up in a Zone (at setup, or replenishing): entered once, it is chosen with a tap."),
        fight.place_leader,
        (
            DECK_CARD,
            *(
                replace(
                    f,
                    required=f.name == "zone",
                    required_now=no_deck_card,
                    prefill=recruitment.zone_to_refill if f.name == "zone" else None,  # End of Turn: its empty Zone
                )
                for f in LEADER_CARD
            ),
        ),
        group=TACTICAL,
        available=board_open,
        taps=("card", "zone"),
        example={"name": "Vipress", "zone": "VENOM Mountain Defense", "health": 2, "defense": 4, "support": 2},
    ),
    ActionSpec(
        "choose_leader",
        N_("Choose the VENOM Leader"),
        N_("Tactical Phase: the VENOM Leader attacked; its card's Health and Defense set the tracks."),
        fight.choose_leader,
        (
            Field(
                "on_board",
                "pick",
                label=N_("Leader on the board"),
                required=False,
                default="",
                choices=leaders_on_board,
                applies=leaders_on_board,
                help=N_("a Leader card entered before: its values are taken"),
            ),
            DECK_CARD,
            *(replace(f, required=False, required_now=no_card_to_tap) for f in LEADER_CARD),
            Field(
                "zone_type",
                "pick",
                label=N_("Zone type (check)"),
                required=False,
                default="",
                choices=rules.ZONE_TYPES,
                help=N_("optional: the Zone already fixes it"),
            ),
        ),
        group=TACTICAL,
        available=state.in_phases(rules.TACTICAL),
        taps=("card", "zone"),
        example={
            "name": "Vipress",
            "zone": "VENOM Mountain Defense",
            "zone_type": "Arctic",
            "health": 2,
            "defense": 4,
            "support": 2,
        },
    ),
    ActionSpec(
        "adjust_track",
        N_("Move a VENOM Leader track"),
        N_("An Ability moves the Health or Defense marker by any amount; past 1 or 8 the rest is ignored."),
        fight.adjust_track,
        (
            Field("track", "pick", label=N_("Track"), choices=TRACKS, help=N_("the red Health or blue Defense marker")),
            Field("by", "count", label=N_("Move by"), help=N_("+ up, - down; past an end of the track is ignored")),
        ),
        group=TACTICAL,
        available=state.with_leader,
        example={"track": "health", "by": 1},
    ),
    ActionSpec(
        "allocate_dice",
        N_("Allocate the Combat Dice"),
        N_("Combat Dice: the Combat Leader's Combat Value plus Freedom Support dice."),
        fight.allocate_dice,
        (
            Field(
                "combat_value",
                "count",
                label=N_("Combat Value"),
                minimum=0,
                maximum=fight.MAX_DICE,
                help=N_("the Combat Leader's Combat Value"),
            ),
            Field(
                "support_dice",
                "count",
                label=N_("Support dice"),
                required=False,
                default=0,
                minimum=0,
                maximum=fight.MAX_DICE,
                help=N_("dice from Freedom Support cards"),
            ),
            Field(
                "combat_leader",
                "text",
                label=N_("Combat Leader (optional)"),
                required=False,
                default="",
                max_length=setup.NAME_LENGTH,
                help=N_("the Soldier leading the Combat, for the log"),
            ),
        ),
        group=TACTICAL,
        available=state.before_roll,
        example={"combat_value": 2, "support_dice": 3, "combat_leader": "Dropzone"},
    ),
    ActionSpec(
        "adjust_dice",
        N_("Add or remove Combat Dice"),
        N_("Add or remove Combat Dice before the roll."),
        fight.adjust_dice,
        (
            Field(
                "by",
                "count",
                label=N_("Dice"),
                minimum=-fight.MAX_DICE,
                maximum=fight.MAX_DICE,
                help=N_("+ adds, - removes"),
            ),
        ),
        group=TACTICAL,
        available=state.before_roll,
        example={"by": -1},
    ),
    ActionSpec(
        "combat_roll",
        N_("Combat roll"),
        N_("Roll the Combat Dice against the Defense Track, or abort if it cannot succeed."),
        fight.combat_roll,
        (
            Field(
                "dice",
                "count",
                label=N_("Dice"),
                required=False,
                minimum=1,
                maximum=fight.MAX_DICE,
                help=N_("optional: roll this many dice instead of the allocated number"),
                prefill=lambda s: (s.get("combat") or {}).get("dice_count") or None,  # the allocated dice
            ),
            Field(
                "abilities_can_reach",
                "flag",
                label=N_("An Ability can adjust Rolled Values or declare Automatic Successes"),
                required=False,
                default=False,
                applies=only_abilities_reach,
                help=N_("Rolled Values can go above six: roll against a Defense of 7 or 8, then apply the Abilities"),
            ),
        ),
        group=COMBAT,
        available=state.before_roll,
        rolls=True,
        example={},
    ),
    ActionSpec(
        "combat_fails",
        N_("The Combat fails"),
        N_("An Event or Ability makes the Combat fail at once (Event Ability Conflict): on to the Retirement Phase."),
        fight.combat_fails,
        (
            Field(
                "reason",
                "text",
                label=N_("Which Event or Ability"),
                max_length=2 * setup.NAME_LENGTH,
                help=N_("as printed, e.g. Sink the Colorado! and Red Rockets of Doom!"),
            ),
            Field(
                "zone_types",
                "picks",
                label=N_("Combat may only occur in (optional)"),
                required=False,
                choices=rules.ZONE_TYPES,
                help=N_("the Zone types the Events still allow; the Leader's Zone is checked against them"),
            ),
        ),
        group=COMBAT,
        available=state.before_roll,
        example={"reason": "Sink the Colorado! and Red Rockets of Doom!", "zone_types": ["Sea", "Air"]},
    ),
    ActionSpec(
        "automatic_success",
        N_("Automatic Success"),
        N_("Declare dice Automatic Successes, after the roll, before any Ability."),
        fight.automatic_success,
        (
            Field(
                "dice",
                "picks",
                label=N_("Dice"),
                choices=dice_not_auto,
                minimum=1,
                maximum=fight.MAX_DICE,
                help=N_("die numbers as shown, 1 = the first die rolled"),
            ),
        ),
        group=COMBAT,
        available=state.before_abilities,
        example={"dice": [5]},
    ),
    ActionSpec(
        "modify_die",
        N_("Change a die's Rolled Value"),
        N_("An Ability changes one die's Rolled Value (it may go above 6 or below 1)."),
        fight.modify_die,
        (
            Field("die", "pick", label=N_("Die"), choices=dice_choices, help=N_("1 = the first die rolled")),
            Field(
                "by",
                "count",
                label=N_("Change by"),
                minimum=-10,
                maximum=10,
                help=N_("+ or -; a Rolled Value may go above 6 or below 1"),
            ),
        ),
        group=COMBAT,
        available=state.after_roll,
        example={"die": 4, "by": 1},
    ),
    ActionSpec(
        "reroll_dice",
        N_("Re-roll dice"),
        N_("Re-roll chosen dice; they lose any Automatic Success."),
        fight.reroll_dice,
        (DIE_NUMBERS,),
        group=COMBAT,
        available=state.after_roll,
        rolls=True,
        example={"dice": [4, 5]},
    ),
    ActionSpec(
        "single_die",
        N_("Roll one die"),
        N_("One Combat Die for a Commander choice or a card effect."),
        turn_actions.single_die,
        (
            Field(
                "reason",
                "text",
                label=N_("What for (optional)"),
                required=False,
                default="",
                max_length=setup.NAME_LENGTH,
                help=N_("the card or choice the die is for, shown with the roll"),
            ),
        ),
        group=DICE,
        rolls=True,
        example={"reason": "Vipress ability"},
    ),
    ActionSpec(
        "add_reward",
        N_("Add a Reward Card"),
        N_("A Reward Card kept for Victory Points."),
        turn_actions.add_reward,
        (
            Field("name", "text", label=N_("Reward Card"), max_length=setup.NAME_LENGTH, help=N_("the card's name")),
            Field(
                "vp",
                "count",
                label=N_("Victory Points"),
                minimum=0,
                maximum=99,
                help=N_("printed at the bottom of the card"),
            ),
            PLAYER,
        ),
        group=SCORE,
        available=state.not_playing,
        example={"name": "The Phantom Brigade", "vp": 2, "player": "Ann"},
    ),
    ActionSpec(
        "record_capture",
        N_("Record a captured Leader"),
        N_("A VENOM Leader captured outside a combat roll (a card effect, a correction)."),
        turn_actions.record_capture,
        (
            Field(
                "leader",
                "pick",
                label=N_("Leader"),
                required=False,
                default="",
                choices=leader_choices,
                help=N_("a Leader chosen earlier this game (the Leader in play first)"),
            ),
            Field(
                "name",
                "text",
                label=N_("Or another Leader's name"),
                required=False,
                default="",
                max_length=setup.NAME_LENGTH,
                help=N_("a Leader not in the list above (then give its Support Value)"),
            ),
            Field(
                "support",
                "count",
                label=N_("Support Value"),
                required=False,
                minimum=0,
                maximum=rules.VENOM_SUPPORT_CARDS,
                help=N_("its Victory Points; empty: from its card as chosen"),
            ),
            PLAYER,
        ),
        group=SCORE,
        available=state.not_playing,
        example={"leader": "Vipress", "support": 2, "player": "Bob"},
    ),
    ActionSpec(
        "game_over",
        N_("End the game"),
        N_("The game ends: Mission victory (Medal of Honor) or VENOM victory."),
        turn_actions.game_over,
        (
            Field(
                "winner",
                "pick",
                label=N_("Who won"),
                choices=WINNERS,
                help=N_("Freedom Squadron awards the Medal of Honor; VENOM: all players lose"),
            ),
        ),
        group=SCORE,
        available=state.not_playing,
        example={"winner": "freedom_squadron"},
    ),
)

ACTIONS: dict[str, ActionSpec] = {spec.type: spec for spec in _SPECS}


def _button_b(s: State) -> dict[str, Any]:
    """B: the Commander roll-off during setup, otherwise a single die."""
    return {"type": "commander_roll_off"} if s["phase"] == rules.SETUP else {"type": "single_die"}


# A: Combat roll, B: roll-off in Setup / one die after, C: next phase, D: undo, hold D: redo.
# The meaning of each button never changes; ``buttons(state)`` only lists the one for the pending step first.
BINDINGS = (
    Binding("A", False, N_("Combat roll"), lambda s: {"type": "combat_roll"}),
    Binding("B", False, N_("1 die / roll-off"), _button_b),
    Binding("C", False, N_("Next phase"), lambda s: {"type": "next_phase"}),
    *UNDO_REDO,
)


class VenomAssault(GameSystem):
    id = "venom"
    name = "VENOM Assault"
    cooperative = True  # Freedom Squadron wins or loses together against VENOM; the Medal of Honor is one's
    description = "Event Track, Event deck odds, VENOM Leader Health/Defense tracks, Combat Dice, Medal of Honor"
    # 2: live captures in the Victory Point pile, adjustments of any size, odds as counts, turn-stamped rolls.
    rules_version = 2
    options = setup.OPTIONS
    actions = ACTIONS
    bindings = BINDINGS

    def validate_action(self, raw: Mapping[str, Any], state: State | None = None) -> dict[str, Any]:
        """The first documented ``record_capture`` named any Leader in ``leader``: one never chosen this game
        is read as ``name`` (another Leader), so that request stays valid."""
        if (
            isinstance(raw, Mapping)
            and raw.get("type") == "record_capture"
            and state is not None
            and isinstance(raw.get("leader"), str)
            and raw["leader"]
            and not raw.get("name")
            and raw["leader"] not in [c.value for c in leader_choices(state)]
        ):
            raw = {**raw, "name": raw["leader"], "leader": ""}
        return super().validate_action(raw, state)

    # -- setup ------------------------------------------------------------------------

    def chart_series(self, state: State) -> dict[str, float]:
        """The Event Track and each player's captured Leaders."""
        out = {"Event Track": float(state.get("event_track") or 0)}
        for p in state.get("players") or []:
            out[f"{p.get('name', '?')}: Leaders captured"] = float(len(p.get("leaders") or []))
        return out

    def chart_title(self) -> str:
        return N_("Event Track and captured Leaders")

    def chart_colours(self, state: State) -> dict[str, int]:
        """Each player's line in their colour on the Players rows (seating order); the Event Track in
        black, which no player has (2-5 players: red, blue, green, orange, yellow)."""
        return {**super().chart_colours(state), "Event Track": PLAYER_INKS.index("black")}

    def scores(self, state: State) -> dict[str, str]:
        return {p["name"]: str(scoring.victory_points(p)) for p in state["players"]}

    # -- who acts, what the table waits for ----------------------------------------------
    def seats(self, st: State) -> list[Seat]:
        return [Seat(n) for n in state.player_names(st)]

    def button_labels(self, st: State) -> dict[tuple[str, bool], str]:
        """B is labelled for the phase; the core lists the button for the pending step first."""
        return {("B", False): N_("Roll off for the Commander") if st["phase"] == rules.SETUP else N_("Roll one die")}

    # -- laws and corrections ----------------------------------------------------------------

    def correct(self, st: State, key: str, value: int) -> State:
        """A deck count moves cards between the deck and the discard pile, so the deck's law still holds."""
        if key.startswith("event_deck."):
            return laws.correct_deck(st, key.split(".", 1)[1], value)
        return super().correct(st, key, value)

    def roll_belongs_to(self, st: State) -> int:
        """A roll belongs to the Turn it was made in (the roll-off to Setup, Turn 0)."""
        return int(st.get("turn") or 0)


SYSTEM = VenomAssault()
