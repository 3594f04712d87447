# t2500: the mean of values near DBL_MAX: three trials of
# 1.7e308 used to overflow the sum and show "not measured".  The mean of
# equal values is that value; the mean of 8.5e307, 1.7e308, 1.7e308 is
# 1.417e308 although their sum is past DBL_MAX.

for t in 1 2 3; do
	mkdir -p tree/A/t$t tree/B/t$t
	echo "{\"path\": \"A\", \"trial\": $t}" > tree/A/t$t/meta.json
	echo "{\"path\": \"B\", \"trial\": $t}" > tree/B/t$t/meta.json
	for p in A B; do
		{
			echo "# pathprobe 1 target=h$p:$t addr=10.0.0.2 count=3 interval_s=0.2 timeout_s=0.4 start=2026-08-2${t}T01:00:00Z"
			echo "seq,unix_ns,connect_ms,result"
			for s in 0 1 2; do
				v=1.7e308
				[ $p = B ] && [ $s = 0 ] && v=8.5e307
				echo "$s,$((1787878800000000000 + s * 200000000 + t)),$v,ok"
			done
		} > tree/$p/t$t/probe.csv
	done
done
run "$PS" ingest -q --db h.db tree
expect_code 0 "values near DBL_MAX are ingested"
run "$PS" analyze percentiles --db h.db --metric connect_ms --stats p50,mean --pool trials --format json
expect_code 0 "percentiles --pool trials"
printf '%s' "$OUT" > t.json
cat > check.py <<'PY'
import json, math, sys
rows = {r["path"]: r for r in json.load(open("t.json"))}
bad = []
def near(got, want, what):
    if not isinstance(got, (int, float)) or not math.isfinite(got) or \
            abs(got - want) > 1e-12 * want:
        bad.append("%s: got %r, want %r" % (what, got, want))
near(rows["A"]["p50"], 1.7e308, "A: mean across trials of p50")
near(rows["A"]["mean"], 1.7e308, "A: mean of equal values")
# B: each trial is 8.5e307, 1.7e308, 1.7e308; the mean is 1.4166...e308
want = 8.5e307 / 3 + 2 * (1.7e308 / 3)	# the sum itself would overflow
near(rows["B"]["mean"], want, "B: mean whose sum is past DBL_MAX")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
run "$PY" check.py
expect_code 0 "the means are numbers, not 'not measured' ($OUT)"
run "$PS" analyze percentiles --db h.db --metric connect_ms --stats mean
expect_out_lacks "not measured" "the Markdown table shows them too"
test_done
