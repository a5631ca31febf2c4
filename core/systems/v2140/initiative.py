"""Initiative: seating order by default, or bids of dice from the scene pools.

"Why not just go in the order people are seated, first one way and then the other? If you
like, each player can put in a number of dice from their scene pool. The GM can add dice for
any individual character he wants to go first. ... Each set of initiative dice is totaled, with
the player with the highest total going first."
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def seating_order(seats: Sequence[str], reverse: bool = False) -> list[str]:
    """The order people sit in; ``reverse`` for "first one way and then the other"."""
    return list(reversed(seats)) if reverse else list(seats)


def bid_order(seats: Sequence[str], bids: Mapping[str, Sequence[int]]) -> list[str]:
    """Highest bid total first; equal totals (and no bid, a total of 0) keep seating order.

    Shred bids a single 4 and Jack declines: Shred goes first.
    """
    place = {name: i for i, name in enumerate(seats)}
    return sorted(seats, key=lambda name: (-sum(bids.get(name, ())), place[name]))


def totals(seats: Sequence[str], bids: Mapping[str, Sequence[int]]) -> dict[str, int]:
    return {name: sum(bids.get(name, ())) for name in seats}
