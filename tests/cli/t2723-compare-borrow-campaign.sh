# t2723: compare's difference and ratio borrow what the campaign knows,
# as delta's and ratio's do (stats_tl_contrast_borrow(), the function
# the coverage harness measures: its slow-5x300-campaign ratio held
# 95.1-96.9 %, the pair's own Welch interval up to 98.7 %;
# docs/research/coverage.md).  8 paths x 2 values of a tag x 5 trials x
# 300 probes, one design: each row's interval takes the pooled spread of
# the 16 cells' trial p50s (log scale, Σ (T - 1) = 64 degrees of
# freedom, floored by each side's 1.5 (1.4826 MAD)^2), Welch-Satterthwaite
# over the two sides; checked against numpy/scipy.  The test and its p
# are the trials' own (exact Mann-Whitney, scipy), the same in the
# campaign and in one path alone, where the interval is the pair's own
# and the table says the selection cannot see slow runs that come and
# go.  Before, compare kept its own Welch interval in the campaign too.

have_prereq SCIPY || skip_all "numpy/scipy missing (the oracle of the borrowed interval)"

cat > mk.py <<'PY'
import random, sys
sys.path.insert(0, sys.argv[1])
from probe_campaign import Campaign
random.seed(2723)
c = Campaign(300)
for p in range(1, 9):
    path = "P%d" % p
    for it, sc in (("x", 1.0), ("y", 1.2)):
        for t in range(1, 6):
            b = random.gauss(0, 0.08)
            c.probe("c/%s/%s/t%d" % (path, it, t), {"cc": it, "path": path, "trial": t},
                    [10 * sc * random.lognormvariate(b, 0.3) for _ in range(300)])
PY
"$PY" mk.py "$TOP/tests/cli/helper"
"$PS" ingest -q --db c.db c 2>/dev/null

cat > oracle.py <<'PY'
import csv, glob, json, sys
import numpy as np
from scipy import stats
# each trial's p50 (numpy's default, type 7), per cell (path, cc)
u = {}
for d in sorted(glob.glob("c/*/*/t*")):
    _, path, cc, _ = d.split("/")
    v = [float(x[2]) for x in csv.reader(l for l in open(d + "/probe.csv") if not l.startswith("#")) if x[3] == "ok"]
    u.setdefault((path, cc), []).append(np.percentile(v, 50))
u = {k: np.array(x) for k, x in u.items()}
ss = sum(((x - x.mean()) ** 2).sum() / x.mean() ** 2 for x in u.values())
df = sum(len(x) - 1 for x in u.values())
pool = ss / df
def var(x):
    v = x / x.mean()
    rob = (1.4826 * np.median(np.abs(v - np.median(v)))) ** 2 * 1.5
    return max(pool, rob)
rows = json.load(open(sys.argv[1]))
assert len(rows) == 8, rows
for r in rows:
    a, b = u[(r["path"], "y")], u[(r["path"], "x")]
    ea, eb = a.mean(), b.mean()
    for kind in ("ratio", "diff"):
        va, vb = var(a) / len(a), var(b) / len(b)
        if kind == "diff":
            va, vb = va * ea * ea, vb * eb * eb
        se = np.sqrt(va + vb)
        d = (va + vb) ** 2 / (va * va / df + vb * vb / df)
        q = stats.t.ppf(0.975, d)
        if kind == "ratio":
            lo, hi = ea / eb * np.exp(-q * se), ea / eb * np.exp(q * se)
        else:
            lo, hi = ea - eb - q * se, ea - eb + q * se
        assert abs(r[kind + "_lo"] - lo) < 1e-6 * abs(lo) + 1e-9, (r, kind, lo)
        assert abs(r[kind + "_hi"] - hi) < 1e-6 * abs(hi) + 1e-9, (r, kind, hi)
    mw = stats.mannwhitneyu(a, b, alternative="two-sided", method="exact")
    assert r["test"] == "mann-whitney" and abs(r["p"] - mw.pvalue) < 1e-9, (r, mw)
PY

run "$PS" analyze compare --db c.db --metric connect_ms --by cc --pool trials \
    --stats p50 --format json
expect_code 0 "compare, the campaign: exit 0"
cp .out all.json
ok "\"\$PY\" oracle.py all.json" \
    "each row's difference and ratio borrow the 16 cells' spread (numpy/scipy); p is Mann-Whitney's"
run "$PS" analyze compare --db c.db --metric connect_ms --by cc --pool trials \
    --stats p50 --where path=P1 --format json
expect_code 0 "compare, P1 alone: exit 0"
cp .out one.json
ok "\"\$PY\" -c 'import json
a = [r for r in json.load(open(\"all.json\")) if r[\"path\"] == \"P1\"][0]
o = json.load(open(\"one.json\"))[0]
assert a[\"ratio\"] == o[\"ratio\"] and a[\"p\"] == o[\"p\"], (a, o)
assert a[\"ratio_ci_covers\"] == o[\"ratio_ci_covers\"] == \"trials\"
wa = a[\"ratio_hi\"] - a[\"ratio_lo\"]
wo = o[\"ratio_hi\"] - o[\"ratio_lo\"]
assert abs(wa - wo) > 0.05 * wo, (wa, wo)'" \
    "P1 alone: its own interval, the same ratio and p"
run "$PS" analyze compare --db c.db --metric connect_ms --by cc --pool trials \
    --stats p50
expect_out_has "8 interval(s) borrowed the spread of the trials of the selection's cells of their design" \
    "the campaign: the note says the rows borrowed"
run "$PS" analyze compare --db c.db --metric connect_ms --by cc --pool trials \
    --stats p50 --where path=P1
expect_out_has "a selection this small cannot see slow runs that come and go" \
    "P1 alone: it says it cannot see them"

test_done
