-- Invites are kept as the SHA-256 of their code (InviteCodes rewrites the codes already there, in Java: SQLite has no
-- SHA-256), as sessions are of their token.
ALTER TABLE invites RENAME COLUMN code TO code_hash;
