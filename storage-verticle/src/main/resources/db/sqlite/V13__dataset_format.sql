-- What kind of file a dataset is (parquet, csv, json): every dataset before this was Parquet.
ALTER TABLE datasets ADD COLUMN format TEXT NOT NULL DEFAULT 'parquet';
