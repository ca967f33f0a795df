-- Search ignores case and accents alike on both databases: each title and message keeps a copy folded in Java
-- (SearchText, the same step as on SQLite), as lower() folds per the database's locale, under C only ASCII.
ALTER TABLE conversations ADD COLUMN title_folded TEXT;
ALTER TABLE messages ADD COLUMN content_folded TEXT;
