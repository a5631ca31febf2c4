"""Faster than by hand: every frequent moment of every system, counted in taps on a phone.

A real ``tableside serve --simulate`` and Debian's chromium at 390 x 844 with touch; one browser
for the module and one browser context per phone (per seat where the moment is seat-first).
Taps are counted from the prompt shown to the result on screen (the last-change line every phone
shows); anything set up before the moment goes through the API. The budgets are the issue's
("faster than by hand"); the counts measured are listed in docs/systems/*.md, "Taps per moment".
Screenshots of each system's main moment go to tests/_output (gitignored).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser_support import MANY_NEW_GAMES, all_actions, close_all_actions, phone, served, shot

pytestmark = pytest.mark.slow
expect.set_options(timeout=15_000)

VNM_PLAYERS = [
    {"name": "Ann", "home_worlds": ["Venus"]},
    {"name": "Bob", "home_worlds": ["Mars"]},
    {"name": "Cy", "home_worlds": ["Pluto"]},
]
VNM = {"players": VNM_PLAYERS}
VENUS_TURN = ({"type": "move"}, {"type": "end_turn"})  # Pluto starts with every spaceship out: nothing to build
MEASURED: dict[str, int] = {}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from served(tmp_path_factory.mktemp("taps"), MANY_NEW_GAMES)


@pytest.fixture(scope="module", autouse=True)
def report():
    yield
    if MEASURED:
        print("\ntaps per moment: " + "; ".join(f"{k} {v}" for k, v in MEASURED.items()))


def api(server, method, path, body=None):
    status, data = server.request(method, path, body)
    assert status < 300, (status, data)
    return data


def api_act(server, action: dict) -> int:
    """One action sent through the API, as another phone would; returns the game's new version."""
    return api(server, "POST", "/api/sessions/active/actions", action)["version"]


def new_game(server, system: str, options: dict, *actions: dict) -> int:
    """A new game on the table, played up to the moment through the API; returns its version."""
    api(server, "POST", "/api/sessions", {"system": system, "options": options})
    version = 0
    for action in actions:
        version = api_act(server, action)
    return version


class Phone:
    """One phone (a browser context) that counts its taps."""

    def __init__(self, browser, server, seat: str | None = None) -> None:
        self.page = phone(browser, server)
        self.taps = 0
        if seat:
            self.page.locator("#seat").tap()
            self.page.locator("#seat-list").get_by_role("button", name=re.compile(f"^{re.escape(seat)}( \\(|$)")).tap()
            expect(self.page.locator("#seat")).to_have_text(re.compile(f"^Seat: {re.escape(seat)}( \\(|$)"))

    def at(self, version: int) -> Phone:
        """Wait until this phone shows ``version`` and has nothing in flight."""
        self.page.wait_for_function(f"() => S.view && S.view.version === {version} && S.inflight === 0")
        return self

    def tap(self, locator) -> None:
        locator.tap()
        self.taps += 1

    def moment(self, label: str):
        """The action ``label`` among the main moves at the top (its button and its form)."""
        act = self.page.locator("#main-actions > .act").filter(
            has=self.page.locator("button.open", has_text=re.compile(f"^{re.escape(label)}"))
        )
        expect(act).to_have_count(1)
        return act

    def submit(self, act) -> None:
        self.tap(act.locator("form .submit-row button.primary"))

    def said(self):
        return self.page.locator("#said")

    def close(self) -> None:
        self.page.context.close()


def hidden_or_covered(page, *locators) -> list[str]:
    """The elements of ``locators`` not wholly on screen, or with something else (the sticky send row) over
    their centre or an edge: what a thumb could not tap as it is shown."""
    return page.evaluate(
        """(nodes) => nodes.filter((n) => {
            const r = n.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
            const points = [[x, y], [x, r.top + 3], [x, r.bottom - 3], [r.left + 3, y], [r.right - 3, y]];
            return !(r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth)
                || points.some(([px, py]) => !n.contains(document.elementFromPoint(px, py)));
        }).map((n) => n.getAttribute("aria-label") || n.textContent.trim())""",
        [h for loc in locators for h in loc.element_handles()],
    )


def counted(name: str, phone: Phone, budget: int) -> None:
    MEASURED[name] = phone.taps
    assert phone.taps <= budget, f"{name}: {phone.taps} taps, budget {budget}"


# -- Venus Needs Men ----------------------------------------------------------------------------
def test_vnm_build_and_collect_take_two_taps_and_an_attack_three(browser, server):
    version = new_game(server, "vnm", VNM, *VENUS_TURN)
    p = Phone(browser, server).at(version)
    expect(p.page.locator("#pending")).to_contain_text("build, move, attack or collect")
    # The prompt's four moves are on the first screen, each one tap from its form.
    for label in ("Build spaceships", "Move spaceships", "Attack", "Collect population"):
        assert p.moment(label).bounding_box()["y"] < 844
    shot(p.page, "taps-vnm-moment")
    build = p.moment("Build spaceships")
    p.tap(build.locator("button.open"))  # Venus builds one, on its home world: nothing to ask, one tap
    expect(p.said()).to_contain_text("Ann (Venus) builds 1 spaceship")
    expect(build.locator("form")).to_have_count(0)
    counted("VNM build", p, 2)
    p.at(version + 1)
    p.tap(p.page.locator("#undo"))
    expect(p.said()).to_contain_text("undid")
    counted("VNM build, then undo", p, 3)
    p.at(version + 2)

    p.taps = 0
    collect = p.moment("Collect population")
    p.tap(collect.locator("button.open"))
    expect(collect.locator("form")).not_to_contain_text("Infected")  # Enhanced only: not in a Basic game
    p.tap(collect.get_by_role("button", name="China"))
    expect(p.said()).to_contain_text("collects 1 from China")
    counted("VNM collect", p, 2)
    api(server, "POST", "/api/sessions/active/undo")
    p.at(version + 4)

    p.taps = 0
    attack = p.moment("Attack")
    p.tap(attack.locator("button.open"))
    form = attack.locator("form")
    expect(form).not_to_contain_text("Weapon")  # Enhanced only
    p.tap(form.get_by_role("button", name="Mars"))
    expect(p.said()).to_contain_text("Ann (Venus) vs Bob (Mars)")
    counted("VNM attack", p, 3)
    shot(p.page, "taps-vnm-after-attack")
    p.close()


def test_vnm_an_enhanced_attack_on_land_takes_three_taps(browser, server):
    """#36: an attack on a fleet on land or ocean took 4 taps (goal 3). With the Technology values entered, the
    attack, the area and the target's tap (which sends it) are 3."""
    cards = {"defense_space": 8, "defense_land": 7, "defense_ocean": 6, "weapon_dice": 2}
    tech = [{"world": w, **cards} for w in ("Venus", "Mars", "Pluto")]
    version = new_game(server, "vnm", {**VNM, "version": "Enhanced", "tech": tech})
    p = Phone(browser, server).at(version)
    attack = p.moment("Attack")
    if not attack.locator("form").count():
        p.tap(attack.locator("button.open"))
    form = attack.locator("form")
    area = form.get_by_role("group", name=re.compile("^Target's area"))
    p.tap(area.locator("label").filter(has_text=re.compile("^Land")))
    shot(p.page, "taps-vnm-attack-land", full_page=False)
    p.tap(form.get_by_role("button", name=re.compile("^Bob \\(Mars\\)")))
    expect(p.said()).to_contain_text("Cy (Pluto) vs Bob (Mars)")
    expect(p.said()).to_contain_text("land")
    counted("VNM Enhanced attack on land", p, 3)
    p.close()


