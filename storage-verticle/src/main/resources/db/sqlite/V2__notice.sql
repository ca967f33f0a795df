-- Why an answer ended short (cut off at the output limit, declined), shown under it after a reload.
ALTER TABLE messages ADD COLUMN notice TEXT;
