-- An answer's numbers checked against its turn's results (JSON), and the versions of the files a result read (JSON).
ALTER TABLE messages ADD COLUMN numbers TEXT;
ALTER TABLE query_results ADD COLUMN sources TEXT;
