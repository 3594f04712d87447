# t2716: --pool trials delta and ratio of trials of unequal size.
# The estimate is the mean of the trials' percentiles; with trials
# of 300, 300 and 40 the trial of 40 makes both most of its error and
# most of the trials' spread, so Welch's t stays small and Welch's t
# quantile covered 97.9-98.5 %.  Now the t quantile is that of Welch's
# statistic itself when each trial's value varies by tau^2 + c / n_t
# (stats_tl_contrast_v: its quadratic form's eigenvalues, Imhof).
# Checked here through the CLI against numpy/scipy written from the rule
# (docs/research/intervals.md: eigvalsh, quad, brentq), against Welch's quantile
# (the rule before, which this tree tells apart), and trials of equal
# size keep Welch's interval (the unit test holds the formula:
# tests/fixtures/stats/gen_welchq.py).

have_prereq NUMPY && have_prereq SCIPY ||
    skip_all "numpy or scipy missing (the tree and the oracle need them)"

cat > mk.py <<'PY'
import json, os
import numpy as np
def probe(d, meta, values):
    os.makedirs(d, exist_ok=True)
    json.dump(meta, open(os.path.join(d, "meta.json"), "w"))
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 timeout_s=2 start=2026-09-01T00:00:00Z" % len(values),
            "seq,unix_ns,connect_ms,result"]
    for i, v in enumerate(values):
        rows.append("%d,%d,%.3f,ok" % (i, 1788220800000000000 + i * 200000000, v))
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
rng = np.random.default_rng(2716)
cells = {}
for path, scale, sizes in (("U", 13.0, (300, 300, 40)), ("V", 10.0, (300, 300, 40)),
                           ("W", 13.0, (300, 300, 300)), ("X", 10.0, (300, 300, 300))):
    cells[path] = []
    for t, n in enumerate(sizes, 1):
        v = [float("%.3f" % x) for x in scale * np.exp(0.3 * rng.normal(size=n))]
        # delta: paths U, V, W, X; compare's ratio: paths UV and WX,
        # c 13 against 10
        probe("d/%s/t%d" % (path, t), dict(path=path, trial=t), v)
        probe("r/%s/t%d" % (path, t), dict(path="UV" if path in "UV" else "WX",
              c=str(int(scale)), trial=t), v)
        cells[path].append(v)
json.dump(cells, open("cells.json", "w"))
PY
"$PY" mk.py
"$PS" ingest -q --db d.db d 2>/dev/null
"$PS" ingest -q --db r.db r 2>/dev/null
P="--metric connect_ms --pool trials --stats p50 --ci --format json"

cat > oracle.py <<'PY'
import json, sys
import numpy as np
from scipy import integrate, optimize, stats
cells = json.load(open("cells.json"))
def cell(trials, pct=50):
    x = np.sort(np.concatenate(trials)); N, T, p = len(x), len(trials), pct / 100
    n = np.array([len(t) for t in trials], float)
    u = np.array([np.percentile(t, pct) for t in trials])
    if len(set(n)) == 1:
        return u, None
    h = max(np.sqrt(p * (1 - p) / N), 1 / N)
    slope = (np.percentile(x, 100 * (p + h)) - np.percentile(x, 100 * (p - h))) / (2 * h)
    c = slope ** 2 * p * (1 - p); w0 = n / c; m0 = np.sum(w0 * u) / np.sum(w0)
    tau2 = max(0.0, (np.sum(w0 * (u - m0) ** 2) - (T - 1)) / (np.sum(w0) - np.sum(w0 ** 2) / np.sum(w0)))
    return u, tau2 + c / n
