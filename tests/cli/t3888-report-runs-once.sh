# t3888: a report reads each run's trial data once per metric.  A team
# campaign's no-spec report loads the same runs' values for each
# grouping of a metric (by day, week, instance type, each heatmap's day
# and hour), and each load read a run through five statements again:
# its sorted copy's row and its series' ends, the tool's summaries, the
# probe timeout and the count of timeouts, a sixth of the report's
# instructions over 21 days.  The report now keeps what it read of each
# run, keyed on the run and the metric (nothing else changes a run's
# values), and copies it for the next grouping: counted with
# PATHSTAT_DEBUG_RUNS=1, the bundle the same byte for byte with the
# memo off (PATHSTAT_DEBUG_NO_RUN_MEMO=1) or without the sorted copies
# (the memo keeps the values read from the rows), and sections that differ in
# their metric on the same runs, or in a --where, each get their own
# values.

team_campaign 14 5 2

counts() { debug_counts "# runs' trial data read, # from the memo"; }

PATHSTAT_DEBUG_RUNS=1 run "$PS" report --db t.db --out r --no-render \
    --jobs 1
expect_code 0 "the no-spec report exits 0 ($ERR)"
line=$(counts)
ok '[ "$line" = "5040 25200" ]' \
    "5,040 runs and metrics read once, 25,200 loads copied (${line:-none counted})"
run "$PS" report --db t.db --out r2 --no-render
ok '[ -z "$(printf "%s\n" "$ERR" | grep debug)" ]' \
    "no debug line without PATHSTAT_DEBUG_RUNS"

PATHSTAT_DEBUG_NO_RUN_MEMO=1 PATHSTAT_DEBUG_RUNS=1 run "$PS" report \
    --db t.db --out r3 --no-render --jobs 1
expect_code 0 "the report without the memo exits 0 ($ERR)"
line=$(counts)
ok '[ "$line" = "30240 0" ]' \
    "without it, each of the 30,240 read (${line:-none counted})"
ok 'same_bundle r r3' \
    "tables, charts and index.md are the same byte for byte"

# without the sorted copies the memo keeps the values read from the
# series rows, and the tables are the same
cp t.db u.db
sql u.db "DELETE FROM sample_values"
PATHSTAT_DEBUG_RUNS=1 run "$PS" report --db u.db --out u --no-render \
    --jobs 1
expect_code 0 "the report without sorted copies exits 0 ($ERR)"
line=$(counts)
ok '[ "$line" = "5040 25200" ]' "the same reads and copies (${line:-none counted})"
ok 'diff -r r/tables u/tables' "the same tables byte for byte"

# throughput and retransmits are the same iperf3 runs' values; one
# instance type is some of the connect probes: each section its own
cat > s.json <<'JSON'
{ "title": "Runs", "sections": [
  { "type": "percentiles", "id": "bps", "metric": "throughput_bps",
    "by": "day" },
  { "type": "percentiles", "id": "retr", "metric": "retransmits",
    "by": "day" },
  { "type": "percentiles", "id": "all", "metric": "connect_ms",
    "by": "day" },
  { "type": "percentiles", "id": "one", "metric": "connect_ms",
    "by": "day", "where": {"instance_type": "c6i.large"} },
  { "type": "percentiles", "id": "bps2", "metric": "throughput_bps",
    "by": "week" } ] }
JSON
PATHSTAT_DEBUG_RUNS=1 run "$PS" report --db t.db --spec s.json --out k \
    --no-render --no-checks
expect_code 0 "the spec's report exits 0 ($ERR)"
line=$(counts)
ok '[ "${line#* }" -ge 1 ]' "runs loaded again are copied (${line:-none counted})"
PATHSTAT_DEBUG_NO_RUN_MEMO=1 run "$PS" report --db t.db --spec s.json \
    --out k2 --no-render --no-checks
expect_code 0 "... and without the memo ($ERR)"
ok 'same_bundle k k2' \
    "the same tables byte for byte"
ok '! cmp -s k/tables/01-bps.csv k/tables/02-retr.csv' \
    "retransmits are not the same runs' throughput"
ok '! cmp -s k/tables/03-all.csv k/tables/04-one.csv' \
    "one instance type's table is not all of them's"
# each as analyze prints it alone (without the report's label column)
unlabel() { sed '1s/,label,/,/; 2,$s/^\([^,]*\),"",/\1,/' "$1"; }
run "$PS" analyze percentiles --db t.db --metric retransmits --by day \
    --format csv
ok '[ "$(unlabel k/tables/02-retr.csv)" = "$OUT" ]' \
    "the retransmits table is analyze's"
run "$PS" analyze percentiles --db t.db --metric connect_ms --by day \
    --where instance_type=c6i.large --format csv
ok '[ "$(unlabel k/tables/04-one.csv)" = "$OUT" ]' \
    "the one instance type's table is analyze's"

test_done
