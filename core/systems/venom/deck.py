"""The Event deck as counts per card kind: the table keeps the real cards.

Tableside only needs to know how many of each kind are left, so it can show
the chance that the next draw is VENOM Strikes! and refuse a draw the deck
cannot give (the rulebook has no Event deck reshuffle).
"""

from __future__ import annotations

from fractions import Fraction

from tableside.core.errors import RuleError
from tableside.core.systems.venom import rules
from tableside.core.text import N_


def build_event_deck(
    players: int,
    venom_strikes_removed: int = 0,
    freedom_squadron_events: int | None = None,
    venom_events: int | None = None,
) -> dict[str, int]:
    """Counts per kind at setup (Game Setup > Difficulty).

    Without a split from the players, the 18 Freedom Squadron and VENOM events
    stay one combined count: the rulebook does not say how many of each there are.
    """
    if not rules.MIN_PLAYERS <= players <= rules.MAX_PLAYERS:
        raise RuleError(N_("VENOM Assault is for 2-5 players, got {players}", players=players))
    if not 0 <= venom_strikes_removed <= rules.MAX_VENOM_STRIKES_REMOVED:
        raise RuleError(
            N_("up to 4 VENOM Strikes! cards may be removed, got {got}", got=venom_strikes_removed),
            rule="strikes_removed",
        )
    quiet = 0 if players >= rules.ALL_IS_QUIET_REMOVED_FROM else rules.ALL_IS_QUIET_CARDS
    deck = {rules.ALL_IS_QUIET: quiet}
    if freedom_squadron_events is None and venom_events is None:
        deck[rules.FS_OR_VENOM] = rules.OTHER_EVENT_CARDS
    else:
        fs, vn = freedom_squadron_events or 0, venom_events or 0
        if fs + vn != rules.OTHER_EVENT_CARDS:
            raise RuleError(
                N_(
                    "Freedom Squadron events ({fs}) and VENOM events ({vn}) must add up to {total}, got {got}",
                    fs=fs,
                    vn=vn,
                    total=rules.OTHER_EVENT_CARDS,
                    got=fs + vn,
                ),
                rule="event_mix",
            )
        deck[rules.FREEDOM_SQUADRON] = fs
        deck[rules.VENOM] = vn
    deck[rules.VENOM_STRIKES] = rules.VENOM_STRIKES_CARDS - venom_strikes_removed
    return deck


def cards_left(deck: dict[str, int]) -> int:
    return sum(deck.values())


def bucket_for(deck: dict[str, int], kind: str) -> str:
    """Which count a drawn card comes off: its own, or the combined FS/VENOM one."""
    if kind in deck:
        return kind
    if rules.FS_OR_VENOM in deck and kind in (rules.FREEDOM_SQUADRON, rules.VENOM):
        return rules.FS_OR_VENOM
    raise RuleError(N_("unknown Event card kind {kind}", kind=repr(kind)))


def take(deck: dict[str, int], kind: str) -> None:
    """Remove one card of ``kind`` from the counts, or say why the deck cannot give it."""
    if cards_left(deck) == 0:
        raise RuleError(N_("the Event deck is empty; the rulebook has no Event deck reshuffle"))
    bucket = bucket_for(deck, kind)
    if deck[bucket] == 0:
        label = "Freedom Squadron or VENOM" if bucket == rules.FS_OR_VENOM else rules.EVENT_NAMES[kind]
        raise RuleError(N_("no {label} Event cards are left in the Event deck", label=label))
    deck[bucket] -= 1


def venom_strikes_chance(deck: dict[str, int]) -> Fraction | None:
    """Exact chance that the next Event card is VENOM Strikes!; None for an empty deck."""
    total = cards_left(deck)
    if total == 0:
        return None
    return Fraction(deck.get(rules.VENOM_STRIKES, 0), total)
