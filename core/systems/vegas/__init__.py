"""Venusian Vegas, the trick-taking card game (rulebook: docs/rulebooks/vegas.txt).

The shape every system folder shares: ``system`` (the GameSystem: action types, buttons),
``setup`` (options, the starting state, the setup increases), ``rules`` (the rulebook's
numbers and names), ``state`` (when each action is available), ``laws`` (conservation laws,
corrections), ``prompts``, ``screen``; the actions: ``actions`` (the handlers), ``tricks``
(playing a trick, claims, the reveal) and ``rounds`` (resets, furthest behind, end); the
pure rules: ``tracks`` (player boards, overflow VP, VP spaces), ``vp`` (victory points with
the floor, the ledger), ``referee`` (which card wins a trick, modifier tokens), ``bonuses``.
"""

from tableside.core.systems.vegas.system import SYSTEM, VenusianVegas

__all__ = ["SYSTEM", "VenusianVegas"]
