"""The recap of a game, told from its own log (#34): pure functions over log entries, no I/O.

What a table asks after a game: who won and by how much, how the lead went, where it turned, the biggest and the
luckiest rolls with their exact odds (from the logged faces: ``core.odds``), each seat's luck against a fair die,
the time each seat and each round took, and how many undos and corrections there were. A roll the rules count by
its hits (a VENOM Combat, a VNM attack: each die a hit or not, ``core.recorder.Dice.mark``'s ``hit_chance``) is read
so: "2 hits (45% to roll this many or more)", the binomial tail, and each die's luck is its hit against that chance;
a roll without one (another kind, or an old log) is read by its total against fair dice. Every entry is read as
the asking seat may read it (``core.privacy.entry``), so a Venus 2140 pool's faces count in its own seat's luck
and rolls only: every other phone sees that it was rolled, never its faces.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from fractions import Fraction
from typing import Any

from tableside.core import dice, privacy
from tableside.core.odds import at_least_k, percent
from tableside.core.soft_clock import ClockFold
from tableside.core.text import N_
from tableside.core.words import plural

THE_TABLE = "The table"  # dice that are no player's (a random pick)
MAX_LISTED = 3  # turning points and rolls listed in the recap


def sum_at_least(n: int, sides: int, total: int) -> Fraction:
    """Exact chance that ``n`` fair ``sides``-sided dice add up to ``total`` or more (the count of ways, by
    convolution: at most a few dozen dice, so a few thousand additions)."""
    ways = [1]
    for _ in range(n):
        nxt = [0] * (len(ways) + sides)
        for s, w in enumerate(ways):
            if w:
                for f in range(1, sides + 1):
                    nxt[s + f] += w
        ways = nxt
    return Fraction(sum(ways[max(total, 0) :]), sides**n)


def _sides(roll: Mapping[str, Any]) -> int | None:
    if isinstance(roll.get("sides"), int):
        return roll["sides"]
    try:
        return dice.parse(str(roll.get("expr", ""))).sides
    except Exception:  # a roll the recap cannot read is left out of it, never a failed recap
        return None


def faces_of(roll: Mapping[str, Any]) -> list[int]:
    """A roll's faces in the order rolled (``rolls``, else the kept ``faces``); [] when it has none."""
    faces = roll.get("rolls") if isinstance(roll.get("rolls"), list) else roll.get("faces")
    return [f for f in faces or [] if isinstance(f, int) and not isinstance(f, bool)]


def _owners(entry: Mapping[str, Any], roll: Mapping[str, Any], count: int) -> list[str]:
    """Whose each die is: the roll's ``by`` (the attacker, the player whose turn it is, each contender),
    else the player the action names, else the seat that sent it."""
    by = roll.get("by")
    if isinstance(by, list) and len(by) == count:
        return [str(b) if b else THE_TABLE for b in by]
    if isinstance(by, str):  # "" is core.recorder.TABLE: nobody's die (a random pick), as the History tab counts it
        return [by or THE_TABLE] * count
    action = entry.get("action") if isinstance(entry.get("action"), dict) else {}
    for key in ("player", "attacker", "participant"):
        if isinstance(action.get(key), str) and action[key]:
            return [action[key]] * count
    return [str(entry.get("seat") or THE_TABLE)] * count


