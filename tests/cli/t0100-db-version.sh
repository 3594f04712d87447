# t0100: a database whose schema version no pathstat writes:
# PRAGMA user_version = -5 used to give "001-initial.sql: table metrics
# already exists"; every command now says what is wrong with the file.

mkdir -p tree/A
echo '{"path": "A", "trial": 1}' > tree/A/meta.json
cp "$FIX/pathprobe/all-ok.csv" tree/A/probe.csv
run "$PS" ingest -q --db v.db tree
expect_code 0 "a database to spoil"
sqlite3 v.db "PRAGMA user_version = -5"
run "$PS" ingest -q --db v.db tree
expect_code 1 "ingest into user_version -5: exit 1"
expect_err_has "'v.db' has schema version -5, which no pathstat writes" "ingest names the file and the version"
expect_err_lacks "already exists" "no migration is attempted"
run "$PS" runs --db v.db
expect_code 1 "runs: exit 1"
expect_err_has "'v.db' has schema version -5, which no pathstat writes" "runs says the same"
run "$PS" analyze percentiles --db v.db --metric connect_ms
expect_code 1 "analyze: exit 1"
expect_err_has "'v.db' has schema version -5, which no pathstat writes" "analyze says the same"
expect_sql v.db "PRAGMA user_version" -5 "the file is left as it was"
# one past the newest migration (schema/NNN-*.sql): newer, whatever the
# newest is today
newer=$(($(schema_newest) + 1))
sqlite3 v.db "PRAGMA user_version = $newer"
run "$PS" ingest -q --db v.db tree
expect_err_has "'v.db' has schema version $newer, newer than this pathstat knows" "a newer version is named as newer"
test_done
