"""A form shows what this phone's seat may set, and no more (#17 QA at 390 x 844).

A real ``tableside serve --simulate`` and Debian's chromium, one browser context per phone, as in
tests/test_tap_budget.py. Each test is one thing QA ran into: the GM's racks on a player's phone,
every token colour offered to a seat that holds one, a declined bonus that took two taps, a prompt
saying "Press C" beside a button saying "Next round", an attack's help naming a default that is not there.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, served, shot
from tests.test_tap_budget import (
    JO_LEADS,
    TRICK,
    VEGAS_PLAYERS,
    VENUS_TURN,
    VNM,
    Phone,
    api,
    api_act,
    counted,
    new_game,
)

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("seatfields"), MANY_NEW_GAMES)


def action(p: Phone, label: str):
    """The action ``label`` wherever the game tab lists it, with its form open."""
    page = p.page
    act = page.locator("#tab-game .act").filter(
        has=page.locator("button.open", has_text=re.compile(f"^{re.escape(label)}"))
    )
    expect(act).to_have_count(1)
    if not act.is_visible():  # off the moment card: in the All actions sheet, one tap away (#36)
        p.tap(page.locator("#all-open"))
    if not act.locator("form").count():
        act.locator("button.open").tap()
    expect(act.locator("form")).to_be_visible()
    return act


# -- Venus 2140: the GM's racks are the GM's ------------------------------------------------------
def test_v2140_a_player_s_pool_form_has_no_racks_and_the_gm_s_and_the_table_s_do(browser, server):
    """The racks are the GM's: on the GM's phone, on the table phone while its form is for the GM, on no player's.
    The table phone draws for the seats no phone holds (it plays them); a seat a phone holds draws on that phone,
    as the table refuses it from a phone with no seat (#17 F6b): so the table phone's form is checked first, before
    Shred's and the GM's phones sit down, and after they do it offers Sven alone and says who draws where."""
    version = new_game(server, "v2140", {"players": ["Shred", "Sven"]})
    table = Phone(browser, server).at(version)
    racks = re.compile("^Racks")

    def racks_in(form):
        """The racks fields shown: a stepper, or values to tap (the session pool's, at most what it holds)."""
        return form.locator(".field:visible").filter(has_text=racks)

    # The table phone acts for any seat no phone holds: the racks follow whom the form is for (it starts at whose
    # move it is).
    form = action(table, "Draw dice for a scene pool").locator("form")
    who = form.get_by_role("group", name=re.compile("^Who"))
    expect(who.get_by_label("Shred", exact=True)).to_be_checked()
    expect(racks_in(form)).to_have_count(0)
    who.get_by_text("GM", exact=True).tap()
    expect(racks_in(form)).to_have_count(2)
    who.get_by_text("Sven", exact=True).tap()
    expect(racks_in(form)).to_have_count(0)
    who.get_by_text("GM", exact=True).tap()
    who.get_by_text("— not chosen —", exact=True).tap()  # nobody named: the rules' default, whose move it is (Shred)
    expect(racks_in(form)).to_have_count(0)
    gm_actions = re.compile(r"^(New scene|Award Player Points|Roll a rack from the session pool) \(GM\)$")
    expect(table.page.locator("#tab-game button.open", has_text=gm_actions)).to_have_count(3)  # the GM's seat is free

    shred, gm = Phone(browser, server, seat="Shred"), Phone(browser, server, seat="GM")
    for p in (shred, gm):
        p.at(version)
    mine = action(shred, "Draw dice for a scene pool").locator("form")
    expect(racks_in(mine)).to_have_count(0)
    assert "Racks" not in mine.inner_text()  # hidden, not merely out of the accessibility tree
    shot(shred.page, "seat-fields-v2140-player-pool")
    theirs = action(gm, "Draw dice for a scene pool").locator("form")
    expect(racks_in(theirs)).to_have_count(2)
    # The GM's own actions are not offered on a player's phone at all (the table would refuse them there), and on
    # the table phone no more once the GM's phone holds the GM's seat: they are said as the GM's phone's.
    expect(shred.page.locator("#tab-game button.open", has_text=gm_actions)).to_have_count(0)
    expect(gm.page.locator("#tab-game button.open", has_text=gm_actions)).to_have_count(3)
    table.page.reload()  # a seat taken is no change of the game: the table phone reads it anew
    table.at(version)
    expect(table.page.locator("#tab-game button.open", has_text=gm_actions)).to_have_count(0)
    expect(table.page.locator("#groups")).to_contain_text("Roll a rack from the session pool (GM)")
    expect(table.page.locator("#groups")).to_contain_text("on GM's phone")
    # Shred and the GM draw on their own phones; the table phone draws for Sven alone, no racks.
    expect(table.page.locator("#main-actions")).to_contain_text("Shred draws dice for a scene pool on Shred's phone")
    expect(table.page.locator("#main-actions")).to_contain_text("GM draws dice for a scene pool on GM's phone")
    form = action(table, "Draw dice for a scene pool").locator("form")
    who = form.get_by_role("group", name=re.compile("^Who"))
    expect(who.locator("label")).to_have_text(["Sven"])
    expect(who).not_to_contain_text("whose move it is")  # no blank to leave it to
    expect(racks_in(form)).to_have_count(0)
    shot(table.page, "seat-fields-v2140-table-pool-held-seats")
    # Shred's own pool, sent from his phone: what he may set, and nothing of the GM's.
    mine.get_by_role("button", name="Matching primary skills: 2", exact=True).tap()
    mine.locator(".submit-row button.primary").tap()
    expect(shred.said()).to_contain_text("Shred")
    entry = api(server, "GET", "/api/sessions/active/log?after=0")[-1]
    assert entry["action"]["participant"] == "Shred" and entry["action"]["racks"] == 0, entry
    for p in (shred, gm, table):
        p.close()


# -- Venusian Vegas: a seat's own tokens, a bonus declined, a round started ----------------------------
def offered(group) -> list[str]:
    """The choices a radio group shows now (hidden ones are not offered)."""
    return [t.strip() for t in group.locator("label:visible").all_inner_texts()]


def test_vegas_a_seat_is_offered_only_the_tokens_it_holds_and_none_when_it_holds_none(browser, server):
    # After the setup increases (Team and Game) everyone holds a Game token; Jo's free increase (Bot) adds a Bot
    # token. A correction leaves Kim with none.
    version = new_game(
        server,
        "vegas",
        {"players": VEGAS_PLAYERS},
        *JO_LEADS,
        {"type": "correct", "key": "tokens.1.Game", "value": 0, "reason": "test"},
    )
    jo, kim, lu = (Phone(browser, server, seat=s).at(version) for s in ("Jo", "Kim", "Lu"))
    table = Phone(browser, server).at(version)
    form = jo.moment("Play a card").locator("form")
    sends = form.locator(".submit-row .sends button:visible")  # a token is a send button; the plain send plays none
    expect(sends).to_have_text(["Play a card", "Play a card + Game", "Play a card + Bot"])
    shot(jo.page, "seat-fields-vegas-tokens")
    # Kim holds none: no token to choose at all (her form, opened out of turn).
    theirs = action(kim, "Play a card").locator("form")
    expect(theirs.get_by_role("group", name="Suit", exact=True)).to_be_visible()
    assert "Token" not in theirs.inner_text()
    # The table phone's whole trick: each row offers that player's tokens in the row (#36: no fold to open first);
    # Kim's row asks none.
    rows = table.moment("Enter a trick").locator("form .rows-item")
    expect(rows.locator("h4")).to_have_text(VEGAS_PLAYERS)
    for i, held in enumerate(
        (["Game", "Bot", "— not chosen —"], None, ["Game", "— not chosen —"], ["Game", "— not chosen —"])
    ):
        token = rows.nth(i).get_by_role("group", name=re.compile("^Token"))
        if held is None:
            expect(token).to_be_hidden()
            continue
        assert offered(token) == held, i
    # Jo plays her Game token: nobody after her in this trick is offered a Game token (one of each colour).
    form.get_by_role("group", name="Suit", exact=True).get_by_text("Team", exact=True).tap()
    form.get_by_role("button", name="Number: 5", exact=True).tap()
    form.get_by_role("button", name="Play a card + Game, trump to Bot", exact=True).tap()
    expect(jo.said()).to_contain_text("Jo plays Team 5 with a Game token")
    version = api_act(server, {"type": "play_card", "player": "Kim", "suit": "Team", "number": 9})
    lu.at(version)
    mine = lu.moment("Play a card").locator("form")
    expect(mine.get_by_role("group", name="Suit", exact=True)).to_be_visible()
    assert "Token" not in mine.inner_text()  # Lu's only token is Game, played already in this trick
    for p in (jo, kim, lu, table):
        p.close()


def test_vegas_declining_a_bonus_is_one_tap_on_the_seat_s_phone_and_on_a_table_phone(browser, server):
    cards = [{"player": p, "suit": s, "number": n} for p, s, n in TRICK]
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *JO_LEADS, {"type": "play_trick", "cards": cards})
    kim, table = Phone(browser, server, seat="Kim").at(version), Phone(browser, server).at(version)
    expect(kim.page.locator("#pending li.yours")).to_contain_text("Kim: take or decline a trick bonus")
    # The table phone names whose bonus it declines on the button itself: one tap, no form.
    expect(table.moment("Decline a trick bonus: Kim").locator("form")).to_have_count(0)
    shot(kim.page, "seat-fields-vegas-decline")
    kim.tap(kim.moment("Decline a trick bonus").locator("button.open"))
    expect(kim.said()).to_contain_text("Kim declines the trick bonus")
    counted("Vegas decline a bonus, seated phone", kim, 1)
    table.at(version + 1)
    table.tap(table.page.locator("#undo"))
    table.at(version + 2)
    table.taps = 0
    table.tap(table.moment("Decline a trick bonus: Kim").locator("button.open"))
    expect(table.said()).to_contain_text("Kim declines the trick bonus")
    counted("Vegas decline a bonus, table phone", table, 1)
    for p in (kim, table):
        p.close()


def test_vegas_the_prompt_names_the_button_the_phone_offers(browser, server):
    setup = [{"type": "setup_tracks", "player": p, "tracks": ["Team", "Game"]} for p in VEGAS_PLAYERS]
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *setup)
    p = Phone(browser, server).at(version)
    expect(p.page.locator("#pending")).to_have_text("Start round 1 (button C)")
    start = p.moment("Start round 1")
    expect(start.locator("button.open")).to_have_text("Start round 1")
    p.tap(start.locator("button.open"))
    expect(p.said()).to_contain_text("Round 1")
    counted("Vegas start a round", p, 1)
    p.close()


