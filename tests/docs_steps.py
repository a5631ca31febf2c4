"""The steps of a docs page, read from its Markdown, and run in order against a real server.

The page format (said at the top of every page that has steps):

- a fenced ``sh`` block holding one ``curl`` line is one step (lines without ``curl``, such as
  ``TABLE=...``, are for the reader and skipped); ``$TABLE`` is the table's address, ``$CODE`` its
  join code;
- the fenced ``http`` block right after it is the answer: ``HTTP/1.1 <status> ...``, then the JSON
  fields that matter. The answer must have that status and every field shown, with that value
  (objects may have more keys than shown; lists are shown whole);
- ``GET /api/stream`` answers with its first event, shown as the lines ``event: ...`` and ``data: ...``.

``python -m tests.docs_steps PAGE...`` runs pages against a fresh ``tableside serve`` and prints each
step's full answer; ``--fill`` writes the answers into the page (the fields each answer block
already shows, or ``version``, the result's ``summary`` and ``error`` for a new block), after
running the page twice to find answers that are not the same each time (a roll without ``faces``).
"""

from __future__ import annotations

import http.client
import json
import re
import shlex
import socket
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    from tests.live import CODE, Process
except ModuleNotFoundError as missing:  # ``python3 -m tests.docs_steps`` outside the project's venv
    if __name__ != "__main__":
        raise
    sys.exit(
        f"tests.docs_steps needs the project's venv ({missing.name} is not importable here): "
        "run .venv/bin/python -m tests.docs_steps PAGE... (README, Quick start, installs it)"
    )

REPO = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^```(\w*)\s*$")


@dataclass
class Step:
    """One request of a page and the answer the page shows for it."""

    page: str
    line: int  # of the curl command, for the failure message
    method: str
    path: str
    body: str | None
    headers: dict[str, str]
    status: int
    expected: Any  # JSON fields, or the stream's first event as text
    answer_lines: tuple[int, int]  # the answer block's content lines [start, end) (0-based), for --fill

    def where(self) -> str:
        return f"{self.page} line {self.line}: {self.method} {self.path}" + (f" {self.body}" if self.body else "")


def _blocks(text: str) -> list[tuple[str, int, int]]:
    """Fenced blocks: (language, first content line, end line), 0-based, end exclusive."""
    lines = text.splitlines()
    out, i = [], 0
    while i < len(lines):
        opened = FENCE.match(lines[i])
        if opened:
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out.append((opened.group(1), i + 1, j))
            i = j + 1
        else:
            i += 1
    return out


def parse_curl(command: str) -> tuple[str, str, str | None, dict[str, str]]:
    """``curl ... $TABLE/path -d '{...}'`` -> method, path, body, headers."""
    words = shlex.split(command)
    assert words[0] == "curl", command
    method, path, body, headers = None, None, None, {}
    i = 1
    while i < len(words):
        word = words[i]
        if re.fullmatch(r"-[a-zA-Z]{2,}", word) and word[-1] in "HdX":  # -sH: -s, then -H and its value
            word = "-" + word[-1]
        if word in ("-H", "--header"):
            name, _, value = words[i + 1].partition(":")
            headers[name.strip()] = value.strip()
            i += 2
        elif word in ("-d", "--data", "--data-raw"):
            body = words[i + 1]
            i += 2
        elif word in ("-X", "--request"):
            method = words[i + 1]
            i += 2
        elif word.startswith("$TABLE"):
            path = word[len("$TABLE") :] or "/"
            i += 1
        elif word.startswith("-"):  # -s, -N, -i: how curl shows the answer
            i += 1
        else:
            raise ValueError(f"unexpected word {word!r} in {command!r}")
    if path is None:
        raise ValueError(f"no $TABLE address in {command!r}: write curl -siH ... $TABLE/api/... -d '{{...}}'")
    return method or ("POST" if body is not None else "GET"), path, body, headers


def parse(page: Path) -> list[Step]:
    """Every step of a page, in order; a curl step without its answer block is an error in the page."""
    text = page.read_text()
    lines = text.splitlines()
    blocks = _blocks(text)
    steps = []
    name = str(page.relative_to(REPO)) if page.is_relative_to(REPO) else str(page)
    for k, (lang, start, end) in enumerate(blocks):
        if lang != "sh":
            continue
        commands = [(n, lines[n].strip()) for n in range(start, end) if lines[n].strip().startswith("curl ")]
        if not commands:
            continue
        if len(commands) > 1:
            raise ValueError(f"{name} line {start}: one curl per block, so each has its answer")
        n, command = commands[0]
        after = blocks[k + 1] if k + 1 < len(blocks) else None
        gap = lines[end + 1 : after[1] - 1] if after else []
        if not after or after[0] != "http" or any(line.strip() for line in gap):
            raise ValueError(
                f"{name} line {n + 1}: the curl has no ```http answer block right after it "
                f"(python -m tests.docs_steps --fill {name} writes the answers after a placeholder "
                "```http block holding 'HTTP/1.1 200 OK')"
            )
        _, a_start, a_end = after
        head = lines[a_start].split()
        if len(head) < 2 or not head[0].startswith("HTTP/") or not head[1].isdigit():
            raise ValueError(f"{name} line {a_start + 1}: an answer starts with 'HTTP/1.1 <status>'")
        rest = "\n".join(lines[a_start + 1 : a_end]).strip()
        method, path, body, headers = parse_curl(command)
        if path.startswith("/api/stream"):
            expected: Any = rest
        else:
            expected = json.loads(rest) if rest else None
        steps.append(Step(name, n + 1, method, path, body, headers, int(head[1]), expected, (a_start, a_end)))
    return steps


