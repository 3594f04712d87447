# t2707: the pooled interval of trials of unequal size.  The
# pooled percentile weighs a trial by its size; its interval took the
# plain spread of the trials' own values, which weighs them alike: with
# trials of 300, 300 and 40 the trial of 40 made most of that spread,
# and delta and ratio covered 98.1-99.0 % (too wide).  Now each trial's
# value has variance tau^2 + c / n_t (DerSimonian-Laird), the scale is
# Hartung-Knapp's and the estimate's variance sum (n_t / N)^2 v_t.
# Checked here through the CLI against numpy/scipy written from the
# rule (docs/research/intervals.md), and against the rule before, which this
# tree tells apart (the unit test holds the formula:
# tests/fixtures/stats/gen_unequal.py).

have_prereq NUMPY && have_prereq SCIPY ||
    skip_all "numpy or scipy missing (the tree and the oracle need them)"

cat > mk.py <<'PY'
import json, os
import numpy as np
def probe(d, path, trial, values):
    os.makedirs(d, exist_ok=True)
    json.dump(dict(path=path, trial=trial), open(os.path.join(d, "meta.json"), "w"))
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 timeout_s=2 start=2026-09-01T00:00:00Z" % len(values),
            "seq,unix_ns,connect_ms,result"]
    for i, v in enumerate(values):
        rows.append("%d,%d,%.3f,ok" % (i, 1788220800000000000 + i * 200000000, v))
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
rng = np.random.default_rng(2707)
cells = {}
for path, scale in (("U", 13.0), ("V", 10.0)):
    cells[path] = []
    for t, n in enumerate((300, 300, 40), 1):
        v = [float("%.3f" % x) for x in scale * np.exp(0.3 * rng.normal(size=n))]
        probe("u/%s/t%d" % (path, t), path, t, v)
        cells[path].append(v)
json.dump(cells, open("cells.json", "w"))
PY
"$PY" mk.py
"$PS" ingest -q --db t.db u 2>/dev/null
P="--db t.db --metric connect_ms"

cat > oracle.py <<'PY'
import json, sys
import numpy as np
from scipy import stats
cells = json.load(open("cells.json"))
def rule(trials, pct=50):
    x = np.sort(np.concatenate(trials)); N, T, p = len(x), len(trials), pct / 100
    n = np.array([len(t) for t in trials], float)
    q = np.percentile(x, pct); u = np.array([np.percentile(t, pct) for t in trials])
    h = max(np.sqrt(p * (1 - p) / N), 1 / N)
    slope = (np.percentile(x, 100 * (p + h)) - np.percentile(x, 100 * (p - h))) / (2 * h)
    c = slope ** 2 * p * (1 - p); w0 = n / c; m0 = np.sum(w0 * u) / np.sum(w0)
    tau2 = max(0.0, (np.sum(w0 * (u - m0) ** 2) - (T - 1)) / (np.sum(w0) - np.sum(w0 ** 2) / np.sum(w0)))
    v = tau2 + c / n; w = 1 / v; mw = np.sum(w * u) / np.sum(w)
    se = np.sqrt(np.sum(w * (u - mw) ** 2) / (T - 1) * np.sum((n / N) ** 2 * v))
    return q, se, np.std(u, ddof=1) / np.sqrt(T)
what = sys.argv[1]
r = json.load(sys.stdin)
if what == "pct":
    row = [x for x in r if x.get("path") == "U"][0]
    q, se, old = rule(cells["U"])
    h = stats.t.ppf(0.975, 2) * se
    lo, hi = q * np.exp(-h / q), q * np.exp(h / q)
    assert abs(row["p50"] - q) < 1e-9 * q, (row, q)
    assert abs(row["p50_lo"] - lo) < 1e-6 * q and abs(row["p50_hi"] - hi) < 1e-6 * q, (row, lo, hi)
    # the rule before: the plain sd of the trials' p50s, this much apart
    assert abs(old / se - 1) > 0.1, (old, se)
else:
    row = r[0]
    qa, sa, oa = rule(cells["U"]); qb, sb, ob = rule(cells["V"])
    df = (sa ** 2 + sb ** 2) ** 2 / (sa ** 4 / 2 + sb ** 4 / 2)
    half = stats.t.ppf(0.975, df) * np.hypot(sa, sb)
    got = (row["p50_hi"] - row["p50_lo"]) / 2
    assert abs(got - half) < 1e-6 * half, (got, half)
    dfo = (oa ** 2 + ob ** 2) ** 2 / (oa ** 4 / 2 + ob ** 4 / 2)
    old = stats.t.ppf(0.975, dfo) * np.hypot(oa, ob)
    assert abs(old / half - 1) > 0.1, (old, half)
    print("delta half-width %.4f (the rule before: %.4f)" % (half, old))
PY

run "$PS" analyze percentiles $P --stats p50 --ci --format json
expect_code 0 "percentiles --ci runs"
ok "printf '%s' \"\$OUT\" | \"\$PY\" oracle.py pct" "pooled p50 of trials 300/300/40: the interval numpy/scipy make from the rule, not the plain spread's"
run "$PS" analyze delta $P U-V --stats p50 --ci --format json
expect_code 0 "delta --ci runs"
ok "printf '%s' \"\$OUT\" | \"\$PY\" oracle.py delta" "delta p50: Welch on the two size-weighted standard errors (scipy)"
run "$PS" analyze percentiles $P --stats p50 --ci
expect_out_has "trials of unequal size" "the caption still says the interval comes from the trials of unequal size"
test_done
