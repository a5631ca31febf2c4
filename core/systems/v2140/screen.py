"""What the e-paper shows for a Venus 2140 scene: counts, books, the dice on the table, whose move.

Built from the public view only (pools are private): each participant's dice count and books,
the pending exchange's dice face up as on the table, the last exchange with every die marked.
"""

from __future__ import annotations

from typing import Any

from tableside.core.screen import DiceGroup, Die, Grid, GridRow, Screen, Text
from tableside.core.system import TableRoll
from tableside.core.systems.v2140 import effects
from tableside.core.systems.v2140.state import current
from tableside.core.text import N_
from tableside.core.words import faces_words, plural

State = dict[str, Any]
# An exchange die's fate -> the renderer's mark.
MARKS = {"won": "hit", "captured": "captured", "paired": "captured", "returned": "kept", "discarded": "tossed"}


def screen_colour(seat: int) -> int:
    """A participant's colour (``core.screen.PLAYER_INKS``) by their place in the seating: the rows and the chart."""
    return seat % 6


def _faces(dice: list[int]) -> str:
    """Dice as a person says them ("6, 5 and 5", never "655", #36), or "(no dice)": a side that had none to
    answer is named as such."""
    return faces_words(dice) if dice else "(no dice)"


def _effects(state: State) -> list[Text]:
    """The standing effects as one line: public, every phone and the e-paper show them, a pHAT too (priority 1:
    a knocked out participant does nothing this scene), under the pools they change; the last ones counted where
    they do not fit."""
    standing = [e for e in state.get("effects", []) if not e.get("ended")]
    return (
        [Text(N_("Effects: {effects}", effects="; ".join(effects.short(e) for e in standing)), priority=1)]
        if standing
        else []
    )


def screen(state: State, roll: TableRoll | None = None) -> Screen:
    now = current(state)
    rows = []
    for i, name in enumerate(state["seating"]):
        p = state["participants"][name]
        extra = f"Murphy {state['murphy']}" if p["role"] == "gm" else f"PP {p['player_points']}"
        cells = (
            N_("1 die") if p["dice"] == 1 else N_("{count} dice", count=p["dice"]),
            N_("1 book") if p["books"] == 1 else N_("{count} books", count=p["books"]),
            extra,
        )
        points = "murphy" if p["role"] == "gm" else f"participants.{name}.player_points"
        fix = ("", f"participants.{name}.books", points)
        rows.append(GridRow(name, cells, highlight=name == now, colour=screen_colour(i), fix=fix))
    elements: list[Any] = [
        Grid(N_("Scene pools"), (N_("dice"), N_("books"), N_("points")), tuple(rows), priority=1, score_columns=2)
    ]
    elements += _effects(state)
    ex = state["exchange"]
    if ex:
        kind = "risky" if ex["risky"] else "exchange"
        answer = _faces(ex["answer"]) if ex["answer"] is not None else "?" * ex["answer_count"] or "no dice"
        elements.append(
            Text(f"{ex['actor']} {_faces(ex['forward'])} against {ex['target']} {answer}", priority=1, tone="accent")
        )
        elements.append(
            DiceGroup(
                f"{ex['actor']} ({kind})",
                tuple(Die(f, "committed") for f in ex["forward"]),
                verdict=f"against {ex['target']}",
                priority=1,
                tone="accent",
            )
        )
        if ex["answer"] is not None:
            elements.append(
                DiceGroup(
                    f"{ex['target']} answers",
                    tuple(Die(f, "committed") for f in ex["answer"]),
                    priority=1,
                    tone="accent",
                )
            )
    elif state["last_exchange"]:
        last = state["last_exchange"]
        gains = ", ".join(f"{n} +{b}" for n, b in last["books_named"].items() if b) or "no books"
        elements.append(
            Text(
                f"{last['actor']} {_faces(last['forward'])} against {last['target']} {_faces(last['answer'])}: {gains}",
                priority=1,
            )
        )
        for side, name in (("actor", last["actor"]), ("target", last["target"])):
            # Each side named in its own outcome ("Sven +2 books"), which a small panel shows alone; a side with no
            # dice is said so, not drawn as an empty row of dice.
            dice = tuple(Die(f["face"], MARKS[f["fate"]]) for f in last["fates"] if f["side"] == side)
            gained = f"+{plural(last['books_named'].get(name, 0), 'book')}"
            if dice:
                elements.append(DiceGroup("", dice, verdict=f"{name} {gained}", priority=2))
            else:
                elements.append(Text(f"{name}: no dice, {gained}", priority=2))
    if roll is not None:  # the roll on the table while its exchange lasts (a pool roll only on its owner's phone)
        elements.append(roll.group(priority=2))
    if state["initiative"]:
        bids = ", ".join(f"{n} {sum(d)}" for n, d in state["initiative"].items())
        elements.append(Text(N_("Initiative: {bids}", bids=bids), priority=3))
    gm = state["participants"][state["gm"]]
    racks = state["session_racks"]  # a line, not a key figure: the exchange is the moment, not this pool
    pool = (
        N_("GM session pool: 1 rack of {quality}", quality=gm["rack"])
        if racks == 1
        else N_("GM session pool: {racks} racks of {quality}", racks=racks, quality=gm["rack"])
    )
    elements.append(Text(pool, priority=3))
    title = N_("Venus 2140 - conflict {conflict}, round {round}", conflict=state["conflict"], round=state["round"])
    return Screen(
        title, status=N_("{name}'s move", name=now), elements=tuple(elements), players=tuple(state["seating"])
    )
