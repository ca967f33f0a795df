-- Every table of SPEC §6. Ids are UUID text; timestamps UTC ISO-8601 with milliseconds.
CREATE TABLE users (
  id            TEXT PRIMARY KEY,
  email         TEXT UNIQUE COLLATE NOCASE,
  password_hash TEXT,
  is_local      INTEGER NOT NULL DEFAULT 0,
  created_at    TEXT NOT NULL
);
-- At most one local user, so that concurrent first starts cannot create two.
CREATE UNIQUE INDEX users_one_local ON users (is_local) WHERE is_local = 1;

CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);

CREATE TABLE invites (
  code       TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  used_by    TEXT REFERENCES users (id) ON DELETE SET NULL,
  used_at    TEXT
);

CREATE TABLE conversations (
  id         TEXT PRIMARY KEY,
  user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  title      TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX conversations_by_user ON conversations (user_id, updated_at);

CREATE TABLE messages (
  id              TEXT PRIMARY KEY,
  conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  role            TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
  content         TEXT NOT NULL,
  tool_rounds     TEXT NOT NULL DEFAULT '[]',
  sql_queries     TEXT NOT NULL DEFAULT '[]',
  result_ids      TEXT NOT NULL DEFAULT '[]',
  charts          TEXT NOT NULL DEFAULT '[]',
  input_tokens    INTEGER NOT NULL DEFAULT 0,
  output_tokens   INTEGER NOT NULL DEFAULT 0,
  status          TEXT NOT NULL DEFAULT 'complete',
  created_at      TEXT NOT NULL
);
CREATE INDEX messages_by_conversation ON messages (conversation_id, created_at);

CREATE TABLE datasets (
  id              TEXT PRIMARY KEY,
  conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  url             TEXT NOT NULL,
  name            TEXT NOT NULL COLLATE NOCASE,
  row_count       INTEGER,
  column_count    INTEGER,
  schema_json     TEXT NOT NULL DEFAULT '[]',
  status          TEXT NOT NULL CHECK (status IN ('loading', 'ready', 'error')),
  error_message   TEXT,
  file_size       INTEGER,
  etag            TEXT,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL,
  UNIQUE (conversation_id, url),
  UNIQUE (conversation_id, name)
);

CREATE TABLE query_results (
  id                TEXT PRIMARY KEY,
  conversation_id   TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  sql               TEXT NOT NULL,
  columns_json      TEXT NOT NULL,
  rows_json         TEXT NOT NULL,
  total_rows        INTEGER NOT NULL,
  truncated         INTEGER NOT NULL,
  execution_time_ms INTEGER NOT NULL,
  created_at        TEXT NOT NULL
);
CREATE INDEX query_results_by_conversation ON query_results (conversation_id);

-- Usage outlives its conversation: deleting a conversation must not refill the daily budget.
CREATE TABLE token_usage (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  conversation_id TEXT REFERENCES conversations (id) ON DELETE SET NULL,
  model_name      TEXT NOT NULL,
  input_tokens    INTEGER NOT NULL,
  output_tokens   INTEGER NOT NULL,
  created_at      TEXT NOT NULL
);
CREATE INDEX token_usage_by_user ON token_usage (user_id, created_at);
