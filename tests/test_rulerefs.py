"""Why, one tap away (#35): every refusal each game system can make rests on a rulebook passage.

The refusals are collected from the rule code itself (every ``RuleError(...)`` call under core/systems/,
by AST), so a new refusal without a reference fails here. Each reference's quote must be in the book
(``tests/rulebook_quotes.quoted``), under its heading; a reading the book leaves open names the New game
setting that holds it instead.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from tableside.core import rulebook_refs
from tableside.core.errors import RuleError
from tableside.core.rulebook_search import BOOKS, book_text
from tableside.core.systems import get_system

from tests.httpapi import api_client, post
from tests.rulebook_quotes import _plain, quoted

SYSTEMS_DIR = Path(__file__).resolve().parents[1] / "core" / "systems"
SYSTEMS = sorted(p.name for p in SYSTEMS_DIR.iterdir() if (p / "rulerefs.py").exists())
CORE_ACTIONS = {"correct", "roll"}  # Tableside's own (fixing a number, a free roll): no rule of a book


def test_every_system_with_a_rulebook_has_its_rule_references():
    """The four systems whose books are in docs/rulebooks/ each keep their references in rulerefs.py."""
    books = {p.stem for p in (SYSTEMS_DIR.parents[1] / "docs" / "rulebooks").glob("*.txt")}
    assert {"vnm", "venom", "vegas", "v2140"} <= books
    assert books & {p.name for p in SYSTEMS_DIR.iterdir()} <= set(SYSTEMS), SYSTEMS


def _calls(node: ast.AST, stem: str, function: str = "") -> list[tuple[str, int, str, str | None]]:
    out = []
    for child in ast.iter_child_nodes(node):
        name = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else function
        if isinstance(child, ast.Call) and getattr(child.func, "id", None) == "RuleError":
            rule = next((k.value for k in child.keywords if k.arg == "rule"), None)
            key = rule.value if isinstance(rule, ast.Constant) else None
            assert rule is None or key, f"{stem}.py:{child.lineno}: rule= must be a key, not an expression"
            out.append((f"{stem}.{name}", child.lineno, ast.unparse(child.args[0]), key))
        out += _calls(child, stem, name)
    return out


def refusals(system: str) -> list[tuple[str, int, str, str | None]]:
    """(``module.function``, line, the message's source, its ``rule=`` key) of each RuleError call."""
    out = []
    for path in sorted((SYSTEMS_DIR / system).glob("*.py")):
        out += _calls(ast.parse(path.read_text()), path.stem)
    return out


def test_the_four_systems_keep_their_references():
    assert SYSTEMS == ["v2140", "vegas", "venom", "vnm"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_refusal_of_the_rule_code_has_a_rule_reference(system):
    found = refusals(system)
    assert len(found) > 30  # the collector reads the rule code, not an empty folder
    rules = rulebook_refs.refs_of(system).RULES
    missing = [
        f"{where}:{line} {message[:70]}"
        for where, line, message, key in found
        if (key or rulebook_refs.default_key(system, where)) not in rules
    ]
    assert not missing, f"{len(missing)} refusals of {system} rest on no rule: " + "\n".join(missing)


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_action_says_the_rule_of_its_not_now_reasons(system):
    rules_of = rulebook_refs.refs_of(system)
    actions = {t for t, spec in get_system(system).all_actions().items() if spec.available is not None}
    missing = sorted(actions - CORE_ACTIONS - set(rules_of.ACTIONS))
    assert not missing
    fields = getattr(rules_of, "FIELDS", {})
    assert set(fields) <= set(get_system(system).all_actions())
    assert set(rules_of.ACTIONS.values()) | set(fields.values()) <= set(rules_of.RULES)


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_quote_is_in_the_book_under_its_heading(system):
    book = _plain(book_text(system))
    option_labels = {o["label"] for o in get_system(system).describe()["options"]}
    for key, rule in rulebook_refs.refs_of(system).RULES.items():
        if rule.own_choice and not rule.setting:  # the book sets no cap: Tableside's own, said so
            assert "Tableside's cap" in rule.note and "the book sets no" in rule.note.lower(), key
            continue
        if rule.own_choice:  # the book is silent: the setting that holds the table's reading is named
            assert rule.note, key
            named = rule.setting.split(" / ")
            assert set(named) <= option_labels, f"{key}: no New game setting {named} in {sorted(option_labels)}"
            continue
        quoted(system, rule.quote)
        line, parts = rulebook_refs.locate(system, rule.quote)
        assert [_plain(p["text"]) for p in parts if p["mark"]] == [_plain(rule.quote)]  # the quote marked, once
        at = book.index(_plain(rule.quote))
        before = book[:at] if rule.heading != BOOKS[system] else BOOKS[system]  # before the first heading: the title
        assert _plain(rule.heading) in before, f"{key}: heading {rule.heading!r} is not before its quote"
        first_words = " ".join(rule.quote.split()[:4])
        assert _plain(first_words) in _plain(book_text(system).splitlines()[line - 1]), (key, line)


def test_a_refusal_gives_its_rule_by_where_it_is_made():
    from tableside.core.systems.vnm import state as vnm_state

    with pytest.raises(RuleError) as refused:
        vnm_state.land_area({"land_areas": []}, "Atlantis")
    assert refused.value.raised_in == "tableside.core.systems.vnm.state:land_area"
    ref = rulebook_refs.reference(refused.value)
    assert ref["key"] == "vnm:earth_areas" and ref["heading"] == "Parts of the Game"
    line = book_text("vnm").splitlines()[ref["line"] - 1]
    assert ref["quote"] in line  # the line the quote starts on, counted from 1
    assert [p["text"] for p in ref["parts"] if p["mark"]] == [ref["quote"]]


def test_a_refusal_of_the_core_names_no_rule():
    assert rulebook_refs.reference(RuleError("nothing to undo")) is None


def test_importing_the_rules_reads_no_book():
    """``import core`` stays pure: the references are read from the book only when one is asked for."""
    probe = (
        "import sys\n"
        "opened = []\n"
        "sys.addaudithook(lambda e, a: opened.append(str(a[0])) if e == 'open' else None)\n"
        "import tableside.core.rulebook_refs\n"
        + "".join(f"import tableside.core.systems.{s}.rulerefs\n" for s in SYSTEMS)
        + "print([p for p in opened if p.endswith('.txt')])\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_refusal_over_http_carries_its_rule_book_heading_quote_and_line(tmp_path):
    with api_client(tmp_path, 1) as client:
        made = post(client, "/api/sessions", {"system": "vnm", "options": {"players": ["Venus", "Mars", "Pluto"]}})
        assert made.status_code == 201, made.get_json()
        r = post(client, "/api/sessions/active/actions", {"type": "collect", "area": "Atlantis", "count": 1})
        assert r.status_code == 422 and "Atlantis" in r.get_json()["error"]
        rule = r.get_json()["rule"]  # a field's choices (core/fields.py): the passage of the action's field
        assert (rule["key"], rule["book"], rule["title"], rule["heading"], rule["line"]) == (
            "vnm:collect",
            "vnm",
            "Venus Needs Men",
            "Population Action",
            132,
        )
        assert book_text("vnm").splitlines()[131].startswith(rule["quote"])
        assert [p["text"] for p in rule["parts"] if p["mark"]] == [rule["quote"]]
        # not available now (the core says it for the action): the action's rule
        r = post(client, "/api/sessions/active/actions", {"type": "research", "upgrade": "Yttrium Alloys"})
        assert r.status_code == 422 and r.get_json()["rule"]["key"] == "vnm:research"
        # a refusal of Tableside itself, not of a book: no rule
        r = post(client, "/api/sessions/active/undo", {})
        assert r.status_code == 422 and "rule" not in r.get_json()


def test_the_table_s_own_choice_says_so_and_names_its_setting(tmp_path):
    with api_client(tmp_path, 1) as client:
        r = post(client, "/api/sessions", {"system": "vegas", "options": {"players": ["Ann", "ann", "Cy"]}})
        assert r.status_code == 422, r.get_json()
        rule = r.get_json()["rule"]
        assert rule["own_choice"] is True and rule["setting"] == "Players" and "quote" not in rule
        assert rule["key"] == "vegas:names" and rule["note"]
