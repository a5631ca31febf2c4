"""Rule texts marked for translation where they are built (#38).

The core is pure and speaks English, the rulebooks' language. A refusal, a label or a summary built with
``N_("Health must be {low}-{high}, got {got}", low=1, high=8, got=0)`` is still that English string
(``Marked`` is a ``str``, so every caller, test and log reads it unchanged), but it also carries its msgid
and its parameters, so the phone's layer (``webui.i18n.say``) can give it in the phone's language when
the catalog has it, and a later language can follow by adding a catalog only. Babel's extractor finds
every msgid by the ``N_`` keyword; tests/test_i18n.py checks that no text is built outside it.
"""

from __future__ import annotations


class Marked(str):
    """English words plus the msgid and parameters they were built from."""

    msgid: str
    params: dict[str, object]

    def __new__(cls, msgid: str, params: dict[str, object]) -> Marked:
        self = super().__new__(cls, msgid.format(**params) if params else msgid)
        self.msgid = msgid
        self.params = params
        return self

    def __reduce__(self):  # pickled (a worker process) or copied: the marking travels with the words
        return (Marked, (self.msgid, self.params))


def N_(msgid: str, **params: object) -> Marked:
    """``msgid`` with its ``{name}`` placeholders filled: the English text, marked for translation.

    Parameters that are themselves marked texts (a label inside a refusal) are translated with it."""
    return Marked(msgid, params)
