"""Two Venus 2140 pools that differ only in their hidden faces answer another phone the same (#33).

The pool's face checks (``pool.take_from`` in put_forward, answer and bid_initiative; every other check
reads only the count) are answered to a phone that is not the pool's seat from what is public: the
count, and the dice it named (taken as seen face up, in place of the pool's lowest). Hypothesis draws the
two pools (the same count, any faces), the request (any of the pool's actions, any dice named) and the
phone (the table's, or the GM's), with or without an exchange waiting on the pool's answer; the answers
(the refusal's words, or the result and the phone's view after) must be byte-identical.
"""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st
from tableside.core.system import run_action
from tableside.core.systems.v2140 import SYSTEM

from tests import probehelp
from tests.test_v2140_scene import shred_and_jack

FACE_CHECKS = ("put_forward", "bid_initiative", "answer")  # the actions that check faces named by a phone
TYPES = (
    *FACE_CHECKS,
    *FACE_CHECKS,  # drawn more often than the count-only ones
    "resolve",
    "withdraw",
    "pair_leftovers",
    "follow_up",
    "take_on_the_chin",
    "next_participant",
    "settle_initiative",
)
FACE = st.integers(1, 6)


@st.composite
def two_pools(draw) -> tuple[list[int], list[int]]:
    n = draw(st.integers(1, 9))  # an empty pool hides nothing
    return draw(st.lists(FACE, min_size=n, max_size=n)), draw(st.lists(FACE, min_size=n, max_size=n))


def request(draw) -> dict:
    kind = draw(st.sampled_from(TYPES))
    raw: dict = {"type": kind}
    if kind in FACE_CHECKS:
        raw["dice"] = draw(st.lists(FACE, min_size=1, max_size=2))
    if kind == "put_forward":
        raw |= {"actor": "Shred", "target": "GM", "exception": draw(st.booleans())}
    elif kind in ("bid_initiative", "pair_leftovers", "follow_up", "take_on_the_chin"):
        raw["participant"] = "Shred"
    return raw


def tables(pools: tuple[list[int], list[int]], waiting: bool) -> list[dict]:
    """The rulebook's Shred against Alamo Jack, Shred's pool one of ``pools``; ``waiting``: the GM put
    forward a 6 against Shred, who answers next."""
    base = shred_and_jack()
    base["participants"]["GM"]["pool"] = [6, 6, 4]
    if waiting:
        base = run_action(SYSTEM, base, {"type": "put_forward", "actor": "GM", "target": "Shred", "dice": [6]}).state
    out = []
    for faces in pools:
        state = copy.deepcopy(base)
        state["participants"]["Shred"]["pool"] = sorted(faces, reverse=True)
        state["participants"]["Shred"]["dice"] = len(faces)
        out.append(state)
    assert SYSTEM.redact(out[0], None) == SYSTEM.redact(out[1], None)
    return out


@settings(max_examples=300, deadline=None)
@given(pools=two_pools(), waiting=st.booleans(), phone=st.sampled_from([None, "GM"]), data=st.data())
def test_another_phone_is_answered_the_same_whatever_the_pool_s_faces(pools, waiting, phone, data):
    raw = request(data.draw)
    a, b = tables(pools, waiting)
    said = probehelp.answer(SYSTEM, a, raw, phone)
    assert said == probehelp.answer(SYSTEM, b, raw, phone), (raw, phone, said[:300])


def test_the_pool_s_own_phone_is_still_told_what_its_pool_lacks():
    a, b = tables(([6, 5, 4], [4, 4, 4]), False)
    raw = {"type": "bid_initiative", "participant": "Shred", "dice": [6]}
    assert probehelp.answer(SYSTEM, a, raw, "Shred") != probehelp.answer(SYSTEM, b, raw, "Shred")
