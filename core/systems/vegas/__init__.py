"""Venusian Vegas, the trick-taking card game (rulebook: docs/rulebooks/vegas.txt).

Modules: ``rules`` (the rulebook's numbers and names), ``setup`` (options, the
starting state, the setup increases), ``tracks`` (player boards, overflow VP, VP
spaces), ``vp`` (victory points with the floor, the ledger), ``referee`` (which card
wins a trick, modifier tokens), ``bonuses`` (trick and round bonuses), ``tricks``
(playing a trick, claims, the reveal) and ``rounds`` (resets, furthest behind, end).
"""

from tableside.core.systems.vegas.system import SYSTEM, VenusianVegas

__all__ = ["SYSTEM", "VenusianVegas"]