def pages() -> list[Path]:
    """Every page with steps: the API reference and one game per system."""
    return [REPO / "docs" / "api.md", *sorted((REPO / "docs" / "systems").glob("*.md"))]


# -- running -----------------------------------------------------------------------------------------
def send(port: int, step: Step, code: str = CODE) -> tuple[int, Any]:
    """One step on a fresh connection, as curl sends it: (status, JSON answer or the stream's first event)."""
    headers = {k: v.replace("$CODE", code) for k, v in step.headers.items()}
    if step.body is not None:
        headers.setdefault("Content-Type", "application/x-www-form-urlencoded")  # what curl -d says
    if step.path.startswith("/api/stream"):
        return _first_event(port, step.path, headers)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(step.method, step.path, body=step.body, headers={"Host": f"127.0.0.1:{port}", **headers})
        response = conn.getresponse()
        raw = response.read()
        kind = response.getheader("Content-Type", "")
        return response.status, json.loads(raw) if "json" in kind else raw.decode(errors="replace")
    finally:
        conn.close()


def _first_event(port: int, path: str, headers: dict[str, str]) -> tuple[int, str]:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{head}\r\n".encode())
        seen = b""
        while b"\n\n" not in seen.partition(b"\r\n\r\n")[2].replace(b"\r\n", b"\n"):
            chunk = sock.recv(4096)
            if not chunk:
                break
            seen += chunk
    head, _, body = seen.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    text = body.decode(errors="replace")
    if "chunked" in head.decode().lower():  # drop the chunk sizes
        text = "\n".join(line for line in text.splitlines() if not re.fullmatch(r"[0-9A-Fa-f]+", line.strip()))
    event = [line.strip() for line in text.strip().split("\n\n")[0].splitlines() if line.strip()]
    return status, "\n".join(event)


def mismatch(expected: Any, got: Any, where: str = "") -> str | None:
    """Where ``got`` differs from what the page shows (objects: the keys shown; lists: whole), or None."""
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return f"{where or 'the answer'} is {json.dumps(got)[:200]}, not an object"
        for key, value in expected.items():
            if key not in got:
                return f"{where}.{key} is missing"
            problem = mismatch(value, got[key], f"{where}.{key}")
            if problem:
                return problem
        return None
    if isinstance(expected, list):
        if not isinstance(got, list) or len(got) != len(expected):
            return f"{where} is {json.dumps(got)[:300]}, the page shows {json.dumps(expected)[:300]}"
        for i, (e, g) in enumerate(zip(expected, got, strict=True)):
            problem = mismatch(e, g, f"{where}[{i}]")
            if problem:
                return problem
        return None
    if expected != got:
        return f"{where or 'the answer'} is {json.dumps(got)[:300]}, the page shows {json.dumps(expected)[:300]}"
    return None


