# t2717: delta's growth (Δp99/Δp50) needs a Δp50 clearly away from 0,
# with or without --ci.  A and B are single pathprobe runs of 300 probes
# drawn from the same lognormal (seeded numpy), so their Δp50 is noise
# of a few µs and Δp99/Δp50 any number (main printed it, here -3.29);
# C is 2 ms slower, so its growth stands and equals numpy's.  With no
# trial-level interval (one trial a side) the rule is the range between
# the sides' order-statistic p50 intervals: A-B's holds 0.

have_prereq NUMPY || skip_all "numpy missing"
"$PY" - <<'PYEOF'
import json, os
import numpy as np
rng = np.random.default_rng(11)
n = 300
for path, shift, salt in (("A", 0.0, 1), ("B", 0.0, 2), ("C", 2.0, 3)):
    x = np.round(10 * np.exp(0.1 * rng.normal(size=n)) + shift, 3)
    d = "tree/%s/trial1" % path
    os.makedirs(d)
    json.dump({"path": path, "trial": 1, "tool": "pathprobe"},
              open(d + "/meta.json", "w"))
    with open(d + "/probe.csv", "w") as f:
        f.write("# pathprobe 1 target=127.0.0.1:9 addr=127.0.0.1 "
                "count=%d interval_s=0.2 timeout_s=1 "
                "start=2026-08-29T02:20:00Z\n" % n)
        f.write("seq,unix_ns,connect_ms,result\n")
        for i, v in enumerate(rng.permutation(x)):
            f.write("%d,%d,%.3f,ok\n" % (i, 1787970000 * 10**9 +
                                           salt * 10**12 + i * 2 * 10**8, v))
PYEOF
"$PS" ingest -q --db s.db tree 2>/dev/null
expect_sql s.db "SELECT count(*) FROM runs" 3 "three single runs"

for ci in "" --ci; do
	run "$PS" analyze delta --db s.db --metric connect_ms $ci A-B C-A
	expect_code 0 "delta $ci: exit 0"
	ok "printf '%s\n' \"\$OUT\" | grep '^| A-B ' | grep -q '–, Δp50 not distinguishable from 0'" \
	    "delta $ci: A-B's growth withheld, with the reason"
	run "$PS" analyze delta --db s.db --metric connect_ms $ci A-B C-A \
	    --format json
	printf '%s' "$OUT" > d.json
	ok "\"\$PY\" - <<'PYEOF'
import csv, json
import numpy as np
r = {x['pair']: x for x in json.load(open('d.json'))}
def v(p):
    return np.array([float(x['connect_ms']) for x in
                     csv.DictReader(l for l in open('tree/%s/trial1/probe.csv' % p)
                                    if not l.startswith('#'))])
a, c = v('A'), v('C')
g = (np.percentile(c, 99) - np.percentile(a, 99)) / \
    (np.percentile(c, 50) - np.percentile(a, 50))
assert r['A-B']['growth'] is None, r['A-B']
assert abs(r['C-A']['growth'] - g) < 1e-9 * abs(g), (r['C-A']['growth'], g)
PYEOF" "delta $ci --format json: A-B growth null, C-A's equals numpy's"
done
test_done
