"""The right code while a guest guesses (#33), for benchmarks/security.py: a guest on 200 loopback addresses
sends wrong codes as fast as the server answers, and late phones, each on an address of its own that has
not guessed, type the right code (on /join and as ``Bearer``), side by side in the same run."""

from __future__ import annotations

import http.client
import statistics
import threading
import time

from run import CODE, Row, Server, _fmt, pct


def _ask(port: int, source: str, path: str, bearer: str | None) -> tuple[int, float]:
    """(status, seconds) of one request on a new connection from ``source``; a failed request is (0, 30)."""
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        headers = {"Host": "127.0.0.1"} | ({"Authorization": f"Bearer {bearer}"} if bearer else {})
        conn.request("GET", path, headers=headers)
        status = conn.getresponse().status
    except OSError:
        return 0, 30.0
    finally:
        conn.close()
    return status, time.perf_counter() - started


class _Guesser(threading.Thread):
    """Wrong codes from 127.0.2.1-200 in turn, on /join and as Bearer, counting what was checked (401)."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.halt = threading.Event()
        self.checked = self.refused = self.other = 0

    def run(self) -> None:
        n = 0
        while not self.halt.is_set():
            source = f"127.0.2.{n % 200 + 1}"
            code = f"WRONG{n % 7}"
            if n % 2:
                status, _ = _ask(self.port, source, "/api/sessions", code)
            else:
                status, _ = _ask(self.port, source, f"/join?code={code}", None)
            self.checked += status == 401
            self.refused += status == 429
            self.other += status not in (401, 429)
            n += 1


def right_code_during_guessing(report, folder, tries: int) -> None:
    """``tries`` late phones with the right code, first with nobody guessing, then beside the guesser."""
    server = Server(folder / "guessing").start()
    try:

        def phones(block: int) -> tuple[list[float], int]:
            waits, accepted = [], 0
            for i in range(tries):
                source = f"127.0.{block}.{i + 1}"
                join, took = _ask(server.port, source, f"/join?code={CODE.lower()}", None)
                bearer, took2 = _ask(server.port, f"127.0.{block + 1}.{i + 1}", "/api/sessions", CODE)
                accepted += join == 302 and bearer == 200
                waits += [took * 1000, took2 * 1000]
                time.sleep(0.05)
            return waits, accepted

        base, base_ok = phones(10)
        guesser = _Guesser(server.port)
        started = time.perf_counter()
        guesser.start()
        time.sleep(2)  # the guest is past its free typos on every address and the table's budget is spent
        waits, accepted = phones(20)
        guesser.halt.set()
        seconds = time.perf_counter() - started
        guesser.join(30)
    finally:
        server.stop()
    sent = guesser.checked + guesser.refused + guesser.other
    report.add(
        Row(
            "guessing",
            "the right code typed on a new address (/join and Bearer) while a guest guesses from 200 addresses",
            statistics.median(waits),
            pct(waits, 99),
            baseline="same phones, nobody guessing",
            base_p50=statistics.median(base),
            ratio=statistics.median(waits) / statistics.median(base),
            goal="accepted every time",
            holds=accepted == tries and base_ok == tries and guesser.other == 0,
            note=(
                f"accepted {accepted} of {tries} (both ways; {base_ok} of {tries} with nobody guessing); "
                f"worst {_fmt(max(waits), 'ms')}; the guest sent {sent:,} wrong codes in {seconds:.0f} s: "
                f"{guesser.checked:,} "
                f"checked (at most 5 free per address, then 10 a second), {guesser.refused:,} refused (429), "
                f"{guesser.other} other answers"
            ),
            n=len(waits),
        )
    )
