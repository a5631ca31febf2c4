"""Builders for Venusian Vegas states, through the real rule functions (no hand-made states)."""

from __future__ import annotations

from typing import Any

from tableside.core.systems.vegas import rounds, setup

NAMES = ["Ann", "Bob", "Cy"]
# Setup choices that leave every board different: Ann Team+Game, Bob Game+Inspector, ...
DEFAULT_SETUP = {
    "Ann": ["Team", "Game", "Bot"],
    "Bob": ["Game", "Inspector", "Mobster"],
    "Cy": ["Bot", "Mobster", "Team"],
    "Di": ["Inspector", "Bot", "Game"],
    "Ed": ["Team", "Mobster", "Inspector"],
}


def new_game(names: list[str] | None = None, **options: Any) -> dict[str, Any]:
    return setup.initial_state({"players": list(names or NAMES), **options})


def after_setup(
    names: list[str] | None = None, choices: dict[str, list[str]] | None = None, **options: Any
) -> dict[str, Any]:
    state = new_game(names, **options)
    wanted = 3 if len(state["players"]) == 5 else 2
    for player in state["players"]:
        picks = (choices or {}).get(player) or DEFAULT_SETUP.get(player, ["Bot", "Mobster", "Team"])
        setup.choose_setup_tracks(state, player, picks[:wanted])
    return state


def in_round(
    names: list[str] | None = None, leader: str | None = None, track: str = "Game", **options: Any
) -> dict[str, Any]:
    """Round 1 under way: ``leader`` (default: the first tied player) took a free increase of ``track``."""
    state = after_setup(names, **options)
    rounds.start_round(state)
    rounds.free_increase(state, track, leader or state["furthest_behind"][0])
    return state