def test_vnm_research_of_a_chosen_upgrade_takes_at_most_three_taps(browser, server):
    """#36: research took 5 taps, its form asking the Upgrade chosen already. It starts at that card and its roll."""
    version = new_game(
        server,
        "vnm",
        # Pluto's cards entered as none: the seed's Ultronium Shielding (Pluto) is duplicated by Yttrium Alloys
        {**VNM, "version": "Enhanced", "tech": [{"world": "Pluto", "cards": []}]},
        {"type": "choose_upgrade", "upgrade": "Yttrium Alloys"},
    )
    p = Phone(browser, server).at(version)
    research = p.moment("Research")
    if not research.locator("form").count():
        p.tap(research.locator("button.open"))
    form = research.locator("form")
    expect(form.get_by_label(re.compile("^Upgrade card"))).to_have_value(re.compile("."))
    shot(p.page, "taps-vnm-research", full_page=False)
    p.submit(research)
    expect(p.said()).to_contain_text("Yttrium Alloys")
    expect(p.page.locator("#banner")).to_be_hidden()
    counted("VNM research of the chosen Upgrade", p, 3)
    p.close()


def test_vnm_attack_form_starts_at_the_declared_target(browser, server):
    version = new_game(server, "vnm", VNM, *VENUS_TURN, {"type": "declare_target", "target": "Pluto"})
    p = Phone(browser, server).at(version)
    attack = p.moment("Attack")
    expect(attack.locator("form")).to_be_visible()  # the only move waited for: open already
    expect(attack.locator("form").get_by_label("Pluto")).to_be_checked()
    # An attack always has a target: no "None" to tap, the enemy fleets only.
    target = attack.locator("form").get_by_role("group", name=re.compile("^Target"))
    labels = [t.strip() for t in target.locator("label").all_inner_texts()]
    assert labels == ["Bob (Mars), 2 ships", "Cy (Pluto), 5 ships"], labels  # named as on every screen
    shot(p.page, "taps-vnm-attack-declared")
    p.submit(attack)
    expect(p.said()).to_contain_text("Ann (Venus) vs Cy (Pluto)")
    counted("VNM attack after declaring", p, 1)
    p.close()


def test_vnm_attack_without_a_target_says_so_in_words(browser, server):
    """Nothing declared and real dice typed in: the form asks for the target, never offers "None"."""
    version = new_game(server, "vnm", VNM, *VENUS_TURN)
    p = Phone(browser, server).at(version)
    all_actions(p.page)
    p.page.locator("#by-hand").check()
    close_all_actions(p.page)
    attack = p.moment("Attack")
    attack.locator("button.open").tap()
    form = attack.locator("form")
    target = form.get_by_role("group", name=re.compile("^Target"))
    expect(target).to_be_visible()
    expect(target).not_to_contain_text("None")
    expect(target).not_to_contain_text("not chosen")
    form.locator(".submit-row button.primary").tap()
    expect(target.locator(".field-error")).to_contain_text("Target")  # said once, under the Target choices
    expect(form.locator(".form-error")).to_be_hidden()
    assert p.page.evaluate("() => S.view.version") == version  # nothing sent
    p.close()
    # Sent anyway without one (a button, another client): refused in the rules' words, nothing changes.
    status, data = server.request("POST", "/api/sessions/active/actions", {"type": "attack", "faces": [9, 9]})
    assert status == 422 and "declare a target first" in data["error"], (status, data)
    assert api(server, "GET", "/api/sessions/active")["version"] == version


def test_vnm_table_buttons_say_what_they_do_now_and_are_never_offered_only_to_be_refused(browser, server):
    """#17 QA F2, F3: out of turn, Cy's phone offered "Research / d10 (button B)" in a Basic game and
    "Attack (button A)" before a target was declared (refused when pressed)."""
    version = new_game(server, "vnm", VNM, *VENUS_TURN, *VENUS_TURN)  # Bob (Mars)'s turn
    p = Phone(browser, server, seat="Cy").at(version)
    fold = p.page.locator("details.table-buttons")
    expect(fold.locator("summary")).to_have_text("Table buttons (Bob (Mars)'s turn)")
    fold.locator("summary").tap()
    labels = fold.locator("button.open")
    expect(labels).to_have_text(["Roll d10 (button B)", "End turn (button C)"])
    shot(p.page, "vnm-table-buttons-basic")
    version = api_act(server, {"type": "declare_target", "target": "Venus"})
    p.at(version)
    expect(p.page.locator("details.table-buttons button.open")).to_have_text(
        ["Attack Ann (Venus) (button A)", "Roll d10 (button B)", "End turn (button C)"]
    )
    p.close()


def test_vnm_enhanced_first_attack_asks_the_card_values_in_its_own_form(browser, server):
    """The first Enhanced attack is no dead end: the Weapon dice and the target's Defense not entered
    yet are asked in the attack form, prefilled, under the Target (first, on the first screen); Pluto is
    offered no Q-Ray (Venus's) and no Gatling Lasers it has not acquired. Three taps, as a Basic attack."""
    version = new_game(server, "vnm", {**VNM, "version": "Enhanced"})
    p = Phone(browser, server, seat="Cy").at(version)
    attack = p.moment("Attack")
    p.tap(attack.locator("button.open"))
    form = attack.locator("form")
    target = form.get_by_role("group", name=re.compile("^Target$"))
    expect(target).to_be_visible()
    box = target.bounding_box()
    assert box["y"] + box["height"] < 844, box  # the Target, whole, on the first screen
    first = form.locator(".field").first
    expect(first).to_contain_text("Target")  # the first question
    expect(form).not_to_contain_text("Q-Ray")
    expect(form).not_to_contain_text("Gatling")
    expect(form.get_by_text("Target's Defense in space")).to_be_hidden()  # no target yet: no Defense asked
    area = form.get_by_role("group", name=re.compile("^Target's area"))
    expect(area.get_by_label("Space area or Orbit")).to_be_checked()  # where the rules start
    expect(area).not_to_contain_text("not chosen")  # unchosen is space anyway: no choice that says nothing
    p.tap(target.locator("label", has_text="Bob (Mars)"))
    defense = form.get_by_role("button", name="Target's Defense in space: 8")
    expect(defense).to_be_visible()
    expect(defense).to_have_attribute("aria-pressed", "true")  # prefilled: the general rule's 8, to check
    expect(form.get_by_role("button", name="Weapon dice: 2")).to_have_attribute("aria-pressed", "true")
    shot(p.page, "taps-vnm-enhanced-first-attack")
    p.submit(attack)
    expect(p.said()).to_contain_text("Cy (Pluto) vs Bob (Mars)")
    expect(p.said()).to_contain_text("entered from the cards")
    expect(p.said()).not_to_contain_text("set_tech")
    counted("VNM Enhanced first attack", p, 3)
    p.at(version + 1)
    # Kept for the game: the second attack on Bob asks nothing more.
    attack = p.moment("Attack")
    if not attack.locator("form").count():
        attack.locator("button.open").tap()
    form = attack.locator("form")
    expect(form).not_to_contain_text("Weapon dice")
    expect(form.get_by_role("button", name="Target's Defense in space: 8")).to_be_hidden()
    p.close()


# -- VENOM Assault ------------------------------------------------------------------------------
TACTICAL = (
    {"type": "set_commander", "player": "Ann"},
    {"type": "draw_event", "kind": "all_is_quiet"},
    {"type": "next_phase"},
    {"type": "next_phase"},
)
LEADER = {"type": "choose_leader", "name": "Vipress", "zone": "VENOM Island", "health": 3, "defense": 4, "support": 5}


def test_venom_allocate_three_taps_combat_roll_one_and_no_alarm_before(browser, server):
    version = new_game(server, "venom", {"players": ["Ann", "Bob"]}, *TACTICAL, LEADER)
    p = Phone(browser, server).at(version)
    expect(p.page.locator("#pending")).to_contain_text("allocate the Combat Dice")
    # Nothing is allocated yet: no "would abort" alarm, on the phone or in the screen it draws.
    expect(p.page.locator("#tab-game")).not_to_contain_text(re.compile("abort", re.I))
    allocate = p.moment("Allocate the Combat Dice")
    expect(allocate.locator("form")).to_be_visible()
    shot(p.page, "taps-venom-moment")
    p.tap(allocate.get_by_role("button", name="Combat Value: 3", exact=True))
    p.tap(allocate.get_by_role("button", name="Support dice: 2", exact=True))
    p.submit(allocate)
    expect(p.said()).to_contain_text("5 Combat Dice")
    counted("VENOM allocate dice", p, 3)
    p.at(version + 1)

    p.taps = 0
    roll = p.moment("Roll the Combat Dice")
    p.submit(roll)
    expect(p.said()).to_contain_text(re.compile("success(es)? vs Health 3"))
    counted("VENOM combat roll", p, 1)
    shot(p.page, "taps-venom-after-roll")
    p.close()


