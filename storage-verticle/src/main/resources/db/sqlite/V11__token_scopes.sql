-- What an API token may do: read, query (and change datasets), or chat (everything). Tokens made before scopes did
-- everything, and keep doing so.
ALTER TABLE api_tokens ADD COLUMN scope TEXT NOT NULL DEFAULT 'chat';
