# t2730: analyze delta --attempts all takes each side's percentiles over
# all its attempts, timeouts ranked at the timeout above every success:
# on a planted tree (tests/fixtures/attempts/gen_attempts.py: 1 %, 4 %
# and 10 % timeouts, refusals on the clean side) every Δ is numpy's
# linear percentile of all attempts (golden.json, recorded by the same
# script), null with <stat>_ge_timeout = 1 where a side's percentile
# falls among the timeouts, and two censored sides give no number.
"$PY" "$FIX/attempts/gen_attempts.py" tree tree
"$PS" ingest -q --db s.db tree 2>/dev/null
export GOLD="$FIX/attempts/golden.json"

run "$PS" analyze delta --db s.db --metric connect_ms \
    --stats p50,p90,p95,p99 --attempts all --format json A-B C-A
expect_code 0 "delta --attempts all: exit 0"
ok 'printf "%s" "$OUT" | "$PY" -c "
import json, os, sys
rows = json.load(sys.stdin)
gold = json.load(open(os.environ[\"GOLD\"]))[\"delta\"]
seen = 0
for r in rows:
    g = gold[\"%s %s\" % (r[\"pair\"], r[\"condition\"])]
    for s, want in g.items():
        got = r[s]
        if want is None:
            assert got is None and r[s + \"_ge_timeout\"] == 1, (r[\"pair\"], s, got)
        else:
            assert r[s + \"_ge_timeout\"] == 0, (r[\"pair\"], s)
            assert abs(got - want) <= 1e-9 * max(1, abs(want)), (r[\"pair\"], s, got, want)
        seen += 1
assert seen == 16, seen
"' "every Δ of all attempts matches numpy's (golden), censored ones null with the flag"
# 1 % timeouts: Δp95 of all attempts (2.038) is not the successes' (the
# completed default gives 2.001)
run "$PS" analyze delta --db s.db --metric connect_ms --stats p50,p95,p99 \
    --attempts all --where c=1 A-B C-A
expect_out_has "| A-B | c=1 | 2.019 | 2.038 | ≥ 977.262 (minuend ≥ timeout) |" \
    "A-B: Δp50 and Δp95 of all attempts; p99 among the timeouts: a bound, no number"
expect_out_has "| C-A | c=1 | 1.182 | ≥ 976.177 (minuend ≥ timeout) | ≥ timeout |" \
    "C-A: both sides' p99 among the timeouts: no number, no bound"
test_done
