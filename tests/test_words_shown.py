"""Words a player would say (#36): every string the panel and the e-paper show, listed, and no code in them.

The strings are listed two ways:

- **from play**: each system's game as its docs page plays it (docs/systems/*.md, through tests/docs_steps)
  against a real ``tableside serve``; after every step, every string of the answer (the change's summary, a
  refusal), of the moment (the prompts, the screen model the e-paper and the board draw) and of the actions
  the table offers (labels, help, choices, reasons for "not now");
- **from the code**: every refusal the rule code can raise (``raise RuleError(...)`` in core/systems/, its
  placeholders filled with a name), and the words of the panel's page template.

Each string is checked against the shapes a player would never say: code names (``set_tech``), a button's
letter used as a verb ("A rolls them", "or B at random"), a bare list of faces ("rolled [4, 5]"), a die shown
as an equation ("d4 showed 1 -> 1"), and a doubled or empty name ("Ann Ann", ": Shred +1 book", "()").
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import docs_steps
from tests.live import Process

REPO = Path(__file__).resolve().parents[1]
SYSTEMS = ["vnm", "venom", "vegas", "v2140"]

# (name, shape, why): a string matching ``shape`` anywhere is a leak.
SHAPES = [
    ("code name", re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b"), "an API or Python name"),
    ("button letter as a verb", re.compile(r"(?<![\w(])(?<!button )[A-D] (?:rolls?|resolves?|picks?|ends?)\b"), ""),
    ("button letter as a verb", re.compile(r"\bor [A-D] (?:at random|to)\b"), ""),
    ("bare list of faces", re.compile(r"\[\s*\d+(?:\s*,\s*\d+)*\s*\]"), "faces are said '4 and 5'"),
    ("die as an equation", re.compile(r"\bd\d+ showed\b"), ""),
    ("doubled name", re.compile(r"\b([A-Z][a-z]+) \1\b"), ""),
    ("empty name", re.compile(r"(?:^|[\s(,;]): |\(\s*\)|\bNone\b|\bundefined\b|\bnull\b|\bNaN\b"), ""),
]
# Strings that are not words for a person (ids, keys, values) are not checked: these keys' strings are.
WORDS = {"summary", "text", "error", "label", "help", "doc", "prompt", "reason", "title", "heading", "notes", "lines"}
# A refusal may name a field by its key ("area: China has only 27", "options: first_player Mars is wrong"): the
# phone puts the field's label there (forms.js labelled, games.js optionRefused).
FIELD_KEY = re.compile(r"^options: [a-z_]+:? |^[a-z_]+: ")


def leaks(text: str) -> list[str]:
    """The shapes ``text`` has that a player would never say: "code name: 'set_tech'"."""
    out = []
    for name, shape, _ in SHAPES:
        m = shape.search(text)
        if m:
            out.append(f"{name}: {m.group(0)!r}")
    return out


def words_in(value: Any, key: str | None = None) -> Iterator[str]:
    """Every string a person reads in an answer: under a words key, or anywhere inside a screen model."""
    if isinstance(value, str):
        if key in WORDS:
            yield FIELD_KEY.sub("", value) if key == "error" else value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from words_in(v, k if k in WORDS or key not in WORDS else key)
    elif isinstance(value, list):
        for v in value:
            yield from words_in(v, key)


def test_the_shapes_catch_the_words_the_issue_found_and_pass_a_players_words():
    bad = [
        "set_tech",
        "A rolls them",
        "B resolves",
        "or B at random",
        "rolled [4, 5]",
        "A random player: d4 showed 1 -> 1",
        ": Shred +1 book",
        "Ann Ann plays",
        "Played for None",
    ]
    assert [bool(leaks(b)) for b in bad] == [True] * len(bad), [b for b in bad if not leaks(b)]
    good = [
        "Roll the scene pool (button A)",
        "Resolve the exchange (B)",
        "rolled 4 and 5, missed",
        "A random player: Cy (picked at random: the die showed 3 of 3)",
        "Shred: +1 book",
        "Ann (Venus) vs Bob (Mars)",
        "GM: answer Shred's 6 and 5 with 2 dice",
    ]
    assert [leaks(g) for g in good] == [[]] * len(good)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict[str, dict[str, str]]:
    """Each system's docs game, played: string -> where it was seen (the first step that showed it)."""
    seen: dict[str, dict[str, str]] = {}
    for system in SYSTEMS:
        steps = docs_steps.parse(REPO / "docs" / "systems" / f"{system}.md")
        server = Process(tmp_path_factory.mktemp(f"words-{system}") / "data").start()
        found: dict[str, str] = {}
        try:
            for step in steps:
                status, answer = docs_steps.send(server.port, step)
                where = step.where()
                for s in words_in(answer):
                    found.setdefault(s, where)
                if step.method != "POST":
                    continue
                for path in ("/api/sessions/active/actions", "/api/sessions/active"):
                    status, body = docs_steps.send(
                        server.port,
                        docs_steps.Step("", 0, "GET", path, None, {"Authorization": "Bearer $CODE"}, 200, None, (0, 0)),
                    )
                    if status == 200:
                        for s in words_in(body.get("screen") if path.endswith("active") else body, None):
                            found.setdefault(s, f"{where}, then GET {path}")
                        if path.endswith("active") and isinstance(body.get("screen"), dict):
                            for s in _screen_words(body["screen"]):
                                found.setdefault(s, f"{where}, then the screen model")
        finally:
            server.stop()
        seen[system] = found
    return seen


