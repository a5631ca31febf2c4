"""Docs are code: every request in docs/api.md and docs/systems/*.md runs, in order, against a real
``tableside serve`` (a fresh data folder, a free loopback port, a fixed join code) and must get the
answer the page shows: its status and every field shown (format: tests/docs_steps.py)."""

from __future__ import annotations

import pytest

from tests import docs_steps
from tests.live import Process

PAGES = docs_steps.pages()


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_step_of_the_page_answers_as_shown(page, tmp_path):
    steps = docs_steps.parse(page)
    assert steps, f"{page.name} shows no request"
    server = Process(tmp_path / "data").start()
    try:
        for step in steps:
            status, got = docs_steps.send(server.port, step)
            problem = docs_steps.check(step, status, got)
            assert problem is None, problem
    finally:
        server.stop()


def test_a_changed_answer_is_caught():
    """The checker itself: a field, a status or a list that differs is named."""
    step = docs_steps.Step("p.md", 3, "POST", "/x", None, {}, 200, {"version": 2, "result": {"summary": "A"}}, (0, 0))
    assert docs_steps.check(step, 200, {"version": 2, "result": {"summary": "A", "more": 1}, "state": {}}) is None
    assert "result.summary" in docs_steps.check(step, 200, {"version": 2, "result": {"summary": "B"}})
    assert "status 422" in docs_steps.check(step, 422, {"error": "no"})
    step.expected = {"faces": [1, 2]}
    assert "faces" in docs_steps.check(step, 200, {"faces": [1, 2, 3]})


def test_the_page_format_is_parsed(tmp_path):
    page = tmp_path / "p.md"
    page.write_text(
        "Intro\n\n```sh\nTABLE=http://x CODE=ABCDEF\n```\n\n```sh\n"
        'curl -sH "Authorization: Bearer $CODE" $TABLE/api/sessions -d \'{"system": "vnm"}\'\n```\n'
        '```http\nHTTP/1.1 201 Created\n{"version": 0}\n```\n'
    )
    (step,) = docs_steps.parse(page)
    assert (step.method, step.path, step.body, step.status, step.expected) == (
        "POST",
        "/api/sessions",
        '{"system": "vnm"}',
        201,
        {"version": 0},
    )
    assert step.headers == {"Authorization": "Bearer $CODE"}
    page.write_text(page.read_text().replace("```http", "```json"))
    with pytest.raises(ValueError, match="no ```http answer block"):
        docs_steps.parse(page)
