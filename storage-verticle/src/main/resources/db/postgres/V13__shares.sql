-- Share links (/s/<token>): a read-only view of a conversation as it was when shared ("until"), or of one answer. Kept
-- as the SHA-256 of the token, as API tokens are: a copy of the database opens no link. Revoked ones stay, so that
-- their sharer sees what was revoked and when. "kind" says what a share shows (conversation, message, board): a board
-- is shared by adding its kind and its id in board_id, not by another table.
CREATE TABLE shares (
  id              TEXT PRIMARY KEY,
  token_hash      TEXT NOT NULL UNIQUE,
  user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind            TEXT NOT NULL,
  conversation_id TEXT REFERENCES conversations (id) ON DELETE CASCADE,
  message_id      TEXT,
  board_id        TEXT,
  audience        TEXT NOT NULL,
  display_name    TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  until_at        TEXT NOT NULL,
  expires_at      TEXT,
  revoked_at      TEXT
);
CREATE INDEX shares_user ON shares (user_id, created_at);
