"""The panel's own errors in the phone's language (#38): every refusal the web layer builds itself goes through
``i18n.gettext`` (or ``i18n.translate`` for the server's own, answered before Flask), the German catalog holds
each of them with the same placeholders, and a German phone reads them in German while English stays as it was."""

from __future__ import annotations

import ast
from pathlib import Path

import h11
import tableside.webui
from babel.messages.extract import extract_from_dir
from tableside.core.text import N_
from tableside.webui import i18n

from tests.test_i18n import placeholders
from tests.test_wrong_host_page import CODE, client  # noqa: F401 (a fixture)

WEBUI = Path(tableside.webui.__file__).parent
ERRORS = {"RuleError", "BadRequest", "NotFound", "Conflict", "SeatGone", "TablesideError", "TooMany", "Refused"}
WORDY = {"error", "said", "note"}  # keyword arguments a phone reads as words (jsonify(error=...), said=...)
# Functions whose returned string is a refusal (app.guard_request answers it as the error).
REFUSERS = {"cross_site", "json_body_refusal"}
DE = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}


def bare(node: ast.AST | None) -> bool:
    """A text a phone would read in English whatever its language: a literal with a letter, or an f-string."""
    if isinstance(node, ast.JoinedStr):
        return True
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and any(c.isalpha() for c in node.value)


