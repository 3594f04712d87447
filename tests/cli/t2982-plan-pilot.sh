# t2982: `pathstat plan` from a pilot already ingested.  The within-trial
# spread is each trial's log-normal sd at the percentile, (log Q(p_s) -
# log Q(0.5)) / z(p_s) (the interquartile form near the median), the
# median over trials; the trial spread is the sd of the trials' log
# quantiles, its variance at the 50 % upper confidence bound (a few
# trials' variance lies below the truth half the time), less a trial
# quantile's sampling variance; loss is the
# timeouts' share of attempts (docs/plan.md) -- checked against numpy
# on a generated pilot.  A pilot of one trial cannot estimate a trial
# spread: plan gives a range of trials and says which runs to add;
# --model trial= stated over it gives a number again.

have_prereq NUMPY && have_prereq SCIPY ||
    skip_all "numpy or scipy missing (the pilot and the oracle need them)"

cat > mk.py <<'PY'
import json, os
import numpy as np
def probe(d, path, trial, values, timeouts=0):
    os.makedirs(d, exist_ok=True)
    json.dump(dict(path=path, trial=trial), open(os.path.join(d, "meta.json"), "w"))
    n = len(values) + timeouts
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 timeout_s=2 start=2026-09-01T00:00:00Z" % n,
            "seq,unix_ns,connect_ms,result"]
    for i, v in enumerate(values):
        rows.append("%d,%d,%.3f,ok" % (i, 1788220800000000000 + i * 200000000, v))
    for j in range(timeouts):
        i = len(values) + j
        rows.append("%d,%d,,timeout" % (i, 1788220800000000000 + i * 200000000))
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
rng = np.random.default_rng(2982)
cells = {}
for path, trials, shift in (("P", 4, 0.05), ("S", 1, 0.0)):
    cells[path] = []
    for t in range(1, trials + 1):
        e = shift * rng.normal()
        v = [float("%.3f" % x) for x in 10 * np.exp(e + 0.3 * rng.normal(size=1000))]
        probe("u/%s/t%d" % (path, t), path, t, v, timeouts=2 if path == "P" else 0)
        cells[path].append(v)
json.dump(cells, open("cells.json", "w"))
PY
"$PY" mk.py
"$PS" ingest -q --db t.db u 2>/dev/null

cat > oracle.py <<'PY'
import json, sys
import numpy as np
from scipy import stats
cells = json.load(open("cells.json"))
r = {x["path"]: x for x in json.load(sys.stdin)}
pct = float(sys.argv[1]); p = pct / 100
x = r["P"]; tr = [np.sort(t) for t in cells["P"]]
loss = 8 / (8 + sum(len(t) for t in tr))
ps = p / (1 - loss); z = stats.norm.ppf(ps)
def w1(t):
    if abs(z) < 0.5:
        return (np.log(np.percentile(t, 75)) - np.log(np.percentile(t, 25))) / (2 * stats.norm.ppf(0.75))
    return (np.log(np.percentile(t, 100 * ps)) - np.log(np.percentile(t, 50))) / z
within = np.median([w1(t) for t in tr])
lq = [np.log(np.percentile(t, 100 * ps)) for t in tr]
nsucc = np.mean([len(t) for t in tr])
samp = within ** 2 * ps * (1 - ps) / (nsucc * stats.norm.pdf(z) ** 2)
# the trials' variance at its 50 % upper confidence bound (chi-square,
# len(lq) - 1 df); pathstat's Wilson-Hilferty quantile is within 1 %
k = len(lq) - 1
up = k / stats.chi2.ppf(0.5, k)
between = np.sqrt(max(0, np.var(lq, ddof=1) * up - samp))
bad = []
for k, want, tol in (("within", within, 1e-9), ("between", between, 0.02), ("loss", loss, 1e-9)):
    if abs(x[k] - want) > tol * max(1, abs(want)) and abs(x[k] - want) > tol * abs(want):
        bad.append((k, x[k], want))
if x["within_from"] != "pilot" or x["between_from"] != "pilot, 4 trials, 50 % upper bound" or x["loss_from"] != "pilot":
    bad.append(("from", x))
print(bad); sys.exit(1 if bad else 0)
PY

for s in p50 p95 p99; do
	run "$PS" plan --db t.db --metric connect_ms --stat $s --width 10% --format json
	expect_code 0 "plan $s from a pilot"
	ok "printf '%s' \"\$OUT\" | \"\$PY\" oracle.py ${s#p}" \
	    "... its within and trial spreads and loss match numpy ($s)"
done

run "$PS" plan --db t.db --metric connect_ms --stat p95 --width 10% --where path=S --format json
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json,sys
x=json.load(sys.stdin)[0]
assert x[\"trials\"] is None and 3 <= x[\"trials_lo\"] < x[\"trials_hi\"], x
assert x[\"between_from\"].startswith(\"one pilot trial\"), x
assert \"add 2 runs of each path\" in x[\"note\"], x
'" "a pilot of one trial: a range of trials, and the runs to add"

run "$PS" plan --db t.db --metric connect_ms --stat p95 --width 10% --where path=S --format md
expect_out_has "| S | – | p95 | 3-" "Markdown shows the range"

run "$PS" plan --db t.db --metric connect_ms --stat p95 --width 10% --where path=S --model trial=0.05 --format json
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json,sys
x=json.load(sys.stdin)[0]
assert x[\"trials\"] >= 3 and x[\"between_from\"] == \"command line\" and x[\"within_from\"] == \"pilot\", x
'" "--model trial= over a one-trial pilot: a number, each spread's source named"

run "$PS" plan --db t.db --metric connect_ms --stat p95 --width 10% --where pth=S
expect_code 2 "an unknown --where key is a usage error"
expect_err_has "path" "... naming the keys that exist"

run "$PS" plan --db t.db --metric http_ms --stat p95 --width 10%
expect_code 1 "no pilot runs of the metric: a failure"
expect_err_has "no pilot runs of http_ms" "... saying what to ingest or state"

test_done
