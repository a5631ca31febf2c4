"""The history chart and luck report (issue #18, finding 5): folded forward from the last look, on a
connection of their own, never holding the table, with bounded memory; the series come from each
system's ``chart_series`` hook, not from guessing its state layout."""

from __future__ import annotations

import json
import random
import threading

from tableside.core import replay as replay_module
from tableside.core import system as system_module
from tableside.core.store import Store
from tableside.core.systems import all_systems
from tableside.core.table import Table
from tableside.webui import history

from tests import toysystem
from tests.httpapi import AUTH, phone


def _toy(tmp_path) -> Table:
    return Table(
        Store(tmp_path / "t.db"), rng=random.Random(5), systems=toysystem.get, catalogue=lambda: [toysystem.SYSTEM]
    )


def _count_reapplied(monkeypatch) -> list[int]:
    calls = [0]
    real = system_module.run_action

    def counting(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(replay_module, "run_action", counting)
    return calls


def test_the_chart_re_applies_only_the_entries_since_the_last_look(tmp_path, monkeypatch):
    table = _toy(tmp_path)
    table.create_session("toy", {"limit": 10**6})
    for _ in range(30):
        table.act({"type": "add", "points": 1})
    client = phone(table)
    calls = _count_reapplied(monkeypatch)
    first = client.get("/api/panel/chart.svg", headers=AUTH)
    assert first.status_code == 200 and "Score: 30" in first.get_data(as_text=True)
    table.act({"type": "add", "points": 2})
    before = calls[0]
    again = client.get("/api/panel/chart.svg", headers=AUTH).get_data(as_text=True)
    assert "Score: 32" in again and calls[0] - before == 1  # it replayed the whole log on every change
    table.undo()
    assert "Score: 30" in client.get("/api/panel/chart.svg", headers=AUTH).get_data(as_text=True)
    table.store.close()


def test_the_chart_and_the_luck_report_never_hold_the_table(tmp_path, monkeypatch):
    table = _toy(tmp_path)
    table.create_session("toy", {"limit": 10**6})
    for _ in range(5):
        table.act({"type": "roll_d6", "n": 2})
    client = phone(table)
    free: list[bool] = []

    def try_the_table() -> None:
        got = table.held().acquire(timeout=2)
        free.append(got)
        if got:
            table.held().release()

    real = toysystem.SYSTEM.chart_series

    def series(state):
        t = threading.Thread(target=try_the_table)
        t.start()
        t.join()
        return real(state)

    monkeypatch.setattr(toysystem.SYSTEM, "chart_series", series)
    assert client.get("/api/panel/chart.svg", headers=AUTH).status_code == 200
    assert free and all(free)  # another thread could take the table while the chart was folded
    table.store.close()


def test_the_chart_keeps_a_bounded_number_of_points(tmp_path):
    table = _toy(tmp_path)
    table.create_session("toy", {"limit": 10**6})
    row = table.store_row(table.view()["id"])
    book = history.ChartBook(row["id"], toysystem.SYSTEM, row)
    for _ in range(3 * history.MAX_POINTS):
        table.act({"type": "add", "points": 1})
    book.catch_up(Store.reader(tmp_path / "t.db"), table.view()["version"])
    assert len(book.samples) <= history.MAX_POINTS and book.samples[0][0] == 0
    title, xlabel, names, points = book.points()
    assert (title, xlabel, names) == ("Score and pot", "Action", ["Score", "Pot"])
    assert points[-1] == {"x": 3 * history.MAX_POINTS, "values": {"Score": 360.0, "Pot": 0.0}}
    table.store.close()


def test_every_system_says_what_it_charts_from_its_first_state():
    """Numbers from the first state on; a system that charts numbers of its own names them in its title (the
    default title, "Tracked numbers", says what the default series are)."""
    from tableside.core.system import GameSystem

    titles = {}
    for system in all_systems():
        state = system.start(system.validate_options(_options(system.id)))
        series = system.chart_series(system.redact(state, None))
        assert series and all(isinstance(v, float) for v in series.values()), system.id
        own_series = type(system).chart_series is not GameSystem.chart_series
        assert own_series == (type(system).chart_title is not GameSystem.chart_title), system.id
        titles[system.chart_title()] = system.id
    assert len(titles) == len(all_systems()) or "Tracked numbers" in titles, titles


def _options(system_id: str) -> dict:
    from tests.golden_states import SCENARIOS

    return SCENARIOS[system_id][0]


def test_an_export_reuses_its_finished_blocks_and_equals_one_read_whole(tmp_path, monkeypatch):
    from tableside.webui import exports

    monkeypatch.setattr(exports, "CHUNK", 4)
    table = _toy(tmp_path)
    table.create_session("toy", {"limit": 10**6})
    for _ in range(9):
        table.act({"type": "roll_d6", "n": 2})
    table.act({"type": "hide", "seat": "Ann", "n": 2, "faces": [6, 6]}, seat="Ann")
    table.store.execute("UPDATE log SET result = '{' WHERE seq = 3")  # a damaged row in the first block
    cache = exports.ExportCache()
    sid = table.view()["id"]

    def export(fmt, seat=None, use=cache):
        return "".join(exports.export_lines(Store.reader(tmp_path / "t.db"), sid, seat, fmt, cache=use))

    for fmt in ("json", "csv"):
        for seat in (None, "Ann"):
            first = export(fmt, seat)
            assert first == export(fmt, seat, None)  # the same as read whole
            table.act({"type": "add", "points": 1})
            again = export(fmt, seat)
            assert again == export(fmt, seat, None) and len(again) > len(first)
    body = json.loads(export("json"))  # 14 entries by now, one of them damaged
    assert len(cache.blocks((sid, None, "json"))) == 3  # blocks 1-4, 5-8 and 9-12 are finished
    assert [d["seq"] for d in body["damaged"]] == [3] and len(body["log"]) == 13
    assert "6, 6" not in export("json") and "6, 6" in export("json", "Ann")
    table.store.execute("DELETE FROM log")
    table.store.close()
