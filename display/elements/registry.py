"""Which module measures and draws each kind of element (``Element.kind``): the layout asks here, never by type."""

from __future__ import annotations

from typing import Any

from tableside.display.elements import bars, dice, grid, text, track, track_row, track_stack
from tableside.display.elements.base import Kind

KINDS: dict[str, Kind] = {
    k.name: k for k in (track.KIND, bars.KIND, grid.KIND, dice.KIND, text.KIND, track_row.KIND, track_stack.KIND)
}


def kind_of(e: Any) -> Kind:
    """The kind that draws ``e``; key figures are not here: they go in the strip (``figure``)."""
    try:
        return KINDS[e.kind]
    except KeyError:
        raise ValueError(f"no renderer for screen element kind {e.kind!r}; known: {', '.join(KINDS)}") from None
