# t3853: the ▲ of a bar group pathstat check flagged sits inside a bar
# of that group.  One mark at the group's centre, half the tallest bar
# high, sat in the gap between the two middle bars of an even number
# of them (the sample tree's P=4 bars: p50, p5, p1, min), and, where
# the middle bar is about half the tallest, in that bar's value label
# ("12▲90" on a latency chart of p50, p95, p99).  Each bar of a flagged
# group now carries the mark half way up itself.  Checked from the
# chart's data and script (helper/chart-drawn.py: each mark inside the
# box of a bar, 0.92 of its slot wide, from the axis to its value) on
# the sample tree's report without a spec and on a spec whose bars are
# p50, p95, p99 of connect time and p50, p5 of throughput; and, with
# gnuplot and Chromium, on the rendered SVGs as laid out in a page
# (helper/marks-page.py): each mark's centre inside a bar's box, its
# own box crossing no text.
# tier: browser

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

# as a reader sees it: gnuplot renders the marked bar charts, headless
# Chromium lays them out, and each mark's centre must lie in a bar's
# box and its box cross no text (a value label: "12▲90")
if have_prereq GNUPLOT && have_prereq CHROMIUM; then
	run "$PS" report --db s.db --out ra
	expect_code 0 "rendered without a spec ($ERR)"
	run "$PS" report --db s.db --out rs --spec spec.json
	expect_code 0 "rendered with the spec ($ERR)"
	svgs=$(for g in $gps; do s=$(echo "$g" | sed 's/^auto/ra/; s/^spec/rs/; s/\.gp$/.svg/'); echo "$s"; done)
	"$REAL_PY" "$TOP/tests/cli/helper/marks-page.py" marks.html $svgs
	mkdir -p home
	HOME="$TMP/home" XDG_CONFIG_HOME="$TMP/home/.config" \
	XDG_CACHE_HOME="$TMP/home/.cache" timeout 120 chromium --headless \
	    --no-sandbox --disable-gpu --disable-background-networking \
	    --disable-component-update --disable-sync --no-first-run \
	    --user-data-dir="$TMP/profile" --dump-dom "file://$TMP/marks.html" \
	    > marks.dom 2>/dev/null
	nm=$(grep -c '"chart"' marks.dom)
	nout=$(grep -c '"inbar":false' marks.dom)
	ntxt=$(grep -c '"texts":\["' marks.dom)
	ok '[ "$nm" -ge "$nb" ] && [ "$nout" = 0 ] && [ "$ntxt" = 0 ]' \
	    "Chromium: all $nm marks sit inside a bar, none on a text ($nout outside, $ntxt on a text)"
else
	ok true "# skip: gnuplot or chromium is not installed"
fi
test_done