def test_venom_choosing_a_leader_entered_on_the_board_is_one_tap(browser, server):
    placed = {
        "type": "place_leader",
        "name": "Vipress",
        "zone": "VENOM Island",
        "health": 3,
        "defense": 4,
        "support": 5,
    }
    version = new_game(server, "venom", {"players": ["Ann", "Bob"]}, placed, *TACTICAL)
    said = "attacks Vipress in VENOM Island (Land): Health 3, Defense 4, Support 5"
    p = _one_tap(Phone(browser, server).at(version), "Choose the VENOM Leader", "^Vipress", said)
    counted("VENOM choose Leader", p, 2)
    p.close()


def _one_tap(p: Phone, moment: str, button: str, said: str) -> Phone:
    """Tap ``button`` (a pattern) in the form of the moment's action ``moment``, which sends it: ``said`` shows."""
    act = p.moment(moment)
    expect(act.locator("form")).to_be_visible()
    p.tap(act.get_by_role("button", name=re.compile(button)))
    expect(p.said()).to_contain_text(said)
    return p


# The Leader cards of the Mission's VENOM Leader Deck, typed at setup (setup data: the rulebook prints none).
LEADER_DECK = [
    {"name": "Vipress", "health": 3, "defense": 4, "support": 5},
    {"name": "Destro", "health": 4, "defense": 5, "support": 3},
]


def test_venom_choosing_a_leader_not_yet_on_the_board_is_two_taps(browser, server):
    """No Leader entered on the board: the deck's cards are the moment's buttons, then the Zone sends."""
    version = new_game(server, "venom", {"players": ["Ann", "Bob"], "leader_deck": LEADER_DECK}, *TACTICAL)
    p = Phone(browser, server).at(version)
    choose = p.moment("Choose the VENOM Leader")
    form = choose.locator("form")
    expect(form).to_be_visible()
    shot(p.page, "taps-venom-choose-leader")
    board = p.page.locator("#board")
    expect(board).to_contain_text("Event Track")
    expect(board).not_to_contain_text("Health")  # no Leader yet: no Health or Defense track on the phone
    expect(board).not_to_contain_text("Defense")
    p.tap(form.get_by_role("button", name=re.compile("^Vipress: Health 3")))
    expect(form.locator(".form-error")).to_be_hidden()  # a card alone is not sent: its Zone is still asked
    zone = form.get_by_role("button", name="VENOM Island (Land)", exact=True)
    shot(p.page, "taps-venom-choose-leader-card-tapped")
    # No scrolling between the two taps: the Zones come into reach, clear of the pinned send button.
    expect(zone).to_be_in_viewport()
    assert zone.bounding_box()["y"] + zone.bounding_box()["height"] <= form.locator(".submit-row").bounding_box()["y"]
    p.tap(zone)
    expect(p.said()).to_contain_text("attacks Vipress in VENOM Island (Land): Health 3, Defense 4, Support 5")
    counted("VENOM choose Leader, not yet on the board", p, 2)
    p.at(version + 1)
    expect(board).to_contain_text("Health: 3")  # the Leader's markers, once it is chosen
    expect(board).to_contain_text("Defense: 4")
    # The Leader is on the board now: the next Turn that attacks it takes it with one tap.
    assert api(server, "GET", "/api/sessions/active")["state"]["zones"]["VENOM Island"]["name"] == "Vipress"
    p.close()


def test_venom_an_empty_zone_is_refilled_at_the_end_of_turn_in_one_tap(browser, server):
    """#35: Vipress captured, the End of Turn's moment is her Zone's refill, its form at that Zone: tapping the
    deck's next card sends it (before: Enter a Leader under All actions, 3 taps per Leader)."""
    placed = {"type": "place_leader", "card": "Vipress", "zone": "VENOM Island"}
    chosen = {"type": "choose_leader", "on_board": "VENOM Island"}
    fight = ({"type": "allocate_dice", "combat_value": 3}, {"type": "combat_roll", "faces": [6, 6, 6]})
    to_end = ({"type": "next_phase"}, {"type": "next_phase"})  # Retirement, End of Turn
    options = {"players": ["Ann", "Bob"], "leader_deck": LEADER_DECK}
    version = new_game(server, "venom", options, placed, *TACTICAL, chosen, *fight, *to_end)
    p = Phone(browser, server).at(version)
    expect(p.page.locator("#pending")).to_contain_text("refill VENOM Island")
    _one_tap(p, "Enter the new VENOM Leader", "^Destro: Health 4", "Destro in VENOM Island: Health 4, Defense 5")
    counted("VENOM refill an empty Zone", p, 1)
    p.close()


def test_venom_a_leader_typed_in_asks_every_value_in_sight_and_says_what_is_missing_where_it_is_seen(browser, server):
    """QA F1: no VENOM Leader Deck given and no Leader on the board, so the card's values are the only way to choose
    it: the Leader's name is asked with them (it was folded under "More: Leader", yet required), Health and Defense
    are one line of 1-8 each, and what is missing is said by its label where the phone sees it, not under the sticky
    send row (it was "give its name, support", off-screen below)."""
    version = new_game(server, "venom", {"players": ["Ann", "Bob"]}, *TACTICAL)
    p = Phone(browser, server).at(version)
    choose = p.moment("Choose the VENOM Leader")
    form = choose.locator("form")
    expect(form).to_be_visible()
    expect(form.locator("details.more")).to_have_count(0)  # nothing required folded away
    name = form.get_by_role("textbox", name=re.compile("^Leader's name"))
    expect(name).to_be_visible()
    for track in ("Health", "Defense"):
        values = form.locator(".field").filter(has_text=re.compile(f"^{track}")).locator(".chips button")
        boxes = [values.nth(i).bounding_box() for i in range(values.count())]
        assert len(boxes) == 8 and len({round(b["y"]) for b in boxes}) == 1, (track, boxes)  # one line, not 7 + 1
        assert min(b["width"] for b in boxes) >= 40 and min(b["height"] for b in boxes) >= 40, (track, boxes)
    form.locator("select").first.select_option(label="VENOM Island (Land)")
    form.get_by_role("button", name="Health: 3", exact=True).tap()
    form.get_by_role("button", name="Defense: 4", exact=True).tap()
    send = form.locator(".submit-row button.primary")
    send.tap()
    said = form.locator(".field-error:visible, .form-error:visible")
    expect(said).to_have_text(["Leader's name: please fill this in."])
    shot(p.page, "venom-leader-name-missing", full_page=False)
    assert hidden_or_covered(p.page, said) == []
    name.fill("Vipress")
    send.tap()
    expect(said).to_have_text(["Support Value: please fill this in."])
    assert hidden_or_covered(p.page, said) == []
    assert p.page.evaluate("() => S.view.version") == version  # nothing sent
    form.get_by_role("button", name="Support Value: 5", exact=True).tap()
    send.tap()
    expect(p.said()).to_contain_text("attacks Vipress in VENOM Island (Land): Health 3, Defense 4, Support 5")
    p.close()


