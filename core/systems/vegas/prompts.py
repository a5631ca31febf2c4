"""What the table is waiting for, in words a player reads."""

from __future__ import annotations

from tableside.core.system import Prompt, State
from tableside.core.systems.vegas import rules, tricks
from tableside.core.systems.vegas.setup import REVEAL, ROUND_OVER, ROUND_START, SETUP, TRICKS
from tableside.core.text import N_
from tableside.core.words import plural


def pending(state: State) -> list[Prompt]:
    """What the table waits for, in order; short, since the e-paper's prompt line is one line."""
    phase = state["phase"]
    if phase == SETUP:
        n = rules.setup_increases(len(state["players"]))
        waiting = [
            Prompt(p, N_("{player}: choose {n} different tracks to increase", player=p, n=n), "setup_tracks")
            for p in state["players"]
            if not state["setup_tracks"][p]
        ]
        return waiting or [Prompt(None, N_("Start round 1 (button C)"), "start_round", label=N_("Start round 1"))]
    if phase == ROUND_START:
        if state["chosen"] is None:
            tied = rules.spoken(state["furthest_behind"])
            return [
                Prompt(
                    None,
                    N_("{tied} tie for furthest behind: settle the tie, or pick at random with button B", tied=tied),
                    "choose_furthest_behind",
                    ("random_pick",),  # B's pick, beside the players' choice on the phone
                )
            ]
        who = state["chosen"]
        return [Prompt(who, N_("{who}: choose a free increase and lead", who=who), "free_increase")]
    if phase == TRICKS:
        if state["trick"] is not None:
            mobster = state["trick"].get("mobster")
            if mobster is not None:  # before the bonuses: the card it takes is out of the trick
                return [
                    Prompt(
                        mobster, N_("{mobster}: take a card of the trick (Mobster)", mobster=mobster), "mobster_take"
                    )
                ]
            # One line per claimer: a winner who also played a Bot token holds two claims ("2 trick bonuses").
            claimers = [c["player"] for c in state["trick"]["claims"]]
            return [
                Prompt(
                    p,
                    N_(
                        "{player}: take or decline {bonuses}",
                        player=p,
                        bonuses=plural(claimers.count(p), "trick bonus"),
                    )
                    if claimers.count(p) > 1
                    else N_("{player}: take or decline a trick bonus", player=p),
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
            return [
                Prompt(
                    due,
                    N_("Trick {number}: {due} plays ({cards})", number=number, due=due, cards=cards),
                    "play_card",
                    ("play_trick",),
                    then=then,
                )
            ]
        leader = state["leader"]
        return [
            Prompt(leader, N_("Trick {number}: {leader} leads", number=number, leader=leader), "play_card", then=then),
            Prompt(None, N_("or enter trick {number} whole", number=number), "play_trick"),
        ]
    if phase == REVEAL:
        who = state["revealer"]
        return [
            Prompt(
                who,
                N_("{who}: reveal {cards} for round bonuses", who=who, cards=plural(state["hand"][who], "card")),
                "reveal_card",
            )
        ]
    if phase == ROUND_OVER:
        n = state["round"] + 1
        return [
            Prompt(
                None,
                N_("Start round {n} of {rounds} (button C)", n=n, rounds=state["rounds"]),
                "start_round",
                label=N_("Start round {n}", n=n),
            )
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
