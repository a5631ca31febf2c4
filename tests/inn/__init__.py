"""Inn, a small game system for the core's own decisions (tests/test_system_*.py): two seats, two phases, a
prompt the buttons answer, a seat's own action, a private roll, a conservation law (the coins held and in the
purse are 10) and corrections with a balance pile. A folder as docs/adding-a-system.md lays one out, built only
from what a system's author has (``tableside.core.system``, ``tableside.core.screen``)."""

from tests.inn.system import Inn

__all__ = ["Inn"]
