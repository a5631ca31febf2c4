"""The panel in the phone's language (#38): every word of the templates is in the catalogs, the German catalog is
complete with matching placeholders, and the language follows Accept-Language unless the phone chose one."""

from __future__ import annotations

import re
import string
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from tableside.webui import i18n

from tests.test_wrong_host_page import BROWSER, CODE, client  # noqa: F401 (a fixture)

TEMPLATES = Path(i18n.__file__).parent / "templates"
CALL = re.compile(r"""\{\{\s*_\((["'])(.*?)\1""")
# Words a page may show outside the catalogs, each with why: the product's name, and symbols that are no word.
ALLOWED = {"Tableside": "the product's name, the same in every language", "✕": "a symbol", "·": "a separator"}
WORDY_ATTRS = ("aria-label", "placeholder", "alt", "title")


SCRIPTS = [*(TEMPLATES.parent / "static" / "js").glob("*.js"), *(TEMPLATES.parent / "static").glob("*.js")]
T_CALL = re.compile(r"""\bt\((["'])((?:\\.|(?!\1).)*)\1""")


def msgids() -> set[str]:
    """Every msgid the templates' ``_()`` and the scripts' ``t()`` ask for."""
    found = {m.group(2) for t in TEMPLATES.glob("*.html") for m in CALL.finditer(t.read_text())}
    return found | {m.group(2).replace('\\"', '"') for p in SCRIPTS for m in T_CALL.finditer(p.read_text())}


