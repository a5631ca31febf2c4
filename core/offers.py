"""What can be done now: the actions a phone may send, and the buttons a press would not refuse.

Plain functions over a system and a state (the table calls them with the game it holds): every button
is tried as a press runs it, on a copy, so a phone never offers a button only to be told no.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping
from typing import Any

from tableside.core import privacy, rulebook_refs
from tableside.core.errors import TablesideError
from tableside.core.system import GameSystem, run_action

log = logging.getLogger(__name__)


def offers(
    system: GameSystem,
    state: Mapping[str, Any],
    seat: str | None,
    held: Mapping[str, str],
    readonly: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> dict:
    """Every action with its fields and choices as ``seat`` may see them, what the table waits for and the
    buttons A-C. ``held``: the seats a phone holds (for a phone with no seat, each action names the seats
    whose own phone alone makes it); ``readonly``: why nothing can be played (every action says so)."""
    seats = [s.name for s in system.seats(state)]
    shown = privacy.state(system, state, seat)
    # An action that is no part of this game (Enhanced-only in a Basic game) is not listed at all.
    actions = [spec.describe(shown, seats, seat) for spec in system.actions.values() if spec.applies_in(shown)]
    actions.append(system.correct_spec().describe(state, seats, seat))  # the free roll is POST /api/rolls
    if readonly:
        for a in actions:
            a.update(available=False, reason=readonly)
    elif seat is None:
        for a in actions:
            theirs = _own_phones(system, state, a["type"], seats, held)
            if theirs:
                a["own_phones"] = theirs
    return {
        "actions": actions,
        "pending": rulebook_refs.prompts(system, state),
        "buttons": [] if readonly else buttons_now(system, state, options),
    }


def _own_phones(system: GameSystem, state: Mapping[str, Any], kind: str, seats: list[str], held: Any) -> list[str]:
    """The seats whose own phone alone makes a move of type ``kind`` now, for a phone with no seat: those a
    phone holds whose private dice the move would use (``Table._check_private`` refuses it from any other phone).
    The move as such a phone sends it: left to the rules' default, or for each seat its seat field offers."""
    spec = system.actions.get(kind)
    if spec is None:
        return []
    tries = [{"type": kind}] + ([{"type": kind, spec.seat_field: s} for s in seats] if spec.seat_field else [])
    owners = set()
    for raw in tries:
        try:
            owners.add(system.private_owner(state, raw, None))  # type: ignore[arg-type]
        except Exception:  # a bug in the hook: the move is left on offer, and its send says what is wrong
            log.exception("%s: private_owner failed on %s", system.id, kind)
    return [s for s in seats if s in owners and s in held]


def buttons_now(system: GameSystem, state: Mapping[str, Any], options: Mapping[str, Any] | None = None) -> list[dict]:
    """The table's buttons A-C as they stand: labelled for now ("Attack Bob (Mars)", "Roll d10" in a
    Basic game) and only those a press would not refuse (button A before a target is declared is not
    offered, so a phone never shows a button only to be told no). Undo and redo are the header's.

    The press itself is what is checked: its action is run as a press runs it (the rules, the handler,
    the laws) on the state, which is left as it was, with dice from a fixed seed: a rule the handler alone
    knows ("Shred has no dice prepared") leaves the button out as surely as an unavailable action."""
    out = []
    for b in system.buttons(state):
        if not callable(b.action):
            continue
        try:
            raw = b.action(state)
            if raw is None:
                continue
            run_action(system, state, raw, rng=random.Random(0), options=options)  # applied to a copy: state stays
        except TablesideError:
            continue
        except Exception:  # a broken binding is reported when its button is pressed, naming it
            log.exception("button %s of %s", b.button, system.id)
            continue
        out.append(b.describe())
    return out
