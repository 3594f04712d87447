# t2985: a reason analyze or compare gives for a withheld interval or an
# "inconclusive" for lack of data names the design that would give one
# and the command that sizes it: 2 trials ("collect ≥ 3 trials ...;
# pathstat plan --width W% says how many"), too few samples a trial
# ("...; pathstat plan --width W% says how many a trial"), compare's 1
# against 3 trials ("need 2 a side ...; pathstat plan --detect X% says
# how many") and 3 against 3 ("can never reach p < 0.05 ...; 4 a side
# can; pathstat plan --detect X% ..."), X the change seen rounded up.
# The command named runs on the same database and plans the design.

have_prereq NUMPY || skip_all "numpy missing"

cat > mk.py <<'PY'
import json, os
import numpy as np
def probe(d, path, trial, values, tags={}):
    os.makedirs(d, exist_ok=True)
    json.dump(dict(tags, path=path, trial=trial), open(os.path.join(d, "meta.json"), "w"))
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 timeout_s=2 start=2026-09-01T00:00:00Z" % len(values),
            "seq,unix_ns,connect_ms,result"]
    for i, v in enumerate(values):
        rows.append("%d,%d,%.3f,ok" % (i, 1788220800000000000 + i * 200000000, v))
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
rng = np.random.default_rng(2985)
for path, it, trials, m, n in (("P", "a", 3, 10, 300), ("P", "b", 3, 13, 300),
                               ("P", "one", 1, 10, 300), ("TWO", "a", 2, 10, 300),
                               ("FEW", "a", 3, 10, 40)):
    for t in range(1, trials + 1):
        probe("u/%s/%s/t%d" % (path, it, t), path, t,
              list(m * np.exp(0.05 * rng.normal() + 0.3 * rng.normal(size=n))),
              {"instance_type": it})
PY
"$PY" mk.py
"$PS" ingest -q --db t.db u 2>/dev/null

run "$PS" analyze percentiles --db t.db --metric connect_ms --where path=TWO --stats p50 --ci --format json
expect_out_has "2 trials: collect ≥ 3 trials for a trial-level interval; pathstat plan --width W% says how many" \
    "2 trials: the trials to collect, and the command that sizes them"

run "$PS" analyze percentiles --db t.db --metric connect_ms --where path=FEW --stats p99 --ci --pool trials --format json
expect_out_has "(see check few-samples); pathstat plan --width W% says how many a trial" \
    "p99 of 40 samples a trial: the command that sizes the trials"

run "$PS" analyze compare --db t.db --metric connect_ms --by instance_type --where path=P --baseline a --stats p50 --format json
expect_out_has "(need 2 a side to see trial-to-trial spread); pathstat plan --detect" \
    "compare 1 vs 3 trials: inconclusive, and the command that sizes a verdict"

expect_out_has "can never reach p < 0.05" "compare 3 vs 3: can never reach p < 0.05"
expect_out_has "; 4 a side can; pathstat plan --detect" "... 4 a side can, and the command that sizes it"
X=$(printf '%s' "$OUT" | "$PY" -c '
import json, re, sys
r = json.load(sys.stdin)
print(re.search(r"pathstat plan --detect (\d+%)", json.dumps(r, ensure_ascii=False)).group(1))')

run "$PS" plan --db t.db --metric connect_ms --stat p50 --detect "$X" --between instance_type --where path=P --format json
expect_code 0 "the command named runs on the same pilot ($X)"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json,sys
r=json.load(sys.stdin)
assert len(r) == 3 and all(x[\"groups\"] == 3 for x in r), r
assert all(x[\"trials_lo\"] >= 4 and x[\"power\"] >= 0.8 for x in r), r
'" "... and plans at least 4 trials a side"

test_done
