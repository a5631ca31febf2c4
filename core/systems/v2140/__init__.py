"""Venus 2140 conflicts (system id ``v2140``): rules in docs/rulebooks/v2140.txt.

Modules: rules (the rulebook's numbers and names), pool (building a scene pool, rolling
in and tossing), exchange (normal and risky exchanges, stakes, returns), goals (books,
goals, Player Points, Murphy), initiative, flydice.
"""

from tableside.core.systems.v2140.system import SYSTEM

__all__ = ["SYSTEM"]