def test_venom_a_leader_refused_by_the_rules_is_said_above_the_send_button(browser, server):
    """The rules' own refusal (a Leader already captured), said for the whole form: in sight, clear of the sticky send
    row and the sticky header."""
    captured = {"type": "record_capture", "name": "Vipress", "support": 5, "player": "Bob"}
    version = new_game(server, "venom", {"players": ["Ann", "Bob"]}, *TACTICAL, captured)
    p = Phone(browser, server).at(version)
    form = p.moment("Choose the VENOM Leader").locator("form")
    form.get_by_role("textbox", name=re.compile("^Leader's name")).fill("Vipress")
    form.locator("select").first.select_option(label="VENOM Island (Land)")
    for value in ("Health: 3", "Defense: 4", "Support Value: 5"):
        form.get_by_role("button", name=value, exact=True).tap()
    form.locator(".submit-row button.primary").tap()
    refusal = form.locator(".form-error")
    expect(refusal).to_contain_text("Vipress is already in Bob's Victory Point pile")
    p.page.wait_for_timeout(100)
    shot(p.page, "venom-leader-refused", full_page=False)
    assert hidden_or_covered(p.page, refusal) == []
    assert p.page.evaluate("() => S.view.version") == version
    p.close()


def test_venom_roll_off_is_said_as_the_rulebook_s_roll_off_on_the_phone(browser, server):
    """Who rolled what and who won: the Commander, first to take a Turn; never a "total" of the dice."""
    version = new_game(
        server, "venom", {"players": ["Ann", "Bob", "Cy"]}, {"type": "commander_roll_off", "faces": [5, 5, 2]}
    )
    p = Phone(browser, server).at(version)
    board = p.page.locator("#board")
    expect(board).to_contain_text("Roll-off: Ann 5, Bob 5, Cy 2: Ann and Bob tie: roll again")
    expect(p.page.locator("#pending")).to_contain_text("Roll off again - Ann and Bob (tied for the Commander)")
    version = api_act(server, {"type": "commander_roll_off", "faces": [3, 6]})
    p.at(version)
    expect(board).to_contain_text("Roll-off: Ann 3, Bob 6: Bob is Commander")
    expect(p.page.locator("#pending")).to_contain_text("Bob: draw the Event card")  # the Commander goes first
    expect(board).not_to_contain_text("total")
    shot(p.page, "venom-roll-off")
    p.close()


# -- everywhere: a correction, an undo -----------------------------------------------------------
def test_a_correction_from_the_list_takes_three_taps_and_undo_one(browser, server):
    """From the Fix a number list (in All actions, #36): the sheet, the list, +. A number shown on the board is
    fixed where it is shown in 2 (test_fix_the_number_shown_is_two_taps_and_no_scroll)."""
    version = new_game(server, "venom", {"players": ["Ann", "Bob"]}, *TACTICAL)
    p = Phone(browser, server).at(version)
    p.tap(p.page.locator("#all-open"))
    p.tap(p.page.locator("#numbers-title"))
    p.tap(p.page.get_by_role("button", name="Event Track: one more"))
    expect(p.said()).to_contain_text("Event Track")
    counted("any correction, from the Fix a number list", p, 3)
    p.at(version + 1)
    p.taps = 0
    p.tap(p.page.locator("#undo"))
    expect(p.said()).to_contain_text("undid")
    counted("undo", p, 1)
    p.close()


# -- numbers a person cannot get wrong -----------------------------------------------------------
def test_vnm_a_population_correction_names_where_the_chip_comes_from_in_one_tap(browser, server):
    """QA #5: Ann's "population: one more" was refused ("correct: 1 more population must come from somewhere")
    and the fix took China one less, then Ann one more: two corrections. Now + asks where from (only the piles
    holding chips), and that tap is the whole correction, said once: "Ann (Venus) corrected their population"."""
    version = new_game(server, "vnm", VNM)
    ann = Phone(browser, server, seat="Ann").at(version)
    # From the population bars (the main element, on the first screen): the bar, then where from. 2 taps.
    bar = ann.page.get_by_role("button", name="Fix Ann (Venus): population", exact=True)
    expect(bar).to_be_in_viewport()
    ann.tap(bar)
    sources = ann.page.locator("#board").get_by_role("group", name="One more for Ann (Venus): population, from:")
    expect(sources).to_be_visible()
    expect(ann.page.locator("#board").get_by_role("group", name=re.compile("^One less"))).to_have_count(0)  # at 0
    shot(ann.page, "taps-vnm-correction-from-the-bar", full_page=False)
    ann.tap(sources.get_by_role("button", name="Ann (Venus): population: one more, from India", exact=True))
    expect(ann.said()).to_have_text("Ann (Venus) corrected their population: 0 -> 1, 1 from India (fixed on a phone)")
    counted("any correction, VNM population from its bar", ann, 2)
    expect(ann.page.locator("#board .numfix")).to_have_count(0)  # done: the bar is a bar again
    ann.at(version + 1)
    ann.page.evaluate("() => fetch('/api/sessions/active/undo', {method: 'POST'})")
    ann.at(version + 2)
    # From the Fix a number list (in All actions): +, then where from.
    all_actions(ann.page)
    ann.tap(ann.page.locator("#numbers-title"))
    ann.taps = 0  # from the list open
    ann.tap(ann.page.get_by_role("button", name="Ann (Venus): population: one more", exact=True))
    sources = ann.page.get_by_role("group", name="One more for Ann (Venus): population, from:", exact=True)
    expect(sources).to_be_in_viewport()
    expect(sources).not_to_contain_text("destroyed pile")  # it holds no chip: not offered
    shot(ann.page, "taps-vnm-correction-from-where", full_page=False)
    ann.tap(sources.get_by_role("button", name="Ann (Venus): population: one more, from China", exact=True))
    expect(ann.said()).to_have_text("Ann (Venus) corrected their population: 0 -> 1, 1 from China (fixed on a phone)")
    counted("VNM population correction, from the Fix a number list", ann, 2)
    state = api(server, "GET", "/api/sessions/active")["state"]
    assert state["worlds"]["Venus"]["population"] == 1 and state["land_areas"][0]["population"] == 26
    assert state["destroyed"] == 0
    log = api(server, "GET", "/api/sessions/active/log")
    entries = log["entries"] if isinstance(log, dict) else log
    assert [e["type"] for e in entries][-1:] == ["correct"] and len(entries) == version + 3  # one log entry each
    expect(ann.page.locator("#banner")).to_be_hidden()
    ann.close()


def test_number_fields_start_where_they_should_and_refuse_out_of_range_in_words(browser, server):
    version = new_game(server, "venom", {"players": ["Ann", "Bob"]}, *TACTICAL, LEADER)
    p = Phone(browser, server).at(version)
    page = p.page
    # An empty stepper starts at the field's minimum: three taps on "+" are the minimum and two more.
    all_actions(page)
    choose = page.locator("#groups .act").filter(has=page.locator("button.open", has_text="Choose the VENOM Leader"))
    choose.locator("button.open").tap()
    support = choose.get_by_role("spinbutton", name=re.compile("^Support"))
    expect(support).to_have_value("")
    for _ in range(3):
        choose.get_by_role("button", name="Support Value: one more").tap()
    expect(support).to_have_value("2")
    # A small range is its values to tap, and only those: nothing outside it is offered, and no box to type
    # the same number in a second way.
    health = choose.locator(".field").filter(has_text=re.compile("^Health"))
    assert health.locator(".chips button").all_inner_texts() == [str(n) for n in range(1, 9)]
    expect(health.get_by_role("spinbutton")).to_have_count(0)
    # Typed out of range: refused in the form, in words, and nothing is sent.
    support.fill("57")
    field = choose.locator(".field").filter(has=page.get_by_role("spinbutton", name=re.compile("^Support")))
    expect(field.locator(".field-error")).to_have_text("Support Value: 0 to 56, not 57.")
    choose.locator("input[type=text]").first.fill("Vipress")
    choose.locator("select").first.select_option(index=1)
    choose.get_by_role("button", name="Health: 3", exact=True).tap()
    choose.get_by_role("button", name="Defense: 4", exact=True).tap()
    choose.locator("form .submit-row button.primary").tap()
    # Said once, under Support Value (not again above the send button).
    expect(field.locator(".field-error")).to_have_text("Support Value: 0 to 56, not 57.")
    expect(choose.get_by_text("Support Value: 0 to 56, not 57.")).to_have_count(1)
    expect(choose.locator("form > .form-error")).to_be_hidden()
    assert page.evaluate("() => S.view.version") == version
    # A signed change starts at 0: one tap on "−" in an empty field is -1, never the bottom of the range (-10).
    for action in ({"type": "allocate_dice", "combat_value": 3}, {"type": "combat_roll"}):
        version = api_act(server, action)
    p.at(version)
    close_all_actions(page)  # the change of a die is the moment's now, on the card
    change = page.locator("#tab-game .act").filter(has=page.locator("button.open", has_text="Change a die"))
    if not change.locator("form").count():
        change.locator("button.open").tap()
    by = change.get_by_role("spinbutton", name=re.compile("^Change by|^By"))
    expect(by).to_have_value("")
    change.get_by_role("button", name=re.compile(": one less$")).tap()
    expect(by).to_have_value("-1")
    shot(page, "numbers")
    p.close()


