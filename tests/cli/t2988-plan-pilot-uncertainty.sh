#!/bin/sh
# t2988: a pilot of 3 trials estimates the trial-to-trial spread with 2
# degrees of freedom, below the truth half the time; `pathstat plan`
# plans with the variance's 50 % upper confidence bound (chi-square), so
# it asks for more trials than the same spreads stated with --model
# (a stated spread is taken as given) and says so in between_from.

have_prereq NUMPY || skip_all "numpy missing (the pilot needs it)"

cat > mk.py <<'PY'
import json, os
import numpy as np
rng = np.random.default_rng(2988)
lq = []
for t in range(1, 4):
    d = "u/P/t%d" % t
    os.makedirs(d, exist_ok=True)
    json.dump(dict(path="P", trial=t), open(os.path.join(d, "meta.json"), "w"))
    v = [float("%.3f" % x) for x in 10 * np.exp(0.1 * rng.normal() + 0.3 * rng.normal(size=1000))]
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=1000 interval_s=0.2 timeout_s=2 start=2026-09-01T00:00:00Z",
            "seq,unix_ns,connect_ms,result"]
    for i, x in enumerate(v):
        rows.append("%d,%d,%.3f,ok" % (i, 1788220800000000000 + i * 200000000, x))
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
    lq.append(np.log(np.percentile(v, 50)))
# the raw trial spread (no sampling correction: it only lowers it)
print("%.6f" % np.std(lq, ddof=1))
PY
B=$("$PY" mk.py)
"$PS" ingest -q --db t.db u 2>/dev/null

run "$PS" plan --db t.db --metric connect_ms --stat p50 --width 5% --format json
expect_code 0 "plan from a 3-trial pilot"
PILOT=$OUT
W=$(printf '%s' "$PILOT" | "$PY" -c 'import json,sys; print("%.6f" % json.load(sys.stdin)[0]["within"])')
ok "printf '%s' \"\$PILOT\" | \"\$PY\" -c '
import json,sys
x=json.load(sys.stdin)[0]
assert x[\"between_from\"]==\"pilot, 3 trials, 50 % upper bound\", x
assert x[\"between\"]>$B, x
'" "... the trial spread is the pilot's upper bound, and says so"

run "$PS" plan --db t.db --metric connect_ms --stat p50 --width 5% --format json --model within=$W,trial=$B
expect_code 0 "plan from the same spreads stated with --model"
MODEL=$OUT
ok "\"\$PY\" -c '
import json,sys
p=json.loads(sys.argv[1])[0]; m=json.loads(sys.argv[2])[0]
assert m[\"between_from\"]==\"command line\" and m[\"between\"]==$B, m
assert p[\"trials\"]>m[\"trials\"], (p[\"trials\"], m[\"trials\"])
' \"\$PILOT\" \"\$MODEL\"" "... the pilot plans more trials than the stated spreads"

test_done
