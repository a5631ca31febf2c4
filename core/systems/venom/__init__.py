"""VENOM Assault (rulebook: shared/seeds/004): Event deck, tracks, Combat Dice, Medal of Honor.

Modules: ``rules`` (the rulebook's numbers and names), ``deck`` (Event deck
counts), ``combat`` (tracks, successes, capture chance), ``scoring`` (Victory
Points, Medal of Honor), ``turns`` (Commander roll-off, Turn Order), ``state``,
the handlers in ``turn_actions`` and ``combat_actions``, ``screen`` and ``plugin``.
"""

from __future__ import annotations

from core.systems.venom.plugin import SYSTEM, VenomAssault

__all__ = ["SYSTEM", "VenomAssault"]
