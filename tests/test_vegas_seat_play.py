"""Venusian Vegas played seat by seat: each seat plays its own card in lead order, the trick is judged
when every seat has played; a whole trick from the table replaces the cards played so far."""

from __future__ import annotations

import json
import random

import pytest
from tableside.core.errors import RuleError
from tableside.core.store import Store
from tableside.core.system import run_action
from tableside.core.systems.vegas import SYSTEM, tricks
from tableside.core.table import Table

from tests.test_vegas_system import act, prompts, set_up


def leading(leader: str = "Cy"):
    state = act(set_up(), {"type": "start_round"}).state
    state = act(state, {"type": "choose_furthest_behind", "player": leader}).state
    return act(state, {"type": "free_increase", "track": "Bot"}).state


def play(state, player, suit, number, seat=None, **more):
    raw = {"type": "play_card", "player": player, "suit": suit, "number": number, **more}
    return run_action(SYSTEM, state, raw, seat=seat, rng=random.Random(1))


def test_three_seats_play_in_lead_order_and_the_trick_judges_itself():
    state = leading("Cy")
    step = play(state, "Cy", "Game", 9, seat="Cy")
    assert step.result["summary"] == "Cy plays Game 9; Ann next"
    assert prompts(step.state) == [("Ann", "play_card")]
    assert SYSTEM.pending(step.state)[0].text == "Trick 1: Ann plays (Cy Game 9)"
    step = play(step.state, "Ann", "Team", 7, seat="Ann")
    step = play(step.state, "Bob", "Game", 4, seat="Bob")
    assert step.result["winner"] == "Cy"
    assert step.result["summary"].startswith("Bob plays Game 4. Trick 1: Cy wins")
    assert step.state["playing"] == [] and step.state["tricks_played"] == 1
    assert [c["card"] for c in step.state["trick"]["cards"]] == ["Game 9", "Team 7", "Game 4"]


def test_the_prompt_names_the_seats_still_to_play_so_a_phone_can_say_whom_it_follows():
    """A seated phone not yet to play says "You play a card after Ann": the prompt lists who plays after the seat
    waited for, in lead order (the pending list's "then"), and drops each seat as its card goes down."""
    state = leading("Cy")
    lead = SYSTEM.pending(state)[0]
    assert (lead.seat, lead.then) == ("Cy", ("Ann", "Bob"))
    assert lead.describe()["then"] == ["Ann", "Bob"]
    state = play(state, "Cy", "Game", 9, seat="Cy").state
    assert [(p.seat, p.then) for p in SYSTEM.pending(state)] == [("Ann", ("Bob",))]
    state = play(state, "Ann", "Team", 7, seat="Ann").state
    last = SYSTEM.pending(state)[0]
    assert (last.seat, last.then) == ("Bob", ()) and "then" not in last.describe()  # nobody after the last card


@pytest.mark.parametrize(
    ("who", "seat", "card", "words"),
    [
        ("Ann", "Ann", ("Team", 7), "Cy plays before Ann"),  # out of turn
        ("Cy", "Ann", ("Team", 7), "Ann cannot play Cy's card"),  # another seat's card
        ("Cy", None, ("Game", 14), "14"),  # no such card
    ],
)
def test_a_card_out_of_turn_for_another_seat_or_not_in_the_deck_is_refused_in_words(who, seat, card, words):
    state = leading("Cy")
    with pytest.raises(RuleError, match=words):
        play(state, who, *card, seat=seat)


def test_the_same_card_twice_in_a_trick_is_refused():
    state = play(leading("Cy"), "Cy", "Game", 9).state
    with pytest.raises(RuleError, match="Game 9 is played already"):
        play(state, "Ann", "Game", 9)


def test_a_whole_trick_from_the_table_replaces_the_cards_played_so_far():
    state = play(leading("Cy"), "Cy", "Game", 9).state
    cards = [
        {"player": "Cy", "suit": "Game", "number": 9},
        {"player": "Ann", "suit": "Team", "number": 7},
        {"player": "Bob", "suit": "Game", "number": 4},
    ]
    step = run_action(SYSTEM, state, {"type": "play_trick", "cards": cards}, rng=random.Random(1))
    assert step.result["winner"] == "Cy" and step.state["playing"] == []


