"""#33's probes of private data, for benchmarks/security.py: every probe of tests/test_vegas_hand_probes.py,
tests/test_v2140_pool_probes.py and tests/test_smartdice_pool_probes.py sent to two tables that differ only
in the private data, counting what another seat's phone (or the table's) learns."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from run import Row

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests package


def _vegas() -> tuple[int, int]:
    from tableside.core.systems.vegas import referee

    from tests.test_vegas_hand_probes import PHONES, answer, probes, table_with

    held = table_with(referee.all_cards())["hand"]["Cy"]
    plain = [c for c in referee.all_cards() if not c.startswith("Mobster")]
    a, b = table_with(plain[:held]), table_with(plain[held : 2 * held])
    learned = asked = 0
    for card in referee.all_cards():
        for raw in probes(card):
            for phone in PHONES:
                asked += 1
                learned += answer(a, raw, phone) != answer(b, raw, phone)
    return learned, asked


def _pools() -> tuple[int, int]:
    from tests.test_v2140_pool_probes import facts_learned

    learned, asked = facts_learned()
    return len(learned), asked


def _smart_dice() -> tuple[int, int]:
    from tests.test_smartdice_pool_probes import facts_learned

    learned, asked = facts_learned()
    return len(learned), asked


def private_probes(report) -> None:
    for what, probe in (
        ("a Vegas hand entered by its seat, probed by every card from the table's and other seats' phones", _vegas),
        ("a released Venus 2140 seat's scene pool, probed by every face from other phones", _pools),
        (
            "smart-dice faces of a Venus 2140 pool: every route and the e-paper read, and every face probed, by "
            "another seat's phone and one with no seat, held and released",
            _smart_dice,
        ),
    ):
        started = time.perf_counter()
        learned, asked = probe()
        took = (time.perf_counter() - started) * 1000
        report.add(
            Row(
                "privacy",
                what,
                float(learned),
                unit="facts",
                goal="0 facts learned",
                holds=learned == 0,
                note=f"{learned} answers of {asked:,} probes differ between two tables differing only in the private "
                f"data; {took:.0f} ms",
                n=asked,
            )
        )
