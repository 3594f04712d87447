# t2300: sample_values (schema 002), the sorted copy of each run's values
# that ingest keeps and analyze reads instead of the stored series.  It
# must agree with them: every verb gives the same output with and
# without it, and a series changed by hand (update, delete) is never
# hidden by a stale copy.

cp -r "$TOP/samples/tree" tree
run "$PS" ingest -q --db v.db tree
expect_code 0 "sample tree ingested"

nmig=$(schema_newest)
expect_sql v.db "PRAGMA user_version" "$nmig" "the schema is at the newest version ($nmig)"
expect_sql v.db "SELECT count(*) FROM (SELECT run_id, metric FROM series
    EXCEPT SELECT run_id, metric FROM sample_values)" \
    "0" "every (run, metric) with samples has its sorted values"
expect_sql v.db "SELECT count(*) FROM sample_values v WHERE rows <> (SELECT
    count(*) FROM samples s WHERE s.run_id = v.run_id AND s.metric = v.metric)
    OR failures <> (SELECT count(*) FROM samples s WHERE s.run_id = v.run_id
    AND s.metric = v.metric AND (s.status <> 0 OR s.value IS NULL))
    OR length(sorted) <> 8 * (rows - failures)" \
    "0" "rows, failures and the blob's length match the samples rows"
ok "[ \"\$(sql v.db 'SELECT sum(failures) FROM sample_values')\" -gt 0 ]" \
    "the tree has failed samples (the copy leaves them out)"

# outputs DB FILE: every verb and option the values reach, in one file.
outputs() {
	: > "$2"
	for m in connect_ms http_ms throughput_bps jitter_ms loss_pct retransmits; do
		for pool in pooled trials; do
			"$PS" analyze percentiles --db "$1" --metric $m --pool $pool \
			    --stats p50,p95,p99,p99.9,min,max,mean,n --ci \
			    --format json >> "$2" 2>&1
			"$PS" analyze percentiles --db "$1" --metric $m --pool $pool \
			    --quantile hd --format json >> "$2" 2>&1
		done
		"$PS" analyze trials --db "$1" --metric $m --format json >> "$2" 2>&1
	done
	"$PS" analyze delta --db "$1" --metric http_ms --ci "G-G'" H-B \
	    --format json >> "$2" 2>&1
	"$PS" analyze ratio --db "$1" --metric http_ms --across c 16/1 \
	    --format json >> "$2" 2>&1
	"$PS" analyze percentiles --db "$1" --metric http_ms --quantile oha \
	    --by day --format json >> "$2" 2>&1
}

cp v.db rows.db
sql rows.db "DELETE FROM sample_values"
outputs v.db with.out
outputs rows.db without.out
ok "[ -s with.out ] && cmp -s with.out without.out" \
    "every verb gives the same output from the sorted values as from the rows"
ok "! grep -q 'error' with.out" "no errors in those outputs"

# A run of http_ms and a row of it to change.
run_id=$(sql v.db "SELECT run_id FROM sample_values WHERE metric = 2
    ORDER BY run_id LIMIT 1")
both() { sql v.db "$1"; sql rows.db "$1"; }

# 1e6 as the series blobs store it (binary64 little-endian)
both "UPDATE series SET value = CAST(X'0000000080842E41' || substr(value, 9) AS BLOB)
    WHERE run_id = $run_id AND metric = 2 AND chunk = 0"
expect_sql v.db "SELECT count(*) FROM sample_values WHERE run_id = $run_id
    AND metric = 2" "0" "an updated series drops its run's copy"
outputs v.db with.out
outputs rows.db without.out
ok "cmp -s with.out without.out && grep -q 1000000 with.out" \
    "after an update, analyze sees the new value"

both "DELETE FROM series WHERE run_id = $run_id + 1 AND metric = 2"
expect_sql v.db "SELECT count(*) FROM sample_values WHERE run_id = $run_id + 1
    AND metric = 2" "0" "a deleted series drops its run's copy"
outputs v.db with.out
outputs rows.db without.out
ok "cmp -s with.out without.out" "after a delete, analyze agrees with itself"

# A version-1 database (one samples row per measurement, no sorted copy)
# gains the copy's table and the series on first use, with the same
# numbers.  It is built from migration 001 and filled from rows.db.
for f in "$TOP"/schema/001-*.sql; do sqlite3 -batch v1.db < "$f"; done
sql v1.db "PRAGMA user_version = 1"
copy=""
for t in $(sql v1.db "SELECT name FROM sqlite_schema WHERE type = 'table'
    AND name NOT LIKE 'sqlite_%'"); do
	cols=$(sql v1.db "SELECT group_concat(name, ', ') FROM pragma_table_info('$t')")
	copy="$copy INSERT OR REPLACE INTO main.$t ($cols) SELECT $cols FROM r.$t;"
done
sql v1.db "ATTACH 'rows.db' AS r; $copy"
run "$PS" analyze percentiles --db v1.db --metric http_ms --format json
expect_code 0 "analyze opens a version-1 database"
expect_sql v1.db "PRAGMA user_version" "$nmig" "and migrates it to the newest version"
"$PS" analyze percentiles --db rows.db --metric http_ms --format json > want.out
ok "[ \"\$OUT\" = \"\$(cat want.out)\" ]" "with the same numbers, from the series"

test_done
