"""The dice page's JSON: scan, pair, name and assign dice, roll simulated ones, hand a roll to the dice.

Every route needs the join code like the rest of the API (``webui.app``). With no smart dice
(``[dice] kind = "none"``, or no adapter) ``GET /api/dice`` says so and the others are 404.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template
from tableside.core.errors import BadRequest, NotFound
from tableside.webui import i18n
from tableside.webui.api import _body, _seat, _services

bp = Blueprint("dice", __name__)


def no_dice() -> str:
    """The 404 of every dice route on a table without smart dice, in the phone's language."""
    return i18n.gettext("this table has no smart dice: see docs/smart-dice.md ([dice] kind)")


def _dice() -> Any:
    dice = getattr(_services(), "dice", None)
    if dice is None:
        raise NotFound(no_dice())
    return dice


@bp.get("/dice")
def page():
    """The dice page: dice in reach, pairing, and what the table waits for."""
    return render_template("dice.html", words=i18n.script_catalog(i18n.language()))  # for dice.js t(), as the panel


@bp.get("/api/dice")
def status():
    """The dice (kind, colour, battery, connection) and what the table waits for, as this phone may see it."""
    dice = getattr(_services(), "dice", None)
    if dice is None:
        return jsonify(
            kind="none", note=i18n.gettext("no smart dice on this table"), dice=[], waiting=None, free=[], message=None
        )
    return jsonify(dice.status(_seat()))


@bp.post("/api/dice/scan")
def scan():
    """Look for dice in reach for a few seconds (Bluetooth), then list them."""
    seconds = _body().get("seconds", 5)
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 1 <= seconds <= 15:
        raise BadRequest(i18n.gettext("'seconds' must be a number of seconds from 1 to 15"))
    dice = _dice()
    dice.hub.scan(seconds)
    return jsonify(dice.status(_seat()))


@bp.post("/api/dice/pair")
def pair():
    """Name a die and assign it to a seat (null: anyone's); a GoDice also says which shell it wears."""
    body = _body()
    dice = _dice()
    dice.check_seat(body.get("seat"))
    dice.hub.pair(body.get("die"), body.get("name"), body.get("seat"), body.get("kind"))
    return jsonify(dice.status(_seat()))


@bp.post("/api/dice/identify")
def identify():
    """Blink a die so the players know which one it is: ``{"die": ID}``."""
    dice = _dice()
    dice.hub.blink(_body().get("die"))
    return jsonify(dice.status(_seat()))


@bp.post("/api/dice/forget")
def forget():
    dice = _dice()
    dice.hub.forget(_body().get("die"))
    return jsonify(dice.status(_seat()))


@bp.post("/api/dice/roll")
def roll():
    """Roll a simulated die (a real one is rolled on the table): ``{"die": ID, "face": N?}``."""
    body = _body()
    dice = _dice()
    dice.hub.roll(body.get("die"), body.get("face"))
    return jsonify(dice.status(_seat()))


@bp.post("/api/dice/wait")
def wait():
    """Finish this action with the smart dice: ``{"action": {"type": ..., fields}}`` (what needs_dice answered)."""
    dice = _dice()
    dice.feed.wait(_body().get("action"), _seat())
    return jsonify(dice.status(_seat()))


@bp.post("/api/dice/keep")
def keep():
    """Set the faces in place aside so the same dice roll again for the rest (a pool bigger than the dice)."""
    _body()  # a malformed body is a 400, as everywhere
    dice = _dice()
    dice.feed.keep()
    return jsonify(dice.status(_seat()))


@bp.post("/api/dice/cancel")
def cancel():
    _body()  # a malformed body is a 400, as everywhere
    dice = _dice()
    dice.feed.cancel()
    return jsonify(dice.status(_seat()))


@bp.post("/api/dice/free")
def log_free():
    """Log the free roll the dice made while nothing waited."""
    _body()
    dice = _dice()
    result = dice.feed.log_free(_seat())
    return jsonify({**dice.status(_seat()), "result": result})
