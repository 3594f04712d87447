# t3883: a report builds each table once.  A team campaign's no-spec
# report built the percentiles by day of each metric twice (its section,
# then its day chart), and its day chart's change points came from a
# trend table of the chart's statistic alone, which the next section
# then built again with both statistics.  The report now keeps each
# table it builds, keyed on the verb, its arguments and every field of
# the options, and copies it for a later build of the same key; the day
# chart asks trend for the section's statistics (each statistic's
# series is fitted on its own, from a fixed seed: the same change
# points).  A heatmap (and a box chart) of a statistic its section does
# not list built the section's table, then built it again with that
# statistic: it now asks for the statistic up front (a throughput
# heatmap of p5, one a path).  28 tables built and 6 copied, counted
# with PATHSTAT_DEBUG_TABLES=1, where 39 were built before (34 with the
# memo off); the bundle is the same byte for byte with the memo off
# (PATHSTAT_DEBUG_NO_TABLE_MEMO=1), and sections whose options differ in
# one field get their own tables.

# These counts are of each heatmap building its own path's table, as
# before the heatmaps shared one table of all paths (t3891).
PATHSTAT_DEBUG_NO_HEATMAP_ROWS=1
export PATHSTAT_DEBUG_NO_HEATMAP_ROWS
team_campaign 14 5 2

counts() { debug_counts '# tables built, # copied'; }

PATHSTAT_DEBUG_TABLES=1 run "$PS" report --db t.db --out r --no-render \
    --jobs 1
expect_code 0 "the no-spec report exits 0 ($ERR)"
line=$(counts)
ok '[ "$line" = "28 6" ]' "28 tables built, 6 copied (${line:-none counted})"
run "$PS" report --db t.db --out r2 --no-render
ok '[ -z "$(printf "%s\n" "$ERR" | grep debug)" ]' \
    "no debug line without PATHSTAT_DEBUG_TABLES"

PATHSTAT_DEBUG_NO_TABLE_MEMO=1 PATHSTAT_DEBUG_TABLES=1 run "$PS" report \
    --db t.db --out r3 --no-render --jobs 1
expect_code 0 "the report without the memo exits 0 ($ERR)"
line=$(counts)
ok '[ "$line" = "34 0" ]' \
    "without it, 34 built and none copied (${line:-none counted})"
ok 'same_bundle r r3' \
    "tables, charts and index.md are the same byte for byte"

# one field apart (a statistic, the level, a path list): each its own
# table; the same options again: a copy
cat > s.json <<'JSON'
{ "title": "Keys", "sections": [
  { "type": "percentiles", "id": "p50", "metric": "connect_ms",
    "stats": "p50", "ci": true },
  { "type": "percentiles", "id": "p99", "metric": "connect_ms",
    "stats": "p99", "ci": true },
  { "type": "percentiles", "id": "lvl", "metric": "connect_ms",
    "stats": "p50", "ci": true, "level": 0.9 },
  { "type": "percentiles", "id": "ba", "metric": "connect_ms",
    "stats": "p50", "ci": true, "paths": {"B": "b", "A": "a"} },
  { "type": "percentiles", "id": "again", "metric": "connect_ms",
    "stats": "p50", "ci": true } ] }
JSON
PATHSTAT_DEBUG_TABLES=1 run "$PS" report --db t.db --spec s.json \
    --out k --no-render --no-checks --jobs 1
expect_code 0 "the spec's report exits 0 ($ERR)"
line=$(counts)
ok '[ "${line#* }" -ge 1 ]' "the repeated section is copied (${line:-none counted})"
PATHSTAT_DEBUG_NO_TABLE_MEMO=1 run "$PS" report --db t.db --spec s.json \
    --out k2 --no-render --no-checks --jobs 1
expect_code 0 "... and without the memo ($ERR)"
ok 'same_bundle k k2' \
    "the same bundle byte for byte"
ok '! cmp -s k/tables/01-p50.csv k/tables/02-p99.csv' \
    "p50's table is not p99's"
ok '! cmp -s k/tables/01-p50.csv k/tables/03-lvl.csv' \
    "a 90 % interval's table is not a 95 % one's"
ok '[ "$(cut -d, -f1 k/tables/04-ba.csv | sort -u | tr "\n" " ")" = "A B path " ]' \
    "the section of two paths shows those two"
ok 'cmp -s k/tables/01-p50.csv k/tables/05-again.csv' \
    "the same options, the same table"

test_done
