-- Names the request that recorded a Gemini response's tokens, so that a second delivery of it counts nothing.
ALTER TABLE token_usage ADD COLUMN request_id TEXT;
CREATE UNIQUE INDEX token_usage_request ON token_usage (request_id);
