# t2901: loss beside latency on the time axis.  The month of
# t2900 (helper/month-tree.py: E loses 30 % of its probes 10:00-13:59 on
# 2026-11-22, 24 of its 480 that day): the no-spec report's day chart
# draws each lossy path's loss % per day as bars on a right axis over the
# same days, names E's lost day beside its bar, and says so in the
# caption; a path that lost nothing gets no bars and no right axis.
# Without gnuplot the script and data are still written (exit 0); with
# it, the chart renders with the mark.  Trend JSON gives its series as an
# array of points, E's lost day censored and out of the fit; ingest says
# the shared keys once per path; runs takes --columns hour (the small
# items of the month design, here as regressions).

"$PY" "$TOP/tests/cli/helper/month-tree.py" tree > counts
run "$PS" ingest --db m.db --layout '{tag:day}/{path}/{*}' tree
expect_code 0 "the month ingests"
ok '[ "$(printf "%s\n" "$ERR" | grep -c "claim path=")" = 0 ] && [ "$(printf "%s\n" "$ERR" | grep -c "conflict: path ")" = 5 ]' \
    "the shared keys are said once per path, not once per group ($(printf "%s\n" "$ERR" | grep -c conflict) conflict lines)"
run "$PS" runs --db m.db --where path=E --where day=2026-11-22 --where hour=13 --columns path,day,hour --format csv
ok '[ $RC = 0 ] && [ "$(printf "%s\n" "$OUT" | sed -n 2p)" = "E,2026-11-22,13" ]' "runs --columns hour ($OUT$ERR)"
export SOURCE_DATE_EPOCH=1796000000

# no gnuplot on PATH: everything but the images
run env PATH=/nonexistent "$PS" report --db m.db --out b
expect_code 0 "without gnuplot the month report exits 0 ($ERR)"
gp=$(ls b/charts/*-days.gp 2>/dev/null | head -1)
dat=$(ls b/charts/*-days.dat 2>/dev/null | head -1)
ok '[ -n "$gp" ] && [ -n "$dat" ]' "the day chart's script and data are written ($gp)"
ok '[ "$(grep -c "axes x1y2 with boxes" "$gp")" = 1 ]' "one loss series on the right axis: E's, the only path that lost probes"
ok 'grep -q "axes x1y2 with boxes lt 5 title .E loss %." "$gp"' "in E's colour (its line is lt 5)"
ok 'grep -q "^set y2label .Loss per day (%, bars)." "$gp" && grep -q "^set y2range \[0:6.25\]" "$gp"' "the right axis is loss %, from 0, room above 5 %"
ok 'grep -q "^set label [0-9]* .E 11-22: 5.0 % lost. at 21, second 5 " "$gp"' "E's lost day (x = 21) named beside its bar"
ok 'grep -q "^# column 7: E loss %" "$dat"' "the data file names the loss column"
ok '[ "$(awk "\$1 == 21 { print \$7 }" "$dat")" = 5 ] && [ "$(awk "\$1 == 20 { print \$7 }" "$dat")" = 0 ]' "and holds E's 5 % on day 21, 0 the day before"
ok 'grep -q "bars (right axis): loss % per day of the 1 path that lost probes, 1 lossy day-path, the most E on 2026-11-22 (5.0 %)" b/index.md' "the caption says what the bars are"
ok 'grep -q "^set label [0-9]* .≥ timeout. at 21, " "$gp"' "the censored p99 is still marked on the same day"

# a path that lost nothing: no bars, no right axis
cat > spec.json <<'JSON'
{ "title": "A alone", "metric": "connect_ms", "sections": [
  { "type": "chart", "id": "a", "title": "A by day",
    "where": {"path": "A"}, "stats": "p99", "chart": "days" } ] }
JSON
run "$PS" report --db m.db --spec spec.json --out a --no-render
expect_code 0 "a spec's days chart of A ($ERR)"
agp=$(ls a/charts/*.gp 2>/dev/null | head -1)
ok '[ -n "$agp" ] && ! grep -q "y2" "$agp"' "A lost nothing: no right axis ($agp)"

if have_prereq GNUPLOT; then
	(cd b/charts && gnuplot "$(basename "$gp")") 2>gp.err
	svg=${gp%.gp}.svg
	ok '[ -s "$svg" ] && [ -s "${gp%.gp}.png" ]' "gnuplot renders the chart ($(head -c 300 gp.err))"
	ok 'grep -q "E 11-22: 5.0 % lost" "$svg"' "the mark is in the picture"
	ok 'grep -q "Loss per day" "$svg"' "and the right axis' label"
else
	ok true "# skip: gnuplot not installed (rendering not checked)"
fi

# trend JSON: the series is an array of points with their censoring
run "$PS" analyze trend --db m.db --metric connect_ms --by day --where path=E --stats p99 --format json
expect_code 0 "trend --format json"
printf '%s\n' "$OUT" > trend.json
cat > tj.py <<'PY'
import json, sys
rows = json.load(open("trend.json"))
rows = rows["rows"] if isinstance(rows, dict) else rows
s = rows[0]["series"]
assert isinstance(s, list) and len(s) == 30, type(s)
lost = [p for p in s if p["point"] == "2026-11-22"][0]
assert lost["censored"] is True and lost["in_fit"] is False, lost
assert all(p["censored"] is False for p in s if p is not lost)
assert rows[0]["censored_points"] == 1
PY
run "$PY" tj.py
ok '[ $RC = 0 ]' "trend JSON series: an array of 30 points, E's lost day censored and out of the fit ($ERR)"
test_done
