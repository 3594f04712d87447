# t5312: syn-retransmit asks whether the values at median + 1 s (3 s,
# ...) are more than the run's own tail puts there.  A heavy-tailed HTTP
# campaign with no SYN loss (oha 3 x 2,000 requests, lognormal median
# 20 ms sigma 1 plus 2 % of requests 10x slower; seeded numpy) has
# requests near median + 1 s of its own: main flagged it (and 97 % of
# such campaigns, tests/sim/synsim.py).  A narrow connect-like run
# (median 10 ms, sigma 0.3) with one request at +1 s and one at +3 s is
# still flagged, both modes named.

have_prereq NUMPY || skip_all "numpy missing"
"$PY" - <<'PYEOF'
import json, os
import numpy as np
rng = np.random.default_rng(7)
def run(path, trial, x):
    d = "tree/%s/t%d" % (path, trial)
    os.makedirs(d)
    json.dump({"path": path, "trial": trial, "tool": "oha"},
              open(d + "/meta.json", "w"))
    with open(d + "/oha.csv", "w") as f:
        f.write("request-start,DNS,DNS+dialup,request-duration,bytes,status\n")
        for i, v in enumerate(x):
            f.write("%.6f,0.000005,0.000300,%.6f,1024,200\n" % (i / 1000, v / 1000))
for t in (1, 2, 3):
    x = 20.0 * np.exp(rng.normal(size=2000))
    slow = rng.random(2000) < 0.02
    x[slow] *= 10.0
    # a request of the slow mode where a retransmitted SYN would land
    x[0] = np.median(x) + 1000.0
    run("H", t, x)
    y = 10.0 * np.exp(0.3 * rng.normal(size=2000))
    if t == 2:
        y[100] += 1000.0
        y[900] += 3000.0
    run("S", t, y)
PYEOF
"$PS" ingest -q --db s.db tree 2>/dev/null
expect_sql s.db "SELECT count(*) FROM runs" 6 "six oha runs"
run "$PS" check --db s.db --only syn-retransmit --format json
expect_code 3 "check --only syn-retransmit: a finding, exit 3"
printf '%s' "$OUT" > f.json
ok "\"\$PY\" - <<'PYEOF'
import json
r = json.load(open('f.json'))
assert [(x['path'], x['trial']) for x in r] == [('S', 2)], r
ev = r[0]['evidence']
assert '1 s (1), 3 s (1) mode' in ev and 'own tail' in ev, ev
PYEOF" "only S trial 2 is flagged, with its 1 s and 3 s values and the tail's expectation"
test_done
