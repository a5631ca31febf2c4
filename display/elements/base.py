"""What the layout needs from every kind of element: its height at a width and compactness, and its drawing.

Compactness (the level) goes from 0, the roomiest form, to 3, the tightest: inline tracks and dice and
smaller rows at 1, one-line texts at 2, no titles at 3. A kind that has fewer forms ignores the level.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tableside.display.canvas import Box, Canvas

LEVELS = (0, 1, 2, 3)  # compactness: 0 roomy; 1 inline tracks and dice, smaller rows; 2 one-line texts; 3 no titles


@dataclass(frozen=True)
class Kind:
    """How one kind of element (``Element.kind``) is measured and drawn.

    ``measure(c, e, w, level)`` is the height ``e`` takes ``w`` px wide at that compactness;
    ``draw(c, e, x, y, w, level)`` draws it there. ``natural_width`` (optional) is the width
    the element reads best at, where it may span the columns. ``cached``: heights are kept per
    element for the layouts tried (an element made for one layout only is measured each time).
    """

    name: str
    measure: Callable[[Canvas, Any, int, int], int]
    draw: Callable[[Canvas, Any, int, int, int, int], list[tuple[Any, Box]] | None]
    natural_width: Callable[[Canvas, Any], int] | None = None
    cached: bool = True
    # How many of its parts ``e`` leaves out (counted, "+3 more") drawn ``w`` px wide at a level: a grid's
    # columns. The layout never draws the body bigger at the cost of one more (``layout._use_the_space``).
    left_out: Callable[[Canvas, Any, int, int], int] | None = None

    def height(self, c: Canvas, e: Any, w: int, level: int) -> int:
        """``measure``, remembered on the canvas for the layouts tried."""
        if not self.cached:
            return self.measure(c, e, w, level)
        key = (id(e), w, level)
        eh = c.heights.get(key)
        if eh is None:
            eh = c.heights[key] = self.measure(c, e, w, level)
        return eh

    def place(self, c: Canvas, e: Any, x: int, y: int, w: int, level: int) -> list[tuple[Any, Box]]:
        """Draw ``e``; returns what was drawn and where (the element, or the parts that stand for it)."""
        drawn = self.draw(c, e, x, y, w, level)
        if drawn is not None:
            return drawn
        return [(e, (x, y, x + w, y + self.height(c, e, w, level)))]
