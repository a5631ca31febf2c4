"""Baselines: an empty Flask app answering ``GET /healthz`` and a JSON ``POST /echo``.

Tableside cannot start or answer faster than the libraries it serves with; this is their floor on the
same machine, started the same way (``benchmarks/run.py``) and served by the same server: Tableside's
own (``webui.server``), or with a second argument another candidate of ``benchmarks/servers.py``.

    python benchmarks/empty_app.py PORT [tableside|uvicorn|waitress]
"""

from __future__ import annotations

import sys

from flask import Flask, request

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


def serve(server: str, port: int) -> None:
    if server == "tableside":
        from tableside.webui.server import make_server
        from tableside.webui.stream import Broker

        from tableside.config import ServerLimits

        make_server(app, Broker(), ServerLimits(), "127.0.0.1", port).run()
    elif server == "waitress":
        from waitress import serve as waitress_serve

        waitress_serve(app, host="127.0.0.1", port=port, threads=2)
    elif server == "uvicorn":
        import uvicorn
        from a2wsgi import WSGIMiddleware

        uvicorn.run(WSGIMiddleware(app, workers=2), host="127.0.0.1", port=port, lifespan="off", log_level="warning")
    else:
        raise SystemExit(f"no server {server!r}: tableside, uvicorn or waitress")


if __name__ == "__main__":
    serve(sys.argv[2] if len(sys.argv) > 2 else "tableside", int(sys.argv[1]))
