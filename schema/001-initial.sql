-- 001-initial.sql: the first pathstat schema (user_version 1).
-- Who writes what: ingest/ fills files, runs, run_tags, samples, summaries,
-- run_counts; analyze/ and report/ only read.  Text is stored once
-- (paths, conditions, metrics are integer keys); samples are compact.

-- The metrics samples and runs refer to by id, with their units.
CREATE TABLE metrics (
	id	INTEGER PRIMARY KEY,	-- small stable id used in samples.metric
	name	TEXT NOT NULL UNIQUE,	-- connect_ms, http_ms, throughput_bps, ...
	unit	TEXT NOT NULL		-- ms, bit/s, %, count, req/s
);
INSERT INTO metrics (id, name, unit) VALUES
	(1, 'connect_ms', 'ms'),
	(2, 'http_ms', 'ms'),
	(3, 'throughput_bps', 'bit/s'),
	(4, 'jitter_ms', 'ms'),
	(5, 'loss_pct', '%'),
	(6, 'retransmits', 'count'),
	(7, 'rps', 'req/s');

-- Sample status codes (samples.status); a failed sample has value NULL.
CREATE TABLE sample_status (
	id	INTEGER PRIMARY KEY,
	name	TEXT NOT NULL UNIQUE
);
INSERT INTO sample_status (id, name) VALUES
	(0, 'ok'), (1, 'timeout'), (2, 'refused'), (3, 'unreachable'),
	(4, 'error'), (5, 'http_error');

-- One row per file seen by ingest, whatever its fate.
CREATE TABLE files (
	id		INTEGER PRIMARY KEY,
	relpath		TEXT NOT NULL UNIQUE,	-- the tree's own folder name and the path below it: results/C/trial1/iperf3.json
	hash		TEXT NOT NULL,		-- XXH3-128 of the (decompressed) content, hex
	size		INTEGER NOT NULL,	-- bytes on disk
	kind		TEXT NOT NULL,		-- iperf3-json, iperf3-stream, oha-json, oha-csv, oha-sqlite, pathprobe-csv, pathprobe-mtu, meta, iperf3-usage (pathstat --list kinds), or unknown
	tool_version	TEXT,			-- e.g. "iperf 3.12", "oha v1.15"
	status		TEXT NOT NULL CHECK (status IN ('ok', 'partial', 'rejected', 'skipped')),
	reason		TEXT,			-- why partial, rejected or skipped
	keys		TEXT NOT NULL DEFAULT '',	-- run keys resolved from meta.json/layout/--tag at ingest;
						-- a change is refused (named) unless ingest --rekey
	ingested_at	TEXT NOT NULL		-- UTC ISO 8601
);
CREATE INDEX files_hash ON files (hash);

-- Path IDs, stored once.
CREATE TABLE paths (
	id	INTEGER PRIMARY KEY,
	name	TEXT NOT NULL UNIQUE	-- the user's path ID: A, B, G', L2 ...
);

-- Conditions (their canonical text), stored once.
CREATE TABLE conditions (
	id	INTEGER PRIMARY KEY,
	canon	TEXT NOT NULL UNIQUE	-- keys sorted, ','-joined: c=16,ka=off,size=1k ('' = none)
);
-- The key=value pairs of each condition.
CREATE TABLE condition_keys (
	cond_id	INTEGER NOT NULL REFERENCES conditions (id),
	key	TEXT NOT NULL,
	value	TEXT NOT NULL,
	PRIMARY KEY (cond_id, key)
) WITHOUT ROWID;

-- One execution of one tool.  file_id is the file the samples came from;
-- summary_file_id the file the tool's own summaries came from (an oha
-- JSON paired with its --db-url SQLite or CSV), or NULL.
CREATE TABLE runs (
	id		INTEGER PRIMARY KEY,
	file_id		INTEGER REFERENCES files (id),
	summary_file_id	INTEGER REFERENCES files (id),
	path_id		INTEGER NOT NULL REFERENCES paths (id),
	cond_id		INTEGER NOT NULL REFERENCES conditions (id),
	trial		INTEGER NOT NULL,
	tool		TEXT NOT NULL,		-- iperf3, oha, pathprobe
	metric		INTEGER NOT NULL REFERENCES metrics (id),	-- the run's primary metric
	started_at	INTEGER,		-- Unix seconds (UTC) of the run start, NULL if unknown
	status		TEXT NOT NULL CHECK (status IN ('ok', 'partial')),
	reason		TEXT,			-- why partial
	failures	INTEGER NOT NULL DEFAULT 0,	-- failed attempts of the primary metric (probes, requests)
	attempts	INTEGER,		-- attempts made, when the tool says (oha: successes + errors)
	tagkey		TEXT NOT NULL DEFAULT ''	-- canonical 'k=v;k=v' of run_tags, for conflict checks
);
CREATE INDEX runs_file ON runs (file_id);
CREATE INDEX runs_summary_file ON runs (summary_file_id);
CREATE INDEX runs_cell ON runs (metric, path_id, cond_id);
CREATE INDEX runs_identity ON runs (path_id, cond_id, trial, tool, tagkey);

