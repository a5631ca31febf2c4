"""Every action within one screen (#36): each system's game as its docs page plays it, watched from a table phone.

At every step where the actions the table can take change, each available action is checked on the phone at
390 x 844 and at 360 x 780: its button is on the moment card within the first screen (no tap, no scroll), or in the
All actions sheet (one tap) within the sheet's first screen plus one screen of scrolling, or the card or the sheet
says on which phone it is made (a held seat's own move). "Fix a number" is in the sheet within the same reach.
The game is driven by the docs page's own requests (tests/docs_steps), so it walks every phase the page shows.
"""

from __future__ import annotations

import os

import pytest

from tests import docs_steps
from tests.browser_support import all_actions, chromium, close_all_actions, phone, served, shot

SIZES = {"390x844": (390, 844), "360x780": (360, 780)}
SYSTEMS = ["vnm", "venom", "vegas", "v2140"]

# Where each available action is, as the phone shows it: "card" (y of its control), "sheet" (y within the
# scrolled sheet), "said" (a line naming the phone that makes it), or None (nowhere).
WHERE = """(types) => {
  const out = {};
  const sheet = document.getElementById("all-actions");
  const main = document.getElementById("main-actions");
  const top = (n) => n.getBoundingClientRect().top;
  for (const t of types) {
    const sel = `[data-type="${t}"]`, said = `[data-types~="${t}"]`;
    const card = main.querySelector(sel) || main.querySelector(said);
    if (card && card.getClientRects().length) { out[t] = ["card", top(card) + scrollY]; continue; }
    const node = t === "correct" ? document.getElementById("numbers-box")
      : sheet.querySelector(sel) || sheet.querySelector(said);
    if (node && sheet.open && node.getClientRects().length) {
      out[t] = [node.matches(said) ? "said" : "sheet", top(node) - top(sheet) + sheet.scrollTop];
      continue;
    }
    out[t] = null;
  }
  return out;
}"""


def _available(server) -> tuple[int, list[str]]:
    status, body = server.request("GET", "/api/sessions/active/actions")
    assert status == 200, body
    _, view = server.request("GET", "/api/sessions/active")
    return view["version"], sorted({a["type"] for a in body["actions"] if a.get("available")})


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("system", SYSTEMS)
def test_every_action_is_on_the_card_or_one_tap_and_one_screen_away(browser, tmp_path, system, size):
    width, height = SIZES[size]
    page_path = docs_steps.REPO / "docs" / "systems" / f"{system}.md"
    steps = docs_steps.parse(page_path)
    for server in served(tmp_path):
        table = None
        seen: set[tuple[str, ...]] = set()
        checked = 0
        problems: list[str] = []
        for n, step in enumerate(steps):
            status, got = docs_steps.send(server.port, step)
            if step.method != "POST" or not (200 <= status < 300) or "/api/sessions" not in step.path:
                continue
            version, types = _available(server)
            if not types or tuple(types) in seen:
                continue
            seen.add(tuple(types))
            if table is None:
                table = phone(browser, server)
                table.set_viewport_size({"width": width, "height": height})
                table.goto("/")
            table.wait_for_function("(v) => window.S && S.view && S.view.version >= v && S.acts", arg=version)
            close_all_actions(table)
            table.evaluate("window.scrollTo(0, 0)")
            on_card = table.evaluate(WHERE, types)
            all_actions(table)
            in_sheet = table.evaluate(WHERE, types)
            sheet_h = table.evaluate("document.getElementById('all-actions').clientHeight")
            for t in types:
                where = on_card[t] if on_card[t] and on_card[t][0] == "card" else in_sheet[t]
                if where is None:
                    problems.append(f"step {n} ({step.where()}): {t} is neither on the card nor in All actions")
                elif where[0] == "card" and where[1] > height:
                    # below the first screen on the card: it must then be in the sheet within reach
                    sheet_where = in_sheet[t]
                    if not sheet_where or sheet_where[0] == "card" or sheet_where[1] > 2 * sheet_h:
                        problems.append(f"step {n} ({step.where()}): {t} is {where[1]:.0f} px down the card")
                elif where[0] in ("sheet", "said") and where[1] > 2 * sheet_h:
                    down = f"{where[1]:.0f} px down All actions (sheet {sheet_h} px)"
                    problems.append(f"step {n} ({step.where()}): {t} is {down}")
                checked += 1
            if os.environ.get("TABLESIDE_SHOTS"):
                shot(table, f"all-actions-{system}-{size}-{n}", full_page=False)
        assert checked > 20, f"only {checked} actions checked: the walk did not reach the game's phases"
        assert not problems, "\n".join(problems)
