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
    Field("players", "texts", required=False, default=["Player 1", "Player 2"],
          minimum=rules.MIN_PLAYERS, maximum=rules.MAX_PLAYERS,
          help="2-5 player names, in clockwise seating order"),
    Field("mission", "text", required=False, default=rules.SUGGESTED_MISSION,
          help="the Mission Card in play (free text)"),
    Field("venom_strikes_removed", "count", required=False, default=0,
          minimum=0, maximum=rules.MAX_VENOM_STRIKES_REMOVED,
          help="Difficulty: VENOM Strikes! cards removed from the Event deck (0-4)"),
    Field("freedom_squadron_events", "count", required=False, minimum=0, maximum=rules.OTHER_EVENT_CARDS,
          help="optional: Freedom Squadron events in the deck (with venom_events, adds up to 18)"),
    Field("venom_events", "count", required=False, minimum=0, maximum=rules.OTHER_EVENT_CARDS,
          help="optional: VENOM events in the deck (with freedom_squadron_events, adds up to 18)"),
    Field("commander", "text", required=False, default="",
          help="the Commander set by hand; empty means a roll-off (button B)"),
)

_PLAYER = Field("player", "text", required=False, default="",
                help="player name; empty means the active player")
_DIE_LIST = Field("dice", "json", minimum=1, maximum=fight.MAX_DICE,
                  help="die numbers as shown, 1 = first die rolled")

_SPECS = (
    ActionSpec("commander_roll_off", "Commander roll off",
               "Commander Token: every player still in the roll-off rolls one die; "
               "ties for the highest re-roll among the tied.", turn_actions.commander_roll_off,
               rolls=True, example={}),
    ActionSpec("set_commander", "Set commander", "Commander Token chosen by hand instead of a roll-off.",
               turn_actions.set_commander, (Field("player", "text"),), example={"player": "Ann"}),
    ActionSpec("next_phase", "Next phase", "Next phase of the Turn; after End of Turn, the next player's Turn.",
               turn_actions.next_phase, example={}),
    ActionSpec("draw_event", "Draw event", "An Event card drawn: its kind (and name); VENOM Strikes! moves the "
               "Event Track.",
               turn_actions.draw_event,
               (Field("kind", "pick", choices=rules.EVENT_KINDS),
                Field("name", "text", required=False, default="", help="the card's name, optional"),
                Field("discard", "flag", required=False, default=False,
                      help="a card effect discards it at once instead of making it active")),
               example={"kind": "venom_strikes", "name": "Red Rockets of Doom!"}),
    ActionSpec("single_die", "Single die", "One Combat Die for a Commander choice or a card effect.",
               turn_actions.single_die, (Field("reason", "text", required=False, default=""),),
               rolls=True, example={"reason": "Vipress ability"}),
    ActionSpec("choose_leader", "Choose leader", "Tactical Phase: the VENOM Leader attacked; sets the Health and "
               "Defense tracks.",
               fight.choose_leader,
               (Field("name", "text"),
                Field("zone", "pick", choices=tuple(rules.ZONES)),
                Field("zone_type", "pick", required=False, default="", choices=(*rules.ZONE_TYPES, ""),
                      help="optional check; the Zone already fixes it"),
                Field("health", "count", minimum=rules.TRACK_MIN, maximum=rules.TRACK_MAX),
                Field("defense", "count", minimum=rules.TRACK_MIN, maximum=rules.TRACK_MAX),
                Field("support", "count", minimum=0, maximum=rules.VENOM_SUPPORT_CARDS)),
               example={"name": "Vipress", "zone": "VENOM Mountain Defense", "zone_type": "Arctic",
                        "health": 2, "defense": 4, "support": 2}),
    ActionSpec("adjust_track", "Adjust track",
               "An Ability moves the Health or Defense marker (1-8; past an end is ignored).",
               fight.adjust_track,
               (Field("track", "pick", choices=("health", "defense")),
                Field("by", "count", minimum=-(rules.TRACK_MAX - 1), maximum=rules.TRACK_MAX - 1)),
               example={"track": "health", "by": 1}),
    ActionSpec("allocate_dice", "Allocate dice",
               "Combat Dice: the Combat Leader's Combat Value plus Freedom Support dice.",
               fight.allocate_dice,
               (Field("combat_value", "count", minimum=0, maximum=fight.MAX_DICE),
                Field("support_dice", "count", required=False, default=0, minimum=0, maximum=fight.MAX_DICE),
                Field("combat_leader", "text", required=False, default="")),
               example={"combat_value": 2, "support_dice": 3, "combat_leader": "Dropzone"}),
    ActionSpec("adjust_dice", "Adjust dice", "Add or remove Combat Dice before the roll.", fight.adjust_dice,
               (Field("by", "count", minimum=-fight.MAX_DICE, maximum=fight.MAX_DICE),), example={"by": -1}),
    ActionSpec("combat_roll", "Combat roll", "Roll the Combat Dice against the Defense track, or abort if it "
               "cannot succeed.",
               fight.combat_roll,
               (Field("dice", "count", required=False, minimum=1, maximum=fight.MAX_DICE,
                      help="optional: roll this many dice instead of the allocated number"),),
               rolls=True, example={}),
    ActionSpec("modify_die", "Modify die", "An Ability changes one die's Rolled Value (it may go above 6 or below 1).",
               fight.modify_die,
               (Field("die", "count", minimum=1, maximum=fight.MAX_DICE),
                Field("by", "count", minimum=-10, maximum=10)),
               example={"die": 4, "by": 1}),
    ActionSpec("automatic_success", "Automatic success",
               "Declare dice Automatic Successes, after the roll, before any Ability.",
               fight.automatic_success, (_DIE_LIST,), example={"dice": [5]}),
    ActionSpec("reroll_dice", "Reroll dice", "Re-roll chosen dice; they lose any Automatic Success.", fight.reroll_dice,
               (_DIE_LIST,), rolls=True, example={"dice": [4, 5]}),
    ActionSpec("add_reward", "Add reward", "A Reward Card kept for Victory Points.", turn_actions.add_reward,
               (Field("name", "text"), Field("vp", "count", minimum=0, maximum=99), _PLAYER),
               example={"name": "The Phantom Brigade", "vp": 2, "player": "Ann"}),
    ActionSpec("record_capture", "Record capture",
               "A VENOM Leader captured outside a combat roll (card effect, correction).",
               turn_actions.record_capture,
               (Field("leader", "text"), Field("support", "count", minimum=0, maximum=rules.VENOM_SUPPORT_CARDS),
                _PLAYER),
               example={"leader": "Vipress", "support": 2, "player": "Bob"}),
    ActionSpec("game_over", "Game over", "The game ends: Mission victory (Medal of Honor) or VENOM victory.",
               turn_actions.game_over, (Field("winner", "pick", choices=rules.WINNERS),),
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
