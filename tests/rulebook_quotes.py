"""Rulebook quotes in tests: ``quoted`` fails when a line is not in the rulebook, so a quote cannot drift."""

from __future__ import annotations

from functools import cache
from pathlib import Path

RULEBOOKS = Path(__file__).resolve().parents[1] / "docs" / "rulebooks"


def _plain(text: str) -> str:
    return " ".join(
        text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"').split()
    )


@cache
def _rulebook(system: str) -> str:
    return _plain((RULEBOOKS / f"{system}.txt").read_text())


def quoted(system: str, line: str) -> str:
    """The line as docs/rulebooks/<system>.txt prints it (straight quotes for curly ones)."""
    assert _plain(line) in _rulebook(system), f"not in the {system} rulebook: {line!r}"
    return line
