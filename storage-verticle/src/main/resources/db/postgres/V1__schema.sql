-- The same tables as SQLite's V1–V3, in one step. Emails and dataset names compare without regard to case, as
-- SQLite's COLLATE NOCASE does; rowid keeps insertion order for ties, as SQLite's does.
CREATE COLLATION IF NOT EXISTS nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false);

CREATE TABLE users (
  id            TEXT PRIMARY KEY,
  email         TEXT UNIQUE COLLATE nocase,
  password_hash TEXT,
  is_local      BIGINT NOT NULL DEFAULT 0,
  created_at    TEXT NOT NULL
);
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
  rowid      BIGINT GENERATED ALWAYS AS IDENTITY,
  id         TEXT PRIMARY KEY,
  user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  title      TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX conversations_by_user ON conversations (user_id, updated_at);

CREATE TABLE messages (
  rowid           BIGINT GENERATED ALWAYS AS IDENTITY,
  id              TEXT PRIMARY KEY,
  conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  role            TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
  content         TEXT NOT NULL,
  tool_rounds     TEXT NOT NULL DEFAULT '[]',
  sql_queries     TEXT NOT NULL DEFAULT '[]',
  result_ids      TEXT NOT NULL DEFAULT '[]',
  charts          TEXT NOT NULL DEFAULT '[]',
  input_tokens    BIGINT NOT NULL DEFAULT 0,
  output_tokens   BIGINT NOT NULL DEFAULT 0,
  status          TEXT NOT NULL DEFAULT 'complete',
  created_at      TEXT NOT NULL,
  notice          TEXT
);
CREATE INDEX messages_by_conversation ON messages (conversation_id, created_at);

CREATE TABLE datasets (
  rowid           BIGINT GENERATED ALWAYS AS IDENTITY,
  id              TEXT PRIMARY KEY,
  conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  url             TEXT NOT NULL,
  name            TEXT NOT NULL COLLATE nocase,
  row_count       BIGINT,
  column_count    BIGINT,
  schema_json     TEXT NOT NULL DEFAULT '[]',
  status          TEXT NOT NULL CHECK (status IN ('loading', 'ready', 'error')),
  error_message   TEXT,
  file_size       BIGINT,
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
  total_rows        BIGINT NOT NULL,
  truncated         BIGINT NOT NULL,
  execution_time_ms BIGINT NOT NULL,
  created_at        TEXT NOT NULL,
  note              TEXT
);
CREATE INDEX query_results_by_conversation ON query_results (conversation_id);

-- Usage outlives its conversation: deleting a conversation must not refill the daily budget.
CREATE TABLE token_usage (
  id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  conversation_id TEXT REFERENCES conversations (id) ON DELETE SET NULL,
  model_name      TEXT NOT NULL,
  input_tokens    BIGINT NOT NULL,
  output_tokens   BIGINT NOT NULL,
  created_at      TEXT NOT NULL
);
CREATE INDEX token_usage_by_user ON token_usage (user_id, created_at);
