-- Whether a request's tokens are estimated: some OpenAI-compatible servers never say how many they used.
ALTER TABLE token_usage ADD COLUMN estimated INTEGER NOT NULL DEFAULT 0;
