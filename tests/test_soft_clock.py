"""The soft clock per seat (#34), told from the log: whose move the table waited for gets the time between two
entries, a pause stops every seat's time, an undo of the pause lets it run again (and a redo pauses it again),
the clock is off until switched on, and the recap's time per seat is the same count."""

from __future__ import annotations

from tableside.core.recap import recap
from tableside.core.soft_clock import seat_times

T0 = "2026-12-07T20:00:{:02d}+00:00"


def _e(seq: int, second: int, kind: str = "action", action: dict | None = None, target: int | None = None) -> dict:
    return {"seq": seq, "kind": kind, "at": T0.format(second), "action": action or {"type": "move"}, "target": target}


ON, PAUSE, RESUME = ({"type": "clock", "do": d} for d in ("on", "pause", "resume"))
WAITING = {0: "Ann", 1: "Ann", 2: "Bob", 3: "Bob", 4: "Bob", 5: "Ann", 6: "Ann"}


def test_whose_move_it_was_gets_the_time_and_a_pause_stops_it():
    log = [_e(1, 0, action=ON), _e(2, 10), _e(3, 15, action=PAUSE), _e(4, 45, action=RESUME), _e(5, 50)]
    told = seat_times(log, WAITING)
    # 0-10 s waiting for Ann; 10-15 Bob; 15-45 paused; 45-50 Bob again
    assert told["seconds"] == {"Ann": 10.0, "Bob": 10.0}
    assert told["on"] and not told["paused"]
    assert told["running"] == "Ann" and told["since"] == T0.format(50)


def test_paused_now_nobody_runs():
    told = seat_times([_e(1, 0, action=ON), _e(2, 10, action=PAUSE)], WAITING)
    assert told["paused"] and told["running"] is None and told["since"] is None


def test_an_undone_pause_lets_the_clock_run_and_a_redo_pauses_it_again():
    log = [_e(1, 0, action=ON), _e(2, 10, action=PAUSE), _e(3, 40, kind="undo", target=2)]
    told = seat_times(log, WAITING)
    assert not told["paused"] and told["running"] == "Bob"
    assert told["seconds"] == {"Ann": 10.0}  # 10-40 was paused then
    told = seat_times([*log, _e(4, 50, kind="redo", target=2), _e(5, 70, action=RESUME)], WAITING)
    assert told["seconds"] == {"Ann": 10.0, "Bob": 10.0}  # 40-50 running (Bob), 50-70 paused again
    assert told["running"] == "Ann"


def test_off_by_default_and_the_times_still_counted_for_the_recap():
    log = [_e(1, 0), _e(2, 10), _e(3, 15)]
    told = seat_times(log, WAITING)
    assert not told["on"] and told["running"] is None
    r = recap(log, None, None, (), {"Ann": "Ann (Venus)"}, waiting=WAITING)
    assert r["time_per_seat"] == [{"name": "Ann (Venus)", "time": "10 s"}, {"name": "Bob", "time": "5 s"}]


def test_time_nobody_s_move_is_the_table_s():
    told = seat_times([_e(1, 0), _e(2, 30)], {1: None})
    assert told["seconds"] == {"The table": 30.0}


def test_clock_on_reads_the_newest_on_or_off_still_applied():
    from tableside.core.soft_clock import clock_on

    switches = [(1, "on"), (3, "pause"), (5, "off")]
    assert clock_on([], [(1, 1), (2, 2)]) is False
    assert clock_on(switches, [(1, 1), (2, 2), (3, 3), (5, 5)]) is False  # switched off
    assert clock_on(switches, [(1, 1), (2, 2), (3, 3)]) is True  # the off undone; a pause leaves it on
    assert clock_on(switches, [(2, 2), (3, 3)]) is False  # the on itself undone
    assert clock_on(switches, [(1, 1), (2, 2), (5, 9)]) is False  # the off redone later
