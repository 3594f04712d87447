# t1680: opening the database.  A foreign SQLite file given as --db (an
# oha --db-url run) is refused before anything is written to it: the
# refusal used to switch it to WAL first (header bytes 18-19 1 -> 2),
# so a synced tree uploaded it again.  A WAL database in a folder this
# user cannot write, with no -shm beside it (a colleague's copy, a
# read-only mount), is read as it is on disk and the reader says so;
# it used to fail with "attempt to write a readonly database".  A read
# command that upgrades an older database in place says so.

mkdir -p tree/A
echo '{"path": "A", "trial": 1}' > tree/A/meta.json
cp "$FIX/pathprobe/all-ok.csv" tree/A/probe.csv

# ---- a foreign SQLite file is refused untouched
cp "$FIX/oha/v1.9.db" oha.db
cp oha.db oha.orig
run "$PS" ingest --db oha.db tree
expect_code 1 "ingest --db an oha file: exit 1"
expect_err_has "'oha.db' is an SQLite database but not a pathstat one" "refused, named"
ok "cmp -s oha.db oha.orig" "the file is byte for byte as it was (no WAL switch)"
ok "[ ! -e oha.db-wal ] && [ ! -e oha.db-shm ]" "and nothing is left beside it"
run "$PS" runs --db oha.db
expect_code 1 "runs --db an oha file: exit 1"
ok "cmp -s oha.db oha.orig" "runs leaves it as it was too"

# ---- a WAL database in a folder this user cannot write, no -shm
mkdir ro
run "$PS" ingest -q --db ro/t.db tree
expect_code 0 "a database to share"
ok "[ ! -e ro/t.db-shm ] && [ ! -e ro/t.db-wal ]" "closed cleanly: no -shm, no -wal"
expect_sql ro/t.db "PRAGMA journal_mode" wal "it is in WAL mode"
chmod 555 ro
AS=""
if [ "$(id -u)" = 0 ]; then
	# root writes anywhere: drop to nobody so the folder is really
	# read-only for the reader (when nobody can reach $TMP)
	chmod 755 "$TMP"
	AS="setpriv --reuid=65534 --regid=65534 --clear-groups"
	command -v setpriv >/dev/null 2>&1 && $AS test -r ro/t.db &&
	    ! $AS test -w ro || { chmod 755 ro; skip_all "cannot drop root to a user who cannot write a folder"; }
fi
run $AS "$PS" runs --db ro/t.db
expect_code 0 "runs reads it"
expect_out_has "| A |" "with its run"
expect_err_has "database 'ro/t.db': read as it is on disk (immutable), since the folder 'ro' is not writable" \
    "and says how it read it"
run $AS "$PS" analyze percentiles --db ro/t.db --metric connect_ms
expect_code 0 "analyze reads it"
run $AS "$PS" check --db ro/t.db
ok "[ $RC != 1 ] || ! grep -q 'readonly database' .err" "check reads it"
expect_err_lacks "attempt to write a readonly database" "no SQLite write error"
# a dry run opens it as it is, and reads it the same way
run $AS "$PS" ingest --dry-run --db ro/t.db tree
expect_code 0 "ingest --dry-run reads it ($ERR)"
expect_err_has "database 'ro/t.db': read as it is on disk (immutable)" \
    "and says how it read it"
expect_err_lacks "readonly database" "no SQLite error on the dry run"
# a -wal with changes cannot be read without writing: named, with what to do
chmod 755 ro
cp ro/t.db ro/t.db-wal.src
printf 'junk' > ro/t.db-wal
chmod 555 ro
run $AS "$PS" runs --db ro/t.db
expect_code 1 "a -wal left beside it: exit 1"
expect_err_has "folder 'ro' is not writable for this user: copy the database with its -wal file" \
    "names the folder and what to do"
chmod 755 ro
rm -f ro/t.db-wal ro/t.db-wal.src

# ---- a read command that upgrades an older database says so
sqlite3 old.db < "$TOP/schema/001-initial.sql"
sqlite3 old.db "PRAGMA user_version = 1"
run "$PS" runs --db old.db
expect_code 0 "runs on a schema-1 database"
expect_err_has "database 'old.db' upgraded in place from schema version 1 to " "says it upgraded it"
expect_err_has "an older pathstat cannot read it now" "and what that means"
run "$PS" runs --db old.db
expect_err_lacks "upgraded" "said once: the next read finds it current"
test_done
