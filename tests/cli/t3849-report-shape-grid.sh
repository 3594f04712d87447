# t3849: on a grid of campaign shapes the report exits 0, every chart
# draws its data, as a reader sees it, and every number of its tables
# is analyze's.  Trees of helper/shape-tree.py: iperf3 with all-zero
# retransmits, every value constant, one sample, one path, 300 paths
# (tiny runs: past every chart's cap; t3870 reports 10,000), the cron
# campaign of one run hour a day (8 instance types × 5 paths × 21 days,
# a missing week), probes with timeouts, UDP with loss, runs direct and
# tagged via=nlb.  For each: the report without a spec, rendered, exits
# 0; the report of its --init spec exits 0 and writes the same chart
# scripts.  Two specs beyond --init: the cron campaign's weekly report
# ("week": "2026-W46" added to the --init spec's where: the week
# r7i.large missed) and a pivot of the NLB runs against the direct ones
# (a column "condition": "via=nlb"); each rendered.  Every chart
# (helper/chart-drawn.py): its SVG has data marks inside the frame of
# its axes and its PNG coloured pixels there, unless its data holds no
# value to draw (every bar "≥ timeout") or only zeros (a bar of 0 is
# its label); every ▲ inside a bar it flags.  Every table
# (helper/table-check.py): each number of its Markdown, scaled by its
# unit and rounded to the digits printed, is the value of the JSON of
# the pathstat analyze command provenance.json records for it; a cell
# planted wrong is caught.
# tier: browser

have_prereq GNUPLOT || skip_all "gnuplot is not installed (Debian: apt-get install gnuplot-nox)"
have_prereq NUMPY || skip_all "numpy is not installed (the PNG check decodes with it)"

L='{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}'
LV='{tag:day}/{tag:instance_type}/{tag:via}/{path}_{cond}_run{trial}'

