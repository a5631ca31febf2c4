"""VENOM Assault as a Tableside game system: options, action types and the button map."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tableside.core.errors import RuleError
from tableside.core.system import ActionSpec, Binding, Field, GameSystem, Screen
from tableside.core.systems.venom import combat_actions as fight
from tableside.core.systems.venom import deck, rules, state, turn_actions
from tableside.core.systems.venom import screen as view

OPTIONS = (
    Field("players", "list[str]", required=False, default=["Player 1", "Player 2"],
          minimum=rules.MIN_PLAYERS, maximum=rules.MAX_PLAYERS,
          help="2-5 player names, in clockwise seating order"),
    Field("mission", "str", required=False, default=rules.SUGGESTED_MISSION,
          help="the Mission Card in play (free text)"),
    Field("venom_strikes_removed", "int", required=False, default=0,
          minimum=0, maximum=rules.MAX_VENOM_STRIKES_REMOVED,
          help="Difficulty: VENOM Strikes! cards removed from the Event deck (0-4)"),
    Field("freedom_squadron_events", "int", required=False, minimum=0, maximum=rules.OTHER_EVENT_CARDS,
          help="optional: Freedom Squadron events in the deck (with venom_events, adds up to 18)"),
    Field("venom_events", "int", required=False, minimum=0, maximum=rules.OTHER_EVENT_CARDS,
          help="optional: VENOM events in the deck (with freedom_squadron_events, adds up to 18)"),
    Field("commander", "str", required=False, default="",
          help="the Commander set by hand; empty means a roll-off (button B)"),
)

_PLAYER = Field("player", "str", required=False, default="",
                help="player name; empty means the active player")
_DIE_LIST = Field("dice", "list[int]", minimum=1, maximum=fight.MAX_DICE,
                  help="die numbers as shown, 1 = first die rolled")

_SPECS = (
    ActionSpec("commander_roll_off", "Commander Token: every player still in the roll-off rolls one die; "
               "ties for the highest re-roll among the tied.", turn_actions.commander_roll_off,
               dice=turn_actions.roll_off_dice, example={}),
    ActionSpec("set_commander", "Commander Token chosen by hand instead of a roll-off.",
               turn_actions.set_commander, (Field("player", "str"),), example={"player": "Ann"}),
    ActionSpec("next_phase", "Next phase of the Turn; after End of Turn, the next player's Turn.",
               turn_actions.next_phase, example={}),
    ActionSpec("draw_event", "An Event card drawn: its kind (and name); VENOM Strikes! moves the "
               "Event Track.",
               turn_actions.draw_event,
               (Field("kind", "str", choices=rules.EVENT_KINDS),
                Field("name", "str", required=False, default="", help="the card's name, optional"),
                Field("discard", "bool", required=False, default=False,
                      help="a card effect discards it at once instead of making it active")),
               example={"kind": "venom_strikes", "name": "Red Rockets of Doom!"}),
    ActionSpec("single_die", "One Combat Die for a Commander choice or a card effect.",
               turn_actions.single_die, (Field("reason", "str", required=False, default=""),),
               dice=lambda s, a: "1d6", example={"reason": "Vipress ability"}),
    ActionSpec("choose_leader", "Tactical Phase: the VENOM Leader attacked; sets the Health and "
               "Defense tracks.",
               fight.choose_leader,
               (Field("name", "str"),
                Field("zone", "str", choices=tuple(rules.ZONES)),
                Field("zone_type", "str", required=False, default="", choices=(*rules.ZONE_TYPES, ""),
                      help="optional check; the Zone already fixes it"),
                Field("health", "int", minimum=rules.TRACK_MIN, maximum=rules.TRACK_MAX),
                Field("defense", "int", minimum=rules.TRACK_MIN, maximum=rules.TRACK_MAX),
                Field("support", "int", minimum=0, maximum=rules.VENOM_SUPPORT_CARDS)),
               example={"name": "Vipress", "zone": "VENOM Mountain Defense", "zone_type": "Arctic",
                        "health": 2, "defense": 4, "support": 2}),
    ActionSpec("adjust_track", "An Ability moves the Health or Defense marker (1-8; past an end is ignored).",
               fight.adjust_track,
               (Field("track", "str", choices=("health", "defense")),
                Field("by", "int", minimum=-(rules.TRACK_MAX - 1), maximum=rules.TRACK_MAX - 1)),
               example={"track": "health", "by": 1}),
    ActionSpec("allocate_dice", "Combat Dice: the Combat Leader's Combat Value plus Freedom Support dice.",
               fight.allocate_dice,
               (Field("combat_value", "int", minimum=0, maximum=fight.MAX_DICE),
                Field("support_dice", "int", required=False, default=0, minimum=0, maximum=fight.MAX_DICE),
                Field("combat_leader", "str", required=False, default="")),
               example={"combat_value": 2, "support_dice": 3, "combat_leader": "Dropzone"}),
    ActionSpec("adjust_dice", "Add or remove Combat Dice before the roll.", fight.adjust_dice,
               (Field("by", "int", minimum=-fight.MAX_DICE, maximum=fight.MAX_DICE),), example={"by": -1}),
    ActionSpec("combat_roll", "Roll the Combat Dice against the Defense track, or abort if it "
               "cannot succeed.",
               fight.combat_roll,
               (Field("dice", "int", required=False, minimum=1, maximum=fight.MAX_DICE,
                      help="optional: roll this many dice instead of the allocated number"),),
               dice=fight.combat_roll_dice, example={}),
    ActionSpec("modify_die", "An Ability changes one die's Rolled Value (it may go above 6 or below 1).",
               fight.modify_die,
               (Field("die", "int", minimum=1, maximum=fight.MAX_DICE),
                Field("by", "int", minimum=-10, maximum=10)),
               example={"die": 4, "by": 1}),
    ActionSpec("automatic_success", "Declare dice Automatic Successes, after the roll, before any Ability.",
               fight.automatic_success, (_DIE_LIST,), example={"dice": [5]}),
    ActionSpec("reroll_dice", "Re-roll chosen dice; they lose any Automatic Success.", fight.reroll_dice,
               (_DIE_LIST,), dice=fight.reroll_dice_expr, example={"dice": [4, 5]}),
    ActionSpec("add_reward", "A Reward Card kept for Victory Points.", turn_actions.add_reward,
               (Field("name", "str"), Field("vp", "int", minimum=0, maximum=99), _PLAYER),
               example={"name": "The Phantom Brigade", "vp": 2, "player": "Ann"}),
    ActionSpec("record_capture", "A VENOM Leader captured outside a combat roll (card effect, correction).",
               turn_actions.record_capture,
               (Field("leader", "str"), Field("support", "int", minimum=0, maximum=rules.VENOM_SUPPORT_CARDS),
                _PLAYER),
               example={"leader": "Vipress", "support": 2, "player": "Bob"}),
    ActionSpec("game_over", "The game ends: Mission victory (Medal of Honor) or VENOM victory.",
               turn_actions.game_over, (Field("winner", "str", choices=rules.WINNERS),),
               example={"winner": "freedom_squadron"}),
)

ACTIONS: dict[str, ActionSpec] = {spec.type: spec for spec in _SPECS}


def _button_b(s: dict[str, Any]) -> dict[str, Any]:
    """B: the Commander roll-off during setup, otherwise a single die."""
    return {"type": "commander_roll_off"} if s["phase"] == rules.SETUP else {"type": "single_die"}


BINDINGS = (
    Binding("A", False, "Combat roll", lambda s: {"type": "combat_roll"}),
    Binding("B", False, "1 die / roll-off", _button_b),
    Binding("C", False, "Next phase", lambda s: {"type": "next_phase"}),
    Binding("D", False, "Undo", "undo"),
    Binding("D", True, "Redo", "redo"),
)


class VenomAssault(GameSystem):
    id = "venom"
    name = "VENOM Assault"
    description = (
        "Event Track, Event deck odds, VENOM Leader Health/Defense tracks, Combat Dice, Medal of Honor"
    )
    options = OPTIONS
    actions = ACTIONS
    bindings = BINDINGS

    def validate_options(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        """Field checks plus: names present and distinct, the FS/VENOM split adds up, commander known."""
        options = super().validate_options(raw)
        names = options["players"]
        if any(not n for n in names):
            raise RuleError("options: every player needs a name")
        folded = [n.casefold() for n in names]
        dupes = sorted({n for n, f in zip(names, folded, strict=True) if folded.count(f) > 1})
        if dupes:
            raise RuleError(f"options: player names must differ, {dupes[0]!r} appears twice")
        fs, vn = options["freedom_squadron_events"], options["venom_events"]
        if (fs is None) != (vn is None):
            raise RuleError("options: give both freedom_squadron_events and venom_events, or neither")
        deck.build_event_deck(len(names), options["venom_strikes_removed"], fs, vn)
        if options["commander"] and options["commander"].casefold() not in folded:
            raise RuleError(f"options: commander {options['commander']!r} is not one of the players")
        if not options["mission"]:
            raise RuleError(f"options: mission must not be empty (first games: {rules.SUGGESTED_MISSION!r})")
        return options

    def initial_state(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return state.new_state(dict(options))

    def screen(self, st: dict[str, Any]) -> Screen:
        return view.screen(st)


SYSTEM = VenomAssault()
