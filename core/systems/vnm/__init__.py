"""Venus Needs Men (system id ``vnm``): rules in ../shared/seeds/000_7c6d3bbdb6ee37f8.txt.

Modules: rules (the rulebook's numbers), setup (options, starting state), table
(shared guards), fleet (build, attack), population, research, zap, turns,
dice (d10 odds), screen, system (action types, buttons, ``SYSTEM``).
"""

from core.systems.vnm.system import SYSTEM

__all__ = ["SYSTEM"]
