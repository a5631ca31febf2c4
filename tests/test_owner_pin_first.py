"""The first start's owner PIN is shown at once and kept on a thread: a new table answers before PBKDF2 ends.

200,000 rounds of PBKDF2-SHA256 take about 60 ms on the developer machine and half a second on a Pi Zero 2 W;
on the server's main thread they were the largest part of a new table's start (benchmarks/results.md, the
start-up rows). hashlib lets go of the GIL while it hashes (CPython 3.11 Modules/_hashopenssl.c,
``pbkdf2_hmac``: Py_BEGIN_ALLOW_THREADS around PKCS5_PBKDF2_HMAC), so the panel answers meanwhile; whatever
reads the PIN waits for it to be kept.
"""

from __future__ import annotations

import threading

from tableside.webui import owner


def test_the_first_pin_returns_before_its_hash_is_made_and_readers_wait_for_it(tmp_path, monkeypatch):
    hashing, release = threading.Event(), threading.Event()
    real = owner._hash

    def slow_hash(pin, salt, iterations=owner.ITERATIONS):
        hashing.set()
        release.wait(10)
        return real(pin, salt, 1000)

    monkeypatch.setattr(owner, "_hash", slow_hash)
    shown: list[str | None] = []
    start = threading.Thread(target=lambda: shown.append(owner.first_pin(tmp_path)))
    start.start()
    start.join(5)
    assert shown and shown[0] is not None and len(shown[0]) == owner.PIN_LENGTH, "first_pin waited for the hash"
    assert hashing.wait(5)
    read: list[str | None] = []
    reader = threading.Thread(target=lambda: read.append(owner.stored(tmp_path)))
    reader.start()
    reader.join(0.2)
    assert not read, "the PIN was read before it was kept"
    release.set()
    reader.join(10)
    assert read and read[0] is not None and read[0].startswith("pbkdf2-sha256$")
    monkeypatch.setattr(owner, "_hash", real)
    line = read[0]
    _, _, salt, digest = line.split("$")
    assert real(shown[0], bytes.fromhex(salt), owner.ITERATIONS) != digest  # kept with the test's 1000 rounds
    assert owner.first_pin(tmp_path) is None  # kept: the next start says "set", no new PIN


def test_a_pin_that_cannot_be_kept_is_logged_and_the_next_start_makes_another(tmp_path, monkeypatch, caplog):
    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setattr(owner.Path, "write_text", lambda *a, **k: (_ for _ in ()).throw(OSError(28, "No space left")))
    assert owner.first_pin(folder) is not None
    assert owner.stored(folder) is None
    assert "the owner PIN could not be kept" in caplog.text and "No space left" in caplog.text
    monkeypatch.undo()
    assert owner.first_pin(folder) is not None  # nothing was kept, so a new PIN is made and shown
    assert owner.stored(folder) is not None


def test_the_hash_waits_for_the_first_answer_and_a_reader_does_not(tmp_path, monkeypatch):
    """As the display and buttons do, the hashing starts once the server has answered (``after``): under a Pi's
    CPU it would otherwise share the core with the first answer; a reader waits for it."""
    started = threading.Event()
    real = owner._hash
    monkeypatch.setattr(owner, "_hash", lambda pin, salt, iterations=1000: (started.set(), real(pin, salt, 1000))[1])
    answered = threading.Event()
    pin = owner.first_pin(tmp_path, after=answered, within=30)
    assert pin is not None and not started.wait(0.3), "hashed before the first answer"
    answered.set()
    assert started.wait(10) and owner.stored(tmp_path) is not None
