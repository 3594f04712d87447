# t3884: a report reads the database's tag keys once.  Each table with
# a pooling caption (what its cells pool: instance types, days, any tag)
# and each pooled-groups check asked SQLite for the distinct tag keys,
# a scan of every run's tags: 30 times in a 14-day team campaign's
# no-spec report (35 before the heatmaps asked for their statistic up
# front), 9 % of its CPU over 21 days.  The database does not
# change while a report runs: the keys are now read once, counted with
# PATHSTAT_DEBUG_TAGKEYS=1, and the bundle is the same byte for byte
# with the memo off (PATHSTAT_DEBUG_NO_TAGKEY_MEMO=1; then 31 times:
# once more to read every run's values of them, t3886).  A table's own
# --by keys are still left out of its caption's candidates.

# These counts are of each heatmap building its own path's table, as
# before the heatmaps shared one table of all paths (t3891).
PATHSTAT_DEBUG_NO_HEATMAP_ROWS=1
export PATHSTAT_DEBUG_NO_HEATMAP_ROWS
team_campaign 14 5 2

count() { debug_counts '# tag key queries'; }

PATHSTAT_DEBUG_TAGKEYS=1 run "$PS" report --db t.db --out r --no-render \
    --jobs 1
expect_code 0 "the no-spec report exits 0 ($ERR)"
n=$(count)
ok '[ "$n" = 1 ]' "the tag keys read once (${n:-none counted})"
run "$PS" report --db t.db --out r2 --no-render
ok '[ -z "$(printf "%s\n" "$ERR" | grep debug)" ]' \
    "no debug line without PATHSTAT_DEBUG_TAGKEYS"

PATHSTAT_DEBUG_NO_TAGKEY_MEMO=1 PATHSTAT_DEBUG_TAGKEYS=1 run "$PS" report \
    --db t.db --out r3 --no-render --jobs 1
expect_code 0 "the report without the memo exits 0 ($ERR)"
n=$(count)
ok '[ "$n" = 31 ]' "without it, read 31 times (${n:-none counted})"
ok 'same_bundle r r3' \
    "tables, charts and index.md are the same byte for byte"

# by day the rows pool instance types, by instance type days
cat > s.json <<'JSON'
{ "title": "Keys", "sections": [
  { "type": "percentiles", "id": "day", "metric": "connect_ms",
    "by": "day" },
  { "type": "percentiles", "id": "it", "metric": "connect_ms",
    "by": "instance_type" } ] }
JSON
PATHSTAT_DEBUG_TAGKEYS=1 run "$PS" report --db t.db --spec s.json \
    --out k --no-render --no-checks --jobs 1
expect_code 0 "the spec's report exits 0 ($ERR)"
n=$(count)
ok '[ "$n" = 1 ]' "read once for both sections (${n:-none counted})"
ok 'grep -q "Pooled: these rows mix runs that differ in instance.*instance.*type splits them" k/index.md' \
    "the table by day pools instance types"
ok 'grep -q "Pooled: these rows mix runs that differ in day .*--by day splits them" k/index.md' \
    "the table by instance type pools days"
ok '[ "$(grep -c "Pooled: these rows mix" k/index.md)" = 2 ]' \
    "each pools only the other key"
PATHSTAT_DEBUG_NO_TAGKEY_MEMO=1 run "$PS" report --db t.db --spec s.json \
    --out k2 --no-render --no-checks --jobs 1
ok 'same_bundle k k2' \
    "the same bundle byte for byte without the memo"

test_done
