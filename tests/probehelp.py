"""What a phone learns from one action (#33's probes of private hands and pools)."""

from __future__ import annotations

import json
import random

from tableside.core import privacy
from tableside.core.errors import TablesideError
from tableside.core.system import run_action


def answer(system, state: dict, raw: dict, phone: str | None) -> str:
    """What ``phone`` learns from sending ``raw``: the refusal's words, or the result as it reads it
    (``core.privacy``: another seat's private entry is its public summary) and its view of the table after."""
    try:
        step = run_action(system, state, raw, seat=phone, rng=random.Random(1))
    except TablesideError as refused:
        return f"{refused.status} {refused.message}"
    result = privacy.result(step.result, step.private, phone)
    return json.dumps({"result": result, "view": system.redact(step.state, phone)}, sort_keys=True)
