"""What playing each system through the phone panel showed (#17 QA): fixed, and kept fixed.

A real ``tableside serve --simulate`` and Debian's chromium at 390 x 844 with touch, one browser
context per phone, as in tests/test_tap_budget.py. Each test is one thing a player ran into: a
name field that had to be deleted, a form asking for a token's extras with no token chosen, a
refusal naming a field by its key, another seat's form open on this phone.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, all_actions, phone, served
from tests.test_tap_budget import api, new_game

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("played"), MANY_NEW_GAMES)


def seated(browser, server, seat: str | None, version: int):
    page = phone(browser, server)
    if seat:
        page.locator("#seat").tap()
        page.locator("#seat-list").get_by_role("button", name=re.compile(f"^{re.escape(seat)}( \\(|$)")).tap()
        expect(page.locator("#seat")).to_have_text(re.compile(f"^Seat: {re.escape(seat)}( \\(|$)"))
    page.wait_for_function(f"() => S.view && S.view.version === {version} && S.inflight === 0")
    return page


def moment(page, label: str):
    act = page.locator("#main-actions > .act").filter(
        has=page.locator("button.open", has_text=re.compile(f"^{re.escape(label)}"))
    )
    expect(act).to_have_count(1)
    return act


def new_game_form(page, system_name: str):
    page.get_by_role("button", name="Games").tap()
    page.locator("#system-box").get_by_text(system_name, exact=True).tap()
    return page.locator("#option-fields")


# -- setup ---------------------------------------------------------------------------------------
def test_vnm_player_names_are_hints_to_type_over_not_values_to_delete(browser, server):
    """The rulebook's planets prefilled as names had to be deleted before typing "Ann"."""
    new_game(server, "vegas", {"players": ["Jo", "Kim"]})
    page = phone(browser, server)
    form = new_game_form(page, "Venus Needs Men")
    names = form.get_by_role("textbox", name=re.compile("^Name"))
    expect(names).to_have_count(3)
    assert [names.nth(i).input_value() for i in range(3)] == ["", "", ""]
    assert [names.nth(i).get_attribute("placeholder") for i in range(3)] == ["Venus", "Mars", "Pluto"]
    names.nth(0).fill("Ann")
    page.get_by_role("button", name="Start new game").tap()
    page.locator("#confirm-yes").tap()
    page.wait_for_function("() => S.view && S.view.system === 'vnm'")
    players = api(server, "GET", "/api/sessions/active")["state"]["players"]
    assert [p["name"] for p in players] == ["Ann", "Mars", "Pluto"]  # left empty: the home world's name
    page.context.close()


def test_v2140_setup_rows_are_named_by_what_one_row_is(browser, server):
    """ "Remove this effects and the paragraph each read": a row's noun, with its article."""
    page = phone(browser, server)
    form = new_game_form(page, "Venus 2140")
    expect(form.get_by_role("button", name="Add an effect", exact=True)).to_have_count(1)
    expect(form.get_by_role("button", name="Remove this effect", exact=True).first).to_be_visible()
    expect(form.get_by_role("button", name="Add a chart goal", exact=True)).to_have_count(1)
    expect(form).not_to_contain_text("each read")
    expect(form).not_to_contain_text("Add a effect")
    page.context.close()


# -- Venusian Vegas: a card's token, a trick's bonus --------------------------------------------
VEGAS_PLAYERS = ["Jo", "Kim", "Lu", "Max"]
JO_LEADS = (
    *({"type": "setup_tracks", "player": p, "tracks": ["Team", "Game"]} for p in VEGAS_PLAYERS),
    {"type": "start_round"},
    {"type": "choose_furthest_behind", "player": "Jo"},
    {"type": "free_increase", "track": "Bot"},
)


