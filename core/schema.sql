-- The schema the migrations in core/store.py build, all applied: a new data file is made from this
-- in one step, its PRAGMA user_version set to the number of migrations (sqlite-utils is imported only
-- to upgrade an older file). tests/test_store_schema.py checks it equals what the migrations make;
-- change both together.

CREATE TABLE "sessions" (
   "id" TEXT PRIMARY KEY,
   "ordinal" INTEGER,
   "system" TEXT,
   "name" TEXT,
   "options" TEXT,
   "initial_state" TEXT,
   "created_at" TEXT
, "rules_version" INTEGER NOT NULL DEFAULT 1);

CREATE UNIQUE INDEX "idx_sessions_ordinal"
    ON "sessions" ("ordinal");

CREATE TABLE "log" (
   "session_id" TEXT NOT NULL,
   "seq" INTEGER NOT NULL,
   "kind" TEXT NOT NULL,
   "type" TEXT NOT NULL,
   "action" TEXT,
   "target" INTEGER,
   "source" TEXT,
   "at" TEXT,
   "result" TEXT, "seat" TEXT, "rolls" TEXT, "private" TEXT,
   PRIMARY KEY ("session_id", "seq")
);

CREATE TABLE "snapshots" (
   "session_id" TEXT,
   "version" INTEGER,
   "state" TEXT,
   PRIMARY KEY ("session_id", "version")
);

CREATE TABLE "meta" (
   "key" TEXT PRIMARY KEY,
   "value" TEXT
);

CREATE TABLE "seat_claims" (
   "session_id" TEXT,
   "seat" TEXT,
   "token" TEXT,
   "at" TEXT,
   PRIMARY KEY ("session_id", "seat")
);

CREATE UNIQUE INDEX "idx_seat_claims_token"
    ON "seat_claims" ("token");

CREATE TABLE heads (session_id TEXT PRIMARY KEY, version INTEGER NOT NULL, state TEXT NOT NULL);

CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE, merged_into INTEGER);

CREATE TABLE players (session_id TEXT NOT NULL, seat TEXT NOT NULL, person INTEGER NOT NULL, PRIMARY KEY (session_id, seat));

CREATE TABLE left_out (session_id TEXT PRIMARY KEY, at TEXT);

CREATE TABLE game_stats (session_id TEXT PRIMARY KEY, version INTEGER NOT NULL, summary TEXT NOT NULL);
