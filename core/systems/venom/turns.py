"""Commander Token roll-off and Turn Order.

The Commander rolls first and alone takes the Event Phase; play then goes
clockwise (the order players were entered) and a Round begins again when the
Commander's Event Phase comes round.
"""

from __future__ import annotations

from tableside.core.systems.venom import rules


def roll_off(contenders: list[int], faces: list[int]) -> tuple[int | None, list[int]]:
    """One die each: (the Commander, []) or (None, the players tied for highest, who re-roll)."""
    top = max(faces)
    tied = [p for p, face in zip(contenders, faces, strict=True) if face == top]
    return (tied[0], []) if len(tied) == 1 else (None, tied)


def first_phase(player: int, commander: int) -> str:
    """Only the Commander begins their Turn with the Event Phase; others start at Recruitment."""
    return rules.EVENT if player == commander else rules.RECRUITMENT


def next_player(player: int, players: int) -> int:
    return (player + 1) % players


def phase_after(phase: str, attacking: bool) -> str:
    """The phase that follows ``phase`` within a Turn.

    Tactical goes straight to Retirement when no VENOM Leader was chosen: "If you
    are not attacking, move to the Retirement Phase."
    """
    if phase == rules.TACTICAL and not attacking:
        return rules.RETIREMENT
    return rules.PHASES[rules.PHASES.index(phase) + 1]