def test_vegas_a_tokens_extras_show_only_with_the_token_that_uses_them(browser, server):
    jo_holds_a_mobster = {"type": "correct", "key": "tokens.0.Mobster", "value": 1}  # a seat is offered its own tokens
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *JO_LEADS, jo_holds_a_mobster)
    page = seated(browser, server, "Jo", version)
    form = moment(page, "Play a card").locator("form")
    expect(form).to_be_visible()
    trump = form.get_by_role("group", name="Play a card + Game, trump to", exact=True)
    take = form.locator(".field").filter(has_text=re.compile("^Mobster takes"))
    block = form.get_by_text("Token played only to block", exact=True)
    more = form.locator("details.more")
    sends = form.locator(".submit-row .sends > button:visible")
    # The token is a send button ("Play a card + Game"), so what a token takes is asked beside it: a token played
    # only to block under "More" (rare); the Game token's trump as that token's own send buttons, once the card is
    # chosen. What a Mobster takes is never asked with the card (the cards after it are not down yet): the complete
    # trick asks it, a card of the trick to tap.
    expect(sends).to_have_text(["Play a card", "Play a card + Game", "Play a card + Bot", "Play a card + Mobster"])
    expect(take).to_have_count(0)
    expect(form).not_to_contain_text("Mobster takes")
    expect(more.locator("summary")).to_have_text("More: Token played only to block")
    expect(block).to_be_hidden()
    expect(trump).to_be_hidden()
    # No dead end: "+ Game" before the card is chosen says what is missing, in the form; nothing is sent.
    sends.filter(has_text="+ Game").tap()
    expect(form.locator(".field-error:visible, .form-error:visible")).to_have_text("Suit: please fill this in.")
    form.get_by_role("group", name="Suit", exact=True).get_by_text("Team", exact=True).tap()
    form.get_by_role("button", name="Number: 5", exact=True).tap()
    # The card chosen: the Game token is sent only with its trump (the rules refuse it without one).
    expect(trump).to_be_visible()
    expect(sends).to_have_text(["Play a card", "Play a card + Bot", "Play a card + Mobster"])
    expect(trump.get_by_role("button")).to_have_text(["No Trump", "Team", "Game", "Inspector", "Bot", "Mobster"])
    # Played only to block, a Game token moves nothing: no trump to ask, and "+ Game" sends it alone.
    more.locator("summary").tap()
    block.tap()
    expect(trump).to_be_hidden()
    sends.filter(has_text="+ Game").tap()
    expect(page.locator("#said")).to_contain_text("Jo plays Team 5 with a Game token")
    row = api(server, "GET", "/api/sessions/active")["state"]["playing"][0]
    assert (row["player"], row.get("token"), row.get("block"), row.get("trump") or "") == ("Jo", "Game", True, "")
    page.context.close()


def test_vegas_a_token_asking_nothing_is_one_send_button(browser, server):
    """Inspector, Bot and Mobster ask nothing before the send (a Mobster's card is tapped once the trick is
    complete): suit, number, send."""
    holds = ({"type": "correct", "key": f"tokens.0.{c}", "value": 1} for c in ("Inspector", "Mobster"))
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *JO_LEADS, *holds)
    page = seated(browser, server, "Jo", version)
    form = moment(page, "Play a card").locator("form")
    form.get_by_role("group", name="Suit", exact=True).get_by_text("Bot", exact=True).tap()
    form.get_by_role("button", name="Number: 7", exact=True).tap()
    expect(form.locator(".submit-row .sends > button:visible")).to_have_text(
        ["Play a card", "Play a card + Inspector", "Play a card + Bot", "Play a card + Mobster"]
    )
    form.get_by_role("button", name="Play a card + Inspector", exact=True).tap()
    expect(page.locator("#said")).to_contain_text("Jo plays Bot 7 with an Inspector token")
    row = api(server, "GET", "/api/sessions/active")["state"]["playing"][0]
    assert (row["player"], row["suit"], row["number"], row.get("token")) == ("Jo", "Bot", 7, "Inspector")
    page.context.close()


