# t2726: ratio's JSON says, per statistic, how many cells of their
# design its interval borrowed the spread of (<stat>_ci_borrowed; 0: the
# pair's own), as percentiles' does.  8 paths x 2 conditions (ka-on,
# ka-off) x 5 trials x 300 probes, one design of 16 cells: each path's
# off/on ratio borrows from 16 (--pool trials too); one path alone (two
# cells) from none.  Before, ratio's JSON had no such key.

cat > mk.py <<'PY'
import random, sys
sys.path.insert(0, sys.argv[1])
from probe_campaign import Campaign
random.seed(2726)
c = Campaign(300)
for p in range(1, 9):
    for cond, sc in (("ka-on", 1.0), ("ka-off", 1.3)):
        for t in range(1, 6):
            b = random.gauss(0, 0.08)
            c.probe("c/P%d/%s/t%d" % (p, cond, t),
                    {"path": "P%d" % p, "trial": t, "condition": cond},
                    [10 * sc * random.lognormvariate(b, 0.3) for _ in range(300)])
PY
"$PY" mk.py "$TOP/tests/cli/helper"
"$PS" ingest -q --db c.db c 2>/dev/null

for pool in pooled trials; do
	run "$PS" analyze ratio --db c.db --metric connect_ms --ci --pool $pool \
	    --stats p50 --across ka off/on --format json
	expect_code 0 "ratio --ci --pool $pool, the campaign: exit 0"
	ok "\"\$PY\" -c 'import json
rows = json.load(open(\".out\"))
assert len(rows) == 8, rows
for r in rows:
    assert r[\"p50_ci_borrowed\"] == 16 and r[\"p50_ci_covers\"] == \"trials\", r'" \
	    "--pool $pool, the campaign: p50_ci_borrowed = 16"
done
run "$PS" analyze ratio --db c.db --metric connect_ms --ci --stats p50 \
    --across ka off/on --where path=P3 --format json
expect_code 0 "ratio --ci, P3 alone: exit 0"
ok "\"\$PY\" -c 'import json
rows = json.load(open(\".out\"))
assert len(rows) == 1 and rows[0][\"p50_ci_borrowed\"] == 0, rows
assert rows[0][\"p50_ci_covers\"] == \"trials\", rows'" \
    "P3 alone: p50_ci_borrowed = 0"

test_done
