# t3891: a report's heatmaps of one metric build one table.  The spec a
# report makes draws an hours × days heatmap per path of each metric
# read over a week or more (where path=A, B ...), and each built the
# percentiles of its path by day and hour: 15 builds, a tenth of a team
# campaign's no-spec report over 84 days.  A percentile cell is its
# path's own, so the table of every path holds the same rows: it is
# built once (the table memo keeps it for the next path) and each
# heatmap takes its path's rows, seen in PATHSTAT_DEBUG_TABLES=1's
# counts.  The bundle is the same byte for byte with each built alone
# (PATHSTAT_DEBUG_NO_HEATMAP_ROWS=1), and so are heatmaps that filter
# more than one path, another key too, or a path without runs.

team_campaign 7 5 2

counts() { debug_counts '# tables built, # copied'; }

PATHSTAT_DEBUG_TABLES=1 run "$PS" report --db t.db --out r --no-render
expect_code 0 "the no-spec report exits 0 ($ERR)"
on=$(counts)
nh=$(ls r/charts/*heatmap*.gp | grep -c .)
ok '[ "$nh" = 15 ]' "15 heatmaps (3 metrics, 5 paths: $nh)"
PATHSTAT_DEBUG_NO_HEATMAP_ROWS=1 PATHSTAT_DEBUG_TABLES=1 run "$PS" report \
    --db t.db --out r2 --no-render
expect_code 0 "the report building each alone exits 0 ($ERR)"
off=$(counts)
ok '[ -n "$on" ] && [ -n "$off" ] &&
    [ "${off% *}" -eq $((${on% *} + 12)) ] &&
    [ "${on#* }" -eq $((${off#* } + 12)) ]' \
    "3 tables for the 15 heatmaps, not 15 (built, copied: $on; alone: $off)"
ok 'same_bundle r r2' \
    "tables, charts and index.md are the same byte for byte"

cat > s.json <<'JSON'
{ "title": "Heatmaps", "sections": [
  { "type": "chart", "id": "a", "metric": "connect_ms",
    "where": {"path": "A"}, "chart": {"kind": "heatmap", "stat": "p99"} },
  { "type": "chart", "id": "c", "metric": "connect_ms",
    "where": {"path": "C"}, "chart": {"kind": "heatmap", "stat": "p99"} },
  { "type": "chart", "id": "b", "metric": "connect_ms",
    "where": {"path": "B"}, "chart": {"kind": "heatmap", "stat": "p50"} },
  { "type": "chart", "id": "ab", "metric": "connect_ms",
    "where": {"path": "A,B"},
    "chart": {"kind": "heatmap", "stat": "p99"} },
  { "type": "chart", "id": "ac", "metric": "connect_ms",
    "where": {"path": "A", "instance_type": "c6i.large"},
    "chart": {"kind": "heatmap", "stat": "p99"} },
  { "type": "chart", "id": "z", "metric": "connect_ms",
    "where": {"path": "Z"}, "chart": {"kind": "heatmap", "stat": "p99"} },
  { "type": "chart", "id": "thr", "metric": "throughput_bps",
    "where": {"path": "C"}, "chart": {"kind": "heatmap"} } ] }
JSON
run "$PS" report --db t.db --spec s.json --out k --no-render
code1=$RC err1=$(printf '%s\n' "$ERR" | sed 's/ in [0-9.]* s//')
PATHSTAT_DEBUG_NO_HEATMAP_ROWS=1 run "$PS" report --db t.db --spec s.json \
    --out k2 --no-render
err2=$(printf '%s\n' "$ERR" | sed 's/ in [0-9.]* s//; s/k2/k/g')
ok '[ "$code1" = "$RC" ] && [ "$err1" = "$err2" ]' \
    "the spec's report says the same either way (exit $code1, $RC)"
ok 'same_bundle k k2' "the same bundle byte for byte"
ok '[ "$(ls k/charts/*.gp | grep -c .)" = 6 ]' \
    "the heatmaps with runs are drawn (Z has none)"

test_done
