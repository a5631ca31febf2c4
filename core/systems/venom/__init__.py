"""VENOM Assault (rulebook: docs/rulebooks/venom.txt): Event deck, tracks, Combat Dice, Medal of Honor.

Modules: ``rules`` (the rulebook's numbers and names), ``deck`` (Event deck
counts), ``combat`` (tracks, successes, capture chance), ``scoring`` (Victory
Points, Medal of Honor), ``turns`` (Commander roll-off, Turn Order), ``state``,
the handlers in ``turn_actions`` and ``combat_actions``, ``screen`` and ``plugin``.
"""

from __future__ import annotations

from tableside.core.systems.venom.plugin import SYSTEM, VenomAssault

__all__ = ["SYSTEM", "VenomAssault"]
