# t1909: what a re-ingest says it replaced is what it replaced, and an
# empty log beside the results is no failure.  oha's request file (here
# its --db-url SQLite, real oha 1.16) adds samples to the run its JSON
# summary holds, so replacing it replaces samples, not runs: main said
# "its 0 runs replaced by 0" where 200 samples gave way to 150.  A
# replaced pathprobe CSV names runs and samples.  An empty stderr.log
# (the tool had nothing to say) is skipped and named, ingest exits 0;
# an empty .json beside it is still a tool that wrote nothing: rejected.

R="$FIX/oha-real/v1.16.0/json-db/ka-off_c4_1k"
[ -f "$R/oha.db" ] || skip_all "no real oha 1.16 output in tests/fixtures"
mkdir -p tree/G/t1 tree/A/t1
cp "$R/oha.json" "$R/oha.db" tree/G/t1/
echo '{"path": "G", "trial": 1}' > tree/G/t1/meta.json
echo '{"path": "A", "trial": 1, "tool": "pathprobe"}' > tree/A/t1/meta.json
probe() { # N: a pathprobe CSV of N probes
	printf '# pathprobe 1 target=127.0.0.1:9 addr=127.0.0.1 count=%s interval_s=0.2 timeout_s=1 start=2026-08-29T02:20:00Z\nseq,unix_ns,connect_ms,result\n' "$1"
	i=0
	while [ $i -lt "$1" ]; do
		printf '%s,%s,%s.5,ok\n' $i $((1787970000000000000 + i * 200000000)) $((10 + i % 7))
		i=$((i + 1))
	done
}
probe 30 > tree/A/t1/probe.csv
run "$PS" ingest --db s.db tree
expect_code 0 "first ingest: exit 0"
expect_sql s.db "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id JOIN paths p ON p.id = r.path_id WHERE p.name = 'G'" 200 "G: 200 requests"

sqlite3 tree/G/t1/oha.db "DELETE FROM oha WHERE rowid > 150"
probe 20 > tree/A/t1/probe.csv
: > tree/G/t1/stderr.log
run "$PS" ingest --db s.db tree
expect_code 0 "re-ingest with an empty stderr.log: exit 0"
expect_err_has "G/t1/oha.db: content changed: its 200 samples replaced by 150" \
    "the oha request file: its samples' true counts"
expect_err_has "A/t1/probe.csv: content changed: its 1 run (30 samples) replaced by 1 (20)" \
    "the probe CSV: runs and samples"
expect_err_has "G/t1/stderr.log: skipped: empty, and its name is a log's" \
    "the empty log is skipped and named"
expect_err_lacks "rejected: " "nothing rejected"
expect_sql s.db "SELECT status FROM files WHERE relpath LIKE '%stderr.log'" skipped \
    "the log is recorded as skipped"
expect_sql s.db "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id JOIN paths p ON p.id = r.path_id WHERE p.name = 'G'" 150 "G: now 150 requests"

: > tree/G/t1/empty.json
run "$PS" ingest --db s.db tree
expect_code 1 "an empty .json is still a failure: exit 1"
expect_err_has "G/t1/empty.json: empty file (the tool wrote nothing)" "and named so"
test_done
