"""What the table is waiting for, in words a player reads ("Ann: draw the Event card").

The phone's button for a prompt says the prompt's own words (``Prompt.label``, "Draw the Event card"),
where the action's label says it otherwise ("Draw an Event card", "Combat roll"); the other prompts
begin with their button's words already ("allocate the Combat Dice", "choose the VENOM Leader")."""

from __future__ import annotations

from tableside.core.system import Prompt
from tableside.core.systems.venom import combat, deck, recruitment, rules, turns
from tableside.core.systems.venom.state import State, active_name, odds_now
from tableside.core.text import N_


def pending(st: State) -> list[Prompt]:
    """The next step of the Turn, with the action that takes it."""
    phase = st["phase"]
    if phase == rules.GAME_OVER:
        return []
    if phase == rules.SETUP:
        names = [st["players"][i]["name"] for i in st["roll_off"]["contenders"]]
        if st["roll_off"]["rounds"]:
            # What to do and who does it, why in brackets: a pHAT too narrow drops the why first, then the names
            # (text.clauses), so who rolls off stays wherever it fits ("Roll off again - Maximilianus and Cy").
            tied = "everyone" if len(names) == len(st["players"]) else " and ".join(names)
            text = N_("Roll off again - {tied} (tied for the Commander)", tied=tied)
            return [Prompt(None, text, "commander_roll_off", label=N_("Roll off again"))]
        return [Prompt(None, N_("Roll off for the Commander: every player rolls one die"), "commander_roll_off")]
    who = active_name(st)
    fight = st["combat"]
    if phase == rules.EVENT and not st["event_drawn_this_phase"] and deck.cards_left(st["event_deck"]):
        return [Prompt(who, N_("{who}: draw the Event card", who=who), "draw_event", label=N_("Draw the Event card"))]
    if phase == rules.TACTICAL and st["leader"] is None:
        # The alternative the prompt names is the moment's too: Next phase beside Choose, one tap away.
        text = N_("{who}: choose the VENOM Leader to attack (or next phase: no Combat)", who=who)
        return [Prompt(who, text, "choose_leader", also=("next_phase",))]
    if phase in (rules.TACTICAL, rules.COMBAT) and not fight["rolled"] and not fight["aborted"]:
        if fight["dice_count"] == 0:
            return [Prompt(who, N_("{who}: allocate the Combat Dice", who=who), "allocate_dice")]
        abort = odds_now(st)["abort"]
        if abort:
            # Defense 7 or 8: no face reaches it, but an Ability still may ("Rolled Values can go above six").
            still = ", or roll if an Ability can reach it" if combat.only_abilities_reach(st["defense_track"]) else ""
            text = N_("{who}: record the aborted Combat ({abort}){still}", who=who, abort=abort, still=still)
            return [Prompt(who, text, "combat_roll", label=N_("Record the aborted Combat"))]
        dice = N_("{who}: roll the Combat Dice ({dice})", who=who, dice=combat.counted(fight["dice_count"], "die"))
        return [Prompt(who, dice, "combat_roll", label=N_("Roll the Combat Dice"))]
    if phase == rules.COMBAT:
        # The Abilities are the moment's own moves (a die changed, dice made Automatic Successes): beside Next phase.
        abilities = ("modify_die", "automatic_success")
        return [
            Prompt(who, N_("{who}: apply the Combat Abilities, then next phase", who=who), "next_phase", also=abilities)
        ]
    if phase == rules.RECRUITMENT and recruitment.this_turn(st) is None:
        # As the Combat Abilities: the moment's own move (Recruit, one form) beside Next phase (button C).
        text = N_("{who}: play your Hand, add up the Recruitment Points and recruit, then next phase", who=who)
        return [Prompt(who, text, "next_phase", also=("recruit",))]
    if phase == rules.END_OF_TURN:
        return _end_of_turn(st, who) or [
            Prompt(who, N_("{who}: {upkeep}; next phase when done", who=who, upkeep=_UPKEEP), "next_phase")
        ]
    return [Prompt(who, N_("{who}: {phase} Phase; next phase when done", who=who, phase=phase), "next_phase")]


# End of Turn Phase: "Finally, prepare yourself for the next Round": the last step, after the refills.
_UPKEEP = N_("discard your cards in play and draw five new cards")


def _end_of_turn(st: State, who: str) -> list[Prompt]:
    """The End of Turn's refills in the rulebook's order: the empty Zones, then the Training Ground."""
    zone = recruitment.zone_to_refill(st)
    if zone:
        text = N_(
            "{who}: refill {zone}: a Reward Card face down, then enter the new VENOM Leader (or next phase: none left)",
            who=who,
            zone=zone,
        )
        return [Prompt(who, text, "place_leader", also=("next_phase",), label=N_("Enter the new VENOM Leader"))]
    drawn = recruitment.to_refill(st)
    if drawn:
        text = N_(
            "{who}: refill the Training Ground to five cards ({cards} from the Recruitment Deck)",
            who=who,
            cards=combat.counted(drawn, "card"),
        )
        return [Prompt(who, text, "refill_training_ground", label=N_("Refill the Training Ground"))]
    return []


def up_next(st: State) -> str | None:
    """The player whose Turn follows this one's: the next player in order (``turns.next_player``)."""
    if st["phase"] in (rules.GAME_OVER, rules.SETUP) or st.get("active_player") is None or len(st["players"]) < 2:
        return None
    return st["players"][turns.next_player(st["active_player"], len(st["players"]))]["name"]
