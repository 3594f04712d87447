# t5610: outlier-trial at the articles' design of 3 trials:
# the spread the campaign's cells share is what a trial is judged
# against, on p50, p95 and p99.  Planted (gen_check.py trial-outliers):
# H2 ka-off trial 2 a TIME_WAIT trial (30 % of its requests 5x slower,
# p50 unmoved), H3 ka-on trial 3 2x slower (1.93x the median trial: the
# per-cell rule's 2x floor misses it).  Counter-example: the same
# campaign without them.

"$PY" "$FIX/check/gen_check.py" plant trial-outliers --out o
"$PS" ingest -q --db o.db o 2>/dev/null
expect_sql o.db "SELECT count(*) FROM runs" 24 "4 paths x 2 conditions x 3 trials"
run "$PS" check --db o.db --only outlier-trial --format json
expect_code 3 "the two planted trials: findings"
printf '%s' "$OUT" > o.json
ok "\"\$PY\" -c '
import json
r = json.load(open(\"o.json\"))
got = sorted((x[\"path\"], x[\"condition\"], x[\"trial\"]) for x in r)
assert got == [(\"H2\", \"c=1,ka=off,size=1k\", 2), (\"H3\", \"c=1,ka=on,size=1k\", 3)], got
'" "exactly H2 ka-off trial 2 and H3 ka-on trial 3"
ok "\"\$PY\" -c '
import json
x = [x for x in json.load(open(\"o.json\")) if x[\"path\"] == \"H2\"][0]
e = x[\"evidence\"]
assert \"trial 2\" in e and \"p95 is\" in e and \"p50 is\" not in e, e
assert \"in the 8 cells of 3 trials\" in e and \"withdrawn\" in e, e
assert x[\"cause\"].startswith(\"TIME_WAIT exhaustion\"), x
'" "TIME_WAIT trial: found on its tail (p95, p99), not p50; the interval is withdrawn; TIME_WAIT named"
ok "\"\$PY\" -c '
import json
x = [x for x in json.load(open(\"o.json\")) if x[\"path\"] == \"H3\"][0]
assert \"p50 is\" in x[\"evidence\"] and \"1.9\" in x[\"evidence\"], x
'" "2x trial: found on p50 at 1.9x the median trial"

"$PY" "$FIX/check/gen_check.py" plant trial-outliers-clean --out c
"$PS" ingest -q --db c.db c 2>/dev/null
run "$PS" check --db c.db --only outlier-trial
expect_code 0 "counter-example: trials 1-3 % apart, nothing planted"
expect_out_has "No findings" "clean: no outlier trial"
test_done
