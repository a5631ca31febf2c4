"""VENOM Assault (rulebook: docs/rulebooks/venom.txt): Event deck, tracks, Combat Dice, Medal of Honor.

The shape every system folder shares: ``system`` (the GameSystem: action types, buttons;
``choices``: the fields of its actions and what they offer),
``setup`` (options, the starting state), ``rules`` (the rulebook's numbers and names),
``state`` (look-ups, when each action is available, ``derive``), ``laws`` (conservation
laws, corrections), ``prompts``, ``screen``; the actions by concern: ``turn_actions`` and
``combat_actions``; the pure rules: ``deck`` (Event deck counts), ``combat`` (tracks,
successes, capture chance), ``scoring`` (Victory Points, Medal of Honor), ``turns``
(Commander roll-off, Turn Order), ``rolls`` (the last roll's record).
"""

from __future__ import annotations

from tableside.core.systems.venom.system import SYSTEM, VenomAssault

__all__ = ["SYSTEM", "VenomAssault"]
