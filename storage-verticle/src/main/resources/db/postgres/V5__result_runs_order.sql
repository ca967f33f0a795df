-- Runs marked in the same millisecond are listed in the order they were made, as SQLite's rowid lists them.
ALTER TABLE result_runs ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;
