# t0120: schema 009 stores each run's samples of a metric as column blobs
# (the series table) and turns samples into a view that decodes them.
# A database of schema 8, one samples row per measurement, migrates on
# first use: the series it gets are byte for byte the ones a fresh ingest
# of the same files writes, every verb answers the same, and the view
# gives back the rows the old table held.  The schema-8 database is built
# here from schema/001..008 and filled from a fresh ingest (through the
# view), so no old binary or binary fixture is needed.

cp -r "$TOP/samples/tree" tree
run "$PS" ingest -q --db new.db tree
expect_code 0 "the sample tree ingested at the newest schema"
expect_sql new.db "SELECT count(*) FROM sqlite_schema WHERE name = 'samples'
    AND type = 'view'" 1 "samples is a view"
expect_sql new.db "SELECT (SELECT count(*) FROM samples) = (SELECT sum(rows)
    FROM series) AND (SELECT sum(rows) FROM series) > 40000" 1 \
    "the view has one row per stored sample"

# the schema-8 database: migrations 1-8, then every table's rows
for f in "$TOP"/schema/00[1-8]-*.sql; do
	sqlite3 -batch old.db < "$f" || echo "failed: $f" >> mig.err
done
ok "[ ! -s mig.err ]" "migrations 1-8 build a schema-8 database"
sql old.db "PRAGMA user_version = 8"
copy=""
for t in $(sql old.db "SELECT name FROM sqlite_schema WHERE type = 'table'
    AND name NOT LIKE 'sqlite_%' ORDER BY name"); do
	cols=$(sql old.db "SELECT group_concat(name, ', ') FROM pragma_table_info('$t')")
	copy="$copy INSERT OR REPLACE INTO main.$t ($cols) SELECT $cols FROM new.$t;"
done
sql old.db "ATTACH 'new.db' AS new; $copy" 2> copy.err
ok "[ ! -s copy.err ]" "the schema-8 database filled from the new one: $(head -c 300 copy.err)"
sql old.db "SELECT run_id, metric, seq, t_us, quote(value), status FROM samples
    ORDER BY run_id, metric, seq" > old-rows.txt
expect_sql old.db "SELECT count(*) FROM samples" \
    "$(sql new.db 'SELECT count(*) FROM samples')" "with every samples row"

run "$PS" runs --db old.db
expect_code 0 "pathstat opens the schema-8 database"
expect_sql old.db "PRAGMA user_version" "$(schema_newest)" "and migrates it"
ser="SELECT run_id, metric, chunk, rows, failed, hex(value), hex(t_us),
    hex(status) FROM series ORDER BY run_id, metric, chunk"
ok "[ \"\$(sql old.db \"$ser\")\" = \"\$(sql new.db \"$ser\")\" ]" \
    "the migrated series are byte for byte a fresh ingest's"
vals="SELECT run_id, metric, rows, failures, hex(sorted) FROM sample_values
    ORDER BY run_id, metric"
ok "[ \"\$(sql old.db \"$vals\")\" = \"\$(sql new.db \"$vals\")\" ]" \
    "the sorted copies are kept"
sql old.db "SELECT run_id, metric, seq, t_us, quote(value), status FROM samples
    ORDER BY run_id, metric, seq" > view-rows.txt
ok "[ -s old-rows.txt ] && cmp -s old-rows.txt view-rows.txt" \
    "the view gives back the rows the table held, to the last digit"
expect_sql old.db "SELECT count(*), min(seq), max(seq) FROM series_seq" \
    "56|0|55" "series_seq counts a row's samples"
expect_sql old.db "SELECT count(*) FROM series WHERE rows > 56 OR (rows < 56
    AND chunk < (SELECT max(chunk) FROM series s WHERE s.run_id = series.run_id
    AND s.metric = series.metric))" 0 "56 samples a row, fewer only in the last"

for v in "analyze percentiles --metric connect_ms --ci" \
    "analyze percentiles --metric http_ms --pool trials" \
    "analyze percentiles --metric throughput_bps" \
    "analyze trials --metric http_ms" "runs" \
    "check"; do
	"$PS" $v --db old.db --format json > old.out 2>&1
	"$PS" $v --db new.db --format json > new.out 2>&1
	ok "[ -s old.out ] && cmp -s old.out new.out" "$v: the same output"
done

# A hand-made gap in seq (a row deleted from the old table) is closed:
# the series keeps the rows in their order, numbered 0 .. rows - 1.
rm -f old2.db
for f in "$TOP"/schema/00[1-8]-*.sql; do sqlite3 -batch old2.db < "$f"; done
sql old2.db "PRAGMA user_version = 8; ATTACH 'new.db' AS new; $copy"
run_id=$(sql old2.db "SELECT run_id FROM samples WHERE metric = 1 LIMIT 1")
sql old2.db "DELETE FROM samples WHERE run_id = $run_id AND metric = 1 AND seq = 2"
want=$(sql old2.db "SELECT group_concat(quote(value)) FROM (SELECT value FROM
    samples WHERE run_id = $run_id AND metric = 1 ORDER BY seq)")
run "$PS" runs --db old2.db
expect_code 0 "a schema-8 database with a gap in seq migrates"
expect_sql old2.db "SELECT group_concat(quote(value)) FROM (SELECT value FROM
    samples WHERE run_id = $run_id AND metric = 1 ORDER BY seq)" "$want" \
    "the values keep their order"
expect_sql old2.db "SELECT max(seq) + 1 = count(*) AND min(seq) = 0 FROM samples
    WHERE run_id = $run_id AND metric = 1" 1 "numbered 0 .. rows - 1"

# The record is changed by ingest alone: the view refuses writes.
run sqlite3 -batch new.db "DELETE FROM samples WHERE run_id = 1"
ok "[ $RC -ne 0 ]" "the view refuses a DELETE ($ERR)"
test_done
