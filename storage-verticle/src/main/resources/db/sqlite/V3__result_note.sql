-- Where a result's rows came from when the reader must know it (a cached copy not confirmed current).
ALTER TABLE query_results ADD COLUMN note TEXT;