# -- a button press, in words, on every phone ----------------------------------------------------
def test_a_button_press_is_said_in_words_on_every_phone(browser, server):
    version = new_game(server, "venom", {"players": ["Ann", "Bob"]}, *TACTICAL[:2])
    phones = [Phone(browser, server).at(version), Phone(browser, server, seat="Bob").at(version)]
    api(server, "POST", "/api/buttons/B", {"hold": False})  # as the GPIO button does
    for p in phones:
        expect(p.said()).to_contain_text(re.compile(r"^Button B: 1 die: rolled", re.I))
    api(server, "POST", "/api/buttons/D", {"hold": False})
    for p in phones:
        expect(p.said()).to_contain_text(re.compile(r"^Button D undid: 1 die: rolled", re.I))
    # A phone's own change replaces the message on the other phone too: never an old message.
    phones[1].at(version + 2)
    phones[1].page.locator("#main-actions button.open").first.tap()
    # It is Ann's move: Bob's phone asks before acting for her.
    expect(phones[1].page.locator("#confirm")).to_contain_text("Ann")
    phones[1].page.locator("#confirm-yes").tap()
    for p in phones:
        expect(p.said()).to_contain_text(re.compile(r"^Bob: ", re.I))
    for p in phones:
        p.close()


# -- Venus 2140: a seat's own pool, tapped ----------------------------------------------------------
POOLS = (
    {
        "type": "prepare_pool",
        "participant": "Shred",
        "primary_skills": 3,
        "secondary_skills": 3,
        "secondary_assist_quality": 4,
    },
    {"type": "roll_pool", "participant": "Shred", "faces": {"6": 2, "5": 4, "4": 1, "3": 2, "2": 2, "1": 1}},
    {"type": "prepare_pool", "participant": "GM", "racks": 1},
    {"type": "roll_pool", "participant": "GM", "faces": [6, 4, 3, 2, 2, 1, 1]},
)


def test_v2140_seated_phones_play_an_exchange_with_their_own_dice(browser, server):
    version = new_game(server, "v2140", {"players": ["Shred", "Sven"]}, *POOLS)
    shred, sven, gm = (Phone(browser, server, seat=s).at(version) for s in ("Shred", "Sven", "GM"))
    # Shred's phone shows his own faces; Sven's phone and the e-paper's public view only the count.
    expect(shred.page.locator("#mine")).to_contain_text("Your dice (7):")
    assert shred.page.locator("#mine .die").all_inner_texts() == ["6", "6", "5", "5", "5", "5", "4"]
    expect(sven.page.locator("#mine")).to_have_text("Your dice:none in your scene pool")  # his own pool: empty
    expect(sven.page.locator("#board")).to_contain_text("7 dice")
    assert "6,6,5,5,5,5,4" not in sven.page.evaluate("() => JSON.stringify([S.view, S.acts])")
    public = api(server, "GET", "/api/sessions/active")
    assert public["state"]["participants"]["Shred"]["pool"] is None
    assert "7 dice" in str(public["screen"]) and "6, 6, 5" not in str(public["screen"])
    shot(shred.page, "taps-v2140-moment")
    shot(sven.page, "taps-v2140-other-seat")

    # The exchange: Shred puts forward a 6 from his pool against the GM ...
    shred.taps = 0
    forward = shred.moment("Put dice forward")
    expect(forward.locator("form")).to_be_visible()
    shred.tap(forward.get_by_role("group", name=re.compile("^Target")).get_by_text("GM", exact=True))
    shred.tap(forward.get_by_role("button", name="Die 1 showing 6"))
    shred.submit(forward)
    expect(shred.said()).to_contain_text("Shred")
    counted("V2140 exchange, actor", shred, 4)
    # ... the GM answers with a 4 from the GM's pool, and resolves.
    gm.at(version + 1)
    expect(gm.page.locator("#pending")).to_contain_text("GM: answer Shred's 6 with 1 die")
    answer = gm.moment("Answer the exchange")
    gm.tap(answer.get_by_role("button", name="Die 2 showing 4"))
    gm.submit(answer)
    gm.at(version + 2)
    gm.tap(gm.moment("Resolve the exchange").locator("button.open"))
    expect(gm.said()).to_contain_text(re.compile("book", re.I))
    counted("V2140 exchange, target", gm, 3)
    expect(shred.said()).to_have_text(gm.said().inner_text())
    shot(gm.page, "taps-v2140-after-exchange")
    for p in (shred, sven, gm):
        p.close()


# -- Venusian Vegas: a trick of four ---------------------------------------------------------------
VEGAS_PLAYERS = ["Jo", "Kim", "Lu", "Max"]
JO_LEADS = (
    *({"type": "setup_tracks", "player": p, "tracks": ["Team", "Game"]} for p in VEGAS_PLAYERS),
    {"type": "start_round"},
    {"type": "choose_furthest_behind", "player": "Jo"},
    {"type": "free_increase", "track": "Bot"},
)
TRICK = (("Jo", "Team", 5), ("Kim", "Team", 9), ("Lu", "Game", 3), ("Max", "Bot", 12))


def test_vegas_each_seat_plays_its_card_in_three_taps_and_the_trick_judges_itself(browser, server):
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *JO_LEADS)
    phones = {name: Phone(browser, server, seat=name).at(version) for name in VEGAS_PLAYERS}
    for n, (name, suit, number) in enumerate(TRICK):
        p = phones[name].at(version + n)
        p.taps = 0
        expect(p.page.locator("#pending li.yours")).to_contain_text(name)
        play = p.moment("Play a card")
        form = play.locator("form")
        expect(form).to_be_visible()  # its own card, open already
        if n == 0:
            shot(p.page, "taps-vegas-moment")
            expect(form.locator(".submit-row")).to_be_in_viewport()  # the send button in reach, no scrolling
        p.tap(form.get_by_role("group", name="Suit", exact=True).get_by_text(suit, exact=True))
        p.tap(form.get_by_role("button", name=f"Number: {number}", exact=True))
        p.submit(play)
        expect(p.said()).to_contain_text(f"{name} plays {suit} {number}")
        counted(f"Vegas trick, {name}'s phone", p, 3)
    for p in phones.values():  # judged by itself when the fourth card is in, said on every phone
        expect(p.said()).to_contain_text("Trick 1: Kim wins")
    # The bonus: Kim taps a card of the trick (her own is not offered).
    kim = phones["Kim"].at(version + 4)
    kim.taps = 0
    claim = kim.moment("Take a trick bonus")
    offered = claim.locator("fieldset.quick button")
    expect(offered).to_have_count(3)
    expect(claim).not_to_contain_text("Kim: Team 9")
    kim.tap(offered.filter(has_text="Lu: Game 3"))
    expect(kim.said()).to_contain_text("Kim")
    counted("Vegas bonus, tapping a card of the trick", kim, 2)
    shot(kim.page, "taps-vegas-after-trick")
    for p in phones.values():
        p.close()


