# t2706: one pathprobe run of 1,000 serially correlated probes (AR(1)
# rho 0.8): the p99 interval's upper end was the run's maximum
# (the largest of the n_eff samples, scaled to n), which covered 99.6 %
# in the coverage harness; the second-largest covered 91.6 %.  Now an
# interval where one rank step moves an end's binomial tail by more
# than alpha/2 moves both ends of that interval between two order statistics
# (Nyblom 1992), so the upper end lies strictly between the run's
# second-largest value and its maximum, and the lower end between two
# of its values.  The middle percentiles, whose steps are small, keep
# ends that are sample values.  Values from a seeded numpy stream (seed 1,
# one of the runs whose n_eff for the p99 reaches the 367 an interval
# needs).

have_prereq NUMPY || skip_all "numpy missing"
"$PY" - <<'PYEOF'
import json, os
import numpy as np
rng = np.random.default_rng(1)
n, rho = 1000, 0.8
z = np.empty(n)
z[0] = rng.normal()
for i in range(1, n):
    z[i] = rho * z[i - 1] + np.sqrt(1 - rho * rho) * rng.normal()
a = np.round(20 * np.exp(0.3 * z), 4)
d = "tree/A/trial1"
os.makedirs(d)
json.dump({"path": "A", "trial": 1, "tool": "pathprobe",
           "condition": "c1"}, open(d + "/meta.json", "w"))
with open(d + "/probe.csv", "w") as f:
    f.write("# pathprobe 1 target=127.0.0.1:9 addr=127.0.0.1 "
            "count=%d interval_s=0.2 timeout_s=1 "
            "start=2026-08-29T02:20:00Z\n" % n)
    f.write("seq,unix_ns,connect_ms,result\n")
    for i, v in enumerate(a):
        f.write("%d,%d,%.4f,ok\n" % (i, 1787970000 * 10**9 + i * 2 * 10**8,
                                     v))
PYEOF
"$PS" ingest -q --db s.db tree 2>/dev/null
expect_sql s.db "SELECT count(*) FROM runs" 1 "one single run"

run "$PS" analyze percentiles --db s.db --metric connect_ms --ci \
    --stats p25,p50,p99 --format json
expect_code 0 "percentiles --ci on a serially correlated run: exit 0"
printf '%s' "$OUT" > s.json
ok "\"\$PY\" - <<'PYEOF'
import csv, json
a = json.load(open('s.json'))[0]
x = sorted(float(r['connect_ms']) for r in csv.DictReader(
    l for l in open('tree/A/trial1/probe.csv') if not l.startswith('#')))
assert a['p99_ci_covers'] == 'samples', a
assert x[-2] < a['p99_hi'] < x[-1], (a['p99_hi'], x[-2:])
assert a['p99'] < a['p99_hi'] and a['p99_lo'] < a['p99'], a
assert a['p99_lo'] not in x, a
PYEOF" "p99: the upper end lies strictly between the run's two largest values (was its maximum), the lower end between two values"
ok "\"\$PY\" - <<'PYEOF'
import csv, json
a = json.load(open('s.json'))[0]
x = set(float(r['connect_ms']) for r in csv.DictReader(
    l for l in open('tree/A/trial1/probe.csv') if not l.startswith('#')))
for p in ('p25', 'p50'):
    assert a[p + '_lo'] in x and a[p + '_hi'] in x, (p, a)
    assert a[p + '_lo'] < a[p] < a[p + '_hi'], (p, a)
PYEOF" "p25, p50: ends are sample values (one rank step is small there)"
test_done
