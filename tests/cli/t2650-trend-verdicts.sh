# t2650: trend verdicts hold up on noise and find a drift.
# Before: 30 % of 14-day and 32.5 % of 7-day noise series were called
# "stepped", a +1 %/day drift was "stepped" (94 %), and any monotone
# 3-point series was "drifting".  Seeded series here: 20 noise paths of
# 14 days and 20 of 7, 5 drifting +1 %/day over 14 days, a monotone
# 3-day path, a clean step.  The full error rates are docs/research/verdicts.md.

cat > mk.py <<'PY'
import json, math, os, random
random.seed(2650)
def probe(d, path, tags, scale, n=300):
    os.makedirs(d, exist_ok=True)
    json.dump(dict(tags, path=path, trial=1), open(os.path.join(d, "meta.json"), "w"))
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 timeout_s=0.4 start=2026-09-01T00:00:00Z" % n,
            "seq,unix_ns,connect_ms,result"]
    for i in range(n):
        rows.append("%d,%d,%.5f,ok" % (i, 1788220800000000000 + i * 200000000,
                                       scale * random.lognormvariate(0, 0.3)))
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
def series(path, days, f):
    for day in range(days):
        wob = math.exp(random.gauss(0, 0.02))
        probe("s/%s/d%d" % (path, day), path, {"day": "2026-09-%02d" % (day + 1)}, f(day) * wob)
for k in range(20):
    series("N14-%02d" % k, 14, lambda d: 1.0)
    series("N7-%02d" % k, 7, lambda d: 1.0)
for k in range(5):
    series("D-%d" % k, 14, lambda d: 1.01 ** d)
series("M3", 3, lambda d: 1.0 + 0.5 * d)
series("S", 14, lambda d: 1.0 if d < 7 else 1.5)
PY
"$PY" mk.py
"$PS" ingest -q --db t.db s 2>/dev/null

trend() { # ARGS...: the p50 trend as JSON in OUT
	run "$PS" analyze trend --db t.db --metric connect_ms --by day \
	    --stats p50 --format json "$@"
}
js() { printf '%s' "$OUT" | "$PY" -c "import json,sys; r=json.load(sys.stdin); $1"; }
called() { # PREFIX: rows whose verdict is drifting or stepped
	js "print(sum(1 for x in r if x['path'].startswith('$1') and (x['verdict'].startswith('drifting') or x['verdict'].startswith('step'))))"
}

trend
expect_code 0 "trend runs"
n14=$(called N14-); n7=$(called N7-)
ok "[ \"$n14\" -le 2 ]" "14-day noise: at most 2 of 20 series get a verdict (got $n14)"
ok "[ \"$n7\" -le 2 ]" "7-day noise: at most 2 of 20 series get a verdict (got $n7)"
nd=$(js "print(sum(1 for x in r if x['path'].startswith('D-') and x['verdict'].startswith('drifting up')))")
ok "[ \"$nd\" -ge 4 ]" "+1 %/day over 14 days: drifting up in 4 or more of 5 (got $nd)"
ok "js 'assert not [x for x in r if x[\"path\"].startswith(\"D-\") and x[\"verdict\"].startswith(\"step\")], r'" "the drift is not overruled by a step"
ok "js 'm=[x for x in r if x[\"path\"]==\"M3\"][0]; assert m[\"verdict\"].startswith(\"no verdict: 3 points (need 5\"), m'" "a monotone 3-point series: no verdict, and why"
ok "js 's=[x for x in r if x[\"path\"]==\"S\"][0]; assert s[\"verdict\"].startswith(\"step at 2026-09-08\"), s; assert s[\"verdict_kind\"] == \"step\", s; assert s[\"change_points\"] == \"2026-09-08\", s'" "a 50 % step on day 8 is a step there, not also a drift"
run "$PS" analyze trend --db t.db --metric connect_ms --by day --stats p50 --where path=M3
expect_out_has "--threshold (5 %)" "the note names the practical threshold"
expect_out_has "about 5 % of series get a verdict" "and the measured false-verdict rate"

trend --where path=D-0,D-1,D-2,D-3,D-4 --threshold 40%
expect_code 0 "trend takes --threshold"
ok "js 'assert all(x[\"verdict\"].startswith(\"stable\") for x in r), r; assert sum(x[\"verdict\"].startswith(\"stable within ±40 %\") for x in r) >= 3, r'" "a 13 % drift under --threshold 40 %: stable within the threshold, and it says so"

run "$PS" analyze trend --db t.db --metric connect_ms --threshold nope
expect_code 2 "a bad --threshold is a usage error"
test_done