def test_vegas_a_seat_s_entered_hand_is_its_cards_to_tap_one_tap_a_card(browser, server):
    """#36: "a seat's entered Vegas hand is offered as its cards to tap (1 tap a card)"; the form asked suit and
    number although the hand was entered. Jo (no token left) plays with one tap; Kim (a Game token) taps her card,
    then "Play a card" or a token's button: 2. Only the seat's own phone sees its hand: a table phone still asks
    suit and number."""
    no_token = "test: Jo holds no token"
    tokens_off = ({"type": "correct", "key": f"tokens.0.{c}", "value": 0, "reason": no_token} for c in ("Game", "Bot"))
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *JO_LEADS, *tokens_off)
    held = api(server, "GET", "/api/sessions/active")["state"]["hand"]
    jo_hand = [f"Team {n}" for n in range(1, held["Jo"] + 1)]
    kim_hand = [f"Bot {n}" for n in range(1, held["Kim"] + 1)]
    version = api_act(server, {"type": "enter_hand", "player": "Jo", "cards": jo_hand})
    version = api_act(server, {"type": "enter_hand", "player": "Kim", "cards": kim_hand})
    described = api(server, "GET", "/api/sessions/active/actions")["actions"]
    play = next(a for a in described if a["type"] == "play_card")
    assert "from_hand" not in [f["name"] for f in play["fields"]]  # a phone with no seat sees no hand
    jo, kim = Phone(browser, server, seat="Jo").at(version), Phone(browser, server, seat="Kim").at(version)
    form = jo.moment("Play a card").locator("form")
    hand = form.get_by_role("group", name=re.compile("^Your card"))
    expect(hand.get_by_role("button")).to_have_text(jo_hand)
    expect(form.get_by_role("group", name="Suit", exact=True)).to_have_count(0)
    jo.tap(hand.get_by_role("button", name="Team 5", exact=True))
    expect(jo.said()).to_contain_text("Jo plays Team 5")
    counted("Vegas card from an entered hand, no token", jo, 1)
    kim.at(version + 1)
    form = kim.moment("Play a card").locator("form")
    hand = form.get_by_role("group", name=re.compile("^Your card"))
    expect(hand.get_by_role("button")).to_have_text(kim_hand)  # no Team in hand: every card may be played
    shot(kim.page, "taps-vegas-hand", full_page=False)
    kim.tap(hand.get_by_role("button", name="Bot 4", exact=True))
    assert api(server, "GET", "/api/sessions/active")["version"] == version + 1  # a token may go with it: not sent
    kim.tap(form.get_by_role("button", name="Play a card", exact=True))
    expect(kim.said()).to_contain_text("Kim plays Bot 4")
    counted("Vegas card from an entered hand, with a token to choose", kim, 2)
    state = api(server, "GET", "/api/sessions/active")["state"]
    assert [(r["player"], r["suit"], r["number"]) for r in state["playing"]] == [("Jo", "Team", 5), ("Kim", "Bot", 4)]
    jo.close()
    kim.close()


def test_vegas_one_table_phone_enters_a_trick_of_four_in_ten_taps(browser, server):
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *JO_LEADS)
    p = Phone(browser, server).at(version)
    trick = p.moment("Enter a trick")
    form = trick.locator("form")
    expect(form).to_be_visible()
    rows = form.locator(".rows-item")
    expect(rows.locator("h4")).to_have_text(VEGAS_PLAYERS)  # one row per player, in lead order
    shot(p.page, "taps-vegas-table-phone")
    for i, (_, suit, number) in enumerate(TRICK):
        row = rows.nth(i)
        p.tap(row.get_by_role("group", name="Suit", exact=True).get_by_text(suit, exact=True))
        p.tap(row.get_by_role("button", name=f"Number: {number}", exact=True))
    p.submit(trick)
    expect(p.said()).to_contain_text("Trick 1: Kim wins")
    counted("Vegas trick, one table phone", p, 10)
    text = p.page.locator("#tab-game").inner_text()
    for leak in ("choose_furthest_behind", "Add a tokens", "_"):
        assert leak not in text, leak
    p.close()


def test_vegas_one_table_phone_enters_a_trick_with_a_token_in_ten_taps(browser, server):
    """#36: the token sat under a closed "Token (optional)" (11 taps). A row's player who holds a token is asked it
    in the row, one tap: four cards, Jo's Bot token and the send are 10."""
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *JO_LEADS)
    assert api(server, "GET", "/api/sessions/active")["state"]["tokens"]["Jo"]["Bot"] == 1
    p = Phone(browser, server).at(version)
    trick = p.moment("Enter a trick")
    rows = trick.locator("form .rows-item")
    expect(rows.locator("h4")).to_have_text(VEGAS_PLAYERS)
    for i, (_, suit, number) in enumerate(TRICK):
        row = rows.nth(i)
        p.tap(row.get_by_role("group", name="Suit", exact=True).get_by_text(suit, exact=True))
        p.tap(row.get_by_role("button", name=f"Number: {number}", exact=True))
    p.tap(rows.nth(0).get_by_role("group", name=re.compile("^Token")).get_by_text("Bot", exact=True))
    shot(p.page, "taps-vegas-table-phone-token", full_page=False)
    p.submit(trick)
    expect(p.said()).to_contain_text("Trick 1")
    counted("Vegas trick with a token, one table phone", p, 10)
    assert api(server, "GET", "/api/sessions/active")["state"]["tokens"]["Jo"]["Bot"] == 0  # played
    p.close()


def test_vegas_a_seated_card_with_a_token_is_three_taps(browser, server):
    """The token is a send button ("Play a card + Bot"), not a choice before the send: suit, number,
    send-with-token. Old panel: suit, number, token, send (4)."""
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *JO_LEADS)
    held = api(server, "GET", "/api/sessions/active")["state"]["tokens"]["Jo"]
    token = next(c for c in ("Inspector", "Bot", "Mobster") if held.get(c, 0) > 0)
    jo = Phone(browser, server, seat="Jo").at(version)
    play = jo.moment("Play a card")
    form = play.locator("form")
    expect(form).to_be_visible()
    row = form.locator(".submit-row")
    expect(row.get_by_role("button", name="Play a card", exact=True)).to_be_visible()  # the plain send: no token
    for c in ("Game", "Inspector", "Bot", "Mobster"):  # only the tokens Jo holds are offered
        offered = row.get_by_role("button", name=f"Play a card + {c}", exact=True)
        if held.get(c, 0) > 0:
            expect(offered).to_be_visible()
        else:
            expect(offered).to_have_count(0)
    expect(row).to_be_in_viewport()
    # The first screen holds the whole moment, nothing over anything: every suit, all 13 numbers and the send
    # buttons, each in the viewport and the element at its centre and edges (not the sticky send row over it).
    suits = form.get_by_role("group", name="Suit", exact=True).locator("label")
    numbers = form.locator(".chips button")
    sends = row.locator("button:visible")
    covered = hidden_or_covered(jo.page, suits, numbers, sends)
    shot(jo.page, "taps-vegas-token-sends", full_page=False)  # the first screen, as the phone shows it
    assert suits.count() == 5 and numbers.count() == 13 and sends.count() >= 2
    assert covered == [], covered
    # One way to say the number: its 13 buttons, no "1 to 13" box under them.
    expect(form.get_by_role("spinbutton")).to_have_count(0)
    jo.tap(form.get_by_role("group", name="Suit", exact=True).get_by_text("Team", exact=True))
    jo.tap(form.get_by_role("button", name="Number: 5", exact=True))
    jo.tap(row.get_by_role("button", name=f"Play a card + {token}", exact=True))
    expect(jo.said()).to_contain_text("Jo plays Team 5")
    counted("Vegas card with a token, a seated phone", jo, 3)
    playing = api(server, "GET", "/api/sessions/active")["state"]["playing"]
    assert [(r["player"], r["suit"], r["number"], r.get("token")) for r in playing] == [("Jo", "Team", 5, token)]
    # A Game token used for its ability also says where the Trump Indicator moves (the rules ask it): its answers are
    # that token's send buttons ("Play a card + Game, trump to:" No Trump, Team, ...), asked once the card is chosen,
    # so the trump costs no tap of its own.
    kim = Phone(browser, server, seat="Kim").at(version + 1)
    play = kim.moment("Play a card")
    form = play.locator("form")
    row = form.locator(".submit-row")
    asked = row.get_by_role("group", name="Play a card + Game, trump to", exact=True)
    expect(form).to_be_visible()
    expect(asked).to_be_hidden()  # till the card is chosen the send buttons take little room, clear of its questions
    kim.tap(form.get_by_role("group", name="Suit", exact=True).get_by_text("Team", exact=True))
    # The suit chosen, every number is in reach above the send buttons (the form scrolls only as far as needed).
    last = form.get_by_role("button", name="Number: 13", exact=True).bounding_box()
    assert last["y"] + last["height"] <= row.bounding_box()["y"], (last, row.bounding_box())
    kim.tap(form.get_by_role("button", name="Number: 9", exact=True))
    expect(asked).to_be_in_viewport()
    # The trump answers shown, the card chosen is still in sight and free to change: nothing covers the suits,
    # the numbers or the answers (the form scrolls its end into view rather than the send row growing over it).
    kim.page.wait_for_timeout(100)
    suits = form.get_by_role("group", name="Suit", exact=True).locator("label")
    numbers = form.locator(".chips button")
    assert hidden_or_covered(kim.page, suits, numbers, asked.get_by_role("button")) == []
    expect(row.get_by_role("button", name="Play a card + Game", exact=True)).to_be_hidden()  # never without its trump
    shot(kim.page, "taps-vegas-game-token-trump", full_page=False)
    kim.tap(asked.get_by_role("button", name="Play a card + Game, trump to Bot", exact=True))
    expect(kim.said()).to_contain_text("Kim plays Team 9 with a Game token")
    counted("Vegas card with a Game token and its trump, a seated phone", kim, 3)
    kim_s = api(server, "GET", "/api/sessions/active")["state"]["playing"][1]
    assert (kim_s["player"], kim_s["token"], kim_s.get("trump")) == ("Kim", "Game", "Bot")
    for p in (jo, kim):
        p.close()