# check_report NAME DIR: the charts of a rendered report draw their
# data, and its tables hold analyze's numbers
check_report() {
	"$PY" "$TOP/tests/cli/helper/chart-drawn.py" "$2"/charts/*.svg > "$1.drawn"
	n=$(grep -c . "$1.drawn")
	nsvg=$(ls "$2"/charts/*.svg | grep -c .)
	# a chart with values above 0 draws them in both outputs
	bad=$(awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
	    v["data"] > 0 && (v["svg"] == 0 || v["png"] == 0) { print $1 }' "$1.drawn")
	zero=$(awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
	    v["data"] > 0 && v["png"] == 0 { print $1 }' "$1.drawn")
	for c in $zero; do	# bars of only zeros: nothing coloured to see
		if grep -v '^#' "$2/charts/$c.dat" | awk '{ for (i = 2; i <= NF; i++) if ($i != 0) exit 1 }'; then
			bad=$(printf '%s\n' "$bad" | grep -vx "$c")
		fi
	done
	ok '[ "$n" = "$nsvg" ] && [ -z "$bad" ]' \
	    "$1: every one of $n charts draws its data in SVG and PNG ($(echo $bad))"
	out=$(grep -v "outside=0$" "$1.drawn" | cut -d' ' -f1)
	ok '[ -z "$out" ]' "$1: every ▲ is inside a bar it flags ($(echo $out))"
	run "$PY" "$TOP/tests/cli/helper/table-check.py" "$PS" "$2"
	ok '[ $RC = 0 ]' "$1: every number of its tables is analyze's ($(printf '%s\n' "$OUT" | grep MISMATCH | head -3))"
}

shapes="zero-retr constant one-sample one-path many-paths cron timeouts udp nlb"
for s in $shapes; do
	"$PY" "$TOP/tests/cli/helper/shape-tree.py" "$s" "$s" 300 >/dev/null
	run "$PS" ingest -q --db "$s.db" --layout "$LV.json" --layout "$LV.csv" \
	    --layout "$L.json" --layout "$L.csv" "$s"
	expect_code 0 "$s: ingested ($ERR)"
	run "$PS" report --db "$s.db" --out "$s.out" --html
	expect_code 0 "$s: the report without a spec exits 0 ($ERR)"
	expect_err_lacks "could not be made" "$s: no section is missing"
	run "$PS" report --db "$s.db" --init
	printf '%s\n' "$OUT" > "$s.json"
	run "$PS" report --db "$s.db" --spec "$s.json" --out "$s.init" --no-render
	expect_code 0 "$s: the report of its --init spec exits 0 ($ERR)"
	# the same scripts but for their first line (which spec made them)
	d=$(cd "$s.out/charts" && for f in *.gp; do
		tail -n +2 "$f" > "$TMP/a.gp"
		tail -n +2 "../../$s.init/charts/$f" > "$TMP/b.gp" 2>/dev/null
		cmp -s "$TMP/a.gp" "$TMP/b.gp" || echo "$f"; done)
	ok '[ -z "$d" ]' "$s: it writes the same charts ($d)"
	check_report "$s" "$s.out"
done

# the weekly report: a period of the cron campaign
"$PY" - <<'PY'
import json
s = json.load(open("cron.json"))
s["where"] = dict(s.get("where") or {}, week="2026-W46")
json.dump(s, open("week.json", "w"), indent=2)
PY
run "$PS" report --db cron.db --spec week.json --out week.out --html
expect_code 0 "week: the weekly report exits 0 ($ERR)"
expect_err_lacks "could not be made" "week: no section is missing"
ok 'grep -q "^\*\*Period:\*\* week=2026-W46\. " week.out/index.md' "week: the page names its period"
check_report week week.out

# the NLB runs against the direct ones: a pivot column of a tag
"$PY" - <<'PY'
import json
s = json.load(open("nlb.json"))
s["sections"].append({
    "type": "pivot", "id": "via-nlb", "title": "Through the NLB",
    "metric": "throughput_bps", "paths": ["A", "B", "C"], "stat": "p50",
    "where": {"via": None}, "chart": {"kind": "bars"},
    "columns": [
        {"key": "direct", "label": "Direct", "condition": "P=1"},
        {"key": "nlb", "label": "Via the NLB", "condition": "via=nlb"},
        {"key": "added", "label": "NLB minus direct",
         "delta": ["nlb", "direct"]}]})
json.dump(s, open("pivot.json", "w"), indent=2)
PY
run "$PS" report --db nlb.db --spec pivot.json --out pivot.out --html
expect_code 0 "pivot: the report with a via=nlb column exits 0 ($ERR)"
expect_err_lacks "could not be made" "pivot: no section is missing"
ok 'grep -q "^| C | .* | not measured |" pivot.out/tables/*-via-nlb.md' "pivot: C has no NLB runs: not measured"
check_report pivot pivot.out

# the cross-check catches a wrong cell: A's p50 connect time, the
# digit past the printed one changed in the table and the page alike
cp -R zero-retr.out planted
v=$(sed -n 's/^| A \[^1\] | \([0-9.]*\) |.*/\1/p' planted/tables/01-connect-ms-pct.md)
w=$(awk -v v="$v" 'BEGIN { printf "%.3f", v + 0.002 }')
sed -i "s/^| A \[^1\] | $v |/| A [^1] | $w |/" planted/index.md planted/tables/01-connect-ms-pct.md
run "$PY" "$TOP/tests/cli/helper/table-check.py" "$PS" planted
ok '[ $RC = 1 ] && [ -n "$v" ] && printf "%s\n" "$OUT" | grep -q "MISMATCH tables/01-connect-ms-pct.md: row A, column .p50 (ms).: .$w."' \
    "a p50 planted wrong ($v as $w) is caught ($OUT)"
# what the grid holds, beyond exit 0
ok 'grep -q "20 of 300 lines drawn" many-paths.out/index.md' "300 paths: the ECDF says what it left out"
nh=$(grep -c "heatmap.* data=21 " cron.drawn)
ok '[ "$nh" = 15 ]' "cron: 15 heatmaps, each drawing its 21 cells ($nh)"
test_done
