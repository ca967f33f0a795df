-- Scheduled questions (issue 52): a target's SQL run again hourly, daily or weekly in the user's time zone. A node runs
-- a due schedule under a lease (lease_owner, lease_until) that simply expires when the node dies, so that the next
-- node's tick takes it over. The webhook's secret is kept as it is: it signs every delivery.
CREATE TABLE schedules (
  id              TEXT PRIMARY KEY,
  user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  target_kind     TEXT NOT NULL CHECK (target_kind IN ('result', 'tile')),
  target_id       TEXT NOT NULL,
  sql             TEXT NOT NULL,
  every           TEXT NOT NULL CHECK (every IN ('hourly', 'daily', 'weekly')),
  at_hour         INTEGER NOT NULL,
  at_minute       INTEGER NOT NULL,
  weekday         INTEGER NOT NULL,
  time_zone       TEXT NOT NULL,
  webhook_url     TEXT,
  webhook_secret  TEXT,
  next_run_at     TEXT NOT NULL,
  lease_owner     TEXT,
  lease_until     TEXT,
  paused          INTEGER NOT NULL DEFAULT 0,
  created_at      TEXT NOT NULL
);
CREATE INDEX schedules_by_user ON schedules (user_id, created_at);
CREATE INDEX schedules_due ON schedules (next_run_at);
-- One run per schedule and due time, whoever makes it: a second node that takes a run over finds it made.
CREATE TABLE schedule_runs (
  id              TEXT PRIMARY KEY,
  schedule_id     TEXT NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
  due_at          TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed')),
  reason          TEXT,
  result_id       TEXT,
  columns_json    TEXT,
  rows_json       TEXT,
  summary         TEXT,
  comparison_json TEXT,
  event_sent      INTEGER NOT NULL DEFAULT 0,
  webhook_state   TEXT NOT NULL CHECK (webhook_state IN ('none', 'pending', 'delivered', 'failed')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,
  webhook_claim   TEXT,
  last_error      TEXT,
  created_at      TEXT NOT NULL,
  finished_at     TEXT,
  UNIQUE (schedule_id, due_at)
);
CREATE INDEX schedule_runs_pending ON schedule_runs (webhook_state, next_attempt_at);