# Keys of the screen model whose strings are not drawn as words (a correction's state key, a tone or kind).
NOT_DRAWN = {"fix", "tone", "kind", "style", "mark"}


def _screen_words(screen: Any, key: str | None = None) -> Iterator[str]:
    """Every string of the screen model the e-paper and the board draw (cells, labels, titles, notes, ...)."""
    if isinstance(screen, str):
        if key not in NOT_DRAWN:
            yield screen
    elif isinstance(screen, dict):
        for k, v in screen.items():
            yield from _screen_words(v, k)
    elif isinstance(screen, list):
        for v in screen:
            yield from _screen_words(v, key)


@pytest.mark.parametrize("system", SYSTEMS)
def test_no_string_shown_in_a_played_game_has_a_shape_a_player_would_not_say(played, system):
    found = played[system]
    assert len(found) > 100, f"{system}: only {len(found)} strings seen: the walk did not reach the game"
    bad = [f"{where}: {text!r}: {'; '.join(leaks(text))}" for text, where in found.items() if leaks(text)]
    assert not bad, "\n".join(bad)


def _refusals() -> Iterator[tuple[str, str]]:
    """Every ``raise RuleError(...)`` message of the rule code, placeholders filled with a name: (where, text)."""
    for path in sorted((REPO / "core" / "systems").rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            call = node.exc
            if getattr(call.func, "id", getattr(call.func, "attr", None)) != "RuleError" or not call.args:
                continue
            text = _template(call.args[0])
            if text is not None:
                yield f"{path.relative_to(REPO)}:{node.lineno}", text


NAMES = ("Ann", "Bob", "Cy", "Di", "Eve", "Flo", "Gus", "Hal")


def _template(node: ast.AST) -> str | None:
    """A message's fixed words with each placeholder as a name (what most of them are), each a different one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        filled = iter(NAMES * 4)
        return "".join(v.value if isinstance(v, ast.Constant) else next(filled) for v in node.values)
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "N_" and node.args:  # a marked text (#38)
        msgid = _template(node.args[0])
        filled = iter(NAMES * 4)
        return None if msgid is None else re.sub(r"\{\w+\}", lambda _: next(filled), msgid)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _template(node.left), _template(node.right)
        return None if left is None or right is None else left + right
    return None


def test_no_refusal_of_the_rule_code_has_a_shape_a_player_would_not_say():
    refusals = list(_refusals())
    assert len(refusals) > 200, len(refusals)  # every system's refusals, read from the code
    bad = [
        f"{where}: {text!r}: {'; '.join(leaks(FIELD_KEY.sub('', text)))}"
        for where, text in refusals
        if leaks(FIELD_KEY.sub("", text))
    ]
    assert not bad, "\n".join(bad)


def test_the_panels_page_has_no_shape_a_player_would_not_say():
    page = (REPO / "webui" / "templates" / "index.html").read_text()
    # The English page: each catalog call is its msgid (webui/i18n.py), the Jinja tags are no words (#38).
    page = re.sub(r"""\{\{\s*_\((["'])(.*?)\1\)\s*\}\}""", r"\2", page)
    page = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", "", page, flags=re.S)
    text = re.sub(r"<!--.*?-->", " ", page, flags=re.S)
    text = re.sub(r"<[^>]+>", "\n", text)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert "All actions" in lines
    bad = [f"{line!r}: {'; '.join(leaks(line))}" for line in lines if leaks(line)]
    assert not bad, "\n".join(bad)
