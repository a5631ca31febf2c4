"""The Rules tab on a phone (#35): one search finds the rulebook's passage first, the words found marked."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from tableside.core.rulebook_search import BOOKS

from tests.browser_support import phone, served, shot
from tests.test_rulebook_search import FIRST

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)


@pytest.fixture
def server(tmp_path):
    yield from served(tmp_path)


def test_the_rules_tab_finds_each_question_first_with_its_words_marked(browser, server):
    page = phone(browser, server)
    fetched = "() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/rules.js')).length"
    assert page.evaluate(fetched) == 0  # fetched when the tab is first opened, not with the page
    page.get_by_role("button", name="Rules").tap()
    box = page.get_by_role("searchbox", name="Search the rulebooks")
    box.fill("gone gone gone")
    page.get_by_role("button", name="Search", exact=True).tap()
    first = page.locator("#rules-found > li").first
    expect(first).to_contain_text("Any dice you had in your scene pool are gone gone gone.")
    expect(first.locator(".rule-place")).to_contain_text("Venus 2140 · System Glossary · line 218")
    expect(first.locator("mark")).to_have_text(["gone", "gone", "gone"])
    assert page.evaluate(fetched) == 1
    for query, (book, heading, sentence) in FIRST.items():  # the four questions, each a tap away
        box.fill(query)
        page.get_by_role("button", name="Search", exact=True).tap()
        expect(first.locator(".rule-place")).to_contain_text(f"{BOOKS[book]} · {heading} · line")
        expect(first.locator(".rule-text")).to_contain_text(sentence)
        expect(first.locator("mark").first).to_be_visible()
    shot(page, "rules-search")
    box.fill('"')  # no word: the table's refusal, in words
    page.get_by_role("button", name="Search", exact=True).tap()
    expect(page.locator("#rules-note")).to_contain_text("no word to look up")
    expect(page.locator("#rules-found > li")).to_have_count(0)
    page.context.close()