def test_a_bonus_is_taken_by_the_card_of_the_trick():
    state = leading("Cy")
    for who, suit, n in (("Cy", "Game", 9), ("Ann", "Team", 7), ("Bob", "Game", 4)):
        state = play(state, who, suit, n).state
    offered = [f for f in SYSTEM.spec("claim_bonus").describe(state)["fields"] if f["name"] == "from_card"][0]
    assert [c["value"] for c in offered["choices"]] == ["Team 7", "Game 4"]  # not the winner's own card
    step = run_action(SYSTEM, state, {"type": "claim_bonus", "player": "Cy", "from_card": "Team 7"})
    assert "Team 7" in step.result["summary"]


def _offered(state) -> tuple[list[str], dict[str, list[str]]]:
    """The claim form's cards of the trick: all of them, and per player (what each phone offers)."""
    field = [f for f in SYSTEM.spec("claim_bonus").describe(state)["fields"] if f["name"] == "from_card"][0]
    return [c["value"] for c in field["choices"]], field["choices_by"]["values"]


def test_with_two_claims_open_each_claimer_is_offered_only_opponents_cards():
    # QA #6: Bob won and Cy played a Bot token; each phone offered the other's card to its own
    # player too ("Bob: Team 9" on Bob's phone), which the rules then refused.
    state = leading("Ann")
    for who, suit, n, more in (("Ann", "Team", 7, {}), ("Bob", "Team", 9, {}), ("Cy", "Bot", 2, {"token": "Bot"})):
        state = play(state, who, suit, n, **more).state
    assert [c["player"] for c in state["trick"]["claims"]] == ["Bob", "Cy"]
    cards, per = _offered(state)
    assert cards == ["Team 7", "Team 9", "Bot 2"]  # each is some claimer's opponent's card
    assert per == {"Ann": [], "Bob": ["Team 7", "Bot 2"], "Cy": ["Team 7", "Team 9"]}
    for player, theirs in (("Bob", "Team 9"), ("Cy", "Bot 2")):
        with pytest.raises(RuleError, match=f"{theirs} is {player}'s own card"):
            run_action(SYSTEM, state, {"type": "claim_bonus", "player": player, "from_card": theirs})
    step = run_action(SYSTEM, state, {"type": "claim_bonus", "player": "Bob", "from_card": "Bot 2"})
    assert _offered(step.state)[1]["Cy"] == ["Team 7", "Team 9"]  # Cy's claim is still open, as it was
    with pytest.raises(RuleError, match="Ann has no trick bonus to take from this trick"):
        run_action(SYSTEM, step.state, {"type": "claim_bonus", "player": "Ann"})


def test_a_winner_with_a_bot_token_has_two_claims_and_never_their_own_card_on_offer():
    # QA #6, first case: Lu won with Bot 5 and played a Bot token; "Lu: Bot 5" was offered to Lu.
    state = leading("Ann")
    for who, suit, n, more in (("Ann", "Team", 9, {"token": "Bot"}), ("Bob", "Team", 7, {}), ("Cy", "Team", 2, {})):
        step = play(state, who, suit, n, **more)
        state = step.state
    assert [c["player"] for c in state["trick"]["claims"]] == ["Ann", "Ann"]
    assert [p.text for p in SYSTEM.pending(state)] == ["Ann: take or decline 2 trick bonuses"]  # said once
    assert "on offer: Bob's Team 7 (draw a card), Cy's Team 2 (gain 2 VP)" in step.result["summary"]
    cards, per = _offered(state)
    assert cards == ["Team 7", "Team 2"] and per["Ann"] == ["Team 7", "Team 2"]
    state = run_action(SYSTEM, state, {"type": "claim_bonus", "player": "Ann", "from_card": "Team 2"}).state
    assert "Team 9" not in _offered(state)[1]["Ann"]  # the second claim: still an opponent's card only


def four_leading(leader: str):
    """Ann, Bob, Cy, Di: Ann and Bob each hold a Game token (their setup tracks), Ann leads."""
    state = act(set_up(["Ann", "Bob", "Cy", "Di"]), {"type": "start_round"}).state
    if state.get("chosen") is None and len(state.get("furthest_behind") or []) > 1:
        state = act(state, {"type": "choose_furthest_behind", "player": leader}).state
    return act(state, {"type": "free_increase", "track": "Bot"}).state


