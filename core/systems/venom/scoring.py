"""Victory Points and the Medal of Honor (Winning the Game; Glossary, Victory Points)."""

from __future__ import annotations

from typing import Any


def victory_points(player: dict[str, Any]) -> int:
    """Reward Card VP plus the Support Value of every VENOM Leader the player captured."""
    return sum(r["vp"] for r in player["rewards"]) + sum(c["vp"] for c in player["leaders"])


def medal_of_honor(players: list[dict[str, Any]]) -> list[str]:
    """Names awarded the Medal of Honor: most VP, then most Leaders captured, else all tied share it."""
    if not players:
        return []
    best = max((victory_points(p), len(p["leaders"])) for p in players)
    return [p["name"] for p in players if (victory_points(p), len(p["leaders"])) == best]
