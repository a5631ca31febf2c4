"""Search the books (#35): the four rulebooks, cut into passages and searched with SQLite FTS5 on the phone.

Each query a table asks finds the passage the book answers it with first, quoted here from docs/rulebooks;
the user's words can never be read as FTS5's query syntax, and the HTTP answer is JSON with marks as parts.
"""

from __future__ import annotations

import threading

import pytest
from tableside.core.errors import BadRequest
from tableside.core.rulebook_search import BOOKS, RulebookIndex, book_text, match_expression, passages, search

from tests.httpapi import AUTH, api_client

# query: (book, heading, a sentence of the passage, as the rulebook prints it)
FIRST = {
    "Mind Control": (
        "vnm",
        "Mind Control (Mars, Special)",
        "use mind control to take over one target spaceship in the same area",
    ),
    "modifier token": ("vegas", "Modifier tokens", "You may play one modifier token face up along with your card."),
    "Automatic Success": (
        "venom",
        "Glossary of Terms",
        "Automatic Success: Some Abilities can declare Combat Dice as Automatic Successes.",
    ),
    "gone gone gone": ("v2140", "System Glossary", "Any dice you had in your scene pool are gone gone gone."),
}


def _text(result: dict) -> str:
    return "".join(part["text"] for part in result["parts"])


def _marked(result: dict) -> list[str]:
    return [part["text"].lower() for part in result["parts"] if part["mark"]]


@pytest.mark.parametrize("query", sorted(FIRST))
def test_each_question_finds_its_passage_first(query):
    book, heading, sentence = FIRST[query]
    best = search(query)[0]
    assert (best["book"], best["heading"]) == (book, heading)
    assert sentence in _text(best)
    assert book_text(book).splitlines()[best["line"] - 1].startswith(_text(best).splitlines()[0])
    words = {w.lower() for w in query.split()}
    assert {w for w in _marked(best) if w.rstrip("s") in words or w in words}, _marked(best)


def test_the_passages_keep_their_place_and_leave_out_the_headings_and_contents():
    cut = passages("vnm", book_text("vnm"))
    mind = next(p for p in cut if p.text.startswith("When you perform an attack action, each of your spaceships"))
    assert (mind.heading, mind.line) == ("Mind Control (Mars, Special)", 228)
    assert not any(p.heading == "Table of Contents" for p in cut)
    assert not any(p.text == p.heading for p in cut)
    assert {b: len(passages(b, book_text(b))) > 10 for b in BOOKS} == dict.fromkeys(BOOKS, True)


def test_a_quoted_phrase_must_stand_in_that_order():
    assert match_expression('"scene pool" gone') == '"scene pool" "gone"'
    in_order = search('"pool scene"')  # the words, never that phrase: FTS5 finds nothing, then any word
    assert all("pool scene" not in _text(r).lower() for r in in_order)
    phrase = search('"Automatic Successes"')
    assert phrase and all("automatic success" in _text(r).lower() for r in phrase)


@pytest.mark.parametrize(
    "query", ['"', '"gone', "gone*", "NEAR(gone pool)", "-gone", "gone AND", "OR", "heading:gone", "^gone", "(", "'"]
)
def test_the_query_syntax_in_a_users_words_is_never_run(query):
    try:
        results = search(query)
    except BadRequest as refused:  # only for input with no word at all
        assert "no word" in refused.message
        assert not any(ch.isalnum() for ch in query)
    else:
        assert isinstance(results, list)


@pytest.mark.parametrize("query", ["", "   ", "x" * 101, "?!*"])
def test_an_empty_or_long_question_is_refused(query):
    with pytest.raises(BadRequest):
        search(query)


def test_the_book_of_the_game_on_the_table_comes_first_and_its_phase_in_it():
    mixed = search("dice", limit=50)
    assert len({r["book"] for r in mixed}) > 1
    venom = search("dice", system="venom", limit=50)
    books = [r["book"] for r in venom]
    assert books[0] == "venom" and books == sorted(books, key=lambda b: b != "venom")
    combat = search("dice", system="venom", phase="Combat", limit=5)
    assert combat[0]["heading"] == "Combat Phase"
    elsewhere = search("modifier token", system="venom", phase="Setup")  # Vegas has a Setup too: bm25 decides
    assert (elsewhere[0]["book"], elsewhere[0]["line"]) == ("vegas", 41)
    with pytest.raises(BadRequest):
        search("dice", system="chess")


def test_the_index_is_built_once_for_threads_asking_together():
    index = RulebookIndex({"vegas": book_text("vegas")})
    answers = []
    threads = [threading.Thread(target=lambda: answers.append(index.search("token"))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == 8 and all(a == answers[0] and a for a in answers)
    assert index.count() == len(passages("vegas", book_text("vegas")))


@pytest.fixture
def client(tmp_path):
    with api_client(tmp_path, 3) as phone:
        yield phone


def test_the_search_over_http_answers_json_with_marked_parts(client):
    r = client.get("/api/rules/search", query_string={"q": "gone gone gone"}, headers=AUTH)
    assert r.status_code == 200
    body = r.get_json()
    assert body["system"] is None and body["query"] == "gone gone gone"
    best = body["results"][0]
    assert (best["book"], best["title"], best["heading"], best["line"]) == (
        "v2140",
        "Venus 2140",
        "System Glossary",
        218,
    )
    assert _marked(best) == ["gone", "gone", "gone"]


def test_the_search_over_http_puts_the_tables_game_and_phase_first(client):
    assert client.post("/api/sessions", json={"system": "venom"}, headers=AUTH).status_code == 201
    body = client.get("/api/rules/search?q=dice&limit=3", headers=AUTH).get_json()
    assert body["system"] == "venom" and body["phase"] == "Setup"
    assert [r["book"] for r in body["results"]] == ["venom"] * 3
    other = client.get("/api/rules/search?q=dice&system=v2140", headers=AUTH).get_json()
    assert other["results"][0]["book"] == "v2140" and other["phase"] is None


@pytest.mark.parametrize(
    "query", ["q=", "q=" + "a" * 101, "q=dice&system=chess", "q=dice&limit=0", "q=dice&limit=x", "q=%22*"]
)
def test_bad_searches_are_refused_in_words_never_a_500(client, query):
    r = client.get(f"/api/rules/search?{query}", headers=AUTH)
    assert r.status_code == 400 and r.get_json()["error"]


def test_the_search_needs_the_join_code(client):
    assert client.get("/api/rules/search?q=dice").status_code == 401


def test_the_index_is_built_on_first_use_not_on_import():
    fresh = RulebookIndex()
    assert fresh._db is None
    fresh.count()
    assert fresh._db is not None
