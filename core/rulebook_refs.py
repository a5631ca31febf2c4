"""Why, one tap away (#35): the rulebook passage a refusal rests on.

Each game system keeps its references next to its rule code, once, in ``core/systems/<id>/rulerefs.py``:
``RULES`` (key -> ``book(heading, quote)``, the book's own words; ``table_choice(setting, note)``,
where the book is silent and the table's setup decides; or ``input_limit(note)``, a cap Tableside puts on
what one entry may hold, far above a game's, where the book sets none) and ``DEFAULTS`` (``"module.function"`` or
``"module"`` -> key, for a refusal that names no ``rule`` of its own) and ``ACTIONS`` (action type -> key,
for the reasons an action is not available now, which the core says for it; ``FIELDS``, where a field's
choices or range rest on another passage than those reasons). Importing this stays pure:
the book is read, to find the quote's line and paragraph, only when a reference is asked for.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

from tableside.core.errors import RuleError

SYSTEMS = "tableside.core.systems"


@dataclass(frozen=True)
class Rule:
    """A passage of the book (``heading`` and the exact ``quote``), or the table's own choice: the
    ``setting`` of the New game form that holds it and a ``note`` on what the book leaves open (with
    neither quote nor setting: Tableside's own input limit, said in the note)."""

    heading: str = ""
    quote: str = ""
    setting: str = ""
    note: str = ""

    @property
    def own_choice(self) -> bool:
        return not self.quote


def book(heading: str, quote: str) -> Rule:
    """The book's words under ``heading``, as printed (a test finds each in docs/rulebooks/)."""
    return Rule(heading=heading, quote=quote)


def table_choice(setting: str, note: str) -> Rule:
    """A reading the book leaves to the table: the New game ``setting`` that holds it, and why."""
    return Rule(setting=setting, note=note)


def input_limit(note: str) -> Rule:
    """A cap on one entry where the book sets none (so a typo cannot fill the card): the note says so."""
    return Rule(note=note)


def refs_of(system: str) -> ModuleType | None:
    """A system's ``rulerefs`` module (None for a system without one)."""
    try:
        return importlib.import_module(f"{SYSTEMS}.{system}.rulerefs")
    except ModuleNotFoundError:
        return None


def action_key(system: str, action_type: str, fields: bool = False) -> str | None:
    """``"<system>:<key>"`` of an action's rule, for the refusals the core makes for it: not available now
    (``ACTIONS``), or, with ``fields``, a field's value out of its choices or range (``FIELDS``, else ``ACTIONS``)."""
    refs = refs_of(system)
    if refs is None:
        return None
    key = (getattr(refs, "FIELDS", {}).get(action_type) if fields else None) or refs.ACTIONS.get(action_type)
    return f"{system}:{key}" if key else None


def prompts(system: Any, state: Any) -> list[dict]:  # a core.system.GameSystem (which imports this module)
    """What the table waits for (``system.pending``), each prompt with ``rule``: the key of its action's rule
    (the first of ``type`` and ``also`` that has one: "move, attack or collect" rests on the one action a
    turn), the one that action's "not now" refusals give, so the phone's "Rule" beside the prompt and the
    refusal of the same move open the same passage. Only the key: the moment is sent after every change,
    and the dialog asks ``GET /api/rules/ref/<key>`` for the passage when it is opened."""
    out = []
    for prompt in system.pending(state):
        described = prompt.describe()
        keys = (action_key(system.id, kind) for kind in (prompt.type, *prompt.also) if kind)
        key = next((k for k in keys if k), None)
        out.append({**described, "rule": key} if key else described)
    return out


def default_key(system: str, where: str) -> str | None:
    """The key ``DEFAULTS`` gives a refusal made in ``where`` (``"module.function"``), else its module's."""
    refs = refs_of(system)
    if refs is None:
        return None
    return refs.DEFAULTS.get(where) or refs.DEFAULTS.get(where.partition(".")[0])


def key_of(error: RuleError) -> tuple[str, str] | None:
    """(system, key) of the rule ``error`` rests on: its own ``rule``, else its place's default."""
    if error.rule and ":" in error.rule:
        system, _, key = error.rule.partition(":")
        return system, key
    module, _, function = error.raised_in.partition(":")
    if not module.startswith(SYSTEMS + "."):
        return None
    system, _, sub = module[len(SYSTEMS) + 1 :].partition(".")
    key = error.rule or default_key(system, f"{sub}.{function}")
    return (system, key) if key else None


def _pattern(quote: str) -> re.Pattern:
    """The quote as the book may print it: any run of whitespace for a space, curly quotes for straight."""
    out = []
    for word in quote.split():
        out.append(
            "".join("['\u2018\u2019]" if c == "'" else '["\u201c\u201d]' if c == '"' else re.escape(c) for c in word)
        )
    return re.compile(r"\s+".join(out))


@cache
def locate(system: str, quote: str) -> tuple[int, list[dict]] | None:
    """The line the quote starts on (from 1) and its paragraph in parts (``mark``: the quote), or None when
    the book does not hold it. Reads the book (once per quote)."""
    from tableside.core import rulebook_search

    pattern = _pattern(quote)
    for passage in rulebook_search.passages(system, rulebook_search.book_text(system)):
        found = pattern.search(passage.text)
        if found:
            text, (start, end) = passage.text, found.span()
            parts = [{"text": text[:start], "mark": False}, {"text": text[start:end], "mark": True}]
            parts.append({"text": text[end:], "mark": False})
            return passage.line + text.count("\n", 0, start), [p for p in parts if p["text"]]
    return None


def describe(system: str, key: str) -> dict | None:
    """A reference as the HTTP API gives it: book, title, heading, quote, line and the paragraph in parts;
    or, for the table's own choice, ``own_choice`` with the setting and the note."""
    from tableside.core.rulebook_search import BOOKS

    refs = refs_of(system)
    rule = refs.RULES.get(key) if refs else None
    if rule is None:
        return None
    out: dict = {"key": f"{system}:{key}", "book": system, "title": BOOKS.get(system, system)}
    if rule.own_choice:
        return {**out, "own_choice": True, "setting": rule.setting or None, "note": rule.note}
    found = locate(system, rule.quote)
    line, parts = found if found else (None, [{"text": rule.quote, "mark": True}])
    return {**out, "heading": rule.heading, "quote": rule.quote, "line": line, "parts": parts}


def reference(error: RuleError) -> dict | None:
    """The reference of a refusal, for its HTTP body (None: a refusal of the core, not of a game's rules)."""
    found = key_of(error)
    return describe(*found) if found else None
