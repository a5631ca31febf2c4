"""What the table is waiting for, in words a player reads."""

from __future__ import annotations

from tableside.core.system import Prompt, State
from tableside.core.systems.vegas import rules, tricks
from tableside.core.systems.vegas.setup import REVEAL, ROUND_OVER, ROUND_START, SETUP, TRICKS
from tableside.core.words import plural


def pending(state: State) -> list[Prompt]:
    """What the table waits for, in order; short, since the e-paper's prompt line is one line."""
    phase = state["phase"]
    if phase == SETUP:
        n = rules.setup_increases(len(state["players"]))
        waiting = [
            Prompt(p, f"{p}: choose {n} different tracks to increase", "setup_tracks")
            for p in state["players"]
            if not state["setup_tracks"][p]
        ]
        return waiting or [Prompt(None, "Start round 1 (button C)", "start_round", label="Start round 1")]
    if phase == ROUND_START:
        if state["chosen"] is None:
            tied = rules.spoken(state["furthest_behind"])
            return [
                Prompt(
                    None,
                    f"{tied} tie for furthest behind: settle the tie, or pick at random with button B",
                    "choose_furthest_behind",
                    ("random_pick",),  # B's pick, beside the players' choice on the phone
                )
            ]
        who = state["chosen"]
        return [Prompt(who, f"{who}: choose a free increase and lead", "free_increase")]
    if phase == TRICKS:
        if state["trick"] is not None:
            mobster = state["trick"].get("mobster")
            if mobster is not None:  # before the bonuses: the card it takes is out of the trick
                return [Prompt(mobster, f"{mobster}: take a card of the trick (Mobster)", "mobster_take")]
            # One line per claimer: a winner who also played a Bot token holds two claims ("2 trick bonuses").
            claimers = [c["player"] for c in state["trick"]["claims"]]
            return [
                Prompt(
                    p,
                    f"{p}: take or decline "
                    + (plural(claimers.count(p), "trick bonus") if claimers.count(p) > 1 else "a trick bonus"),
                    "claim_bonus",
                    ("decline_bonus",),
                )
                for p in dict.fromkeys(claimers)
            ]
        number, played = state["tricks_played"] + 1, state.get("playing") or []
        due = tricks.next_to_play(state)
        gone = {r["player"] for r in played}
        then = tuple(p for p in tricks.lead_order(state) if p not in gone and p != due)  # the cards still to come
        if played:
            cards = ", ".join(f"{r['player']} {rules.card_name(r['suit'], r['number'])}" for r in played)
            return [Prompt(due, f"Trick {number}: {due} plays ({cards})", "play_card", ("play_trick",), then=then)]
        leader = state["leader"]
        return [
            Prompt(leader, f"Trick {number}: {leader} leads", "play_card", then=then),
            Prompt(None, f"or enter trick {number} whole", "play_trick"),
        ]
    if phase == REVEAL:
        who = state["revealer"]
        return [Prompt(who, f"{who}: reveal {plural(state['hand'][who], 'card')} for round bonuses", "reveal_card")]
    if phase == ROUND_OVER:
        n = state["round"] + 1
        return [
            Prompt(None, f"Start round {n} of {state['rounds']} (button C)", "start_round", label=f"Start round {n}")
        ]
    return []


def up_next(state: State) -> str | None:
    """Within a trick played seat by seat, who plays after the seat waited for (clockwise from the leader);
    after its last card the trick's winner leads, which no one knows yet: None."""
    due = tricks.next_to_play(state)
    if due is None:
        return None
    gone = {r["player"] for r in state.get("playing") or []}
    later = [p for p in tricks.lead_order(state) if p not in gone and p != due]
    return later[0] if later else None
