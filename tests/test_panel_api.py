"""The phone panel's server side: compression, manifest and icons, saved games, export, history."""

from __future__ import annotations

import csv
import gzip
import io
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image
from tableside.core.store import Store
from tableside.core.table import Table
from tableside.device.display import RefreshScheduler, VirtualDisplay
from tableside.display.panels import get_panel
from tableside.webui.app import Services, create_app
from tableside.webui.history import chart_svg, luck_report

from tableside.frames import FrameSource

CODE = "K7TQ2M"
AUTH = {"Authorization": f"Bearer {CODE}"}
GZ = {**AUTH, "Accept-Encoding": "gzip, deflate"}


@pytest.fixture
def client(tmp_path):
    table = Table(Store(tmp_path / "t.db"), rng=random.Random(5))
    panel = get_panel("what-red")
    scheduler = RefreshScheduler(VirtualDisplay(panel, refresh_seconds=0), FrameSource(table, panel).image)
    table.subscribe(scheduler.request)
    scheduler.start()

    def frame_png() -> bytes:  # the test waits for the render thread; the server never does
        scheduler.wait_idle(10)
        return scheduler.png()

    services = Services(table=table, join_code=CODE, frame_png=frame_png, press=lambda label, hold: {})
    yield create_app(services, {"TESTING": True}).test_client()
    scheduler.stop()
    table.store.close()


def venom_with_rolls(client, n: int = 3) -> dict:
    made = client.post("/api/sessions", json={"system": "venom"}, headers=AUTH).get_json()
    for _ in range(n):
        r = client.post("/api/sessions/active/actions", json={"type": "roll", "expr": "5d6cs>=4"}, headers=AUTH)
        assert r.status_code == 200, r.get_json()
    return made


def test_the_page_and_its_script_are_gzipped_for_a_phone(client):
    for path in ("/", "/static/app.js", "/static/js/fields.js", "/static/style.css"):
        r = client.get(path, headers=GZ)
        assert r.status_code == 200, path
        assert r.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in r.headers["Vary"]
        with client.get(path, headers=AUTH) as plain:
            assert "Content-Encoding" not in plain.headers
            assert gzip.decompress(r.data) == plain.data
            assert len(r.data) < len(plain.data) / 2


def test_scripts_and_styles_are_sent_without_their_comments_and_still_parse(client):
    """The comments that explain the panel to us were a third of a phone's first load (webui.panel.shipped): they
    stay in the files and are left out of what is sent, code untouched (node checks every module still parses)."""
    root = Path(__file__).resolve().parents[1] / "webui" / "static"
    files = [root / "style.css", root / "app.js", root / "dice.js", *sorted((root / "js").glob("*.js"))]
    for path in files:
        url = f"/static/{path.relative_to(root).as_posix()}"
        with client.get(url, headers=AUTH) as r:
            sent = r.get_data(as_text=True)
        source = path.read_text()
        assert len(sent) < len(source), url
        if path.suffix == ".css":
            assert "/*" not in sent and sent.count("{") == source.count("{"), url
        else:
            assert not [line for line in sent.splitlines() if line.lstrip().startswith("//")], url
            kept = [line for line in source.splitlines() if not line.lstrip().startswith("//")]
            assert sent.splitlines() == kept, url  # only whole comment lines left out
            if shutil.which("node"):
                check = subprocess.run(
                    ["node", "--input-type=module", "--check"], input=sent, text=True, capture_output=True, timeout=30
                )
                assert check.returncode == 0, (url, check.stderr)


def test_the_page_s_modules_are_served_as_javascript_revalidated_preloaded_and_packaged(client):
    """The page is ES modules (webui/static/js/): a module script must come with a JavaScript MIME type or the
    browser refuses it; each is revalidated (no-cache: a phone never runs one module of the old page with one
    of the new), preloaded by the page (fetched side by side) and in the wheel's package data."""
    import re
    import tomllib
    from pathlib import Path

    root = Path(__file__).parents[1]
    modules = sorted(p.name for p in (root / "webui" / "static" / "js").glob("*.js"))
    assert len(modules) >= 10, modules
    page = client.get("/", headers=AUTH).get_data(as_text=True)
    assert '<script type="module" src="/static/app.js"></script>' in page
    lazy = set()  # a module only some moments need (the end of a game) is imported when it is needed, not preloaded
    for path in [root / "webui" / "static" / "app.js", *(root / "webui" / "static" / "js").glob("*.js")]:
        lazy |= {Path(m).name for m in re.findall(r'import\("([^"]+)"\)', path.read_text())}
    # the Rules tab (#35), the Stats tab (#34), a round's end and the soft clock (#34), the Settings tab and the
    # shutdown question (#32: asked on few game nights)
    lazy_ok = {"recap.js", "fix.js", "rules.js", "stats.js", "rounds.js", "clock.js", "settings.js", "shutdown.js"}
    assert lazy <= lazy_ok, lazy
    preloaded = sorted(re.findall(r'<link rel="modulepreload" href="/static/js/([\w-]+\.js)">', page))
    assert preloaded == sorted(set(modules) - lazy)
    for path in ["/static/app.js", *(f"/static/js/{m}" for m in modules)]:
        with client.get(path, headers=AUTH) as r:
            assert r.status_code == 200 and r.mimetype in ("text/javascript", "application/javascript"), (
                path,
                r.mimetype,
            )
            assert r.headers["Cache-Control"] == "no-cache" and r.headers["ETag"], path
    imported = set()
    for path in [root / "webui" / "static" / "app.js", *(root / "webui" / "static" / "js").glob("*.js")]:
        imported |= {Path(m).name for m in re.findall(r'^import \{[^}]*\} from "([^"]+)";', path.read_text(), re.M)}
    assert imported | lazy == set(modules)  # every module is one the page imports, and every import is there
    data = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "static/js/*" in data["tableside.webui"]


