"""The start-up baseline: an empty Flask app answering ``GET /healthz`` under waitress.

Tableside cannot start faster than the two libraries it serves with; this is
their floor on the same machine, started the same way (``benchmarks/run.py``).
"""

from __future__ import annotations

import sys

from flask import Flask
from waitress import serve

app = Flask(__name__)


@app.get("/healthz")
def healthz():
    return {"ok": True}


if __name__ == "__main__":
    serve(app, host="127.0.0.1", port=int(sys.argv[1]), threads=4)
