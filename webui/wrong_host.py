"""The refusal of a request for a host name the table does not answer to (the DNS rebinding guard), as a page
a person can read when a browser asks, and as JSON for an API client (curl, a script): same words, same 400.

No template and no script: this page must work whatever the panel's files say, and it names no address
it was not given (the request's own Host is shown escaped, cut to 80 characters)."""

from __future__ import annotations

from html import escape

from flask import Response, jsonify, request
from tableside.webui.i18n import gettext, language

PAGE = """<!doctype html>
<html lang="{lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} - Tableside</title>
<style>body{{font:1.1rem/1.5 system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#111}}
h1{{font-size:1.4rem}}code{{background:#eee;padding:0 .2em}}</style></head>
<body><main>
<h1>{heading}</h1>
<p>{where}</p>
<p>{names}</p>
</main></body></html>
"""


def refusal(host: str) -> tuple[Response, int]:
    """400 naming the host: HTML for a browser (it prefers text/html), JSON for everyone else."""
    shown = host[:80]
    words = gettext(
        "this table does not answer to the host name {host}: use its IP address or NAME.local", host=repr(shown)
    )
    accepts = request.accept_mimetypes
    if accepts.accept_html and accepts["text/html"] > accepts["application/json"]:
        name = shown.split(":")[0] if not shown.startswith("[") else "games-table"
        heading = gettext("This table does not answer to {host}", host=escape(repr(shown)))
        setting = f'[server] names = ["{name or "games-table"}"]'
        page = PAGE.format(
            lang=language(),
            title=gettext("Not this address"),
            heading=heading,
            where=_words(
                "Open the address the table shows on its e-paper or printed when it started: an IP address such as "
                "{ip}, or {local} with the table's name.",
                ip="http://192.168.1.20:8080/",
                local="http://NAME.local:8080/",
            ),
            names=_words(
                "Another name (one your router gives it) works once it is listed in the table's config file: "
                "{setting}.",
                setting=setting,
            ),
        )
        return Response(page, mimetype="text/html"), 400
    return jsonify(error=words), 400


def _words(msgid: str, **codes: str) -> str:
    """A paragraph in the request's language, escaped, each placeholder an escaped ``<code>`` (the catalog holds
    the sentence whole, so a language may put the addresses where its grammar wants them)."""
    text = escape(gettext(msgid), quote=False)
    return text.format(**{k: f"<code>{escape(v, quote=False)}</code>" for k, v in codes.items()})
