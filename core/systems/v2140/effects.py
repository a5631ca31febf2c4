"""Effects: the lasting results of goals, carried by characters across scenes and sessions.

"Effects are the lasting results of buying a [Goals|Goal]. Effects are a continual condition." The
transcription lost the headings of the effect paragraphs, so each effect name is tied to the
paragraph it reads by setup data the table confirms (``effects`` option); the default reading
takes the names from "he could Wound, Scar, Knock Out, or Cripple Jack":

- ``wound``: "A Wound acts a penalty for a certain amount of time under certain circumstances and
  lasts for a certain amount of time" (the Wound paragraph names itself);
- ``marked`` (Scar): "you'll have a circumstance against you when you go against the person who did
  this to you. Until it's treated, it's just a wound";
- ``crippling`` (Cripple): "Kind of like a scar, except that it is a permanent physical penalty.
  Until it's treated, it's a wound and a scar";
- ``stopped`` (Knock Out): "You aren't wounded, but you stop doing anything. Any dice you had in your
  scene pool are gone gone gone. This is your last chance to spend any books.";
- ``stopped_then_crippling`` (no name in the text): "You are knocked out and you will be crippled."

An effect is a penalty to its bearer, and "All penalties to the opposing side are added to your
side as bonus dice. One die per advantage, never subtract": when a pool is built, each effect on
a character of the other side is offered as one circumstance die, and the player confirms the ones
that apply ("When you are wounded, the person who did it should say how you're wounded. It makes
a difference as to when it counts as a circumstance").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tableside.core.errors import RuleError
from tableside.core.fields import Choice
from tableside.core.text import N_

State = dict[str, Any]

WOUND, MARKED, CRIPPLING, STOPPED, STOPPED_THEN_CRIPPLING = (
    "wound",
    "marked",
    "crippling",
    "stopped",
    "stopped_then_crippling",
)
# The paragraphs as transcribed, each with the first words a person recognises it by.
PARAGRAPHS: dict[str, str] = {
    WOUND: "A Wound acts a penalty for a certain amount of time under certain circumstances",
    MARKED: "You'll be marked forever ... Until it's treated, it's just a wound.",
    CRIPPLING: "Kind of like a scar, except that it is a permanent physical penalty.",
    STOPPED: "You aren't wounded, but you stop doing anything.",
    STOPPED_THEN_CRIPPLING: "You are knocked out and you will be crippled.",
}
PARAGRAPH_CHOICES = tuple(Choice(key, N_("{key}: “{text}”", key=key, text=text)) for key, text in PARAGRAPHS.items())
# "Looking at the Coordination goal chart, he could Wound, Scar, Knock Out, or Cripple Jack."
DEFAULT_READINGS: tuple[dict[str, str], ...] = (
    {"name": "Wound", "reads": WOUND},
    {"name": "Scar", "reads": MARKED},
    {"name": "Knock Out", "reads": STOPPED},
    {"name": "Cripple", "reads": CRIPPLING},
)
# "If a character goes into downtime with four or more permanent effects, they spend that downtime
# period healing."
HEALING_AT = 4
MAX_EFFECTS = 200  # standing effects a campaign may hold (an input limit, far above any table's)


def check_readings(rows: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """The ``effects`` option as ``{name: paragraph}``: names present and distinct, paragraphs known."""
    out: dict[str, str] = {}
    for row in rows:
        name = str(row.get("name", "")).strip()
        if not name:
            raise RuleError(N_("options: effects: every effect needs a name"))
        if name.casefold() in (n.casefold() for n in out):
            raise RuleError(N_("options: effects: {name} is named twice", name=repr(name)))
        if row.get("reads") not in PARAGRAPHS:
            raise RuleError(
                N_(
                    "options: effects: {name} must read one of {paragraphs}",
                    name=repr(name),
                    paragraphs=", ".join(PARAGRAPHS),
                )
            )
        out[name] = row["reads"]
    return out


def active(state: State) -> list[dict[str, Any]]:
    return [e for e in state.get("effects", []) if not e.get("ended")]


def find(state: State, effect_id: int) -> dict[str, Any]:
    for e in active(state):
        if e["id"] == effect_id:
            return e
    ids = ", ".join(str(x["id"]) for x in active(state)) or "none"
    raise RuleError(N_("no effect {effect_id} is standing (effect ids: {ids})", effect_id=effect_id, ids=ids))


def describe(e: Mapping[str, Any]) -> str:
    """ "Jack: Scar by Shred (acid burn on forehead), treated": who and what, never its number ("#3 Jack" read as
    a rank, #36); a form tells effects apart by their words, the API by ``id``."""
    words = f"{e['character']}: {e['effect']}"
    if e.get("level", 1) > 1:
        words += f" (level {e['level']})"
    if e.get("by"):
        words += f" by {e['by']}"
    detail = ", ".join(x for x in (e.get("applies_to"), e.get("until") and f"until {e['until']}", e.get("note")) if x)
    if detail:
        words += f" ({detail})"
    flags = [w for w, on in (("treated", e.get("treated")), ("permanent", e.get("permanent"))) if on]
    return words + (", " + ", ".join(flags) if flags else "")


def short(e: Mapping[str, Any]) -> str:
    """A few words for the e-paper: "Jack: Scar by Shred, treated"."""
    words = f"{e['character']}: {e['effect']}" + (f" by {e['by']}" if e.get("by") else "")
    return words + (", treated" if e.get("treated") else "")


def describe_all(state: State) -> str:
    return "; ".join(describe(e) for e in active(state))


def new_effect(
    state: State,
    character: str,
    name: str,
    *,
    by: str | None = None,
    applies_to: str = "",
    until: str = "",
    level: int = 1,
    note: str = "",
) -> list[dict[str, Any]]:
    """Record effect ``name`` on ``character``; "You are knocked out and you will be crippled" records two.

    Returns the effects recorded. Emptying a stopped participant's pool is the caller's (it needs the scene).
    """
    readings = state["readings"]
    if name not in readings:
        raise RuleError(
            N_(
                "{name} is not an effect of this campaign; effects: {readings}",
                name=repr(name),
                readings=", ".join(readings),
            ),
            rule="effect_readings",
        )
    reads = readings[name]
    if not character.strip():
        raise RuleError(N_("name the character who bears the effect"))
    parts = [(name, STOPPED)] if reads == STOPPED_THEN_CRIPPLING else [(name, reads)]
    if reads == STOPPED_THEN_CRIPPLING:
        parts.append((name, CRIPPLING))
    if len(active(state)) + len(parts) > MAX_EFFECTS:
        raise RuleError(
            N_(
                "a campaign keeps at most {max_effects} standing effects: end or heal some first",
                max_effects=MAX_EFFECTS,
            ),
            rule="effects_limit",
        )
    made = []
    for effect, kind in parts:
        state["next_effect"] = state.get("next_effect", 1)
        e = {
            "id": state["next_effect"],
            "character": character.strip(),
            "effect": effect,
            "reads": kind,
            "by": by or None,
            "applies_to": applies_to,
            "until": until,
            "level": level,
            "note": note,
            # "You'll be marked forever"; crippling "is a permanent physical penalty"; a wound becomes
            # permanent only in downtime.
            "permanent": kind in (MARKED, CRIPPLING),
            "treated": False,
            "ended": False,
            "since": {k: state["campaign"][k] for k in ("session", "scene")} | {"conflict": state["conflict"]},
        }
        state["next_effect"] += 1
        made.append(e)
    state["effects"] = [*active(state), *made]
    return made


def treatable(e: Mapping[str, Any]) -> bool:
    """Scars and crippling are "a wound until it's treated"."""
    return e["reads"] in (MARKED, CRIPPLING) and not e["treated"]


def is_stopped(state: State, name: str) -> bool:
    """A character knocked out this scene: "you stop doing anything"."""
    return any(e["character"] == name and e["reads"] == STOPPED for e in active(state))


def stopped(state: State, name: str) -> str | None:
    """ "You aren't wounded, but you stop doing anything ... This is your last chance to spend any books."
    The reason in words that ``name`` cannot act, or None."""
    for e in active(state):
        if e["character"] == name and e["reads"] == STOPPED:
            return N_(
                "{name} is stopped ({effect}): only spending books is left until the scene ends",
                name=name,
                effect=e["effect"],
            )
    return None


def permanent_count(state: State, character: str) -> int:
    return sum(1 for e in active(state) if e["character"] == character and e["permanent"])


def parts(e: Mapping[str, Any]) -> list[tuple[str, str | None]]:
    """How an effect counts as a circumstance: ``(what, against)``; ``against`` None means against anyone
    facing its bearer, else only against that one (the one who did it)."""
    reads, treated = e["reads"], e["treated"]
    if reads == WOUND:
        return [("wound", None)]
    if reads == MARKED:
        return [("scar", e["by"])] if treated else [("wound until treated", None)]
    if reads == CRIPPLING:
        if treated:
            return [("permanent physical penalty", None)]
        return [("wound until treated", None), ("scar until treated", e["by"])]
    return []


def side(state: State, character: str) -> str:
    """Player characters are the players' side; the GM and every NPC the GM plays are the GM's side."""
    p = state["participants"].get(character)
    return "players" if p is not None and p["role"] == "player" else "gm"


def candidates(state: State, builder: str | None = None) -> list[dict[str, Any]]:
    """Circumstance dice effects offer when ``builder`` (None: anyone) builds a pool: one die per part of
    each effect on a character of the other side (a scar only for the one who did it)."""
    out = []
    for e in active(state):
        for what, against in parts(e):
            for name in state["seating"]:
                if builder is not None and name != builder:
                    continue
                if side(state, name) == side(state, e["character"]) or name == e["character"]:
                    continue
                if against is not None and against != name:
                    continue
                value = f"{name}:{e['id']}:{what}"
                label = f"{name}: +1 die, {e['character']}'s {e['effect']} ({what})"
                if e.get("applies_to"):
                    label += f", {e['applies_to']}"
                out.append({"value": value, "label": label, "for": name, "effect": e["id"], "what": what})
    return out


def choices(state: State) -> list[Choice]:
    if not state or "effects" not in state:
        return []
    return [Choice(c["value"], c["label"]) for c in candidates(state)]


def confirmed(state: State, builder: str, picked: Sequence[str]) -> list[dict[str, Any]]:
    """The circumstances a player confirmed for their own pool; one for someone else is refused."""
    offered = {c["value"]: c for c in candidates(state, builder)}
    out = []
    for value in picked:
        if value not in offered:
            raise RuleError(
                N_(
                    "{value} is not an effect that gives {builder} a circumstance die now",
                    value=repr(value),
                    builder=builder,
                )
            )
        out.append(offered[value])
    return out


# --- an effect bought with a goal, waiting for the character who bears it ------------------------------------
# A goal whose result is an effect ("You knock out one person. 3 books.") bought on the GM's side names no one
# character: the GM plays every NPC. The effect is then the table's next moment, noted with its name and buyer
# filled in; a new scene lets it go.


def due(state: State) -> list[dict[str, Any]]:
    """Effects bought with a goal and not yet noted on a character, oldest first."""
    return list(state.get("effects_due") or [])


def make_due(state: State, name: str, by: str, goal: str) -> None:
    state["effects_due"] = [*due(state), {"effect": name, "by": by, "goal": goal}]


def settle_due(state: State, name: str, by: str | None) -> None:
    """The first waiting ``name`` (bought by ``by``, when given) is noted: it waits no more."""
    waiting = due(state)
    for i, d in enumerate(waiting):
        if d["effect"] == name and (not by or d["by"] == by):
            state["effects_due"] = waiting[:i] + waiting[i + 1 :]
            return


def due_field(key: str):
    """A prefill of the Note an effect form: the first waiting effect's ``key`` (its name, its buyer)."""

    def first(state: State) -> str | None:
        waiting = due(state)
        return waiting[0][key] if waiting else None

    return first
