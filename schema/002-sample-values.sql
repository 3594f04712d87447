-- 002-sample-values.sql: a packed, sorted copy of each run's successful
-- sample values per metric (user_version 2), so analyze reads one blob
-- per run instead of stepping through every samples row.
--
-- samples stays the record (one row per measurement, failures kept);
-- sample_values is derived from it and may be missing for any (run,
-- metric): analyze then reads the rows.  ingest writes it with the
-- samples, in the same transaction.  Deleting or updating samples rows
-- drops the copy (triggers below); a row inserted by hand is noticed by
-- analyze because seq no longer runs 0 .. rows - 1.  Why it exists:
-- docs/research/bench.md (reading 20 M samples rows cost ~2 s of SQLite's
-- per-row work alone, a blob per run ~0.1 s).
CREATE TABLE sample_values (
	run_id		INTEGER NOT NULL,
	metric		INTEGER NOT NULL,
	rows		INTEGER NOT NULL,	-- samples rows of (run_id, metric), failed ones included
	failures	INTEGER NOT NULL,	-- rows with status <> 0 or value NULL
	sorted		BLOB NOT NULL,		-- the rows - failures values, ascending, IEEE 754 binary64 little-endian
	PRIMARY KEY (run_id, metric)
);

CREATE TRIGGER samples_delete_values AFTER DELETE ON samples BEGIN
	DELETE FROM sample_values
	WHERE run_id = old.run_id AND metric = old.metric;
END;

CREATE TRIGGER samples_update_values AFTER UPDATE ON samples BEGIN
	DELETE FROM sample_values
	WHERE (run_id = old.run_id AND metric = old.metric)
	    OR (run_id = new.run_id AND metric = new.metric);
END;