def test_vegas_a_table_phone_s_card_asks_the_trump_of_the_player_it_plays_for(browser, server):
    """The same buttons on a phone with no seat: the Game token's trump follows the player chosen (Jo leads)."""
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *JO_LEADS)
    page = seated(browser, server, None, version)
    act = moment(page, "Play a card")
    act.locator("button.open").tap()
    form = act.locator("form")
    form.get_by_role("group", name="Suit", exact=True).get_by_text("Team", exact=True).tap()
    form.get_by_role("button", name="Number: 5", exact=True).tap()
    expect(form.locator(".submit-row .sends > button:visible")).to_have_text(["Play a card", "Play a card + Bot"])
    form.get_by_role("button", name="Play a card + Game, trump to No Trump", exact=True).tap()
    expect(page.locator("#said")).to_contain_text("Jo plays Team 5 with a Game token")
    row = api(server, "GET", "/api/sessions/active")["state"]["playing"][0]
    assert (row["player"], row["token"], row["trump"]) == ("Jo", "Game", "No Trump")
    page.context.close()


def test_vegas_a_bonus_is_a_card_of_the_trick_or_declined_from_the_top(browser, server):
    trick = [
        {"type": "play_card", "player": p, "suit": s, "number": n}
        for p, s, n in (("Jo", "Team", 5), ("Kim", "Team", 9), ("Lu", "Game", 3), ("Max", "Bot", 12))
    ]
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *JO_LEADS, *trick)
    page = seated(browser, server, "Kim", version)
    claim = moment(page, "Take a trick bonus").locator("form")
    expect(claim).to_be_visible()
    expect(claim.locator("fieldset.quick button")).to_have_count(3)
    # The trick's cards are offered: no suit and number to type as well, and no card-specific extras yet.
    expect(claim.get_by_role("group", name="Suit", exact=True)).to_have_count(0)
    expect(claim.get_by_role("spinbutton", name=re.compile("^Number"))).to_have_count(0)
    expect(claim.get_by_role("group", name=re.compile("^Token colour"))).to_be_hidden()
    # "take or decline": declining is beside taking, on top, one tap (its seat is this phone's).
    moment(page, "Decline a trick bonus").locator("button.open").tap()
    expect(page.locator("#said")).to_contain_text("Kim declines")
    page.context.close()


# -- words ---------------------------------------------------------------------------------------
VNM = {"players": [{"name": n, "home_worlds": [w]} for n, w in (("Ann", "Venus"), ("Bob", "Mars"), ("Cy", "Pluto"))]}


def test_a_refusal_names_the_field_by_its_label_not_its_key(browser, server):
    africa_holds_two = {"type": "correct", "key": "land_areas.3.population", "value": 2}
    version = new_game(server, "vnm", VNM, africa_holds_two)
    page = seated(browser, server, None, version)
    collect = moment(page, "Collect population")
    collect.locator("button.open").tap()
    form = collect.locator("form")
    # Pluto's five ships collect five: the form offers 1 to 5 to tap, and nothing else (no box to type a 6 in).
    field = form.locator(".field").filter(has_text=re.compile("^Population"))
    assert field.locator(".chips button").all_inner_texts() == ["1", "2", "3", "4", "5"]
    expect(field.get_by_role("spinbutton")).to_have_count(0)
    form.get_by_role("button", name="Population: 4", exact=True).tap()
    form.get_by_role("button", name=re.compile("^Africa")).tap()
    # The rules' refusal names the area by its key: said with the form's label, under the areas.
    error = form.get_by_role("group", name=re.compile("^Land area")).locator(".field-error")
    expect(error).to_contain_text("Africa has only 2")
    expect(error).to_contain_text(re.compile("^Land area: "))
    expect(form.get_by_text("Africa has only 2")).to_have_count(1)
    expect(form.locator("p.form-error")).to_be_hidden()
    assert api(server, "GET", "/api/sessions/active")["version"] == version
    page.context.close()


