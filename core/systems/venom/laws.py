"""What must always hold in a VENOM Assault state, and the numbers a correction may set.

The laws: every Event card is in exactly one place (deck, active, discard) and
together they are the deck built at setup; the Event Track stays 0-5 and the
Health and Defense markers 1-8; a captured Leader is counted once.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tableside.core.system import Tracked
from tableside.core.systems.venom import rules
from tableside.core.systems.venom.combat_actions import MAX_DICE
from tableside.core.systems.venom.state import State
from tableside.core.text import N_

_BUCKET_NAMES = {**rules.EVENT_NAMES, rules.FS_OR_VENOM: "Freedom Squadron or VENOM"}
MAX_REWARD_VP = 99


def bucket_of(cards: dict[str, int], kind: str) -> str:
    """The deck count a card of ``kind`` belongs to (its own, or the combined FS/VENOM one)."""
    if kind in cards:
        return kind
    if rules.FS_OR_VENOM in cards and kind in (rules.FREEDOM_SQUADRON, rules.VENOM):
        return rules.FS_OR_VENOM
    return kind


def drawn(st: State) -> Counter:
    """Event cards out of the deck (active or discarded), per deck count."""
    return Counter(bucket_of(st["event_deck"], c["kind"]) for c in st["active_events"] + st["event_discard"])


def broken(st: State) -> list[str]:
    """Every law the state breaks, in words; empty when all hold."""
    out: list[str] = []
    start, cards, out_of_deck = st["event_deck_start"], st["event_deck"], drawn(st)
    for bucket in sorted(set(start) | set(cards) | set(out_of_deck)):
        left, gone, built = cards.get(bucket, 0), out_of_deck.get(bucket, 0), start.get(bucket, 0)
        if left < 0:
            out.append(f"Event deck: {left} {_BUCKET_NAMES.get(bucket, bucket)} cards left is below 0")
        if left + gone != built:
            out.append(
                f"Event cards: {left} {_BUCKET_NAMES.get(bucket, bucket)} in the deck + {gone} drawn "
                f"is not the {built} the deck was built with"
            )
    if not rules.EVENT_TRACK_START <= st["event_track"] <= rules.EVENT_TRACK_FINAL:
        out.append(f"the Event Track runs {rules.EVENT_TRACK_START}-{rules.EVENT_TRACK_FINAL}, not {st['event_track']}")
    for key, word in (("health_track", "Health"), ("defense_track", "Defense")):
        if not rules.TRACK_MIN <= st[key] <= rules.TRACK_MAX:
            out.append(f"the {word} Track runs {rules.TRACK_MIN}-{rules.TRACK_MAX}, not {st[key]}")
    names = Counter(c["name"].casefold() for p in st["players"] for c in p["leaders"])
    for name, n in sorted(names.items()):
        if n > 1:
            out.append(f"a captured Leader is counted once, and {name!r} is in the Victory Point piles {n} times")
    leader = st["leader"]
    for p in st["players"]:
        for c in p["leaders"]:
            if c.get("live") and (leader is None or c["name"] != leader["name"]):
                out.append(f"{c['name']} is counted as captured in this Combat, but is not the Leader in play")
    return out


def tracked(st: State) -> list[Tracked]:
    """The numbers a ``correct`` may set, with their ranges."""
    out = [
        Tracked("event_track", N_("Event Track"), st["event_track"], rules.EVENT_TRACK_START, rules.EVENT_TRACK_FINAL)
    ]
    for bucket, built in st["event_deck_start"].items():
        out.append(
            Tracked(
                f"event_deck.{bucket}",
                N_("Event deck: {kind} cards left", kind=_BUCKET_NAMES[bucket]),
                st["event_deck"][bucket],
                0,
                built,
            )
        )
    if st["phase"] in (rules.SETUP, rules.GAME_OVER):
        return out + _vp(st)
    out.append(Tracked("round", N_("Round"), st["round"], 1, None))
    if st["leader"] is not None:
        out += [
            Tracked("health_track", N_("Health Track"), st["health_track"], rules.TRACK_MIN, rules.TRACK_MAX),
            Tracked("defense_track", N_("Defense Track"), st["defense_track"], rules.TRACK_MIN, rules.TRACK_MAX),
            Tracked(
                "leader.support",
                N_("{name}: Support Value", name=st["leader"]["name"]),
                st["leader"]["support"],
                0,
                rules.VENOM_SUPPORT_CARDS,
            ),
        ]
        if not st["combat"]["rolled"] and not st["combat"]["aborted"]:
            out.append(Tracked("combat.dice_count", N_("Combat Dice"), st["combat"]["dice_count"], 0, MAX_DICE))
    return out + _vp(st)


def _vp(st: State) -> list[Tracked]:
    """Victory Point values a player may have written down wrong."""
    out = []
    for i, p in enumerate(st["players"]):
        for j, r in enumerate(p["rewards"]):
            out.append(
                Tracked(
                    f"players.{i}.rewards.{j}.vp",
                    N_("{name}: Reward {reward} VP", name=p["name"], reward=repr(r["name"])),
                    r["vp"],
                    0,
                    MAX_REWARD_VP,
                )
            )
        for j, c in enumerate(p["leaders"]):
            if not c.get("live"):  # a live capture follows the Leader's Support Value
                out.append(
                    Tracked(
                        f"players.{i}.leaders.{j}.vp",
                        N_("{name}: {leader} VP", name=p["name"], leader=c["name"]),
                        c["vp"],
                        0,
                        rules.VENOM_SUPPORT_CARDS,
                    )
                )
    return out


def correct_deck(st: State, bucket: str, value: int) -> State:
    """Fewer cards in the deck than Tableside thought: unrecorded cards go to the discard pile.

    More cards: unrecorded (then the latest) cards of that kind come back from the
    discard pile. If the discard pile has too few, the deck's law refuses it.
    """
    delta = value - st["event_deck"][bucket]
    st["event_deck"][bucket] = value
    for _ in range(-delta):
        st["event_discard"].append({"kind": bucket, "name": "", "unrecorded": True})
    for _ in range(delta):
        pile = st["event_discard"]
        mine = [i for i, c in enumerate(pile) if bucket_of(st["event_deck"], c["kind"]) == bucket]
        if not mine:
            break
        unrecorded = [i for i in mine if pile[i].get("unrecorded")]
        pile.pop((unrecorded or mine)[-1])
    return st


def card_words(card: dict[str, Any]) -> str:
    return card.get("name") or _BUCKET_NAMES.get(card["kind"], card["kind"])
