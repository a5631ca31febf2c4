"""Venus Needs Men (system id ``vnm``): rules in docs/rulebooks/vnm.txt.

The shape every system folder shares: ``system`` (the GameSystem: action types, buttons;
``choices``: the fields of its actions and what they offer),
``setup`` (options, the starting state), ``rules`` (the rulebook's numbers), ``state``
(look-ups and when each action is available), ``laws`` (conservation laws, corrections),
``prompts`` (what the table waits for), ``screen`` (the e-paper); the actions by concern:
``fleet`` (build, attack), ``population``, ``research``, ``zap``, ``turns``; and ``d10``
(the d10 arithmetic and odds).
"""

from tableside.core.systems.vnm.system import SYSTEM

__all__ = ["SYSTEM"]