# -- another seat's move ---------------------------------------------------------------------------
def test_a_seated_phone_leaves_another_seats_move_closed(browser, server):
    """The GM's phone while Shred draws his pool: Shred's form is not open on the GM's phone. (The GM has drawn:
    a seat that has not is waited for too while the conflict opens, and its own draw is open on its phone.)"""
    gm_drew = (
        {"type": "prepare_pool", "participant": "GM", "racks": 1},
        {"type": "roll_pool", "participant": "GM", "faces": [5, 5, 4, 4, 4, 4]},
    )
    version = new_game(server, "v2140", {"players": ["Shred", "Sven"]}, *gm_drew)
    gm = seated(browser, server, "GM", version)
    shred = seated(browser, server, "Shred", version)
    expect(shred.locator("#pending li.yours")).to_contain_text("Shred: draw dice")
    expect(moment(shred, "Draw dice for a scene pool").locator("form")).to_be_visible()
    draw = moment(gm, "Draw dice for a scene pool")
    expect(draw.locator("button.open")).to_have_attribute("aria-expanded", "false")
    expect(draw.locator("form")).to_have_count(0)
    for page in (gm, shred):
        page.context.close()


def test_venom_a_rare_flag_folds_away_below_the_card_drawn(browser, server):
    """The Event card drawn is the moment: "Discarded at once by a card effect" (Vipress) sat above it."""
    version = new_game(server, "venom", {"players": ["Ann", "Bob"]}, {"type": "set_commander", "player": "Ann"})
    page = seated(browser, server, None, version)
    form = moment(page, "Draw the Event card").locator("form")
    expect(form).to_be_visible()
    discard = form.get_by_label("Discarded at once by a card effect")
    expect(discard).to_be_hidden()
    card = form.get_by_role("button", name=re.compile("^All Is Quiet"))
    expect(card).to_be_in_viewport()
    form.locator("details.more summary").tap()
    expect(discard).to_be_visible()
    page.context.close()


# -- a button the rules refuse -------------------------------------------------------------------
def test_a_refused_button_press_says_which_button_and_goes_at_the_next_change(browser, server):
    """Button A with no target declared: every phone read a bare refusal, and kept it after later changes."""
    version = new_game(server, "vnm", VNM, {"type": "move"}, {"type": "end_turn"})
    phones = [seated(browser, server, None, version), seated(browser, server, "Bob", version)]
    status, data = server.request("POST", "/api/buttons/A", {"hold": False})  # as the GPIO button does
    assert status == 422 and "declare a target first" in data["error"], (status, data)
    for page in phones:
        expect(page.locator("#banner")).to_be_visible()
        expect(page.locator("#banner-text")).to_have_text(re.compile(r"^Button A: .*declare a target first"))
    api(server, "POST", "/api/buttons/C", {"hold": False})  # Ann ends her turn: the refusal is old news
    for page in phones:
        expect(page.locator("#said")).to_contain_text(re.compile("^Button C: "))
        expect(page.locator("#banner")).to_be_hidden()
    # A refusal that names its button already says it once: never "Button C: button C (...)".
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *JO_LEADS)  # in the tricks: no next round for C
    for page in phones:  # the new game shown first (its arrival clears the banner)
        page.wait_for_function(
            f"() => S.view && S.view.system === 'vegas' && S.view.version === {version} && !S.inflight"
        )
    status, data = server.request("POST", "/api/buttons/C", {"hold": False})
    assert status == 422 and data["error"].startswith("button C ("), (status, data)
    for page in phones:
        expect(page.locator("#banner-text")).to_have_text(re.compile(r"^Button C \(.*nothing to do"))
    for page in phones:
        page.context.close()


def test_vnm_end_turn_stays_on_the_first_screen_beside_an_open_form(browser, server):
    """After one collect, "collect 4 more or end the turn": End turn sat under the form's land areas, off-screen."""
    version = new_game(server, "vnm", VNM, {"type": "collect", "area": "China", "count": 1})
    page = seated(browser, server, "Cy", version)
    expect(page.locator("#pending li.yours")).to_contain_text("or end the turn")
    expect(moment(page, "Collect population").locator("form")).to_be_visible()  # the move waited for: open
    end = moment(page, "End turn").locator("button.open")
    expect(end).to_be_in_viewport()
    end.tap()
    expect(page.locator("#said")).to_contain_text("Cy (Pluto) ends the turn")
    page.context.close()


