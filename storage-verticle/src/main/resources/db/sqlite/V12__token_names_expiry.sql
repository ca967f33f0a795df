-- A token's name (what its user calls it on the account page), when it stops working (null: never) and when it was
-- last used (written at most once a minute, so a busy token is not a write per request). Older tokens have no name,
-- never expire, and show as not used until their next use.
ALTER TABLE api_tokens ADD COLUMN name TEXT;
ALTER TABLE api_tokens ADD COLUMN expires_at TEXT;
ALTER TABLE api_tokens ADD COLUMN last_used_at TEXT;
