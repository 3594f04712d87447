-- 009-series.sql: each run's samples of a metric as column blobs, in
-- chunks of 56 (user_version 9), instead of one samples row per
-- measurement.
--
-- One row per measurement cost most of ingest's time and twice the
-- database's size in b-tree pages (docs/research/bench.md); a run's
-- series is written and read as a whole anyway.  56 samples a row keep
-- four rows in a 4 KiB page and make the view below cheap: SQLite reads
-- a blob whole for every substr(), so one blob per run made reading it
-- as rows quadratic in the run's length.  samples becomes a view
-- that decodes the blobs in plain SQL, so sqlite3 users still see one
-- row per measurement (SELECT * FROM samples WHERE run_id = 7 reads only
-- run 7).  The view is read-only: the record is changed by ingest alone.
-- Migrating packs the old rows in seq order (pathstat_series_pack is a
-- function pathstat registers for this), keeping sample_values, the
-- sorted copy analyze reads.  A database that has the view already
-- (its user_version set back by hand) is left as it is:
-- skip-if: SELECT count(*) FROM sqlite_schema WHERE name = 'samples' AND type = 'view'

-- A run's samples of one metric, 56 a row, in seq order.
CREATE TABLE series (
	run_id	INTEGER NOT NULL,
	metric	INTEGER NOT NULL,
	chunk	INTEGER NOT NULL,	-- 0, 1, ...: seq chunk * 56 .. chunk * 56 + rows - 1
	rows	INTEGER NOT NULL,	-- samples in the row (56 but in the last), failed ones included
	failed	INTEGER NOT NULL,	-- samples in the row with status <> 0
	value	BLOB NOT NULL,	-- rows x IEEE 754 binary64 little-endian; a NaN is NULL
	t_us	BLOB,	-- rows x int64 little-endian, 0x8000000000000000 for
		-- no time; NULL when no sample has one
	status	BLOB,	-- rows x one byte (sample_status.code); NULL when all are 0
	PRIMARY KEY (run_id, metric, chunk)
);

-- The numbers 0 .. 55: the samples view joins them to series, a row per
-- sample, so that a filter on run_id reads only that run.
CREATE TABLE series_seq (
	seq	INTEGER PRIMARY KEY
);

INSERT INTO series (run_id, metric, chunk, rows, failed, value, t_us, status)
SELECT run_id, metric, rn / 56, count(*), sum(status <> 0),
    pathstat_series_pack('v', rn, value),
    pathstat_series_pack('t', rn, t_us),
    pathstat_series_pack('s', rn, status)
FROM (SELECT run_id, metric, value, t_us, status, row_number() OVER
	(PARTITION BY run_id, metric ORDER BY seq) - 1 AS rn FROM samples)
GROUP BY run_id, metric, rn / 56;

WITH RECURSIVE n (seq) AS (SELECT 0 UNION ALL SELECT seq + 1 FROM n
    WHERE seq < 55)
INSERT INTO series_seq (seq) SELECT seq FROM n;

-- The sorted copy goes with its series, as it went with the samples rows.
CREATE TRIGGER series_delete_values AFTER DELETE ON series BEGIN
	DELETE FROM sample_values
	WHERE run_id = old.run_id AND metric = old.metric;
END;

CREATE TRIGGER series_update_values AFTER UPDATE ON series BEGIN
	DELETE FROM sample_values
	WHERE (run_id = old.run_id AND metric = old.metric)
	    OR (run_id = new.run_id AND metric = new.metric);
END;

DROP TRIGGER samples_delete_values;
DROP TRIGGER samples_update_values;
DROP TABLE samples;

-- One row per measurement, decoded from series: run_id, metric, seq
-- (0, 1, ... within the run and metric), t_us (microseconds from the run's start, or NULL),
-- value (the metric's unit; NULL for a failed sample), status
-- (sample_status.code).  Needs SQLite's math functions (pow), built in
-- since 3.35.
CREATE VIEW samples (run_id, metric, seq, t_us, value, status) AS
SELECT run_id, metric, seq,
    CASE WHEN t = '' OR t = '0000000000000080' THEN NULL ELSE
	t0 + t1 * 256 + t2 * 65536 + t3 * 16777216 + t4 * 4294967296 +
	t5 * 1099511627776 + t6 * 281474976710656 +
	(t7 - CASE WHEN t7 >= 128 THEN 256 ELSE 0 END) * 72057594037927936
    END,
    CASE WHEN (v7 % 128) * 16 + v6 / 16 = 2047 THEN NULL ELSE
	CASE WHEN v7 >= 128 THEN -1.0 ELSE 1.0 END *
	CASE WHEN (v7 % 128) * 16 + v6 / 16 = 0 THEN m * pow(2, -1074)
	ELSE (m + 4503599627370496) * pow(2, (v7 % 128) * 16 + v6 / 16 - 1075)
	END
    END,
    CASE WHEN st = '' THEN 0 ELSE
	(instr('0123456789ABCDEF', substr(st, 1, 1)) - 1) * 16 +
	instr('0123456789ABCDEF', substr(st, 2, 1)) - 1
    END
FROM (SELECT *, (v6 % 16) * 281474976710656 + v5 * 1099511627776 +
	v4 * 4294967296 + v3 * 16777216 + v2 * 65536 + v1 * 256 + v0 AS m
    FROM (SELECT run_id, metric, seq, t, st,
	    ((instr('0123456789ABCDEF', substr(v, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(v, 2, 1)) - 1) AS v0,
	    ((instr('0123456789ABCDEF', substr(v, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(v, 4, 1)) - 1) AS v1,
	    ((instr('0123456789ABCDEF', substr(v, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(v, 6, 1)) - 1) AS v2,
	    ((instr('0123456789ABCDEF', substr(v, 7, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(v, 8, 1)) - 1) AS v3,
	    ((instr('0123456789ABCDEF', substr(v, 9, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(v, 10, 1)) - 1) AS v4,
	    ((instr('0123456789ABCDEF', substr(v, 11, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(v, 12, 1)) - 1) AS v5,
	    ((instr('0123456789ABCDEF', substr(v, 13, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(v, 14, 1)) - 1) AS v6,
	    ((instr('0123456789ABCDEF', substr(v, 15, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(v, 16, 1)) - 1) AS v7,
	    ((instr('0123456789ABCDEF', substr(t, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(t, 2, 1)) - 1) AS t0,
	    ((instr('0123456789ABCDEF', substr(t, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(t, 4, 1)) - 1) AS t1,
	    ((instr('0123456789ABCDEF', substr(t, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(t, 6, 1)) - 1) AS t2,
	    ((instr('0123456789ABCDEF', substr(t, 7, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(t, 8, 1)) - 1) AS t3,
	    ((instr('0123456789ABCDEF', substr(t, 9, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(t, 10, 1)) - 1) AS t4,
	    ((instr('0123456789ABCDEF', substr(t, 11, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(t, 12, 1)) - 1) AS t5,
	    ((instr('0123456789ABCDEF', substr(t, 13, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(t, 14, 1)) - 1) AS t6,
	    ((instr('0123456789ABCDEF', substr(t, 15, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(t, 16, 1)) - 1) AS t7
	FROM (SELECT s.run_id, s.metric, s.chunk * 56 + n.seq AS seq,
		hex(substr(s.value, 8 * n.seq + 1, 8)) AS v,
		hex(substr(s.t_us, 8 * n.seq + 1, 8)) AS t,
		hex(substr(s.status, n.seq + 1, 1)) AS st
	    FROM series s JOIN series_seq n ON n.seq < s.rows)));
