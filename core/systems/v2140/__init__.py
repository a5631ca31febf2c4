"""Venus 2140 conflicts (system id ``v2140``): rules in docs/rulebooks/v2140.txt.

The shape every system folder shares: ``system`` (the GameSystem: action types, buttons; ``choices``: their fields
and whose each action is; ``between_scenes``: the effects' and downtime's action types),
``setup`` (options, the starting scene), ``rules`` (the rulebook's numbers and names),
``state`` (participants, whose move, when each action is available), ``laws`` (conservation
laws, corrections), ``prompts``, ``screen``; the actions by concern: ``pool_actions``,
``exchange_actions``, ``goal_actions``, ``followup``; the pure rules: ``pool`` (building a
scene pool, rolling in and tossing), ``exchange`` (normal and risky exchanges, stakes,
returns), ``goals`` (books, goals, Player Points, Murphy), ``initiative``, ``flydice``.
"""

from tableside.core.systems.v2140.system import SYSTEM

__all__ = ["SYSTEM"]
