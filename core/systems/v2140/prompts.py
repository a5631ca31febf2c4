"""What the table is waiting for, in words a player reads: the answer, the resolve, whose move."""

from __future__ import annotations

from tableside.core.system import Prompt
from tableside.core.systems.v2140 import campaign_actions, effects
from tableside.core.systems.v2140.state import State, current, side_of
from tableside.core.text import N_
from tableside.core.words import faces_words


def _dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def _answer_text(ex: dict) -> str:
    """Who answers, with how many dice, against what: "GM: answer Shred's 6 and 5 with 2 dice" (the
    rulebook: "The target player then does the same thing, matching the number of dice the actor drew")."""
    risky = "risky " if ex["risky"] else ""
    short = " (all they have)" if ex["answer_count"] < len(ex["forward"]) else ""
    return (
        f"{ex['target']}: answer {ex['actor']}'s {risky}{faces_words(ex['forward'])} "
        f"with {_dice(ex['answer_count'])}{short}"
    )


def pending(state: State) -> list[Prompt]:
    """What the table waits for now, then the full-sleeve Player Points on offer (the GM confirms)."""
    return [*_effects_due(state), *_now(state), *_to_draw(state), *_drawn_to_roll(state), *_outnumbered(state)]


def _effects_due(state: State) -> list[Prompt]:
    """A goal whose result is an effect, bought on the GM's side: the GM names the character who bears it, in
    the Note an effect form that opens with the effect and its buyer filled in."""
    gm = state["gm"]
    return [
        Prompt(
            gm,
            N_(
                "{gm}: note the {effect} {by} bought ({goal}) on the character who bears it",
                gm=gm,
                effect=d["effect"],
                by=d["by"],
                goal=d["goal"],
            )
            if d["goal"] != d["effect"]
            else N_(
                "{gm}: note the {effect} {by} bought on the character who bears it",
                gm=gm,
                effect=d["effect"],
                by=d["by"],
            ),
            "add_effect",
            label=N_("Note the {effect}", effect=d["effect"]),
        )
        for d in effects.due(state)[:1]
    ]


def _to_draw(state: State) -> list[Prompt]:
    """A conflict opens with every participant drawing ("skills, gear, and circumstances are drawn by the players.
    The dice drawn are then rolled into the scene pool"): until dice go forward in it, each one who has drawn
    nothing for it yet (nothing rolled in, nothing prepared, no dice) is waited for too, after whose move it is.
    So drawing one's own pool then is that seat's own moment, not a move out of turn."""
    if "drawn" not in state or _exchanged(state):
        return []
    now = current(state)
    return [
        Prompt(name, N_("{name}: draw dice for a scene pool", name=name), "prepare_pool")
        for name in state["seating"]
        if name != now and _not_drawn(state, name)
    ]


def _not_drawn(state: State, name: str) -> bool:
    p = state["participants"][name]
    if name in state["drawn"] or p["prepared"] or p["dice"]:
        return False
    return effects.stopped(state, name) is None  # knocked out: nothing to draw until the scene ends


def _drawn_to_roll(state: State) -> list[Prompt]:
    """Dice drawn out of turn (the GM draws "at any time") wait to be rolled: their roll is that seat's moment."""
    if state["exchange"]:
        return []
    now = current(state)
    return [
        Prompt(name, N_("{name}: roll the scene pool", name=name), "roll_pool")
        for name, p in state["participants"].items()
        if name != now and p["prepared"]
    ]


def _outnumbered(state: State) -> list[Prompt]:
    """ "If you enter a conflict where you are outnumbered by a full sleeve of dice, you are entitled to one
    player point, assuming that the conflict is germane to the story." Said while the conflict is entered
    (pools drawn, no exchange yet): once dice go forward it is no longer the moment, and it stayed under every
    prompt all conflict long. The GM still gives it from Points ("Outnumbered: one point") until the next
    conflict."""
    if "drawn" not in state or _exchanged(state):
        return []
    out = []
    totals = {
        side: sum(n for who, n in state["drawn"].items() if side_of(state, who) == side) for side in ("players", "gm")
    }
    for name in campaign_actions.outnumbered(state):
        mine = side_of(state, name)
        theirs = "gm" if mine == "players" else "players"
        point = "a Murphy point" if mine == "gm" else "one Player Point"
        text = (
            f"{name}: outnumbered by a full sleeve ({totals[mine]} dice against {totals[theirs]}): {point}, if germane"
        )
        out.append(Prompt(state["gm"], text, "outnumbered_point"))
    return out


def _exchanged(state: State) -> bool:
    """Dice have gone forward in this conflict: an exchange waits, or one of this conflict's is in the ledger."""
    ledger = state.get("ledger") or []
    return bool(state["exchange"]) or bool(ledger and ledger[-1]["conflict"] == state["conflict"])


def _now(state: State) -> list[Prompt]:
    """The pending exchange first (the answer, then B), else who leads or whose move it is."""
    ex = state["exchange"]
    if ex:
        if ex["answer"] is None and ex["answer_count"]:
            return [Prompt(ex["target"], _answer_text(ex), "answer")]
        # The prompt names what the phone offers ("Resolve the exchange (B)") and the table's button.
        return [
            Prompt(
                None,
                N_("Resolve the exchange (button B): {actor} against {target}", actor=ex["actor"], target=ex["target"]),
                "resolve",
            )
        ]
    lead = state.get("lead")
    if lead and lead in state["participants"] and state["participants"][lead]["dice"]:
        return [Prompt(lead, N_("{name}: captured last, starts a new exchange", name=lead), "put_forward")]
    now = current(state)
    p = state["participants"][now]
    if p["prepared"]:
        return [Prompt(now, N_("{name}: roll the scene pool (A)", name=now), "roll_pool")]
    if not p["dice"]:  # the count: pending() also runs on the public (redacted) view
        return [
            Prompt(
                now,
                N_("{name}: draw dice for a scene pool, or none (Next participant, button C)", name=now),
                "prepare_pool",
                ("next_participant",),
            )
        ]
    return [Prompt(now, N_("{name}: put dice forward", name=now), "put_forward")]


def up_next(state: State) -> str | None:
    """Whose move follows in the conflict's order (initiative, else seating), past anyone stopped: "you stop doing
    anything"; None when no one else can move."""
    order, now = state["order"], current(state)
    at = order.index(now)
    for step in range(1, len(order)):
        name = order[(at + step) % len(order)]
        if name != now and effects.stopped(state, name) is None:
            return name
    return None