class Words(HTMLParser):
    """Text nodes and wordy attributes of a template once its ``{{ _(...) }}`` calls and Jinja tags are removed."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        self.found += [v for k, v in attrs if k in WORDY_ATTRS and v and v.strip()]

    def handle_data(self, data) -> None:
        if data.strip():
            self.found.append(data.strip())


@pytest.mark.parametrize("name", sorted(p.name for p in TEMPLATES.glob("*.html")))
def test_no_template_word_is_outside_the_catalogs(name):
    text = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", "", (TEMPLATES / name).read_text(), flags=re.S)
    parser = Words()
    parser.feed(text)
    stray = [w for w in parser.found if re.search(r"[A-Za-z]", w) and w not in ALLOWED and not w.startswith("<!--")]
    stray = [w for w in stray for part in [re.sub(r"[\s.:·]+", "", w)] if part and part not in ALLOWED]
    assert stray == [], f"{name}: words outside {{{{ _(...) }}}}: {stray}"


def placeholders(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_the_german_catalog_is_complete_and_its_placeholders_match():
    with (i18n.FOLDER / "de" / "LC_MESSAGES" / "messages.po").open("rb") as f:
        po = read_po(f, locale="de")
    entries = {m.id: m.string for m in po if m.id}
    missing = sorted(msgids() - set(entries))
    assert missing == [], f"msgids used in templates but not in de/messages.po: {missing}"
    empty = sorted(k for k, v in entries.items() if not v)
    assert empty == [], f"no German msgstr: {empty}"
    wrong = sorted(k for k, v in entries.items() if placeholders(k) != placeholders(v))
    assert wrong == [], f"placeholders differ: {wrong}"


def join(client):  # noqa: F811
    assert client.get(f"/join?code={CODE}").status_code == 302


def test_the_page_follows_accept_language_and_english_is_the_templates_own_words(client):  # noqa: F811
    join(client)
    de = client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}).get_data(as_text=True)
    assert '<html lang="de">' in de and ">Rückgängig</button>" in de and ">Verlauf</button>" in de
    en = client.get("/", headers={"Accept-Language": "fr-FR,en;q=0.5"}).get_data(as_text=True)
    assert '<html lang="en">' in en and '<button id="undo" type="button">Undo</button>' in en


def test_the_phones_choice_wins_and_a_bad_language_changes_nothing(client):  # noqa: F811
    join(client)
    r = client.get("/lang/de?next=/dice")
    assert r.status_code == 302 and r.headers["Location"] == "/dice" and "lang=de" in r.headers["Set-Cookie"]
    page = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert ">Rückgängig</button>" in page
    bad = client.get("/lang/xx?next=https://evil.example/")
    assert bad.status_code == 400 and "unbekannte Sprache 'xx'" in bad.get_data(as_text=True)  # in its language
    assert ">Rückgängig</button>" in client.get("/").get_data(as_text=True)  # the choice is unchanged
    assert client.get("/lang/en?next=https://evil.example/").headers["Location"] == "/"  # never off the table


def test_the_join_and_wrong_host_pages_speak_german(client):  # noqa: F811
    page = client.get("/join", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Dem Tisch beitreten" in page and "Beitrittscode" in page
    r = client.get("/", headers={"Host": "x.fritz.box", "Accept": BROWSER, "Accept-Language": "de"})
    assert r.status_code == 400 and "Dieser Tisch antwortet nicht auf" in r.get_data(as_text=True)
    refused = r.get_data(as_text=True)  # its paragraphs too, their addresses and setting still code
    assert '<html lang="de">' in refused and "Öffne die Adresse, die der Tisch" in refused
    assert "<code>http://NAME.local:8080/</code> mit dem Namen des Tisches" in refused
    assert '<code>[server] names = ["x.fritz.box"]</code>' in refused


def test_the_dice_page_carries_this_phones_catalog_for_its_script(client):  # noqa: F811
    join(client)
    de = client.get("/dice", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert '<script type="application/json" id="words">' in de and "nicht gekoppelt" in de
    en = client.get("/dice", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<script type="application/json" id="words">{}</script>' in en  # English: the script's own words


# The scripts whose words are all in the catalogs; the other modules of webui/static/js/ still write English
# (#38, the next step): each joins this list once its words go through t().
# Every script of the panel: a new one is checked the day it is added (#38: no script string outside the catalogs).
TRANSLATED = sorted(p.name for p in SCRIPTS)
LITERAL = re.compile(r"""(["'`])((?:\\.|(?!\1).)*)\1""")
# A literal that is a phrase a person reads: a capital, a word and a space (CSS classes, ids, URLs, event names,
# JSON keys and HTTP headers have no space or start lower-case; "Content-Type" has no space).
PHRASE = re.compile(r"^[A-Z][a-z]+[ ,:]")


@pytest.mark.parametrize("name", TRANSLATED)
def test_no_phrase_of_a_translated_script_is_outside_t(name):
    path = next(p for p in SCRIPTS if p.name == name)
    code = re.sub(r"^\s*//.*$", "", path.read_text(), flags=re.M)
    wrapped = {m.start(1) for m in T_CALL.finditer(code)}
    stray = [m.group(2) for m in LITERAL.finditer(code) if PHRASE.match(m.group(2)) and m.start() not in wrapped]
    assert stray == [], f"{name}: phrases outside t(): {stray}"


def test_no_msgid_is_in_the_german_catalog_twice():
    """A merge that keeps both sides of the catalog would keep a msgid twice: Babel reads the last one silently."""
    lines = (i18n.FOLDER / "de" / "LC_MESSAGES" / "messages.po").read_text().splitlines()
    ids = [line for line in lines if line.startswith('msgid "') and line != 'msgid ""']
    twice = sorted(line for line, n in Counter(ids).items() if n > 1)
    assert twice == [], f"msgids in de/messages.po more than once: {twice}"


def test_a_german_page_carries_only_the_scripts_words_not_the_whole_catalog(client):  # noqa: F811
    join(client)
    page = client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    words = page.split('<script type="application/json" id="words">', 1)[1].split("</script>", 1)[0]
    assert "Rückgängig" in words or "Verlauf" in words  # the scripts' own words are there
    assert "must be at most" not in words  # a server-built refusal reaches the phone translated already
    assert len(words.encode()) < 40_000, len(words.encode())  # the whole catalog was 159 kB
