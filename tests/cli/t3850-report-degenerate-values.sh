# t3850: a report of a well-formed tree exits 0 whatever its values are.
# Trees of tests/cli/helper/shape-tree.py: every iperf3 interval with 0
# retransmits (loopback, a clean network), every value of every metric
# the same, one run of one interval and one probe, one path.  The
# no-spec report and the one of its --init spec exit 0 on each; a log
# axis with 0 among its values (the retransmits ECDF: gnuplot failed
# "x range is invalid") becomes linear and the caption says why; an axis
# of one value gets a range of its own (no "empty x range" warning);
# a line of one sample is a point.

L='{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}'
for s in zero-retr constant one-sample one-path; do
	"$PY" "$TOP/tests/cli/helper/shape-tree.py" "$s" "$s" >/dev/null
	run "$PS" ingest -q --db "$s.db" --layout "$L.json" --layout "$L.csv" "$s"
	expect_code 0 "$s: ingested ($ERR)"
	run "$PS" report --db "$s.db" --out "$s.out" --no-render
	expect_code 0 "$s: the report without a spec exits 0 ($ERR)"
	run "$PS" report --db "$s.db" --init
	printf '%s\n' "$OUT" > "$s.json"
	run "$PS" report --db "$s.db" --spec "$s.json" --out "$s.init" --no-render
	expect_code 0 "$s: the report of its --init spec exits 0 ($ERR)"
done
# where retransmits are 0, their ECDF is on a linear axis and says so
ecdf=$(ls zero-retr.out/charts/*-retransmits-ecdf.gp)
ok '! grep -q "set logscale" "$ecdf"' "zero retransmits: the ECDF has no log axis"
ok 'grep -q "Figure .*TCP retransmits.*a linear axis: some values are 0 or below, which a log axis cannot show" zero-retr.out/index.md' \
    "the caption says why"
# the metrics whose values are above 0 keep their log axis
tecdf=$(ls zero-retr.out/charts/*-throughput-bps-ecdf.gp)
ok 'grep -q "set logscale x" "$tecdf"' "throughput keeps its log axis"
# one value: a range around it, not gnuplot's empty-range repair
cecdf=$(ls constant.out/charts/*-connect-ms-ecdf.gp)
ok 'grep -q "^set xrange \[0.45:0.55\]" "$cecdf" && ! grep -q "set logscale" "$cecdf"' \
    "constant values: the ECDF's axis is a range around the one value ($(grep -h 'set xrange' "$cecdf"))"
# one sample: its line is one step, drawn as a point
oecdf=$(ls one-sample.out/charts/*-connect-ms-ecdf.gp)
ok 'grep -q "index 0 using 1:2 with points pt 7" "$oecdf"' \
    "one sample: the ECDF draws it as a point (a step of one sample is nothing)"
# all-zero bars: an axis to 1, not an empty one
pct=$(ls zero-retr.out/charts/*-retransmits-pct.gp)
ok 'grep -q "^set yrange \[0:1\]" "$pct"' "all-zero bars get an axis from 0 to 1"

if have_prereq GNUPLOT; then
	for s in zero-retr constant one-sample one-path; do
		run "$PS" report --db "$s.db" --out "$s.r"
		expect_code 0 "$s: rendered, exit 0 ($ERR)"
		expect_err_lacks "range is invalid" "$s: no invalid range"
		expect_err_lacks "empty x range" "$s: no empty x range"
		n=$(ls "$s".r/charts/*.gp | grep -c .)
		p=$(ls "$s".r/charts/*.png | grep -c .)
		ok '[ "$n" = "$p" ]' "$s: every chart rendered ($p of $n)"
	done
else
	ok true "# skip: gnuplot is not installed"
fi
test_done
