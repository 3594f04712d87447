# t3886: a report reads each run's pooling keys once.  Each table's
# pooling caption (what its cells pool: instance types, days, any tag)
# selected the table's runs again with every candidate key (each tag
# key but hour, and day) as a column, one lookup per run and key, and
# sorted them by all of them: 28 times in a team campaign's no-spec
# report, 15 % of its instructions over 21 days.  A key's value is the
# run's own, whatever the table's metric, --where or paths: the report
# now reads every run's values once, and each caption selects its runs
# as its cells do (replayed by the run selection memo, t3882) and looks
# the values up, counted with PATHSTAT_DEBUG_POOLING=1.  The bundle is
# the same byte for byte with the memo off
# (PATHSTAT_DEBUG_NO_POOLING_MEMO=1), and tables that differ in their
# --where, paths or metric each get their own caption.

# These counts are of each heatmap building its own path's table, as
# before the heatmaps shared one table of all paths (t3891).
PATHSTAT_DEBUG_NO_HEATMAP_ROWS=1
export PATHSTAT_DEBUG_NO_HEATMAP_ROWS
team_campaign 14 5 2

counts() { debug_counts '# pooling scans joined the keys, # looked them up'; }

PATHSTAT_DEBUG_POOLING=1 run "$PS" report --db t.db --out r --no-render
expect_code 0 "the no-spec report exits 0 ($ERR)"
line=$(counts)
ok '[ "$line" = "0 28" ]' \
    "28 pooling scans, each looking the keys up (${line:-none counted})"
run "$PS" report --db t.db --out r2 --no-render
ok '[ -z "$(printf "%s\n" "$ERR" | grep debug)" ]' \
    "no debug line without PATHSTAT_DEBUG_POOLING"

PATHSTAT_DEBUG_NO_POOLING_MEMO=1 PATHSTAT_DEBUG_POOLING=1 run "$PS" report \
    --db t.db --out r3 --no-render
expect_code 0 "the report without the memo exits 0 ($ERR)"
line=$(counts)
ok '[ "$line" = "28 0" ]' \
    "without it, each of the 28 joins them (${line:-none counted})"
ok 'same_bundle r r3' \
    "tables, charts and index.md are the same byte for byte"

# by day all instance types, by day one of them, by instance type two
# paths, by instance type another metric: each its own caption
cat > s.json <<'JSON'
{ "title": "Pooling", "sections": [
  { "type": "percentiles", "id": "all", "metric": "connect_ms",
    "by": "day" },
  { "type": "percentiles", "id": "one", "metric": "connect_ms",
    "by": "day", "where": {"instance_type": "c6i.large"} },
  { "type": "percentiles", "id": "ab", "metric": "connect_ms",
    "by": "instance_type", "paths": {"A": "a", "B": "b"} },
  { "type": "percentiles", "id": "thr", "metric": "throughput_bps",
    "by": "instance_type" } ] }
JSON
PATHSTAT_DEBUG_POOLING=1 run "$PS" report --db t.db --spec s.json \
    --out k --no-render
expect_code 0 "the spec's report exits 0 ($ERR)"
line=$(counts)
ok '[ "$line" = "0 4" ]' "each table looks its keys up (${line:-none counted})"
PATHSTAT_DEBUG_NO_POOLING_MEMO=1 run "$PS" report --db t.db --spec s.json \
    --out k2 --no-render
expect_code 0 "... and without the memo ($ERR)"
ok 'same_bundle k k2' \
    "the same tables byte for byte"
ok 'grep -q "differ in instance.*type (c6i.large, .* 8 values) in 70 of 70 rows" k/index.md' \
    "by day, the rows pool the 8 instance types"
ok '[ "$(grep -c "differ in instance" k/index.md)" = 1 ]' \
    "by day on one instance type, none"
ok 'grep -q "differ in day (.* 14 values) in 16 of 16 rows" k/index.md' \
    "two paths by instance type: 16 rows pool the days"
ok 'grep -q "differ in day (.* 14 values) in 40 of 40 rows" k/index.md' \
    "throughput by instance type: 40 rows pool them"

test_done
