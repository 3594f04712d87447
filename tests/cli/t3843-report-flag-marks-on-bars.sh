# t3843: the ▲ of a bar group pathstat check flagged sits inside a bar
# of that group.  One mark at the group's centre, half the tallest bar
# high, sat in the gap between the two middle bars of an even number
# of them (the sample tree's P=4 bars: p50, p5, p1, min), and, where
# the middle bar is about half the tallest, in that bar's value label
# ("12▲90" on a latency chart of p50, p95, p99).  Each bar of a flagged
# group now carries the mark half way up itself.  Checked from the
# chart's data and script (helper/chart-drawn.py: each mark inside the
# box of a bar, 0.92 of its slot wide, from the axis to its value) on
# the sample tree's report without a spec and on a spec whose bars are
# p50, p95, p99 of connect time and p50, p5 of throughput.

export SOURCE_DATE_EPOCH=1788000000
run "$PS" ingest --quiet --db s.db "$TOP/samples/tree"
expect_code 0 "sample tree ingested"
run "$PS" report --db s.db --out auto --no-render
expect_code 0 "report without a spec exits 0 ($ERR)"
cat > spec.json <<'JSON'
{ "title": "Marks", "sections": [
  { "type": "percentiles", "id": "tput", "metric": "throughput_bps",
    "where": { "study": "tokyo-osaka", "P": "4", "proto": "tcp" },
    "stats": "p50,p5", "chart": { "kind": "bars" } },
  { "type": "percentiles", "id": "tput-log", "metric": "throughput_bps",
    "where": { "study": "tokyo-osaka", "P": "4", "proto": "tcp" },
    "stats": "p50,p5,min", "chart": { "kind": "bars", "log": true } },
  { "type": "percentiles", "id": "conn", "metric": "connect_ms",
    "where": { "study": "tokyo-osaka" },
    "stats": "p50,p95,p99", "chart": { "kind": "bars" } } ] }
JSON
run "$PS" report --db s.db --out spec --no-render --spec spec.json
expect_code 0 "report of the spec exits 0 ($ERR)"
gps=$(grep -l "index 1 using 1:2 with points pt 9" auto/charts/*.gp spec/charts/*.gp | grep -v -- -trials)
nb=$(printf '%s\n' "$gps" | grep -c .)
"$REAL_PY" "$TOP/tests/cli/helper/chart-drawn.py" $gps > marks.out 2>&1
nm=$(sed -n 's/.* marks=\([0-9]*\) .*/\1/p' marks.out | paste -sd+ | bc)
no=$(sed -n 's/.* outside=\([0-9]*\)$/\1/p' marks.out | paste -sd+ | bc)
ok '[ "$nb" -ge 4 ] && [ "${nm:-0}" -ge "$nb" ]' "$nb bar charts mark $nm bars"
ok '[ "$no" = 0 ]' "every mark is inside a bar it flags ($no outside: $(grep -v 'outside=0' marks.out | tr '\n' ' '))"
ok 'grep -q "^[0-9]*-tput marks=[1-9]" marks.out && grep -q "^[0-9]*-tput-log marks=[1-9]" marks.out' \
    "the spec's two-bar and log charts are marked ($(grep tput marks.out | tr '\n' ' '))"
test_done
