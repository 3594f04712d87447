# t3849: on a grid of campaign shapes the report exits 0 and every chart
# draws its data, as a reader sees it.  Trees of helper/shape-tree.py:
# iperf3 with all-zero retransmits, every value constant, one sample,
# one path, 300 paths (tiny runs: past every chart's cap; bench/run.sh
# reports 10,000), the cron campaign of one run hour a day (8 instance
# types × 5 paths × 21 days, a missing week), probes with timeouts, UDP
# with loss.  For each: the report without a spec, rendered, exits 0;
# the report of its --init spec exits 0 and writes the same chart
# scripts.  Every chart (helper/chart-drawn.py): its SVG has data marks
# inside the frame of its axes and its PNG coloured pixels there,
# unless its data holds no value to draw (every bar "≥ timeout") or
# only zeros (a bar of 0 is its label); every ▲ inside a bar it flags.
# tier: browser

have_prereq GNUPLOT || skip_all "gnuplot is not installed (Debian: apt-get install gnuplot-nox)"
have_prereq NUMPY || skip_all "numpy is not installed (the PNG check decodes with it)"

L='{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}'
shapes="zero-retr constant one-sample one-path many-paths cron timeouts udp"
for s in $shapes; do
	"$PY" "$TOP/tests/cli/helper/shape-tree.py" "$s" "$s" 300 >/dev/null
	run "$PS" ingest -q --db "$s.db" --layout "$L.json" --layout "$L.csv" "$s"
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
	"$PY" "$TOP/tests/cli/helper/chart-drawn.py" "$s".out/charts/*.svg > "$s.drawn"
	n=$(grep -c . "$s.drawn")
	nsvg=$(ls "$s".out/charts/*.svg | grep -c .)
	# a chart with values above 0 draws them in both outputs
	bad=$(awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
	    v["data"] > 0 && (v["svg"] == 0 || v["png"] == 0) { print $1 }' "$s.drawn")
	zero=$(awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
	    v["data"] > 0 && v["png"] == 0 { print $1 }' "$s.drawn")
	for c in $zero; do	# bars of only zeros: nothing coloured to see
		if grep -v '^#' "$s.out/charts/$c.dat" | awk '{ for (i = 2; i <= NF; i++) if ($i != 0) exit 1 }'; then
			bad=$(printf '%s\n' "$bad" | grep -vx "$c")
		fi
	done
	ok '[ "$n" = "$nsvg" ] && [ -z "$bad" ]' \
	    "$s: every one of $n charts draws its data in SVG and PNG ($(echo $bad))"
	out=$(grep -v "outside=0$" "$s.drawn" | cut -d' ' -f1)
	ok '[ -z "$out" ]' "$s: every ▲ is inside a bar it flags ($(echo $out))"
done
# what the grid holds, beyond exit 0
ok 'grep -q "20 of 300 lines drawn" many-paths.out/index.md' "300 paths: the ECDF says what it left out"
nh=$(grep -c "heatmap.* data=21 " cron.drawn)
ok '[ "$nh" = 15 ]' "cron: 15 heatmaps, each drawing its 21 cells ($nh)"
test_done
