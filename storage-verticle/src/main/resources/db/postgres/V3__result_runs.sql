-- Results the user ran themselves (an answer's SQL edited and run again, or the SQL runner's), so that a reload shows
-- them where they were made. message_id names the answer an edited run stands under; it is no foreign key, as an
-- answer still streaming may not be stored yet.
CREATE TABLE result_runs (
  result_id       TEXT PRIMARY KEY REFERENCES query_results (id) ON DELETE CASCADE,
  conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  origin          TEXT NOT NULL CHECK (origin IN ('edited', 'runner')),
  message_id      TEXT,
  created_at      TEXT NOT NULL
);
CREATE INDEX result_runs_by_conversation ON result_runs (conversation_id, created_at);
