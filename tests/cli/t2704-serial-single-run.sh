# t2704: one pathprobe run whose probes are serially correlated.
# A run's connect times drift together (a queue, a route);
# the order-statistic interval of a single run assumed independent
# probes: with AR(1) rho 0.8 it covered 57-65 %.  Now the lag-1 rank
# autocorrelation of the probes in sample order decides: A (AR(1) rho
# 0.9, 300 probes) gets a wider p50 interval than the independent one,
# and no p95 interval, with the reason; B (the same values shuffled:
# independent) keeps exactly the order-statistic interval.  The values
# come from a seeded numpy stream (written below), so the test is
# deterministic.

have_prereq NUMPY || skip_all "numpy missing"
"$PY" - <<'PYEOF'
import json, os
import numpy as np
rng = np.random.default_rng(5)
n, rho = 300, 0.9
z = np.empty(n)
z[0] = rng.normal()
for i in range(1, n):
    z[i] = rho * z[i - 1] + np.sqrt(1 - rho * rho) * rng.normal()
a = np.round(20 * np.exp(0.3 * z), 3)
b = rng.permutation(a)
for path, x, salt in (("A", a, 1), ("B", b, 2)):
    d = "tree/%s/trial1" % path
    os.makedirs(d)
    json.dump({"path": path, "trial": 1, "tool": "pathprobe",
               "condition": "c1"}, open(d + "/meta.json", "w"))
    with open(d + "/probe.csv", "w") as f:
        f.write("# pathprobe 1 target=127.0.0.1:9 addr=127.0.0.1 "
                "count=%d interval_s=0.2 timeout_s=1 "
                "start=2026-08-29T02:20:00Z\n" % n)
        f.write("seq,unix_ns,connect_ms,result\n")
        for i, v in enumerate(x):
            f.write("%d,%d,%.3f,ok\n" % (i, 1787970000 * 10**9 +
                                           salt * 10**12 + i * 2 * 10**8, v))
PYEOF
"$PS" ingest -q --db s.db tree 2>/dev/null
expect_sql s.db "SELECT count(*) FROM runs" 2 "two single runs"

run "$PS" analyze percentiles --db s.db --metric connect_ms --ci \
    --stats p50,p95 --format json
expect_code 0 "percentiles --ci on single runs: exit 0"
printf '%s' "$OUT" > s.json
# the oracle: the equal-tailed order-statistic ranks of n independent
# samples (exact binomial), as stats_sample_interval
ok "\"\$PY\" - <<'PYEOF'
import json, math
r = {x['path']: x for x in json.load(open('s.json'))}
a, b = r['A'], r['B']
def ranks(n, p, al=0.025):
    cdf, c = [], 0.0
    for k in range(n + 1):
        c += math.comb(n, k) * p ** k * (1 - p) ** (n - k)
        cdf.append(c)
    lo = max(l for l in range(1, n + 1) if cdf[l - 1] <= al)
    hi = min(u for u in range(1, n + 1) if 1 - cdf[u - 1] <= al)
    return lo, hi
import csv
x = sorted(float(row['connect_ms']) for row in csv.DictReader(
    l for l in open('tree/B/trial1/probe.csv') if not l.startswith('#')))
lo, hi = ranks(300, 0.5)
assert abs(b['p50_lo'] - x[lo - 1]) < 1e-9 and abs(b['p50_hi'] - x[hi - 1]) < 1e-9, (b, x[lo - 1], x[hi - 1])
assert b['p95_lo'] is not None and b['p50_ci_covers'] == 'samples'
# A holds the same values: wider than the independent interval
assert a['p50'] == b['p50']
assert a['p50_lo'] < b['p50_lo'] and a['p50_hi'] > b['p50_hi'], (a, b)
assert (a['p50_hi'] - a['p50_lo']) > 2 * (b['p50_hi'] - b['p50_lo']), (a, b)
assert a['p50_ci_covers'] == 'samples'
PYEOF" "B (independent): the order-statistic interval; A (rho 0.9): the same values, a p50 interval over twice as wide"
ok "\"\$PY\" -c '
import json
a = [x for x in json.load(open(\"s.json\")) if x[\"path\"] == \"A\"][0]
assert a[\"p95_lo\"] is None and a[\"p95_ci_reason\"].startswith(\"the run\x27s samples are serially correlated\"), a
'" "A: no p95 interval, the reason says serially correlated"

run "$PS" analyze percentiles --db s.db --metric connect_ms --ci \
    --stats p50,p95
expect_out_has "_† the run's samples are serially correlated (lag-1 rank autocorrelation): too few independent samples for a within-run interval on this percentile; use ≥ 3 runs._" \
    "Markdown: the footnote gives the reason"
expect_out_has "of n / VIF samples where the run's samples are serially correlated" \
    "Markdown: the caption says how the interval widens"
test_done
