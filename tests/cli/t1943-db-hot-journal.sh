# t1943: a database an ingest left in the middle of a file is read.  An
# ingest that creates its database writes it through a rollback journal
# (t1942); killed in the middle of a file, it leaves that file's
# unfinished change in DB-journal, and SQLite reads the database only
# after rolling it back, which a read-only connection cannot do: every
# read command failed with "read schema version: attempt to write a
# readonly database".  A read command now rolls it back, as the next
# ingest would, says so, and shows the runs committed before; a dry run
# writes nothing and says what to do; a file that is not a pathstat
# database is not touched.

cp -r "$TOP/samples/tree" tree
run "$PS" ingest -q --db s.db tree
expect_code 0 "the sample tree ingested"
"$PS" runs --db s.db > before.txt

# stopped in the middle of a transaction that has written pages into
# the database (a small cache makes SQLite spill them): a hot journal
hot() {
	"$PY" - "$1" "$2" <<'PY'
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA journal_mode = DELETE")
c.execute("PRAGMA cache_size = 2")
c.execute("BEGIN IMMEDIATE")
c.execute(sys.argv[2])
os._exit(0)
PY
}

hot s.db "DELETE FROM series"
ok '[ -s s.db-journal ]' "a journal is left beside the database"
cp s.db kept.db
cp s.db-journal kept.db-journal

run "$PS" ingest --dry-run --db s.db tree
expect_code 1 "a dry run fails"
expect_err_has "cannot read database 's.db' for a dry run: an ingest into it was stopped" \
    "... saying why"
ok 'cmp -s s.db kept.db && cmp -s s.db-journal kept.db-journal' \
    "... and writes nothing"

run "$PS" runs --db s.db
expect_code 0 "runs reads it ($ERR)"
ok '[ "$OUT" = "$(cat before.txt)" ]' "the runs committed before, all of them"
expect_err_has "database 's.db': an ingest into it was stopped in the middle of a file; that file's unfinished change was rolled back" \
    "it says the unfinished change was rolled back"
ok '[ ! -e s.db-journal ]' "no journal is left"
expect_sql s.db "PRAGMA integrity_check" ok "the database is consistent"

run "$PS" analyze percentiles --db s.db --metric connect_ms
expect_code 0 "analyze reads it after ($ERR)"
expect_err_lacks "rolled back" "nothing more to roll back"
run "$PS" ingest -q --db s.db tree
expect_code 0 "the next ingest ($ERR)"
expect_sql s.db "PRAGMA journal_mode" wal "... returns it to WAL"

# not a pathstat database: not touched
"$PY" -c 'import sqlite3; c = sqlite3.connect("f.db"); c.execute("CREATE TABLE t(x)"); c.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 200); c.commit()'
hot f.db "DELETE FROM t"
cp f.db f-kept.db
run "$PS" runs --db f.db
expect_code 1 "a foreign file with a journal is refused"
expect_err_has "not known to be a pathstat database" "... saying why"
ok 'cmp -s f.db f-kept.db && [ -s f.db-journal ]' "... and not touched"

test_done