-- Each run's tags: instance_type, region, day, and any key meta.json,
-- --layout or --tag gave.
CREATE TABLE run_tags (
	run_id	INTEGER NOT NULL REFERENCES runs (id),
	key	TEXT NOT NULL,		-- instance_type, region, az, day, ...
	value	TEXT NOT NULL,
	PRIMARY KEY (run_id, key)
) WITHOUT ROWID;

-- Raw measurements.  value is in the metric's unit, NULL when the
-- attempt failed (status != 0).  t_us: microseconds since the run start
-- (probe send time, request start, interval end).
CREATE TABLE samples (
	run_id	INTEGER NOT NULL,
	metric	INTEGER NOT NULL,
	seq	INTEGER NOT NULL,	-- order within the run and metric
	t_us	INTEGER,
	value	REAL,
	status	INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (run_id, metric, seq)
) WITHOUT ROWID;

-- What a tool computed itself, never mixed with recomputed statistics:
-- estimator names the tool's rule ('oha' = sorted[floor(p*n)],
-- 'iperf3' = end-of-test sums, 'tool' = a plain tool-reported value).
CREATE TABLE summaries (
	run_id		INTEGER NOT NULL,
	metric		TEXT NOT NULL,		-- http_ms, throughput_bps, rps, ...
	stat		TEXT NOT NULL,		-- p50, p99.9, mean, sum_sent, success_rate, ...
	value		REAL,
	estimator	TEXT NOT NULL,
	file_id		INTEGER NOT NULL,	-- the file this value came from
	PRIMARY KEY (run_id, metric, stat)
) WITHOUT ROWID;

-- Distributions a tool reported: oha status codes and error messages.
CREATE TABLE run_counts (
	run_id	INTEGER NOT NULL,
	kind	TEXT NOT NULL,		-- 'status' or 'error'
	label	TEXT NOT NULL,		-- "200", "Connection refused (os error 111)"
	count	INTEGER NOT NULL,
	file_id	INTEGER NOT NULL,	-- the file this count came from
	PRIMARY KEY (run_id, kind, label)
) WITHOUT ROWID;

-- Views for people who open the DB in sqlite3.
CREATE VIEW run_view AS
SELECT r.id AS run_id, p.name AS path, c.canon AS condition, r.trial, r.tool,
       m.name AS metric, r.status, r.reason, r.failures, r.attempts,
       datetime(r.started_at, 'unixepoch') AS started_utc,
       r.tagkey AS tags, f.relpath AS file, sf.relpath AS summary_file
FROM runs r
JOIN paths p ON p.id = r.path_id
JOIN conditions c ON c.id = r.cond_id
JOIN metrics m ON m.id = r.metric
LEFT JOIN files f ON f.id = r.file_id
LEFT JOIN files sf ON sf.id = r.summary_file_id;

-- One row per sample with its run's keys and its status by name.
CREATE VIEW sample_view AS
SELECT p.name AS path, c.canon AS condition, r.trial, r.tool, m.name AS metric,
       s.seq, s.t_us, s.value, st.name AS status, r.id AS run_id
FROM samples s
JOIN runs r ON r.id = s.run_id
JOIN paths p ON p.id = r.path_id
JOIN conditions c ON c.id = r.cond_id
JOIN metrics m ON m.id = s.metric
JOIN sample_status st ON st.id = s.status;

-- One row per value a tool computed itself, with its run's keys.
CREATE VIEW summary_view AS
SELECT p.name AS path, c.canon AS condition, r.trial, r.tool, s.metric,
       s.stat, s.value, s.estimator, r.id AS run_id
FROM summaries s
JOIN runs r ON r.id = s.run_id
JOIN paths p ON p.id = r.path_id
JOIN conditions c ON c.id = r.cond_id;

-- One row per file seen by ingest, with the runs it gave.
CREATE VIEW file_view AS
SELECT relpath, kind, tool_version, status, reason, size, hash, ingested_at,
       (SELECT count(*) FROM runs r WHERE r.file_id = files.id
            OR r.summary_file_id = files.id) AS runs
FROM files;