def test_json_is_gzipped_but_the_event_stream_is_not(client):
    venom_with_rolls(client)
    r = client.get("/api/sessions/active/log", headers=GZ)
    assert r.headers["Content-Encoding"] == "gzip"
    assert len(json.loads(gzip.decompress(r.data))) == 3


def test_log_after_a_version_sends_only_what_is_new(client):
    venom_with_rolls(client, 4)
    r = client.get("/api/sessions/active/log?after=2", headers=AUTH)
    assert [e["seq"] for e in r.get_json()] == [3, 4]
    assert client.get("/api/sessions/active/log?after=4", headers=AUTH).get_json() == []
    bad = client.get("/api/sessions/active/log?after=two", headers=AUTH)
    assert bad.status_code == 400 and "'after'" in bad.get_json()["error"]


def test_the_display_frame_is_sent_again_only_when_it_changed(client):
    venom_with_rolls(client, 1)
    first = client.get("/display.png", headers=AUTH)
    tag = first.headers["ETag"]
    same = client.get("/display.png", headers={**AUTH, "If-None-Match": tag})
    assert same.status_code == 304 and same.data == b""
    client.post(
        "/api/sessions/active/actions", json={"type": "roll", "expr": "6d6cs>=4", "faces": [6] * 6}, headers=AUTH
    )
    changed = client.get("/display.png", headers={**AUTH, "If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag


def test_manifest_and_icons_need_no_join_code(client):
    m = client.get("/manifest.webmanifest")
    assert m.status_code == 200 and m.mimetype == "application/manifest+json"
    body = m.get_json() if m.is_json else json.loads(m.data)
    assert body["display"] == "standalone" and body["start_url"] == "/"
    for icon in body["icons"]:
        r = client.get(icon["src"])
        assert r.status_code == 200 and r.mimetype == "image/png"
        size = int(icon["sizes"].split("x")[0])
        assert Image.open(io.BytesIO(r.data)).size == (size, size)
    assert client.get("/icons/icon-33.png").status_code == 404


def test_saved_games_say_system_players_round_and_last_change(client):
    made = venom_with_rolls(client, 2)
    client.post("/api/sessions", json={"system": "vnm"}, headers=AUTH)
    games = client.get("/api/panel/sessions", headers=AUTH).get_json()
    assert [g["system"] for g in games] == ["vnm", "venom"]
    venom = games[1]
    assert venom["id"] == made["id"] and venom["system_name"] == "VENOM Assault"
    assert venom["players"] == ["Player 1", "Player 2"] and venom["round"] == "Round 0"
    assert venom["last_change"] >= venom["created_at"] and venom["version"] == 2
    assert games[0]["players"] == ["Venus", "Mars", "Pluto"] and games[0]["active"]


def test_export_json_and_csv(client):
    made = venom_with_rolls(client, 2)
    j = client.get(f"/api/sessions/{made['id']}/export?format=json", headers=AUTH)
    assert "attachment" in j.headers["Content-Disposition"] and j.headers["Content-Disposition"].endswith('.json"')
    assert [e["seq"] for e in json.loads(j.data)["log"]] == [1, 2]
    c = client.get(f"/api/sessions/{made['id']}/export?format=csv", headers=AUTH)
    rows = list(csv.reader(io.StringIO(c.data.decode())))
    assert rows[0][:3] == ["seq", "kind", "type"] and len(rows) == 3
    assert json.loads(rows[1][7])["expr"] == "5d6cs>=4"
    assert client.get(f"/api/sessions/{made['id']}/export?format=xml", headers=AUTH).status_code == 400
    assert client.get("/api/sessions/nope/export", headers=AUTH).status_code == 404


def test_chart_is_inline_svg_with_a_line_per_series(client):
    venom_with_rolls(client, 2)
    r = client.get("/api/panel/chart.svg", headers=GZ)
    svg = gzip.decompress(r.data).decode() if r.headers.get("Content-Encoding") == "gzip" else r.data.decode()
    assert svg.startswith("<svg") and "<script" not in svg and "Event Track" in svg


def test_chart_svg_draws_every_series_and_escapes_names():
    points = [{"x": 1, "values": {"Ann": 3, "<Bob>": 1}}, {"x": 2, "values": {"Ann": 5, "<Bob>": 4}}]
    svg = chart_svg("Population", "Round", ["Ann", "<Bob>"], points)
    assert svg.count("<polyline") == 2 and "&lt;Bob&gt;: 4" in svg and "Ann: 5" in svg
    assert chart_svg("Empty", "Round", [], []) == ""


def test_luck_report_compares_faces_with_a_fair_die():
    sixes = {"kind": "action", "seat": "Ann", "rolls": [{"expr": "10d6", "rolls": [6] * 10}]}
    ones = {"kind": "action", "action": {"player": "Bob"}, "rolls": [{"expr": "10d6", "rolls": [1] * 10}]}
    fair = {"kind": "action", "action": {"roll": {"expr": "12d6", "rolls": [1, 2, 3, 4, 5, 6] * 2}}}
    redo = {"kind": "redo", "seat": "Ann", "rolls": [{"expr": "10d6", "rolls": [1] * 10}]}
    report = luck_report([sixes, ones, fair, redo])
    by = {p["name"]: p for p in report["players"]}
    assert [p["name"] for p in report["players"]] == ["Ann", "The table", "Bob"]
    assert by["Ann"]["dice"] == 10 and by["Ann"]["verdict"].startswith("Hot dice")
    assert by["Bob"]["verdict"].startswith("Cursed") and by["The table"]["verdict"] == "Fair"
    assert by["Ann"]["average"] == "+71% against a fair die"


def test_an_unchanged_json_answer_is_a_304(client):
    venom_with_rolls(client, 1)
    first = client.get("/api/sessions/active/actions", headers=GZ)
    tag = first.headers["ETag"]
    again = client.get("/api/sessions/active/actions", headers={**GZ, "If-None-Match": tag})
    assert again.status_code == 304 and again.data == b""
    client.post("/api/sessions/active/actions", json={"type": "roll", "expr": "1d6"}, headers=AUTH)
    view = client.get("/api/sessions/active", headers=GZ)
    changed = client.get("/api/sessions/active", headers={**GZ, "If-None-Match": view.headers["ETag"]})
    assert changed.status_code == 304
    client.post("/api/sessions/active/actions", json={"type": "roll", "expr": "1d6"}, headers=AUTH)
    newer = client.get("/api/sessions/active", headers={**GZ, "If-None-Match": view.headers["ETag"]})
    assert newer.status_code == 200 and json.loads(gzip.decompress(newer.data))["version"] == 3


def test_the_log_pages_back_with_a_limit(tmp_path):
    """A phone in a long game reads one page of older entries, not everything after it."""
    from tests.httpapi import AUTH, api_client, post

    with api_client(tmp_path, seed=1) as client:
        post(client, "/api/sessions", {"system": "venom"})
        for _ in range(12):
            post(client, "/api/sessions/active/actions", {"type": "roll", "expr": "1d6"})
        page = client.get("/api/sessions/active/log?after=4&limit=3", headers=AUTH).get_json()
        assert [e["seq"] for e in page] == [5, 6, 7]
        assert len(client.get("/api/sessions/active/log?after=4", headers=AUTH).get_json()) == 8
        bad = client.get("/api/sessions/active/log?after=4&limit=-1", headers=AUTH)
        assert bad.status_code == 400 and "limit" in bad.get_json()["error"]


def test_the_timeline_says_every_source_of_a_change_in_words():
    """History's 'from …' names who made a change no seat made; a source without words read 'from a api'."""
    import re
    from pathlib import Path

    from tableside.core.table import SOURCES

    script = (Path(__file__).parents[1] / "webui" / "static" / "js" / "core.js").read_text()
    words = re.search(r"const SOURCE_WORDS = \{(.*?)\};", script)
    assert words, "js/core.js has no SOURCE_WORDS"
    said = dict(re.findall(r'(\w+): "([^"]+)"', words.group(1)))
    assert set(said) == set(SOURCES)
    assert said["api"] != "a api" and all(w != f"a {k}" or k == "phone" for k, w in said.items())