# -- a new game -----------------------------------------------------------------------------------
def test_a_new_game_lets_a_seated_phone_go_quietly_and_says_how_to_sit_again(browser, server):
    """A new game flashed "This phone no longer sits at Bob's seat (...)" as an error, then said nothing."""
    version = new_game(server, "vnm", VNM)
    bob = seated(browser, server, "Bob", version)
    bob.evaluate(
        """() => { window.banners = [];
        new MutationObserver(() => { if (!$("banner").hidden) window.banners.push($("banner-text").textContent); })
          .observe($("banner"), {attributes: true, subtree: true}); }"""
    )
    new_game(server, "vegas", {"players": VEGAS_PLAYERS})
    bob.wait_for_function("() => S.view && S.view.system === 'vegas' && !S.inflight")
    expect(bob.locator("#said")).to_have_text(
        "New game: nothing played yet. This phone sat at Bob (Mars)'s seat: tap Seat to sit in this game."
    )
    expect(bob.locator("#seat")).to_have_text("Seat: table")
    assert bob.evaluate("() => window.banners") == []
    bob.context.close()


# -- the header --------------------------------------------------------------------------------------
def test_the_games_name_in_the_header_is_never_cut(browser, server):
    """ "Venus Needs M…", "VENOM Assa…", "Venus 2140 - c…": every system's name was cut beside Dice and Seat."""
    for system, options in (("vnm", VNM), ("venom", {"players": ["Ann", "Bob"]}), ("v2140", {"players": ["Shred"]})):
        version = new_game(server, system, options)
        page = seated(browser, server, "Ann" if system != "v2140" else "Shred", version)
        title = page.locator("#title")
        expect(title).to_have_text(re.compile(r"^(Venus|VENOM)"))
        cut = title.evaluate("t => t.scrollWidth > t.clientWidth + 1 || t.scrollHeight > t.clientHeight + 1")
        clipped = title.evaluate("t => getComputedStyle(t).textOverflow === 'ellipsis'")
        assert not cut and not clipped, (system, title.inner_text())
        page.context.close()


# -- VENOM: the Combat Abilities --------------------------------------------------------------------
def test_venom_after_the_roll_the_abilities_are_on_top_beside_next_phase(browser, server):
    """ "apply the Combat Abilities, then next phase" offered only Next phase: a die's change sat folded far below."""
    tactical = (
        {"type": "set_commander", "player": "Ann"},
        {"type": "draw_event", "kind": "all_is_quiet"},
        {"type": "next_phase"},
        {"type": "next_phase"},
        {"type": "choose_leader", "name": "Vipress", "zone": "VENOM Island", "health": 3, "defense": 4, "support": 5},
        {"type": "allocate_dice", "combat_value": 3},
        {"type": "combat_roll", "faces": [3, 6, 5]},
    )
    version = new_game(server, "venom", {"players": ["Ann", "Bob"]}, *tactical)
    page = seated(browser, server, "Ann", version)
    expect(page.locator("#pending li.yours")).to_contain_text("apply the Combat Abilities")
    change = moment(page, "Change a die's Rolled Value")
    expect(change).to_be_in_viewport()
    expect(moment(page, "Next phase")).to_be_in_viewport()
    change.locator("button.open").tap()
    form = change.locator("form")
    form.get_by_text(re.compile("^Die 1: 3")).tap()
    form.get_by_role("button", name="Change by: 1", exact=True).tap()
    form.locator(".submit-row button.primary").tap()
    expect(page.locator("#said")).to_contain_text("3 -> 4")
    page.context.close()


