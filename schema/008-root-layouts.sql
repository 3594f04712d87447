-- 008-root-layouts.sql: ingest remembers the --layout patterns each tree
-- was ingested with (user_version 8).
--
-- A tree of flat names (the second article's '{path}_{cond}.json') needs
-- its layouts on every ingest; without them a re-ingest read every file
-- as "no path ID" (kept as stored, but useless).  ingest stores the
-- patterns a tree was given, and a later ingest of that tree without
-- --layout uses them (and says so); a new --layout replaces them, with a
-- note.  IF NOT EXISTS: running it on a database that has it already
-- changes nothing.

-- The layouts of each tree, in the order given (the first that matches
-- a file wins); removed with their tree.
CREATE TABLE IF NOT EXISTS root_layouts (
	root_id	INTEGER NOT NULL REFERENCES roots (id) ON DELETE CASCADE,
	seq	INTEGER NOT NULL,	-- 0, 1, ...: the order given
	pattern	TEXT NOT NULL,		-- the --layout text as given
	PRIMARY KEY (root_id, seq)
) WITHOUT ROWID;