def entry_rolls(entry: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Every recorded roll of a log entry: ``rolls`` (interface v2) or the first interface's ``action.roll``;
    none for an undo or a redo (a redo replays the same faces: counted once)."""
    if entry.get("kind") in ("undo", "redo"):
        return []
    rolls = entry.get("rolls")
    if isinstance(rolls, list):
        return [r for r in rolls if isinstance(r, Mapping)]
    action = entry.get("action")
    if isinstance(action, Mapping) and isinstance(action.get("roll"), Mapping):
        return [action["roll"]]
    return []


def dice_of(entry: Mapping[str, Any]) -> Iterator[tuple[Mapping[str, Any], int, list[int], list[str]]]:
    """Each roll of an entry (as its reader may see it) that luck can count: (roll, sides, faces, each die's
    owner). A roll it cannot read (no sides, a face off the die) is left out, never a failed recap. The one
    reading of dice the recap, the Stats page and the History tab's luck share, so they give one verdict."""
    for r in entry_rolls(entry):
        sides, faces = _sides(r), faces_of(r)
        if sides and sides >= 2 and faces and all(1 <= f <= sides for f in faces):
            yield r, sides, faces, _owners(entry, r, len(faces))


def luck_of(face: int, sides: int) -> float:
    """How lucky one face is against a fair die: its distance from the mean in standard deviations."""
    return (face - (sides + 1) / 2) / math.sqrt((sides * sides - 1) / 12)


def hit_chance(roll: Mapping[str, Any], count: int) -> Fraction | None:
    """Each die's chance of a hit as the rules logged it with the roll's marks, or None: a roll read by its total
    (no chance said, as in a log from before rolls said it, or one that cannot be read)."""
    raw, marks = roll.get("hit_chance"), roll.get("marks")
    if not isinstance(raw, str) or len(raw) > 40 or not isinstance(marks, list) or len(marks) != count:
        return None
    try:
        p = Fraction(raw)
    except (ValueError, ZeroDivisionError):
        return None
    return p if 0 <= p <= 1 else None


def die_lucks(roll: Mapping[str, Any], sides: int, faces: Sequence[int]) -> list[float | None]:
    """Each die's luck in standard deviations, so a seat's luck sums over rolls of any kind: a die read by hits
    is its hit (1) or miss (0) against its chance p, (x - p) / sqrt(p(1 - p)), so a seat's sum over sqrt(n) is
    its hits against the n*p expected; a die that had no chance either way (p 0 or 1) tells none (None); any
    other die is its face against a fair die (``luck_of``)."""
    p = hit_chance(roll, len(faces))
    if p is None:
        return [luck_of(f, sides) for f in faces]
    if p in (0, 1):
        return [None] * len(faces)
    sd = math.sqrt(p * (1 - p))
    return [((mark == "hit") - p) / sd for mark in roll["marks"]]


def hits_words(count: int) -> str:
    """ "1 hit", "3 hits", marked for translation."""
    return N_("{count} hit", count=count) if count == 1 else N_("{count} hits", count=count)


def entry_time(entry: Mapping[str, Any]) -> datetime | None:
    try:
        return datetime.fromisoformat(str(entry.get("at")))
    except ValueError:
        return None


def clock(seconds: float) -> str:
    minutes, secs = divmod(int(round(seconds)), 60)
    return f"{minutes} min {secs:02d} s" if minutes else f"{secs} s"


def recap(
    entries: Iterable[Mapping[str, Any]],
    seat: str | None,
    result: Mapping[str, Any] | None,
    series: Sequence[tuple[Any, Mapping[str, float]]] = (),
    labels: Mapping[str, str] | None = None,
    waiting: Mapping[int, str | None] | None = None,
    x_label: str = "",
) -> dict[str, Any]:
    """The recap as ``seat`` may read it. ``result``: the screen model's (winners, scores); ``series``: the
    game's chart points ``(round or action, {name: value})`` (webui.history's chart); ``labels``: seat ->
    the name the board uses; ``waiting``: version -> the seat waited for after it, which times each seat as the
    soft clock does (``core.soft_clock``: whose move it was, pauses left out), else each entry's seat's;
    ``x_label``: what the chart's points count ("Round", "Action"), named before each turning point."""
    labels = labels or {}
    rolls: list[dict[str, Any]] = []
    luck: dict[str, list[float]] = {}  # name -> dice, summed luck, hits, expected hits
    seat_time: dict[str, float] = {}
    undos = corrections = private_dice = actions = 0
    before: datetime | None = None
    timer = ClockFold()
    for raw in entries:
        e = privacy.entry(raw, seat)
        actions += 1
        at = entry_time(e)
        if waiting is not None:
            timer.add(e, waiting.get(int(e.get("seq") or 0)))
        else:
            who = labels.get(str(e.get("seat")), str(e.get("seat"))) if e.get("seat") else THE_TABLE
            if at and before:
                seat_time[who] = seat_time.get(who, 0.0) + max((at - before).total_seconds(), 0.0)
        before = at or before
        if e.get("kind") in ("undo", "redo"):
            undos += e.get("kind") == "undo"
            continue
        if e.get("type") == "correct":
            corrections += 1
        if e.get("private"):
            private_dice += 1
            continue
        for r, sides, all_faces, owners in dice_of(e):
            p = hit_chance(r, len(all_faces))
            marks = list(r["marks"]) if p is not None else [""] * len(all_faces)
            for lucky, mark, owner in zip(die_lucks(r, sides, all_faces), marks, owners, strict=True):
                if lucky is not None:
                    acc = luck.setdefault(labels.get(owner, owner), [0.0, 0.0, 0, 0.0])
                    acc[0] += 1
                    acc[1] += lucky
                    if p is not None:
                        acc[2] += mark == "hit"
                        acc[3] += float(p)
            for owner, dies in _by_owner(owners):
                faces = [all_faces[i] for i in dies]
                roll = {
                    "seq": e.get("seq"),
                    "who": labels.get(owner, owner),
                    "label": str(r.get("label") or r.get("expr") or "roll"),
                    "expr": f"{len(faces)}d{sides}",
                    "faces": faces,
                }
                if p is None:
                    chance = sum_at_least(len(faces), sides, sum(faces))
                    roll["total"] = sum(faces)
                else:  # what the rules count: the hits, and the chance of this many or more
                    roll["hits"] = [marks[i] for i in dies].count("hit")
                    roll["hit_chance"] = f"{p.numerator}/{p.denominator}"
                    chance = at_least_k(len(faces), p, roll["hits"])
                roll.update(chance=percent(chance), odds=f"{chance.numerator}/{chance.denominator}", _p=chance)
                rolls.append(roll)
    if waiting is not None:
        seat_time = {labels.get(k, k): v for k, v in timer.told()["seconds"].items()}
    biggest = sorted(rolls, key=_size)[:MAX_LISTED]
    luckiest = sorted(rolls, key=lambda r: (r["_p"], r["seq"] or 0))[:MAX_LISTED]
    for r in rolls:
        r.pop("_p")
    return {
        "seat": seat,
        "result": dict(result) if result else None,
        "lead": _lead(series),
        "turning_points": _turning_points(series, x_label),
        "biggest_rolls": biggest,
        "luckiest_rolls": luckiest,
        "luck": [
            _luck(name, *acc) for name, acc in sorted(luck.items(), key=lambda kv: -kv[1][1] / math.sqrt(kv[1][0]))
        ],
        "time_per_seat": [{"name": k, "time": clock(v)} for k, v in sorted(seat_time.items(), key=lambda kv: -kv[1])],
        "actions": actions,
        "undos": undos,
        "corrections": corrections,
        "private_entries": private_dice,
    }


def _size(roll: Mapping[str, Any]) -> tuple:
    """The biggest rolls first: the rolls read by hits by their hits (the rarer first where as many), ahead of
    the rolls read by totals, by their totals: a game that counts hits is decided by them, and 3 hits and a
    total of 6 have no common measure."""
    if "hits" in roll:
        return (0, -roll["hits"], roll["_p"], roll["seq"] or 0)
    return (1, -roll["total"], 0, roll["seq"] or 0)


def _luck(name: str, dice: float, z: float, hits: float, expected: float) -> dict[str, Any]:
    """One seat's luck: its dice, their summed luck over sqrt(dice) and its verdict; and, where its dice were
    read by hits, the hits it rolled against the ones expected."""
    z = z / math.sqrt(dice)
    told: dict[str, Any] = {"name": name, "dice": int(dice), "z": round(z, 2), "verdict": _verdict(z, dice)}
    if expected:
        told.update(hits=int(hits), expected_hits=round(expected, 1))
    return told


def _by_owner(owners: list[str]) -> list[tuple[str, list[int]]]:
    """A roll's dice (their places) as each owner's own roll, in the order first rolled: a roll-off (one die per
    player) is each player's die, never one total given to the first player."""
    out: dict[str, list[int]] = {}
    for i, owner in enumerate(owners):
        out.setdefault(owner, []).append(i)
    return list(out.items())


def _leader(values: Mapping[str, float]) -> str | None:
    if not values:
        return None
    top = max(values.values())
    tops = [n for n, v in values.items() if v == top]
    return tops[0] if len(tops) == 1 else None


def _lead(series: Sequence[tuple[Any, Mapping[str, float]]]) -> list[dict[str, Any]]:
    """Who led at each point of the chart, and by how much over the second."""
    out = []
    for x, values in series:
        ranked = sorted(values.values(), reverse=True)
        out.append({"x": x, "leader": _leader(values), "by": (ranked[0] - ranked[1]) if len(ranked) > 1 else 0})
    return out


def _turning_points(series: Sequence[tuple[Any, Mapping[str, float]]], x_label: str = "") -> list[str]:
    """The largest swings of one player's number between two points, and every change of leader, each at its
    point named as the chart's axis names it ("Round 2: ..."; a bare "2:" read as nothing at the table)."""
    swings: list[tuple[float, str]] = []
    last_leader = None
    for (_x0, a), (x1, b) in zip(series, series[1:], strict=False):
        at = f"{x_label} {x1}" if x_label else str(x1)
        for name in b:
            delta = b[name] - a.get(name, 0)
            if delta:
                swings.append((abs(delta), f"{at}: {name} {delta:+g} (to {b[name]:g})"))
        leader = _leader(b)
        if leader and leader != (last_leader or _leader(a)):
            swings.append((math.inf, f"{at}: {leader} takes the lead"))
        last_leader = leader or last_leader
    return [text for _size, text in sorted(swings, key=lambda s: -s[0])[:MAX_LISTED]]


def _verdict(z: float, n: float) -> str:
    if n < 10:
        return "too few dice to tell"
    if z >= 2:
        return "hot dice"
    if z >= 1:
        return "lucky"
    if z <= -2:
        return "cursed"
    if z <= -1:
        return "unlucky"
    return "fair"


def recap_text(r: Mapping[str, Any], title: str) -> str:
    """The recap as plain text, to paste into a group chat."""
    lines = [f"{title}: recap"]
    res = r.get("result")
    if res:
        lines.append(f"{res['label']}: {' & '.join(res['winners']) or 'nobody'}")
        lines.append("Final: " + " · ".join(f"{n} {s}" for n, s in res["scores"]))
    if r["turning_points"]:
        lines.append("Turning points: " + "; ".join(r["turning_points"]))
    for key, heading in (("biggest_rolls", "Biggest rolls"), ("luckiest_rolls", "Luckiest rolls")):
        if r[key]:
            lines.append(heading + ": " + "; ".join(_roll_words(x) for x in r[key]))
    if r["luck"]:
        lines.append(
            # in words, not "z -0.13": the verdict says how far from a fair die; the JSON keeps ``z``
            "Luck: " + "; ".join(f"{x['name']} {x['verdict']} ({_luck_words(x)})" for x in r["luck"])
        )
    if r["time_per_seat"]:
        lines.append("Time: " + "; ".join(f"{x['name']} {x['time']}" for x in r["time_per_seat"]))
    lines.append(f"{r['actions']} log entries, {r['undos']} undos, {r['corrections']} corrections")
    if r["private_entries"]:
        lines.append(f"{r['private_entries']} private rolls of other seats are not shown")
    return "\n".join(lines) + "\n"


def _luck_words(x: Mapping[str, Any]) -> str:
    """ "5 dice", and where they were read by hits "5 dice; 3 hits, 1.7 expected"."""
    dice = plural(x["dice"], "die")
    if "hits" not in x:
        return dice
    return dice + "; " + N_("{hits}, {expected} expected", hits=hits_words(x["hits"]), expected=x["expected_hits"])


def _roll_words(x: Mapping[str, Any]) -> str:
    faces = ",".join(str(f) for f in x["faces"])
    if "hits" in x:
        return N_(
            "{who} {label} {expr} {faces}: {hits} ({chance} to roll this many or more)",
            who=x["who"],
            label=x["label"],
            expr=x["expr"],
            faces=faces,
            hits=hits_words(x["hits"]),
            chance=x["chance"],
        )
    return f"{x['who']} {x['label']} {x['expr']} {faces} = {x['total']} ({x['chance']} to roll this or more)"