def test_vegas_two_claims_each_phone_taps_its_own_bonus_card(browser, server):
    """QA #6: the trick's winner (Kim) and a Bot token's player (Lu) both claim a bonus. Each phone
    offers only the cards its claimer may take (never their own), and one tap takes it; the table
    phone offers the cards of the claimer chosen in its form."""
    set_up = (
        *(
            {"type": "setup_tracks", "player": p, "tracks": ["Team", "Bot" if p == "Lu" else "Game"]}
            for p in VEGAS_PLAYERS
        ),
        *JO_LEADS[len(VEGAS_PLAYERS) :],
        {"type": "play_card", "player": "Jo", "suit": "Team", "number": 5},
        {"type": "play_card", "player": "Kim", "suit": "Team", "number": 9},
        {"type": "play_card", "player": "Lu", "suit": "Bot", "number": 3, "token": "Bot"},
        {"type": "play_card", "player": "Max", "suit": "Team", "number": 2},
    )
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *set_up)
    trick = api(server, "GET", "/api/sessions/active")["state"]["trick"]
    assert [c["player"] for c in trick["claims"]] == ["Kim", "Lu"]
    cards = {"Jo": "Jo: Team 5", "Kim": "Kim: Team 9", "Lu": "Lu: Bot 3", "Max": "Max: Team 2"}

    def offers(act, claimer: str) -> None:
        """The one-tap cards shown are every card of the trick but the claimer's own, each once (in the trick's
        order, the names' order here). Waited for, as a tap's effect or a seat's view lands when it lands."""
        shown = act.locator("fieldset.quick button:visible")
        take = [re.compile(f"^{re.escape(v)}( \\(|$)") for k, v in sorted(cards.items()) if k != claimer]
        expect(shown).to_have_text(take, timeout=30_000)

    table = Phone(browser, server).at(version)
    claim = table.moment("Take a trick bonus")
    expect(claim.locator("fieldset.quick")).to_be_visible()
    offers(claim, "Kim")  # the first claimer's
    claim.get_by_role("group", name="Player", exact=True).get_by_text("Lu", exact=True).tap()
    offers(claim, "Lu")
    shot(table.page, "taps-vegas-two-claims-table")
    table.close()

    for n, (name, take) in enumerate((("Kim", "Lu: Bot 3"), ("Lu", "Kim: Team 9"))):
        p = Phone(browser, server, seat=name).at(version + n)
        p.taps = 0
        claim = p.moment("Take a trick bonus")
        expect(claim.locator("fieldset.quick")).to_be_visible()
        offers(claim, name)
        if n == 0:
            shot(p.page, "taps-vegas-two-claims-winner")
        p.tap(claim.locator("fieldset.quick button:visible").filter(has_text=take))
        expect(p.said()).to_contain_text(f"{name} takes the trick bonus of {take.split(': ')[1]}")
        counted(f"Vegas bonus with two claims open, {name}'s phone", p, 2)
        p.close()
    assert api(server, "GET", "/api/sessions/active")["state"]["trick"] is None  # both taken: the trick closed


def test_vegas_a_mobster_token_takes_a_card_of_the_complete_trick_in_one_tap(browser, server):
    """Kim plays the Mobster token with her card before Lu's and Max's are down; when the trick is complete her phone
    asks which card it takes, the trick's cards to tap (not the 65 cards of the deck), before the bonuses."""
    kim_holds_a_mobster = {"type": "correct", "key": "tokens.1.Mobster", "value": 1}
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *JO_LEADS, kim_holds_a_mobster)
    api(
        server,
        "POST",
        "/api/sessions/active/actions",
        {"type": "play_card", "player": "Jo", "suit": "Team", "number": 5},
    )
    kim = Phone(browser, server, seat="Kim").at(version + 1)
    play = kim.moment("Play a card")
    form = play.locator("form")
    expect(form).not_to_contain_text("Mobster takes")
    kim.tap(form.get_by_role("group", name="Suit", exact=True).get_by_text("Team", exact=True))
    kim.tap(form.get_by_role("button", name="Number: 9", exact=True))
    kim.tap(form.get_by_role("button", name="Play a card + Mobster", exact=True))
    expect(kim.said()).to_contain_text("Kim plays Team 9 with a Mobster token")
    counted("Vegas card with a Mobster token, a seated phone", kim, 3)
    for name, suit, number in TRICK[2:]:
        body = {"type": "play_card", "player": name, "suit": suit, "number": number}
        api(server, "POST", "/api/sessions/active/actions", body)
    kim.at(version + 4)
    kim.taps = 0
    expect(kim.page.locator("#pending li.yours")).to_contain_text("Kim: take a card of the trick (Mobster)")
    take = kim.moment("Take a card (Mobster)")
    offered = take.locator("fieldset.quick button")
    expect(offered).to_have_text(["Jo: Team 5", "Kim: Team 9", "Lu: Game 3", "Max: Bot 12"])
    shot(kim.page, "taps-vegas-mobster-take", full_page=False)
    kim.tap(offered.filter(has_text="Max: Bot 12"))
    expect(kim.said()).to_contain_text("Kim takes Bot 12 out of trick 1 into their hand")
    counted("Vegas Mobster take, tapping a card of the trick", kim, 2)
    kim.at(version + 5)
    claim = kim.moment("Take a trick bonus")  # then the bonus: the card taken is not on offer
    expect(claim.locator("fieldset.quick button")).to_have_count(2)
    expect(claim).not_to_contain_text("Bot 12")
    kim.close()