def check(step: Step, status: int, got: Any) -> str | None:
    """What is wrong with one answer, in words, or None."""
    if status != step.status:
        return f"{step.where()}: status {status}, the page shows {step.status}; the answer: {str(got)[:400]}"
    if isinstance(step.expected, str):
        missing = [line for line in step.expected.splitlines() if line.strip() and line.strip() not in got]
        return f"{step.where()}: the first event is {got!r}, the page shows {step.expected!r}" if missing else None
    if step.expected is None:
        return None
    problem = mismatch(step.expected, got)
    return f"{step.where()}: {problem}" if problem else None


# -- filling the answers in (a tool for writing pages; the test never writes) ---------------------
def _pick(shown: Any, got: Any) -> Any:
    """The fields ``shown`` names, with the values of ``got``."""
    if isinstance(shown, dict) and isinstance(got, dict):
        return {k: _pick(v, got[k]) for k, v in shown.items() if k in got}
    if isinstance(shown, list) and isinstance(got, list) and len(shown) == len(got):
        return [_pick(s, g) for s, g in zip(shown, got, strict=True)]
    return got


def _default(got: Any) -> Any:
    if not isinstance(got, dict):
        return None
    if "error" in got:
        return {k: got[k] for k in ("error", "needs_dice") if k in got}
    out: dict[str, Any] = {}
    for key in ("system", "version", "seat"):
        if key in got:
            out[key] = got[key]
    result = got.get("result")
    if isinstance(result, dict) and "summary" in result:
        out["result"] = {"summary": result["summary"]}
    return out or None


def _run(page: Path, steps: list[Step], tmp: Path) -> list[tuple[int, Any]]:
    server = Process(tmp / f"data-{page.stem}").start()
    try:
        return [send(server.port, step) for step in steps]
    finally:
        server.stop()


USAGE = "usage: .venv/bin/python -m tests.docs_steps [--fill] PAGE...   (e.g. docs/api.md)"


def main(argv: list[str]) -> int:
    if not argv or "-h" in argv or "--help" in argv:
        print(f"{USAGE}\n\n{__doc__.strip()}")
        return 0 if argv else 2
    unknown = [a for a in argv if a.startswith("-") and a != "--fill"]
    missing = [a for a in argv if not a.startswith("-") and not Path(a).is_file()]
    if unknown or missing:
        print(f"{USAGE}\n{'unknown option ' + unknown[0] if unknown else 'no page ' + missing[0]}", file=sys.stderr)
        return 2
    fill = "--fill" in argv
    for name in [a for a in argv if a != "--fill"]:
        page = Path(name).resolve()
        steps = parse(page)
        with tempfile.TemporaryDirectory() as tmp:
            first = _run(page, steps, Path(tmp) / "a")
            second = _run(page, steps, Path(tmp) / "b") if fill else first
        lines = page.read_text().splitlines()
        for step, (status, got), (status2, got2) in reversed(list(zip(steps, first, second, strict=True))):
            fresh = step.expected in (None, {}) or (isinstance(step.expected, dict) and "error" in step.expected)
            shown = _default(got) if fresh else _pick(step.expected, got)
            again = _default(got2) if fresh else _pick(step.expected, got2)
            if (status, shown) != (status2, again):
                print(f"NOT THE SAME TWICE: {step.where()}: {shown} / {again}", file=sys.stderr)
            print(f"{step.where()}\n  -> {status} {json.dumps(got)[:600]}\n")
            if fill:
                reason = http.client.responses.get(status, "")
                if isinstance(got, str) and step.path.startswith("/api/stream"):
                    text = [got]
                else:
                    one = json.dumps(shown, ensure_ascii=False)
                    text = [one if len(one) <= 150 else json.dumps(shown, ensure_ascii=False, indent=2)]
                    text = text[0].splitlines() if shown is not None else []
                start, end = step.answer_lines
                lines[start:end] = [f"HTTP/1.1 {status} {reason}", *text]
        if fill:
            page.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
