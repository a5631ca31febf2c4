"""Counts as a person reads them: "1 book", "3 books", "1 die", "2 dice", never "book(s)" or "1 dice".

Every phone line, log summary, e-paper text and CLI message that says how many of something goes
through ``plural``, so one rule decides it everywhere (and a new noun with an odd plural is added
to ``IRREGULAR`` once).
"""

from __future__ import annotations

# Nouns whose plural is not the noun + "s" / "es" (the rulebooks' words: a die, two dice).
IRREGULAR = {"die": "dice"}


def plural_of(noun: str) -> str:
    """The plural of ``noun`` (its last word): "dice", "sixes", "Player Points", "matches", "log entries"."""
    head, _, last = noun.rpartition(" ")
    if last in IRREGULAR:
        word = IRREGULAR[last]
    elif last.endswith(("s", "x", "z", "ch", "sh")):
        word = last + "es"
    elif len(last) > 1 and last.endswith("y") and last[-2] not in "aeiou":
        word = last[:-1] + "ies"
    else:
        word = last + "s"
    return f"{head} {word}" if head else word


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` with ``noun`` as a person reads it: "1 book", "0 books", "3 Player Points", "1 die".
    ``many`` overrides the plural for this call (a noun a sentence uses once)."""
    return f"{count} {noun if count == 1 else (many or plural_of(noun))}"


def faces_words(faces) -> str:
    """Dice faces as a person says them: "6", "6 and 5", "6, 5 and 4" (never "[6, 5]" or "65", #36)."""
    words = [str(f) for f in faces]
    if not words:
        return "no dice"
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def counted(count: int, noun: str, forms: dict) -> str:
    """``plural(count, noun)``, or the system's own marked form of it where ``forms`` (noun -> (one, many), each a
    function of the count) has the noun, so a translated sentence counts in its own language (#38)."""
    made = forms.get(noun)
    return plural(count, noun) if made is None else made[count != 1](count)