# -- Venus Needs Men: the attack's help names a default only when there is one -----------------------------
def test_vnm_attack_help_names_the_declared_target_only_once_declared(browser, server):
    version = new_game(server, "vnm", VNM, *VENUS_TURN)
    p = Phone(browser, server).at(version)
    attack = p.moment("Attack")
    attack.locator("button.open").tap()
    target = attack.locator("form").get_by_role("group", name=re.compile("^Target"))
    expect(target).to_be_visible()
    expect(target.locator("legend")).not_to_contain_text("declared")
    attack.locator("form .submit-row button").first.tap()  # Cancel
    version = api_act(server, {"type": "declare_target", "target": "Pluto"})
    p.at(version)
    expect(p.moment("Attack").locator("form legend").first).to_contain_text("default: the declared target, Cy (Pluto)")
    p.close()


# -- Venus Needs Men: a Basic game lists no Enhanced-only action ---------------------------------------
def test_vnm_a_basic_game_lists_no_enhanced_only_action(browser, server):
    """It listed Infect, Destroy population, Technology values and a Research group, all "Not now: ...
    only in the Enhanced game" for the whole game."""
    version = new_game(server, "vnm", VNM, *VENUS_TURN)
    p = Phone(browser, server).at(version)
    page = p.page
    game = page.locator("#tab-game")
    expect(game.locator("button.open", has_text="Collect population")).to_have_count(1)  # drawn: no group to open
    for label in ("Infect population", "Destroy population", "Technology values", "Choose an Upgrade", "Research"):
        expect(game.locator("button.open", has_text=re.compile(f"^{label}"))).to_have_count(0)
    expect(game.locator("#groups h3", has_text=re.compile("^Research"))).to_have_count(0)
    expect(game).not_to_contain_text("Enhanced game")
    p.close()