def bare_words(source: str) -> list[int]:
    """Lines of ``source`` where a refusal or a worded answer is built outside gettext."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in ERRORS and node.args and bare(node.args[0]):
                found.append(node.lineno)
            found += [node.lineno for k in node.keywords if k.arg in WORDY and bare(k.value)]
            if name == "dumps" and node.args and isinstance(node.args[0], ast.Dict):
                found += [
                    node.lineno
                    for k, v in zip(node.args[0].keys, node.args[0].values, strict=True)
                    if isinstance(k, ast.Constant) and k.value == "error" and bare(v)
                ]
        if isinstance(node, ast.FunctionDef) and node.name in REFUSERS:
            found += [r.lineno for r in ast.walk(node) if isinstance(r, ast.Return) and bare(r.value)]
    return sorted(found)


def test_the_finder_sees_each_kind_of_bare_refusal():
    source = (
        "def f(x):\n"
        "    raise BadRequest(f'no {x}')\n"
        "    raise NotFound('no such thing')\n"
        "    return jsonify(error='nope'), 400\n"
        "    body = json.dumps({'error': 'broken'})\n"
        "    raise BadRequest(gettext('no {x}', x=x))\n"
        "def cross_site(m):\n"
        "    return f'from {m}'\n"
    )
    assert bare_words(source) == [2, 3, 4, 5, 8]


def test_no_refusal_of_the_web_layer_is_built_outside_gettext():
    found = {}
    for path in sorted(WEBUI.glob("*.py")):
        lines = bare_words(path.read_text())
        if lines:
            found[path.name] = lines
    assert found == {}, f"refusals built from bare English (wrap them in i18n.gettext): {found}"


def web_msgids() -> dict[str, str]:
    """Every msgid the web layer asks for, and where (Babel's own extractor, as a catalog update runs it)."""
    found = {}
    for name, line, message, _c, _ctx in extract_from_dir(
        WEBUI, method_map=[("*.py", "python")], keywords={"gettext": None, "translate": (2,)}
    ):
        if isinstance(message, str):
            found[message] = f"{name}:{line}"
    return found


def test_every_msgid_of_the_web_layer_has_german_with_the_same_placeholders():
    found = web_msgids()
    assert "that join code is not right: it is shown on the e-paper and at start-up" in found
    assert "the request body is too large (at most {size} KiB)" in found  # webui.i18n.server_words
    german = i18n.catalog("de")
    missing = sorted(f"{where}: {m}" for m, where in found.items() if m not in german)
    assert missing == [], f"web layer msgids with no German msgstr: {missing}"
    wrong = sorted(m for m in found if placeholders(m) != placeholders(german[m]))
    assert wrong == [], f"German entries whose placeholders differ: {wrong}"


def test_a_german_phone_reads_the_panels_refusals_in_german_and_english_is_unchanged(client):  # noqa: F811
    wrong = client.get("/api/sessions", headers={"Authorization": "Bearer WRONG1", **DE})
    assert wrong.status_code == 401
    assert (
        wrong.get_json()["error"]
        == "dieser Beitrittscode stimmt nicht: er steht auf dem E-Paper und wird beim Start angezeigt"
    )
    english = client.get("/api/sessions", headers={"Authorization": "Bearer WRONG2"})
    assert english.get_json()["error"] == "that join code is not right: it is shown on the e-paper and at start-up"

    auth = {"Authorization": f"Bearer {CODE}"}
    missing = client.get("/api/nothing-here", headers={**auth, **DE})
    assert missing.status_code == 404
    assert missing.get_json()["error"] == "diese Seite oder Route gibt es nicht: /api/nothing-here"
    assert (
        client.get("/api/nothing-here", headers=auth).get_json()["error"] == "no such page or route: /api/nothing-here"
    )

    big = b'{"a": "' + b"x" * (70 * 1024) + b'"}'
    large = client.post("/api/rolls", data=big, content_type="application/json", headers={**auth, **DE})
    assert large.status_code == 413
    assert large.get_json()["error"] == "der Inhalt der Anfrage ist zu groß (höchstens 64 KiB)"
    large = client.post("/api/rolls", data=big, content_type="application/json", headers=auth)
    assert large.get_json()["error"] == "the request body is too large (at most 64 KiB)"

    seat = client.post("/api/sessions", json={"system": "toy"}, headers=auth)
    assert seat.status_code == 201
    page = client.get("/api/sessions?page=x", headers={**auth, **DE})
    assert (
        page.status_code == 400
        and page.get_json()["error"] == "'page' muss eine Seitenzahl ab 1 sein, etwa ?page=2, nicht 'x'"
    )
    page = client.get("/api/sessions?page=x", headers=auth)
    assert page.get_json()["error"] == "'page' must be a page number from 1, such as ?page=2, not 'x'"


def test_the_servers_own_refusals_follow_the_request_heads_language():
    head = h11.Request(method="POST", target="/api/rolls", headers=[("Host", "t"), ("Accept-Language", "de")])
    assert i18n.server_words(head, 413, limit=64) == "der Inhalt der Anfrage ist zu groß (höchstens 64 KiB)"
    assert i18n.server_words(None, 413, limit=64) == "the request body is too large (at most 64 KiB)"
    assert i18n.server_words(head, 400, "bad line").startswith("die Anfrage ist fehlerhaft: bad line")
    english = h11.Request(method="GET", target="/", headers=[("Host", "t"), ("Accept-Language", "fr, en;q=0.5")])
    assert i18n.server_words(english, 431) == "the request headers are too large"


TOY_GERMAN = {"Add points": "Punkte addieren", "Add points.": "Punkte zum Stand addieren."}


def add_action(answer: dict) -> dict:
    return next(a for a in answer["actions"] if a["type"] == "add")


def test_core_built_words_in_answers_reach_a_german_phone_and_no_cache_mixes_languages(client, monkeypatch):  # noqa: F811
    german = i18n.catalog("de")
    for msgid, msgstr in TOY_GERMAN.items():
        monkeypatch.setitem(german, msgid, msgstr)
    auth = {"Authorization": f"Bearer {CODE}"}
    assert client.post("/api/sessions", json={"system": "toy"}, headers=auth).status_code == 201
    en = client.get("/api/sessions/active/actions", headers=auth).get_json()
    assert (add_action(en)["label"], add_action(en)["doc"]) == ("Add points", "Add points.")
    de = client.get("/api/sessions/active/actions", headers={**auth, **DE}).get_json()
    assert (add_action(de)["label"], add_action(de)["doc"]) == ("Punkte addieren", "Punkte zum Stand addieren.")
    # The moment is made once per change for every phone asking the same: per language, never shared across.
    for first, second in ((DE, {}), ({}, DE)):
        client.post("/api/sessions/active/actions", json={"type": "add", "points": 1}, headers=auth)
        one = client.get("/api/sessions/active/moment", headers={**auth, **first}).get_json()
        two = client.get("/api/sessions/active/moment", headers={**auth, **second}).get_json()
        labels = {add_action(one["actions"])["label"], add_action(two["actions"])["label"]}
        assert labels == {"Add points", "Punkte addieren"}, (first, labels)
        assert one["tag"] != two["tag"]  # a patch is never made against the other language's moment
    systems = client.get("/api/systems", headers={**auth, **DE}).get_json()
    toy = next(s for s in systems if s["id"] == "toy")
    assert add_action(toy)["label"] == "Punkte addieren"


def test_an_english_phone_gets_the_answer_itself_at_no_cost():
    from flask import Flask

    answer = {"actions": [{"label": N_("Add points")}], "n": 3}
    with Flask(__name__).test_request_context(headers={"Accept-Language": "en"}):
        assert i18n.spoken(answer) is answer
    with Flask(__name__).test_request_context(headers=DE):
        assert i18n.spoken(answer) == answer and i18n.spoken(answer) is not answer  # no German: its English
