# t2721: a crashed or short trial is down-weighted, not a reason to
# withhold a cell of many.  Two paths of 63 trials x 300 probes
# (lognormal sigma 0.3, trial effect sigma 0.05); one of A's trials
# crashed after 150 probes.  `--pool trials` p99 needs 299 samples a
# trial for an order-statistic interval; before, that one trial made
# the whole cell's p99 "too few samples" (percentiles, and the delta of
# the two paths).  Now the p99 interval is printed, the short trial's
# value entering with its own larger variance; with 3 trials one of
# which is short (fewer than 90 % with the samples), still withheld.

cat > mk.py <<'PY'
import random, sys
sys.path.insert(0, sys.argv[1])
from probe_campaign import Campaign
random.seed(2721)
c = Campaign(600)
for path, m in (("A", 10), ("B", 11)):
    for t in range(1, 64):
        n = 150 if (path, t) == ("A", 17) else 300
        b = random.gauss(0, 0.05)
        c.probe("c/%s/t%d" % (path, t), {"path": path, "trial": t},
                [m * random.lognormvariate(b, 0.3) for _ in range(n)])
for t in (1, 2, 3):
    n = 150 if t == 2 else 300
    c.probe("c/S/t%d" % t, {"path": "S", "trial": t},
            [10 * random.lognormvariate(0, 0.3) for _ in range(n)])
PY
"$PY" mk.py "$TOP/tests/cli/helper"
"$PS" ingest -q --db c.db c 2>/dev/null
expect_sql c.db "SELECT count(*) FROM runs" 129 "2 paths x 63 trials, and 3"

js() { printf '%s' "$OUT" | "$PY" -c "import json, sys
r = {x.get('path', x.get('minuend')): x for x in json.load(sys.stdin)}
$1"; }

run "$PS" analyze percentiles --db c.db --metric connect_ms --ci \
    --pool trials --stats p99 --format json
expect_code 0 "percentiles --pool trials --ci --stats p99: exit 0"
ok "js 'a = r[\"A\"]
assert a[\"p99_ci_reason\"] is None, a
assert a[\"p99_lo\"] < a[\"p99\"] < a[\"p99_hi\"], a
assert a[\"p99_ci_covers\"] == \"trials\"'" \
    "A (one trial of 150 among 63): a p99 interval"
ok "js 's = r[\"S\"]
assert s[\"p99_lo\"] is None, s
assert s[\"p99_ci_reason\"].startswith(\"too few samples\"), s'" \
    "S (one trial of 150 among 3): still withheld"

run "$PS" analyze delta --db c.db --metric connect_ms --ci --pool trials \
    --stats p99 A-B --format json
expect_code 0 "delta --pool trials --ci --stats p99 A B: exit 0"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json, sys
x = json.load(sys.stdin)[0]
assert x[\"p99_lo\"] is not None and x[\"p99_lo\"] < x[\"p99\"] < x[\"p99_hi\"], x'" \
    "delta A - B: a p99 interval"

test_done
