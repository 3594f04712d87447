# t2220: every metric is reachable.  The tools' end-of-test
# values -- oha's requests per second and response bytes per second,
# iperf3's UDP jitter and loss from the summary a client's JSON carries --
# are one value per run: analyze tables them per path with n = runs,
# labelled so in the caption and in JSON (n_counts).  The oracle reads the
# raw files itself (helper/end-values.py, numpy), no pathstat code; the
# second article's table: RPS at 1 MB x c=16 of about 1,470-1,480 on five
# paths, about 12.4 Gbit/s.

cp -r "$TOP/samples/tree" tree
"$PS" ingest -q --db s.db tree 2>/dev/null

run "$PS" analyze percentiles --db s.db --metric rps --where size=1m --where c=16
expect_code 0 "percentiles --metric rps: exit 0 (it printed no rows)"
# one value per run: the mean, the slowest and the fastest run by
# default, not a p99 that is only the best of 3
expect_out_has "| Path | Condition | n | trials | failures | mean (req/s) | min (req/s) | max (req/s) |" \
    "rps without --stats: mean, min (the slow side), max"
expect_out_has "| B | c=16,ka=on,size=1m | 3 | 3 | 0 | 1478.0 | 1475.9 | 1479.5 |" "B: 3 runs, mean 1478.0 req/s"
expect_out_has "| H | c=16,ka=on,size=1m | 3 | 3 | 0 | 1471.0 | 1470.4 | 1471.7 |" "H: 3 runs, mean 1471.0 req/s"
expect_out_has "_Statistics mean,min,max, the default for rps: one value per run" \
    "the caption says which statistics were chosen and why"
expect_out_has "one value per run, oha's summary.requestsPerSec: n = runs, trials = runs." \
    "the caption says n counts runs and where the value is from"

run "$PS" analyze percentiles --db s.db --metric http_bps --where size=1m --where c=16 --stats p50,min,max
expect_code 0 "percentiles --metric http_bps: exit 0"
expect_out_has "| B | c=16,ka=on,size=1m | 3 | 3 | 0 | 12.4 | 12.4 | 12.4 |" \
    "B: 12.4 Gbit/s, the instance's cap (RPS x 1 MiB x 8)"

run "$PS" analyze percentiles --db s.db --metric jitter_ms
expect_code 0 "percentiles --metric jitter_ms: exit 0 (no runs matched)"
expect_out_has "| D | P=1,proto=udp | 3 | 3 | 0 | 0.024 | 0.029 | 0.019 |" \
    "D: 3 UDP runs, mean 0.024 ms, worst (max) 0.029, best 0.019"
run "$PS" analyze percentiles --db s.db --metric loss_pct --format json
expect_code 0 "percentiles --metric loss_pct: exit 0"
expect_out_has '"n_counts": "runs"' "JSON labels n as a count of runs"
expect_out_has '"stats_default": "mean,max,min", "stats_why": "one value per run' \
    "JSON names the default statistics and why"

run "$PS" analyze percentiles --db s.db --metric connect_ms --format json
expect_out_lacks "n_counts" "... a samples metric's JSON keeps its keys"
expect_out_lacks "stats_default" "... and latency's plain defaults need no words"

# the statistics against numpy over the raw files
if have_prereq NUMPY; then
	for m in rps http_bps jitter_ms loss_pct; do
		w=""
		case $m in rps|http_bps) w="--where size=1m --where c=16" ;; esac
		"$PY" "$TOP/tests/cli/helper/end-values.py" tree $m > want.$m
		"$PS" analyze percentiles --db s.db --metric $m $w --stats p50,mean \
		    --format json > got.$m
		ok "\"\$PY\" - want.$m got.$m <<'PYEOF'
import json, sys
want = [l.split() for l in open(sys.argv[1])]
got = json.load(open(sys.argv[2]))
assert len(want) == len(got), (len(want), len(got))
for w, g in zip(want, got):
    assert g['path'] == w[0] and g['n'] == int(w[1]) and g['trials'] == int(w[1]), (w, g)
    for k, v in (('p50', float(w[2])), ('mean', float(w[3]))):
        assert abs(g[k] - v) <= 1e-9 * abs(v), (k, g[k], v)
PYEOF" "$m: n, p50 and mean per path match numpy over the raw files"
	done
else
	_report 0 "# SKIP numpy oracle: numpy missing for $PY"
fi

# pooled or per trial, a run is one value: the mean across trials is the
# pooled mean
run "$PS" analyze percentiles --db s.db --metric rps --where size=1m --where c=16 --stats mean --pool trials --format csv
expect_out_has "B,\"c=16,ka=on,size=1m\",rps,type7,trials,runs,3,3,0,1477.99" \
    "--pool trials: B's mean of 3 runs"

# the other verbs take them like any metric
run "$PS" analyze delta --db s.db --metric http_bps --where size=1m --where c=16 B-H
expect_code 0 "delta B-H in http_bps: exit 0"
expect_out_has "| B-H | c=16,ka=on,size=1m | 0.0587 | 0.0467 | 0.0652 |" \
    "B-H: Δmean 0.0587 Gbit/s (3 significant digits), Δmin, Δmax"
run "$PS" analyze trials --db s.db --metric rps --where size=1m --where c=16
expect_code 0 "trials --metric rps: exit 0"

# an engine query reads the summaries dataset for them (t7501 runs it)
run "$PS" analyze percentiles --db s.db --metric rps --sql duckdb
expect_code 0 "--sql --metric rps: exit 0"
expect_out_has "m.metric = 'rps' AND m.stat = 'requests_per_sec'" \
    "... from oha's summary.requestsPerSec"
expect_out_has "-- statistics mean,min,max, the default for rps: one value per run" \
    "... computing the statistics analyze shows, and saying why"
test_done
