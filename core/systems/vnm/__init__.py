"""Venus Needs Men (system id ``vnm``): rules in docs/rulebooks/vnm.txt.

Modules: rules (the rulebook's numbers), setup (options, starting state), table
(shared guards), fleet (build, attack), population, research, zap, turns,
dice (d10 odds), screen, system (action types, buttons, ``SYSTEM``).
"""

from tableside.core.systems.vnm.system import SYSTEM

__all__ = ["SYSTEM"]
