"""Statistics of a random walk: actions tried, accepted, and refused by reason, printed by the walk tests.

A walk that never reaches a branch proves nothing about it, so the walks print what they did
(``pytest -s`` shows it; it is also in the report of a failing test) and assert that every
action they exist to exercise was accepted at least once.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable


class WalkStats:
    """Counts per action type: tried, accepted, and refusals grouped by their reason in words."""

    def __init__(self, name: str, names: Iterable[str] = ()) -> None:
        self.name = name
        self.names = sorted(set(names), key=len, reverse=True)  # players' names, folded out of the reasons
        self.tried: Counter[str] = Counter()
        self.accepted: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()

    def reason(self, message: str) -> str:
        """A refusal with its particulars (names, numbers, cards) folded, so like refusals count together."""
        text = message
        for name in self.names:
            text = text.replace(name, "NAME")
        text = re.sub(r"\d+", "N", text)
        return text[:90]

    def record(self, action_type: str, refusal: Exception | None = None) -> None:
        self.tried[action_type] += 1
        if refusal is None:
            self.accepted[action_type] += 1
        else:
            self.refused[f"{action_type}: {self.reason(str(refusal))}"] += 1

    def refusals_matching(self, words: str) -> int:
        return sum(n for reason, n in self.refused.items() if words in reason)

    def report(self) -> str:
        lines = [f"{self.name}: {sum(self.tried.values())} actions tried, {sum(self.accepted.values())} accepted"]
        for action_type in sorted(self.tried):
            lines.append(f"  {action_type}: tried {self.tried[action_type]}, accepted {self.accepted[action_type]}")
        lines.append("  refused, by reason:")
        lines += [f"    {n:5d}  {reason}" for reason, n in self.refused.most_common()]
        return "\n".join(lines)

    def never_accepted(self, action_types: Iterable[str]) -> list[str]:
        """Action types never accepted; ``"buy_goal+restricted"`` means a ``buy_goal`` recorded with that variant
        (the walk records ``"buy_goal+chart_goal+restricted"`` when it used both)."""

        def accepted(wanted: str) -> bool:
            base, *parts = wanted.split("+")
            for kind, n in self.accepted.items():
                have_base, *have = kind.split("+")
                if n and have_base == base and all(p in have for p in parts):
                    return True
            return False

        return [t for t in action_types if not accepted(t)]
