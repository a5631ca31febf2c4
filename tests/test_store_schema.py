"""A new data file is made from core/schema.sql in one step; it must be exactly what the migrations
build, and an older file must still be upgraded by the migrations it lacks. The file's schema version
is SQLite's ``PRAGMA user_version``: the project writes no table of another library's."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest
import sqlite_utils
from tableside.core import store as store_module
from tableside.core.store import Store


def _schema(path, without: tuple[str, ...] = ()) -> list[tuple]:
    conn = sqlite3.connect(str(path))
    try:
        rows = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
        return sorted(r for r in rows if r[2] not in without)
    finally:
        conn.close()


def _version(path) -> int:
    conn = sqlite3.connect(str(path))
    try:
        return conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


def _by_migrations(path) -> None:
    """The file as the migrations alone make it, one after another."""
    db = sqlite_utils.Database(str(path))
    for step in store_module.MIGRATIONS:
        step(db)
    db.close()


def _as_the_old_code_made_it(path, steps: int) -> list[str]:
    """A file from before user_version (up to 166176a): sqlite-utils' Migrations applied the first
    ``steps`` migrations and kept its own record of them (the old ``_create`` wrote the same rows, which
    the old version of this test checked). Returns the name of sqlite-utils' record table."""
    migrations = sqlite_utils.Migrations(store_module.MIGRATION_SET)
    for step in store_module.MIGRATIONS[:steps]:
        migrations()(step)
    db = sqlite_utils.Database(str(path))
    migrations.apply(db)
    db.execute(
        "INSERT INTO sessions (id, ordinal, system, name, options, initial_state, created_at) "
        "VALUES ('s1', 1, 'toy', 'Toy', '{}', '{}', 'then')"
    )
    db.conn.commit()
    record = set(db.table_names()) - set(_tables_of_the_schema())
    db.close()
    return sorted(record)


def _tables_of_the_schema() -> set[str]:
    conn = sqlite3.connect(":memory:")
    conn.executescript(store_module.SCHEMA.read_text())
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_a_new_file_from_schema_sql_equals_what_the_migrations_build(tmp_path):
    Store(tmp_path / "new.db").close()
    _by_migrations(tmp_path / "migrated.db")
    assert _schema(tmp_path / "new.db") == _schema(tmp_path / "migrated.db")
    assert _version(tmp_path / "new.db") == len(store_module.MIGRATIONS)


@pytest.mark.parametrize("steps", [1, 2, 3])
def test_a_file_made_by_the_old_code_is_read_and_upgraded(tmp_path, steps):
    path = tmp_path / "old.db"
    record = _as_the_old_code_made_it(path, steps)
    assert len(record) == 1  # sqlite-utils' record of the migrations, left as it is
    store = Store(path)
    assert store.get_session("s1")["rules_version"] == 1  # m002's column, with its default
    store.close()
    _by_migrations(tmp_path / "migrated.db")
    assert _schema(path, without=tuple(record)) == _schema(tmp_path / "migrated.db")
    assert _version(path) == len(store_module.MIGRATIONS)
    Store(path).close()  # opened again: nothing is applied twice
    assert _schema(path, without=tuple(record)) == _schema(tmp_path / "migrated.db")


def test_a_failed_migration_leaves_the_file_at_the_version_before(tmp_path, monkeypatch):
    path = tmp_path / "old.db"
    _as_the_old_code_made_it(path, 1)

    def broken(db) -> None:
        db.execute("CREATE TABLE half_done (x)")
        raise RuntimeError("the card was pulled")

    monkeypatch.setattr(store_module, "MIGRATIONS", (*store_module.MIGRATIONS[:2], broken))
    with pytest.raises(RuntimeError):
        Store(path)
    assert _version(path) == 2  # m002 kept, the broken step rolled back whole
    assert "half_done" not in {r[1] for r in _schema(path)}


def test_opening_a_file_that_is_up_to_date_does_not_import_sqlite_utils(tmp_path):
    code = (
        "import sys; from tableside.core.store import Store; Store(sys.argv[1]).close(); "
        "print('sqlite_utils' in sys.modules)"
    )

    def imports(path) -> str:
        out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True)
        return out.stdout.strip()

    assert imports(tmp_path / "new.db") == "False"  # a new file comes from schema.sql
    assert imports(tmp_path / "new.db") == "False"
    _as_the_old_code_made_it(tmp_path / "old.db", 3)
    assert imports(tmp_path / "old.db") == "True"  # once, to read sqlite-utils' record
    assert imports(tmp_path / "old.db") == "False"
