"""Exchange actions: put dice forward, answer, resolve (B).

The actor's dice leave the pool when put forward (face up on the table, so everyone sees
them); the target answers with as many dice, or all it has; resolve it with button B. Dice returned
unmatched are rolled back into their pool through ``ctx.dice`` (sixes roll in, 1-3 are
tossed), logged privately to their owner. Every resolved exchange goes into the ledger the
dice law checks: captured + returned + discarded + at stake = put forward.
"""

from __future__ import annotations

from typing import Any

from tableside.core.errors import RuleError
from tableside.core.systems.v2140 import exchange, pool, rules
from tableside.core.systems.v2140.pool_actions import draw_with
from tableside.core.systems.v2140.state import participant, who
from tableside.core.text import N_
from tableside.core.words import plural

State = dict[str, Any]
LEDGER_KEEP = 200  # resolved exchanges kept in the state for the dice law (the log keeps them all)


def put_forward(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """The actor puts forward dice from the pool and names the target; more than half needs ``exception``."""
    if state["exchange"]:
        ex = state["exchange"]
        raise RuleError(
            N_(
                "an exchange is waiting: {actor} against {target}; resolve it (B) first",
                actor=ex["actor"],
                target=ex["target"],
            ),
            rule="next_exchange",
        )
    actor = who(state, action, "actor")
    target = action["target"]
    participant(state, target)
    if actor == target:
        raise RuleError(N_("{actor} cannot be their own target", actor=actor))
    p = participant(state, actor)
    dice = list(action["dice"])
    for face in dice:
        pool.check_face(face, f"{actor}'s dice")
    left = pool.take_from(p["pool"], dice, actor, seen=ctx.seat != actor)
    exchange.check_forward(len(p["pool"]), len(dice), actor, action["exception"])
    held, p["pool"] = p["pool"], left
    answer = exchange.answer_count(len(dice), len(participant(state, target)["pool"]))
    state["exchange"] = {
        "actor": actor,
        "target": target,
        "risky": action["risky"],
        "exception": action["exception"],
        "forward": pool.high_to_low(dice),
        "answer": None,
        "answer_count": answer,
        "says": action["says"],
    }
    kind = N_("a risky exchange") if action["risky"] else N_("an exchange")
    asks = (
        N_("{target} answers with {dice}", target=target, dice=plural(answer, "die"))
        if answer
        else N_("{target} has no dice to answer: resolve it with button B", target=target)
    )
    forward = "".join(map(str, state["exchange"]["forward"]))
    said = N_(
        "{actor} puts forward {forward} in {kind} against {target}; {asks}",
        actor=actor,
        forward=forward,
        kind=kind,
        target=target,
        asks=asks,
    )
    return state, {"summary": pool.seen_summary(ctx, held, dice, actor, said)}


def answer(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """The target matches the count from their own pool (all it has, if fewer)."""
    ex = state["exchange"]
    if not ex:
        raise RuleError(N_("no exchange is waiting for an answer"))
    if ex["answer"] is not None:
        raise RuleError(N_("{target} has answered already; resolve it with button B", target=ex["target"]))
    target = ex["target"]
    p = participant(state, target)
    dice = list(action["dice"])
    for face in dice:
        pool.check_face(face, f"{target}'s dice")
    needed = exchange.answer_count(len(ex["forward"]), len(p["pool"]))
    if len(dice) != needed:
        words = {"target": target, "actor": ex["actor"], "forward": plural(len(ex["forward"]), "die")}
        words.update(needed=needed, got=len(dice), pool=plural(len(p["pool"]), "die"))
        if needed < len(ex["forward"]):
            raise RuleError(
                N_(
                    "{target} must answer {actor}'s {forward} with {needed} (all {pool} in the pool), not {got}",
                    **words,
                )
            )
        raise RuleError(N_("{target} must answer {actor}'s {forward} with {needed}, not {got}", **words))
    held, p["pool"] = p["pool"], pool.take_from(p["pool"], dice, target, seen=ctx.seat != target)
    ex["answer"] = pool.high_to_low(dice)
    ex["says_back"] = action["says"]
    answer = "".join(map(str, ex["answer"])) or "nothing"
    said = N_("{target} answers with {answer}; resolve it with button B", target=target, answer=answer)
    return state, {"summary": pool.seen_summary(ctx, held, dice, target, said)}


def resolve(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """B: compare the dice, hand out books, roll returned dice back into their pools."""
    ex = state["exchange"]
    if not ex:
        raise RuleError(N_("no exchange is waiting: put dice forward first"))
    actor, target = ex["actor"], ex["target"]
    a, t = participant(state, actor), participant(state, target)
    answer_dice = ex["answer"]
    if answer_dice is None:
        if t["pool"]:
            raise RuleError(
                N_("waiting for {target} to answer with {dice}", target=target, dice=plural(ex["answer_count"], "die"))
            )
        answer_dice = []
    if ex["risky"]:
        out = exchange.risky(ex["forward"], answer_dice)
    else:
        out = exchange.normal(ex["forward"], answer_dice, len(a["pool"]), len(t["pool"]))
    names = {exchange.ACTOR: actor, exchange.TARGET: target}
    for side, gained in out.books.items():
        participant(state, names[side])["books"] += gained
    rerolled: dict[str, Any] = {}
    for side, dice in out.returned.items():
        if not dice:
            continue
        owner = names[side]
        p = participant(state, owner)
        rolled = pool.roll_in(len(dice), draw_with(ctx, owner), label=f"{owner} returned dice")
        if len(p["pool"]) + len(rolled.kept) > rules.MAX_POOL:
            raise RuleError(
                N_("a scene pool holds at most {max_pool} dice", max_pool=rules.MAX_POOL), rule="pool_limit"
            )
        p["pool"] = pool.high_to_low(p["pool"] + list(rolled.kept))
        rerolled[owner] = {"returned": len(dice)}
    put = len(ex["forward"]) + len(answer_dice)
    record = {
        "n": (state["ledger"][-1]["n"] + 1) if state["ledger"] else 1,
        "conflict": state["conflict"],
        "actor": actor,
        "target": target,
        "kind": out.kind,
        "put_forward": put,
        **exchange.tally(out),
        "at_stake": 0,
    }
    state["ledger"] = [*state["ledger"], record][-LEDGER_KEEP:]
    state["last_exchange"] = {
        "actor": actor,
        "target": target,
        "forward": ex["forward"],
        "answer": answer_dice,
        **out.to_dict(),
        "books_named": {names[s]: n for s, n in out.books.items()},
    }
    state["exchange"] = None
    state["lead"] = next_lead(out, names, a, t)
    gains = [f"{names[s]} +{n} book{'s' if n != 1 else ''}" for s, n in out.books.items() if n]
    words = ", ".join(gains) or "no books"
    back = "; ".join(f"{who} rolls {plural(r['returned'], 'returned die')} back in" for who, r in rerolled.items())
    summary = (
        f"{actor} {''.join(map(str, ex['forward']))} against {target} "
        f"{''.join(map(str, answer_dice)) or '(nothing)'}: {words}"
        + (f" ({out.reason})" if out.reason else "")
        + (f"; {back}" if back else "")
    )
    if rerolled:  # the faces rolled back in are the owner's; the count that stayed shows in the public count
        ctx.private(next(iter(rerolled)), summary)
    return state, {"summary": summary, "outcome": out.to_dict(), "books": state["last_exchange"]["books_named"]}


def next_lead(out: exchange.Outcome, names: dict[str, str], a: dict, t: dict) -> str | None:
    """ "The side that captured last time starts a new exchange until someone is out of dice": the side whose
    capture came last in the comparison leads, while both sides of the exchange still hold dice. Dice paired
    up because nobody answered are no capture (the Vid-Dronz GM pairs Sven's missing answer, then "Wire
    ... goes next")."""
    captures = [f for f in out.fates if f.fate == "captured"]
    if not captures or not a["pool"] or not t["pool"]:
        return None
    return names[captures[-1].by]


def withdraw(state: State, action: dict, ctx: Any) -> tuple[State, dict]:
    """Take back a pending exchange (a slip): the dice go back to their pools as they were."""
    ex = state["exchange"]
    if not ex:
        raise RuleError(N_("no exchange is waiting"))
    a = participant(state, ex["actor"])
    a["pool"] = pool.high_to_low(a["pool"] + ex["forward"])
    if ex["answer"]:
        t = participant(state, ex["target"])
        t["pool"] = pool.high_to_low(t["pool"] + ex["answer"])
    state["exchange"] = None
    return state, {
        "summary": N_(
            "{actor} takes back the exchange against {target}; dice back in the pools",
            actor=ex["actor"],
            target=ex["target"],
        )
    }
