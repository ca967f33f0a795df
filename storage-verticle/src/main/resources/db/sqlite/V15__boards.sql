-- Boards: a user's grids of tiles. A tile keeps its own copy of what it shows (the result's columns and at most 1,000
-- rows, its SQL and the versions of the files it read), so that it outlives its result and its conversation and a board
-- opens without running anything. A deleted conversation leaves its tiles, unable to run again (conversation_id null).
CREATE TABLE boards (
  id         TEXT PRIMARY KEY,
  user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  title      TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX boards_by_user ON boards (user_id, updated_at);

CREATE TABLE tiles (
  id              TEXT PRIMARY KEY,
  board_id        TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
  user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  position        INTEGER NOT NULL,
  title           TEXT NOT NULL,
  kind            TEXT NOT NULL CHECK (kind IN ('chart', 'table')),
  chart_json      TEXT,
  sql             TEXT NOT NULL,
  conversation_id TEXT REFERENCES conversations (id) ON DELETE SET NULL,
  sources         TEXT NOT NULL,
  columns_json    TEXT NOT NULL,
  rows_json       TEXT NOT NULL,
  total_rows      INTEGER NOT NULL,
  truncated       INTEGER NOT NULL,
  ran_at          TEXT NOT NULL,
  created_at      TEXT NOT NULL
);
CREATE INDEX tiles_by_board ON tiles (board_id, position);
CREATE INDEX tiles_by_conversation ON tiles (conversation_id);
