"""Baselines: an empty Flask app under waitress, answering ``GET /healthz`` and a JSON ``POST /echo``.

Tableside cannot start or answer faster than the two libraries it serves with;
this is their floor on the same machine, started the same way
(``benchmarks/run.py``).
"""

from __future__ import annotations

import sys

from flask import Flask, request
from waitress import serve

app = Flask(__name__)
STATE = {f"key{i}": list(range(8)) for i in range(40)}  # about the size of a VENOM state in JSON
version = 0


@app.get("/healthz")
def healthz():
    return {"ok": True}


@app.post("/echo")
def echo():
    """A JSON POST answered with a state-sized JSON body: Flask's own cost of what an action's POST does."""
    global version
    version += 1
    return {"version": version, "state": STATE, "result": request.get_json()}


if __name__ == "__main__":
    serve(app, host="127.0.0.1", port=int(sys.argv[1]), threads=4)