def test_a_second_token_of_a_colour_is_refused_as_the_card_is_played_and_changes_nothing():
    # It was refused only when the trick's last card came in (Di's): Bob's card stood, and the trick
    # waited on a last card that could never complete it.
    state = four_leading("Ann")
    assert SYSTEM.pending(state)[0].text == "Trick 1: Ann leads"
    assert state["tokens"]["Ann"]["Game"] >= 1 and state["tokens"]["Bob"]["Game"] >= 1
    state = play(state, "Ann", "Game", 9, seat="Ann", token="Game", trump="Bot").state
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(RuleError) as refused:
        play(state, "Bob", "Game", 4, seat="Bob", token="Game", trump="Team")
    assert refused.value.message == (
        "only one token of each colour may be played per trick: Ann already played the Game token, "
        "so Bob cannot play another"
    )
    assert json.dumps(state, sort_keys=True) == before
    with pytest.raises(RuleError, match="Cy holds no Inspector token"):  # a token not held: refused at once too
        play(play(state, "Bob", "Game", 4).state, "Cy", "Bot", 2, token="Inspector")
    step = play(state, "Bob", "Game", 4, seat="Bob")  # the same card without the token is taken
    assert step.result["summary"] == "Bob plays Game 4; Cy next"


def _vegas_table(path) -> Table:
    return Table(Store(path), rng=random.Random(3))


def _reopens_from_the_log_alone(table: Table, path, sid, played: dict) -> None:
    """With no stored state, ``table``'s file reopens writable at ``played``'s version and state, and replays to it."""
    table.store.drop_snapshots(sid)  # no stored state: the log alone rebuilds it
    table.store.close()
    again = _vegas_table(path)
    view = again.view()
    assert view["readonly"] is None
    assert (view["version"], view["state"]) == (played["version"], played["state"])
    assert again.replay(sid) == played["state"]
    again.store.close()


@pytest.mark.parametrize("then", ["table enters the trick", "undo Bob's card"])
def test_a_log_with_a_second_token_accepted_as_the_card_was_played_still_replays(tmp_path, monkeypatch, then):
    # Before the tokens were checked as each card is played, Bob's card with a second Game token was
    # accepted and logged (the trick refused it only at its last card): such a log reopens and replays
    # as it was played, while a new card like it is refused.
    table = _vegas_table(tmp_path / "t.db")
    sid = table.create_session("vegas", {"players": ["Ann", "Bob", "Cy", "Di"]})["id"]
    tracks = {"Ann": ["Team", "Game"], "Bob": ["Game", "Inspector"], "Cy": ["Bot", "Mobster"], "Di": ["Team", "Bot"]}
    for p, picked in tracks.items():
        table.act({"type": "setup_tracks", "player": p, "tracks": picked})
    table.act({"type": "start_round"})
    if len(table.view()["state"]["furthest_behind"]) > 1:
        table.act({"type": "choose_furthest_behind", "player": "Ann"})
    table.act({"type": "free_increase", "track": "Bot"})
    ann = {"type": "play_card", "player": "Ann", "suit": "Game", "number": 9, "token": "Game", "trump": "Bot"}
    bob = {"type": "play_card", "player": "Bob", "suit": "Game", "number": 4, "token": "Game", "trump": "Team"}
    table.act(ann, seat="Ann")
    with pytest.raises(RuleError, match="only one token of each colour"):
        table.act(bob, seat="Bob")
    real = tricks.play_card
    with monkeypatch.context() as old_rules:  # the rules as they were: no token check as the card is played
        old_rules.setattr(tricks, "play_card", lambda state, row, **_: real(state, row, check_tokens=False))
        table.act(bob, seat="Bob")
    assert [r.get("token") for r in table.view()["state"]["playing"]] == ["Game", "Game"]
    if then == "undo Bob's card":
        table.undo()
        with pytest.raises(RuleError, match="only one token of each colour"):
            table.redo()  # a redo is a new change: refused like the card itself
        table.act({**bob, "token": "", "trump": ""}, seat="Bob")
        table.act({"type": "play_card", "player": "Cy", "suit": "Bot", "number": 2}, seat="Cy")
        table.act({"type": "play_card", "player": "Di", "suit": "Team", "number": 3}, seat="Di")
    else:
        cards = [
            {"player": "Ann", "suit": "Game", "number": 9, "token": "Game", "trump": "Bot"},
            {"player": "Bob", "suit": "Game", "number": 4},
            {"player": "Cy", "suit": "Bot", "number": 2},
            {"player": "Di", "suit": "Team", "number": 3},
        ]
        table.act({"type": "play_trick", "cards": cards})
    played = table.view()
    assert played["state"]["tricks_played"] == 1 and played["state"]["trump"] == "Bot"
    _reopens_from_the_log_alone(table, tmp_path / "t.db", sid, played)


