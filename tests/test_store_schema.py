"""A new data file is made from core/schema.sql in one step; it must be exactly what sqlite-utils'
migrations build, and an older file must still be upgraded by those migrations."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import sqlite_utils
from tableside.core import store as store_module
from tableside.core.store import Store


def _schema(path) -> list[tuple]:
    conn = sqlite3.connect(str(path))
    try:
        return sorted(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall())
    finally:
        conn.close()


def _applied(path) -> list[tuple]:
    conn = sqlite3.connect(str(path))
    try:
        return conn.execute("SELECT migration_set, name FROM _sqlite_migrations ORDER BY id").fetchall()
    finally:
        conn.close()


def _by_migrations(path) -> None:
    """The file as sqlite-utils' migrations alone make it."""
    migrations = sqlite_utils.Migrations(store_module.MIGRATION_SET)
    for step in store_module.MIGRATIONS:
        migrations()(step)
    db = sqlite_utils.Database(str(path))
    migrations.apply(db)
    db.close()


def test_a_new_file_from_schema_sql_equals_what_the_migrations_build(tmp_path):
    Store(tmp_path / "new.db").close()
    _by_migrations(tmp_path / "migrated.db")
    assert _schema(tmp_path / "new.db") == _schema(tmp_path / "migrated.db")
    assert _applied(tmp_path / "new.db") == _applied(tmp_path / "migrated.db")


def test_an_older_file_is_upgraded_by_the_migrations_it_lacks(tmp_path):
    path = tmp_path / "old.db"
    migrations = sqlite_utils.Migrations(store_module.MIGRATION_SET)
    migrations()(store_module.MIGRATIONS[0])  # a file from before seats, rolls and heads
    db = sqlite_utils.Database(str(path))
    migrations.apply(db)
    db.execute(
        "INSERT INTO sessions (id, ordinal, system, name, options, initial_state, created_at) "
        "VALUES ('s1', 1, 'toy', 'Toy', '{}', '{}', 'then')"
    )
    db.conn.commit()
    db.close()
    store = Store(path)
    assert store.get_session("s1")["rules_version"] == 1  # m002's column, with its default
    store.close()
    _by_migrations(tmp_path / "migrated.db")
    assert _schema(path) == _schema(tmp_path / "migrated.db")


def test_opening_a_file_that_is_up_to_date_does_not_import_sqlite_utils(tmp_path):
    path = tmp_path / "t.db"
    Store(path).close()
    code = (
        "import sys; from tableside.core.store import Store; Store(sys.argv[1]).close(); "
        "print('sqlite_utils' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    new = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "new.db")], capture_output=True, text=True, check=True
    )
    assert new.stdout.strip() == "False"  # a new file comes from schema.sql