def test_vegas_a_seat_holding_every_token_still_sees_its_whole_card_on_the_first_screen(browser, server):
    """Four token buttons take the send row to two lines: it still rests under the 13 numbers, nothing covered."""
    holds = ({"type": "correct", "key": f"tokens.0.{c}", "value": 1} for c in ("Inspector", "Mobster"))
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *JO_LEADS, *holds)
    jo = Phone(browser, server, seat="Jo").at(version)
    form = jo.moment("Play a card").locator("form")
    sends = form.locator(".submit-row button:visible")
    expect(sends).to_have_count(6)  # Cancel, Play a card, + Game, + Inspector, + Bot, + Mobster
    suits = form.get_by_role("group", name="Suit", exact=True).locator("label")
    assert hidden_or_covered(jo.page, suits, form.locator(".chips button"), sends) == []
    shot(jo.page, "taps-vegas-every-token", full_page=False)
    jo.close()


def test_vegas_the_leader_holding_two_tokens_under_a_long_said_line_sees_its_whole_card(browser, server):
    """QA F4: the seated leader holds a Game and an Inspector token and the last change is said in three lines (the
    free increase, sent from another phone): every suit, all 13 numbers and the whole send row are on the first
    screen, nothing over anything. The table's way ("Enter a trick", the whole trick at once) is one tap away under
    the seat's own card, not a big button above it."""
    set_up = (
        *(
            {"type": "setup_tracks", "player": p, "tracks": ["Game", "Inspector"] if p == "Jo" else ["Team", "Game"]}
            for p in VEGAS_PLAYERS
        ),
        {"type": "start_round"},
        {"type": "choose_furthest_behind", "player": "Jo"},
    )
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *set_up)
    jo = Phone(browser, server, seat="Jo").at(version)
    version = api_act(server, {"type": "free_increase", "track": "Team"})
    jo.at(version)
    held = api(server, "GET", "/api/sessions/active")["state"]["tokens"]["Jo"]
    assert held == {"Game": 1, "Inspector": 1, "Bot": 0, "Mobster": 0}, held
    expect(jo.said()).to_contain_text("Free increase")
    assert jo.said().bounding_box()["height"] > 50  # the said line at its longest: three lines
    play = jo.moment("Play a card")
    form = play.locator("form")
    expect(form).to_be_visible()
    sends = form.locator(".submit-row button:visible")
    expect(sends).to_have_text(["Cancel", "Play a card", "Play a card + Game", "Play a card + Inspector"])
    suits = form.get_by_role("group", name="Suit", exact=True).locator("label")
    numbers = form.locator(".chips button")
    covered = hidden_or_covered(jo.page, suits, numbers, sends)
    shot(jo.page, "taps-vegas-leader-two-tokens", full_page=False)
    assert suits.count() == 5 and numbers.count() == 13
    assert covered == [], covered
    trick = jo.moment("Enter a trick")
    expect(trick.locator("form")).to_have_count(0)
    assert trick.bounding_box()["y"] > play.bounding_box()["y"] + play.bounding_box()["height"] - 1  # under its card
    jo.close()


def test_vegas_a_seat_not_to_play_is_told_whom_it_follows_and_the_whole_trick_stays_folded(browser, server):
    """QA F5: Kim's phone while Jo leads showed the table's whole-trick form open (four rows, thousands of px) as its
    main moment. A seat not to play sees whom it plays after, and "Enter a trick" one tap away, closed; the table
    phone keeps it open (test_vegas_one_table_phone_enters_a_trick_of_four_in_ten_taps)."""
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *JO_LEADS)
    kim, max_ = (Phone(browser, server, seat=s).at(version) for s in ("Kim", "Max"))
    expect(kim.page.locator("#pending")).to_contain_text("Trick 1: Jo leads")
    expect(kim.page.locator("#pending li.later")).to_have_text("You play a card after Jo")
    expect(max_.page.locator("#pending li.later")).to_have_text("You play a card after Lu")
    trick = kim.moment("Enter a trick")
    expect(trick.locator("form")).to_have_count(0)
    expect(trick.locator("button.open")).to_be_in_viewport()
    shot(kim.page, "taps-vegas-not-to-play", full_page=False)
    version = api_act(server, {"type": "play_card", "player": "Jo", "suit": "Team", "number": 5})
    kim.at(version)
    expect(kim.page.locator("#pending li.yours")).to_contain_text("Trick 1: Kim plays")  # her turn now
    expect(kim.page.locator("#pending li.later")).to_have_count(0)
    expect(kim.moment("Play a card").locator("form")).to_be_visible()
    expect(max_.at(version).page.locator("#pending li.later")).to_have_text("You play a card after Lu")
    kim.taps = 0
    kim.tap(trick.locator("button.open"))  # the table's way, still one tap away
    expect(trick.locator("form .rows-item h4")).to_have_text(VEGAS_PLAYERS)
    for p in (kim, max_):
        p.close()


def test_vegas_a_seated_card_on_a_360_px_phone_keeps_its_13_numbers_to_two_rows(browser, server):
    """A small Android phone (360 x 780): the 13 number buttons of a seat's card took three lines. At most two,
    each still a thumb's target (40 px wide, 44 px high at least), nothing wider than the screen, and all 13 in
    sight at once, clear of the sticky send buttons, once the numbers are scrolled to."""
    version = new_game(server, "vegas", {"players": VEGAS_PLAYERS}, *JO_LEADS)
    jo = Phone(browser, server, seat="Jo").at(version)
    jo.page.set_viewport_size({"width": 360, "height": 780})
    jo.page.wait_for_function("() => innerWidth === 360 && innerHeight === 780")
    form = jo.moment("Play a card").locator("form")
    numbers = form.locator(".chips button")
    expect(numbers).to_have_count(13)
    boxes = [numbers.nth(i).bounding_box() for i in range(13)]
    rows = sorted({round(b["y"]) for b in boxes})
    assert len(rows) <= 2, rows
    small = [(i + 1, b["width"], b["height"]) for i, b in enumerate(boxes) if b["width"] < 40 or b["height"] < 44]
    assert small == [], small
    assert jo.page.evaluate("() => document.documentElement.scrollWidth") <= 360
    numbers.first.evaluate("(n) => n.scrollIntoView({block: 'center'})")
    shot(jo.page, "taps-vegas-360", full_page=False)
    assert hidden_or_covered(jo.page, numbers) == []
    jo.close()


# -- a number fixed where it is shown -----------------------------------------------------------
# One number on each system's board: the tap on it opens its fix under it, prefilled, and + (or where a chip comes
# from) is the second tap; nothing scrolled between the two (#36: "Fix a number" sat 885-1208 px down).
FIX_SHOWN = {
    "vegas": (
        {"players": VEGAS_PLAYERS},
        JO_LEADS,
        "Fix Kim's VP: 0",
        "Kim's VP: one more",
    ),
    "venom": ({"players": ["Ann", "Bob"]}, (*TACTICAL, LEADER), "Fix Health Track: 3", "Health Track: one more"),
    "v2140": (
        {"players": ["Shred", "Sven"]},
        POOLS,
        "Fix Shred: books: 0",
        "Shred: books: one more",
    ),
    "vnm": (
        VNM,
        (),
        "Fix China: population: 27",
        "China: population: one less, to the destroyed pile",
    ),
}


@pytest.mark.parametrize("system", sorted(FIX_SHOWN))
def test_fix_the_number_shown_is_two_taps_and_no_scroll(browser, server, system):
    options, actions, number, fix = FIX_SHOWN[system]
    version = new_game(server, system, options, *actions)
    p = Phone(browser, server).at(version)
    board = p.page.locator("#board")
    shown = board.get_by_role("button", name=number, exact=True)
    shown.scroll_into_view_if_needed()  # where the phone sees the wrong number: from there, no scrolling
    p.tap(shown)
    button = board.get_by_role("button", name=fix, exact=True)
    expect(button).to_be_in_viewport(ratio=1)
    # The fix and the number it fixes both in sight, nothing over them (the sticky header, the send row).
    assert hidden_or_covered(p.page, button, shown) == []
    shot(p.page, f"taps-fix-shown-{system}", full_page=False)
    p.tap(button)
    expect(p.said()).to_contain_text("Corrected")
    counted(f"fix the number shown, {system}", p, 2)
    p.at(version + 1)
    expect(board.locator(".numfix")).to_have_count(0)  # done: the board is a board again
    p.close()
