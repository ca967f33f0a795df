-- Invites are kept as the SHA-256 of their code (InviteCodes rewrites the codes already there, the same Java step as
-- on SQLite), as sessions are of their token.
ALTER TABLE invites RENAME COLUMN code TO code_hash;
