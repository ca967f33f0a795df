-- Search ignores case and accents alike on both databases: each title and message keeps a copy folded in Java
-- (SearchText), which SQLite's lower() could not do past ASCII. SearchText fills it in for the rows already there.
ALTER TABLE conversations ADD COLUMN title_folded TEXT;
ALTER TABLE messages ADD COLUMN content_folded TEXT;
