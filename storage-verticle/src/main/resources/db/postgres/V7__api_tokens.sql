-- API tokens of the event-bus bridge, kept as the SHA-256 of the token, as sessions are: a copy of the database signs
-- nobody in. Revoked ones stay, so that an operator can see what was revoked and when.
CREATE TABLE api_tokens (
  id         TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
