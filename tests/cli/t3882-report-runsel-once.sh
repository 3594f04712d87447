# t3882: a report selects each set of runs once.  A team campaign's
# no-spec report selects the same runs again and again (the percentiles
# by day of a metric for its table, its day chart and its trend; the
# same runs for a section's paths, its cells and its pooling caption),
# and each selection joins and sorts every run of the database again.
# The report now keeps each selection read to its end, keyed on its SQL
# (the metric, the --where values, the --by and tag keys, the order) and
# the path list, and replays it: 28 selections read and 47 replayed,
# counted with PATHSTAT_DEBUG_RUNSEL=1, where each of the 75 was read
# before (43 and 47 before a heatmap's paths with data were taken from
# its metric's, t3889; 99 and 30 before the heatmaps asked for their statistic up
# front; 69 and 20 before each pooling caption selected its runs as
# its cells do and looked their keys up, t3886; 46 and 44 before the
# paths a section has data for were read as its cells select them).
# The bundle is the same byte for byte with the memo off
# (PATHSTAT_DEBUG_NO_RUNSEL_MEMO=1), and sections that differ only in
# their paths or --where get their own runs.  The table memo (t3883) is
# off here: its copies select nothing.

PATHSTAT_DEBUG_NO_TABLE_MEMO=1
export PATHSTAT_DEBUG_NO_TABLE_MEMO
# These counts are of each heatmap building its own path's table, as
# before the heatmaps shared one table of all paths (t3891).
PATHSTAT_DEBUG_NO_HEATMAP_ROWS=1
export PATHSTAT_DEBUG_NO_HEATMAP_ROWS
team_campaign 14 5 2

line='# run selections read, # replayed'

memo_on_off RUNSEL NO_RUNSEL_MEMO "$line" r --jobs 1
ok '[ "$ON" = "28 47" ]' \
    "28 run selections read, 47 replayed (${ON:-none counted})"
ok '[ "$OFF" = "75 0" ]' \
    "without it, 75 read and none replayed (${OFF:-none counted})"
run "$PS" report --db t.db --out r2 --no-render
ok '[ -z "$(printf "%s\n" "$ERR" | grep debug)" ]' \
    "no debug line without PATHSTAT_DEBUG_RUNSEL"

# the same metric and grouping, once for two paths in their own order,
# once for one instance type, once for all: each its own runs
cat > s.json <<'JSON'
{ "title": "Keys", "sections": [
  { "type": "percentiles", "id": "ba", "metric": "connect_ms",
    "paths": {"B": "b", "A": "a"} },
  { "type": "percentiles", "id": "one", "metric": "connect_ms",
    "where": {"instance_type": "c6i.large"} },
  { "type": "percentiles", "id": "all", "metric": "connect_ms" },
  { "type": "percentiles", "id": "ba2", "metric": "connect_ms",
    "paths": {"B": "b", "A": "a"} } ] }
JSON
memo_on_off RUNSEL NO_RUNSEL_MEMO "$line" k --spec s.json --no-checks
ok '[ "${ON#* }" -ge 1 ]' "the repeated section is replayed (${ON:-none counted})"
ok '[ "$(cut -d, -f1 k/tables/01-ba.csv | sort -u | tr "\n" " ")" = "A B path " ]' \
    "the section of two paths shows those two ($(cut -d, -f1 k/tables/01-ba.csv | tr "\n" " "))"
ok '[ "$(wc -l < k/tables/03-all.csv)" -gt "$(wc -l < k/tables/01-ba.csv)" ]' \
    "the section of all paths shows more"
ok '! cmp -s k/tables/02-one.csv k/tables/03-all.csv' \
    "one instance type's table is not all of them's"

test_done