def test_v2140_the_gms_racks_come_first_in_the_gms_draw(browser, server):
    """The GM draws racks: they sat under six player-skill fields, about 1,500 px down the GM's phone."""
    version = new_game(server, "v2140", {"players": ["Shred", "Sven"]})
    gm = seated(browser, server, "GM", version)
    draw = moment(gm, "Draw dice for a scene pool")
    expect(draw.locator("form")).to_be_visible()  # the GM is waited for to draw too (each seat draws): open already
    racks = draw.get_by_role("button", name="Racks (GM: one per named NPC or gang): 1", exact=True)
    expect(racks).to_be_in_viewport()
    racks.tap()
    draw.locator("form .submit-row button.primary").tap()
    expect(gm.locator("#said")).to_contain_text("GM draws 6 dice (6 from 1 rack)")
    gm.context.close()


def test_v2140_dice_the_gm_drew_out_of_turn_are_rolled_from_the_top(browser, server):
    """The GM drew a rack while Shred was to draw: 'Roll the scene pool' sat folded in a group, nowhere on top."""
    gm_draws = {"type": "prepare_pool", "participant": "GM", "racks": 1}
    version = new_game(server, "v2140", {"players": ["Shred", "Sven"]}, gm_draws)
    gm = seated(browser, server, "GM", version)
    expect(gm.locator("#pending li.yours")).to_have_text("GM: roll the scene pool")
    roll = moment(gm, "Roll the scene pool")
    expect(roll).to_be_in_viewport()
    roll.locator("button.open").tap()  # the GM's own move: one tap, no question
    expect(gm.locator("#said")).to_contain_text("GM rolled 6 dice into the scene pool")
    gm.context.close()


def test_vegas_a_tie_for_furthest_behind_offers_b_s_random_pick_beside_the_choice(browser, server):
    """ "settle the tie, or pick at random with button B": the phone offered the choice only; the random pick sat in a
    group."""
    setup = tuple({"type": "setup_tracks", "player": p, "tracks": ["Team", "Game"]} for p in VEGAS_PLAYERS)
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *setup, {"type": "start_round"})
    page = seated(browser, server, None, version)
    expect(page.locator("#pending")).to_contain_text("or pick at random with button B")
    pick = moment(page, "Random pick")
    expect(pick).to_be_in_viewport()
    pick.locator("button.open").tap()
    pick.get_by_role("button", name=re.compile("^furthest behind", re.I)).tap()
    picked = re.compile(r": (Jo|Kim|Lu|Max) \(picked at random: the die showed \d of 4\)")
    expect(page.locator("#said")).to_contain_text(picked)
    page.context.close()


def test_redo_shows_only_when_there_is_something_to_redo(browser, server):
    """A greyed "Redo" sat in every moment's box, under its buttons, with nothing to redo."""
    version = new_game(server, "venom", {"players": ["Ann", "Bob"]}, {"type": "set_commander", "player": "Ann"})
    page = seated(browser, server, None, version)
    redo = page.locator("#redo")
    expect(redo).to_be_hidden()
    page.locator("#undo").tap()
    expect(page.locator("#said")).to_contain_text("undid")
    expect(redo).to_be_visible()
    redo.tap()
    expect(page.locator("#said")).to_contain_text("redid")
    expect(redo).to_be_hidden()
    page.context.close()


def test_a_seated_phone_lists_its_own_numbers_first_under_fix_a_number(browser, server):
    """Kim's phone: her VP and tracks came after forty rows of Jo's, Lu's and Max's."""
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *JO_LEADS)
    kim = seated(browser, server, "Kim", version)
    all_actions(kim)
    kim.locator("#numbers-title").tap()
    rows = kim.locator("#numbers > li > span:first-child")
    expect(rows.first).to_have_text("Kim's VP")
    labels = rows.all_inner_texts()
    mine = [i for i, label in enumerate(labels) if label.startswith("Kim's ")]
    assert mine == list(range(len(mine))) and len(mine) >= 5, labels
    kim.get_by_role("button", name="Kim's VP: one more").tap()
    expect(kim.locator("#said")).to_contain_text("Kim")
    kim.context.close()