def cdf(va, vb, q):
    ta, tb = len(va), len(vb)
    Q = np.zeros((ta + tb, ta + tb))
    Q[:ta, :ta] = (np.eye(ta) - 1 / ta) / (ta * (ta - 1))
    Q[ta:, ta:] = (np.eye(tb) - 1 / tb) / (tb * (tb - 1))
    L = np.concatenate([np.full(ta, 1 / ta), np.full(tb, -1 / tb)])
    s = np.sqrt(np.concatenate([va, vb]))
    lam = np.linalg.eigvalsh(s[:, None] * (q * q * Q - np.outer(L, L)) * s[None, :])
    lam = lam / np.abs(lam).max(); lam = lam[np.abs(lam) > 1e-12]
    f = lambda x: np.sin(0.5 * np.sum(np.arctan(lam * x))) / (x * np.prod((1 + (lam * x) ** 2) ** 0.25))
    return 0.5 + sum(integrate.quad(f, a, b, epsabs=1e-13, epsrel=1e-12, limit=1000)[0]
                     for a, b in ((0, 1), (1, 30), (30, 1e3), (1e3, np.inf))) / np.pi
kind, a, b = sys.argv[1:4]
rows = json.load(sys.stdin)
if kind == "ratio":    # compare --by c --baseline 10: path UV or WX
    row = [r for r in rows if r["path"] == a + b][0]
    lo, hi = row["ratio_lo"], row["ratio_hi"]
else:                  # delta A-B
    row = [r for r in rows if r["minuend"] == a][0]
    lo, hi = row["p50_lo"], row["p50_hi"]
ua, va = cell(cells[a]); ub, vb = cell(cells[b])
ea, eb = ua.mean(), ub.mean(); T = 3
sa, sb = np.var(ua, ddof=1) / T, np.var(ub, ddof=1) / T
if va is None:
    va = np.full(T, sa * T)
if vb is None:
    vb = np.full(T, sb * T)
if kind == "ratio":
    sa, sb, va, vb = sa / ea ** 2, sb / eb ** 2, va / ea ** 2, vb / eb ** 2
    got = np.log(hi / lo) / 2
else:
    got = (hi - lo) / 2
se = np.sqrt(sa + sb)
df = (sa + sb) ** 2 / (sa ** 2 / 2 + sb ** 2 / 2)
welch = stats.t.ppf(0.975, df) * se
if a == "U":
    q = optimize.brentq(lambda q: cdf(va, vb, q) - 0.95, 1e-3, 100, xtol=1e-14)
    half = q * se
    assert abs(got - half) < 1e-6 * half, (got, half)
    assert abs(welch / half - 1) > 0.05, (welch, half)
    print("%s half-width %.5f (Welch's, the rule before: %.5f)" % (kind, half, welch))
else:
    assert abs(got - welch) < 1e-6 * welch, (got, welch)
PY

# each pair alone: two cells of a design borrow nothing from the others
# (t2722; compare as delta, t2723), so the interval is the pair's own
run "$PS" analyze delta --db d.db $P U-V --where path=U,V
expect_code 0 "delta --ci runs"
ok "printf '%s' \"\$OUT\" | \"\$PY\" oracle.py delta U V" "--pool trials delta p50 of trials 300/300/40: Welch's statistic's own quantile under tau^2 + c/n_t (scipy), not Welch's t quantile"
run "$PS" analyze compare --db r.db $P --by c --baseline 10 --where path=UV
expect_code 0 "compare --ci runs"
ok "printf '%s' \"\$OUT\" | \"\$PY\" oracle.py ratio U V" "--pool trials compare ratio p50 of trials 300/300/40: the same on the log scale"
run "$PS" analyze delta --db d.db $P W-X --where path=W,X
expect_code 0 "delta --ci of equal sizes runs"
ok "printf '%s' \"\$OUT\" | \"\$PY\" oracle.py delta W X" "trials of equal size: Welch's interval, unchanged"
run "$PS" analyze compare --db r.db $P --by c --baseline 10 --where path=WX
ok "printf '%s' \"\$OUT\" | \"\$PY\" oracle.py ratio W X" "trials of equal size: Welch's ratio interval, unchanged"
test_done