def test_a_seat_that_has_played_or_holds_no_cards_is_not_offered_a_card():
    # A seated phone plays only its own seat's card: after Cy's card (or with no card left) "Play a card"
    # was still offered there, a form whose every send was refused.
    state = play(leading("Cy"), "Cy", "Game", 9, seat="Cy").state
    spec = SYSTEM.spec("play_card")
    assert spec.reason(state, "Cy") == "Cy has played a card in this trick already"
    assert spec.reason(state, "Ann") is None and spec.reason(state, None) is None  # Ann's turn; the table
    with pytest.raises(RuleError, match="^Play a card: Cy has played a card in this trick already$"):
        play(state, "Cy", "Team", 7, seat="Cy")
    empty = {**state, "hand": {**state["hand"], "Bob": 0}}
    assert spec.reason(empty, "Bob") == "Bob holds no cards this round"


# -- a Mobster token takes a card of the complete trick ------------------------------------------
def _cy_mobster_trick():
    """Cy leads Game 9 with the Mobster token (before Ann's and Bob's cards are down); Cy wins."""
    state = play(leading("Cy"), "Cy", "Game", 9, seat="Cy", token="Mobster").state
    state = play(state, "Ann", "Team", 7, seat="Ann").state
    return play(state, "Bob", "Game", 4, seat="Bob")


def test_a_mobster_token_takes_a_card_of_the_trick_once_it_is_complete_then_the_bonuses():
    """ "Mobster — take one card out of this trick into your hand": asked when the trick is complete, as a card of
    it to tap (the seat played before the cards after it were down); the bonuses wait for it."""
    step = _cy_mobster_trick()
    state = step.state
    assert step.result["summary"].endswith("Cy plays a Mobster token; Cy takes a card of the trick, then the bonuses")
    assert prompts(state) == [("Cy", "mobster_take")]
    assert SYSTEM.pending(state)[0].text == "Cy: take a card of the trick (Mobster)"
    offered = [f for f in SYSTEM.spec("mobster_take").describe(state)["fields"] if f["name"] == "card"][0]
    assert offered["choices"] == [
        {"value": "Game 9", "label": "Cy: Game 9"},
        {"value": "Team 7", "label": "Ann: Team 7"},
        {"value": "Game 4", "label": "Bob: Game 4"},
    ]
    before = json.dumps(state, sort_keys=True)
    for raw, words in (
        ({"type": "claim_bonus", "player": "Cy", "from_card": "Team 7"}, "first Cy takes a card of the trick"),
        ({"type": "decline_bonus", "player": "Cy"}, "first Cy takes a card of the trick"),
        ({"type": "mobster_take", "player": "Ann", "card": "Team 7"}, "Cy played the Mobster token in this trick"),
        ({"type": "mobster_take", "player": "Cy", "card": "Bot 2"}, "not one of"),
    ):
        with pytest.raises(RuleError, match=words):
            run_action(SYSTEM, state, raw, rng=random.Random(1))
    assert json.dumps(state, sort_keys=True) == before
    held = state["hand"]["Cy"]
    step = run_action(SYSTEM, state, {"type": "mobster_take", "player": "Cy", "card": "Team 7"})
    state = step.state
    assert step.result["summary"].startswith("Cy takes Team 7 out of trick 1 into their hand; bonus to choose: Cy")
    assert state["hand"]["Cy"] == held and state["trick"]["taken"] == ["Team 7"]
    assert "Team 7" not in [r["card"] for r in state["played"]]  # back in a hand: it may be played again
    assert prompts(state) == [("Cy", "claim_bonus")]
    claim = [f for f in SYSTEM.spec("claim_bonus").describe(state)["fields"] if f["name"] == "from_card"][0]
    assert [c["value"] for c in claim["choices"]] == ["Game 4"]  # the card taken gives no bonus
    with pytest.raises(RuleError, match="taken out of the trick by a Mobster token"):
        run_action(SYSTEM, state, {"type": "claim_bonus", "player": "Cy", "suit": "Team", "number": 7})
    with pytest.raises(RuleError, match="no Mobster token is waiting"):
        run_action(SYSTEM, state, {"type": "mobster_take", "player": "Cy", "card": "Game 4"})


