"""The panel's own words in the phone's language (#38): gettext catalogs (webui/translations/<lang>/LC_MESSAGES/
messages.po) read with Babel at first use, so nothing compiled is committed, and the language negotiated per request.

The phone's choice (the ``lang`` cookie, set from the panel's language control) wins over its Accept-Language;
English is the source language (the msgids), so an English page is the templates' own words, unchanged."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from flask import Flask, Response, has_request_context, redirect, request
from tableside.core.text import Marked

FOLDER = Path(__file__).parent / "translations"
SOURCE = "en"
LANGUAGES = {"en": "English", "de": "Deutsch"}  # code -> its own name, as the language control lists it
COOKIE = "lang"


@cache
def catalog(lang: str) -> dict[str, str]:
    """msgid -> msgstr for ``lang`` (empty for the source language or a missing file); read once per process."""
    path = FOLDER / lang / "LC_MESSAGES" / "messages.po"
    if lang == SOURCE or not path.is_file():
        return {}
    from babel.messages.pofile import read_po  # Babel's 8 ms import only once a phone asks for a language we have

    with path.open("rb") as f:
        po = read_po(f, locale=lang)
    return {m.id: m.string for m in po if m.id and isinstance(m.id, str) and m.string and not m.fuzzy}


SCRIPTS = Path(__file__).parent / "static"
# A t("...") call in a script, as tests/test_i18n.py reads it: the msgids the page's own scripts translate.
T_CALL = re.compile(r"""\bt\((["'])((?:\\.|(?!\1).)*)\1""")


@cache
def script_catalog(lang: str) -> dict[str, str]:
    """The part of ``lang``'s catalog the page's scripts ask for with t(), embedded in the page: the server's
    own words (refusals, the systems' labels) reach the phone already in its language, so a German first load
    carries these few hundred entries, not the whole catalog (1,600 entries, 159 kB)."""
    words = catalog(lang)
    if not words:
        return {}
    asked = {
        m.group(2).replace('\\"', '"') for path in SCRIPTS.rglob("*.js") for m in T_CALL.finditer(path.read_text())
    }
    return {msgid: words[msgid] for msgid in sorted(asked) if msgid in words}


def language() -> str:
    """The request's language: the phone's own choice (cookie) if it is one we have, else the best match of its
    Accept-Language (werkzeug's public negotiation), else English; English outside a request (a script, a test
    calling the web layer's classes directly)."""
    if not has_request_context():
        return SOURCE
    chosen = request.cookies.get(COOKIE, "")[:8]
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES), default=SOURCE) or SOURCE


def gettext(msgid: str, /, **params: object) -> str:
    """``msgid`` in the request's language, ``{name}`` placeholders filled from ``params``."""
    return translate(language(), msgid, **params)


def translate(lang: str, msgid: str, /, **params: object) -> str:
    """``msgid`` in ``lang`` (the server's own refusals, answered before Flask sees a request)."""
    text = catalog(lang).get(msgid, msgid)
    return text.format(**params) if params else text


def server_words(head: Any, status: int, detail: str = "", limit: int = 0) -> str:
    """The server's own refusal (webui.server answers it before Flask sees the request), in the language of
    the request's head when it arrived: 413 (``limit`` KiB), 431, 500, else a malformed request (``detail``)."""
    lang = head_language(head)
    if status == 413:
        return translate(lang, "the request body is too large (at most {size} KiB)", size=limit)
    if status == 431:
        return translate(lang, "the request headers are too large")
    if status == 500:
        return translate(lang, "Tableside hit an unexpected problem; nothing was lost")
    return translate(lang, "the request is malformed: {detail}", detail=detail[:200])


def head_language(head: Any) -> str:
    """The language for the server's own refusals (webui.server, before Flask sees the request): the best we have
    for the Accept-Language of an h11 request head (werkzeug's public parser), else English; English without one."""
    from werkzeug.datastructures import LanguageAccept
    from werkzeug.http import parse_accept_header

    said = next((v for k, v in getattr(head, "headers", ()) if k == b"accept-language"), b"")
    found = parse_accept_header(said[:200].decode("latin-1"), LanguageAccept)
    return found.best_match(list(LANGUAGES), default=SOURCE) or SOURCE


def say(text: object) -> str:
    """A text the core built, in the request's language: a ``Marked`` text (core/text.py) whose msgid the
    catalog has is given translated, its marked parameters too; anything else is its own words, unchanged."""
    if not isinstance(text, Marked):
        return str(text)
    return _said(text, catalog(language()))


def _said(text: Marked, words: dict[str, str]) -> str:
    """``text`` in the language of ``words`` (a catalog); its English when the catalog lacks it."""
    found = words.get(text.msgid)
    if found is None:  # the whole sentence in English, never half of it in another language
        return str(text)
    params = {k: _said(v, words) if isinstance(v, Marked) else v for k, v in text.params.items()}
    try:
        return found.format(**params) if params else found
    except (KeyError, IndexError, ValueError):  # a catalog entry with a wrong placeholder: the English, never a 500
        return str(text)


def spoken(value: Any) -> Any:
    """A JSON-ready answer (dicts, lists) with every ``Marked`` text inside it in the request's language: the
    core's labels, help, choices, summaries and refusals as the phone receives them. A new answer is built for a
    language we have; for English (no catalog) ``value`` itself is returned, untouched and at no cost."""
    words = catalog(language())
    return _spoken(value, words) if words else value


def _spoken(value: Any, words: dict[str, str]) -> Any:
    if isinstance(value, Marked):
        return _said(value, words)
    if isinstance(value, dict):
        return {k: _spoken(v, words) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_spoken(v, words) for v in value]
    return value


def choose(lang: str) -> Response:
    """GET /lang/<lang>: remember this phone's language (a cookie, a year) and go back to the panel."""
    if lang not in LANGUAGES:
        words = gettext(
            "unknown language {lang}: one of {languages}", lang=repr(lang[:8]), languages=", ".join(LANGUAGES)
        )
        return Response(words, status=400, mimetype="text/plain")
    back = request.args.get("next", "/")
    response = redirect(back if back in ("/", "/join", "/dice") else "/")
    response.set_cookie(COOKIE, lang, max_age=365 * 24 * 3600, samesite="Lax")
    return response


def init_app(app: Flask) -> None:
    """``_``, the languages and the request's language in every template."""
    app.jinja_env.globals.update(_=gettext, say=say, languages=LANGUAGES)
    app.context_processor(lambda: {"lang": language()})
