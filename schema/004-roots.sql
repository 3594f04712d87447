-- 004-roots.sql: ingest remembers the trees it was given (user_version 4),
-- and run_view gives times as ISO 8601 with Z, as the CLI does.
--
-- A file's stored name (files.relpath) is its tree's own folder name and
-- the path below it.  With the tree's real path kept here, a folder
-- inside it, or one file, given to ingest later is read as part of that
-- tree: the same stored names, meta.json read up to the tree's root, the
-- layout matched against the path below it; and a file the database has
-- under that tree but the tree no longer holds is found gone.
-- IF [NOT] EXISTS: running it on a database that has it already (a
-- downgraded user_version) changes nothing.

-- The trees given to ingest, one row each.
CREATE TABLE IF NOT EXISTS roots (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL UNIQUE,	-- the folder's own name: what files.relpath begins with, then '/'
	path		TEXT NOT NULL,		-- its absolute real path when last ingested
	first_ingested	TEXT NOT NULL,		-- UTC ISO 8601 (2026-09-01T02:03:04Z)
	last_ingested	TEXT NOT NULL		-- UTC ISO 8601
);

DROP VIEW IF EXISTS run_view;
-- One row per run with its keys and source files, start time in ISO 8601
-- UTC.  ingest writes it again with one column per tag key after metric
-- (instance_type, day, ...; a tag named like one of these columns is
-- "tag:NAME"): this is its form for a database without tags.
CREATE VIEW run_view AS
SELECT r.id AS run_id, p.name AS path, c.canon AS condition, r.trial, r.tool,
       m.name AS metric, r.status, r.reason, r.failures, r.attempts,
       strftime('%Y-%m-%dT%H:%M:%SZ', r.started_at, 'unixepoch') AS started_utc,
       r.tagkey AS tags, f.relpath AS file, sf.relpath AS summary_file
FROM runs r
JOIN paths p ON p.id = r.path_id
JOIN conditions c ON c.id = r.cond_id
JOIN metrics m ON m.id = r.metric
LEFT JOIN files f ON f.id = r.file_id
LEFT JOIN files sf ON sf.id = r.summary_file_id;
