"""Rule texts marked for translation where they are built (#38): the core speaks English and marks each text
with ``N_`` (core/text.py), and the phone's layer gives it in the phone's language when the catalog has it.

The German catalog need not hold every rule text (a later language can follow, as German does), but every
entry it holds must keep the msgid's placeholders, and a marked refusal reaches a German phone in German."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import tableside.core
from babel.messages.extract import extract_from_dir
from tableside.core.errors import RuleError
from tableside.core.text import N_, Marked
from tableside.webui import i18n

from tests.test_i18n import placeholders
from tests.test_wrong_host_page import CODE, client  # noqa: F401 (a fixture)

CORE = Path(tableside.core.__file__).parent
AUTH = {"Authorization": f"Bearer {CODE}"}


def marked() -> dict[str, str]:
    """Every msgid the core marks with ``N_``, and where (Babel's own Python extractor, as a catalog update runs it)."""
    found = {}
    for name, _line, message, _comments, _context in extract_from_dir(
        CORE, method_map=[("**.py", "python")], keywords={"N_": None}
    ):
        if isinstance(message, str):
            found[message] = name
    return found


def test_a_marked_text_is_its_english_words_and_keeps_its_msgid_through_a_worker():
    text = N_("{label} must be at most {maximum}, got {got}", label="Health", maximum=8, got=9)
    assert text == "Health must be at most 8, got 9" and isinstance(text, str)
    back = pickle.loads(pickle.dumps(text))
    assert isinstance(back, Marked) and back.msgid == text.msgid and back.params == text.params


def test_every_marked_msgid_is_a_literal_with_names_and_its_german_keeps_them():
    found = marked()
    assert "{label} must be at most {maximum}, got {got}" in found  # the extractor sees the core's marks
    unnamed = sorted(m for m in found if "" in placeholders(m) or "{}" in m)
    assert unnamed == [], f"placeholders need names, so a translation can move them: {unnamed}"
    german = i18n.catalog("de")
    wrong = sorted(m for m in found if m in german and placeholders(m) != placeholders(german[m]))
    assert wrong == [], f"German entries whose placeholders differ from the core's msgid: {wrong}"


def literal(call: ast.Call) -> bool:
    return bool(call.args) and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)


def test_n_is_called_with_a_literal_msgid_so_the_extractor_can_read_it():
    dynamic = []
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "N_" and not literal(node):
                dynamic.append(f"{path.relative_to(CORE)}:{node.lineno}")
    assert dynamic == [], f"N_ with a msgid that is not a string literal: {dynamic}"


def test_a_marked_refusal_reaches_a_german_phone_in_german_and_an_english_phone_unchanged(client):  # noqa: F811
    client.post("/api/sessions", json={"system": "toy"}, headers=AUTH)
    act = {"type": "add", "points": 51}
    de = client.post("/api/sessions/active/actions", json=act, headers={**AUTH, "Accept-Language": "de"})
    assert de.status_code == 422 and "darf höchstens 50 sein, nicht 51" in de.get_json()["error"], de.get_json()
    en = client.post("/api/sessions/active/actions", json=act, headers={**AUTH, "Accept-Language": "en"})
    assert en.status_code == 422 and en.get_json()["error"].endswith("must be at most 50, got 51")


def test_a_catalog_entry_with_a_wrong_placeholder_gives_the_english_never_an_error(monkeypatch):
    from flask import Flask

    monkeypatch.setitem(i18n.catalog("de"), "{label} must be at most {maximum}, got {got}", "{labl} höchstens")
    text = N_("{label} must be at most {maximum}, got {got}", label="Health", maximum=8, got=9)
    with Flask(__name__).test_request_context(headers={"Accept-Language": "de"}):
        assert i18n.say(text) == "Health must be at most 8, got 9"
        assert i18n.say(RuleError("plain words").message) == "plain words"


ERRORS = {"RuleError", "BadRequest", "NotFound", "Conflict", "SeatGone", "TablesideError"}
# Refusals still built from bare English (a literal or an f-string), per module: the marking is under way (#38),
# and each module leaves this table once its refusals are all N_(...). The test fails if a module gains one.
UNMARKED = {
    "fields.py": 5,
    "recorder.py": 1,
    "store.py": 1,
    "table.py": 3,
}


def bare_refusals() -> dict[str, int]:
    """Per module of the core, the refusals raised with a literal or f-string message instead of ``N_``."""
    found: dict[str, int] = {}
    for path in sorted(CORE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in ERRORS and isinstance(node.args[0], ast.Constant | ast.JoinedStr):
                key = str(path.relative_to(CORE))
                found[key] = found.get(key, 0) + 1
    return found


def test_every_refusal_the_core_builds_is_marked_or_still_counted_as_unmarked():
    found = bare_refusals()
    grown = {m: n for m, n in found.items() if n > UNMARKED.get(m, 0)}
    assert grown == {}, f"refusals built without N_ (mark them: core/text.py): {grown}"
    stale = {m: (n, found.get(m, 0)) for m, n in UNMARKED.items() if found.get(m, 0) < n}
    assert stale == {}, f"fewer bare refusals than UNMARKED says (lower or drop the rows): {stale}"