def test_a_mobster_take_named_with_the_card_or_the_trick_closed_by_button_a_asks_nothing_more():
    state = play(leading("Cy"), "Cy", "Game", 9, token="Mobster", take="Team 7").state
    state = play(play(state, "Ann", "Team", 7).state, "Bob", "Game", 4).state
    assert state["trick"]["mobster"] is None and state["trick"]["taken"] == ["Team 7"]
    assert prompts(state) == [("Cy", "claim_bonus")]
    step = run_action(SYSTEM, _cy_mobster_trick().state, {"type": "next_trick"})
    assert step.result["summary"].startswith("Trick 1 closed; Cy declined; Cy's Mobster card not named")
    assert step.state["trick"] is None and prompts(step.state)[0] == ("Cy", "play_card")


def test_an_entered_hand_is_kept_while_the_mobster_card_is_asked_and_follows_it():
    state = leading("Cy")
    hand = ["Game 9", *(f"Mobster {n}" for n in range(1, state["hand"]["Cy"]))]
    state = act(state, {"type": "enter_hand", "player": "Cy", "cards": hand}).state
    state = play(state, "Cy", "Game", 9, token="Mobster").state
    state = play(play(state, "Ann", "Team", 7).state, "Bob", "Game", 4).state
    assert state["hands"]["Cy"] == hand[1:]  # one card more held than entered, till the take names it
    state = act(state, {"type": "mobster_take", "player": "Cy", "card": "Game 4"}).state
    assert sorted(state["hands"]["Cy"]) == sorted([*hand[1:], "Game 4"])


def test_a_log_that_claimed_before_an_unnamed_mobster_card_still_replays(tmp_path, monkeypatch):
    """Before the take was asked on its own, a trick with a Mobster token's card left unnamed went straight to its
    bonuses: such a log (claims, then the next trick) reopens and replays as it was played; a new claim waits."""
    table = _vegas_table(tmp_path / "t.db")
    sid = table.create_session("vegas", {"players": ["Ann", "Bob", "Cy"]})["id"]
    for p, picked in {"Ann": ["Team", "Game"], "Bob": ["Game", "Inspector"], "Cy": ["Bot", "Mobster"]}.items():
        table.act({"type": "setup_tracks", "player": p, "tracks": picked})
    table.act({"type": "start_round"})
    if len(table.view()["state"]["furthest_behind"]) > 1:
        table.act({"type": "choose_furthest_behind", "player": "Cy"})
    table.act({"type": "free_increase", "track": "Bot"})
    leader = table.view()["state"]["leader"]
    order = tricks.lead_order(table.view()["state"])
    cards = [{"player": p, "suit": "Team", "number": n} for p, n in zip(order, (5, 9, 2), strict=True)]
    cards[order.index("Cy")]["token"] = "Mobster"
    table.act({"type": "play_trick", "cards": cards})
    winner = table.view()["state"]["trick"]["winner"]
    claim = {"type": "claim_bonus", "player": winner, "from_card": "Team 2" if winner != order[2] else "Team 5"}
    with pytest.raises(RuleError, match="takes a card of the trick with the Mobster token"):
        table.act(claim)
    with monkeypatch.context() as old_rules:  # the rules as they were: the bonuses at once
        old_rules.setattr(tricks, "_mobster_first", lambda state: None)
        table.act(claim)
    played = table.view()
    assert played["state"]["trick"] is None and leader in order  # the claim closed the trick, as it did then
    _reopens_from_the_log_alone(table, tmp_path / "t.db", sid, played)
