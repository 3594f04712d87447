-- 006-path-mtu.sql: path MTU results (user_version 6).
-- `pathprobe --mtu` (pathstat-collect --mtu: mtu/mtu.txt) measures the
-- largest packet that reaches a host with the DF bit set, or says it
-- could not.  ingest stores each such file as a run of the metric
-- path_mtu (tool pathprobe; path, tags and day as for any run) with one
-- sample: the MTU in bytes, or no value with the status 'unmeasured'
-- when it is unknown, so analyze counts it like any metric.
-- OR IGNORE and IF NOT EXISTS: running it on a database that has these
-- already (a downgraded user_version) changes nothing.
INSERT OR IGNORE INTO metrics (id, name, unit) VALUES (9, 'path_mtu', 'bytes');

-- What a pathprobe --mtu run's mtu.txt said, beside the run's one
-- path_mtu sample: an unknown MTU stays unknown (mtu NULL) with its
-- reason, never 0 or a blank (the CHECKs).  Removed with its run.
CREATE TABLE IF NOT EXISTS mtu_results (
	run_id		INTEGER PRIMARY KEY REFERENCES runs (id),
	status		TEXT NOT NULL,		-- found, or unknown: nothing to go by
	mtu		INTEGER,		-- bytes of the largest IP packet that got through; NULL when unknown
	route_mtu	INTEGER,		-- the client's route MTU toward the host (where the search started)
	method		TEXT NOT NULL,		-- udp-df: DF-set UDP to a closed port, ICMP answers read
	reason		TEXT,			-- why unknown, in words; NULL when found
	target		TEXT,			-- host:port as given to pathprobe
	addr		TEXT,			-- the address it resolved to
	probes		INTEGER,		-- datagrams sent
	CHECK (status IN ('found', 'unknown')),
	CHECK ((status = 'found' AND mtu > 0) OR
	    (status = 'unknown' AND mtu IS NULL)),
	CHECK (status = 'found' OR (reason IS NOT NULL AND reason <> ''))
);

CREATE TRIGGER IF NOT EXISTS runs_delete_mtu AFTER DELETE ON runs BEGIN
	DELETE FROM mtu_results WHERE run_id = old.id;
END;

-- One row per path MTU result with its path, day (the day tag, else the
-- start's date) and the run's tags.
CREATE VIEW IF NOT EXISTS mtu_view AS
SELECT p.name AS path,
       coalesce((SELECT value FROM run_tags t WHERE t.run_id = r.id AND
           t.key = 'day'), date(r.started_at, 'unixepoch')) AS day,
       strftime('%Y-%m-%dT%H:%M:%SZ', r.started_at, 'unixepoch') AS started_utc,
       m.status, m.mtu, m.route_mtu, m.method, m.reason, m.target, m.addr,
       m.probes, r.tagkey AS tags, f.relpath AS file, r.id AS run_id
FROM mtu_results m
JOIN runs r ON r.id = m.run_id
JOIN paths p ON p.id = r.path_id
LEFT JOIN files f ON f.id = r.file_id;
